"""A plugin's sessions (``checker.session(data)``, ``Engine.session``) on the fake solver:
a type that decides every removal by its own questions to a session gets the puzzle the
engine's checker gives, through one session per data for the engine's life, which the
engine closes when it closes (the plugin never does); data that is not a mapping is the
plugin's error, one line naming it."""
import pytest

from puzzle_engine.engine import Engine
from puzzle_engine.errors import PluginError
from puzzle_engine.plugins import get_host
from puzzle_engine.strategies import GenOptions

from fake_solver import LATIN, FakeBackend
from support import ToyLatin, ToyLatinType, plugin

pytestmark = pytest.mark.fast

NAME = "session_latin"
MODES = {"one by one": GenOptions(batch=1),
         "batch 16, probes 2": GenOptions(batch=16, probes=2)}


class SessionLatin(ToyLatinType):
    """Latin squares whose isRemoveValid asks a session: another solution that differs
    from the full board at the emptied square?"""

    name = NAME
    sessions: list = []  # every session the hook was given, in order
    data = None          # what the hook passes to checker.session (None: its own data)

    def is_remove_valid(self, params, board, index, solution, checker, max_solutions):
        data = self.data if self.data is not None else \
            self.to_data(params, (0,) * len(board), None)
        session = checker.session(data)
        self.sessions.append(session)
        run = session.run(board, differs=solution, differs_at=(index,))
        assert run.complete  # the fake solver times out only when scripted to
        checker.note("session")
        return run.found == 0


@pytest.fixture
def host():
    host = get_host()
    SessionLatin.sessions = []
    SessionLatin.data = None
    host.register(plugin(lambda register: register(SessionLatin())),
                  name="session_plugin", version="0.0.test")
    host.register(ToyLatin(), name="toy_latin", version="0.0.test")
    return host


def engine_on(host):
    return Engine(host, FakeBackend({NAME: LATIN, "toy_latin": LATIN}))


@pytest.mark.parametrize("mode", MODES)
def test_a_plugins_session_is_opened_once_and_closed_with_the_engine(host, mode):
    ptype = host.get_type(NAME)
    engine = engine_on(host)
    params = engine.check_params(ptype, {"size": 4})
    compiled = engine.backend.compiled
    puzzle = engine.generate(ptype, params, 3, MODES[mode]).puzzle
    # The same puzzle as the engine's own checker makes of the same seed.
    expected = engine_on(host).generate(host.get_type("toy_latin"), params, 3,
                                        MODES[mode]).puzzle
    assert puzzle.grid == expected.grid and puzzle.minimal
    assert set(puzzle.extra["removals"]) <= {"session", "type"}
    asked = SessionLatin.sessions
    assert asked and all(s is asked[0] for s in asked)  # one session, kept between hooks
    session = asked[0]
    assert not session.closed  # the plugin never closes it; it outlives the puzzle
    assert engine.session(ptype, ptype.to_data(params, (0,) * 16, None)) is session
    # A session opened at the first hook call (and the checker's own compiled model).
    assert engine.backend.compiled - compiled <= 2
    engine.close()
    assert session.closed
    with pytest.raises(RuntimeError):
        session.run((0,) * 16)


def test_session_data_that_is_not_a_mapping_is_the_plugins_error(host):
    ptype = host.get_type(NAME)
    SessionLatin.data = [("n", 4)]
    engine = engine_on(host)
    params = engine.check_params(ptype, {"size": 4})
    with pytest.raises(PluginError) as caught:
        engine.generate(ptype, params, 3, GenOptions(batch=1))
    message = str(caught.value)
    assert "session_plugin" in message and "is_remove_valid" in message
    assert "session data must be a mapping of MiniZinc data, not list" in message
    engine.close()
