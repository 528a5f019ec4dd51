"""Structure squares (#24): a grid type may mark squares that are part of the board's
structure. They are never emptied, never counted as givens or as squares in the features,
and never branched on by the grader. Here: Latin squares whose first row is printed on
the board, like the clue row of a puzzle that is not for the player to fill."""
import json

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.grading import GradeOptions
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend
from puzzle_engine.strategies import GenOptions
from support import ToyLatinType, hookimpl

class FramedLatin(ToyLatinType):
    name = "framed_latin"

    def structure(self, params, board):
        return frozenset(range(params["size"]))  # the first row


NAME = FramedLatin.name


class FramedPlugin:
    PUZZLE_ENGINE_CONTRACT = 3

    @hookimpl
    def register_puzzle_types(self, register):
        register(FramedLatin())


@pytest.fixture(scope="module")
def framed():
    host = get_host()
    host.register(FramedPlugin(), name="framed", version="0.0.test")
    try:
        yield host.get_type(NAME), Engine(host, Backend("gecode")), Engine(host, Backend("chuffed"))
    finally:
        host.unregister("framed")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_structure_is_never_emptied_nor_counted(framed, seed):
    ptype, engine, other = framed
    n = 5
    params = engine.check_params(ptype, {"size": n})
    for options in (GenOptions(), GenOptions(batch=16, probes=2, optimise=True)):
        p = engine.generate(ptype, params, seed, options).puzzle
        assert p.grid[:n] == p.solution[:n]          # the first row is whole
        assert 0 in p.grid[n:]                       # the rest was emptied
        record = p.to_json(ptype)
        filled = sum(1 for v in p.grid[n:] if v)
        assert record["givens"] == filled and record["empty"] == n * n - n - filled
        assert engine.features(ptype, params, p.grid, p.solution)["squares"] == n * n - n
        # Minimal among the squares the player sees: each given is needed (the other
        # solver's count of another solution once it goes), and unique.
        checker = other.checker(ptype, params, p.solution)
        for i in range(n, n * n):
            if p.grid[i]:
                assert checker.count_other(p.grid[:i] + (0,) + p.grid[i + 1:], 1) == (1, True)
        assert checker.count_other(p.grid, 1) == (0, True)


def test_the_grader_branches_only_on_what_the_player_fills(framed, monkeypatch):
    ptype, engine, _ = framed
    params = engine.check_params(ptype, {"size": 5})
    p = engine.generate(ptype, params, 4).puzzle
    orders = []
    real = ptype.search_variables

    def spy(params, instance):
        found = real(params, instance)
        orders.append(found)
        return found
    monkeypatch.setattr(ptype, "search_variables", spy)
    with engine.host.get("graders", ptype.grader).grader(engine, ptype, params,
                                                          GradeOptions(runs=3)) as grader:
        g = grader.grade(p.grid)
    assert orders and all(i >= 5 and not p.grid[i] for i in orders[0])
    assert sorted(orders[0]) == [i for i, v in enumerate(p.grid) if not v]
    assert g.solution == p.solution and json.dumps(g.to_json())
