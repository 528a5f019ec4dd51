"""The ``logic`` puzzle type: templated logic puzzles from PuzzleClone-style specs.

The type draws its puzzles itself (strategy ``own``): ``Generator`` runs the spec with
the interpreter, solving through the engine; the criterion ``unique-answer`` then
proves, with the solver, that exactly one option holds in every solution and every
other in none, and that it is the key's (criterion ``logic-answer``, which first derives
a record's puzzle again from its spec and seed). An instance is the finished puzzle with the MiniZinc model it was
checked on (``instance_model``), built from the spec, never read from a file.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzle_engine import (Codec, Drawing, Grading, MultipleChoice, OwnGenerator, Param,
                           Parsed, Play, PuzzleInputError, PuzzleType, SplitModel, Symmetry,
                           Templates)

if TYPE_CHECKING:  # the spec machinery is imported where a spec is read: every command
    from .shape import Template  # loads the plugin at start-up, few use it
    from .spec import Spec

def shipped_specs() -> dict[str, Any]:
    """The specs shipped with the plugin, by name (file name without ``.yaml``)."""
    folder = resources.files(__package__) / "specs"
    return {p.name[:-5]: p for p in sorted(folder.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".yaml")}


#: The fields of a record that state something about its puzzle (``check`` derives each).
CLAIMS = ("problem", "key", "answer", "checked", "parameters", "config")

#: Set this environment variable to see why each draw was given up (on stderr).
TRACE = "PUZZLE_ENGINE_LOGIC_TRACE"
#: Set this environment variable to solve every model whole (a compile per solve), as
#: before shapes: for comparisons (benchmarks, tests).
WHOLE = "PUZZLE_ENGINE_LOGIC_WHOLE"


@dataclass(frozen=True)
class Candidate:
    """A model the generator asks the solver about (no options yet), and its shape."""

    model: str
    template: Template | None = field(default=None, hash=False, compare=False)


@dataclass(frozen=True)
class LogicInstance:
    problem: str
    key: str
    model: str
    options: tuple[str, ...]
    check: str
    config: dict = field(hash=False, compare=False)
    parameters: dict = field(hash=False, compare=False)
    answer_index: int = 0
    #: the record it was read from (its claims, which ``derive_again`` checks), or None
    record: dict | None = field(default=None, hash=False, compare=False)
    #: the model and options' shape (``shape``), or None: then it is solved whole
    template: Template | None = field(default=None, hash=False, compare=False)


class LogicPuzzle(PuzzleType, Codec, OwnGenerator, Templates, SplitModel, MultipleChoice,
                  Grading, Symmetry, Drawing, Play):
    name = "logic"
    description = ("Templated logic puzzles from PuzzleClone-style YAML specs (interpreted, "
                   "never executed), each with one answer the solver proves.")
    params = (Param("spec", str, "wine-merchant",
                    "a shipped spec's name (puzzle-engine specs) or a YAML spec file"),)
    models = ()
    decision = "pe_sol"  # a shaped model's unknowns (``shape``); a whole solve names each
    strategy = "own"
    criterion = "logic-answer"
    solver = "chuffed"

    def __init__(self):
        self._specs: dict[tuple, Spec] = {}

    # -- specs --------------------------------------------------------------------------
    def check_params(self, params):
        name = params.get("spec") or "wine-merchant"
        self.spec(name)
        return {"spec": name}

    def spec(self, name: str) -> Spec:
        from .spec import load_spec, load_spec_file
        shipped = shipped_specs()
        if name in shipped:
            text, file = shipped[name].read_text(encoding="utf-8"), f"spec '{name}'"
        else:
            path = Path(name)
            if not path.suffix and not path.exists():
                raise PuzzleInputError(f"no shipped spec '{name}' and no file of that name "
                                       f"(shipped: {', '.join(shipped)})")
            if path.suffix.lower() not in (".yaml", ".yml"):
                # a record names its spec, and `check` reads it: a record is data, so it
                # may not make us read (and quote the keys of) any file it names
                raise PuzzleInputError(f"spec '{name}': a spec file's name ends in .yaml or .yml")
            key = (str(path.resolve()), path.stat().st_mtime_ns if path.exists() else 0)
            if key not in self._specs:
                self._specs[key] = load_spec_file(path, path.stem)
            return self._specs[key]
        key = (name, hashlib.sha256(text.encode()).hexdigest())
        if key not in self._specs:
            self._specs[key] = load_spec(text, file, name)
        return self._specs[key]

    def spec_text(self, name: str) -> str:
        """The text of the shipped spec ``name`` (``puzzle-engine specs --show NAME``)."""
        shipped = shipped_specs()
        if name not in shipped:
            raise PuzzleInputError(f"no shipped spec '{name}' (shipped: {', '.join(shipped)})")
        return shipped[name].read_text(encoding="utf-8")

    def shipped_specs(self):
        out = {}
        for name, path in shipped_specs().items():
            head = []  # the spec's opening comment, up to its first ': '
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.startswith("#"):
                    break
                head.append(line.lstrip("# ").strip())
            out[name] = " ".join(head).split(": ")[0]
        return out

    # -- generation ---------------------------------------------------------------------
    def generate(self, params, rng, engine):
        from .generator import Generator
        from .interp import ExprError
        from .selection import Redraw
        from .spec import SpecError
        spec = self.spec(params["spec"])
        seed = rng.getrandbits(63)
        gen = Generator(spec, lambda model, n, t: self._solve(engine, params, model, n, t))
        try:
            drawn = gen.draw(random.Random(seed))
        except Redraw as exc:
            if os.environ.get(TRACE):
                print(f"puzzle-engine: logic: draw {seed}: {exc}", file=sys.stderr)
            return None
        except ExprError as exc:
            raise SpecError(f"{spec.where.file}: {exc}") from None
        return self._instance(spec, seed, drawn)

    def _instance(self, spec, seed, drawn) -> LogicInstance:
        config = {"spec": spec.name, "draw": seed, **drawn.config}
        return LogicInstance(drawn.problem, drawn.key, drawn.model, tuple(drawn.options),
                             drawn.check, config, drawn.parameters, drawn.answer_index,
                             template=drawn.template)

    def _solve(self, engine, params, model, n, template=None):
        result, sols = engine.solve(self, params, Candidate(model, template), nr_solutions=n,
                                    goal="satisfy")
        return result.status, [dict(s) for s in sols]

    def instance_model(self, params, instance):
        return instance.model

    def split_data(self, params, instance, solver):
        # The model's shape, flattened once for every draw that shares it; this draw's
        # values fixed per question (``shape``). PUZZLE_ENGINE_LOGIC_WHOLE=1: every solve
        # compiles the model written with its values (the path before shapes).
        t = instance.template
        if t is None or os.environ.get(WHOLE):
            return None
        return {}, {name: list(values) for name, values in t.arrays.items()}, t.text

    def split_values(self, params, instance, values):
        return instance.template.assignment(values[self.decision])

    def to_data(self, params, instance, solver):
        return {}

    def from_solution(self, params, values):
        return tuple(sorted((k, v) for k, v in values.items() if not k.startswith("pe_")))

    def answer_options(self, params, instance):
        return list(instance.options)

    def search_variables(self, params, instance):
        return []

    # -- records ------------------------------------------------------------------------
    def to_json(self, params, instance, solution):
        return {"problem": instance.problem, "key": instance.key,
                "parameters": instance.parameters, "config": instance.config,
                "checked": instance.check}

    def from_json(self, params, record):
        return self._replay(params, record)

    def _replay(self, params, record) -> LogicInstance:
        for name, typ in (("problem", str), ("key", str), ("config", dict)):
            if not isinstance(record.get(name), typ):
                raise PuzzleInputError(f"the record's field '{name}' is missing or not a "
                                       f"{'text' if typ is str else 'JSON object'}")
        config = record["config"]
        seed = config.get("draw")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise PuzzleInputError("the record's field 'config.draw' must be a whole number")
        if config.get("spec") not in (None, self.spec(params["spec"]).name):
            # The spec asked for: the record's own, --spec, or the default.
            given = record.get("params")
            given = given.get("spec") if isinstance(given, dict) else None
            source = ("its field 'params.spec'" if given == params["spec"] else
                      "the default; the record has no field 'params.spec'"
                      if given is None and params["spec"] == self.params[0].default
                      else "--spec")
            raise PuzzleInputError(f"the record's field 'config.spec' says spec "
                                   f"'{config.get('spec')}', not '{params['spec']}' ({source})")
        spec = self.spec(params["spec"])
        from .generator import Generator
        from .interp import ExprError
        from .selection import Redraw
        try:
            drawn = Generator(spec, None).draw(random.Random(seed), replay=config)
        except (Redraw, ExprError) as exc:
            post = (spec.data.get("post_generation") or {}).get("post_gen_vars") or {}
            read = ["draw", *post,
                    *(["_optimum"] if spec.data.get("optimize") else []), "_solutions"]
            raise PuzzleInputError(f"the record does not replay from its "
                                   f"{', '.join('config.' + r for r in read)}: {exc}") from None
        _claims(record, drawn, "its config replays to")
        return replace(self._instance(spec, seed, drawn), record=record)

    def derive_again(self, engine, params, instance) -> LogicInstance | None:
        """The puzzle of ``instance.record`` derived again from its spec and seed, every
        solution and the optimum by the solver; every field the record states must be
        the one derived (else ``PuzzleInputError`` naming it). None: the solver timed out."""
        from .generator import Generator
        from .interp import ExprError
        from .selection import Redraw
        record = instance.record
        spec = self.spec(params["spec"])
        seed = record["config"]["draw"]
        gen = Generator(spec, lambda model, n, t: self._solve(engine, params, model, n, t))
        try:
            drawn = gen.draw(random.Random(seed), replay=record["config"], recorded=False)
        except Redraw as exc:
            if "timed out" in str(exc):
                return None
            raise PuzzleInputError(f"the record's puzzle cannot be derived again from its "
                                   f"spec and seed: {exc}") from None
        except ExprError as exc:
            raise PuzzleInputError(f"the record's puzzle cannot be derived again: {exc}") from None
        fresh = self._instance(spec, seed, drawn)
        _claims(record, drawn, "the spec and seed give", fresh.config)
        return fresh

    def format(self, params, instance, fmt):
        if fmt == "line":
            if instance.record is not None:  # read from a record: what it states, unchanged
                return json.dumps({k: instance.record[k] for k in CLAIMS if k in instance.record},
                                  ensure_ascii=False)
            return json.dumps({"problem": instance.problem, "key": instance.key,
                               "config": instance.config}, ensure_ascii=False)
        return instance.problem

    def format_solution(self, params, solution, fmt):
        return ", ".join(f"{k} = {v}" for k, v in solution)

    def parse(self, params, text):
        try:
            record = json.loads(text)
        except json.JSONDecodeError:
            raise PuzzleInputError("a logic puzzle is read from its JSON record "
                                   "(gen logic --format json), not from its text") from None
        if not isinstance(record, dict):
            raise PuzzleInputError("a logic puzzle record is a JSON object")
        canonical = self.check_params({"spec": params.get("spec") or
                                       (record.get("config") or {}).get("spec")})
        return Parsed(canonical, self._replay(canonical, record))

    # -- corpora and pictures -----------------------------------------------------------
    def canonical_form(self, params, instance):
        from .drawing import canonical
        return canonical(instance)

    def rules(self, params):
        return ("Read the story and its clues, then choose the one option they allow; "
                "exactly one does.")

    def render_svg(self, params, instance, solution=None):
        from .drawing import svg
        return svg(instance, solution is not None)

    def play_grid(self, params, instance, solution):
        from .play import play_grid  # lazy: like the drawing, only render needs it
        return play_grid(instance)


def _claims(record, drawn, source: str, config: dict | None = None):
    """Every field ``record`` states must be ``drawn``'s: ``problem``, ``key``, ``answer``
    (the option's index), ``checked``, and with ``config`` (a derivation that read no
    field of the record but the seed) ``parameters`` and each field of ``config``."""
    if drawn.problem != record["problem"]:
        raise PuzzleInputError(f"the record's problem is not the one {source} (edited, or "
                               "another version of the spec)")
    if drawn.key != record["key"]:
        raise PuzzleInputError(f"the record's key (its answer) {record['key']!r} is wrong: {source} "
                               f"{drawn.key!r}")
    if "answer" in record and (isinstance(record["answer"], bool)
                               or record["answer"] != drawn.answer_index):
        raise PuzzleInputError(f"the record's answer {record['answer']!r} is wrong: {source} "
                               f"{drawn.answer_index} (key {drawn.key!r})")
    if "checked" in record and record["checked"] != drawn.check:
        raise PuzzleInputError(f"the record's field 'checked' {record['checked']!r} is wrong: "
                               f"{source} {drawn.check!r}")
    if config is None:
        return
    if "parameters" in record and record["parameters"] != _json(drawn.parameters):
        raise PuzzleInputError(f"the record's parameters {_brief(record['parameters'])} are "
                               f"wrong: {source} {_brief(drawn.parameters)}")
    fresh, stated = _json(config), record["config"]
    for name in sorted(set(fresh) | set(stated)):
        if name not in stated:
            raise PuzzleInputError(f"the record's config has no field '{name}' "
                                   f"({source} {_brief(fresh[name])})")
        if name not in fresh:
            raise PuzzleInputError(f"the record's field 'config.{name}' is not one {source}")
        if stated[name] != fresh[name]:
            raise PuzzleInputError(f"the record's field 'config.{name}' is wrong: "
                                   f"{_brief(stated[name])}, {source} {_brief(fresh[name])}")


def _json(x):
    return json.loads(json.dumps(x, ensure_ascii=False))


def _brief(x, width: int = 60) -> str:
    text = json.dumps(x, ensure_ascii=False)
    return text if len(text) <= width else text[:width - 3] + "..."
