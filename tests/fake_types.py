"""Toy puzzle types for the fast tests, one per strategy and criterion, answered by the
fake solver's oracles (tests/fake_solver.py). ``fake_host()`` registers them all.

* ``fake_growing_latin`` (growing): a 4x4 Latin square grows a given at a time (or,
  ``--start full``, a random one's few givens are repaired a given at a time);
* ``fake_own_latin`` (own): random givens of a random 4x4 Latin square;
* ``fake_first_row`` (unique-modulo-symmetry): solutions count as one when their first
  rows agree;
* ``fake_corner_quiz`` (unique-answer): which value is in the top left square?
* ``fake_knapsack`` (own, unique-optimum): the best subset of items within a capacity.
"""
import itertools

from puzzle_engine import (Codec, Growing, MultipleChoice, OwnGenerator, Param, PuzzleType,
                           hookimpl)
from puzzle_engine.hookspecs import facet_of
from puzzle_engine.plugins import get_host

from fake_solver import LATIN, latin_squares
from support import ToyLatinType

N = 4


def givens(board):
    return sum(1 for v in board if v)


class GrowingLatin(ToyLatinType, Growing):
    """A base with one random given; ``grow`` offers every (square, value) not yet given,
    in a random order, after ``bad_first`` candidates that break a row (``least``: givens
    a kept level needs; ``odd_only``: refuse puzzles with an even number of givens)."""

    name = "fake_growing_latin"
    strategy = "growing"
    bad_first = 0
    least = 0
    odd_only = False

    def random_base(self, params, rng):
        board = [0] * (N * N)
        board[rng.randrange(N * N)] = rng.randint(1, N)
        return tuple(board)

    def grow(self, params, instance, rng):
        empty = [i for i, v in enumerate(instance) if not v]
        found = [instance[:i] + (v,) + instance[i + 1:] for i in empty for v in range(1, N + 1)]
        rng.shuffle(found)
        given = next(i for i, v in enumerate(instance) if v)
        row_mates = [i for i in empty if i // N == given // N]
        bad = [instance[:i] + (instance[given],) + instance[i + 1:] for i in row_mates]
        return bad[:self.bad_first] + found

    def complete(self, params, instance):
        return givens(instance) >= self.least

    # --start full: a random Latin square with ``full_givens`` of its squares given;
    # a repair gives the solution's value on a square (``repairable``: the empty squares
    # row by row, or none, so that each repair is told another solution instead)
    full_givens = 3
    repairable_none = False

    def random_full(self, params, base, rng):
        solution = rng.choice(latin_squares(N))
        squares = set(rng.sample(range(N * N), self.full_givens))
        return tuple(v if i in squares else 0 for i, v in enumerate(solution)), solution

    def shrink(self, params, instance, solution, rng):
        return []

    def repairable(self, params, instance, solution):
        return [] if self.repairable_none else [i for i, v in enumerate(instance) if not v]

    def repair(self, params, instance, solution, square, other):
        if square is None:
            square = next(i for i, (a, b) in enumerate(zip(solution, other)) if a != b)
        return instance[:square] + (solution[square],) + instance[square + 1:], solution

    def accept_puzzle(self, params, instance, solution):
        return not self.odd_only or givens(instance) % 2 == 1


class OwnLatin(ToyLatinType, OwnGenerator):
    """Each square of a random Latin square is kept with probability ``keep``; a draw below
    ``skip`` gives no candidate."""

    name = "fake_own_latin"
    strategy = "own"
    keep = 0.5
    skip = 0.0

    def generate(self, params, rng, engine):
        if rng.random() < self.skip:
            return None
        full = rng.choice(latin_squares(N))
        return tuple(v if rng.random() < self.keep else 0 for v in full)


class FirstRowLatin(ToyLatinType):
    """Two solutions are the same when their first rows are."""

    name = "fake_first_row"
    criterion = "unique-modulo-symmetry"

    def solution_key(self, params, solution):
        return tuple(solution[:N])


class CornerQuiz(ToyLatinType, MultipleChoice):
    """A multiple-choice question: which value is in the top left square?"""

    name = "fake_corner_quiz"
    criterion = "unique-answer"
    options = tuple(f"grid[1,1] = {v}" for v in range(1, N + 1))

    def answer_options(self, params, instance):
        return self.options


class Knapsack(PuzzleType, Codec, OwnGenerator):
    """Items with weights and values, and a capacity: which items, within the capacity,
    are worth most? An instance is ``(weights, values, capacity)``."""

    name = "fake_knapsack"
    models = ("% answered by the fake solver's oracle\n",)
    decision = "take"
    objective = "value"
    sense = "maximize"
    strategy = "own"
    criterion = "unique-optimum"
    params = (Param("items", int, 4),)

    def to_data(self, params, instance, solver):
        weights, values, capacity = instance
        return {"w": list(weights), "v": list(values), "cap": capacity}

    def from_solution(self, params, values):
        return tuple(values["take"])

    def to_json(self, params, instance, solution):
        weights, values, capacity = instance
        return {"weights": list(weights), "values": list(values), "capacity": capacity,
                "take": None if solution is None else list(solution)}

    def generate(self, params, rng, engine):
        n = params["items"]
        return (tuple(rng.randint(1, 5) for _ in range(n)),
                tuple(rng.randint(1, 5) for _ in range(n)), rng.randint(2, 8))


def knapsack(data):
    """Every subset within the capacity, smallest first (the search's order)."""
    found = []
    for take in itertools.product((0, 1), repeat=len(data["w"])):
        weight = sum(t * w for t, w in zip(take, data["w"]))
        if weight <= data["cap"]:
            found.append({"take": list(take), "weight": weight,
                          "value": sum(t * v for t, v in zip(take, data["v"]))})
    return found


TYPES = (GrowingLatin, OwnLatin, FirstRowLatin, CornerQuiz, Knapsack)
ORACLES = {**{t.name: LATIN for t in TYPES if t is not Knapsack}, Knapsack.name: knapsack}


def fake_host(**changes):
    """A host with the built-in plugins and one plugin, 'fake_types', that registers every
    toy type; ``changes`` maps a type's name to class attributes to change (a method of a
    facet makes the type one: ``split_data``, a ``SplitModel``)."""
    host = get_host()

    def facets(t):
        found = (facet_of(name) for name in changes.get(t.name, {}))
        return tuple(dict.fromkeys(f for f in found if f is not None and not issubclass(t, f)))
    made = [type(t.__name__, (t, *facets(t)), changes.get(t.name, {}))() for t in TYPES]

    class Plugin:
        PUZZLE_ENGINE_CONTRACT = 3

        @hookimpl
        def register_puzzle_types(self, register):
            for t in made:
                register(t)
    assert host.register(Plugin(), name="fake_types", version="0.0.test")
    return host
