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
from support import golden, random_image

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
    assert [json.loads(r["solution"]) for r in rows] == [json.loads(r["record"])["solution"]
                                                        for r in rows]
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
    from support import ToyLatinType

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


# -- round 3 (issue 38): rows a reader cannot decode, marked files, read-only folders,
# --param names no puzzle has, no match, and one run at a time per batch

def _store_with(tmp_path, sudoku_results, name="s.db", n=3):
    ptype, results = sudoku_results
    path = tmp_path / name
    with Store(path) as store:
        for result in results[:n]:
            store.add(entries_of(ptype, result, bins=True))
    return path


@pytest.mark.parametrize("table, column, text, where", [
    ("puzzles", "instance", "{not json", "table puzzles, puzzle id 2: column instance is not JSON"),
    ("puzzles", "solution", "[1, 2", "table puzzles, puzzle id 2: column solution is not JSON"),
    ("puzzles", "meta", "[1, 2]", "table puzzles, puzzle id 2: column meta is JSON, but not an "
                                  "object (list)"),
    ("puzzles", "params", "7", "table puzzles, puzzle id 2: column params is JSON, but not an "
                               "object (int)"),
])
def test_a_row_that_is_not_json_is_one_line_naming_the_store_table_column_and_row(
        cli, tmp_path, sudoku_results, table, column, text, where):
    """A store edited by hand or damaged: every reader (db export, db query, render, and
    db stats for the params it shows) says which row and column, exit 2; not an
    internal error."""
    path = _store_with(tmp_path, sudoku_results)
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE id = 2", (text,))
    commands = [["db", "export", path], ["db", "query", path, "--from", "puzzles"],
                ["db", "query", path, "--format", "csv"],
                ["db", "query", path, "--limit", "3", "--draw", "1", "--format", "jsonl"],
                ["render", path, "--format", "svg", "--out", tmp_path / "x.svg"]]
    if column == "params":
        commands.append(["db", "stats", path])
    for args in commands:
        proc = cli(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.strip() == f"puzzle-engine: error: store {path}: {where}" or (
            proc.stderr.strip().startswith(f"puzzle-engine: error: store {path}: {where} (")), \
            (args, proc.stderr)
    assert not (tmp_path / "x.svg").exists()


def test_a_bins_row_or_a_batch_that_is_not_json_is_named(cli, tmp_path, sudoku_results):
    path = _store_with(tmp_path, sudoku_results)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE bins SET instance = 'x' WHERE id = 1")
        conn.execute("INSERT INTO batches (type, params, settings, seed, count, next_seed, "
                     "started_at, updated_at) VALUES ('sudoku', '{', '{}', 1, 1, 1, 'a', 'a')")
    proc = cli("db", "query", path, "--from", "bins")
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"puzzle-engine: error: store {path}: table bins, bin id 1: "
                                  "column instance is not JSON ("), proc.stderr
    proc = cli("db", "stats", path)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"puzzle-engine: error: store {path}: table batches, batch "
                                  "id 1: column params is not JSON ("), proc.stderr


@pytest.mark.parametrize("version, tables, says", [
    (0, (), "without its tables and schema version"),
    (SCHEMA_VERSION, ("batches",), "without its tables bins, owners, puzzles"),
    (2, ("batches", "puzzles"), "without its table bins"),
])
def test_a_file_marked_as_a_store_without_its_tables_is_left_byte_identical(
        cli, tmp_path, version, tables, says):
    """Our application id on a file without the tables of its version: not made by us
    (we set the mark, the version and the tables in one transaction), so refused by
    every command that opens it, 'batch' before any work, and never changed."""
    path = tmp_path / "marked.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {version}")
    for name in tables:
        conn.execute(f"CREATE TABLE {name} (x)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    for args, option in ((["batch", "sudoku", "--count", 1, "--db", path], "--db"),
                         (["db", "stats", path], "DB")):
        proc = cli(*args)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip() == (f"puzzle-engine: error: bad {option} {path}: marked as "
                                       f"a puzzle-engine store but {says}: damaged, or not made "
                                       "by puzzle-engine; left as it is"), proc.stderr
        assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marked.db"]


