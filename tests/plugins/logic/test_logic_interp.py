"""The logic plugin's spec reader and interpreter: hostile specs get one-line errors and
never run; the interpreter's whitelist, limits and symbolic formulas. No solver."""
import pytest

from puzzle_engine_plugins.logic import interp, symbolic
from puzzle_engine_plugins.logic.helpers import Helpers
from puzzle_engine_plugins.logic.interp import ExprError, Interpreter, parse
from puzzle_engine_plugins.logic.spec import SpecError, load_spec

pytestmark = pytest.mark.fast

GOOD = """\
variables:
  n:
    type: int
    domain: "[2, 4]"
symbols:
  s:
    source:
      - range(n)
    type: int
conditions:
  c:
    formula: {formula}
queries:
  q1:
    ans_formula: "1"
    ans_assertion: "True"
desc: "{{n}}"
"""


def spec_with(formula: str):
    return load_spec(GOOD.format(formula=formula), "hostile.yaml", "hostile")


def run(text, **names):
    import random
    it = Interpreter(names, Helpers(random.Random(0), {}).functions())
    return it.eval(parse(text))


@pytest.mark.parametrize("expr, words", [
    ("__import__('os')", "__import__"),
    ("().__class__.__mro__", "attribute '__"),
    ("(lambda f: f('/etc/passwd'))(open)", "open"),
    ("(lambda: open('/etc/passwd'))()", "open"),
    ("range(10**12)", "range of"),
    ("'a' * 10**9", "repeated sequence"),
    ("10 ** 10 ** 10", "exponent"),
    ("eval('1')", "eval"),
    ("exec('x = 1')", "exec"),
    ("[x for x in range(1000) for y in range(1000) for z in range(1000)]", "steps"),
    ("(1).real", "attribute"),
    ("'{0.__class__}'.format(1)", "format"),
    ("globals()", "globals"),
    ("(x := 1)", "':='"),
])
def test_hostile_expressions_are_one_line_errors(expr, words):
    with pytest.raises(ExprError) as info:
        run(expr)
    message = str(info.value)
    assert words in message and "\n" not in message


@pytest.mark.parametrize("expr, words", [
    # memory: each stays under the per-operator limits but multiplies them
    ("['a' * 100000 for i in range(100000)]", "elements"),
    ("[[0] * 100000 for i in range(100000)]", "elements"),
    ("{i: 'a' * 100000 for i in range(100000)}", "elements"),
    ("' '.join('a' * 100000 for i in range(100000))", "elements"),
    ("str([[[0] * 1000] * 1000] * 1000)", "elements"),
    ("'a'.zfill(10**9)", "zfill()"),
    ("('a' * 100000).replace('a', 'a' * 100000)", "replace()"),
    ("('a' * 100000).join([str(i) for i in range(100000)])", "join()"),
    ("('{0}' * 30000).format('a' * 100000)", "format()"),
    ("'%1000000000s' % 'a'", "width"),
    ("'%*d' % (10**9, 1)", "'*' width"),
    ("(lambda f: f(f, 2**10000, 0))(lambda f, x, n: x if n > 25 else f(f, x * x, n + 1))",
     "bits"),
    # time: one step each, but each step does 100,000 elements of work
    ("round(1, -10**9)", "round()"),
    ("[sum(range(100000)) for i in range(100000)]", "elements"),
    ("[i in L for i in range(100000)]", "elements"),
    ("sorted([sorted(range(100000)) for i in range(1000)])", "elements"),
    ("[L == M for i in range(100000)]", "elements"),
    ("[L < M for i in range(100000)]", "elements"),
    ("{T: 1 for i in range(100000)}", "elements"),  # hashing a tuple walks it, each time
    ("{T for i in range(100000)}", "elements"),
    ("[T in {1} for i in range(100000)]", "elements"),
    ("[{T: 1}[T] for i in range(100000)]", "elements"),
])
def test_resource_exhaustion_is_refused_before_it_happens(expr, words):
    with pytest.raises(ExprError) as info:
        run(expr, L=list(range(100000)), M=list(range(100000)), T=tuple(range(100000)))
    message = str(info.value)
    assert words in message and "\n" not in message


