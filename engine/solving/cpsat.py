"""CP-SAT (Google OR-Tools) as a MiniZinc solver: a FlatZinc reader and runner.

The OR-Tools wheel on PyPI ships CP-SAT's Python API but not its FlatZinc executable, so
this module builds the CP-SAT model from the items ``flatzinc`` reads: every integer and Boolean
FlatZinc builtin, plus ``all_different_int`` and ``table_int`` as native globals (the
solver library ``models_mzn/cpsat`` declares them; MiniZinc decomposes the other globals
into builtins). Floats and set variables are not supported: a model that uses them gets a
one-line error naming the line.

The engine asks CP-SAT its questions in a session (``cpsat_session``), which translates a
flattened model with ``Translation`` once. This module also runs a FlatZinc file, with the
same translation and the FlatZinc output format:

* as a MiniZinc solver: ``register()`` writes a solver configuration (``.msc``) and a
  wrapper script that runs ``python -m puzzle_engine.solving.cpsat``, and puts their directory on
  ``MZN_SOLVER_PATH``, so ``minizinc --solver cp-sat`` (and whole solves through
  minizinc-python, for a model CP-SAT's session cannot answer) find it like any other solver;
* in-process (``run_file``), for a ``ProcessSession`` made on CP-SAT.

Flags, as for other FlatZinc solvers: ``-a`` (all solutions; every improving one when
optimising), ``-n N``, ``-f`` (free search: CP-SAT's own search instead of the model's
annotation), ``-p N`` (workers; default 1, which is deterministic), ``-r N`` (random
seed), ``-s`` (statistics), ``-t MS`` (time limit). Without ``-f`` an ``int_search`` /
``bool_search`` / ``seq_search`` annotation becomes CP-SAT's fixed search.
"""
from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import processes
from . import registration
from .flatzinc import Access, Call, FznError, Ident, IntSet, Item, parse

SOLVER_ID = "org.puzzle-engine.cp-sat"
STD_FLAGS = ("-a", "-f", "-n", "-p", "-r", "-s", "-t")


# -- building the CP-SAT model -----------------------------------------------------------

@dataclass
class Output:
    name: str
    value: Any                      # a resolved value: var, literal, constant, or list of them
    boolean: bool                   # declared bool: printed as true/false
    dims: list[tuple[int, int]] | None = None  # output_array index ranges


