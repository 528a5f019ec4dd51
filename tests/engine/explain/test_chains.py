"""The step rating's candidate path (puzzle_engine.explain.candidates, ladder.walk): each
chain technique on a small hand-built candidate state of a 9x9 board's groups (rows,
columns, boxes, built here: no solver), its cost on SE's scale, and the bounded effort
that ends a path as needing search instead of hanging."""
from __future__ import annotations

import pytest

from puzzle_engine.explain import candidates, ladder
from puzzle_engine.explain.candidates import Grid, length_step

pytestmark = pytest.mark.fast


def sq(r: int, c: int) -> int:
    return 9 * (r - 1) + (c - 1)


def board() -> Grid:
    """An empty 9x9 board: every square holds 1 to 9 (bit v-1 is value v)."""
    rows = [[9 * r + c for c in range(9)] for r in range(9)]
    cols = [[9 * r + c for r in range(9)] for c in range(9)]
    boxes = [[9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)] for b in range(9)]
    kinds = ["row"] * 9 + ["column"] * 9 + ["box"] * 9
    weights = [0.3] * 18 + [0.0] * 9
    return Grid(rows + cols + boxes, 81, range(1, 10), weights, kinds, ladder.candidate_costs())


def bit(*values: int) -> int:
    return sum(1 << (v - 1) for v in values)


def only(grid: Grid, value: int, squares: list[int], among: list[int]) -> None:
    """``value`` stays only on ``squares`` of the squares ``among``."""
    for x in among:
        if x not in squares:
            grid.cand[x] &= ~bit(value)


def removals(hints, name):
    return {(x, b) for h in hints if h.technique == name for x, b in h.remove}


def test_the_length_steps_follow_SEs_ceilings():
    # 0.1 each time the length past 2 exceeds 4, 6, 8, 12, 16, 24, ...
    assert [length_step(n) for n in (4, 6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27)] == \
        [0, 0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]


def skyscraper() -> Grid:
    # 1 has two places in row 1 (c1, c5) and in row 6 (c1, c6): one of r1c5, r6c6 holds 1
    grid = board()
    only(grid, 1, [sq(1, 1), sq(1, 5)], [sq(1, c) for c in range(1, 10)])
    only(grid, 1, [sq(6, 1), sq(6, 6)], [sq(6, c) for c in range(1, 10)])
    return grid


def test_two_strong_links_rule_out_what_sees_both_ends():
    grid = skyscraper()
    ends = {(sq(2, 6), bit(1)), (sq(3, 6), bit(1)), (sq(4, 5), bit(1)), (sq(5, 5), bit(1))}
    hints = grid.strong_links()
    assert ends <= removals(hints, "strong links 2")
    assert {h.cost for h in hints if h.technique == "strong links 2"} == {4.0}  # both in rows


def test_a_chain_of_one_value_is_an_x_chain_of_its_length():
    grid = skyscraper()
    found = [h for h in grid.chains() if h.technique == "x-chain" and (sq(2, 6), bit(1)) in h.remove]
    # r2c6=1 -> r1c5 off -> r1c1 on -> r6c1 off -> r6c6 on -> r2c6 off: six nodes
    assert found and min(h.cost for h in found) == 6.6


def test_squares_with_two_values_make_an_xy_chain():
    grid = board()
    grid.cand[sq(1, 1)] = bit(1, 2)
    grid.cand[sq(1, 5)] = bit(2, 3)
    grid.cand[sq(5, 5)] = bit(3, 4)
    grid.cand[sq(5, 9)] = bit(4, 1)
    # one of r1c1, r5c9 is 1: r1c9 and r5c1 see both; ten nodes (+0.2)
    hints = [h for h in grid.chains() if (sq(5, 1), bit(1)) in h.remove]
    assert hints and {h.technique for h in hints} == {"xy-chain"}
    assert min(h.cost for h in hints) == round(7.0 + length_step(10), 4) == 7.2
    # (four squares with four values, 1 the only loose one, but no pivot sharing a group
    # with the three others: no wing, as SE has it)
    assert not grid.wings()


def test_an_xy_wing_and_a_four_square_wing():
    grid = board()
    grid.cand[sq(1, 1)] = bit(1, 2)   # pivot
    grid.cand[sq(1, 5)] = bit(2, 3)
    grid.cand[sq(3, 2)] = bit(1, 3)
    hints = grid.wings()
    assert (sq(3, 5), bit(3)) in removals(hints, "xy-wing")  # sees r1c5 and r3c2
    assert {h.cost for h in hints if h.technique == "xy-wing"} == {4.2}
    grid = board()
    for x, vs in ((sq(9, 9), (2, 6, 8)), (sq(9, 7), (1, 6)), (sq(9, 1), (1, 2)), (sq(1, 9), (6, 8))):
        grid.cand[x] = bit(*vs)   # 1, 2, 6, 8 in four squares: 6 is the only loose value
    hints = grid.wings()
    assert removals(hints, "wing 4") == {(sq(7, 9), bit(6)), (sq(8, 9), bit(6))}
    assert {h.cost for h in hints if h.technique == "wing 4"} == {5.5}


