"""The loops of the growing and own strategies on the fake solver (toy types of
tests/fake_types.py): candidates judged, unsolvable ones retried, restarts, every accepted
level kept, time-outs never grown from nor accepted, and one line when the draws or bases
run out."""
import random

import pytest

from puzzle_engine import PuzzleInputError
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError

from fake_solver import FakeBackend, TimeOut, latin_squares
from fake_types import ORACLES, fake_host, givens

pytestmark = pytest.mark.fast

LATIN = latin_squares(4)


def solutions_of(board):
    return [b for b in LATIN if all(g == 0 or g == v for g, v in zip(board, b))]


def grows_from(later, earlier):
    return all(e == 0 or e == x for e, x in zip(earlier, later)) and givens(later) > givens(earlier)


def generate(host, name, seed, options=None, script=None):
    engine = Engine(host, FakeBackend(ORACLES, script))
    result = engine.generate(host.get_type(name), {"size": 4}, seed, options)
    return result, engine


# -- growing -------------------------------------------------------------------------------------
def test_every_accepted_level_is_kept_and_grows_from_the_last():
    host = fake_host()
    for seed in range(1, 5):
        result, engine = generate(host, "fake_growing_latin", seed, {"keep": "all"})
        levels = result.kept
        assert levels and levels[-1] is result.puzzle
        for level in levels:
            assert solutions_of(level.instance) == [level.solution]
        steps = [level.extra["step"] for level in levels]
        assert steps == sorted(set(steps)) and steps[0] >= 4  # 4x4 needs 4 givens at least
        assert all(grows_from(b.instance, a.instance) for a, b in zip(levels, levels[1:]))
        assert {level.extra["restarts"] for level in levels} == {0}
        assert result.puzzle.solver_calls == engine.backend.calls
        last, _ = generate(host, "fake_growing_latin", seed, {"keep": "last"})
        assert last.kept == [] and last.puzzle.instance == result.puzzle.instance


def test_the_growth_is_reproducible():
    host = fake_host()
    runs = [generate(host, "fake_growing_latin", 7, {"keep": "all"})[0] for _ in range(2)]
    assert [p.instance for p in runs[0].kept] == [p.instance for p in runs[1].kept]


def test_complete_and_accept_puzzle_decide_what_is_kept():
    host = fake_host(fake_growing_latin={"least": 9, "odd_only": True})
    result, _ = generate(host, "fake_growing_latin", 2, {"keep": "all"})
    assert result.kept and all(givens(p.instance) >= 9 and givens(p.instance) % 2 == 1
                               for p in result.kept)


@pytest.mark.parametrize("tries", [4, 5])
def test_unsolvable_candidates_are_retried_up_to_tries(tries):
    """Each step's first 3 candidates break a row: with 4 tries the growth goes on, with 3
    it never starts, and every base is given up (one line, no traceback)."""
    host = fake_host(fake_growing_latin={"bad_first": 3})
    result, engine = generate(host, "fake_growing_latin", 1, {"tries": tries})
    assert solutions_of(result.puzzle.instance) == [result.puzzle.solution]
    unsat = [q for q in engine.backend.queries if not solutions_of(_board(q))]
    assert len(unsat) >= 3 * result.puzzle.extra["step"]
    with pytest.raises(PluginError) as caught:
        generate(host, "fake_growing_latin", 1, {"tries": 3, "restarts": 4})
    assert str(caught.value) == ("growing puzzle 'fake_growing_latin', plugin 'fake_types' found "
                                 "no accepted level in 4 bases (seed 1); raise --restarts")


def _board(query):
    return tuple(v for row in query.data["givens"] for v in row)


def test_a_base_that_grows_no_accepted_level_is_drawn_again():
    """With 5 steps at most, few bases reach a unique board: the growth restarts, and the
    record says how often."""
    host = fake_host()
    restarts = []
    for seed in range(1, 9):
        try:
            result, _ = generate(host, "fake_growing_latin", seed, {"max_steps": 4, "restarts": 30})
        except PluginError:
            continue
        assert givens(result.puzzle.instance) <= 5
        assert solutions_of(result.puzzle.instance) == [result.puzzle.solution]
        restarts.append(result.puzzle.extra["restarts"])
    assert restarts and max(restarts) > 0
    with pytest.raises(PluginError, match="found no accepted level in 2 bases"):
        generate(host, "fake_growing_latin", 1, {"max_steps": 3, "restarts": 2})


