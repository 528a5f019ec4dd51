"""Contract v3's registered-object protocols (issue #40): a strategy, a criterion and a
grader are declared in hookspecs.py, every registered one is checked against its protocol
at load (one line naming the plugin and the member it lacks, the rest of the host
working), and objects written from hookspecs.py alone, subclassing nothing of the
engine's, work. Fast tier: the fake solver answers."""
import inspect
import random
import re

import pytest

from puzzle_engine import OwnGenerator, hookimpl, hookspecs
from puzzle_engine.criteria import Criterion as CriterionBase
from puzzle_engine.criteria import Verdict
from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError
from puzzle_engine.plugins import Host, lacks, members
from puzzle_engine.solving.backend import Backend
from puzzle_engine.strategies import GenResult, Puzzle
from puzzle_engine.strategies import Strategy as StrategyBase
from puzzle_engine.types import Param, Status

from fake_solver import FakeBackend
from fake_types import ORACLES, OwnLatin, fake_host
from support import ROOT

fast = pytest.mark.fast  # every test but the last, which runs the command line

DOC = ROOT / "docs" / "plugin-authoring.md"


# -- objects written from hookspecs.py alone ---------------------------------------------------
class FirstAccepted:
    """A strategy (hookspecs.Strategy): draw with the type's ``generate`` until the
    criterion accepts, at most ``tries`` times."""

    name = "first-accepted"
    description = "the first drawn candidate the criterion accepts"
    options = (Param("tries", int, 20, "Candidates drawn at most."),)
    hooks = OwnGenerator

    def make_options(self, values, workers=1):
        return {"tries": int(values.get("tries", 20))}

    def default_options(self):
        return self.make_options({})

    def record_options(self, options):
        return dict(options)

    def generate(self, engine, ptype, params, seed, options):
        rng = random.Random(seed)
        criterion = engine.criterion(ptype)
        for draw in range(1, options["tries"] + 1):
            instance = ptype.generate(params, rng, engine)
            verdict = criterion.judge(engine, ptype, params, instance)
            if verdict.accepted:
                break
        else:
            raise PluginError("nothing accepted")
        backend = engine.backend
        return GenResult(Puzzle(type=ptype.name, params=dict(params), instance=instance,
                                solution=verdict.solution, seed=seed, plugin=ptype.plugin,
                                plugin_version=ptype.plugin_version, solver=backend.solver_id,
                                solver_version=backend.info.version, solver_calls=backend.calls,
                                seconds=0.0, options=self.record_options(options),
                                extra={"draws": draw}), [])


class CountingChecker:
    """A checker (hookspecs.Checker) that judges each board."""

    def __init__(self, criterion, engine, ptype, params):
        self.criterion, self.engine, self.ptype, self.params = criterion, engine, ptype, params
        self.unknown = 0

    def count_other(self, board, limit):
        verdict = self.criterion.judge(self.engine, self.ptype, self.params, board, limit)
        return (0 if verdict.accepted else limit), verdict.accepted is not None

    def at_most(self, board, k=1):
        found, definite = self.count_other(board, k)
        self.unknown += not definite
        return definite and found < k

    def first_with_other(self, boards):
        return None, False

    def close(self):
        pass


class SomeGivens:
    """A criterion (hookspecs.Criterion): unique, with at least ``least`` givens."""

    name = "unique-with-givens"
    description = "one solution and at least 6 givens"
    least = 6

    def judge(self, engine, ptype, params, instance, limit=1):
        result, solutions = engine.solve(ptype, params, instance, nr_solutions=limit + 1,
                                         goal="satisfy")
        if len(solutions) > limit:
            return Verdict(False, len(solutions), result.status, solutions[0])
        if result.status not in (Status.ALL, Status.UNSAT):
            return Verdict(None, len(solutions), result.status)
        enough = sum(1 for v in instance if v) >= self.least
        return Verdict(bool(solutions) and enough, len(solutions), result.status,
                       solutions[0] if solutions else None)

    def refuted_by(self, engine, ptype, params, solutions, limit=1):
        return len({engine.key(ptype, params, s) for s in solutions}) > limit

    def checker(self, engine, ptype, params, full):
        return CountingChecker(self, engine, ptype, params)


