"""#41.4 and #42.2 end to end: gen --rating keeps puzzles in a band of the step rating
(the one explain prints), recorded in the record and the store (db query --rating), with
the rate achieved said; the rating stops early above the band; a store of schema 3 gets
the rating column; a generation that finds nothing exits 3, and a batch records the seeds
it skipped."""
import json
import sqlite3

from puzzle_engine.engine import Engine
from puzzle_engine.explain.band import rating_of
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend
from puzzle_engine.store import Store
from puzzle_engine.store.schema import SCHEMA_VERSION, migrate

from support import run_main

#: gen sudoku --seed 1 (9x9): step rating 2.3 (a naked single is its hardest step).
SEED1 = ".6.7..2..58....9...7....46.1.9....86....81......3....5..6..5..2.3.4....18...3...."


def _lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_gen_rating_keeps_the_band_in_the_record_and_the_store(tmp_path):
    db = tmp_path / "r.db"
    code, out, err = run_main(["gen", "sudoku", "--size", "4", "--count", "2", "--seed", "1",
                               "--rating", "1.0-2.0", "--format", "json", "--db", str(db)])
    assert code == 0, err
    records = _lines(out)
    assert len(records) == 2
    for r in records:
        assert r["rating"]["band"] == [1.0, 2.0] and 1.0 <= r["rating"]["score"] <= 2.0
        assert r["rating"]["next_seed"] == r["seed"] + 1
    assert "seeds tried per puzzle kept" in err and "rated 1-2" in err
    # the rating is explain's for the whole path
    line = "".join(str(v) for row in records[0]["grid"] for v in row)
    code, said, err = run_main(["explain", "sudoku", "--size", "4", line, "--format", "json"])
    assert code == 0, err
    assert json.loads(said)["rating"]["score"] == records[0]["rating"]["score"]
    # the store holds it in a column, and db query selects by it
    with sqlite3.connect(db) as conn:
        stored = sorted(r for (r,) in conn.execute("SELECT rating FROM puzzles"))
    assert stored == sorted(r["rating"]["score"] for r in records)
    code, found, err = run_main(["db", "query", str(db), "--rating", "1-2", "--format",
                                 "jsonl"])
    assert code == 0 and [r["seed"] for r in _lines(found)] == [r["seed"] for r in records]
    assert all(r["rating"]["score"] for r in _lines(found))
    code, found, err = run_main(["db", "query", str(db), "--rating", "5-6"])
    assert code == 0 and found == "" and "no match" in err and "--rating" in err


def test_the_rating_stops_early_above_the_ceiling():
    host = get_host()
    engine = Engine(host, Backend("cp-sat"))
    ptype = host.get_type("sudoku")
    params = {"size": 9, "box": "3x3", "choose": "fill"}
    instance = tuple(0 if c == "." else int(c) for c in SEED1)
    exact = rating_of(engine, ptype, params, instance)
    assert exact > 1.5  # its hardest step is past the singles
    assert rating_of(engine, ptype, params, instance, ceiling=exact) == exact
    assert rating_of(engine, ptype, params, instance, ceiling=1.5) > 1.5


def test_an_older_store_gets_the_rating_column(tmp_path):
    """Schema 3 (before --rating) is brought to 4 by a writer, with a rating recorded in
    a puzzle's meta copied to the column; a reader of an older store finds no rated
    puzzle, and leaves the file as it was."""
    path = tmp_path / "v3.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, upto=3)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("INSERT INTO puzzles (type, params, key, instance, seed, meta, created_at) "
                 "VALUES ('sudoku', '{}', 'k1', '{}', 1, ?, '2026-01-01T00:00:00.000000Z')",
                 (json.dumps({"rating": {"score": 6.5, "band": [6, 7]}}),))
    conn.close()
    before = path.read_bytes()
    code, out, err = run_main(["db", "query", str(path), "--rating", "6-7"])
    assert (code, out) == (0, "") and "no match" in err
    code, out, err = run_main(["db", "stats", str(path), "--format", "json"])
    assert code == 0, err
    assert path.read_bytes() == before
    with Store(path) as store:
        assert store.version == SCHEMA_VERSION >= 4
        assert store.execute("SELECT rating FROM puzzles").fetchone() == (6.5,)
    code, out, err = run_main(["db", "query", str(path), "--rating", "6-7", "--format",
                               "jsonl"])
    assert code == 0 and len(_lines(out)) == 1, err


def test_a_generation_that_finds_nothing_exits_3_and_a_batch_records_its_seeds(tmp_path):
    """Two steps grow no Combination level: gen says so in one line, exit status 3 (not 2,
    bad input); a batch skips each seed, counts it and records the next seed, then gives
    up after --attempts in a row, keeping its place."""
    code, out, err = run_main(["gen", "combination", "--seed", "1", "--max-steps", "2",
                               "--restarts", "1"])
    assert code == 3 and out == ""
    assert err == ("puzzle-engine: error: growing puzzle 'combination', plugin 'combination' "
                   "found no accepted level in 1 bases (seed 1); raise --restarts\n")
    db = tmp_path / "b.db"
    code, out, err = run_main(["batch", "combination", "--count", "1", "--seed", "1",
                               "--max-steps", "2", "--restarts", "1", "--attempts", "2",
                               "--db", str(db)])
    assert code == 3, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("puzzle-engine: error: no puzzle in 2 seeds in a row (seeds 1..2); "
                           "seed 2: growing puzzle 'combination'") and "Traceback" not in err
    code, out, err = run_main(["db", "stats", str(db), "--format", "json"])
    (batch,) = json.loads(out)["batches"]
    assert (batch["skipped"], batch["next_seed"], batch["off_level"]) == (2, 3, 0)


def test_batch_rating_stores_the_band_and_says_the_rate(tmp_path):
    """batch --rating: the ratings in their column, the band part of what the batch is
    known by (another band is another batch), the rate in the summary."""
    db = tmp_path / "b.db"
    code, _, err = run_main(["batch", "sudoku", "--size", "4", "--count", "2", "--seed", "1",
                             "--rating", "1-2", "--db", str(db)])
    assert code == 0, err
    assert "seeds tried per puzzle kept" in err.splitlines()[-1]
    with sqlite3.connect(db) as conn:
        ratings = [r for (r,) in conn.execute("SELECT rating FROM puzzles")]
        settings = [json.loads(s) for (s,) in conn.execute("SELECT settings FROM batches")]
    assert len(ratings) == 2 and all(1 <= r <= 2 for r in ratings)
    assert settings[0]["rating.band"] == [1.0, 2.0]
    code, _, err = run_main(["batch", "sudoku", "--size", "4", "--count", "1", "--seed", "1",
                             "--rating", "1-1.5", "--db", str(db)])
    assert code == 0, err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM batches").fetchone() == (2,)