def test_a_candidate_whose_judgement_timed_out_is_never_grown_from():
    """Judgements of boards with a 1 in the top left square time out: no kept level has
    one there, and the candidate judged after one that timed out is never grown from it
    (it is the same step's next candidate, or a new base's)."""
    host = fake_host()
    timed_out = 0
    for seed in range(1, 6):
        result, engine = generate(host, "fake_growing_latin", seed, {"keep": "all"},
                                  lambda q: TimeOut(0) if _board(q)[0] == 1 else None)
        assert all(p.instance[0] != 1 for p in result.kept)
        judged = [_board(q) for q in engine.backend.queries]
        for a, b in zip(judged, judged[1:]):
            if a[0] == 1:
                timed_out += 1
                assert not grows_from(b, a), (seed, a, b)
    assert timed_out


def two_solutions(self, params, parent, solution, candidate):
    return solutions_of(candidate)[:2]


def test_extensions_that_show_a_refusal_spare_the_solver():
    """A type whose extensions give two solutions of a candidate: the strategy takes the
    candidate as solvable and refused with no solver call, and keeps the same levels as
    with the solver's verdicts. A careless extensions is a one-line plugin error."""
    plain = fake_host()
    quick = fake_host(fake_growing_latin={"extensions": two_solutions})
    for seed in range(1, 4):
        slow, slow_engine = generate(plain, "fake_growing_latin", seed, {"keep": "all"})
        fast, fast_engine = generate(quick, "fake_growing_latin", seed, {"keep": "all"})
        assert [p.instance for p in fast.kept] == [p.instance for p in slow.kept]
        assert fast_engine.backend.calls < slow_engine.backend.calls
        assert fast.kept[-1].extra["extended"] > 0 == slow.kept[-1].extra["extended"]
    careless = fake_host(fake_growing_latin={"extensions": lambda *a, **k: 7})
    with pytest.raises(PluginError, match="extensions .* returned 7, not a list of solutions"):
        generate(careless, "fake_growing_latin", 1)


def carried(judged):
    """How often a judged board grew from an unsolvable one: it has one given more, and
    only unsolvable boards were judged in between (after a solvable one, the growth goes
    on from that)."""
    n = 0
    for i, dead in enumerate(judged):
        if solutions_of(dead):
            continue
        for later in judged[i + 1:]:
            if givens(later) == givens(dead) + 1 and grows_from(later, dead):
                n += 1
                break
            if solutions_of(later):
                break
    return n


def test_carry_grows_through_unsolvable_levels_only_when_asked():
    """With --carry K, a step with no solvable candidate goes on from an unsolvable one
    (at most K steps in a row); with --carry 0 the growth stops there. (The test above
    shows that a time-out is never grown from, carried or not.)"""
    host = fake_host()
    counts = {}
    for carry in (0, 2):
        for seed in range(1, 6):
            _, engine = generate(host, "fake_growing_latin", seed, {"carry": carry})
            judged = [_board(q) for q in engine.backend.queries]
            counts[carry] = counts.get(carry, 0) + carried(judged)
    assert counts[0] == 0 and counts[2] > 0


@pytest.mark.parametrize("options, says", [
    ({"keep": "some"}, "bad --keep 'some': expected last or all"),
    ({"bias": "hard"}, "bad --bias 'hard': expected none or harder or easier"),
    ({"bias_runs": 0}, "bad --bias-runs 0: must be at least 1"),
    ({"carry": -1}, "bad --carry -1: must be at least 0"),
    ({"restarts": 0}, "bad --restarts 0: must be at least 1"),
    ({"tries": 0}, "bad --tries 0"),
    ({"draws": 3}, "strategy 'growing' has no option --draws"),
])
def test_bad_growing_options_are_refused_before_any_solve(options, says):
    host = fake_host()
    engine = Engine(host, FakeBackend(ORACLES))
    with pytest.raises(PuzzleInputError, match=says):
        engine.generate(host.get_type("fake_growing_latin"), {"size": 4}, 1, options)
    assert engine.backend.calls == 0


def test_grow_must_return_a_list():
    host = fake_host(fake_growing_latin={"grow": lambda self, params, instance, rng: 7})
    with pytest.raises(PluginError, match=r"^grow \(puzzle 'fake_growing_latin', plugin "
                                          r"'fake_types'\) returned 7, not a list of instances$"):
        generate(host, "fake_growing_latin", 1)


