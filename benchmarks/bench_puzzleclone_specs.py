"""PuzzleClone's public specs through ``gen logic`` and ``check logic``, and a sample of
the puzzles answered again by brute force, without MiniZinc.

    .venv/bin/python benchmarks/bench_puzzleclone_specs.py SNAPSHOT [--sample 20]

SNAPSHOT is a fetched copy of PuzzleClone: a folder holding ``specs/``, a folder of
``*.yaml``, or a bare git directory (its ``specs/`` is extracted into a temporary folder
with ``git archive``). Nothing is copied into this repository.

Each spec runs as ``bench_logic_specs.py`` runs it (``gen logic --spec FILE --seed 1``,
then ``check`` on the record, one process each). Of those that pass, ``--sample`` are
answered independently: the record's puzzle is rebuilt by our interpreter with no solver
(its conditions as formulas), every assignment of its unknowns is tried by a backtracking
brute force written here (an integer unknown's range is read from the bounds the
conditions put on it; a puzzle whose search space is unbounded or larger than
``--max-nodes`` is skipped), the optimum taken by comparing values when the spec
optimises, and the answer computed from that solution set. It agrees when the solution
set is the one the record holds and the answer is the record's key.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_logic_specs import classify, run  # noqa: E402

from puzzle_engine_plugins.logic import symbolic  # noqa: E402
from puzzle_engine_plugins.logic.generator import Generator  # noqa: E402
from puzzle_engine_plugins.logic.spec import load_spec_file  # noqa: E402

COMPARE = {">=", "<=", ">", "<", "=="}


class Skip(Exception):
    """A puzzle the brute force does not try (unbounded, too large, not recorded)."""


def extract(git_dir: Path, tmp: Path, *paths: str) -> Path:
    """The HEAD tree of a bare git directory (only ``paths`` when given) written into
    ``tmp``; ``tmp``."""
    archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "HEAD", *paths],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    return tmp


def spec_folder(snapshot: Path, tmp: Path) -> Path:
    if (snapshot / "specs").is_dir():
        return snapshot / "specs"
    if (snapshot / "HEAD").is_file() and (snapshot / "objects").is_dir():  # a bare git dir
        return extract(snapshot, tmp, "specs") / "specs"
    return snapshot


# -- the brute force --------------------------------------------------------------------------
def _conjuncts(c):
    if isinstance(c, symbolic.Sym) and c.op == "and":
        for a in c.args:
            yield from _conjuncts(a)
    else:
        yield c


def _var_const(a):
    """``(name, k, op)`` of a comparison ``x op k`` of an unknown and a number, or None."""
    if not (isinstance(a, symbolic.Sym) and a.op in COMPARE):
        return None
    x, k = a.args
    if isinstance(k, symbolic.Sym) and k.op == "const":
        k = k.args[0]
    if isinstance(x, symbolic.Sym) and x.op == "var" and isinstance(k, int) and not isinstance(k, bool):
        return x.args[0], k, a.op
    return None


def _bounds(constraints, variables):
    """The range of each integer unknown from conditions ``x op k`` (or ``k op x``) that
    must hold: a conjunct of a condition."""
    lo, hi, allowed = {}, {}, {}
    for c in constraints:
        for a in _conjuncts(c):
            if isinstance(a, symbolic.Sym) and a.op == "or":  # Or(x == k1, x == k2, ...)
                pairs = [_var_const(b) for b in a.args]
                if all(p and p[2] == "==" for p in pairs) and len({p[0] for p in pairs}) == 1:
                    name = pairs[0][0]
                    allowed[name] = allowed.get(name, {p[1] for p in pairs}) & {p[1] for p in pairs}
                continue
            if not (isinstance(a, symbolic.Sym) and a.op in COMPARE):
                continue
            x, k = a.args
            op = a.op
            if isinstance(k, symbolic.Sym) and k.op == "var":  # k op x: x op' k
                x, k = k, x
                op = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "=="}[op]
            if not (isinstance(x, symbolic.Sym) and x.op == "var"):
                continue
            if isinstance(k, symbolic.Sym):
                if k.op != "const":
                    continue
                k = k.args[0]
            if isinstance(k, bool) or not isinstance(k, int):
                continue
            name = x.args[0]
            if op in (">=", ">", "=="):
                lo[name] = max(lo.get(name, k), k + (op == ">"))
            if op in ("<=", "<", "=="):
                hi[name] = min(hi.get(name, k), k - (op == "<"))
    domains = {}
    for name, v in variables.items():
        if v.type == "bool":
            domains[name] = (False, True)
        elif name in allowed:
            domains[name] = sorted(v for v in allowed[name]
                                   if lo.get(name, v) <= v <= hi.get(name, v))
        elif name in lo and name in hi:
            domains[name] = range(lo[name], hi[name] + 1)
        else:
            raise Skip(f"no finite range for {name}")
    return domains


def brute_force(constraints, goal=None, sense=None, max_nodes=2_000_000, max_seconds=None):
    """Every assignment of the unknowns the conditions name that keeps them all; with a
    goal, those reaching its best value."""
    variables: dict = {}
    for c in [*constraints, goal]:
        if isinstance(c, symbolic.Sym):
            c.variables(variables)
    domains = _bounds(constraints, variables)
    order = sorted(variables, key=lambda n: len(domains[n]))
    size = 1
    for n in order:
        size *= len(domains[n])
    place = {n: i for i, n in enumerate(order)}
    at_depth = [[] for _ in order]  # each condition checked once its last unknown is set
    for c in constraints:
        used: dict = {}
        c.variables(used)
        at_depth[max((place[n] for n in used), default=0)].append(c)
    found, nodes, assignment = [], 0, {}
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds

    def search(depth):
        nonlocal nodes
        if depth == len(order):
            found.append(dict(assignment))
            return
        name = order[depth]
        for v in domains[name]:
            nodes += 1
            if nodes > max_nodes:
                raise Skip(f"more than {max_nodes} nodes (search space {size})")
            if deadline is not None and nodes % 256 == 0 and time.perf_counter() > deadline:
                raise Skip(f"more than {max_seconds} s (search space {size})")
            assignment[name] = v
            if all(symbolic.value(c, assignment) is True for c in at_depth[depth]):
                search(depth + 1)
        del assignment[name]

    if not order:
        found = [{}] if all(symbolic.value(c, {}) is True for c in constraints) else []
    else:
        search(0)
    if goal is not None and found:
        values = [symbolic.value(goal, a) for a in found]
        best = max(values) if sense == "maximize" else min(values)
        found = [a for a, v in zip(found, values) if v == best]
        return found, best
    return found, None


def answer_again(spec_path: Path, record: dict, max_nodes: int,
                 max_seconds: float | None = None) -> dict:
    """The record's puzzle answered by brute force: the solution set and the key."""
    spec = load_spec_file(spec_path, spec_path.stem)
    config = record["config"]
    if "_solutions" not in config:
        raise Skip("the record holds no solutions (more than 500)")
    gen = Generator(spec, None)
    gen.draw(random.Random(config["draw"]), replay=config)  # the conditions, no solver
    constraints = list(gen.scn.constraints)
    goal = sense = None
    if spec.data.get("optimize"):
        constraints = constraints[:-1]  # the replay's `objective == recorded optimum`
        goal = gen.ev(("optimize", "formula"))
        sense = gen.text(("optimize", "type")).strip()
    solutions, best = brute_force(constraints, goal, sense, max_nodes, max_seconds)
    mine = sorted(json.dumps(a, sort_keys=True) for a in solutions)
    theirs = sorted(json.dumps(a, sort_keys=True) for a in config["_solutions"])
    key = None
    if solutions:
        again = dict(config, _solutions=solutions)
        if goal is not None:
            again["_optimum"] = best
        key = Generator(spec, None).draw(random.Random(config["draw"]), replay=again).key
    return {"solutions": len(solutions), "same_solutions": mine == theirs,
            "key": key, "agrees": mine == theirs and key == record["key"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snapshot", type=Path, help="PuzzleClone: a folder with specs/, or its git dir")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per gen or check (60)")
    parser.add_argument("--draws", type=int, default=50, help="gen --draws (50)")
    parser.add_argument("--sample", type=int, default=20,
                        help="passing specs answered by brute force (20; 0: all)")
    parser.add_argument("--max-nodes", type=int, default=2_000_000,
                        help="brute-force search nodes per puzzle (2,000,000)")
    parser.add_argument("--max-seconds", type=float, default=60,
                        help="brute-force seconds per puzzle (60)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (0)")
    parser.add_argument("--only", help="a regular expression the spec file names must match")
    parser.add_argument("--json", type=Path, help="write one JSON line per spec here")
    args = parser.parse_args(argv)
    import re
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folder = spec_folder(args.snapshot, tmp)
        specs = sorted(p for p in folder.glob("*.yaml")
                       if args.only is None or re.search(args.only, p.name))
        if not specs:
            parser.error(f"no *.yaml in {folder}")
        records = tmp / "records"
        records.mkdir()
        rows = []
        for spec in specs:
            row = run(spec, args.timeout, args.draws, records)
            row["reason"] = None if row["ok"] else classify(row["error"])
            rows.append(row)
            print(f"{spec.name:28} {'ok ' if row['ok'] else 'no '} {row['seconds']:6.1f}s  "
                  f"{row.get('error', '')[:120]}", flush=True)
        passed = [r for r in rows if r["ok"]]
        sample = passed if args.sample == 0 or args.sample >= len(passed) else \
            random.Random(args.seed).sample(passed, args.sample)
        print(f"\n{len(passed)} of {len(rows)} specs pass gen and check; "
              f"{len(sample)} answered by brute force:")
        for row in sorted(sample, key=lambda r: r["spec"]):
            spec = folder / row["spec"]
            record = json.loads((records / (spec.stem + ".jsonl")).read_text())
            start = time.perf_counter()
            try:
                row["brute"] = answer_again(spec, record, args.max_nodes, args.max_seconds)
            except Skip as exc:
                row["brute"] = {"skipped": str(exc)}
            row["brute"]["seconds"] = round(time.perf_counter() - start, 1)
            b = row["brute"]
            said = "skipped: " + b["skipped"] if "skipped" in b else (
                f"{'agrees' if b['agrees'] else 'DIFFERS'} ({b['solutions']} solution(s), "
                f"key {b['key']!r}, record {record['key']!r})")
            print(f"  {row['spec']:28} {said[:140]}", flush=True)
    tried = [r for r in sample if "skipped" not in r["brute"]]
    agree = sum(r["brute"]["agrees"] for r in tried)
    print(f"\n{len(passed)} of {len(rows)} specs pass gen and check; of {len(sample)} sampled, "
          f"{len(tried)} answered by brute force, {agree} agree with the record, "
          f"{len(sample) - len(tried)} skipped")
    if args.json:
        args.json.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return 0 if agree == len(tried) else 1


if __name__ == "__main__":
    sys.exit(main())