def test_bounded_string_operations_still_work():
    assert run("'%5d|%-4s|%%' % (3, 'x')") == "    3|x   |%"
    assert run("'%(a)s' % {'a': 3}") == "3"
    assert run("'{0}-{1:>3}'.format(1, 2)") == "1-  2"
    assert run("'ab'.replace('a', 'xy') + 'a'.zfill(3) + ','.join(['a', 'b'])") == "xyb00aa,b"
    assert run("round(1234, -2)") == 1200


def test_a_formula_doubled_by_recursion_is_refused():
    """``e + e`` shares its halves in memory, but MiniZinc's text (and hashing) writes
    them out: 36 doublings would be 2**36 parts."""
    with pytest.raises(symbolic.SymbolicError, match="formula of more than"):
        run("(lambda f: f(f, X, 0))(lambda f, e, n: e if n > 35 else f(f, e + e, n + 1))",
            X=symbolic.var("x", "int"))


def test_hostile_formula_in_a_spec_names_file_line_and_field():
    spec = spec_with("\"__import__('os').system('touch /tmp/pwned')\"")
    from puzzle_engine_plugins.logic.generator import Generator
    import random
    with pytest.raises(SpecError) as info:
        Generator(spec, None).draw(random.Random(0))
    assert str(info.value).startswith("hostile.yaml, line 12, field 'conditions.c.formula': name '__import__'")


def test_deep_nesting_is_refused_at_load():
    with pytest.raises(SpecError) as info:
        spec_with('"' + "[" * 100 + "]" * 100 + '"')
    assert "conditions.c.formula" in str(info.value) and "nested" in str(info.value)
    with pytest.raises(ExprError, match="nested more than"):
        parse("-" * 100 + "1")


def test_billion_laughs_is_refused_before_expansion():
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    lines.append("desc: x")
    with pytest.raises(SpecError, match="more than 50000 YAML nodes"):
        load_spec("\n".join(lines), "laughs.yaml", "laughs")


def test_a_long_plain_list_is_too_many_nodes_not_a_billion_laughs():
    """200,000 list items written out (no alias) were called a 'billion laughs' file after
    the whole list was composed; they are counted before composing, and named as what
    they are."""
    with pytest.raises(SpecError) as info:
        load_spec("- 1\n" * 200_000, "list.yaml", "list")
    message = str(info.value)
    assert "more than 50000 YAML nodes (keys, values and list items)" in message
    assert "billion" not in message and "alias" not in message
    from puzzle_engine_plugins.logic.spec import Located, read_yaml
    assert read_yaml("- 1\n" * 40_000, Located("long.yaml")) == [1] * 40_000  # under it: read


def test_yaml_python_tags_are_refused():
    with pytest.raises(SpecError, match="line 1"):
        load_spec("desc: !!python/object/apply:os.system ['true']\n", "tag.yaml", "tag")


@pytest.mark.parametrize("text, message", [
    ("variables: [1]\ndesc: x\nqueries: {q: {ans_formula: '1'}}", "line 1, field 'variables': expected a mapping"),
    ("desc: x\nqueries:\n  q:\n    ans_formula: '1 +'\n", "line 4, field 'queries.q.ans_formula': not a Python expression"),
    ("desc: x\nqueries:\n  q:\n    source: [names]\n    opt_formula: 'True'\n    cond: some\n",
     "line 6, field 'queries.q.cond': expected all or any"),
    ("desc: '{x'\nqueries: {q: {ans_formula: '1'}}", "field 'desc': '{' at character 1"),
    ("custom_operator:\n  f: customs/x.py\ndesc: x\nqueries: {q: {ans_formula: '1'}}",
     "line 2, field 'custom_operator.f': 'customs/x.py' is a Python file"),
    ("desc: x\nbogus: 1\nqueries: {q: {ans_formula: '1'}}", "line 2, field 'bogus': unknown field"),
])
def test_bad_specs_name_file_line_and_field(text, message):
    with pytest.raises(SpecError) as info:
        load_spec(text, "bad.yaml", "bad")
    assert message in str(info.value) and str(info.value).startswith("bad.yaml")


