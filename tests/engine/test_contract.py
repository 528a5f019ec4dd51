"""Contract 3 is documented, every plugin that ships declares it, and the layering holds."""
import ast
import inspect
import re
from pathlib import Path

import pytest

import puzzle_engine
from puzzle_engine import hookspecs
from puzzle_engine.grid import GridPuzzle
from puzzle_engine.plugins import OLD_HOOKS, get_host
from puzzle_engine.types import Param
from support import ROOT

pytestmark = pytest.mark.fast  # no solver here

ENGINE = Path(puzzle_engine.__file__).resolve().parent
DOC = ROOT / "docs" / "plugin-authoring.md"
HOOKS = [name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
         if hasattr(fn, "puzzle_engine_spec")]
#: The classes a puzzle type subclasses, and the methods a plugin may implement.
CONTRACT_CLASSES = (hookspecs.PuzzleType, hookspecs.Codec, *hookspecs.FACETS, hookspecs.Rules,
                    hookspecs.Emptying, hookspecs.Growing, hookspecs.OwnGenerator)
METHODS = sorted({name for cls in CONTRACT_CLASSES for name, value in vars(cls).items()
                  if inspect.isfunction(value) and not name.startswith("_")})


def test_the_hooks_are_the_register_hooks_and_have_docstrings():
    assert hookspecs.CONTRACT_VERSION == puzzle_engine.CONTRACT_VERSION == 3
    assert set(HOOKS) == {"register_puzzle_types", "register_strategies", "register_criteria",
                          "register_graders", "register_complexities"}
    for name in HOOKS:
        assert getattr(hookspecs, name).__doc__.strip(), name
    # contract 1's per-puzzle hooks are gone: a type's behaviour is its own methods
    assert not [n for n in dir(hookspecs) if n.startswith("puzzle_")]


def test_every_method_of_the_contract_has_a_docstring():
    assert {"to_data", "from_solution", "parse", "format", "transformations", "check_params",
            "random_solution", "choose_square", "is_remove_valid", "structure", "features",
            "random_base", "grow", "generate", "rules", "split_data", "shipped_specs",
            "board_size", "checker_data"} <= set(METHODS)
    for cls in CONTRACT_CLASSES:
        assert (cls.__doc__ or "").strip(), cls
        for name, value in vars(cls).items():
            if name in METHODS:
                assert (value.__doc__ or "").strip(), f"{cls.__name__}.{name}"
    assert GridPuzzle.__doc__.strip() and GridPuzzle.shape.__doc__.strip()


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_documented(hook):
    text = DOC.read_text()
    assert re.search(rf"\b{hook}\b", text), f"{hook} is not in docs/plugin-authoring.md"


def test_the_contract_and_every_method_are_documented():
    """The refusal of a plugin for another contract points to docs/plugin-authoring.md:
    it must say how to declare the contract, and describe every method of a type."""
    text = DOC.read_text()
    missing = [name for name in ("PUZZLE_ENGINE_CONTRACT", "GridPuzzle", "shape", *METHODS)
               if not re.search(rf"(?<![\w.]){name}\b", text)]
    assert missing == [], f"not in docs/plugin-authoring.md: {', '.join(missing)}"
    stale = sorted(set(re.findall(r"\bpuzzle_[a-z_]+\b", text)) & set(OLD_HOOKS))
    assert stale == [], f"docs/plugin-authoring.md still describes contract-1 hooks: {stale}"


def test_every_shipped_plugin_declares_contract_3_and_only_register_hooks():
    """The host's own plugin and the built-ins (loaded through their entry points) are
    contract-3 plugins: PUZZLE_ENGINE_CONTRACT = 3, register_* hooks, no puzzle_* hooks."""
    host = get_host()
    assert host.failures == []
    names = {info.name for info in host.plugin_infos()}
    assert {"puzzle_engine.defaults", "sudoku", "fillomino"} <= names
    for name, plugin in host.pm.list_name_plugin():
        assert getattr(plugin, "PUZZLE_ENGINE_CONTRACT", None) == 3, name
        assert not [h for h in OLD_HOOKS if hasattr(plugin, h)], name
    for info in host.plugin_infos():
        assert info.hooks and all(h.startswith("register_") for h in info.hooks), info
    assert all(isinstance(host.types[t], GridPuzzle) for t in ("sudoku", "fillomino"))
    assert host.adapted == set()  # none of them needs the contract-2 adapter