class Givens:
    """A grader (hookspecs.Grader) whose grading counts givens."""

    name = "givens-count"
    description = "the number of givens"

    def grader(self, engine, ptype, params, options):
        return GivensGrading()


class GivensGrading:
    def grade(self, instance, label=""):
        givens = sum(1 for v in instance if v)
        return type("Counted", (), {"to_json": lambda self: {"givens": givens}})()

    def nodes(self, instance, runs):
        return float(sum(1 for v in instance if v))

    def close(self):
        pass


class FromTheContract(OwnLatin):
    name = "contract_latin"
    strategy = FirstAccepted.name
    criterion = SomeGivens.name
    grader = Givens.name


def plugin(strategies=(), criteria=(), graders=(), types=()):
    class Plugin:
        PUZZLE_ENGINE_CONTRACT = hookspecs.CONTRACT_VERSION

        @hookimpl
        def register_strategies(self, register):
            for s in strategies:
                register(s)

        @hookimpl
        def register_criteria(self, register):
            for c in criteria:
                register(c)

        @hookimpl
        def register_graders(self, register):
            for g in graders:
                register(g)

        @hookimpl
        def register_puzzle_types(self, register):
            for t in types:
                register(t)
    return Plugin()


def without(obj, member):
    """A copy of ``obj``'s class without ``member``."""
    cls = type(obj)
    attrs = {k: v for k, v in vars(cls).items() if k != member}
    return type(cls.__name__, cls.__bases__, attrs)()


@fast
def test_a_strategy_criterion_and_grader_written_from_the_hookspecs_work():
    host = fake_host()
    assert host.register(plugin([FirstAccepted()], [SomeGivens()], [Givens()],
                                [FromTheContract()]), name="contract", version="1")
    assert host.warnings() == []
    engine = Engine(host, FakeBackend(ORACLES | {"contract_latin": ORACLES["fake_own_latin"]}))
    ptype = host.get_type("contract_latin")
    params = engine.check_params(ptype, {})
    puzzle = engine.generate(ptype, params, 3).puzzle
    assert sum(1 for v in puzzle.instance if v) >= SomeGivens.least
    assert puzzle.options == {"tries": 20} and puzzle.extra["draws"] >= 1
    checker = engine.checker(ptype, params, puzzle.solution)
    assert checker.at_most(puzzle.instance) is True
    from puzzle_engine.difficulty import make_grader
    grading = make_grader(engine, ptype, params, None)
    assert grading.grade(puzzle.instance).to_json() == {
        "givens": sum(1 for v in puzzle.instance if v)}


MISSING = [  # (registry hook's kind, the object, the member taken away, the guide's section)
    ("criterion", SomeGivens(), "refuted_by", "criteria"),
    ("criterion", SomeGivens(), "checker", "criteria"),
    ("criterion", SomeGivens(), "judge", "criteria"),
    ("strategy", FirstAccepted(), "record_options", "strategies"),
    ("strategy", FirstAccepted(), "make_options", "strategies"),
    ("strategy", FirstAccepted(), "hooks", "strategies"),
    ("grader", Givens(), "grader", "graders"),
    ("strategy", FirstAccepted(), "description", "strategies"),
]


@fast
@pytest.mark.parametrize("kind, obj, member, section", MISSING,
                         ids=[f"{k}-{m}" for k, _, m, _ in MISSING])
def test_an_object_without_a_member_is_refused_at_load_in_one_line(kind, obj, member, section):
    """The loader names the plugin, the object and the member; the plugin's other objects
    and the host load; a type that names the refused object is told why, in one line."""
    lacking = without(obj, member)
    lists = {"strategy": ([lacking, FirstAccepted()], [], []),
             "criterion": ([], [lacking, SomeGivens()], []),
             "grader": ([], [], [lacking, Givens()])}[kind]
    host = fake_host()
    # the same name twice: the complete one, registered second, is taken
    assert host.register(plugin(*lists), name="careless", version="1")
    said = (f"plugin 'careless' registers {kind} '{obj.name}' without '{member}' "
            f"(see docs/plugin-authoring.md#{section}); ignored (the rest of the plugin is loaded)")
    assert host.warnings() == [said]
    registry = {"strategy": "strategies", "criterion": "criteria", "grader": "graders"}[kind]
    assert isinstance(host.get(registry, obj.name), type(obj))
    assert "sudoku" in host.types and host.get_type("fake_own_latin")

    host = fake_host()
    lists = {"strategy": ([lacking], [], []), "criterion": ([], [lacking], []),
             "grader": ([], [], [lacking])}[kind]
    assert host.register(plugin(*lists), name="careless", version="1")
    with pytest.raises(PluginError) as caught:
        host.get(registry, obj.name)
    assert str(caught.value) == (f"plugin 'careless' registers {kind} '{obj.name}' without "
                                 f"'{member}' (see docs/plugin-authoring.md#{section})")


