"""The puzzle store on a real SQLite file, with no solver: entries made by hand from the
golden puzzles. Dedup by canonical key, linked variants, atomic writes, the schema's
version and migrations, bad files, and ``db stats|export|query`` with their filters."""
import csv
import io
import json
import random
import sqlite3
import subprocess

import pytest

from puzzle_engine.cli import main
from puzzle_engine.errors import PuzzleInputError
from puzzle_engine.plugins import get_host
from puzzle_engine.store import Filters, Store, entries_of, records, stats
from puzzle_engine.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, migrate
from puzzle_engine.strategies.base import GenResult, Puzzle
from test_canonical import golden, random_image

pytestmark = pytest.mark.fast


def result_of(ptype, params, board, solution, seed, variants=()):
    def puzzle(instance, sol, k=None):
        return Puzzle(type=ptype.name, params=params, instance=instance, solution=sol,
                      seed=seed, plugin=ptype.plugin, plugin_version=ptype.plugin_version,
                      solver="org.chuffed.chuffed", solver_version="0.13.1", solver_calls=1,
                      seconds=0.1, variant=k, options={"complexity": "givens"},
                      level=sum(1 for v in instance if v))
    return GenResult(puzzle(board, solution),
                     [puzzle(v, s, k) for k, (v, s) in enumerate(variants, 1)],
                     {len(board) - 1: [board]})


@pytest.fixture(scope="module")
def sudoku_results():
    """The 9x9 golden puzzles as generated results (the solution: the board itself, which
    the store does not check)."""
    ptype = get_host().get_type("sudoku")
    return ptype, [result_of(ptype, params, board, board, seed)
                   for seed, (params, board) in enumerate(
                       [g for g in golden("sudoku") if g[0]["size"] == 9])]


@pytest.fixture
def cli(capsys):
    """The command line in this process: ``cli(*args)`` gives its exit status, stdout and
    stderr."""
    def run(*args):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out.out, out.err)
    return run


def test_a_duplicate_by_canonical_key_is_refused_and_variants_stay_linked(tmp_path,
                                                                        sudoku_results):
    ptype, results = sudoku_results
    first = results[0]
    params, board = first.puzzle.params, first.puzzle.instance
    rng = random.Random(1)
    image = random_image(ptype, params, board, rng)
    assert image != board
    variants = [(random_image(ptype, params, board, rng), board) for _ in range(3)]
    with Store(tmp_path / "p.db") as store:
        added = store.add(entries_of(ptype, result_of(ptype, params, board, board, 0,
                                                      variants)))
        assert (added.stored, added.duplicates, added.variants) == (1, 0, 3)
        again = store.add(entries_of(ptype, result_of(ptype, params, image, image, 9)))
        assert (again.stored, again.duplicates) == (0, 1)
        found = stats(store, Filters())
        assert (found["puzzles"], found["variants"]) == (1, 3)
        rows = list(records(store, Filters(), "puzzles", variants=True))
        assert [r["store"]["variant_of"] for r in rows] == [None, 1, 1, 1]
        assert {r["store"]["key"] for r in rows} == {rows[0]["store"]["key"]}
        assert [r["variant"] for r in rows] == [None, 1, 2, 3]
        assert rows[1]["grid"] == [list(variants[0][0][i:i + 9]) for i in range(0, 81, 9)]


def test_a_write_is_all_or_nothing(tmp_path, sudoku_results):
    ptype, results = sudoku_results
    entries = [e for r in results for e in entries_of(ptype, r)]
    broken = entries_of(ptype, results[0])[0]
    broken.columns = {}  # fails once the puzzles before it are inserted
    with Store(tmp_path / "p.db") as store:
        with pytest.raises(KeyError):
            store.add(entries[1:] + [broken])
        assert stats(store, Filters())["puzzles"] == 0
        assert store.add(entries).stored == len(entries)


def test_migrations_bring_an_old_store_up_and_a_newer_one_is_refused(cli, tmp_path, sudoku_results):
    ptype, results = sudoku_results
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, upto=1)  # a store as version 1 left it: no bins
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
    with Store(path) as store:
        assert store.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(MIGRATIONS)
        assert store.add(entries_of(ptype, results[0], bins=True)).bins == 1
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    proc = cli("db", "stats", path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"puzzle-engine: error: bad DB {path}: a store of schema "
                                   f"version {SCHEMA_VERSION + 1}, made by a newer puzzle-engine "
                                   f"(this one reads up to version {SCHEMA_VERSION})")


