"""Polyominoes: shapes as sets of (row, column) cells, their eight orientations, the free
form (the same under rotation and reflection), names, and the text notation of a piece.

A piece is written by its name (``1``, ``2``, ``I3``, ``L3``, ``I4``, ``O4``, ``T4``,
``L4``, ``S4``, the pentominoes ``F5`` ... ``Z5``) or by its rows, ``#`` a square and
``.`` none, joined by ``|`` (``###|.#.`` is ``T4``). A shape that has a name is always
written by it.
"""
from __future__ import annotations

from functools import lru_cache

from puzzle_engine import PuzzleInputError

Shape = tuple[tuple[int, int], ...]  # sorted cells, translated to touch row 0 and column 0


def normalised(cells) -> Shape:
    """``cells`` moved to touch row 0 and column 0, sorted."""
    cells = list(cells)
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(shape: Shape) -> tuple[Shape, ...]:
    """The distinct images of ``shape`` under the eight symmetries of the square, in a
    fixed order (the identity first)."""
    found = []
    cells = list(shape)
    for _ in range(2):
        for _ in range(4):
            image = normalised(cells)
            if image not in found:
                found.append(image)
            cells = [(c, -r) for r, c in cells]  # a quarter turn
        cells = [(r, -c) for r, c in cells]  # a reflection
    return tuple(found)


def free(cells) -> Shape:
    """The free form: the least of the eight images (two shapes are the same piece when
    their free forms are equal)."""
    return min(orientations(normalised(cells)))


def connected(shape) -> bool:
    cells = set(shape)
    seen, todo = set(), [next(iter(cells))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo.extend(n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in cells)
    return seen == cells


def rows_of(shape: Shape) -> str:
    """``shape`` as rows of ``#`` and ``.`` joined by ``|``."""
    height = max(r for r, _ in shape) + 1
    width = max(c for _, c in shape) + 1
    cells = set(shape)
    return "|".join("".join("#" if (r, c) in cells else "." for c in range(width))
                    for r in range(height))


def from_rows(text: str) -> Shape:
    return tuple((r, c) for r, row in enumerate(text.split("|")) for c, ch in enumerate(row)
                 if ch == "#")


@lru_cache(maxsize=None)
def of_size(n: int) -> tuple[Shape, ...]:
    """Every free polyomino of ``n`` squares, in a fixed order (by name where it has one,
    then by form)."""
    if n == 1:
        return ((( 0, 0),),)
    grown = set()
    for shape in of_size(n - 1):
        cells = set(shape)
        for r, c in shape:
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb not in cells:
                    grown.add(free(cells | {nb}))
    return tuple(sorted(grown, key=lambda s: (name_of(s) is None, name_of(s) or "", s)))


_NAMED = {
    "1": "#", "2": "##",
    "I3": "###", "L3": "##|#.",
    "I4": "####", "O4": "##|##", "T4": "###|.#.", "L4": "###|#..", "S4": ".##|##.",
    "F5": ".##|##.|.#.", "I5": "#####", "L5": "####|#...", "N5": "##..|.###",
    "P5": "##|##|#.", "T5": "###|.#.|.#.", "U5": "#.#|###", "V5": "#..|#..|###",
    "W5": "#..|##.|.##", "X5": ".#.|###|.#.", "Y5": "####|.#..", "Z5": "##.|.#.|.##",
}
NAMES = {free(from_rows(rows)): name for name, rows in _NAMED.items()}
BY_NAME = {name: shape for shape, name in NAMES.items()}


def name_of(shape: Shape) -> str | None:
    return NAMES.get(free(shape))


def text_of(shape: Shape) -> str:
    """A piece's notation: its name, or its rows."""
    return NAMES.get(free(shape)) or rows_of(free(shape))


def read_piece(text: str, what: str) -> Shape:
    """A piece's free form from its notation; a bad one is one line naming ``what``."""
    word = text.strip()
    if word.upper() in BY_NAME:
        return BY_NAME[word.upper()]
    if word and set(word) <= set("#.|"):
        cells = from_rows(word)
        if not cells:
            raise PuzzleInputError(f"{what} {word!r} has no square")
        if not connected(cells):
            raise PuzzleInputError(f"{what} {word!r} is not connected (squares must join "
                                   "along full sides)")
        return free(cells)
    raise PuzzleInputError(f"{what}: unknown piece {word!r} (expected a name such as "
                           f"{', '.join(list(_NAMED)[:9])}, a pentomino F5..Z5, or rows "
                           "of # and . joined by |, e.g. '###|.#.')")


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``str.isdigit`` also accepts
    '²' and other characters ``int`` refuses)."""
    return text.isascii() and text.isdigit()


def read_pieces(text: str, what: str = "piece") -> tuple[Shape, ...]:
    """A multiset of pieces from ``T4 2xL3 O4`` (commas or spaces between pieces, ``NxP``
    for N copies), sorted largest first."""
    pieces = []
    for n, word in enumerate(text.replace(",", " ").split(), 1):
        count, sep, rest = word.partition("x")
        if sep and digits(count) and rest:
            if int(count) < 1:
                raise PuzzleInputError(f"{what} {n} {word!r}: a count must be 1 or more")
            pieces.extend([read_piece(rest, f"{what} {n}")] * int(count))
        else:
            pieces.append(read_piece(word, f"{what} {n}"))
    if not pieces:
        raise PuzzleInputError(f"no {what}s given")
    return sort_pieces(pieces)


def sort_pieces(pieces) -> tuple[Shape, ...]:
    """Pieces in their canonical order: largest first, then by notation."""
    return tuple(sorted(pieces, key=lambda s: (-len(s), text_of(s), s)))


def pieces_text(pieces) -> str:
    """A multiset of pieces as ``2xL3 T4``, in canonical order."""
    out, counts = [], {}
    for p in sort_pieces(pieces):
        counts[text_of(p)] = counts.get(text_of(p), 0) + 1
    for name, n in counts.items():
        out.append(name if n == 1 else f"{n}x{name}")
    return " ".join(out)