class Translation:
    """A CP-SAT model built from FlatZinc items, with what is needed to print solutions."""

    def __init__(self, items: list[Item], model: Any = None):
        """``model``: the model to add to, by default OR-Tools' ``cp_model.CpModel``; the
        runner and the sessions pass ``cpsat_api.Model()``, which spares the process
        the import of numpy and pandas."""
        from . import cpsat_api  # lazy: OR-Tools' C++ helpers load only when CP-SAT runs
        self.api = cpsat_api
        self.model = model if model is not None else self.cp.CpModel()
        self.env: dict[str, Any] = {}
        self.outputs: list[Output] = []
        self.objective: Any = None
        self.goal = "satisfy"
        self.search: list[Any] = []
        self._true = None
        self.line = 0
        for item in items:
            self.line = item.line
            try:
                getattr(self, f"_{item.kind}")(item)
            except FznError:
                raise
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                raise FznError(f"line {item.line}: cannot translate '{item.name or item.kind}' "
                               f"({type(exc).__name__}: {exc})") from None

    @property
    def cp(self):
        """OR-Tools' ``cp_model`` (imported on first use: numpy and pandas come with it)."""
        from ortools.sat.python import cp_model  # lazy: numpy and pandas come with it
        return cp_model

    # values
    def true(self):
        if self._true is None:
            self._true = self.model.new_bool_var("PE_TRUE")
            self.model.add_bool_or([self._true])
        return self._true

    def resolve(self, e: Any) -> Any:
        if isinstance(e, Ident):
            if e.name not in self.env:
                raise FznError(f"line {self.line}: unknown identifier '{e.name}'")
            return self.env[e.name]
        if isinstance(e, Access):
            return self.env[e.name][e.index - 1]
        if isinstance(e, list):
            return [self.resolve(x) for x in e]
        if isinstance(e, tuple) and e and e[0] == "float":
            raise FznError(f"line {self.line}: floats are not supported by the CP-SAT runner")
        return e

    def lit(self, e: Any):
        """A Boolean literal (a bool constant becomes the fixed literal)."""
        v = self.resolve(e)
        if isinstance(v, bool):
            return self.true() if v else self.true().Not()
        return v

    def lits(self, e: Any) -> list[Any]:
        return [self.lit(x) for x in self.resolve(e)]

    def ivar(self, v: Any):
        """An integer variable for ``v`` (a constant becomes a fixed variable)."""
        if isinstance(v, bool):
            v = int(v)
        if isinstance(v, int):
            return self.model.new_constant(v)
        return v

    # items
    def _par(self, item: Item) -> None:
        if item.type[0] == "float":
            raise FznError(f"line {item.line}: floats are not supported by the CP-SAT runner")
        self.env[item.name] = self.resolve(item.value)

    def _var(self, item: Item) -> None:
        kind, dom = item.type
        if kind in ("float", "set"):
            raise FznError(f"line {item.line}: {kind} variables are not supported by the CP-SAT runner")
        if item.array:
            value = self.resolve(item.value)
        elif item.value is not None:
            value = self.resolve(item.value)
            if dom is not None and not isinstance(value, bool):
                self._in_domain(value, dom)
        elif kind == "bool":
            value = self.model.new_bool_var(item.name)
        elif dom is not None:
            value = self.model.new_int_var_from_domain(self._domain(dom), item.name)
        else:  # no bounds: the 32-bit range, as Gecode's integers
            value = self.model.new_int_var(-(2 ** 31) + 1, 2 ** 31 - 1, item.name)
        self.env[item.name] = value
        for ann in item.anns:
            if isinstance(ann, Ident) and ann.name == "output_var":
                self.outputs.append(Output(item.name, value, kind == "bool"))
            elif isinstance(ann, Call) and ann.name == "output_array":
                dims = [(d.intervals[0][0], d.intervals[-1][1]) if d.intervals else (1, 0)
                        for d in ann.args[0]]
                self.outputs.append(Output(item.name, value, kind == "bool", dims))

    def _domain(self, dom: IntSet):
        if not dom.intervals:
            raise FznError(f"line {self.line}: empty domain")
        return self.api.Domain.from_intervals([list(iv) for iv in dom.intervals])

    def _in_domain(self, x: Any, dom: IntSet, enforce: Sequence[Any] = ()) -> None:
        self.model.add_linear_expression_in_domain(x, self._domain(dom)).only_enforce_if(list(enforce))

    def _solve(self, item: Item) -> None:
        self.goal = item.goal
        if item.objective is not None:
            self.objective = self.resolve(item.objective)
        for ann in item.anns:
            self.search.extend(self._strategies(ann))

    def _strategies(self, ann: Any) -> list[tuple[list[Any], str, str]]:
        if isinstance(ann, Call) and ann.name == "seq_search":
            return [s for sub in ann.args[0] for s in self._strategies(sub)]
        if isinstance(ann, Call) and ann.name in ("int_search", "bool_search") and len(ann.args) >= 3:
            xs = [x for x in self.resolve(ann.args[0]) if not isinstance(x, (int, bool))]
            var_sel = ann.args[1].name if isinstance(ann.args[1], Ident) else ""
            val_sel = ann.args[2].name if isinstance(ann.args[2], Ident) else ""
            return [(xs, var_sel, val_sel)] if xs else []
        return []

    def _constraint(self, item: Item) -> None:
        name, args = item.name, item.value
        base, mode = name, ""
        for suffix in ("_reif", "_imp"):
            if name.endswith(suffix):
                base, mode = name[:-len(suffix)], suffix[1:]
        if name in _REIFIED_BY_NAME and len(args) == _REIFIED_BY_NAME[name]:
            mode = "reif"  # bool_and(a, b, r), array_bool_or(as, r): r <-> the relation
        if base in _NATIVE:
            if mode:
                raise FznError(f"line {item.line}: unsupported FlatZinc constraint '{name}'")
            _NATIVE[base](self, *args)
            return
        if base not in _RELATIONS:
            raise FznError(f"line {item.line}: unsupported FlatZinc constraint '{name}' "
                           "(the CP-SAT runner supports integer and Boolean builtins, "
                           "all_different_int and table_int)")
        post = _RELATIONS[base]
        if not mode:
            post(self, args, True, ())
            return
        r = self.resolve(args[-1])
        rel = args[:-1]
        if isinstance(r, bool):
            if r:
                post(self, rel, True, ())
            elif mode == "reif":
                post(self, rel, False, ())
            return
        post(self, rel, True, (r,))
        if mode == "reif":
            post(self, rel, False, (r.Not(),))