def test_whitelisted_python():
    assert run("sum([x * 2 for x in range(4) if x % 2 == 0])") == 4
    assert run("', '.join([str(v) for v in xs])", xs=[1, 2]) == "1, 2"
    assert run("(lambda l: sum(a[0] for a in l) <= 1)([[1], [0]])") is True
    assert run("{k: v for k, v in zip('ab', [1, 2])}.get('b')") == 2
    assert run("xs[1:][::-1]", xs=[1, 2, 3]) == [3, 2]
    assert run("'yes' if 3 > 2 > 1 else 'no'") == "yes"
    assert run("-7 // 2, -7 % 3") == (-4, 2)  # known values: Python's own arithmetic


def test_unknowns_become_formulas_compiled_to_minizinc():
    x, b = symbolic.var("x", "int"), symbolic.var("b", "bool")
    f = run("Implies(b, x / 2 == -1) if True else 0", x=x, b=b)
    assert symbolic.to_minizinc(f) == "(b -> (pe_ediv(x, 2) = (-1)))"
    assert symbolic.to_minizinc(run("Sum([If(b, 1, 0), x]) >= 2", x=x, b=b)) == \
        "(((0 + (if b then 1 else 0 endif)) + x) >= 2)"
    # z3's division: Euclidean (remainder never negative); Python's // floors
    assert symbolic.value(run("x / 2", x=x), {"x": -7}) == -4
    assert symbolic.value(run("x % 3", x=x), {"x": -7}) == 2
    assert symbolic.value(run("x / -2", x=x), {"x": -7}) == 4
    with pytest.raises(symbolic.SymbolicError, match="use If"):
        run("1 if x > 2 else 0 and x", x=x) and None
        bool(run("x > 2", x=x))
    with pytest.raises(ExprError, match="And"):
        run("x > 1 and x < 3", x=x)


def test_templates():
    it = Interpreter({"n": 3})
    assert it.text(interp.parse_template("{n} barrel{'s' if n > 1 else ''} {{x}}")) == "3 barrels {x}"
    assert it.text(interp.parse_template("{n:>3}|{n * 2:02d}")) == "  3|06"


def test_selection_hierarchy_defaults_and_the_none_shortcut():
    import random
    from puzzle_engine_plugins.logic.selection import Redraw, select
    sources = [list(range(3, 10)), list(range(2, 10)), ["eq", "neq"]]
    for constraint in (None,):
        items, indices = select(random.Random(7), sources, [1, 1, 1], 5, order=[True] * 3,
                                duplicate=[False] * 3,
                                custom=[("domain", [0], constraint), ("domain", [1], constraint)])
        assert len({it[0][0][0] for it in items}) == 5 and len({it[0][1][0] for it in items}) == 5
        assert [[sources[k][i] for i in ix] for k, ix in enumerate(indices[0][0])] == items[0][0]
    # dim 2: the two dimensions differ in the ore (dim_cond [[0]]), at most one "is"
    ores = [["iron", "tin", "zinc"], [False, True]]
    lam = lambda l: sum(part[1][0] for part in l) <= 1  # noqa: E731 - indices: 1 is True
    for seed in range(20):
        (item,), _ = select(random.Random(seed), ores, [1, 1], 1, dim=2, order=[True, True],
                            duplicate=[False, False], dim_cond=[[0]], custom=[("dim", [0, 1], lam)])
        assert item[0][0] != item[1][0] and not (item[0][1][0] and item[1][1][0])
    with pytest.raises(Redraw):  # 5 unique divisors out of 2
        select(random.Random(1), [[3, 4]], [1], 5, order=[True], duplicate=[False],
               custom=[("domain", [0], None)])


@pytest.mark.parametrize("field, value, words", [
    ("conditions.c.formula", "\"().__class__.__mro__\"", "attribute '__"),
    ("variables.n.domain", "\"[1, len(range(10**12))]\"", "range of"),
    ("conditions.c.formula", "\"(lambda p: open(p))('/etc/passwd')\"", "name 'open'"),
    ("conditions.c.formula", "\"eval('1 + 1')\"", "name 'eval'"),
])
def test_hostile_specs_fail_when_drawn_naming_the_field(field, value, words):
    import random
    from puzzle_engine_plugins.logic.generator import Generator
    text = GOOD.format(formula='"True"')
    if field == "variables.n.domain":
        text = text.replace('domain: "[2, 4]"', f"domain: {value}")
    else:
        text = text.replace('formula: "True"', f"formula: {value}")
    spec = load_spec(text, "hostile.yaml", "hostile")
    with pytest.raises(SpecError) as info:
        Generator(spec, None).draw(random.Random(0))
    message = str(info.value)
    assert f"field '{field}'" in message and words in message and "\n" not in message


