"""Reading and validating a PuzzleClone-style YAML spec.

The YAML is read with PyYAML's safe loader, which builds plain data only (no Python
objects). Aliases are counted as the node tree is walked, so a "billion laughs" file is
refused before it is expanded. Every field is checked against the format of
``docs/logic-specs.md``, and every expression in it is parsed (never run) here, so a
mistake is reported at load time as one line: the file, the line and the field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzle_engine import PuzzleInputError
from puzzle_engine.files import MAX_SMALL_FILE, read_small

from . import interp, symbolic

#: YAML nodes a spec may hold once its aliases are expanded.
MAX_NODES = 50_000
#: Size of a spec file.
MAX_BYTES = MAX_SMALL_FILE


class SpecError(PuzzleInputError):
    """A spec that cannot be read, named by file, line and field."""


@dataclass
class Located:
    """Where each field came from: ``lines[path]`` is a 1-based line."""

    file: str
    lines: dict[tuple, int] = field(default_factory=dict)

    def line(self, path: tuple) -> int:
        while path and path not in self.lines:
            path = path[:-1]
        return self.lines.get(path, 1)

    def error(self, path: tuple, message: str) -> SpecError:
        name = ".".join(str(p) for p in path) or "(top level)"
        return SpecError(f"{self.file}, line {self.line(path)}, field '{name}': {message}")


#: The YAML tags of plain data; any other (``!!python/...``) is refused.
MERGE_TAG = "tag:yaml.org,2002:merge"
PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq",
                                                  "map")}


# -- YAML ---------------------------------------------------------------------------------------
def read_yaml(text: str, where: Located) -> Any:
    """The plain data of a YAML document, recording each field's line in ``where``."""
    import yaml  # here, not at the top: every command loads the plugin, few read a spec

    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise where.error((), f"the spec is larger than {MAX_BYTES} bytes")
    if _count_nodes(yaml, text) > MAX_NODES:
        raise where.error((), f"the spec has more than {MAX_NODES} YAML nodes (keys, values "
                          "and list items): too many to be a spec")
    try:
        loader = yaml.SafeLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except RecursionError:
        raise where.error((), "the spec is nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise SpecError(f"{where.file}, line {line}: not valid YAML: {' '.join(str(problem).split())}") from None
    if root is None:
        raise where.error((), "the spec is empty")
    budget = [0]
    constructor = yaml.SafeLoader("")

    def build(node, path, active):
        budget[0] += 1
        if budget[0] > MAX_NODES:
            raise where.error(path, f"the spec expands to more than {MAX_NODES} YAML nodes "
                              "once its aliases are expanded (aliases repeating aliases: a 'billion "
                              "laughs' file?)")
        if id(node) in active:
            raise where.error(path, "a YAML alias refers to itself")
        where.lines.setdefault(path, node.start_mark.line + 1)
        if node.tag not in PLAIN_TAGS:
            raise where.error(path, f"YAML tag '{node.tag}' is not allowed (plain data only)")
        if isinstance(node, yaml.MappingNode):
            active = active | {id(node)}
            out, merged = {}, []
            for k, v in node.value:
                if not isinstance(k, yaml.ScalarNode):
                    raise where.error(path, "a mapping key must be plain text")
                if k.tag == MERGE_TAG:  # '<<: *base' or '<<: [*a, *b]', keys given here win
                    value = build(v, path, active)
                    for m in value if isinstance(value, list) else [value]:
                        if not isinstance(m, dict):
                            raise where.error(path, "a YAML merge key ('<<') takes mappings")
                        merged.append(m)
                    continue
                key = constructor.construct_scalar(k) if k.tag == "tag:yaml.org,2002:str" \
                    else constructor.construct_object(k)
                out[key] = build(v, path + (key,), active)
            for m in merged:
                for key, value in m.items():
                    out.setdefault(key, value)
            return out
        if isinstance(node, yaml.SequenceNode):
            active = active | {id(node)}
            return [build(v, path + (i,), active) for i, v in enumerate(node.value)]
        try:
            return constructor.construct_object(node)
        except yaml.YAMLError as exc:
            raise where.error(path, f"bad value: {' '.join(str(exc).split())}") from None

    try:
        return build(root, (), frozenset())
    except RecursionError:
        raise where.error((), "the spec is nested too deeply") from None


def _count_nodes(yaml, text: str) -> int:
    """The YAML nodes written out in ``text`` (an alias is not one), counted up to one more
    than ``MAX_NODES`` only, on LibYAML's parser where PyYAML has it: a file of 250,000
    list items is refused in a fraction of a second, where composing it would take many.
    Malformed YAML counts what comes before the fault; the reader then names the fault."""
    loader = (getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader)(text)
    nodes = 0
    try:
        while nodes <= MAX_NODES and (event := loader.get_event()) is not None and \
                not isinstance(event, yaml.StreamEndEvent):
            if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent,
                                  yaml.MappingStartEvent)):
                nodes += 1
    except yaml.YAMLError:
        pass
    finally:
        loader.dispose()
    return nodes


