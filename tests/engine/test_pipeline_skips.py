"""#42.2 and #41.4 on the fake solver: a seed whose strategy finds nothing is skipped, not
the end of the run (recorded in the next record's ``skipped``, counted, and bounded by
--attempts), --resume goes on after a skipped seed, and --rating's band is read in one
line or refused."""
import itertools
import json
from types import SimpleNamespace

import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.errors import NothingFound, PluginError, PuzzleInputError
from puzzle_engine.explain.band import Band, parse_band
from puzzle_engine.run import pipeline
from puzzle_engine.run.job import Job, SeedResult, work
from puzzle_engine.run.outfile import Existing
from puzzle_engine.run.resume import done_and_next_seed, done_and_seed
from puzzle_engine.run.sinks import Lines

from fake_solver import FakeBackend
from fake_types import ORACLES, fake_host

pytestmark = pytest.mark.fast

NAME, PARAMS = "fake_growing_latin", {"size": 4}
#: Growths this short find no level from seeds 9 and 11 to 15 (and do from 8 and 10).
SHORT = {"max_steps": 5, "restarts": 1, "keep": "all"}


class Here:
    """An executor that works each seed in this process on the fake solver."""

    def __init__(self, host):
        self.prepared = SimpleNamespace(engine=Engine(host, FakeBackend(ORACLES)),
                                        ptype=host.get_type(NAME), judge=None)
        self.asked = []

    def results(self, job, seeds):
        for seed in seeds:
            self.asked.append(seed)
            yield work(self.prepared, job, seed)


def missed(first, last, why):
    return NothingFound(f"none in {first}..{last} ({why})")


def _run(start, count, done=0, misses=3):
    host = fake_host()
    ptype = host.get_type(NAME)
    lines = []
    sink = Lines(ptype, PARAMS, "json", count, lines.extend, done)
    executor = Here(host)
    job = Job(NAME, PARAMS, SHORT, None)
    try:
        tally = pipeline.run(job, itertools.count(start), executor, sink, count,
                             misses=misses, missed=missed)
    except NothingFound as exc:
        return lines, exc, executor
    return lines, tally, executor


def test_a_seed_whose_strategy_gives_up_is_a_result_without_a_puzzle():
    host = fake_host()
    executor = Here(host)
    job = Job(NAME, PARAMS, SHORT, None)
    failed = work(executor.prepared, job, 9)
    assert failed.result is None and not failed.off_level and not failed.off_band
    assert failed.skipped == ("growing puzzle 'fake_growing_latin', plugin 'fake_types' found "
                              "no accepted level in 1 bases (seed 9); raise --restarts")
    assert work(executor.prepared, job, 10).result is not None
    assert issubclass(NothingFound, PluginError)  # a strategy's own error, as before


def test_a_skipped_seed_does_not_end_the_run_and_the_next_record_lists_it():
    lines, tally, executor = _run(8, 2)
    records = [json.loads(line) for line in lines]
    assert executor.asked == [8, 9, 10]
    assert sorted({r["seed"] for r in records}) == [8, 10]
    assert all("skipped" not in r for r in records if r["seed"] == 8)
    assert all(r["skipped"] == [9] for r in records if r["seed"] == 10)
    assert (tally.tried, tally.skipped, tally.kept, tally.first, tally.last) == (3, 1, 2, 8, 10)
    assert tally.words() == ["skipped 1"]


def test_too_many_skipped_seeds_in_a_row_end_the_run_with_the_last_reason():
    lines, error, executor = _run(10, 5, misses=3)
    assert executor.asked == [10, 11, 12, 13]
    assert str(error).startswith("none in 11..13 (growing puzzle 'fake_growing_latin'")
    assert "(seed 13)" in str(error)
    assert {json.loads(line)["seed"] for line in lines} == {10}  # kept what it made


def test_resume_goes_on_after_a_skipped_seed():
    """The file of a run that skipped seed 9 is read back: 2 seeds done, the next is 11;
    a run never interrupted and one resumed there write the same records."""
    lines, _, _ = _run(8, 3, misses=10)
    whole = [json.loads(line) for line in lines]
    seeds = sorted({r["seed"] for r in whole})
    assert seeds[:2] == [8, 10] and whole[-1]["skipped"] == list(range(11, seeds[2]))
    first = [r for r in whole if r["seed"] in (8, 10)]
    done, start = done_and_seed(None, "json", Existing([json.dumps(r) for r in first], first),
                                8, 0)
    assert (done, start) == (2, 11)
    rest, _, executor = _run(start, 3, done=done, misses=10)
    assert executor.asked[0] == 11
    assert _without_seconds(rest) == _without_seconds(json.dumps(r) for r in whole
                                                      if r["seed"] > 10)


