"""The built-in Combination plugin (paper 002): pieces of several colours on a board of
empty squares, walls and holes, placed so that no piece is attacked by a piece of another
colour. A piece attacks along rows and columns (rook), diagonals (bishop) or both
(queen); its rays stop at the first wall or piece, and pass over holes.

A level is grown (strategy ``growing``): a random board of walls and holes, then one
piece more at a time while the level still has a placement. A level is kept when its
placements are all the same up to swapping colours whose piece sets are identical
(criterion ``unique-modulo-symmetry``, through ``solution_key``). With the strategy's
``--start full``, a level is instead the pieces of a random full placement on a random
board, kept when unique (``placements``): the way to 6 x 6 boards and more.

Text: the first line lists the piece types, ``2 rook a, 1 queen b`` (count, attack,
colour letter); the rows follow, ``.`` empty, ``#`` wall, ``o`` hole. The one-line
format is ``2 rook a, 1 queen b: ..#./o.../....``. In a solution, every square is two
letters: ``aR`` a rook of colour a (``B`` bishop, ``Q`` queen), ``..``, ``##``, ``oo``.

This module is the type; the rest of the folder: ``combination.mzn`` (the model),
``level`` (a level as data), ``text`` (the text format), ``rules`` (the rules in Python:
safe squares, colour swaps), ``squares``, ``tidy`` (post-processing), ``explain``,
``drawing`` and ``play`` (the play page's board).
"""
import re
from importlib.resources import files

from puzzle_engine import (Codec, Drawing, Explanation, Grading, Growing, Param, Parsed, Play,
                           PuzzleInputError, PuzzleType, SplitModel, Symmetry, hookimpl)
from puzzle_engine.grid import board_images

from . import drawing, explain, placements, play, tidy, words
from .level import ATTACKS, COLOURS, Level, Piece, piece_sets
from .rules import renaming, safe
from .squares import EMPTY, HOLE, WALL
from .text import pieces_text, read_pieces, read_rows, rows_text, solution_rows

PUZZLE_ENGINE_CONTRACT = 3

BASE_DRAWS = 1000  # random boards drawn for a base before giving up
EXTENSIONS = 4  # placements of a candidate built from its parent's, at most


