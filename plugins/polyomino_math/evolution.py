"""The paper's evolutionary hardness measure (section 3), registered as the grader
``evolutionary``.

Representation: three real genes in [0, 1) per piece: a key (the pieces are tried in
increasing order of their keys), an orientation (one of the piece's distinct
orientations, ``floor(g * m)`` of ``m``) and a start (the placement, in reading order,
where the scan for a free place begins, wrapping round). Decoding places each piece in
turn at the first place from its start where it fits; a piece that fits nowhere is left
out. Every placement can be encoded (a piece's start may be its place), and every optimum
has each left-out piece fitting nowhere (placing it would add to the score).

Evolution: steady state, a population of 20 (the paper's second search). Each tournament
draws 7 members uniformly at random; the two best are copied, crossed over at two points
and each copy mutated at 1 to 7 loci (how many drawn uniformly, each locus a new uniform
value in [0, 1)); the two copies replace the two worst of the seven. A run is a fixed
number of tournaments (``--tournaments``, 2,000 by default; the paper ran 400,000).

Hardness of one run: 1 minus the area under its best-fitness curve (the best of the
population after each tournament), averaged over the tournaments and divided by the
highest fitness any run of this puzzle found. A run that starts at the best scores 0; one
that creeps up slowly scores near 1. A puzzle's grade is the distribution over ``--runs``
runs (30 in docs/grading.md), each seeded from ``--grade-seed`` and the run number.
"""
from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field

from puzzle_engine import Status

from .scoring import best_of
from .tiling import placements

POPULATION = 20
TOURNAMENT = 7
MAX_MUTATED = 7


class Decoder:
    """Decodes genes to a placement's score for one board."""

    def __init__(self, instance):
        self.pieces = list(instance.pieces)
        self.genes = 3 * len(self.pieces)
        self.tables = {}  # shape -> per orientation, [(mask, value)] in reading order
        for shape in set(self.pieces):
            by_orientation: dict[int, list] = {}
            for k, mask in placements(shape, instance.rows, instance.cols):
                value = best_of([instance.numbers[i] for i in range(mask.bit_length())
                                 if mask >> i & 1])
                by_orientation.setdefault(k, []).append((mask, value))
            self.tables[shape] = [by_orientation[k] for k in sorted(by_orientation)]

    def place(self, genes):
        """The placed pieces ``(piece index, mask)`` and the score."""
        n = len(self.pieces)
        order = sorted(range(n), key=lambda i: genes[i])
        covered, score, placed = 0, 0, []
        for i in order:
            table = self.tables[self.pieces[i]]
            options = table[min(int(genes[n + i] * len(table)), len(table) - 1)]
            start = min(int(genes[2 * n + i] * len(options)), len(options) - 1)
            for mask, value in options[start:] + options[:start]:
                if not mask & covered:
                    covered |= mask
                    score += value
                    placed.append((i, mask))
                    break
        return placed, score

    def score(self, genes) -> int:
        return self.place(genes)[1]


def evolve(decoder: Decoder, tournaments: int, rng: random.Random) -> list[int]:
    """One run: the best fitness of the population at the start and after each
    tournament (``tournaments + 1`` values)."""
    size = decoder.genes
    pop = [[rng.random() for _ in range(size)] for _ in range(POPULATION)]
    fit = [decoder.score(g) for g in pop]
    best = max(fit)
    curve = [best]
    for _ in range(tournaments):
        drawn = rng.sample(range(POPULATION), TOURNAMENT)
        drawn.sort(key=lambda i: fit[i], reverse=True)
        a, b = pop[drawn[0]], pop[drawn[1]]
        i, j = sorted(rng.sample(range(size + 1), 2))
        children = (a[:i] + b[i:j] + a[j:], b[:i] + a[i:j] + b[j:])
        for slot, child in zip(drawn[-2:], children):
            for locus in rng.sample(range(size), min(size, rng.randint(1, MAX_MUTATED))):
                child[locus] = rng.random()
            pop[slot] = child
            fit[slot] = decoder.score(child)
            best = max(best, fit[slot])
        curve.append(best)
    return curve


def hardness(curves: list[list[int]]) -> list[float]:
    """Each run's hardness: 1 - (mean best fitness) / (best fitness of any run)."""
    top = max(max(c) for c in curves)
    if top <= 0:  # every placement scores 0 (a board of zeros): nothing to find
        return [0.0] * len(curves)
    return [1 - statistics.fmean(c) / top for c in curves]


@dataclass
class EAGrade:
    """The evolutionary grade of one puzzle."""

    puzzle: str
    runs: int
    tournaments: int
    hardness: list[float]
    best: list[int]          # each run's best fitness
    optimum: int | None      # the proven optimum (None: the solver timed out)
    seed: int
    extra: dict = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.hardness)

    @property
    def missed(self) -> int | None:
        """Runs that ended below the true optimum."""
        return None if self.optimum is None else sum(b < self.optimum for b in self.best)

    def to_json(self):
        return {"puzzle": self.puzzle, "grader": "evolutionary", "hardness": round(self.mean, 6),
                "hardness_median": round(statistics.median(self.hardness), 6),
                "hardness_runs": [round(h, 6) for h in self.hardness], "best_runs": self.best,
                "optimum": self.optimum, "runs_missing_optimum": self.missed,
                "runs": self.runs, "tournaments": self.tournaments,
                "population": POPULATION, "grade_seed": self.seed}

    def summary(self) -> str:
        q = statistics.quantiles(self.hardness, n=4) if len(self.hardness) > 1 else \
            [self.hardness[0]] * 3
        missed = "optimum unknown (the solver timed out)" if self.optimum is None else \
            f"{self.missed} of {self.runs} runs ended below the optimum {self.optimum}"
        return (f"hardness {self.mean:.4f} (median {q[1]:.4f}, quartiles {q[0]:.4f}..{q[2]:.4f}; "
                f"{self.runs} runs of {self.tournaments} tournaments, population {POPULATION})\n"
                f"best found {max(self.best)}; {missed}")


class EAGrader:
    def __init__(self, engine, ptype, params, options):
        self.engine, self.ptype, self.params, self.options = engine, ptype, params, options

    def grade(self, instance, label: str = "") -> EAGrade:
        runs, seed = self.options.runs, self.options.seed
        tournaments = self.params["tournaments"]
        decoder = Decoder(instance)
        curves = [evolve(decoder, tournaments, random.Random(f"{seed}:{run}"))
                  for run in range(runs)]
        result, _ = self.engine.solve(self.ptype, self.params, instance)
        optimum = int(result.objective) if result.status == Status.OPTIMAL else None
        return EAGrade(label, runs, tournaments, hardness(curves), [max(c) for c in curves],
                       optimum, seed)

    def close(self) -> None:
        pass


class Evolutionary:
    """The grader ``evolutionary``, as registered."""

    name = "evolutionary"
    description = "the paper's evolutionary hardness: area under the best-fitness curve"

    def grader(self, engine, ptype, params, options):
        """``options`` None (hookspecs.Grader): the defaults, 50 runs from seed 0."""
        if options is None:
            from puzzle_engine.grading import GradeOptions
            options = GradeOptions()
        return EAGrader(engine, ptype, params, options)
