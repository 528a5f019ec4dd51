"""One logic puzzle from a spec: the paper's pipeline, run by our interpreter.

variables -> symbols -> conditions -> (solve, bind ``post_gen_vars`` from ``_sol``, add
``post_gen_conditions``) -> every solution -> queries -> the problem text. Randomness
comes only from the ``random.Random`` given; solving goes through the engine (MiniZinc).
A draw that cannot be completed raises ``Redraw`` and the caller draws again.
"""
from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from puzzle_engine import Status

from . import shape, symbolic
from .helpers import LETTERS, SYMBOLIC_MODEL, Helpers, Model, _hashable
from .interp import Closure, ExprError, Interpreter, parse
from .selection import Redraw, select
from .spec import Spec, SpecError
from .symbolic import Sym, SymbolicError

#: Integer unknowns range over -INT_BOUND..INT_BOUND unless the spec sets ``int_bound``
#: (z3's integers are unbounded; a finite-domain solver needs bounds).
INT_BOUND = 10_000
#: Solutions enumerated when the spec sets no ``max_solution`` (PuzzleClone: 6000).
MAX_SOLUTION = 6000
#: Solutions of the scenario from which ``_sol`` is picked (PuzzleClone: the first 10).
SCENARIO_SOLUTIONS = 10
#: Improving solves when looking for an optimum (``optimize``).
OPTIMUM_STEPS = 200
#: Solutions written into a record's config (enough to replay and check it).
RECORDED_SOLUTIONS = 500
#: Random option selections tried per query.
OPTION_TRIES = 400


@dataclass
class Scenario:
    """The model being built: its unknowns and constraints."""

    variables: dict[str, Sym] = field(default_factory=dict)   # MiniZinc name -> unknown
    readable: dict[str, str] = field(default_factory=dict)    # MiniZinc name -> spec name
    constraints: list = field(default_factory=list)
    bound: int = INT_BOUND

    def add(self, formula, where: str):
        if isinstance(formula, (list, tuple)):
            for f in formula:
                self.add(f, where)
            return
        if isinstance(formula, Sym):
            if formula.type != "bool":
                raise ExprError(f"{where}: a condition must be true or false, not a number")
            self.constraints.append(formula)
        elif isinstance(formula, bool):
            if not formula:
                self.constraints.append(symbolic._lift(False))
        elif formula is not None:
            raise ExprError(f"{where}: a condition must be a formula, got {type(formula).__name__}")

    def minizinc(self, extra=()) -> str:
        used: dict[str, Sym] = {}
        for c in [*self.constraints, *extra]:
            if isinstance(c, Sym):
                c.variables(used)
        lines = [symbolic.PRELUDE]
        for name in sorted(used):
            v = used[name]
            lines.append(f"var bool: {name};" if v.type == "bool"
                         else f"var {-self.bound}..{self.bound}: {name};")
        for c in [*self.constraints, *extra]:
            lines.append(f"constraint {symbolic.to_minizinc(c)};")
        if not used:
            lines.append("var bool: pe_none;")
        lines.append("solve satisfy;")
        return "\n".join(lines) + "\n"

    def template(self, extra=(), options=None) -> shape.Template | None:
        """The model's shape and this draw's values (``shape``), with answer ``options``
        (formulas) when given; None where it has none (it is then solved whole)."""
        return shape.template([*self.constraints, *extra], self.bound, options)


class Condition(str):
    """A condition's text, as PuzzleClone's ``CustomCond``: also ``.desc``, ``.data``
    (the selections of a dynamic condition) and ``.domain`` (how many)."""

    def __new__(cls, desc: str, data: list, domain: int):
        self = super().__new__(cls, desc)
        self.data, self.domain = data, domain
        return self

    def spec_attribute(self, name):
        return {"desc": str(self), "data": self.data, "domain": self.domain}.get(name)


