"""The run pipeline (#40): one loop for gen and batch (a job on an executor into a sink),
the record's fields in one module, gen --workers with --difficulty, and the progress bar
the pipeline drives."""
import io
import json
import subprocess
import sys
from dataclasses import fields

import pytest
from rich.console import Console

from puzzle_engine import record
from puzzle_engine.errors import PuzzleInputError
from puzzle_engine.run import pipeline
from puzzle_engine.run.job import SeedResult
from puzzle_engine.run.progress import Bar
from puzzle_engine.run.sinks import Sink


class Counting(Sink):
    """A sink that holds every result with a puzzle."""

    def __init__(self, done=0):
        self.done, self.taken = done, []

    def take(self, result):
        self.taken.append(result.seed)
        self.done += result.result is not None


class Seeds:
    """An executor whose seeds in ``off`` miss the level; it notes what it was asked and
    whether its iteration was closed."""

    def __init__(self, off=()):
        self.off, self.asked, self.closed = set(off), [], False

    def results(self, job, seeds):
        try:
            for seed in seeds:
                self.asked.append(seed)
                missed = seed in self.off
                yield SeedResult(seed, None if missed else object(), off_level=missed,
                                 warnings=[f"w{seed}"] if seed == 3 else [])
        finally:
            self.closed = True


def missed(first, last, why=None):
    return PuzzleInputError(f"missed {first}..{last}")


@pytest.mark.fast
def test_the_pipeline_stops_at_the_count_and_stops_the_executor():
    import itertools
    sink, executor, said = Counting(), Seeds(off={2}), []
    pipeline.run(None, itertools.count(1), executor, sink, 3, misses=2, missed=missed,
                 warn=said.append)
    assert (sink.taken, sink.done, said, executor.closed) == ([1, 2, 3, 4], 3, ["w3"], True)


@pytest.mark.fast
def test_misses_in_a_row_end_the_run_with_the_seeds_named_and_keep_what_was_taken():
    import itertools
    sink, executor = Counting(), Seeds(off={2, 4, 5, 6})
    with pytest.raises(PuzzleInputError, match=r"^missed 4\.\.6$"):
        pipeline.run(None, itertools.count(1), executor, sink, 5, misses=3, missed=missed)
    assert sink.taken == [1, 2, 3, 4, 5, 6] and sink.done == 2 and executor.closed


@pytest.mark.fast
def test_a_sink_that_holds_the_count_already_asks_for_no_seed():
    executor = Seeds()
    pipeline.run(None, range(1, 10), executor, Counting(done=4), 4)
    assert executor.asked == []


@pytest.mark.fast
def test_the_pipeline_drives_the_bar_with_rate_and_eta_on_a_terminal_only():
    terminal = io.StringIO()
    console = Console(file=terminal, force_terminal=True, width=120)
    with Bar(console, "sudoku", 3) as bar:
        pipeline.run(None, range(1, 10), Seeds(off={2}), Counting(done=1), 3, bar=bar,
                     misses=5, missed=missed)
    shown = terminal.getvalue()
    assert "sudoku" in shown and "/min" in shown and "ETA" in shown and "off level 1" in shown
    log = io.StringIO()
    with Bar(Console(file=log, force_terminal=False), "sudoku", 3) as bar:
        pipeline.run(None, range(1, 10), Seeds(), Counting(), 3, bar=bar)
    assert log.getvalue() == ""


@pytest.mark.fast
def test_one_module_names_the_record_fields():
    """The record's fields: the store's columns, the fields --resume requires and a
    Puzzle's engine fields all come from ``record``; every field a Puzzle has that its
    record writes under the same name is one of ENGINE_FIELDS."""
    from puzzle_engine.run import outfile
    from puzzle_engine.store import entries
    from puzzle_engine.strategies import base
    assert entries.COLUMNS is record.COLUMNS and outfile.REQUIRED is record.REQUIRED
    assert base.Puzzle is record.Puzzle
    assert set(record.REQUIRED) <= set(record.ENGINE_FIELDS)
    named = {f.name for f in fields(record.Puzzle)} - {"instance", "solution", "level", "extra"}
    assert named <= set(record.ENGINE_FIELDS)


def _gen(*args):
    return subprocess.run([sys.executable, "-m", "puzzle_engine", "gen", *map(str, args)],
                          capture_output=True, text=True, timeout=900)


def test_gen_workers_with_difficulty_gives_the_records_of_one_process(tmp_path):
    """gen --workers 2 --difficulty: graded in the workers, the same records (the same
    puzzles, levels and next seeds) as one process; and --resume goes on from the note."""
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    args = ("sudoku", "--seed", "5", "--difficulty", "easy", "--format", "json")
    single = _gen(*args, "--count", "2", "--out", one)
    assert single.returncode == 0, single.stderr
    first = _gen(*args, "--count", "1", "--workers", "2", "--out", two)
    assert first.returncode == 0, first.stderr
    again = _gen(*args, "--count", "2", "--workers", "2", "--out", two, "--resume")
    assert again.returncode == 0, again.stderr
    timing = ("seconds", "solver_calls")
    read = lambda path: [{k: v for k, v in json.loads(line).items() if k not in timing}  # noqa: E731
                         for line in path.read_text().splitlines()]
    assert read(one) == read(two) and len(read(one)) == 2
    assert all(r["difficulty"]["level"] == "easy" for r in read(one))