def test_a_seed_the_batch_would_go_past_the_stores_numbers_with_is_refused_first(cli, tmp_path):
    """The batch records its next seed with each puzzle, so its last seed + 1 must be a
    number the store holds: refused before any work, no store made (the guide)."""
    top = 2**63 - 1
    for seed, count in ((top, 1), (top - 2, 3)):
        proc = cli("batch", "sudoku", "--count", count, "--seed", seed, "--db",
                   tmp_path / "new.db")
        assert proc.returncode == 2
        assert proc.stderr.strip() == (f"puzzle-engine: error: bad --seed {seed}: a batch of "
                                       f"{count} from it needs seeds past {top}, the largest "
                                       "whole number the store holds")
    assert list(tmp_path.iterdir()) == []


def test_a_store_sqlite_cannot_open_says_why(tmp_path, monkeypatch):
    """SQLite's 'unable to open database file' is named for what it is: a folder where
    the store's -wal and -shm files cannot be made (read-only, or not writable). Here the
    folder is made unwritable for os.access (as root, permission bits do not stop us; the
    read-only mount itself is in test_a_store_on_a_read_only_mount_is_named)."""
    from puzzle_engine.store import store as store_module
    path = tmp_path / "s.db"
    path.write_bytes(b"")
    real = store_module.os.access
    monkeypatch.setattr(store_module.os, "access",
                        lambda p, mode: False if str(p) == str(tmp_path) else real(p, mode))
    why = store_module.cannot_open(path, sqlite3.OperationalError("unable to open database file"))
    assert why == (f"the folder {tmp_path} is not writable, and SQLite must create s.db-wal and "
                   "s.db-shm beside a store to open it, even to read (copy the store to a "
                   "writable folder)")
    monkeypatch.setattr(store_module.os, "access", real)
    assert store_module.cannot_open(path, sqlite3.OperationalError("disk I/O error")) == \
        "SQLite cannot open it (disk I/O error)"


def _unshare_mount_works() -> bool:
    import shutil
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    return subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt"],
                          capture_output=True).returncode == 0


@pytest.mark.skipif(not _unshare_mount_works(), reason="needs mount namespaces (root)")
def test_a_store_on_a_read_only_mount_is_named(tmp_path, sudoku_results):
    """A store in a folder bind-mounted read-only (in a mount namespace of its own, gone
    with the command): the readers say the folder is on a read-only file system, the
    writers that the file or folder is; not 'unable to open database file'."""
    import shlex
    import sys
    folder = tmp_path / "ro"
    folder.mkdir()
    path = _store_with(folder, sudoku_results)
    before = path.read_bytes()
    run = f"{shlex.quote(sys.executable)} -c 'from puzzle_engine.cli import main; main()'"
    commands = {
        f"db stats {path}": f"bad DB {path}: the folder {folder} is on a read-only file system, "
                            "and SQLite must create s.db-wal and s.db-shm beside a store to "
                            "open it, even to read (copy the store to a writable folder)",
        f"render {path} --out {tmp_path}/x.svg": f"bad INPUT {path}: the folder {folder} is on "
                                                 "a read-only file system",
        f"batch sudoku --count 1 --db {path}": f"bad --db {path}: the file is on a read-only "
                                               "file system",
        f"batch sudoku --count 1 --db {folder}/new.db": f"bad --db {folder}/new.db: the folder "
                                                        "is on a read-only file system",
    }
    for command, says in commands.items():
        proc = subprocess.run(
            ["unshare", "-m", "sh", "-c", f"mount --bind {folder} {folder} && mount -o "
             f"remount,bind,ro {folder} && {run} {command}"],
            capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"puzzle-engine: error: {says}"), proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    assert path.read_bytes() == before and sorted(p.name for p in folder.iterdir()) == ["s.db"]