# -- own ---------------------------------------------------------------------------------------
def replay(ptype, seed, accepted, draws):
    """The draws of ``ptype.generate`` from ``seed``'s generator, as the strategy makes them:
    the number of the first that ``accepted`` takes (None: none of ``draws``)."""
    rng = random.Random(seed)
    for draw in range(1, draws + 1):
        candidate = ptype.generate({"size": 4}, rng, None)
        if candidate is not None and accepted(candidate):
            return draw, candidate
    return None, None


def test_own_keeps_the_first_accepted_draw():
    host = fake_host(fake_own_latin={"skip": 0.3})
    ptype = host.get_type("fake_own_latin")
    seen = set()
    for seed in range(1, 9):
        result, engine = generate(host, "fake_own_latin", seed)
        p = result.puzzle
        draw, candidate = replay(ptype, seed, lambda c: len(solutions_of(c)) == 1, 50)
        assert (p.extra["draws"], p.instance) == (draw, candidate)
        assert solutions_of(p.instance) == [p.solution]
        assert p.solver_calls == engine.backend.calls <= draw  # skipped draws ask nothing
        seen.add(draw)
    assert max(seen) > 1  # some first draws were refused


def test_own_never_accepts_a_time_out_and_counts_them():
    """Judgements of candidates with a given top left square time out: the puzzle is the
    first draw with a unique solution and an empty corner."""
    host = fake_host()
    ptype = host.get_type("fake_own_latin")
    script = lambda q: TimeOut(0) if _board(q)[0] else None  # noqa: E731
    changed = 0
    for seed in range(1, 6):
        result, _ = generate(host, "fake_own_latin", seed, None, script)
        draw, candidate = replay(ptype, seed, lambda c: c[0] == 0 and len(solutions_of(c)) == 1, 50)
        assert (result.puzzle.extra["draws"], result.puzzle.instance) == (draw, candidate)
        changed += replay(ptype, seed, lambda c: len(solutions_of(c)) == 1, 50)[0] != draw
    assert changed  # the time-outs did refuse some unique candidate
    with pytest.raises(PluginError) as caught:
        generate(host, "fake_own_latin", 3, {"draws": 4}, lambda q: TimeOut(0))
    assert str(caught.value) == ("puzzle 'fake_own_latin', plugin 'fake_types': none of 4 drawn "
                                 "puzzles was accepted by 'unique' (seed 3, 4 of them timed out); "
                                 "raise --draws")


def test_own_draws_run_out_in_one_line():
    host = fake_host(fake_own_latin={"keep": 0.1})
    with pytest.raises(PluginError) as caught:
        generate(host, "fake_own_latin", 2, {"draws": 5})
    assert str(caught.value) == ("puzzle 'fake_own_latin', plugin 'fake_types': none of 5 drawn "
                                 "puzzles was accepted by 'unique' (seed 2); raise --draws")
    with pytest.raises(PuzzleInputError, match="bad --draws 0"):
        generate(host, "fake_own_latin", 2, {"draws": 0})


def test_own_with_a_unique_optimum_records_it():
    """The knapsack type: the first drawn instance whose optimum one subset reaches."""
    host = fake_host()
    ptype = host.get_type("fake_knapsack")
    for seed in range(1, 6):
        engine = Engine(host, FakeBackend(ORACLES))
        p = engine.generate(ptype, engine.check_params(ptype, {}), seed).puzzle
        weights, values, capacity = p.instance
        fits = [t for t in _subsets(len(weights)) if _dot(t, weights) <= capacity]
        best = max(_dot(t, values) for t in fits)
        assert [t for t in fits if _dot(t, values) == best] == [p.solution]
        assert (p.extra["optimum"], p.extra["optimal_solutions"]) == (best, 1)


def _subsets(n):
    return [tuple((k >> i) & 1 for i in range(n)) for k in range(2 ** n)]


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def test_own_refused_by_accept_puzzle_draws_again():
    host = fake_host(fake_own_latin={"accept_puzzle": lambda self, params, instance, solution:
                                     instance[15] == 0})
    ptype = host.get_type("fake_own_latin")
    result, _ = generate(host, "fake_own_latin", 5)
    draw, candidate = replay(ptype, 5, lambda c: c[15] == 0 and len(solutions_of(c)) == 1, 50)
    assert (result.puzzle.extra["draws"], result.puzzle.instance) == (draw, candidate)
    assert draw > 1 and candidate[15] == 0