def test_the_test_plugin_package_is_a_contract_3_plugin(monkeypatch):
    """tests/plugin_pkg, as the wheel tests install it, registered from its source."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "plugin_pkg"))
    import pe_latin_test
    assert pe_latin_test.PUZZLE_ENGINE_CONTRACT == 3
    host = get_host()
    assert host.register(pe_latin_test, name="latin", version="0.3.1")
    latin = host.get_type("latin")
    assert isinstance(latin, GridPuzzle) and latin.plugin == "latin"
    assert isinstance(latin, hookspecs.Symmetry) and "latin" not in host.adapted
    assert not [f for f in host.failures if f.name == "latin"]


def test_plugins_never_ask_which_type_they_are_given():
    """No ``if puzzle_type.name != ...`` in a contract-3 plugin: a type's methods are only
    ever called for that type, so a plugin never compares a type's name."""
    paths = [*(ROOT / "plugins").rglob("*.py"), *(ROOT / "tests" / "plugin_pkg").rglob("*.py")]
    assert len(paths) >= 3
    for path in paths:
        assert not re.search(r"\.name\s*[!=]=|[!=]=\s*[\w.]+\.name\b", path.read_text()), path


def test_the_engine_asks_a_type_only_what_the_contract_declares():
    """Every method the core calls on a type by name (``calls.call(ptype, "name", ...)``
    and the other checked calls) is declared by the contract's classes or GridPuzzle; and
    the engine tells what a type is by its facets alone, never by comparing its methods
    with the contract's (``type(ptype).method is GridPuzzle.method``)."""
    declared = set(METHODS) | {n for n in vars(GridPuzzle) if not n.startswith("_")}
    called = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                    node.func, "id", "")) in ("call", "text", "flag", "board") and \
                    len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and \
                    isinstance(node.args[1].value, str):
                called.add(node.args[1].value)
    assert {"to_data", "is_remove_valid", "random_solution", "parse", "format"} <= called
    assert called - declared == set()
    identity = [p.relative_to(ENGINE).as_posix() for p in ENGINE.rglob("*.py")
                if re.search(r"is (not )?(GridPuzzle|PuzzleType)\.\w+", p.read_text())
                and p.name not in ("plugins.py", "contract_v2.py")]  # registration checks
    assert identity == []


def test_only_the_backend_imports_minizinc():
    importers = [p.relative_to(ENGINE).as_posix() for p in ENGINE.rglob("*.py")
                 if re.search(r"^\s*(import minizinc|from minizinc)", p.read_text(), re.M)]
    assert importers == ["solving/backend.py"]


def test_randomness_comes_from_explicit_seeds():
    """No module-level random.* calls: every draw goes through a random.Random(seed)."""
    for path in list(ENGINE.rglob("*.py")) + list((ROOT / "plugins").rglob("*.py")):
        text = path.read_text()
        assert not re.search(r"\brandom\.(random|choice|randrange|randint|shuffle|sample|seed)\(",
                             text), path


def test_the_reserved_options_are_the_options_of_the_commands_that_read_a_types():
    """``RESERVED_OPTIONS`` is a constant (the core does not import the command line), so
    that it cannot drift, it is derived here from the commands themselves: every option of
    a command that leaves unknown options to the puzzle type."""
    import typer.main

    from puzzle_engine.cli import app
    from puzzle_engine.plugins import RESERVED_OPTIONS
    group = typer.main.get_command(app)
    derived = set()
    for command in group.commands.values():
        if command.context_settings.get("allow_extra_args"):
            derived |= {o[2:] for p in command.params for o in (*p.opts, *p.secondary_opts)
                        if o.startswith("--")}
    assert {"seed", "out", "count", "format", "workers", "solver", "time-limit"} <= derived
    assert derived == set(RESERVED_OPTIONS)