def test_every_value_of_a_square_forcing_the_same_fact_is_a_cell_forcing_chain():
    grid = board()
    grid.cand[sq(1, 1)] = bit(1, 2, 3)
    grid.cand[sq(1, 2)] = bit(1, 4)
    grid.cand[sq(2, 1)] = bit(2, 4)
    grid.cand[sq(3, 1)] = bit(3, 4)
    # whichever r1c1 holds, one of its box's squares holds 4: not r3c3
    hints = [h for h in grid.forcing("static") if h.technique == "cell forcing chain"]
    target = [h for h in hints if (sq(3, 3), bit(4)) in h.remove]
    assert target
    # three chains of four nodes each
    assert min(h.cost for h in target) == round(8.0 + length_step(12), 4)


def test_a_candidate_that_implies_a_contradiction_goes():
    grid = board()
    # 5 has two places in row 1 and two in column 1, sharing r1c1; r2c2 and r1c1 ... if
    # r1c2 = 5 then r1c1 != 5, so r9c1 = 5 (column), and r1c2 and r9c1 cannot both hold it
    # when they share nothing: make r1c2's 5 also force r2c1 = 5 through box 1
    only(grid, 5, [sq(1, 1), sq(1, 2)], [sq(1, c) for c in range(1, 10)])
    only(grid, 5, [sq(1, 1), sq(2, 1)], [sq(r, 1) for r in range(1, 10)])
    only(grid, 5, [sq(1, 1), sq(1, 2), sq(2, 1)], [9 * r + c for r in range(3) for c in range(3)])
    # r1c2=5 -> r1c1 off -> r2c1 on, but r2c1 and r1c2 share box 1: 5 goes from r1c2
    hints = grid.forcing("static")
    assert (sq(1, 2), bit(5)) in removals(hints, "nishio")
    assert all(h.cost >= 7.5 for h in hints)


def test_a_bounded_effort_ends_as_needing_search_with_the_steps_found(monkeypatch):
    # An empty board: singles and subsets find nothing, and the chains' search would run
    # long; the bound stops it, the path is unsolved, and its floor is the technique
    # that was being looked for.
    monkeypatch.setattr(candidates, "EFFORT", 20_000)
    grid = board()
    grid.place(sq(1, 1), bit(1))
    out = ladder.walk(grid)
    assert not out.solved and out.stuck.startswith("needs search")
    assert out.floor is not None and out.floor >= ladder.COSTS["x-loop"]
    assert out.features()["effort_max"] == out.floor
    assert grid.effort > candidates.EFFORT


def test_a_ceiling_stops_the_path_once_the_next_step_costs_more():
    grid = skyscraper()
    out = ladder.walk(grid, ceiling=2.0)
    assert not out.solved and out.floor > 2.0
    assert all(s.cost <= 2.0 for s in out.steps)


SOLVED = ("534678912672195348198342567859761423426853791713924856"
          "961537284287419635345286179")


def test_a_puzzle_with_two_solutions_ends_as_needing_search():
    # A solved grid less four squares, in two rows of one band and two columns of two
    # boxes, whose values cross (r1ca = r2cb, r1cb = r2ca): they can swap, two solutions.
    # No technique has a step (not even the unique rectangle, which needs a fourth
    # square with more values): the path ends needing search, rated at nested chains.
    grid = board()
    rows = [SOLVED[9 * r:9 * r + 9] for r in range(9)]
    found = None
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            if r1 // 3 != r2 // 3:
                continue
            for a in range(9):
                for b in range(a + 1, 9):
                    if a // 3 != b // 3 and rows[r1][a] == rows[r2][b] and rows[r1][b] == rows[r2][a]:
                        found = found or (r1, r2, a, b)
    assert found
    r1, r2, a, b = found
    blank = {9 * r1 + a, 9 * r1 + b, 9 * r2 + a, 9 * r2 + b}
    for x in range(81):
        if x not in blank:
            grid.place(x, bit(int(SOLVED[x])))
    out = ladder.walk(grid)
    assert not out.solved and out.stuck.startswith("needs search")
    assert out.features()["effort_max"] == ladder.NESTED