def _lin(t: Translation, coeffs: Any, xs: Any):
    cs, vs = t.resolve(coeffs), t.resolve(xs)
    return sum(c * (int(v) if isinstance(v, bool) else v) for c, v in zip(cs, vs))


def domain(model, x) -> list[int]:
    """The domain of integer variable ``x`` of ``model``, as interval bounds lo1, hi1,
    lo2, hi2, ... Read through the model's proto and copied at once: in OR-Tools 9.15
    ``x.Proto()`` is a temporary whose fields are freed memory as soon as it goes, and a
    repeated field reads index -1 as 0."""
    return list(model.Proto().variables[x.Index()].domain)


def _num(t: Translation, e: Any):
    v = t.resolve(e)
    return int(v) if isinstance(v, bool) else v


_NEGATE = {"eq": "ne", "ne": "eq", "le": "gt", "lt": "ge", "gt": "le", "ge": "lt"}


def _relation(left: Any, right: Any, which: str) -> Any:
    """``left which right`` as a CP-SAT constraint expression, or a bool for constants."""
    if which == "eq":
        return left == right
    if which == "ne":
        return left != right
    if which == "le":
        return left <= right
    if which == "lt":
        return left <= right - 1
    if which == "gt":
        return left >= right + 1
    return left >= right


def _post_relation(t: Translation, left: Any, right: Any, which: str, enforce) -> None:
    if isinstance(left, int) and isinstance(right, int):
        if not _relation(left, right, which):  # a false constant relation: not enforce
            t.model.add_bool_or([lit.Not() for lit in enforce])
        return
    t.model.add(_relation(left, right, which)).only_enforce_if(list(enforce))


def _compare(op: str):
    def post(t: Translation, args, holds: bool, enforce):
        _post_relation(t, _num(t, args[0]), _num(t, args[1]), op if holds else _NEGATE[op], enforce)
    return post


def _compare_lin(op: str):
    def post(t: Translation, args, holds: bool, enforce):
        _post_relation(t, _lin(t, args[0], args[1]), t.resolve(args[2]),
                       op if holds else _NEGATE[op], enforce)
    return post


def _or_of(t: Translation, lits: list[Any], holds: bool, enforce) -> None:
    """``holds``: at least one of ``lits``; else none of them; under ``enforce``."""
    if holds:
        t.model.add_bool_or(lits).only_enforce_if(list(enforce))
    elif lits:
        t.model.add_bool_and([x.Not() for x in lits]).only_enforce_if(list(enforce))


def _and_of(t: Translation, lits: list[Any], holds: bool, enforce) -> None:
    if holds:
        if lits:
            t.model.add_bool_and(lits).only_enforce_if(list(enforce))
    else:
        t.model.add_bool_or([x.Not() for x in lits]).only_enforce_if(list(enforce))


def _xor_of(t: Translation, lits: list[Any], holds: bool, enforce) -> None:
    """An odd number of ``lits`` hold (or an even number, with ``holds`` False)."""
    lits = list(lits) if holds else [*lits[:-1], lits[-1].Not()] if lits else [t.true()]
    if not enforce:
        t.model.add_bool_xor(lits)
        return
    aux = t.model.new_bool_var("")
    t.model.add_bool_xor([*lits, aux.Not()])  # aux <-> xor(lits)
    t.model.add_bool_and([aux]).only_enforce_if(list(enforce))


def _rel_bool(kind: str):
    def post(t: Translation, args, holds: bool, enforce):
        a, b = t.lit(args[0]), t.lit(args[1])
        if kind == "eq":
            _xor_of(t, [a, b], not holds, enforce)
        elif kind == "ne":          # bool_xor with two arguments, bool_not
            _xor_of(t, [a, b], holds, enforce)
        elif kind == "le":          # a -> b
            _or_of(t, [a.Not(), b], holds, enforce)
        elif kind == "lt":          # not a and b
            _and_of(t, [a.Not(), b], holds, enforce)
        elif kind == "and":
            _and_of(t, [a, b], holds, enforce)
        elif kind == "or":
            _or_of(t, [a, b], holds, enforce)
    return post