@fast
@pytest.mark.parametrize("change, says", [
    ({"refuted_by": "no"}, "whose 'refuted_by' is not callable"),
    ({"judge": lambda self, engine, ptype, params: None},
     "whose 'judge' cannot be called as judge(engine, ptype, params, instance, limit=1)"),
    ({"refuted_by": lambda self, engine, ptype, params, solutions, k=1: False},
     "whose 'refuted_by' cannot be called as "
     "refuted_by(engine, ptype, params, solutions, limit=1)"),
    ({"description": None}, "whose 'description' is not a str"),
], ids=["not-callable", "too-few-arguments", "another-keyword", "description"])
def test_a_criterion_with_a_wrong_member_is_refused(change, says):
    bad = type("Sloppy", (SomeGivens,), change)()
    host = fake_host()
    assert host.register(plugin(criteria=[bad]), name="sloppy", version="1")
    assert host.warnings() == [
        f"plugin 'sloppy' registers criterion 'unique-with-givens' {says} "
        "(see docs/plugin-authoring.md#criteria); ignored (the rest of the plugin is loaded)"]


@fast
def test_a_strategy_s_hooks_and_options_are_checked():
    host = fake_host()
    bad_hooks = type("S", (FirstAccepted,), {"name": "s1", "hooks": OwnGenerator()})()
    bad_options = type("S", (FirstAccepted,), {"name": "s2", "options": ("tries",)})()
    assert host.register(plugin([bad_hooks, bad_options]), name="sloppy", version="1")
    line, = host.warnings()
    assert "registers strategy 's1' whose 'hooks' is not a class" in line
    assert "registers strategy 's2' whose 'options' is not a tuple of Param" in line


@fast
def test_an_attribute_that_raises_is_confined_to_its_plugin():
    class Raising(SomeGivens):
        @property
        def judge(self):
            raise RuntimeError("boom")
    host = fake_host()
    assert host.register(plugin(criteria=[Raising(), SomeGivens()]), name="sloppy", version="1")
    assert "a criterion whose attributes raise RuntimeError: boom" in host.warnings()[0]
    assert host.get("criteria", "unique-with-givens").__class__ is SomeGivens


@fast
def test_what_a_criterion_or_grader_makes_is_checked_where_it_is_made():
    """A checker without ``first_with_other``, a grading without ``grade``: one line naming
    the plugin when the engine makes one, not an internal error later."""
    class NoFirst(CountingChecker):
        first_with_other = None

    class Careless(SomeGivens):
        def checker(self, engine, ptype, params, full):
            return NoFirst(self, engine, ptype, params)

    class Ungraded(Givens):
        def grader(self, engine, ptype, params, options):
            return object()
    host = fake_host()
    assert host.register(plugin([FirstAccepted()], [Careless()], [Ungraded()],
                                [FromTheContract()]), name="careless", version="1")
    engine = Engine(host, FakeBackend(ORACLES))
    ptype = host.get_type("contract_latin")
    params = engine.check_params(ptype, {})
    with pytest.raises(PluginError, match=re.escape(
            "plugin 'careless' criterion 'unique-with-givens' makes a checker whose "
            "'first_with_other' is not callable (see docs/plugin-authoring.md#criteria)")):
        engine.checker(ptype, params, (0,) * 16)
    from puzzle_engine.difficulty import make_grader
    with pytest.raises(PluginError, match=re.escape(
            "plugin 'careless' grader 'givens-count' makes a grading without 'grade' "
            "(see docs/plugin-authoring.md#graders)")):
        make_grader(engine, ptype, params, None)


