"""Killer Sudoku (``killer``): cages drawn from a full grid; a real 9x9 puzzle generated on
the SAT back end, with few givens, unique by Chuffed; its explanation names the cages
with their sums; and, without a solver, its text, drawing and play board."""
import random

import pytest

from puzzle_engine.render.play import play_grid
from puzzle_engine_plugins.killer import cages
from puzzle_engine_plugins.sudoku.variant import connected, labelled
from support import variant_end_to_end

#: A 4x4 killer (gen killer --size 4 --seed 2 --format line).
FOUR = "....3....1....4./AAAABBCCDDCEDDEE/10,5,7,10,8"
#: A full 9x9 Sudoku grid.
FULL = tuple(int(ch) for ch in "534678912672195348198342567859761423426853791713924856"
                               "961537284287419635345286179")


@pytest.fixture(scope="module")
def killer(host):
    return host.get_type("killer")


@pytest.mark.fast
def test_cages_from_a_full_grid_hold_distinct_digits_and_their_sums():
    drawn = cages.draw(FULL, 9, random.Random(3))
    assert drawn == cages.draw(FULL, 9, random.Random(3)) != cages.draw(FULL, 9, random.Random(4))
    squares = labelled(drawn)
    assert drawn[0] == 1 and sorted(squares) == list(range(1, len(squares) + 1))
    assert 15 <= len(squares) <= 45
    for members in squares.values():
        assert connected(members, 9) and len(members) <= cages.LARGEST
        assert len({FULL[i] for i in members}) == len(members)
    sums = cages.sums(FULL, drawn)
    assert sum(sums) == 405 and sum(1 for v in sums if v) == len(squares)
    assert all(sums[members[0]] == sum(FULL[i] for i in members) for members in squares.values())


def test_a_generated_9x9_has_few_givens_is_unique_and_explained(host):
    killer, params, puzzle = variant_end_to_end(host, "killer", {"size": 9}, 1, FOUR,
                                                "by cage 3 (sum 7), with")
    assert killer.givens(params, puzzle.grid) <= 4  # usually none; this seed keeps two
    assert puzzle.grid[81:] == puzzle.solution[81:]  # the cages and sums: structure


@pytest.mark.fast
def test_text_drawing_and_play_board(killer):
    parsed = killer.parse({"size": None, "box": None}, FOUR)
    params = parsed.params
    assert params == {"size": 4, "box": "2x2", "max_givens": None}
    assert killer.accept_puzzle(params, parsed.instance, None)  # 3 givens, no bound
    bound = killer.check_params({"size": 4, "box": None, "max_givens": 2})
    assert not killer.accept_puzzle(bound, parsed.instance, None)
    assert killer.format(params, parsed.instance, "line") == FOUR
    text = killer.format(params, parsed.instance, "text")
    assert text.splitlines()[-1] == "10 5 7 10 8"
    assert killer.parse({"size": None, "box": None}, text).instance == parsed.instance
    groups = killer.constraint_groups(params, parsed.instance).groups
    assert [g.name for g in groups[12:]] == ["cage 1 (sum 10)", "cage 2 (sum 5)",
                                             "cage 3 (sum 7)", "cage 4 (sum 10)",
                                             "cage 5 (sum 8)"]
    assert groups[-1].constraint == "cage_rule(5)"
    svg = killer.render_svg(params, parsed.instance)
    assert 'stroke-dasharray="3 2"' in svg
    assert [part.split(">")[1].split("<")[0] for part in svg.split('class="sum"')[1:]] == [
        "10", "5", "7", "10", "8"]
    solution = (1, 4, 3, 2, 3, 2, 1, 4, 4, 1, 2, 3, 2, 3, 4, 1)
    grid = play_grid(killer, params, parsed.instance, parsed.instance[:0] + solution
                     + parsed.instance[16:])
    assert grid.rule == "script" and "function (values, grid)" in grid.script
    assert grid.regions == parsed.instance[16:32] and "r1c1" not in grid.rules
    assert grid.labels == ((0, "10"), (4, "5"), (6, "7"), (8, "10"), (11, "8"))
    assert len(grid.units) == 12 + 5
