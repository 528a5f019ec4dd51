"""Every back end answers the same ``Session`` protocol (engine/solving/session.py), and so
does the fast tier's fake solver: the same methods with the same parameters, so that a
control-flow test on the fake exercises the calls the engine makes of a real session."""
import inspect

import pytest

from puzzle_engine.solving.backend import IN_PROCESS, Backend
from puzzle_engine.solving.cpsat import SOLVER_ID as CPSAT
from puzzle_engine.solving.cpsat_session import CpsatSession
from puzzle_engine.solving.process import ProcessSession
from puzzle_engine.solving.sat import SOLVER_ID as SAT, SatSession
from puzzle_engine.solving.session import Session, WholeSession

from fake_solver import FakeBackend, FakeModel

PROTOCOL = [name for name, member in vars(Session).items()
            if not name.startswith("_") and (callable(member) or isinstance(member, property))]


def _parameters(cls, name):
    member = inspect.getattr_static(cls, name)
    if isinstance(member, property):
        return "property"
    return [(p.name, p.default) for p in inspect.signature(member).parameters.values()]


@pytest.mark.fast
@pytest.mark.parametrize("session", [ProcessSession, FakeModel, CpsatSession, SatSession],
                         ids=lambda cls: cls.__name__)
def test_a_session_has_the_protocols_methods_and_parameters(session):
    assert {"run", "count", "close", "squares", "unfixed", "shaped"} <= set(PROTOCOL)
    for name in PROTOCOL:
        assert hasattr(session, name), f"{session.__name__} lacks {name}"
        assert _parameters(session, name) == _parameters(Session, name), \
            f"{session.__name__}.{name} differs from the protocol"


@pytest.mark.fast
@pytest.mark.parametrize("session", [CpsatSession, SatSession], ids=lambda cls: cls.__name__)
def test_an_in_process_session_answers_whole_solves(session):
    assert {CPSAT, SAT} <= set(IN_PROCESS)
    assert _parameters(session, "outputs") == _parameters(WholeSession, "outputs")


@pytest.mark.fast
def test_the_fake_backend_offers_what_the_engine_asks_of_a_backend():
    for name in ("solve", "compile", "count_call", "solver_id"):
        real, fake = _parameters(Backend, name), _parameters(FakeBackend, name)
        assert real == fake, f"FakeBackend.{name}: {fake} != Backend.{name}: {real}"
