import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable

import pytest

from puzzle_engine.solving.backend import Backend
from puzzle_engine.solving.compiled import CACHE_ENV
from puzzle_engine.engine import Engine
from puzzle_engine.plugins import get_host

from support import SOLVERS, installed

# tests/engine/solving/test_fake_solver.py runs a test session of its own
pytest_plugins = ["pytester"]

# The FlatZinc cache of this test session (the CLI tests' subprocesses inherit it), never
# the user's.
os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="puzzle-engine-test-fzn-")
atexit.register(shutil.rmtree, os.environ[CACHE_ENV], ignore_errors=True)


@pytest.fixture
def exact_solver(request) -> str:
    """The exact solver a test is parametrized with (``indirect=True``); the test is
    skipped, saying so, when that solver is not installed."""
    if not installed(request.param):
        pytest.skip(f"solver '{request.param}' is not installed ('puzzle-engine solvers' "
                    "does not list it)")
    return request.param


@pytest.fixture(scope="session")
def host():
    return get_host()


@pytest.fixture(scope="session")
def engines(host):
    """One engine per real solver, with no time limit (tests must not depend on speed)."""
    return {s: Engine(host, Backend(s, time_limit=None)) for s in SOLVERS}


@pytest.fixture(scope="session")
def sudoku(host):
    return host.get_type("sudoku")


@pytest.fixture(scope="module")
def cpsat_engine(host):
    return Engine(host, Backend("cp-sat"))


@pytest.fixture(scope="module")
def fillomino(host):
    return host.get_type("fillomino")


@pytest.fixture(scope="module")
def chuffed(host):
    return Engine(host, Backend("chuffed", free_search=True, time_limit=None))


@pytest.fixture(scope="module")
def gecode(host):
    return Engine(host, Backend("gecode", time_limit=None))


# -- the fast tier ------------------------------------------------------------------------------
# A test marked ``fast`` runs without a solver: ``scripts/test.sh --fast`` runs only these,
# on a machine where MiniZinc may not even be installed. While one runs, everything that
# would start a solver is refused and recorded, and a recorded attempt fails the test (even
# when the engine turned the refusal into an error message of its own).
STARTED = pytest.StashKey[list]()
#: Programs that are solvers, or start one: MiniZinc, a FlatZinc executable (fzn-gecode,
#: fzn-chuffed, the CP-SAT wrapper), the engine's guarded MiniZinc script, the CP-SAT module.
SOLVER_PROGRAM = re.compile(r"(^|[/\s])(minizinc|fzn-[\w.-]+|guarded-[\w.-]+)(\s|$)|"
                            r"puzzle_engine\.solving\.cpsat")


def _bound_to(function) -> list:
    """The loaded modules of the package that hold ``function`` under its name."""
    return [m for name, m in list(sys.modules.items())
            if name.split(".")[0] == "puzzle_engine"
            and getattr(m, function.__name__, None) is function]


def _forbid_solvers(mp: pytest.MonkeyPatch) -> tuple[list[str], Callable[[], None]]:
    """Refuse solvers (see above). Returns the attempts, as they are made, and a function
    that puts back what a module imported during the test took from the refusals."""
    from puzzle_engine.solving import cpsat, discovery
    started: list[str] = []

    def refuse(what: str):
        started.append(what)
        raise SolverStarted(f"a fast test started a solver: {what}")

    popen_init = subprocess.Popen.__init__

    def guarded_popen(self, args, *rest, **kwargs):
        words = [args] if isinstance(args, (str, bytes, os.PathLike)) else list(args)
        line = " ".join(os.fsdecode(w) for w in words)
        if SOLVER_PROGRAM.search(line):
            refuse(f"the process {line[:200]!r}")
        popen_init(self, args, *rest, **kwargs)

    def installed_solvers():
        refuse("the installed solvers' list")

    mp.setattr(subprocess.Popen, "__init__", guarded_popen)
    # The solver list is cached per process: a fast test must not lean on another test's.
    # It is refused wherever the package took it by name (the backend, the CLI).
    original = discovery.installed_solvers
    installed_solvers.__name__ = original.__name__
    for module in _bound_to(original):
        mp.setattr(module, original.__name__, installed_solvers)
    mp.setattr(cpsat, "solve", lambda *a, **k: refuse("CP-SAT, in this process"))

    def restore():
        for module in _bound_to(installed_solvers):
            setattr(module, original.__name__, original)
    return started, restore


class SolverStarted(AssertionError):
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if item.get_closest_marker("fast") is None:
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        item.stash[STARTED], restore = _forbid_solvers(mp)
        yield
    restore()


@pytest.fixture(autouse=True)
def _fast_tests_start_no_solver(request):
    yield
    started = request.node.stash.get(STARTED, [])
    if started:
        pytest.fail(f"a test marked fast started a solver: {started[0]}", pytrace=False)


CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole test session (Debian's, driven by Selenium
    through Debian's chromedriver; scripts/test.sh installs both), shared by every module
    that plays a page, so that each pytest worker starts it once."""
    # lazy: only the modules that play a page need Selenium
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.TemporaryDirectory(prefix="puzzle-engine-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--user-data-dir={profile.name}", "--window-size=1000,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        profile.cleanup()


@pytest.fixture(scope="session")
def browser(chromium):
    """The session's Chromium, as the modules that play a page name it."""
    return chromium