class SymbolGroup:
    """A defined symbol (PuzzleClone's ``CustomSym``): one unknown per key of its
    sources' product, or one per key and attribute."""

    def __init__(self, name, keys, attrs, entries):
        self.name, self.keys, self.attrs, self.entries = name, keys, attrs, entries

    def lookup(self, key):
        if isinstance(key, list):
            key = tuple(key)
        if key not in self.entries:
            raise ExprError(f"symbol '{self.name}' has no key {key!r}")
        return self.entries[key]

    def keys_list(self):
        return list(self.keys)

    def iterate(self):
        return [self.entries[k] for k in self.keys] if self.attrs is None else \
            [[self.entries[k][a] for k in self.keys] for a in self.attrs]

    def __len__(self):
        return len(self.keys)

    def spec_method(self, name):
        if name == "get":
            return self.get
        if name == "keys":
            return lambda: list(self.keys)
        if name == "values":
            return lambda: [self.entries[k] for k in self.keys]
        if name == "items":
            return lambda: [(k, self.entries[k]) for k in self.keys]
        if name == "to_list":
            return self.iterate
        return None

    def get(self, attr):
        if self.attrs is None:
            raise ExprError(f"symbol '{self.name}' has no attributes: index it by key")
        if attr not in self.attrs:
            raise ExprError(f"symbol '{self.name}' has no attribute '{attr}'")
        return [self.entries[k][attr] for k in self.keys]


@dataclass
class Drawn:
    """A generated puzzle before the engine's criterion judges it."""

    problem: str
    key: str                      # the answer as PuzzleClone writes it ("D", or text)
    model: str                    # the final MiniZinc model
    options: list[str]            # the criterion's options (MiniZinc Boolean expressions)
    check: str                    # "options", "solution-set" (how the options were built)
    config: dict[str, Any]
    parameters: dict[str, Any]
    answer_index: int
    template: shape.Template | None = None  # the model and options' shape (``shape``)