# -- the spec -----------------------------------------------------------------------------------
TOP = {"custom_operator", "variables", "symbols", "conditions", "calc_solution",
       "max_solution", "post_generation", "optimize", "queries", "desc", "int_bound"}
VARIABLE = {"type", "domain", "formula", "diff_factor"}
SOURCE_FIELDS = {"source", "amount", "order", "duplicate", "domain", "domain_cond", "dim",
                 "dim_cond", "custom_cond", "formula", "desc", "init_cond"}
DEFINED = {"source", "attr", "type", "desc"}
QUERY_FREE = {"desc", "ans_formula", "ans_text", "ans_assertion"}
QUERY_OPTIONS = {"desc", "query_type", "select_type", "opt_num", "source", "amount", "order",
                 "duplicate", "cond", "opt_formula", "opt_text", "custom_cond", "templates",
                 "init_cond"}
TYPES = {"int", "bool", "enum", "float", "real"}


@dataclass
class Spec:
    """A checked spec: the data as read, with every expression parsed."""

    name: str
    data: dict[str, Any]
    where: Located
    trees: dict[tuple, Any] = field(default_factory=dict)  # path -> parsed expression
    templates: dict[tuple, list] = field(default_factory=dict)  # path -> parsed template

    def tree(self, path: tuple):
        return self.trees[path]

    def template(self, path: tuple):
        return self.templates[path]


def load_spec(text: str, file: str, name: str) -> Spec:
    where = Located(file)
    data = read_yaml(text, where)
    if not isinstance(data, dict):
        raise where.error((), "a spec is a mapping of sections (variables, symbols, ...)")
    spec = Spec(name, data, where)
    _Checker(spec).check()
    return spec


def load_spec_file(path: Path, name: str | None = None) -> Spec:
    # a regular file of at most MAX_BYTES, checked before reading: a FIFO would block, a
    # device (/dev/zero) never end
    raw = read_small(path, "spec", MAX_BYTES, SpecError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"{path}: not UTF-8 text (byte {exc.start + 1})") from None
    return load_spec(text, str(path), name or path.stem)