@pytest.mark.parametrize("param, option", [
    (Param("seed", int, 1), "--seed"), (Param("out", str), "--out"),
    (Param("count", int, 2), "--count"), (Param("time_limit", float), "--time-limit"),
    (Param("quiet", bool, False, negative="format"), "--format"),
    (Param("target_empty", int), "--target-empty"),  # the emptying strategy's own
], ids=lambda x: getattr(x, "name", x))
def test_a_type_with_an_engine_option_is_refused_at_registration(param, option):
    """Issue 38: such an option could never be set (the command takes it first). The type
    is refused in one line naming the plugin and the option; the plugin's other types and
    the host keep working."""
    from support import ToyLatinType, plugin

    bad = type("Clashing", (ToyLatinType,), {"name": "clashing", "params": (
        *ToyLatinType.params, param)})()
    good = type("Fine", (ToyLatinType,), {"name": "fine_latin"})()
    host = get_host()
    assert host.register(plugin(lambda register: (register(bad), register(good))), name="clash")
    assert host.warnings() == [
        f"plugin 'clash': puzzle type 'clashing' was refused: its option {option} is the "
        "engine's own (the command line takes it first); rename it (the rest of the plugin "
        "is loaded)"]  # asked first: the warnings need no other question before them
    assert "clashing" not in host.types and host.get_type("fine_latin").plugin == "clash"
    assert "sudoku" in host.types


def test_every_builtin_option_is_free():
    host = get_host()
    assert host.failures == [] and host.warnings() == []
    assert {"sudoku", "fillomino", "combination", "logic", "polyomino-math"} <= set(host.types)


def test_the_contract_states_the_criterion_s_judge_as_it_is():
    """hookspecs.py is the contract: its criterion's ``judge`` is the code's."""
    from puzzle_engine.criteria import Criterion
    doc = " ".join(hookspecs.register_criteria.__doc__.split())
    signature = inspect.signature(Criterion.judge)
    assert list(signature.parameters) == ["self", "engine", "ptype", "params", "instance", "limit"]
    assert "judge(engine, ptype, params, instance, limit=1)" in doc
    assert "reference" not in doc
    assert "refuted_by(engine, ptype, params, solutions, limit=1)" in doc


def test_every_public_member_of_grid_drawing_is_in_the_guide():
    """Issue 38: a plugin author had to read docstrings for GridDrawing's helpers. Every
    public method, property and attribute of a drawing is in the guide's table."""
    from puzzle_engine.render.svg import GridDrawing
    text = DOC.read_text()
    _, _, table = text.partition("`GridDrawing(rows, cols, cell=36, below=0)`")
    table = table[:table.index("\n\n", table.index("| member | what |"))]
    members = {n for n in dir(GridDrawing) if not n.startswith("_")}
    members |= {n for n in vars(GridDrawing(2, 2)) if not n.startswith("_")}
    assert {"lines", "text", "x", "y", "symbol", "shade", "to_string", "bottom"} <= members
    missing = sorted(n for n in members if not re.search(rf"`{n}[`(]", table))
    assert missing == [], f"GridDrawing members not in docs/plugin-authoring.md: {missing}"


def test_the_guide_names_the_play_grid_fields_a_script_receives():
    from puzzle_engine.render.play import PlayGrid, to_json
    text = " ".join(DOC.read_text().split())
    row = text[text.index("| `script` | for `rule=\"script\"`"):]
    row = row[:row.index(" | ", row.index("(values, grid)"))]
    grid = to_json(PlayGrid(rows=1, cols=1, cells=(0,), solution=(1,)))
    missing = [k for k in grid if f"`{k}`" not in row]
    assert missing == [], f"PlayGrid JSON fields a script gets, not in the guide: {missing}"