class Generator:
    """Runs one spec. ``solve(model_text, n, template)`` returns ``(status,
    [assignment...])``; ``template`` is the model's shape (``shape.template``) or None."""

    def __init__(self, spec: Spec, solve: Callable[[str, int], tuple[Status, list[dict]]]):
        self.spec = spec
        self.solve = solve
        self.d = spec.data

    # -- helpers ------------------------------------------------------------------------------
    def _err(self, path, exc) -> SpecError:
        return self.spec.where.error(path, str(exc))

    def ev(self, path, local=None):
        try:
            return self.it.eval(self.spec.tree(path), local)
        except (ExprError, SymbolicError) as exc:
            raise self._err(path, exc) from None

    def text(self, path, local=None) -> str:
        try:
            return self.it.text(self.spec.template(path), local)
        except (ExprError, SymbolicError) as exc:
            raise self._err(path, exc) from None

    def new_var(self, readable: str, typ: str) -> Sym:
        typ = typ.lower()
        if typ in ("float", "real"):
            raise ExprError(f"'{readable}': float unknowns are not supported (MiniZinc's float "
                            "search would not enumerate solutions like z3)")
        name = f"v{len(self.scn.readable) + 1}_" + re.sub(r"[^A-Za-z0-9]", "_", readable)[:40]
        v = symbolic.var(name, "bool" if typ == "bool" else "int")
        self.scn.readable[name] = readable
        self.scn.variables[name] = v
        return v

    # -- the pipeline -------------------------------------------------------------------------
    def draw(self, rng: random.Random, replay: dict | None = None,
             recorded: bool | None = None) -> Drawn:
        """One puzzle. ``replay`` is a record's ``config``. With ``recorded`` (the default
        when there is a ``replay``), its ``post_gen_vars``, solutions and optimum stand for
        the solver's (each solution is checked against every constraint here), and no
        solver is needed. Without, everything is solved again; only the ``post_gen_vars``
        are taken from ``replay``, and only when the scenario has more solutions than
        ``SCENARIO_SOLUTIONS`` (then ``_sol`` depends on which ones the solver gives)."""
        self.rng = rng
        self.replay = post_gen = replay
        self.recorded = replay is not None if recorded is None else recorded
        self.scenario_complete = False
        self.sym_config: dict = {}
        self.scn = Scenario(bound=self.d.get("int_bound", INT_BOUND))
        self.helpers = Helpers(rng, self.sym_config, lambda text: self.it.eval(parse(text)))
        self.it = Interpreter({}, self.helpers.functions())
        names = self.it.names
        config: dict[str, Any] = {}
        for op in self.d.get("custom_operator") or {}:
            names[op] = self.ev(("custom_operator", op))
        for name, v in (self.d.get("variables") or {}).items():
            path = ("variables", name)
            if "formula" in v:
                names[name] = self.ev(path + ("formula",))
            else:
                names[name] = self._random_value(path, v)
            config[name] = _plain(names[name])
        for name, s in (self.d.get("symbols") or {}).items():
            try:
                names[name] = self._symbol(("symbols", name), name, s)
            except (ExprError, SymbolicError) as exc:
                raise self._err(("symbols", name), exc) from None
        descs: dict[str, str] = {}
        for name, c in (self.d.get("conditions") or {}).items():
            descs[name] = names[name] = self._condition(("conditions", name), name, c)
        names["conditions"] = "".join(descs.values())
        max_solution = self.d.get("max_solution", MAX_SOLUTION)
        post = self.d.get("post_generation") or {}
        if self.d.get("calc_solution", True) is False:
            solutions: list[Model] = []
        else:
            if post:
                names["_sol"] = self._scenario_solution(post_gen)
                for var_name in post.get("post_gen_vars") or {}:
                    path = ("post_generation", "post_gen_vars", var_name)
                    from_record = post_gen is not None and (
                        self.recorded or not self.scenario_complete)
                    if from_record and var_name not in post_gen:
                        raise ExprError(f"config has no '{var_name}' (a post_gen_var)")
                    names[var_name] = post_gen[var_name] if from_record else self.ev(path)
                    config[var_name] = _plain(names[var_name])
                for cname, c in (post.get("post_gen_conditions") or {}).items():
                    path = ("post_generation", "post_gen_conditions", cname)
                    if isinstance(c, str):
                        formula, desc = self.ev(path), ""
                    else:
                        formula, desc = self.ev(path + ("formula",)), self.text(path + ("desc",))
                    self._add(formula, path)
                    names[cname] = desc
            if self.d.get("optimize"):
                solutions = self._optimum()
            else:
                solutions = self._all_solutions(max_solution)
        names["_solutions"] = solutions
        if self.d.get("optimize") and solutions:  # as PuzzleClone: the one optimal model
            names["_solutions"] = solutions[0]
            names["_value"] = config["_optimum"] = symbolic.value(
                self.ev(("optimize", "formula")), solutions[0].assignment)
        if len(solutions) <= RECORDED_SOLUTIONS:
            config["_solutions"] = [m.assignment for m in solutions]
        answers, query_texts, options, check, answer_index = [], {}, None, "solution-set", 0
        option_syms = None
        option_queries = [q for q in self.d["queries"] if "ans_formula" not in self.d["queries"][q]]
        for qname, q in self.d["queries"].items():
            path = ("queries", qname)
            if "ans_formula" in q:
                desc, answer = self._free_query(path, q)
            else:
                desc, answer, opts, idx, syms = self._option_query(path, q, solutions, config)
                if len(option_queries) == 1:
                    options, check, answer_index, option_syms = opts, "options", idx, syms
            query_texts[qname] = desc
            answers.append(answer)
        names.update(query_texts)
        multi = len(query_texts) > 1
        names["queries"] = "".join((f"{i}. " if multi else "") + t + "\n"
                                   for i, t in enumerate(query_texts.values(), 1))
        problem = self.text(("desc",))
        if options is None:  # the answers come from the whole set of solutions
            options = self._solution_set_options(solutions)
            pins = self._pins_sym(solutions)
            option_syms = None if pins is None else [pins, symbolic.Not(pins)]
        model = self.scn.minizinc()
        template = self.scn.template(options=option_syms) \
            if option_syms and None not in option_syms else None
        parameters = {"cond_num": len(self.scn.constraints), "sym_num": len(self.scn.variables),
                      "solutions": len(solutions)}
        return Drawn(problem, "====".join(answers), model, options, check, config, parameters,
                     answer_index, template)

    def _random_value(self, path, v):
        domain = self.ev(path + ("domain",))
        typ = v["type"]
        if not isinstance(domain, (list, tuple, range)) or not domain:
            raise self._err(path + ("domain",), "a domain is a non-empty list")
        if typ == "int" and len(domain) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in domain):
            if domain[0] > domain[1]:
                raise Redraw(f"empty domain {list(domain)}")
            return self.rng.randint(domain[0], domain[1])
        if typ == "float" and len(domain) == 2:
            return self.rng.uniform(domain[0], domain[1])
        return self.rng.choice(list(domain))

    def _symbol(self, path, name, s):
        if "templates" in s:
            total = self.ev(path + ("total",))
            n = len(s["templates"])
            counts = [0] * n
            for _ in range(total):
                counts[self.rng.randrange(n)] += 1
            out: list = []
            descs: list = []
            data: list = []
            for i, t in enumerate(s["templates"]):  # `_index` counts across the templates
                out.extend(self._derived(path + ("templates", i), t, counts[i], len(out),
                                         descs, data))
            return self._described(out, descs, data)
        if "formula" in s or "domain" in s or "dim" in s or "amount" in s:
            descs, data = [], []
            return self._described(self._derived(path, s, None, 0, descs, data), descs, data)
        sources = [list(_items(self.ev(path + ("source", i)))) for i in range(len(s["source"]))]
        src_names = [str(x).strip() for x in s["source"]]
        attrs = s.get("attr")
        typ = s.get("type", "int")
        keys = [k[0] if len(sources) == 1 else tuple(k) for k in itertools.product(*sources)]
        entries: dict = {}
        for k in keys:
            label = f"{name}_{'_'.join(map(str, k)) if isinstance(k, tuple) else k}"
            p = dict(zip(src_names, k if isinstance(k, tuple) else (k,)))
            if attrs is None:
                entries[k] = self.new_var(label, typ)
                desc = self._sym_desc(path + ("desc",), s, p, k)
                self.sym_config[_hashable(entries[k])] = {"p": p, "desc": desc}
            else:
                entries[k] = {}
                for i, (a, t) in enumerate(zip(attrs, typ)):
                    entries[k][a] = self.new_var(f"{label}_{a}", t)
                    desc = self._sym_desc(path + ("desc", i), s, p, k)
                    self.sym_config[_hashable(entries[k][a])] = {"p": p, "desc": desc}
        return SymbolGroup(name, keys, attrs, entries)

    def _sym_desc(self, path, s, p, key):
        if path not in self.spec.templates:
            return None
        local = {f"_{n}": v for n, v in p.items()}
        local["_key"] = key
        local["_sym"] = list(key) if isinstance(key, tuple) else [key]
        try:
            return self.it.text(self.spec.template(path), local)
        except (ExprError, SymbolicError):
            return None  # PuzzleClone keeps such a template unfilled; get_desc gives None

    def _selection(self, path, s, domain, known=None):
        """A selection's items. ``known`` (a dict, for a loop that selects from the same
        definition many times) keeps the sources and amounts once computed, when computing
        them drew no random number (then they are the same each time)."""
        amount = s.get("amount")
        if known is not None and path in known:
            sources, amounts = known[path]
        else:
            state = self.rng.getstate() if known is not None else None
            sources = [list(_items(self.ev(path + ("source", i)))) for i in range(len(s["source"]))]
            amounts = [self.ev(path + ("amount", i)) for i in range(len(sources))] if amount \
                else [1] * len(sources)
            if known is not None and self.rng.getstate() == state:
                known[path] = sources, amounts
        customs = []
        for i, c in enumerate(s.get("custom_cond") or []):
            cp = path + ("custom_cond", i, "constraint")
            f = self.ev(cp) if cp in self.spec.trees else None
            if isinstance(f, bool):  # a condition on the scenario, not on the selection
                f = (lambda value: lambda view: value)(f)
            elif f is not None and not callable(f):
                raise self._err(cp, "a constraint is a lambda, a condition or None")
            customs.append((c["scope"], c["fields"], _guarded(f, self, cp) if f else None))
        n = len(sources)
        items, indices = select(self.rng, sources, amounts, domain, dim=s.get("dim", 1),
                       order=s.get("order") or [True] * n, duplicate=s.get("duplicate") or [False] * n,
                       dim_cond=s.get("dim_cond"), domain_cond=s.get("domain_cond", True),
                       custom=customs)
        return items, indices, bool(amount)

    def _domain_count(self, path, s, default):
        if "domain" not in s:
            return default
        d = self.ev(path + ("domain",))
        if isinstance(d, (list, tuple)) and len(d) == 2:
            return self.rng.randint(d[0], d[1])
        if isinstance(d, int) and not isinstance(d, bool):
            return d
        raise self._err(path + ("domain",), "expected a count or a range [min, max]")

    def _described(self, out, descs, data):
        """The symbol's items, with their texts in order kept for the whole list (as
        PuzzleClone does): ``get_desc(symbol)`` gives them even when two items are the
        same formula (two speakers saying the same), which one text per formula would
        give twice."""
        self.sym_config[_hashable(out)] = {"desc": descs, "data": data}
        return out

    def _derived(self, path, s, count, first=0, descs=None, data=None):
        """A derived symbol's items; ``first`` is the ``_index`` of the first (a template's
        items follow those of the templates before it, as in PuzzleClone's translator).
        Each item's text (and its values) is appended to ``descs`` (and ``data``)."""
        domain = count if count is not None else self._domain_count(path, s, 1)
        items, indices, with_amount = self._selection(path, s, domain)
        out = []
        for index, (item, item_ind) in enumerate(zip(items, indices)):
            values, texts, syms = [], [], []
            for dim_values, dim_ind in zip(item, item_ind):
                sym = dim_values if with_amount else [v[0] for v in dim_values]
                ind = dim_ind if with_amount else [i[0] for i in dim_ind]
                local = {"_sym": sym, "_ind": ind, "_index": first + index}
                value = self.ev(path + ("formula",), local)
                desc = self.text(path + ("desc",), local)
                self.sym_config[_hashable(value)] = {"desc": desc, "data": sym}
                values.append(value)
                texts.append(desc)
                syms.append(sym)
            out.append(values[0] if len(values) == 1 else values)
            if descs is not None:
                descs.append(texts[0] if len(texts) == 1 else texts)
                data.append(syms[0] if len(syms) == 1 else syms)
        return out

    def _condition(self, path, name, c) -> str:
        if "source" not in c:
            self._add(self.ev(path + ("formula",)), path)
            return Condition(self.text(path + ("desc",)), [], 1)
        items, indices, with_amount = self._selection(path, c, self._domain_count(path, c, 1))
        desc, data = [], []
        for index, (item, item_ind) in enumerate(zip(items, indices)):
            sym = item[0] if with_amount else [v[0] for v in item[0]]
            ind = item_ind[0] if with_amount else [i[0] for i in item_ind[0]]
            local = {"_sym": sym, "_ind": ind, "_index": index}
            self._add(self.ev(path + ("formula",), local), path)
            desc.append(self.text(path + ("desc",), local))
            data.append(item[0])
        return Condition("".join(desc), data, len(items))

    def _add(self, formula, path):
        try:
            self.scn.add(formula, ".".join(map(str, path)))
        except ExprError as exc:
            raise self._err(path, exc) from None

    # -- solving ------------------------------------------------------------------------------
    def _models(self, assignments):
        return sorted((Model(a, self.scn.variables) for a in assignments), key=_model_key)

    def _scenario_solution(self, replay):
        if self.recorded:
            return None
        status, found = self.solve(self.scn.minizinc(), SCENARIO_SOLUTIONS, self.scn.template())
        if not found:
            raise Redraw("the scenario has no solution" if status == Status.UNSAT
                         else "the solver timed out on the scenario")
        self.scenario_complete = status == Status.ALL  # then _sol is every solver's
        return self._models(found)[0]

    def _recorded(self):
        if "_solutions" not in self.replay:
            raise ExprError("the record holds no solutions to replay (more than "
                            f"{RECORDED_SOLUTIONS}): it cannot be checked")
        found = self.replay["_solutions"]
        if not isinstance(found, list) or not all(isinstance(a, dict) for a in found):
            raise ExprError("config._solutions must be a list of assignments")
        for a in found:
            if set(a) != set(self._used()) or not all(
                    isinstance(v, int) for v in a.values()):
                raise ExprError("config._solutions does not assign the model's unknowns")
            if not all(symbolic.value(c, a) is True for c in self.scn.constraints):
                raise ExprError("a solution in config._solutions breaks a condition")
        return self._models(found)

    def _used(self):
        used: dict = {}
        for c in self.scn.constraints:
            c.variables(used)
        return used

    def _all_solutions(self, limit):
        if self.recorded:
            return self._recorded()
        status, found = self.solve(self.scn.minizinc(), limit + 1, self.scn.template())
        if status not in (Status.ALL, Status.UNSAT):
            raise Redraw(f"more than {limit} solutions (max_solution)" if len(found) > limit
                         else "the solver timed out enumerating the solutions")
        if not found:
            raise Redraw("the puzzle has no solution")
        return self._models(found)

    def _optimum(self):
        """The unique optimum (PuzzleClone refuses a puzzle with two optimal solutions).
        Found by descent: solve, then ask for a better value until none exists; every
        step is a satisfaction solve, so every solver runs it."""
        goal = self.ev(("optimize", "formula"))
        if self.recorded:
            best = self.replay.get("_optimum")
            if isinstance(best, bool) or not isinstance(best, int):
                raise ExprError("config._optimum must be a whole number")
            for a in self.replay.get("_solutions") or []:
                try:
                    value = symbolic.value(goal, a) if isinstance(a, dict) else best
                except (SymbolicError, KeyError, TypeError, ValueError):
                    continue  # not an assignment of the unknowns: _recorded says so
                if value != best:
                    raise ExprError(f"config._optimum {best} is not the objective's value "
                                    f"in config._solutions ({value})")
            self.scn.add(symbolic.binop("==", goal, best), "optimize")
            return self._recorded()
        if not isinstance(goal, Sym):
            raise self._err(("optimize", "formula"), "the objective names no unknown")
        sense = self.text(("optimize", "type")).strip()
        if sense not in ("minimize", "maximize"):
            raise self._err(("optimize", "type"), f"expected minimize or maximize, got {sense!r}")
        better = "<" if sense == "minimize" else ">"
        best = None
        for _ in range(OPTIMUM_STEPS):
            extra = [] if best is None else [symbolic.binop(better, goal, best)]
            status, found = self.solve(self.scn.minizinc(extra), 1, self.scn.template(extra))
            if status == Status.UNSAT:
                break
            if not found:
                raise Redraw("the solver timed out looking for the optimum")
            best = symbolic.value(goal, found[0])
        else:
            raise Redraw(f"no optimum within {OPTIMUM_STEPS} improving steps")
        if best is None:
            raise Redraw("the puzzle has no solution")
        self.scn.add(symbolic.binop("==", goal, best), "optimize")
        return self._all_solutions(1)

    # -- queries ------------------------------------------------------------------------------
    def _free_query(self, path, q):
        ans = self.ev(path + ("ans_formula",))
        ok = self.ev(path + ("ans_assertion",), {"_ans": ans})
        if isinstance(ok, Sym) or not ok:
            raise Redraw(f"the answer assertion of {path[-1]} does not hold")
        text = self.ev(path + ("ans_text",), {"_ans": ans})
        self.it.names["_ans"] = ans
        return self.text(path + ("desc",), {"_ans": ans}), str(text)

    def _option_query(self, path, q, solutions, config):
        templates = q.get("templates")
        tpaths = [path + ("templates", i) for i in range(len(templates))] if templates else [path]
        tdefs = templates or [q]
        opt_num, select_true = q.get("opt_num", 4), q.get("select_type", True)
        right, wrong = [], []  # (template index, _opt, option formula when compiled)
        seen, known = set(), {}
        found = [0] * len(tdefs)  # different selections met, per template
        for _ in range(OPTION_TRIES):
            if self._exhausted(tpaths, tdefs, known, found):
                break  # no try can give another option: the outcome is already known
            ti = self.rng.randrange(len(tdefs))
            tp, t = tpaths[ti], tdefs[ti]
            try:
                (item,), _, with_amount = self._selection(tp, t, 1, known)
            except Redraw:
                continue
            opt = item[0]
            k = (ti, _hashable(opt))
            if k in seen:
                continue
            seen.add(k)
            found[ti] += 1
            truth = [self._opt_truth(tp, opt, m) for m in solutions]
            cond = t.get("cond", "any")
            if all(truth):
                right.append((ti, opt))
            elif not any(truth):
                wrong.append((ti, opt))
            elif cond == "any" and select_true:
                continue  # true in some solutions only: not usable under unique-answer
            if len(right) >= (1 if select_true else opt_num - 1) and \
                    len(wrong) >= (opt_num - 1 if select_true else 1):
                break
        need_right, need_wrong = (1, opt_num - 1) if select_true else (opt_num - 1, 1)
        if len(right) < need_right or len(wrong) < need_wrong:
            raise Redraw(f"not enough options for query {path[1]}")
        answer = self.rng.randrange(opt_num)
        if select_true:
            chosen = wrong[:answer] + right[:1] + wrong[answer:need_wrong]
        else:
            chosen = right[:answer] + wrong[:1] + right[answer:need_right]
        texts, exprs, formula_ok = [], [], True
        for i, (ti, opt) in enumerate(chosen):
            tp = tpaths[ti]
            texts.append(f"{LETTERS[i]}. " + self.text(tp + ("opt_text",), {"_opt": opt, "_index": i}))
            e = self._opt_formula(tp, opt)
            formula_ok &= e is not None
            exprs.append(e)
        if formula_ok:
            syms = [symbolic._lift(e if select_true else symbolic.Not(e)) for e in exprs]
            mzn = [symbolic.to_minizinc(e) for e in syms]
        else:  # the formula reads solutions in Python only: the options as sets of solutions
            mzn, syms = [], []
            for ti, opt in chosen:
                holds = [m for m in solutions if self._opt_truth(tpaths[ti], opt, m)]
                if not select_true:
                    holds = [m for m in solutions if m not in holds]
                mzn.append(_pins(holds))
                syms.append(self._pins_sym(holds))
        config.setdefault("_queries", {})[path[1]] = {"pool": [_plain(o) for _, o in chosen]}
        desc = self.text(path + ("desc",)) + "\n" + "\n".join(texts)
        return desc, LETTERS[answer], mzn, answer, syms

    @staticmethod
    def _exhausted(tpaths, tdefs, known, found) -> bool:
        """Whether every template has given every selection it can (then more tries give
        only options met before, and the loop's outcome is known). Only for plain
        selections whose sources and amounts are fixed (``known``): one dimension, no
        custom or domain conditions, no duplicates, where the count is a product of
        permutations (``order``) or combinations of distinct items; anything else is
        never exhausted."""
        for tp, t, met in zip(tpaths, tdefs, found):
            if tp not in known or t.get("dim", 1) != 1 or t.get("custom_cond") or \
                    t.get("dim_cond") is not None or t.get("domain_cond", True) is not True:
                return False
            sources, amounts = known[tp]
            n = len(sources)
            if any(t.get("duplicate") or [False] * n):
                return False
            total = 1
            for source, amount, ordered in zip(sources, amounts, t.get("order") or [True] * n):
                if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0 \
                        or len({_hashable(x) for x in source}) != len(source):
                    return False  # (equal items would make fewer different options)
                total *= math.perm(len(source), amount) if ordered else math.comb(len(source), amount)
            if met < total:
                return False
        return True

    def _opt_truth(self, tp, opt, model) -> bool:
        v = self.ev(tp + ("opt_formula",), {"_opt": opt, "_model": model})
        if isinstance(v, Sym):
            raise self._err(tp + ("opt_formula",), "the option's formula still names an unknown: "
                            "read it with get_value(_model, ...)")
        return bool(v)

    def _opt_formula(self, tp, opt):
        """The option's formula over the unknowns (``_model`` read symbolically), or None."""
        try:
            v = self.it.eval(self.spec.tree(tp + ("opt_formula",)),
                             {"_opt": opt, "_model": SYMBOLIC_MODEL})
        except (ExprError, SymbolicError):
            return None
        if isinstance(v, bool):
            return symbolic._lift(v)
        return v if isinstance(v, Sym) and v.type == "bool" else None

    def _pins_sym(self, models):
        """``_pins`` as a formula (for the model's shape)."""
        terms = []
        for m in models:
            if not set(m.assignment) <= set(self.scn.variables):
                return None
            terms.append(symbolic._lift(symbolic.And(
                [symbolic.binop("==", self.scn.variables[n], v)
                 for n, v in sorted(m.assignment.items())])))
        return symbolic._lift(symbolic.Or(terms))

    def _solution_set_options(self, solutions):
        """For open questions: "the solution is one of those enumerated" and its negation.
        The criterion then proves the enumeration the answers were computed from complete."""
        pins = _pins(solutions)
        return [pins, f"not ({pins})"]