@fast
def test_growing_s_bias_needs_a_grading_with_nodes():
    """``nodes`` is optional: a grader without it still grades, and growing's ``--bias``
    says in one line that it needs it."""
    class Nodeless:
        grade, close = GivensGrading.grade, GivensGrading.close

    class NoNodes(Givens):
        def grader(self, engine, ptype, params, options):
            return Nodeless()
    host = fake_host(fake_growing_latin={"grader": "givens-count"})
    assert host.register(plugin(graders=[NoNodes()]), name="nodeless", version="1")
    assert host.warnings() == []
    engine = Engine(host, FakeBackend(ORACLES))
    ptype = host.get_type("fake_growing_latin")
    params = engine.check_params(ptype, {})
    with pytest.raises(PluginError, match=re.escape(
            "plugin 'nodeless' grader 'givens-count' makes a grading without "
            "'nodes(instance, runs)', which --bias needs")):
        engine.generate(ptype, params, 1, {"bias": "harder"})


@fast
def test_growing_s_bias_measures_with_the_grader_s_own_options():
    """The strategy passes no grader's options class (``None``): the grader's defaults."""
    seen = []

    class Recording(Givens):
        def grader(self, engine, ptype, params, options):
            seen.append(options)
            return GivensGrading()
    host = fake_host(fake_growing_latin={"grader": "givens-count"})
    assert host.register(plugin(graders=[Recording()]), name="recording", version="1")
    engine = Engine(host, FakeBackend(ORACLES))
    ptype = host.get_type("fake_growing_latin")
    engine.generate(ptype, engine.check_params(ptype, {}), 1, {"bias": "harder"})
    assert seen == [None]
    growing = inspect.getsource(__import__("puzzle_engine.strategies.growing",
                                           fromlist=["x"]))
    assert "GradeOptions" not in growing


# -- the declarations ------------------------------------------------------------------------
@fast
def test_the_engine_s_base_classes_and_built_ins_follow_their_protocols():
    host = fake_host()
    for registry, protocol in (("strategies", hookspecs.Strategy),
                               ("criteria", hookspecs.Criterion),
                               ("graders", hookspecs.Grader)):
        for name, obj in host.registry(registry).items():
            assert lacks(obj, protocol) is None, (registry, name)
    assert lacks(CriterionBase(), hookspecs.Criterion) is None
    assert lacks(StrategyBase(), hookspecs.Strategy) is None


def signature_of(cls, name):
    value = inspect.getattr_static(cls, name)
    if isinstance(value, property):
        return None
    params = list(inspect.signature(value).parameters.values())[1:]
    return [(p.name, p.default) for p in params]


@fast
@pytest.mark.parametrize("protocol, implementation", [
    (hookspecs.EngineServices, Engine), (hookspecs.Registries, Host),
    (hookspecs.SolverService, Backend), (hookspecs.SolverService, FakeBackend)],
    ids=["engine", "host", "backend", "fake-backend"])
def test_the_engine_provides_the_services_it_declares(protocol, implementation):
    """Every method of the services protocol is the implementation's, with the same
    parameters and defaults; every data member is set by it."""
    init = inspect.getsource(implementation.__init__)
    for member in members(protocol):
        if member.signature is None:
            assert hasattr(implementation, member.name) or f"self.{member.name} =" in init, \
                member.name
            continue
        declared = [(p.name, p.default) for p in member.signature.parameters.values()]
        assert signature_of(implementation, member.name) == declared, member.name


@fast
def test_the_session_is_declared_once_in_the_contract():
    from puzzle_engine.solving import session
    assert session.Session is hookspecs.Session
    assert {m.name for m in members(hookspecs.Session)} == {
        "failed", "squares", "unfixed", "run", "count", "shaped", "close"}


def guide_members(section):
    """The members the guide's section ``### section`` lists: its backquoted names."""
    text = DOC.read_text()
    body = text.split(f"\n### {section}\n", 1)[1].split("\n#", 1)[0]
    listed = re.search(r"Members: (.*?)\.\s", body, re.DOTALL).group(1)
    return re.findall(r"`([a-z_]+)`", listed)


@fast
@pytest.mark.parametrize("section, protocol", [
    ("Strategies", hookspecs.Strategy), ("Criteria", hookspecs.Criterion),
    ("Graders", hookspecs.Grader)])
