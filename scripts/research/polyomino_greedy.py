"""How often the paper's greedy rule misses the best score when every piece is placed
(Lemma 1 makes that a question about piece sizes and the multiset of numbers alone),
under each scoring rule: max(sum, product) (the puzzle's), product only (the paper's
first version, where the greedy rule was observed) and sum only.

    .venv/bin/python scripts/research/polyomino_greedy.py --cases 500

Two families, each drawn from ``random.Random(seed)``:
- 5x6: the piece sizes of a random tileable set of 3- and 4-ominoes, 30 numbers drawn
  uniformly from 1..4;
- small: 5 to 9 squares split into pieces of 1 to 4 squares at random, numbers from 1..4
  (the issue's counterexample, sizes 4, 2, 1 and 1,1,1,1,1,3,3, is of this kind).
"""
from __future__ import annotations

import argparse
import random
import statistics

from puzzle_engine_plugins.polyomino_math.scoring import RULES, best_split, greedy
from puzzle_engine_plugins.polyomino_math.tiling import tileable_sets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sizes_5x6 = [tuple(len(p) for p in pieces) for pieces, _ in tileable_sets((3, 4), 5, 6)]
    families = {"5x6": [], "small": []}
    for _ in range(args.cases):
        families["5x6"].append((rng.choice(sizes_5x6), [rng.randint(1, 4) for _ in range(30)]))
        n = rng.randint(5, 9)
        sizes, left = [], n
        while left:
            sizes.append(rng.randint(1, min(4, left)))
            left -= sizes[-1]
        families["small"].append((tuple(sizes), [rng.randint(1, 4) for _ in range(n)]))
    for family, cases in families.items():
        for name, rule in RULES.items():
            gaps = [best_split(s, v, rule) - greedy(s, v, rule) for s, v in cases]
            missed = [g for g in gaps if g > 0]
            assert min(gaps) >= 0
            print(f"{family:6} {name:8} greedy misses the best on {len(missed):4} of {len(cases)} "
                  f"({100 * len(missed) / len(cases):5.1f}%); mean shortfall when it does "
                  f"{statistics.fmean(missed) if missed else 0:.2f}, largest {max(gaps)}",
                  flush=True)


if __name__ == "__main__":
    main()