@pytest.mark.parametrize("text", ["a: " + "[" * 5000 + "]" * 5000,
                                  "a: " + "{b: " * 3000 + "1" + "}" * 3000])
def test_deeply_nested_yaml_is_one_line_error(text):
    with pytest.raises(SpecError, match=r"^deep\.yaml, line 1, field '\(top level\)': the spec "
                                        r"is nested too deeply$"):
        load_spec(text, "deep.yaml", "deep")


def test_yaml_merge_keys_merge_and_local_keys_win():
    text = GOOD.format(formula='"True"').replace(
        'n:\n    type: int\n    domain: "[2, 4]"',
        'n: &base {type: int, domain: "[2, 4]"}\n  m:\n    <<: *base\n    domain: "[5, 6]"')
    spec = load_spec(text, "merge.yaml", "merge")
    assert spec.data["variables"]["m"] == {"type": "int", "domain": "[5, 6]"}
    bad = text.replace("<<: *base", "<<: [1, 2]")
    with pytest.raises(SpecError, match="merge key"):
        load_spec(bad, "merge.yaml", "merge")


def test_an_endless_spec_file_is_refused_and_a_large_one_read_only_up_to_the_limit(tmp_path):
    from pathlib import Path
    from puzzle_engine_plugins.logic.spec import load_spec_file
    with pytest.raises(SpecError, match=r"^cannot read spec /dev/zero: not a regular file"):
        load_spec_file(Path("/dev/zero"))
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 2_000_000)
    with pytest.raises(SpecError, match=r"big\.yaml: the spec is larger than"):
        load_spec_file(big)


def test_numbers_beyond_the_solvers_integers_are_named_not_sent_to_minizinc():
    with pytest.raises(symbolic.SymbolicError, match="beyond the solver's integers"):
        run("X == 2**70", X=symbolic.var("x", "int"))
    with pytest.raises(symbolic.SymbolicError, match="of 33220 bits"):
        run("X == 10**10000", X=symbolic.var("x", "int"))
    assert symbolic.to_minizinc(run("X == 10**9", X=symbolic.var("x", "int"))) == "(x = 1000000000)"
    text = GOOD.format(formula='"True"') + "int_bound: 1000000000000000000000\n"
    with pytest.raises(SpecError, match=r"line 18, field 'int_bound': at most 1000000000"):
        load_spec(text, "big.yaml", "big")


@pytest.mark.parametrize("expr, words", [
    ("len(generate_var_names(10**8))", "generate_var_names takes"),
    ("generate_random_list(10000, 'int', [0, 10], [lambda l: False])", "in 100 draws"),
    # the budget ends the evaluation: it is not a condition that merely failed
    ("generate_random_list(10, 'int', [0, 10], [lambda l: [x for x in range(10**5)] and False])",
     "steps"),
    ("[math.lcm(*range(1, 20000)) for i in range(50)]", "lcm() of over 1000 bits"),
])
def test_helpers_are_bounded_too(expr, words):
    with pytest.raises(ExprError, match=words.replace("(", r"\(").replace(")", r"\)")):
        run(expr)
    assert run("generate_var_names(4)") == list("pqrs") and run("math.lcm(4, 6)") == 12


def test_a_spec_name_reads_only_yaml_regular_files(tmp_path):
    """A record names its spec and ``check`` reads it: a record (data) may not make us read
    any file, nor block on a FIFO."""
    import os
    from puzzle_engine import PuzzleInputError
    from puzzle_engine_plugins.logic.puzzle import LogicPuzzle
    ptype = LogicPuzzle()
    with pytest.raises(PuzzleInputError, match=r"^spec '/etc/passwd': a spec file's name ends in \.yaml"):
        ptype.spec("/etc/passwd")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(SpecError, match="not a regular file"):
        ptype.spec(str(fifo))
    assert ptype.spec("house-number").name == "house-number"
