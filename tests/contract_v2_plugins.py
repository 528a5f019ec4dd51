"""Two third-party style plugins written for contract 2, kept as they were written, for
tests/engine/test_facets.py: the host adapts the first to contract 3's facets, and refuses the
second's type (it cannot be adapted) in one line pointing to the migration section of
docs/plugin-authoring.md.

``adapted``: Latin squares on ``GridPuzzle`` with contract 2's optional methods
(transformations, canonical_form, render_svg, play_grid) written without any facet, and a
tiny "pick the largest" type on the bare ``PuzzleType`` that relies on contract 2's
defaults for its JSON records and solution keys (now the ``Codec`` facet's).

It also registers what contract 2's hookspecs let a plugin write with fewer members than
contract 3 requires: a criterion with ``name``, ``description`` and ``judge`` only (no
``refuted_by``, no ``checker``) and a strategy with ``name``, ``options``, ``hooks`` and
``generate`` only, used by two more types (tests/engine/test_v2compat.py).

``refused``: Latin squares on ``PuzzleType`` and ``Emptying`` that read their solution
themselves (``from_solution``): in contract 3 a flat board's solution is its decision
array, so there is no mechanical mapping.
"""
import types

from puzzle_engine import (Emptying, GridPuzzle, OwnGenerator, Param, Parsed, PuzzleType,
                           Transformation, hookimpl)
from puzzle_engine.render.play import PlayGrid

from support import MODEL  # the Latin square model of the inline plugin's tests



class V2Latin(GridPuzzle):
    name = "v2_latin"
    models = (MODEL,)
    params = (Param("size", int, 4),)

    def shape(self, params):
        return params["size"], params["size"]

    def to_data(self, params, instance, solver):
        n = params["size"]
        return {"n": n, "givens": self.rows(instance, n)}

    def parse(self, params, text):
        cells = [0 if c == "." else int(c) for c in text.split()[0]]
        n = round(len(cells) ** 0.5)
        return Parsed({"size": n}, tuple(cells))

    def format(self, params, instance, fmt):
        return "".join(str(v) if v else "." for v in instance)

    def transformations(self, params):
        n = params["size"]

        def relabel(rng):
            perm = [0] + rng.sample(range(1, n + 1), n)
            return lambda b: tuple(perm[v] for v in b)
        return [Transformation("relabel", relabel)]

    def canonical_form(self, params, instance):
        return {"size": params["size"], "givens": sum(1 for v in instance if v)}

    def render_svg(self, params, instance, solution=None):
        return ("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10' "
                "viewBox='0 0 10 10'><rect width='10' height='10'/></svg>")

    def play_grid(self, params, instance, solution):
        n = params["size"]
        return PlayGrid(rows=n, cols=n, cells=tuple(instance), solution=tuple(solution),
                        symbols=tuple("123456789"[:n]), rule="all-different",
                        units=tuple(tuple(range(r * n, r * n + n)) for r in range(n)))


class V2Largest(PuzzleType, OwnGenerator):
    """Pick the largest of three numbers: the bare contract-2 PuzzleType, whose defaults
    (``to_json``, ``from_json``, ``solution_key``) are now the Codec facet's."""

    name = "v2_largest"
    strategy = "own"
    decision = "pick"
    models = ("array[1..3] of int: xs; var 1..3: pick;\n"
              "constraint forall(i in 1..3)(xs[pick] >= xs[i]);",)

    def to_data(self, params, instance, solver):
        return {"xs": list(instance)}

    def from_solution(self, params, values):
        return values["pick"]

    def generate(self, params, rng, engine):
        return tuple(rng.sample(range(1, 10), 3))

    def format(self, params, instance, fmt):
        return " ".join(map(str, instance))

    def parse(self, params, text):
        return Parsed({}, tuple(int(x) for x in text.split()))


class V2PlainLatin(PuzzleType, Emptying):
    name = "v2_plain_latin"
    models = (MODEL,)
    params = (Param("size", int, 4),)

    def board_size(self, params):
        return params["size"] ** 2

    def to_data(self, params, instance, solver):
        n = params["size"]
        return {"n": n, "givens": [list(instance[i * n:(i + 1) * n]) for i in range(n)]}

    def from_solution(self, params, values):
        return tuple(v for row in values["grid"] for v in row)

    def random_solution(self, params, rng, solve, transform):
        return solve(tuple([0] * self.board_size(params)))


class V2AtMost:
    """A criterion as contract 2's hookspecs allowed: ``refuted_by`` and ``checker`` left
    out. At most ``limit`` solutions."""

    name = "v2_at_most"
    description = "at most k solutions, judged by a contract-2 criterion"

    def judge(self, engine, ptype, params, instance, limit=1):
        from puzzle_engine.criteria import Verdict
        from puzzle_engine.types import Status
        result, solutions = engine.solve(ptype, params, instance, nr_solutions=limit + 1,
                                         goal="satisfy")
        done = result.status in (Status.ALL, Status.UNSAT)
        accepted = False if len(solutions) > limit else (bool(solutions) if done else None)
        return Verdict(accepted, len(solutions), result.status,
                       solutions[0] if solutions else None)


def _own_generate(engine, ptype, params, seed, options):
    """Contract 2's strategy hands the work to the host's ``own`` strategy."""
    own = engine.host.get("strategies", "own")
    return own.generate(engine, ptype, params, seed, own.default_options())


#: A strategy as contract 2's hookspecs listed it: name, options, hooks and generate.
V2_OWN = types.SimpleNamespace(name="v2_own", options=(), hooks=OwnGenerator,
                               generate=_own_generate)


class V2LargestJudged(V2Largest):
    """``v2_largest`` made by the contract-2 strategy and judged by the contract-2
    criterion."""

    name = "v2_largest_judged"
    strategy = "v2_own"
    criterion = "v2_at_most"


class V2LatinJudged(V2Latin):
    """``v2_latin`` emptied with the contract-2 criterion: the emptying strategy asks its
    (filled-in) ``checker``."""

    name = "v2_latin_judged"
    criterion = "v2_at_most"


adapted = types.SimpleNamespace(
    PUZZLE_ENGINE_CONTRACT=2,
    register_puzzle_types=hookimpl(lambda register: (register(V2Latin()),
                                                     register(V2Largest()),
                                                     register(V2LargestJudged()),
                                                     register(V2LatinJudged()))),
    register_criteria=hookimpl(lambda register: register(V2AtMost())),
    register_strategies=hookimpl(lambda register: register(V2_OWN)))
refused = types.SimpleNamespace(
    PUZZLE_ENGINE_CONTRACT=2,
    register_puzzle_types=hookimpl(lambda register: register(V2PlainLatin())))