class _Checker:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.where = spec.where

    def err(self, path, message):
        return self.where.error(path, message)

    def expr(self, path, value, allow_list=False):
        if allow_list and isinstance(value, list):
            for i, v in enumerate(value):
                self.expr(path + (i,), v)
            return
        if isinstance(value, bool) or value is None:
            value = str(value)
        if isinstance(value, (int, float)):
            value = str(value)
        if not isinstance(value, str):
            raise self.err(path, f"expected an expression (text), got {type(value).__name__}")
        try:
            self.spec.trees[path] = interp.parse(value)
        except interp.ExprError as exc:
            raise self.err(path, str(exc)) from None

    def template(self, path, value):
        if value is None:
            value = ""
        if not isinstance(value, (str, int, float)):
            raise self.err(path, f"expected a text template, got {type(value).__name__}")
        try:
            self.spec.templates[path] = interp.parse_template(str(value))
        except interp.ExprError as exc:
            raise self.err(path, str(exc)) from None

    def mapping(self, path, value, allowed=None):
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.err(path, "expected a mapping (name: ...)")
        if allowed is not None:
            for key in value:
                if key not in allowed:
                    raise self.err(path + (key,), f"unknown field '{key}' (expected one of "
                                   f"{', '.join(sorted(allowed))})")
        return value

    def flag(self, path, value):
        if value is not None and not isinstance(value, bool):
            raise self.err(path, f"expected true or false, got {value!r}")

    def bool_list(self, path, value):
        if value is None:
            return
        if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
            raise self.err(path, "expected a list of true/false")

    def check(self):
        d = self.spec.data
        self.mapping((), d, TOP)
        if "desc" not in d:
            raise self.err((), "the spec has no top-level 'desc' template")
        self.template(("desc",), d["desc"])
        for key in ("max_solution", "int_bound"):
            if key in d and (isinstance(d[key], bool) or not isinstance(d[key], int) or d[key] < 1):
                raise self.err((key,), "expected a positive whole number")
        if d.get("int_bound", 0) > symbolic.MAX_INT:  # Chuffed ran out of memory at 2e9
            raise self.err(("int_bound",), f"at most {symbolic.MAX_INT} (the solvers' integers)")
        self.flag(("calc_solution",), d.get("calc_solution"))
        for name, value in self.mapping(("custom_operator",), d.get("custom_operator")).items():
            path = ("custom_operator", name)
            if isinstance(value, str) and value.strip().endswith(".py"):
                raise self.err(path, f"'{value}' is a Python file: a spec's operators must be "
                               "lambdas (a file would be code that runs)")
            self.expr(path, value)
        for name, v in self.mapping(("variables",), d.get("variables")).items():
            path = ("variables", name)
            self.identifier(path, name)
            v = self.mapping(path, v, VARIABLE)
            if "formula" in v:
                if "domain" in v or "type" in v:
                    raise self.err(path, "a variable has either a formula or a type and domain")
                self.expr(path + ("formula",), v["formula"])
            else:
                if "domain" not in v or "type" not in v:
                    raise self.err(path, "a variable needs 'type' and 'domain' (or 'formula')")
                if v["type"] not in ("int", "bool", "float", "enum"):
                    raise self.err(path + ("type",), f"unknown type {v['type']!r} (int, bool, float or enum)")
                self.expr(path + ("domain",), v["domain"])
        for name, s in self.mapping(("symbols",), d.get("symbols")).items():
            path = ("symbols", name)
            self.identifier(path, name)
            s = self.mapping(path, s)
            if "templates" in s or "total" in s:
                s = self.mapping(path, s, {"total", "templates"})
                self.expr(path + ("total",), s.get("total", "1"))
                if not isinstance(s.get("templates"), list) or not s["templates"]:
                    raise self.err(path + ("templates",), "expected a list of symbol templates")
                for i, t in enumerate(s["templates"]):
                    self.selection(path + ("templates", i), t, SOURCE_FIELDS, True)
            elif "formula" in s or "domain" in s or "dim" in s or "amount" in s:
                self.selection(path, s, SOURCE_FIELDS, True)
            else:
                s = self.mapping(path, s, DEFINED)
                self.sources(path, s)
                attr, typ = s.get("attr"), s.get("type", "int")
                if attr is None:
                    if not isinstance(typ, str) or typ.lower() not in TYPES:
                        raise self.err(path + ("type",), f"expected int, bool or enum, got {typ!r}")
                else:
                    if not isinstance(attr, list) or not all(isinstance(a, str) for a in attr):
                        raise self.err(path + ("attr",), "expected a list of attribute names")
                    if not isinstance(typ, list) or len(typ) != len(attr) or not all(
                            isinstance(t, str) and t.lower() in TYPES for t in typ):
                        raise self.err(path + ("type",), f"expected a list of {len(attr)} types "
                                       "(int, bool or enum), one per attribute")
                desc = s.get("desc")
                if isinstance(desc, list):
                    for i, t in enumerate(desc):
                        self.template(path + ("desc", i), t)
                elif desc is not None:
                    self.template(path + ("desc",), desc)
        for name, c in self.mapping(("conditions",), d.get("conditions")).items():
            path = ("conditions", name)
            self.identifier(path, name)
            c = self.mapping(path, c, SOURCE_FIELDS)
            if "formula" not in c:
                raise self.err(path, "a condition needs a 'formula'")
            if "source" in c:
                self.selection(path, c, SOURCE_FIELDS, False)
            else:
                self.expr(path + ("formula",), c["formula"])
                self.template(path + ("desc",), c.get("desc", ""))
        post = self.mapping(("post_generation",), d.get("post_generation"),
                            {"post_gen_vars", "post_gen_conditions"})
        for name, e in self.mapping(("post_generation", "post_gen_vars"), post.get("post_gen_vars")).items():
            self.identifier(("post_generation", "post_gen_vars", name), name)
            self.expr(("post_generation", "post_gen_vars", name), e)
        for name, c in self.mapping(("post_generation", "post_gen_conditions"),
                                    post.get("post_gen_conditions")).items():
            path = ("post_generation", "post_gen_conditions", name)
            self.identifier(path, name)
            if isinstance(c, str):
                self.expr(path, c)
                continue
            c = self.mapping(path, c, {"formula", "desc"})
            if "formula" not in c:
                raise self.err(path, "a condition needs a 'formula'")
            self.expr(path + ("formula",), c["formula"])
            self.template(path + ("desc",), c.get("desc", ""))
        opt = d.get("optimize")
        if opt is not None:
            opt = self.mapping(("optimize",), opt, {"type", "formula"})
            self.template(("optimize", "type"), opt.get("type"))
            self.expr(("optimize", "formula"), opt.get("formula"))
        queries = self.mapping(("queries",), d.get("queries"))
        if not queries:
            raise self.err(("queries",), "the spec asks no query")
        for name, q in queries.items():
            path = ("queries", name)
            self.identifier(path, name)
            q = self.mapping(path, q)
            if "ans_formula" in q:
                self.mapping(path, q, QUERY_FREE)
                self.expr(path + ("ans_formula",), q["ans_formula"])
                self.expr(path + ("ans_assertion",), q.get("ans_assertion", "len(_solutions) == 1"))
                self.expr(path + ("ans_text",), q.get("ans_text", "_ans"))
            else:
                self.mapping(path, q, QUERY_OPTIONS)
                self.flag(path + ("select_type",), q.get("select_type"))
                n = q.get("opt_num", 4)
                if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 26:
                    raise self.err(path + ("opt_num",), "expected a whole number from 2 to 26")
                if q.get("query_type", "single_choice") != "single_choice":
                    raise self.err(path + ("query_type",), "only 'single_choice' is supported "
                                   "(as in PuzzleClone)")
                templates = q.get("templates")
                if templates is not None:
                    if not isinstance(templates, list) or not templates:
                        raise self.err(path + ("templates",), "expected a list of option templates")
                    for i, t in enumerate(templates):
                        self.option_template(path + ("templates", i), t)
                else:
                    self.option_template(path, q, extra=QUERY_OPTIONS)
            self.template(path + ("desc",), q.get("desc", ""))

    def option_template(self, path, t, extra=None):
        allowed = extra or {"source", "amount", "order", "duplicate", "cond", "opt_formula",
                            "opt_text", "custom_cond", "domain"}
        t = self.mapping(path, t, allowed)
        self.sources(path, t)
        self.counts(path, t)
        if t.get("cond", "any") not in ("any", "all"):
            raise self.err(path + ("cond",), f"expected all or any, got {t.get('cond')!r}")
        if "opt_formula" not in t:
            raise self.err(path, "an option template needs 'opt_formula'")
        self.expr(path + ("opt_formula",), t["opt_formula"])
        self.template(path + ("opt_text",), t.get("opt_text", "{_opt}"))
        if "domain" in t and extra is None:
            self.expr(path + ("domain",), t["domain"])
        self.custom(path, t)

    def identifier(self, path, name):
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("__"):
            raise self.err(path, f"'{name}' is not a name an expression can use")
        if name in interp.FORBIDDEN_NAMES:
            raise self.err(path, f"'{name}' is a reserved name")

    def sources(self, path, s):
        src = s.get("source")
        if not isinstance(src, list) or not src:
            raise self.err(path + ("source",), "expected a list of data sources")
        for i, x in enumerate(src):
            self.expr(path + ("source", i), x)

    def counts(self, path, s):
        n = len(s["source"])
        amount = s.get("amount")
        if amount is not None:
            if not isinstance(amount, list) or len(amount) != n:
                raise self.err(path + ("amount",), f"expected a list of {n} amounts, one per source")
            for i, a in enumerate(amount):
                self.expr(path + ("amount", i), a)
        for key in ("order", "duplicate"):
            v = s.get(key)
            self.bool_list(path + (key,), v)
            if v is not None and len(v) != n:
                raise self.err(path + (key,), f"expected {n} values, one per source")

    def custom(self, path, s):
        cc = s.get("custom_cond")
        if cc is None:
            return
        if not isinstance(cc, list):
            raise self.err(path + ("custom_cond",), "expected a list of custom conditions")
        for i, c in enumerate(cc):
            p = path + ("custom_cond", i)
            c = self.mapping(p, c, {"scope", "fields", "constraint"})
            if c.get("scope") not in ("dim", "domain"):
                raise self.err(p + ("scope",), "expected dim or domain")
            fields = c.get("fields")
            if not isinstance(fields, list) or not all(
                    isinstance(f, int) and not isinstance(f, bool) and 0 <= f < len(s["source"])
                    for f in fields):
                raise self.err(p + ("fields",), f"expected a list of source indices "
                               f"(0 to {len(s['source']) - 1})")
            constraint = c.get("constraint")
            if constraint is not None and str(constraint).strip() != "None":
                self.expr(p + ("constraint",), constraint)

    def selection(self, path, s, allowed, symbol):
        s = self.mapping(path, s, allowed)
        self.sources(path, s)
        self.counts(path, s)
        dim = s.get("dim", 1)
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            raise self.err(path + ("dim",), "expected a positive whole number")
        self.flag(path + ("domain_cond",), s.get("domain_cond"))
        dc = s.get("dim_cond")
        if dc is not None and (not isinstance(dc, list) or not all(
                isinstance(g, list) and all(isinstance(i, int) and 0 <= i < len(s["source"]) for i in g)
                for g in dc)):
            raise self.err(path + ("dim_cond",), "expected a list of lists of source indices")
        if "domain" in s:
            self.expr(path + ("domain",), s["domain"])
        self.custom(path, s)
        if "formula" not in s:
            raise self.err(path, "a derived symbol or dynamic condition needs a 'formula'")
        self.expr(path + ("formula",), s["formula"])
        self.template(path + ("desc",), s.get("desc", ""))
