"""The paper's Polyomino Math experiment (paper 001, section 3), at a scale that fits two
shared cores. Writes its figures to stdout and its plots to docs/images/.

    .venv/bin/python scripts/research/polyomino_experiment.py --parts 1 --no-plots
    .venv/bin/python scripts/research/polyomino_experiment.py --parts 2,3 --per-count 4 --budget-pairs 12
    .venv/bin/python scripts/research/polyomino_experiment.py --parts 4

1. Types, exactly: every tileable 5x6 set of 3- and 4-ominoes (827) against --boards
   shuffled boards (10; the paper's 8 ones, 8 twos, 8 threes, 6 fours), each pairing's
   optimum and type proven. The share of Type I, overall and by the number of distinct
   pieces in the set.
2. Hardness: the plugin's evolutionary measure (evolution.py: the paper's EA, population
   20, size-7 single tournaments) on a sample: --per-count sets for each number of
   distinct pieces, against the first two boards; --runs runs of --tournaments each.
   Mean hardness by the number of distinct pieces (the paper's Figure 8); how often a
   run ends below the true optimum; box plots of the hardest pairings (Figure 7); the
   Spearman correlation with the exact solver's effort on the same pairings.
3. Budget: the hardness ranking of a sample of pairings at 250, 1,000 and 4,000
   tournaments (10 runs each), and how it changes (Spearman).
4. Uniqueness (only with ``--parts 4``): the share of pairings whose optimum one
   placement alone reaches, on every 7th set against every board.

Part 1 solves 8,270 pairings. Through MiniZinc each solve starts a process (a second or
more on a loaded machine), so here the same packing model is built with OR-Tools' Python
API and solved by CP-SAT in this process, with one lexicographic objective (2 * score +
[every piece placed]): its optimum gives the score and the type in one solve. The first
--check pairings are solved again through the engine (MiniZinc, the plugin's model) and
must agree.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from ortools.sat.python import cp_model
from scipy.stats import spearmanr

from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host
from puzzle_engine.solving.backend import Backend

from puzzle_engine_plugins.polyomino_math import all_placements, kinds_of
from puzzle_engine_plugins.polyomino_math.board import PAPER_NUMBERS, Board
from puzzle_engine_plugins.polyomino_math.evolution import Decoder, evolve, hardness
from puzzle_engine_plugins.polyomino_math.tiling import tileable_sets

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def exact(board: Board, unique: bool = False):
    """(optimum, type, CP-SAT branches) by one lexicographic solve; with ``unique``, also
    whether one placement alone reaches the optimum (a second solve excludes it)."""
    table = all_placements(board)
    _, counts = kinds_of(board)
    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{p}") for p in range(len(table))]
    for s in range(board.rows * board.cols):
        m.AddAtMostOne(x[p] for p, (_, mask, _) in enumerate(table) if mask >> s & 1)
    used = []
    for k, n in enumerate(counts):
        placed = sum(x[p] for p, (kind, _, _) in enumerate(table) if kind == k)
        m.Add(placed <= n)
        full = m.NewBoolVar(f"full{k}")
        m.Add(placed == n).OnlyEnforceIf(full)
        used.append(full)
    everything = m.NewBoolVar("all")
    m.AddBoolAnd(used).OnlyEnforceIf(everything)
    m.Maximize(2 * sum(v * x[p] for p, (_, _, v) in enumerate(table)) + everything)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    # Five times less CPU on these small packings than the defaults (measured: 12 ms
    # against 60 ms on a 5x6 board): no presolve, the full linear relaxation.
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 2
    assert solver.Solve(m) == cp_model.OPTIMAL
    value = round(solver.ObjectiveValue())
    found = value // 2, "I" if value % 2 else "II", solver.NumBranches()
    if not unique:
        return found
    chosen = [p for p in range(len(x)) if solver.Value(x[p])]
    m.ClearObjective()
    m.Add(sum(v * x[p] for p, (_, _, v) in enumerate(table)) == found[0])
    m.AddBoolOr([x[p].Not() for p in chosen] +
                [x[p] for p in range(len(x)) if p not in set(chosen)])
    again = cp_model.CpSolver()
    again.parameters.num_workers = 1
    status = again.Solve(m)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return (*found, status == cp_model.INFEASIBLE)


def ea(board, runs, tournaments, seed=0):
    decoder = Decoder(board)
    curves = [evolve(decoder, tournaments, random.Random(f"{seed}:{run}")) for run in range(runs)]
    return hardness(curves), [max(c) for c in curves]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=10)
    ap.add_argument("--per-count", type=int, default=5)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--tournaments", type=int, default=1000)
    ap.add_argument("--budget-pairs", type=int, default=20)
    ap.add_argument("--check", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--parts", default="1,2,3", help="which parts to run (e.g. 1 in one "
                    "process and 2,3 in another)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    numbers = [v for v, n in PAPER_NUMBERS[30].items() for _ in range(n)]
    boards = []
    for _ in range(args.boards):
        rng.shuffle(numbers)
        boards.append(tuple(numbers))
    sets = [pieces for pieces, _ in tileable_sets((3, 4), 5, 6)]
    print(f"{len(sets)} tileable 5x6 sets of 3- and 4-ominoes, {len(boards)} boards", flush=True)

    parts = {int(p) for p in args.parts.split(",")}
    by_count: dict[int, list] = {}
    for i, pieces in enumerate(sets):
        by_count.setdefault(len(set(pieces)), []).append(i)
    if 1 in parts:
        part1(args, sets, boards, by_count)
    if parts & {2, 3}:
        part23(args, sets, boards, by_count, parts)
    if 4 in parts:
        part4(args, sets, boards)


def part4(args, sets, boards):
    """4. How rare a unique optimum is: every 7th set against every board."""
    start = time.perf_counter()
    found = {"I": [0, 0], "II": [0, 0]}
    for i in range(0, len(sets), 7):
        for numbers_ in boards:
            _, kind, _, unique = exact(Board(5, 6, numbers_, sets[i]), unique=True)
            found[kind][0] += unique
            found[kind][1] += 1
    n = sum(v[1] for v in found.values())
    u = sum(v[0] for v in found.values())
    print(f"part 4: {n} pairings in {time.perf_counter() - start:.0f} s; a unique optimum "
          f"(up to swapping identical pieces) on {u} ({100 * u / n:.1f}%): Type I "
          f"{found['I'][0]} of {found['I'][1]}, Type II {found['II'][0]} of {found['II'][1]}",
          flush=True)


def part1(args, sets, boards, by_count):
    # -- 1. types, exactly -------------------------------------------------------------
    start = time.perf_counter()
    results = {}
    for i, pieces in enumerate(sets):
        for j, numbers_ in enumerate(boards):
            results[i, j] = exact(Board(5, 6, numbers_, pieces))
        if i % 100 == 99:
            print(f"  ... {i + 1} sets in {time.perf_counter() - start:.0f} s", flush=True)
    took = time.perf_counter() - start
    kinds = [r[1] for r in results.values()]
    print(f"part 1: {len(results)} pairings solved in {took:.0f} s; Type I "
          f"{kinds.count('I')} ({100 * kinds.count('I') / len(kinds):.1f}%), Type II "
          f"{kinds.count('II')}", flush=True)
    for d in sorted(by_count):
        ks = [results[i, j][1] for i in by_count[d] for j in range(len(boards))]
        print(f"  {d} distinct pieces: {len(ks) // len(boards)} sets, Type I "
              f"{100 * ks.count('I') / len(ks):.1f}%", flush=True)
    host = get_host()
    engine = Engine(host, Backend("cp-sat", time_limit=120))
    ptype = host.get_type("polyomino-math")
    criterion = engine.criterion(ptype)
    agree = 0
    for i in range(args.check):
        pieces, j = sets[(i * 37) % len(sets)], i % len(boards)
        board = Board(5, 6, boards[j], pieces)
        params = ptype.parse({}, ptype.format({}, board, "line")).params
        verdict = criterion.judge(engine, ptype, params, board)
        expected = results[(i * 37) % len(sets), j]
        assert (verdict.value, verdict.fields["board_type"]) == expected[:2], \
            (board, verdict, expected)
        agree += 1
    engine.close()
    print(f"  the engine (MiniZinc, CP-SAT) agrees on {agree} of {args.check} pairings", flush=True)


def part23(args, sets, boards, by_count, parts):
    # -- 2. hardness on a sample ---------------------------------------------------------
    start = time.perf_counter()
    sample = []
    for d in sorted(by_count):
        members = by_count[d]
        for i in random.Random(d).sample(members, min(args.per_count, len(members))):
            sample.extend((i, j) for j in range(min(2, len(boards))))
    results = {k: exact(Board(5, 6, boards[k[1]], sets[k[0]])) for k in sample}
    grades = {}
    for i, j in sample:
        h, best = ea(Board(5, 6, boards[j], sets[i]), args.runs, args.tournaments)
        grades[i, j] = (h, best)
    took = time.perf_counter() - start
    print(f"part 2: {len(sample)} pairings x {args.runs} runs x {args.tournaments} "
          f"tournaments in {took:.0f} s", flush=True)
    means = {}
    for d in sorted(by_count):
        hs = [statistics.fmean(grades[i, j][0]) for i, j in sample if len(set(sets[i])) == d]
        if hs:
            means[d] = statistics.fmean(hs)
            print(f"  {d} distinct pieces: mean hardness {means[d]:.4f} over {len(hs)} pairings",
                  flush=True)
    runs_total = sum(len(g[1]) for g in grades.values())
    missed = sum(b < results[k][0] for k, g in grades.items() for b in g[1])
    never = sum(max(g[1]) < results[k][0] for k, g in grades.items())
    print(f"  runs ending below the true optimum: {missed} of {runs_total} "
          f"({100 * missed / runs_total:.1f}%); pairings where no run reached it: {never} "
          f"of {len(grades)}", flush=True)
    mean_h = [statistics.fmean(grades[k][0]) for k in sample]
    effort = [results[k][2] for k in sample]
    rho = spearmanr(mean_h, effort)
    print(f"  Spearman (EA hardness, CP-SAT branches to prove the optimum and type): "
          f"rho {rho.statistic:.3f} (p {rho.pvalue:.3g})", flush=True)
    plots(args, sample, grades, means)
    if 3 not in parts:
        return
    # -- 3. budget ---------------------------------------------------------------------------
    start = time.perf_counter()
    few = sample[::max(1, len(sample) // args.budget_pairs)][:args.budget_pairs]
    budgets = (250, 1000, 4000)
    ranking = {b: [statistics.fmean(ea(Board(5, 6, boards[j], sets[i]), 10, b)[0])
                   for i, j in few] for b in budgets}
    took = time.perf_counter() - start
    print(f"part 3: {len(few)} pairings, 10 runs at each budget, in {took:.0f} s", flush=True)
    for a, b in zip(budgets, budgets[1:]):
        r = spearmanr(ranking[a], ranking[b]).statistic
        print(f"  Spearman of the hardness ranking, {a} against {b} tournaments: {r:.3f}",
              flush=True)
    r = spearmanr(ranking[budgets[0]], ranking[budgets[-1]]).statistic
    print(f"  Spearman, {budgets[0]} against {budgets[-1]} tournaments: {r:.3f}", flush=True)


def plots(args, sample, grades, means):
    if not args.no_plots:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        IMAGES.mkdir(parents=True, exist_ok=True)
        hardest = sorted(sample, key=lambda k: statistics.median(grades[k][0]), reverse=True)[:10]
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.boxplot([grades[k][0] for k in hardest])
        ax.set_xticks(range(1, len(hardest) + 1),
                      [f"set {i}\nboard {j}" for i, j in hardest], fontsize=7)
        ax.set_ylabel(f"hardness ({args.runs} runs of {args.tournaments} tournaments)")
        ax.set_title("Polyomino Math 5x6: the ten hardest sampled pairings")
        fig.tight_layout()
        fig.savefig(IMAGES / "polyomino_hardness_boxplots.png", dpi=90)
        fig, ax = plt.subplots(figsize=(5, 3.5))
        ax.plot(list(means), list(means.values()), marker="o")
        ax.set_xlabel("distinct polyominoes in the set")
        ax.set_ylabel("mean hardness")
        ax.set_title("Mean hardness by distinct pieces (paper: Fig. 8)", fontsize=10)
        fig.tight_layout()
        fig.savefig(IMAGES / "polyomino_hardness_by_distinct.png", dpi=90)
        print(f"plots: {IMAGES}/polyomino_hardness_*.png", flush=True)


if __name__ == "__main__":
    main()