def _clause(t: Translation, args, holds: bool, enforce) -> None:
    _or_of(t, t.lits(args[0]) + [x.Not() for x in t.lits(args[1])], holds, enforce)


def _array_bool(kind: str):
    def post(t: Translation, args, holds: bool, enforce):
        {"and": _and_of, "or": _or_of, "xor": _xor_of}[kind](t, t.lits(args[0]), holds, enforce)
    return post


def _set_in(t: Translation, args, holds: bool, enforce) -> None:
    x, s = _num(t, args[0]), t.resolve(args[1])
    if isinstance(x, int):
        if (x in s) != holds:
            t.model.add_bool_or([lit.Not() for lit in enforce])
        return
    dom = t._domain(s) if s.intervals else None
    if not holds:
        dom = t.api.Domain.all_values() if dom is None else dom.complement()
    if dom is None:
        t.model.add_bool_or([lit.Not() for lit in enforce])
        return
    t.model.add_linear_expression_in_domain(x, dom).only_enforce_if(list(enforce))


def _bool2int(t: Translation, a, b) -> None:
    t.model.add(_num(t, b) == _num(t, a))


def _function(kind: str):
    def post(t: Translation, *args):
        m = t.model
        xs = [_num(t, a) for a in args]
        if kind == "abs":
            m.add_abs_equality(t.ivar(xs[1]), xs[0])
        elif kind in ("min", "max"):
            (m.add_min_equality if kind == "min" else m.add_max_equality)(t.ivar(xs[2]), xs[:2])
        elif kind == "plus":
            m.add(xs[0] + xs[1] == xs[2])
        elif kind == "times":
            m.add_multiplication_equality(t.ivar(xs[2]), [xs[0], xs[1]])
        elif kind in ("div", "mod"):
            divisor = xs[1]
            if not isinstance(divisor, int):
                bounds = domain(m, divisor)
                lo, hi = bounds[0], bounds[-1]
                if kind == "mod" and lo <= 0:
                    raise FznError(f"line {t.line}: int_mod needs a positive divisor on CP-SAT")
                nonzero = m.new_int_var_from_domain(
                    t.api.Domain(lo, hi).intersection_with(t.api.Domain.from_values([0]).complement()), "")
                m.add(nonzero == divisor)
                divisor = nonzero
            (m.add_division_equality if kind == "div" else m.add_modulo_equality)(
                t.ivar(xs[2]), xs[0], divisor)
        elif kind == "pow":
            if not isinstance(xs[1], int) or xs[1] < 0:
                raise FznError(f"line {t.line}: int_pow needs a constant exponent on CP-SAT")
            acc: Any = 1
            for _ in range(xs[1]):
                if isinstance(acc, int):
                    acc = xs[0] if acc == 1 else acc * xs[0]
                else:
                    nxt = m.new_int_var(-(2 ** 40), 2 ** 40, "")
                    m.add_multiplication_equality(nxt, [acc, xs[0]])
                    acc = nxt
            m.add(xs[2] == acc)
    return post


def _element(t: Translation, index, array, value) -> None:
    i, arr, v = _num(t, index), [_num(t, x) for x in t.resolve(array)], _num(t, value)
    m = t.model
    zero = m.new_int_var(0, len(arr) - 1, "")
    m.add(zero == i - 1)
    m.add_element(zero, arr, v)


def _extremum(kind: str):
    def post(t: Translation, value, array):
        xs = [_num(t, x) for x in t.resolve(array)]
        (t.model.add_max_equality if kind == "max" else t.model.add_min_equality)(t.ivar(_num(t, value)), xs)
    return post


def _all_different(t: Translation, xs) -> None:
    t.model.add_all_different([_num(t, x) for x in t.resolve(xs)])


def _table(t: Translation, xs, table) -> None:
    vs, flat = [_num(t, x) for x in t.resolve(xs)], t.resolve(table)
    k = len(vs)
    t.model.add_allowed_assignments([t.ivar(v) for v in vs],
                                    [tuple(flat[i:i + k]) for i in range(0, len(flat), k)])