def test_a_param_no_stored_puzzle_has_is_named_and_no_match_is_said(cli, tmp_path,
                                                                    sudoku_results):
    """'--param colour=red' selects nothing because no stored puzzle has such a
    parameter: that is a mistake in the command (a misspelt name, another type's), so it
    is refused, naming the parameters the stored puzzles do have. A known parameter with
    a value nothing has is a query with no match: said on stderr, exit 0."""
    path = _store_with(tmp_path, sudoku_results)
    for args in (["db", "query", path], ["db", "export", path], ["db", "stats", path],
                 ["render", path, "--out", tmp_path / "x.svg"]):
        proc = cli(*args, "--param", "colour=red")
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.strip() == (f"puzzle-engine: error: bad --param colour: no puzzle "
                                       f"in {path} has a parameter 'colour' (theirs: box, "
                                       "choose, size)"), proc.stderr
    proc = cli("db", "query", path, "--type", "sudoku", "--param", "colour=red")
    assert "no puzzle of type sudoku in" in proc.stderr and proc.returncode == 2
    # nothing of the type stored: no names known, so no match rather than a refusal
    proc = cli("db", "query", path, "--type", "fillomino", "--param", "colour=red")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr == f"puzzle-engine: no match in {path} (puzzles and bins searched)\n"
    for args, said in ((["db", "query", path, "--param", "size=4"], "(puzzles and bins searched)"),
                       (["db", "query", path, "--level", "hard", "--from", "bins"],
                        "(bins searched); its levels: 80"),
                       (["db", "query", path, "--level", "hard", "--from", "puzzles"],
                        "(puzzles searched); it has no puzzles at any level (grade them: "
                        "'batch --difficulty LEVEL' stores graded puzzles)"),
                       (["db", "export", path, "--param", "size=4"], "(puzzles searched)")):
        proc = cli(*args)
        assert (proc.returncode, proc.stdout) == (0, ""), proc.stderr
        assert proc.stderr == f"puzzle-engine: no match in {path} {said}\n"
    proc = cli("db", "query", path, "--param", "size=9", "--limit", "1")
    assert proc.returncode == 0 and proc.stderr == "" and len(proc.stdout.split()) == 1
    assert not (tmp_path / "x.svg").exists()


def _held_by(path, owner, beat_at=None):
    """Make ``owner`` the holder of batch 1 in ``path``, its heartbeat at ``beat_at``."""
    from puzzle_engine.store import owners
    stamp = beat_at or owners.stamp()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT OR REPLACE INTO owners (batch_id, host, boot, pid, started, "
                     "taken_at, beat_at) VALUES (1, ?, ?, ?, ?, ?, ?)",
                     (owner.host, owner.boot, owner.pid, owner.started, stamp, stamp))


def _run_batch(path):
    with Store(path) as store:
        batch, created = store.run_batch("sudoku", {"size": 9}, {"s": 1}, 1, 5, lambda: 0)
        held = store.execute("SELECT pid FROM owners").fetchall()
    with sqlite3.connect(path) as conn:
        left = conn.execute("SELECT count(*) FROM owners").fetchone()[0]
    return batch, created, held, left


