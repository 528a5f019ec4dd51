"""What the engine's checker learns from the boards GenPuzzles accepts (``Checker.accepted``):
only a removal the type decided itself and said so (``checker.note``) counts as a proof
of uniqueness. A type that accepts a board without a word (a criterion of its own, or a
bug) must not make the engine's checker answer wrongly afterwards."""
import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.solving.backend import Backend
from puzzle_engine.strategies import GenOptions

# A 4x4 Sudoku with a "deadly rectangle": 1 and 3 at squares 0, 2, 4 and 6 can swap, so
# with those four squares empty the board has two solutions, which agree everywhere else.
FULL = (1, 2, 3, 4,
        3, 4, 1, 2,
        2, 1, 4, 3,
        4, 3, 2, 1)
RECTANGLE = (0, 2, 4, 6)
NEXT = 15  # fixed by its row once the rectangle is empty: both solutions agree there


@pytest.mark.parametrize("batch", [1, 4])
def test_a_board_accepted_without_a_note_is_not_taken_as_unique(host, sudoku, batch):
    answers = []

    class Lenient(type(sudoku)):
        def random_solution(self, params, rng, solve, transform):
            return FULL

        def choose_square(self, params, board, candidates, rng, solution):
            return next(i for i in RECTANGLE + (NEXT,) + tuple(range(16)) if i in candidates)

        def is_remove_valid(self, params, board, index, solution, checker, max_solutions):
            if index in RECTANGLE:
                return True  # the type's own leniency, not a proof: no note, no question
            answer = checker.at_most(board, 1)
            answers.append((board, answer))
            return answer

    lenient = Lenient()
    lenient.plugin, lenient.plugin_version = sudoku.plugin, sudoku.plugin_version
    engine = Engine(host, Backend("gecode", time_limit=None))
    params = engine.check_params(lenient, {"size": 4})
    engine.generate(lenient, params, 1, GenOptions(batch=batch, target_empty=5))
    answers = [a for a in answers if a[0].count(0) == 5 and a[0][NEXT] == 0]
    board, answer = answers[-1]  # batched: the last, once the speculation's guess is checked
    assert [i for i, v in enumerate(board) if not v] == sorted(RECTANGLE + (NEXT,))
    result, boards = engine.solve(sudoku, params, board, nr_solutions=3)
    assert result.complete and len(boards) == 2
    assert answer is False  # two solutions: the checker must not call it unique