# Constraints whose plain name, with this many arguments, is the reified form.
_REIFIED_BY_NAME = {"bool_and": 3, "bool_or": 3, "bool_xor": 3, "array_bool_and": 2,
                    "array_bool_or": 2}

_RELATIONS = {
    **{f"int_{op}": _compare(op) for op in ("eq", "ne", "le", "lt")},
    **{f"int_lin_{op}": _compare_lin(op) for op in ("eq", "ne", "le")},
    **{f"bool_lin_{op}": _compare_lin(op) for op in ("eq", "le")},
    "bool_eq": _rel_bool("eq"), "bool_le": _rel_bool("le"), "bool_lt": _rel_bool("lt"),
    "bool_not": _rel_bool("ne"),
    "bool_and": _rel_bool("and"), "bool_or": _rel_bool("or"), "bool_xor": _rel_bool("ne"),
    "bool_clause": _clause,
    "array_bool_and": _array_bool("and"), "array_bool_or": _array_bool("or"),
    "array_bool_xor": _array_bool("xor"),
    "set_in": _set_in,
}

_NATIVE = {
    "bool2int": _bool2int,
    **{f"int_{k}": _function(k) for k in ("abs", "min", "max", "plus", "times", "div", "mod", "pow")},
    **{f"array_{v}{k}_element": _element for v in ("", "var_") for k in ("int", "bool")},
    "array_int_maximum": _extremum("max"), "array_int_minimum": _extremum("min"),
    "fzn_all_different_int": _all_different, "all_different_int": _all_different,
    "fzn_table_int": _table, "table_int": _table,
}


# -- solving and printing --------------------------------------------------------------

_VAR_SEL = {"input_order": "CHOOSE_FIRST", "first_fail": "CHOOSE_MIN_DOMAIN_SIZE",
            "dom_w_deg": "CHOOSE_MIN_DOMAIN_SIZE", "smallest": "CHOOSE_LOWEST_MIN",
            "largest": "CHOOSE_HIGHEST_MAX", "anti_first_fail": "CHOOSE_MAX_DOMAIN_SIZE"}
_VAL_SEL = {"indomain_min": "SELECT_MIN_VALUE", "indomain_max": "SELECT_MAX_VALUE",
            "indomain_split": "SELECT_LOWER_HALF", "indomain_reverse_split": "SELECT_UPPER_HALF",
            "indomain_median": "SELECT_MEDIAN_VALUE", "indomain": "SELECT_MIN_VALUE"}


@dataclass
class Options:
    all_solutions: bool = False
    limit: int = 1
    free: bool = False
    workers: int = 1
    seed: int = 0
    stats: bool = False
    time_limit: float | None = None  # seconds


def parse_flags(args: Sequence[str], runner: str = "CP-SAT",
                flags: Sequence[str] = STD_FLAGS) -> tuple[Options, list[str]]:
    """The standard FlatZinc flags (those of ``flags`` that a ``runner`` takes); returns
    the options and the remaining arguments."""
    opts, rest, i = Options(), [], 0
    args = list(args)

    def value(flag: str) -> str:
        nonlocal i
        i += 1
        if i >= len(args):
            raise FznError(f"flag {flag} needs a value")
        return args[i]
    try:
        while i < len(args):
            a = args[i]
            if a.startswith("-") and a != "-" and a != "-v" and a not in flags:
                raise FznError(f"unknown flag '{a}' (the {runner} runner takes {' '.join(flags)})")
            if a == "-a":
                opts.all_solutions = True
            elif a == "-n":
                opts.limit = int(value(a))
            elif a == "-f":
                opts.free = True
            elif a == "-p":
                opts.workers = max(1, int(value(a)))
            elif a == "-r":
                opts.seed = int(value(a))
            elif a == "-s":
                opts.stats = True
            elif a == "-t":
                opts.time_limit = int(value(a)) / 1000
            elif a == "-v":
                pass
            elif a.startswith("-") and a != "-":
                raise FznError(f"unknown flag '{a}' (the CP-SAT runner takes {' '.join(STD_FLAGS)})")
            else:
                rest.append(a)
            i += 1
    except ValueError:
        raise FznError(f"flag {args[i - 1] if i else args[0]} needs a number, got '{args[i]}'") from None
    return opts, rest