class Combination(PuzzleType, Codec, Growing, SplitModel, Symmetry, Explanation, Grading,
                  Drawing, Play):
    name = "combination"
    description = ("Combination: place pieces of several colours so that no piece is "
                   "attacked by another colour (walls and pieces stop rays, holes do not).")
    # 4x4 by default: a level grows in a few seconds there. Larger boards need denser
    # levels to be unique, and proving a dense candidate unsolvable takes the solver
    # seconds at 6x6 (docs/performance.md).
    params = (
        Param("width", int, 4, "columns of the board (2 to 12)"),
        Param("height", int, 4, "rows of the board (2 to 12)"),
        Param("colours", int, 2, "colours of pieces (2 to 8)"),
        Param("walls", int, None, "walls on a random board (default: a sixth of the squares)"),
        Param("holes", int, None, "holes on a random board (default: a tenth of the squares)"),
        Param("pieces", str, "rook,bishop,queen", "kinds of piece a grown level may use"),
    )
    models = (files("puzzle_engine_plugins.combination") / "combination.mzn",)
    decision = "cell"
    # Chuffed: proving a dense candidate unsolvable needs a solver that learns (a 6x6
    # level of 24 pieces: 16 s on Chuffed; Gecode was still searching after 40 s).
    solver = "chuffed"
    strategy = "growing"
    criterion = "unique-modulo-symmetry"

    def check_params(self, params):
        out = {}
        for name in ("width", "height"):
            v = params[name]
            if isinstance(v, bool) or not isinstance(v, int) or not 2 <= v <= 12:
                raise PuzzleInputError(f"bad --{name} {v!r}: expected 2 to 12")
            out[name] = v
        colours = params["colours"]
        if isinstance(colours, bool) or not isinstance(colours, int) or \
                not 2 <= colours <= len(COLOURS):
            raise PuzzleInputError(f"bad --colours {colours!r}: expected 2 to {len(COLOURS)}")
        out["colours"] = colours
        area = out["width"] * out["height"]
        for name, default in (("walls", area // 6), ("holes", area // 10)):
            v = default if params[name] is None else params[name]
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= area:
                raise PuzzleInputError(f"bad --{name} {v!r}: expected 0 to {area}")
            out[name] = v
        if out["walls"] + out["holes"] > area - 2:
            raise PuzzleInputError(f"--walls {out['walls']} and --holes {out['holes']} leave "
                                   f"fewer than 2 of the {area} squares empty")
        kinds = params["pieces"]
        if isinstance(kinds, (list, tuple)):
            kinds = ",".join(kinds)
        names = [a.strip() for a in str(kinds).split(",") if a.strip()]
        for a in names:
            if a not in ATTACKS:
                raise PuzzleInputError(f"bad --pieces: unknown piece {a!r} (expected "
                                       f"{', '.join(ATTACKS)})")
        if not names:
            raise PuzzleInputError("bad --pieces: name at least one of rook, bishop, queen")
        out["pieces"] = ",".join(a for a in ATTACKS if a in names)
        return out

    # -- growing ------------------------------------------------------------------------
    def random_base(self, params, rng):
        # Post-processed as it is drawn (paper 002, section 4.1), which no piece changes:
        # a board with an edge line of only walls and holes is drawn again (trimmed, the
        # level would not be the size asked for), and a wall that can never stop a ray
        # becomes a hole. Every level grown from it is then post-processed already.
        w, h = params["width"], params["height"]
        for _ in range(BASE_DRAWS):
            squares = rng.sample(range(w * h), params["walls"] + params["holes"])
            walls = set(squares[:params["walls"]])
            holes = set(squares[params["walls"]:])
            board = tuple(WALL if i in walls else HOLE if i in holes else EMPTY
                          for i in range(w * h))
            if tidy.trim(w, h, board)[:2] == (w, h):
                return Level(w, h, tidy.soften(w, h, board), ())
        raise PuzzleInputError(f"no {w}x{h} board with {params['walls']} walls and "
                               f"{params['holes']} holes in {BASE_DRAWS} draws had an empty "
                               "square on every edge; ask for fewer walls or holes")

    def grow(self, params, instance, rng):
        if sum(p.count for p in instance.pieces) >= instance.board.count(EMPTY):
            return []
        options = [(c, a) for c in range(1, params["colours"] + 1)
                   for a in params["pieces"].split(",")]
        rng.shuffle(options)
        grown = []
        for colour, attack in options:
            pieces = list(instance.pieces)
            for n, p in enumerate(pieces):
                if (p.colour, p.attack) == (colour, attack):
                    pieces[n] = p._replace(count=p.count + 1)
                    break
            else:
                pieces.append(Piece(1, colour, attack))
            grown.append(instance._replace(pieces=tuple(pieces)))
        return grown

    def extensions(self, params, parent, solution, candidate):
        # The parent's placement with the new piece on each empty square where no enemy
        # sees it and it sees no enemy: a piece more only blocks rays between the others,
        # so they stay safe. Two of them that differ (beyond a swap of colours) show that
        # the candidate is not unique, with no solver call. A few are enough.
        if solution is None:
            if parent.pieces:
                return ()
            solution = tuple(-v for v in parent.board)  # no pieces: -1 wall, -2 hole
        old = {(p.colour, p.attack): p.count for p in parent.pieces}
        added = [p for p in candidate.pieces if p.count != old.get((p.colour, p.attack), 0)]
        if len(added) != 1 or added[0].count != old.get((added[0].colour, added[0].attack), 0) + 1:
            return ()
        code = 4 * added[0].colour + ATTACKS.index(added[0].attack) + 1
        found = []
        for i, v in enumerate(solution):
            if v == 0 and safe(solution, parent.width, i, code):
                found.append(solution[:i] + (code,) + solution[i + 1:])
                if len(found) == EXTENSIONS:
                    break
        return found

    def random_full(self, params, base, rng):
        # The base filled with pieces until no square takes one more: the level of that
        # placement's pieces, and the placement (a solution); None when a colour found
        # no square (the level would lack it).
        placement = placements.fill(base.board, base.width, params["colours"],
                                    params["pieces"].split(","), rng)
        level = base._replace(pieces=placements.pieces_of(placement))
        if not self.complete(params, level):
            return None
        return level, self.solution_key(params, placement)

    def shrink(self, params, instance, solution, rng):
        # A piece fewer, taken from the known placement where that leaves it valid. Each
        # placement is given as the model keeps it (colours of identical piece sets in
        # the order of their first square: solution_key), so a record's solution is the
        # one every solver finds.
        return [(level, self.solution_key(params, placement))
                for level, placement in placements.removals(instance, solution, rng)]

    def repairable(self, params, instance, solution):
        # The empty squares of the placement: a hole on one rules out every placement
        # with a piece there. Those that the fewest pieces attack come first.
        return placements.open_squares(solution, instance.width)

    def repair(self, params, instance, solution, square, other):
        repaired = placements.repair(instance, solution, square, other)
        if repaired is None:
            return None
        level, placement = repaired
        return level, self.solution_key(params, placement)

    def complete(self, params, instance):
        return {p.colour for p in instance.pieces} == set(range(1, params["colours"] + 1))

    # -- solving ------------------------------------------------------------------------
    def to_data(self, params, instance, solver):
        w = instance.width
        return {"w": w, "h": instance.height, "K": len(instance.pieces),
                "square": [list(instance.board[r:r + w])
                           for r in range(0, len(instance.board), w)],
                "count": [p.count for p in instance.pieces],
                "colour": [p.colour for p in instance.pieces],
                "attack": [ATTACKS.index(p.attack) + 1 for p in instance.pieces],
                "grouped": False, "open_board": False}

    def split_data(self, params, instance, solver):
        # A level changes its counts as it grows and its holes as it is repaired, and a
        # batch draws many boards: flatten the model once for the board's size and
        # colours (open_board), with a slot for every colour and attack, each count open
        # (-1), and fix the counts (the model's n) and the board (kind) per question.
        slots = [(c, a) for c in range(1, params["colours"] + 1) for a in range(1, 4)]
        counts = {(p.colour, ATTACKS.index(p.attack) + 1): p.count for p in instance.pieces}
        if not set(counts) <= set(slots):  # a colour beyond --colours: solve it whole
            return None
        w, h = instance.width, instance.height
        shared = {"w": w, "h": h, "K": len(slots), "square": [[EMPTY] * w for _ in range(h)],
                  "count": [-1] * len(slots), "colour": [c for c, _ in slots],
                  "attack": [a for _, a in slots], "grouped": False, "open_board": True}
        return shared, {"n": [counts.get(slot, 0) for slot in slots],
                        "kind": list(instance.board)}

    def from_solution(self, params, values):
        return tuple(int(v) for row in values[self.decision] for v in row)

    def solution_key(self, params, solution):
        # Every solution of a level places the same pieces, so the piece sets, and with
        # them the colours that may be swapped, are read off the solution itself. Pieces
        # of one colour and attack are interchangeable already (a square shows only
        # which colour and attack stands on it).
        names = renaming(solution)
        return tuple(4 * names[v // 4] + v % 4 if v > 0 else v for v in solution)

    def canonical_form(self, params, instance):
        # The board's least image under the rotations and reflections that keep its
        # shape, and the colours renamed: a level's pieces have no squares, so its colours
        # are only names. Colours are renamed in the order of their sorted piece sets
        # (colours with equal sets are interchangeable, so any order among them is one).
        w, h = instance.width, instance.height
        board = min(board_images(instance.board, h, w))
        sets = sorted(piece_sets(instance.pieces).values())
        pieces = tuple(Piece(count, k, attack) for k, s in enumerate(sets, 1)
                       for attack, count in s)
        return f"{pieces_text(pieces)}: {'/'.join(rows_text(board, w))}"

    def implied_constraints(self, params):
        # The paper's global cardinality constraint: the squares hold each type's count.
        return ("constraint global_cardinality(array1d(cell), "
                "[4 * colour[k] + attack[k] | k in 1..K], count);")

    # -- explanations -------------------------------------------------------------------
    def constraint_groups(self, params, instance):
        return explain.constraint_groups(instance, COLOURS, piece_sets(instance.pieces))

    def explanation_board(self, params, instance):
        return explain.explanation_board(instance, COLOURS, ATTACKS)

    def technique_name(self, params, technique):
        return words.technique_name(technique)

    def step_words(self, params, step):
        return words.step_words(step)

    def search_variables(self, params, instance):
        return [i for i, v in enumerate(instance.board) if v == EMPTY]

    def features(self, params, instance, solution, checker):
        return {"squares": float(instance.board.count(EMPTY)),
                "pieces": float(sum(p.count for p in instance.pieces)),
                "types": float(len(instance.pieces))}

    # -- reading and writing ------------------------------------------------------------
    def to_json(self, params, instance, solution):
        record = {"board": rows_text(instance.board, instance.width),
                  "pieces": pieces_text(instance.pieces)}
        if solution is not None:
            record["solution"] = solution_rows(solution, instance.width)
        return record

    def from_json(self, params, record):
        board, pieces = record.get("board"), record.get("pieces")
        if not isinstance(board, list) or not board or \
                not all(isinstance(r, str) for r in board):
            raise PuzzleInputError("field 'board' must be a list of row strings")
        if not isinstance(pieces, str):
            raise PuzzleInputError("field 'pieces' must be a string like '2 rook a, 1 queen b'")
        return self._level(params, pieces, board).instance

    def format(self, params, instance, fmt):
        head = pieces_text(instance.pieces)
        rows = rows_text(instance.board, instance.width)
        return f"{head}: {'/'.join(rows)}" if fmt == "line" else "\n".join([head, *rows])

    def format_solution(self, params, solution, fmt):
        rows = solution_rows(solution, params["width"])
        return "/".join(rows) if fmt == "line" else "\n".join(rows)

    def render_svg(self, params, instance, solution=None):
        return drawing.render_svg(instance, solution, COLOURS, ATTACKS)

    def play_grid(self, params, instance, solution):
        return play.play_grid(instance, solution, COLOURS, ATTACKS)

    def rules(self, params):
        return ("Place every piece on an empty square so that no piece is attacked by a "
                "piece of another colour. A rook attacks along its row and column, a bishop "
                "along its diagonals, a queen both ways; walls and pieces stop an attack, "
                "holes do not.")

    def parse(self, params, text):
        text = text.strip()
        if text and ":" in text.splitlines()[0]:
            head, _, body = text.partition(":")
        else:
            head, _, body = text.partition("\n")
        rows = [r.strip() for r in re.split(r"[/\n]", body) if r.strip()]
        return self._level(params, head, rows)

    def _level(self, params, head, rows):
        if not head.strip():
            raise PuzzleInputError("a combination level starts with its pieces, e.g. "
                                   "'2 rook a, 1 queen b'")
        pieces = read_pieces(head)
        if not rows:
            raise PuzzleInputError("the level has no board rows")
        width, board = read_rows(rows)
        height = len(rows)
        total, empty = sum(p.count for p in pieces), board.count(EMPTY)
        if total > empty:
            raise PuzzleInputError(f"{total} pieces cannot stand on {empty} empty squares")
        # --walls and --holes are how a random board is drawn, not part of a level: the
        # ones given are kept (a generated level's record holds them, and post-processing
        # turned some walls into holes), else they are counted on the board.
        given = params or {}
        raw = {"width": width, "height": height,
               "colours": max(2, max(p.colour for p in pieces)),
               "walls": board.count(WALL) if given.get("walls") is None else given["walls"],
               "holes": board.count(HOLE) if given.get("holes") is None else given["holes"],
               "pieces": given.get("pieces") or "rook,bishop,queen"}
        for name in ("width", "height"):
            given = (params or {}).get(name)
            if given is not None and given != raw[name]:
                raise PuzzleInputError(f"the board has {raw[name]} "
                                       f"{'columns' if name == 'width' else 'rows'}, not "
                                       f"{given} (--{name})")
        given = (params or {}).get("colours")
        if given is not None:
            if raw["colours"] > given:
                raise PuzzleInputError(f"a piece has colour "
                                       f"{COLOURS[raw['colours'] - 1]!r}, beyond --colours "
                                       f"{given}")
            raw["colours"] = given
        canonical = self.check_params(raw)
        return Parsed(canonical, Level(width, height, board, pieces))


@hookimpl
def register_puzzle_types(register):
    register(Combination())