def test_bad_store_paths_are_one_line_errors(cli, tmp_path):
    (tmp_path / "text.db").write_text("not a database at all, but long enough to be read\n" * 40)
    other = sqlite3.connect(tmp_path / "other.db")
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.close()
    assert sqlite3.connect(tmp_path / "other.db").execute(
        "PRAGMA application_id").fetchone()[0] != APPLICATION_ID
    cases = {
        "text.db": "not an SQLite database",
        "other.db": "an SQLite database, but not a puzzle-engine store",
        "missing.db": "no such file",
        ".": "it is a folder, not a file",
    }
    for name, why in cases.items():
        proc = cli("db", "stats", tmp_path / name)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip() == f"puzzle-engine: error: bad DB {tmp_path / name}: {why}"
        assert "Traceback" not in proc.stderr
    proc = cli("gen", "sudoku", "--db", tmp_path / "nowhere" / "p.db")
    assert proc.returncode == 2
    assert "the folder" in proc.stderr and "does not exist" in proc.stderr


def test_db_commands_filter_and_export(cli, tmp_path, sudoku_results):
    ptype, results = sudoku_results
    small = [(p, b) for p, b in golden("sudoku") if p["size"] == 6]
    path = tmp_path / "p.db"
    with Store(path) as store:
        for result in results:
            entries = entries_of(ptype, result, grade={"level": "easy" if result.puzzle.seed % 2
                                                       else "expert"}, bins=True)
            store.add(entries)
        six = ptype.canonical_form(small[0][0], small[0][1])
        store.add(entries_of(ptype, result_of(ptype, small[0][0], small[0][1], small[0][1], 50)))
        store.execute("UPDATE puzzles SET created_at = '2020-01-02T03:04:05.000000Z' "
                      "WHERE seed = 50")
    proc = cli("db", "stats", path, "--format", "json")
    found = json.loads(proc.stdout)
    assert found["puzzles"] == len(results) + 1
    assert sum(b["boards"] for b in found["bins"]) == len(results)
    # by parameter
    proc = cli("db", "query", path, "--param", "size=6", "--from", "puzzles")
    assert proc.stdout.split() == [ptype.format(small[0][0], small[0][1], "line")]
    assert six.startswith("2x3:")  # the 6x6 is a class of its own, stored with the 9x9s
    assert {json.loads(line)["store"]["key"] for line in cli(
        "db", "query", path, "--param", "size=6", "--format", "jsonl").stdout.splitlines()} == {
        entries_of(ptype, result_of(ptype, small[0][0], small[0][1], small[0][1], 50))[0].key}
    # by date
    proc = cli("db", "query", path, "--until", "2020-01-02", "--from", "puzzles", "--format",
               "jsonl")
    assert [json.loads(line)["seed"] for line in proc.stdout.splitlines()] == [50]
    proc = cli("db", "query", path, "--since", "2021-01-01", "--from", "puzzles")
    assert len(proc.stdout.split()) == len(results)
    # by level: graded puzzles, then the bins at that level (here, by givens)
    proc = cli("db", "query", path, "--level", "expert", "--format", "jsonl")
    levels = [json.loads(line)["store"]["level"] for line in proc.stdout.splitlines()]
    assert levels == ["expert"] * ((len(results) + 1) // 2)
    proc = cli("db", "query", path, "--level", "80", "--from", "bins", "--format", "jsonl")
    assert len(proc.stdout.splitlines()) == len(results)
    # a reproducible random draw
    draws = [cli("db", "query", path, "--limit", "2", "--draw", s).stdout for s in (1, 1, 2)]
    assert draws[0] == draws[1] and len(draws[0].split()) == 2
    # CSV and JSON Lines exports, and a record that 'check' reads back
    proc = cli("db", "export", path, "--format", "csv", "--type", "sudoku", "--param", "size=9")
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert len(rows) == len(results) and {r["level"] for r in rows} == {"easy", "expert"}
    out = tmp_path / "out.jsonl"
    proc = cli("db", "export", path, "--out", out, "--param", "size=6")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(out.read_text())
    assert record["grid"][0] == list(small[0][1][:6]) and record["store"]["id"] == len(results) + 1
    proc = cli("db", "query", path, "--param", "size")
    assert proc.returncode == 2 and "bad --param 'size'" in proc.stderr


def test_a_type_without_a_form_is_told_apart_by_its_instance_and_a_bad_form_is_one_line():
    from puzzle_engine.errors import PluginError
    from puzzle_engine.store import key_of
    from test_inline_plugin import ToyLatinType

    toy = ToyLatinType()
    toy.plugin = "toy"
    params = {"size": 3}
    a, b = (1, 2, 3, 0, 0, 0, 0, 0, 0), (0, 0, 0, 1, 2, 3, 0, 0, 0)
    assert key_of(toy, params, a) == key_of(toy, params, a)
    assert key_of(toy, params, a)[1] is None  # no form offered
    assert key_of(toy, params, a)[0] != key_of(toy, params, b)[0]
    assert key_of(toy, {"size": 3, "x": 1}, a)[0] != key_of(toy, params, a)[0]

    class Careless(ToyLatinType):
        def canonical_form(self, params, instance):
            return {frozenset(instance)}
    careless = Careless()
    careless.plugin = "careless"
    with pytest.raises(PluginError, match=r"^canonical_form \(puzzle '.*', plugin 'careless'\) "
                                          r"returned .*, not None or a plain JSON value$"):
        key_of(careless, params, a)


def test_two_commands_opening_a_new_store_at_once_both_open_it(tmp_path, monkeypatch):
    """A second process that read the store as new (version 0) while the first was making
    it waits for the first's transaction and then finds the tables made: no 'table
    already exists'. The first commits only once the second has read version 0 and asks
    for the write lock (an event, not a time)."""
    import threading

    from puzzle_engine.store import schema
    path = tmp_path / "new.db"
    first = sqlite3.connect(path, isolation_level=None)
    first.execute("BEGIN IMMEDIATE")  # the first process, making the store
    opened = []
    asking = threading.Event()
    transaction = schema.transaction

    def asks(conn):
        asking.set()
        return transaction(conn)
    monkeypatch.setattr(schema, "transaction", asks)

    def second():
        try:
            with Store(path) as store:
                opened.append(store.execute("PRAGMA user_version").fetchone()[0])
        except Exception as exc:  # noqa: BLE001 - the test reports it
            opened.append(exc)
    thread = threading.Thread(target=second)
    thread.start()
    assert asking.wait(600)  # the second has read version 0 and asks for the write lock
    for step in MIGRATIONS:
        for statement in step:
            first.execute(statement)
    first.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    first.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    first.execute("COMMIT")
    first.close()
    thread.join(600)
    assert opened == [SCHEMA_VERSION]


def test_a_damaged_store_is_one_line_naming_it(cli, tmp_path, sudoku_results):
    """A store whose puzzles' pages are damaged: each command that reads them says so in
    one line naming the file (not 'internal error')."""
    ptype, results = sudoku_results
    path = tmp_path / "damaged.db"
    with Store(path) as store:
        for result in results[:3]:
            store.add(entries_of(ptype, result))
        root, size = (store.execute(f"SELECT {q}").fetchone()[0] for q in (
            "rootpage FROM sqlite_master WHERE name = 'puzzles'", "* FROM pragma_page_size"))
        store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[(root - 1) * size:(root - 1) * size + 8] = b"\xff" * 8  # the table's b-tree header
    path.write_bytes(bytes(data))
    for args in (["db", "query", path], ["db", "stats", path], ["db", "export", path],
                 ["render", path, "--format", "svg", "--out", tmp_path / "x.svg"]):
        proc = cli(*args)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip() == (f"puzzle-engine: error: store {path}: database disk "
                                       "image is malformed"), proc.stderr


def test_a_full_disk_is_named_and_leaves_the_store_as_it_was(tmp_path, sudoku_results):
    """SQLite rolls a transaction back by itself when the disk is full: the error says
    'full', not 'cannot rollback', and the store keeps what it had."""
    ptype, results = sudoku_results
    with Store(tmp_path / "full.db") as store:
        store.add(entries_of(ptype, results[0]))
        pages = store.execute("PRAGMA page_count").fetchone()[0]
        store.execute(f"PRAGMA max_page_count = {pages}")  # as if the disk were full
        entries = [e for r in results[1:] for e in entries_of(ptype, r, bins=True)]
        entries[0].meta = json.dumps({"padding": "x" * 20000})
        with pytest.raises(PuzzleInputError, match=r"full\.db: database or disk is full$"):
            with store.failures():
                store.add(entries)
        assert store.execute("SELECT count(*) FROM puzzles").fetchone()[0] == 1


def test_numbers_and_values_the_store_cannot_hold_are_one_line(cli, tmp_path, sudoku_results):
    ptype, results = sudoku_results
    path = tmp_path / "n.db"
    with Store(path) as store:
        store.add(entries_of(ptype, results[0]))
    huge = 2**64
    for args, says in (
            (["db", "query", path, "--param", "x=[1]"], "bad --param 'x=[1]': a parameter's value"),
            (["db", "stats", path, "--param", "x=null"], "bad --param 'x=null'"),
            (["db", "query", path, "--batch", huge], f"bad --batch {huge}: the store holds"),
            (["db", "query", path, "--limit", huge], f"bad --limit {huge}: the store holds"),
            (["render", path, "--limit", huge], f"bad --limit {huge}: the store holds"),
            (["batch", "sudoku", "--count", 1, "--seed", huge, "--db", path],
             f"bad --seed {huge}: the store holds"),
            (["batch", "sudoku", "--count", huge, "--db", path], f"bad --count {huge}")):
        proc = cli(*args)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"puzzle-engine: error: {says}"), proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
