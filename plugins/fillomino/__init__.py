"""The built-in Fillomino plugin (paper 000, section 3.2), built only on the public plugin
contract: rows x cols boards, two routes to a random full board, random square choice that
keeps a given in every region, rotations and reflections, and the paper's features."""
from importlib.resources import files

from puzzle_engine import (Drawing, Explanation, GridPuzzle, Param, Parsed, Play, Symmetry,
                           Transformation, hookimpl)
from puzzle_engine.grid import board_images

from . import deduce, drawing, exact, groups, local, logic, words

PUZZLE_ENGINE_CONTRACT = 3


class Fillomino(GridPuzzle, Symmetry, Explanation, Drawing, Play):
    name = "fillomino"
    description = ("Fillomino: every cell holds the size of its region; regions of equal "
                   "size never touch.")
    models = (files("puzzle_engine_plugins.fillomino") / "fillomino.mzn",)
    decision = "grid"
    params = (
        Param("size", int, None, "a square board of side N (default 9)"),
        Param("rows", int, None, "rows of the board"),
        Param("cols", int, None, "columns of the board"),
        Param("max_region", int, None, "largest region of the random full board "
              "(default: the longer side)"),
        Param("region_sizes", str, None, "region sizes to draw from, e.g. 1-5 or 1,2,4 "
              "(default 1 to --max-region)"),
        Param("seeding", str, "python", "the random full board: 'python' (a random "
              "partition) or 'solver' (completed by the solver)"),
        Param("allow_empty_regions", bool, False, "let a region lose all its givens"),
        Param("logic_only", bool, False, "keep a removal only when the plugin's deductions "
              "alone still solve the puzzle (no guessing, as Tatham's Filling); default: "
              "exact minimality"),
    )
    # Proving a sparse board unique needs a learning solver: on the hard checks measured,
    # Chuffed with free search was 20 to 200 times faster than Gecode (docs/solvers.md).
    solver = "chuffed"
    free_search = ("chuffed",)

    def check_params(self, params):
        return logic.check_params(params)

    def shape(self, params):
        return params["rows"], params["cols"]

    def random_solution(self, params, rng, solve, transform):
        rows, cols = self.shape(params)
        sizes = logic.region_sizes(params)
        if params["seeding"] == "python":
            return logic.random_partition(rows, cols, sizes, rng)
        # The solver route: a few random givens, completed by the solver; givens are
        # dropped (half at a time) while the solver finds no completion.
        seed = list(logic.solver_seed(rows, cols, sizes, rng))
        while True:
            board = solve(tuple(seed))
            if board is not None:
                return transform(board)
            placed = [c for c, v in enumerate(seed) if v]
            if not placed:
                return None
            for c in rng.sample(placed, (len(placed) + 1) // 2):
                seed[c] = 0

    def verify_solution(self, params, board):
        # The plain rules in Python (the model's, which a solve would check): no solver call.
        return logic.is_valid_solution(board, *self.shape(params))

    def choose_square(self, params, board, candidates, rng, solution):
        region_of = logic.solution_regions(tuple(solution), *self.shape(params))
        return logic.choose(board, candidates, region_of, params["allow_empty_regions"], rng)

    def is_remove_valid(self, params, board, index, solution, checker, max_solutions):
        if not params["allow_empty_regions"]:
            region_of = logic.solution_regions(tuple(solution), *self.shape(params))
            if not logic.keeps_a_given(board, index, region_of):
                return False  # the paper's rule: no solver call needed
        if params["logic_only"]:
            solved = deduce.solve(tuple(board), *self.shape(params), budget=0).by_logic
            _note(checker, "deduced" if solved else "not deduced")
            return solved
        if max_solutions == 1:
            # GenPuzzles only empties a square of a board it accepted (or of the full
            # board): that one is unique, so another solution of this one differs from
            # ``solution`` at ``index`` (as the engine's compiled check also assumes).
            other = deduce.solve(tuple(board), *self.shape(params), limit=1,
                                 avoid=tuple(solution), exclude=(index, solution[index]))
            if other.complete or other.solutions:
                _note(checker, "deduced" if other.nodes == 0 else "searched")
                return not other.solutions
            # The search gave up: a second solution that re-partitions only the regions
            # around the square refuses the removal exactly (local.py); else a deeper
            # search, then the exact question, asked of a session on the model with what
            # the deductions settle as assumptions (exact.py), and the engine's checker
            # only where that session's solver reaches its limit.
            if local.other_nearby(tuple(board), *self.shape(params), tuple(solution),
                                  index) is not None:
                _note(checker, "nearby")
                return False
            other = deduce.solve(tuple(board), *self.shape(params), limit=1,
                                 budget=deduce.DEEP_BUDGET, avoid=tuple(solution),
                                 exclude=(index, solution[index]))
            if other.complete or other.solutions:
                _note(checker, "searched deep")
                return not other.solutions
            session = checker.session(self._exact_data(params, board), exact.SOLVER)
            more = exact.other_solution(session, tuple(board), *self.shape(params),
                                        tuple(solution), index)
            if more is not None:
                _note(checker, "exact")
                return not more
            return checker.at_most(board, 1)
        return self._at_most(params, board, solution, checker, max_solutions)

    def _at_most(self, params, board, solution, checker, k):
        """At most ``k`` solutions: decided by the deductions and a short search where they
        can (deduce.solve), by the exact MiniZinc check where the search gives up."""
        found = deduce.solve(tuple(board), *self.shape(params), limit=k + 1,
                             avoid=tuple(solution))
        if found.complete or len(found.solutions) > k:
            _note(checker, "deduced" if found.nodes == 0 else "searched")
            return len(found.solutions) <= k
        return checker.at_most(board, k)

    def _exact_data(self, params, board):
        """The data of the exact check's session: the checks' (``checker_data``), with the
        costly implied constraints off, as for every solver that learns (exact.SOLVER
        does: with them, a hard 12x12 question took CP-SAT over 120 s, without 11 s)."""
        return {**self.checker_data(params, board, None), "implied": False}

    def transformations(self, params):
        return [Transformation(name, draw)
                for name, draw in logic.transformations(*self.shape(params))]

    def canonical_form(self, params, instance):
        # The least of the board's images under its rotations and reflections (the
        # values are region sizes: no relabelling), with its shape.
        rows, cols = self.shape(params)
        least = min(board_images(tuple(instance), rows, cols))
        return f"{rows}x{cols}:" + logic.format_board(least, rows, cols, "line")

    def features(self, params, instance, solution, checker):
        optimal = None
        if checker is not None:
            # Optimal: no given can be removed (by the generator's rules) with the solution
            # staying unique.
            region_of = logic.solution_regions(tuple(solution), *self.shape(params))
            optimal = not any(
                self._at_most(params, instance[:c] + (0,) + instance[c + 1:], solution,
                              checker, 1)
                for c, v in enumerate(instance)
                if v and (params["allow_empty_regions"]
                          or logic.keeps_a_given(instance, c, region_of)))
        return logic.features(instance, solution, *self.shape(params), optimal)

    def to_data(self, params, instance, solver):
        rows, cols = self.shape(params)
        # maxv is a bound that every solution of these givens respects, whatever the
        # region sizes (logic.value_bound): "unique" means unique under the plain rules.
        return _data(rows, cols, instance, logic.value_bound(instance, rows, cols), solver)

    def checker_data(self, params, board, solver):
        rows, cols = self.shape(params)
        # The same bound, rounded up to a multiple of 4 so that the compiled checker is
        # reused for many boards: the bound grows slowly as a puzzle is emptied.
        bound = min(rows * cols, -(-logic.value_bound(board, rows, cols) // 4) * 4)
        return _data(rows, cols, (0,) * (rows * cols), bound, solver)

    def constraint_groups(self, params, instance):
        return groups.constraint_groups(instance, *self.shape(params))

    def technique_name(self, params, technique):
        return words.technique_name(technique)

    def step_words(self, params, step):
        return words.step_words(step)

    def parse(self, params, text):
        canonical, board = logic.parse(text, params)
        return Parsed(canonical, board)

    def format(self, params, instance, fmt):
        return logic.format_board(instance, *self.shape(params), fmt)

    def render_svg(self, params, instance, solution=None):
        return drawing.render_svg(*self.shape(params), instance, solution)

    def play_grid(self, params, instance, solution):
        return drawing.play_grid(*self.shape(params), instance, solution)

    def rules(self, params):
        return drawing.RULES


def _note(checker, label):
    """Tell the engine which path decided a removal (recorded per puzzle as ``removals``);
    a checker that takes no notes (outside GenPuzzles) is left alone."""
    note = getattr(checker, "note", None)
    if note is not None:
        note(label)


def _data(rows, cols, board, maxv, solver):
    # The costly implied constraints only for solvers that do not learn (see the model).
    implied = solver is None or "lcg" not in solver.tags
    return {"R": rows, "C": cols, "maxv": maxv, "implied": implied, "grouped": False,
            "givens": GridPuzzle.rows(board, cols)}


@hookimpl
def register_puzzle_types(register):
    register(Fillomino())