def _without_seconds(lines):
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in lines]


def test_resume_refuses_a_record_whose_skipped_seeds_do_not_follow():
    records = [{"seed": 8, "variant": None}, {"seed": 12, "variant": None, "skipped": [9]}]
    with pytest.raises(PuzzleInputError, match=r"line 2: seed 12 variant None, expected seed "
                                               r"10 variant None"):
        done_and_seed(None, "json", Existing(["x", "y"], records), 8, 0)
    # a run that skipped its very first seed started there
    first = [{"seed": 9, "variant": None, "skipped": [8]}]
    assert done_and_seed(None, "json", Existing(["x"], first), 8, 0) == (1, 10)
    with pytest.raises(PuzzleInputError, match="was started with --seed 8, not 9"):
        done_and_seed(None, "json", Existing(["x"], first), 9, 0)


def test_resume_counts_seeds_with_variants_and_with_kept_levels():
    variants = [{"seed": 1, "variant": None}, {"seed": 1, "variant": 1},
                {"seed": 3, "variant": None, "skipped": [2]}, {"seed": 3, "variant": 1}]
    assert done_and_seed(None, "json", Existing(["x"] * 4, variants), 1, 1) == (2, 4)
    with pytest.raises(PuzzleInputError, match="ends inside a group"):
        done_and_seed(None, "json", Existing(["x"] * 3, variants[:3]), 1, 1)
    kept = [{"seed": 5, "variant": None}] * 3 + [{"seed": 6, "variant": None}] * 2
    assert done_and_seed(None, "json", Existing(["x"] * 5, kept), None, 0) == (2, 7)


def test_resume_of_a_rating_run_reads_the_rating_note():
    records = [{"seed": 4, "variant": None, "rating": {"score": 2.3, "band": [2, 3],
                                                       "next_seed": 5}},
               {"seed": 7, "variant": None, "rating": {"score": 2.6, "band": [2, 3],
                                                       "next_seed": 8}}]
    assert done_and_next_seed(None, Existing(["x", "y"], records), None) == (2, 8)
    with pytest.raises(PuzzleInputError, match="no difficulty.next_seed nor rating.next_seed"):
        done_and_next_seed(None, Existing(["x"], [{"seed": 1, "variant": None}]), None)


@pytest.mark.parametrize("text, band", [("1.5-3.0", Band(1.5, 3.0)), (" 6-7.5 ", Band(6, 7.5)),
                                        ("2-2", Band(2, 2)), ("0-12", Band(0, 12))])
def test_a_band_is_read(text, band):
    assert parse_band(text) == band
    assert 2.0 in Band(1.5, 3.0) and 3.0 in Band(1.5, 3.0) and 3.01 not in Band(1.5, 3.0)


@pytest.mark.parametrize("text, words", [
    ("7-6", "bad --rating '7-6': the low end 7 is above the high end 6"),
    ("x", "bad --rating 'x': expected LO-HI, two ratings from 0 to 12, e.g. 6.0-7.5"),
    ("0-20", "bad --rating '0-20': 20 is outside the step rating's scale, 0 to 12"),
    ("6.5", "bad --rating '6.5': expected LO-HI"),
    ("-1-2", "bad --rating '-1-2': expected LO-HI"),
    ("nan-2", "bad --rating 'nan-2': nan is outside the step rating's scale"),
    ("1-inf", "bad --rating '1-inf': inf is outside"),
    ("", "bad --rating '': expected LO-HI"),
])
def test_a_bad_band_is_one_line(text, words):
    with pytest.raises(PuzzleInputError) as caught:
        parse_band(text)
    assert str(caught.value).startswith(words) and "\n" not in str(caught.value)


def test_a_run_without_a_puzzle_for_a_single_seed_is_not_retried():
    """The pipeline's bound of 1 (a single puzzle asked for: gen --count 1) ends at the
    first seed, with its strategy's reason."""
    _, error, executor = _run(9, 1, misses=1)
    assert executor.asked == [9] and "(seed 9)" in str(error)