def test_the_guide_names_every_member_and_points_to_hookspecs(section, protocol):
    """The guide names the members hookspecs.py declares, no more and no fewer, and sends
    the reader to hookspecs.py for their signatures."""
    assert guide_members(section) == [m.name for m in members(protocol)]
    body = DOC.read_text().split(f"\n### {section}\n", 1)[1].split("\n#", 1)[0]
    assert f"`puzzle_engine.hookspecs.{protocol.__name__}`" in body


@fast
def test_a_newcomer_lists_every_member_from_hookspecs_alone():
    """Each protocol is written out in hookspecs.py itself (not imported there from
    elsewhere); test_contract_review checks each member's docstring and types."""
    source = inspect.getsource(hookspecs)
    for protocol in (hookspecs.Strategy, hookspecs.Criterion, hookspecs.Checker,
                     hookspecs.Grader, hookspecs.GradingSession, hookspecs.Session,
                     hookspecs.EngineServices):
        assert inspect.getsource(protocol) in source, protocol.__name__


# -- as a user meets it: an installed plugin, the command line ---------------------------------
SLOPPY = '''
from puzzle_engine import hookimpl
from puzzle_engine.criteria import Verdict
from puzzle_engine.types import Status
from puzzle_engine_plugins.sudoku import Sudoku

PUZZLE_ENGINE_CONTRACT = 3


class Lenient:
    """Contract 2's hookspec listed name, description and judge (and a contract-2 plugin's
    criterion is given the rest: tests/engine/test_v2compat.py); contract 3 requires them all."""
    name = "lenient"
    description = "accepts everything"

    def judge(self, engine, ptype, params, instance, limit=1):
        return Verdict(True, 1, Status.SAT)


class LenientSudoku(Sudoku):
    name = "lenient-sudoku"
    criterion = "lenient"


@hookimpl
def register_criteria(register):
    register(Lenient())


@hookimpl
def register_puzzle_types(register):
    register(LenientSudoku())
'''


def test_an_installed_criterion_without_refuted_by_is_one_line_not_an_internal_error(tmp_path):
    """Before contract v3 such a criterion registered, and ``gen`` then died as an
    internal error (AttributeError: no 'checker'). Now, in a contract-3 plugin: a warning
    at load, and a command on a type that names it stops with exit 2 and the same line
    (a contract-2 plugin's criterion is given the missing members: test_v2compat.py)."""
    import os
    import subprocess
    import sys
    (tmp_path / "sloppy_crit.py").write_text(SLOPPY)
    info = tmp_path / "sloppy_crit-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sloppy-crit\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzle_engine]\nsloppy = sloppy_crit\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    line = ("plugin 'sloppy' registers criterion 'lenient' without 'refuted_by' "
            "(see docs/plugin-authoring.md#criteria)")
    out = subprocess.run([sys.executable, "-m", "puzzle_engine", "gen", "lenient-sudoku",
                          "--size", "4", "--seed", "1"], env=env, capture_output=True,
                         text=True, timeout=300, cwd=tmp_path)
    assert (out.returncode, out.stdout) == (2, ""), out.stderr
    assert out.stderr.splitlines() == [
        f"puzzle-engine: warning: {line.replace(' registers', ' (from sloppy-crit 0.1) registers')}"
        "; ignored (the rest of the plugin is loaded)",
        f"puzzle-engine: error: {line}"]


@fast
def test_a_grader_need_not_describe_itself():
    """contract 2 asked a grader for ``name`` and ``grader`` alone: it still registers."""
    class Plain:
        name = "plain"

        def grader(self, engine, ptype, params, options):
            return GivensGrading()
    host = fake_host()
    assert host.register(plugin(graders=[Plain()]), name="plain", version="1")
    assert host.warnings() == [] and isinstance(host.get("graders", "plain"), Plain)


@fast
def test_every_built_in_grader_takes_no_options():
    """``options`` None is the grader's defaults (hookspecs.Grader), for every grader the
    engine ships."""
    host = fake_host()
    engine = Engine(host, FakeBackend(ORACLES))
    for name in ("multiple", "evolutionary"):
        ptype = host.get_type("polyomino-math" if name == "evolutionary" else "fake_own_latin")
        params = engine.check_params(ptype, {})
        grading = host.get("graders", name).grader(engine, ptype, params, None)
        assert grading.options.runs == 50 and grading.options.seed == 0
        grading.close()