def _pins(models) -> str:
    if not models:
        return "false"
    terms = []
    for m in models:
        parts = [f"({n} = {str(v).lower() if isinstance(v, bool) else v})"
                 for n, v in sorted(m.assignment.items())]
        terms.append("(" + (" /\\ ".join(parts) or "true") + ")")
    return "(" + " \\/ ".join(terms) + ")"


def _model_key(m: Model):
    return tuple((n, int(v)) for n, v in sorted(m.assignment.items()))


def _items(x):
    if isinstance(x, dict):
        return list(x.keys())
    if isinstance(x, SymbolGroup):
        return [x.entries[k] for k in x.keys]
    if isinstance(x, (list, tuple, range, str)):
        return list(x)
    if isinstance(x, int) and not isinstance(x, bool):
        raise ExprError(f"a source is a list, not the number {x}")
    raise ExprError(f"a source is a list, not a {type(x).__name__}")


def _guarded(f, gen, path):
    def call(view):
        try:
            return f(view)
        except (ExprError, SymbolicError) as exc:
            raise gen._err(path, exc) from None
    return call


def _plain(x):
    """A JSON form of a value for the record's config."""
    if isinstance(x, (bool, int, float, str)) or x is None:
        return x
    if isinstance(x, (list, tuple, range)):
        return [_plain(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, Sym):
        return repr(x)
    if isinstance(x, Closure):
        return "<lambda>"
    return str(x)