def test_a_batch_is_held_by_one_live_run_and_a_gone_one_is_taken_over(tmp_path):
    """The owners row: a run holds its batch while it runs and lets go when done; a
    holder whose process lives (same pid and start time) refuses another run, naming the
    batch and the run; one that is dead, whose pid now names another process, from
    before a reboot, or on another host without a heartbeat for LEASE seconds, is taken
    over."""
    import os
    import sys
    from datetime import datetime, timedelta, timezone

    from puzzle_engine.store import owners
    from puzzle_engine.store.store import BatchHeld
    path = tmp_path / "o.db"
    batch, created, held, left = _run_batch(path)
    assert (batch.id, created, held, left) == (1, True, [(os.getpid(),)], 0)
    me = owners.Owner.this_process()
    live = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                            stdin=subprocess.PIPE)
    try:
        holder = owners.Owner(me.host, me.boot, live.pid, owners.started(live.pid))
        _held_by(path, holder)
        with pytest.raises(BatchHeld, match=rf"^store {path}: batch 1 \(sudoku, seed 1\) is "
                           rf"being run by another puzzle-engine command \(pid {live.pid} on "
                           rf"{me.host}, since .* UTC\); one run at a time per batch: wait for "
                           "it to end, or stop it$"):
            _run_batch(path)
        with sqlite3.connect(path) as conn:  # the refused run changed nothing
            assert conn.execute("SELECT count, pid FROM batches, owners").fetchone() == \
                (5, live.pid)
        # the same pid, another start time: the pid was reused, the holder is gone
        _held_by(path, owners.Owner(me.host, me.boot, live.pid, holder.started + "0"))
        assert _run_batch(path)[1:] == (False, [(os.getpid(),)], 0)
        # another host, heartbeat fresh: held; stale: taken over
        far = owners.Owner("elsewhere", "b", live.pid, holder.started)
        _held_by(path, far)
        with pytest.raises(BatchHeld, match="pid .* on elsewhere"):
            _run_batch(path)
        old = datetime.now(timezone.utc) - timedelta(seconds=owners.LEASE + 1)
        _held_by(path, far, owners.stamp(old))
        assert _run_batch(path)[3] == 0
        # this host before a reboot (its last heartbeat before this boot): taken over at once
        _held_by(path, owners.Owner(me.host, "another boot", live.pid, holder.started),
                 owners.stamp(owners._booted_at() - timedelta(seconds=1)))
        assert _run_batch(path)[3] == 0
    finally:
        live.stdin.close()
        live.wait(30)
    # the holder is dead (and reaped): taken over
    _held_by(path, holder)
    assert owners.started(live.pid) is None
    assert _run_batch(path)[1:] == (False, [(os.getpid(),)], 0)


def test_a_run_whose_batch_was_taken_over_stops_at_its_next_write(tmp_path, sudoku_results):
    from puzzle_engine.store import owners
    from puzzle_engine.store.store import BatchHeld
    ptype, results = sudoku_results
    path = tmp_path / "t.db"
    with Store(path) as store:
        batch, _ = store.run_batch("sudoku", {"size": 9}, {}, 1, 5, lambda: 0)
        store.add(entries_of(ptype, results[0]), batch, next_seed=2)
        _held_by(path, owners.Owner("elsewhere", "b", 1, "1"))
        with pytest.raises(BatchHeld, match=r"batch 1 was taken over by another puzzle-engine "
                                            r"command \(pid 1 on elsewhere, since .*\); this "
                                            "run stops$"):
            store.add(entries_of(ptype, results[1]), batch, next_seed=3)
        assert store.distinct(batch) == 1
        assert store.execute("SELECT host FROM owners").fetchall() == [("elsewhere",)]
    with sqlite3.connect(path) as conn:  # its end does not drop the other run's hold
        assert conn.execute("SELECT host FROM owners").fetchall() == [("elsewhere",)]


def test_the_holders_heartbeat_is_written_while_it_runs(tmp_path, monkeypatch):
    """Each LEASE / 6 seconds the run writes its heartbeat (waited for as an event: the
    row's beat_at changing)."""
    import time

    from puzzle_engine.store import owners
    monkeypatch.setattr(owners, "LEASE", 0.3)
    path = tmp_path / "h.db"
    with Store(path) as store:
        store.run_batch("sudoku", {}, {}, 1, 5, lambda: 0)
        (first,) = store.execute("SELECT beat_at FROM owners").fetchone()
        deadline = time.monotonic() + 120
        while store.execute("SELECT beat_at FROM owners").fetchone()[0] == first:
            assert time.monotonic() < deadline, "no heartbeat"
            time.sleep(0.05)