def _render(t: Translation, value, boolean_value) -> str:
    def show(v: Any, boolean: bool) -> str:
        if isinstance(v, (bool, int)):
            return ("true" if v else "false") if boolean else str(int(v))
        return ("true" if boolean_value(v) else "false") if boolean else str(value(v))
    lines = []
    for out in t.outputs:
        if out.dims is None:
            lines.append(f"{out.name} = {show(out.value, out.boolean)};")
        else:
            ranges = ",".join(f"{lo}..{hi}" for lo, hi in out.dims)
            body = ",".join(show(x, out.boolean) for x in out.value)
            lines.append(f"{out.name} = array{len(out.dims)}d({ranges},[{body}]);")
    return "\n".join(lines + ["----------"]) + "\n"


def run_interruptibly(solver, model, callback=None):
    """``solver.solve(model, callback)``, stopped soon after the command is interrupted
    (set ``catch_sigint_signal = False`` on the solver). A plugin that runs CP-SAT in
    the engine's process (a check of its own) calls its solves through this.

    The solve runs in a thread of its own while this one waits, polling: Python runs a
    signal handler only in the main thread and between bytecodes, and CP-SAT ignores a
    stop that comes before its search has begun, so the stop is repeated until the solve
    has returned. The solve must never outlive the interpreter (the process aborts)."""
    done = threading.Event()
    result: dict[str, Any] = {}
    # An interrupt can come while ``thread.start()`` waits for the thread to begin, when
    # this thread cannot tell whether the solve will run: the worker solves only if it
    # gets here before the caller gives up, and the caller waits for a solve it let begin.
    gate = threading.Lock()
    state = {"given_up": False, "solving": False}

    def work() -> None:
        try:
            with gate:
                if state["given_up"]:
                    return
                state["solving"] = True
            result["status"] = solver.solve(model, callback)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller
            result["error"] = exc
        finally:
            done.set()
    thread = threading.Thread(target=work, name="cp-sat", daemon=True)
    try:
        thread.start()
        while not done.wait(0.05):
            if processes.stopping():
                solver.stop_search()
    except BaseException:
        _give_up(solver, done, gate, state)
        raise
    if "error" in result:
        raise result["error"]
    return result["status"]


def _give_up(solver, done: threading.Event, gate: threading.Lock, state: dict) -> None:
    """Stop a solve ``run_interruptibly`` began and wait for it, through further
    interrupts: a solve must never outlive the interpreter (the process aborts with
    'terminate called without an active exception')."""
    while True:
        try:
            with gate:
                state["given_up"] = True
                solving = state["solving"]
            break
        except KeyboardInterrupt:
            continue
    while solving:
        try:
            solver.stop_search()
            if done.wait(0.05):
                break
        except KeyboardInterrupt:
            continue


def configure(solver, workers: int = 1, seed: int = 0) -> None:
    """The parameters every CP-SAT solve here shares (the file runner's and the
    sessions')."""
    p = solver.parameters
    p.num_workers = workers
    # A light presolve: most runs here are many small, similar ones (checks, grading
    # runs), where the full presolve costs more than it saves (measurements in
    # docs/solvers.md).
    p.max_presolve_iterations = 1
    p.symmetry_level = 0
    p.cp_model_probing_level = 0
    p.random_seed = seed
    # CP-SAT would take Ctrl-C for itself and end the search as if its time were up, so
    # that an interrupt turned into a time-out; the command stops it instead (_run).
    p.catch_sigint_signal = False


def add_search(t: Translation, model, solver) -> None:
    """The model's search annotation as CP-SAT's fixed search (when it has one)."""
    api = t.api
    if t.search:
        for xs, var_sel, val_sel in t.search:
            model.add_decision_strategy(
                xs, getattr(api.VAR_SELECTION, _VAR_SEL.get(var_sel, "CHOOSE_FIRST")),
                getattr(api.VALUE_SELECTION, _VAL_SEL.get(val_sel, "SELECT_MIN_VALUE")))
        solver.parameters.search_branching = api.FIXED_SEARCH


def solve(text: str, opts: Options) -> str:
    """Run FlatZinc ``text`` and return what a FlatZinc solver prints."""
    from . import cpsat_api  # lazy: OR-Tools' C++ helpers load only when CP-SAT runs
    t = Translation(parse(text), cpsat_api.Model())
    api = t.api
    model = t.model
    if t.goal != "satisfy":
        obj = t.objective
        (model.minimize if t.goal == "minimize" else model.maximize)(obj)
    solver = api.Solver()
    configure(solver, opts.workers, opts.seed)
    p = solver.parameters
    if opts.time_limit is not None:
        p.max_time_in_seconds = max(opts.time_limit, 0.001)
    if not opts.free:
        add_search(t, model, solver)
    out: list[str] = []
    enumerate_ = t.goal == "satisfy" and (opts.all_solutions or opts.limit > 1)
    limit = None if opts.all_solutions else opts.limit

    class Printer(api.Callback):
        def __init__(self):
            super().__init__()
            self.count = 0

        def on_solution_callback(self):
            if t.goal == "satisfy" and not enumerate_ and self.count:
                return
            self.count += 1
            out.append(_render(t, self.value, self.boolean_value))
            if t.goal == "satisfy" and limit is not None and self.count >= limit:
                self.stop_search()

    printer = Printer()
    if enumerate_:
        p.enumerate_all_solutions = True
    status = run_interruptibly(solver, model, printer if (enumerate_ or opts.all_solutions) else None)
    name = solver.status_name(status)
    if not (enumerate_ or opts.all_solutions) and name in ("OPTIMAL", "FEASIBLE"):
        out.append(_render(t, solver.value, solver.boolean_value))
        printer.count = 1
    if name == "MODEL_INVALID":
        raise FznError(f"CP-SAT rejected the model: {model.validate() or 'invalid model'}")
    if name == "INFEASIBLE":
        out.append("=====UNSATISFIABLE=====\n")
    elif name == "OPTIMAL":
        # Satisfaction: the search ended, so every solution was found unless stopped at the limit.
        if t.goal != "satisfy" or (enumerate_ and (limit is None or printer.count < limit)):
            out.append("==========\n")
    elif name == "UNKNOWN" and not printer.count:
        out.append("=====UNKNOWN=====\n")
    if opts.stats:
        out.append(f"%%%mzn-stat: nodes={solver.num_branches}\n"
                   f"%%%mzn-stat: failures={solver.num_conflicts}\n"
                   f"%%%mzn-stat: solveTime={solver.wall_time:.4f}\n%%%mzn-stat-end\n")
    return "".join(out)


def run_args(args: Sequence[str]) -> tuple[str, str, int]:
    """Run what a FlatZinc solver's command line asks (flags and one file, ``-`` for
    standard input): ``(stdout, stderr, exit code)``."""
    label = "cp-sat"
    try:
        opts, rest = parse_flags(args)
        if len(rest) != 1:
            raise FznError("usage: python -m puzzle_engine.solving.cpsat [flags] MODEL.fzn")
        label = rest[0]
        text = sys.stdin.read() if label == "-" else Path(label).read_text()
        return solve(text, opts), "", 0
    except (FznError, OSError) as exc:
        return "", f"Error: {label}: {exc}\n", 1


def run_file(path: str | Path, args: Sequence[str]) -> tuple[str, str, int]:
    """Run a FlatZinc file with FlatZinc solver flags, in this process."""
    return run_args([*args, str(path)])


def main(argv: Sequence[str] | None = None) -> int:
    out, err, code = run_args(list(sys.argv[1:] if argv is None else argv))
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


# -- registering with MiniZinc ---------------------------------------------------------

def available() -> bool:
    """Whether OR-Tools is installed (without importing it: that takes half a second)."""
    return importlib.util.find_spec("ortools") is not None


def solver_config() -> dict[str, Any]:
    return registration.solver_config(
        SOLVER_ID, "CP-SAT", "Google OR-Tools CP-SAT, through puzzle-engine's FlatZinc reader",
        "ortools", "cpsat", ["cp", "lcg", "int"], list(STD_FLAGS))


def register() -> Path | None:
    """Register CP-SAT as a MiniZinc solver (``registration.register``), so that MiniZinc
    run from this process or its children lists it. None when OR-Tools is missing or no
    directory can be written."""
    if not available():
        return None
    return registration.register(solver_config(), "puzzle_engine.solving.cpsat", "cp-sat")


if __name__ == "__main__":
    sys.exit(main())