def test_an_older_store_gets_the_owners_table(cli, tmp_path):
    """Version 2 (before batches were held) is read as it is (readers need nothing of
    version 3, so a store in a read-only file stays readable), and brought to version 3
    by a writer."""
    path = tmp_path / "v2.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, upto=2)
    conn.execute("PRAGMA journal_mode = WAL")  # as every store the engine opened
    conn.close()
    before = path.read_bytes()
    for args in (["db", "stats", path], ["db", "query", path, "--from", "bins"]):
        proc = cli(*args)
        assert proc.returncode == 0, proc.stderr
    assert path.read_bytes() == before
    with Store(path) as store:
        assert store.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 3
        batch, created = store.run_batch("sudoku", {}, {}, 1, 5, lambda: 0)
        assert created and store.execute("SELECT count(*) FROM owners").fetchone()[0] == 1


def test_a_live_holder_whose_proc_entry_cannot_be_read_is_not_taken_over(tmp_path, monkeypatch):
    """Another user's run on this machine, under /proc's ``hidepid`` (its /proc/PID
    unreadable, or not even listed): it lives (``kill -0`` says so), so its hold stands;
    taking it over would run the batch twice at once. Its start time cannot be read, so a
    reused pid cannot be told from it: the safe side is to take it for alive."""
    import os

    from puzzle_engine.store import owners
    me = owners.Owner.this_process()
    holder = owners.Owner(me.host, me.boot, os.getppid(), "12345")
    real_open = open

    def hidden(path, *args, **kwargs):
        if str(path) == f"/proc/{holder.pid}/stat":
            raise next(errors)
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr(owners, "open", hidden, raising=False)
    real_kill = os.kill

    def kill(pid, sig):  # another user's process: it lives, and may not be signalled
        if pid == holder.pid and sig == 0:
            raise PermissionError(1, "Operation not permitted")
        return real_kill(pid, sig)
    monkeypatch.setattr(owners.os, "kill", kill)
    for error in (PermissionError(13, "Permission denied"),  # hidepid=1
                  FileNotFoundError(2, "No such file or directory")):  # hidepid=2
        errors = iter([error])
        assert owners.alive(holder, owners.stamp(), me), error
    # and a pid that no process has is still dead, however /proc answers
    monkeypatch.setattr(owners.os, "kill", real_kill)
    dead = subprocess.Popen(["true"])
    dead.wait()
    errors = iter([FileNotFoundError(2, "No such file or directory")])
    holder = owners.Owner(me.host, me.boot, dead.pid, "12345")
    assert not owners.alive(holder, owners.stamp(), me)


def test_a_live_holder_on_another_machine_of_the_same_name_is_not_taken_over():
    """Two machines named alike (``localhost`` is a common default) share a store on a
    network file system: the other's boot differs from ours, and its hold was taken for
    one from before our reboot and taken over at once, however fresh its heartbeat: the
    batch ran twice at once. A hold from before our boot has no heartbeat after it; one
    that has is another machine's, alive while its heartbeat is."""
    from datetime import datetime, timedelta, timezone

    from puzzle_engine.store import owners
    me = owners.Owner.this_process()
    twin = owners.Owner(me.host, "another boot", 4242, "777")
    assert owners.alive(twin, owners.stamp(), me)  # beating now: another machine
    booted = owners._booted_at()
    assert booted is not None and booted <= datetime.now(timezone.utc)
    before_boot = owners.stamp(booted - timedelta(seconds=1))
    assert not owners.alive(twin, before_boot, me)  # from before this boot: gone
    stale = owners.stamp(datetime.now(timezone.utc) - timedelta(seconds=owners.LEASE + 1))
    assert not owners.alive(twin, stale, me)  # another machine, silent past the lease
