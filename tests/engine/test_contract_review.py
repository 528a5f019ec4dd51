"""The contract as a newcomer reads it (issue 40): every facet method and every protocol
member is documented and typed in hookspecs.py, and docs/plugin-authoring.md names every
facet's methods in the facet's own section and every protocol of hookspecs.py."""
import re

import pytest

from puzzle_engine import hookspecs
from puzzle_engine.plugins import members
from support import ROOT

GUIDE = ROOT / "docs" / "plugin-authoring.md"
#: Every class of methods a type may have: the core, the codec, the opt-in facets and the
#: strategies' facets.
TYPE_CLASSES = (hookspecs.PuzzleType, hookspecs.Codec, hookspecs.Rules, *hookspecs.FACETS,
                hookspecs.Emptying, hookspecs.Growing, hookspecs.OwnGenerator)
PROTOCOLS = (hookspecs.Strategy, hookspecs.Criterion, hookspecs.Checker,
             hookspecs.RemovalChecker, hookspecs.Grader, hookspecs.GradingSession,
             hookspecs.GradeResult, hookspecs.Session, hookspecs.Registries,
             hookspecs.SolverService, hookspecs.EngineServices)


def own_methods(cls):
    return {name: value for name, value in vars(cls).items()
            if callable(value) and not name.startswith("_") and not isinstance(value, type)}


def section(heading_word: str) -> str:
    """The guide's text under the ``###`` heading that names `heading_word`, up to the
    next heading."""
    text = GUIDE.read_text()
    found = re.search(rf"^###? [^\n]*`{heading_word}`[^\n]*\n(.*?)(?=^#)", text, re.M | re.S)
    assert found, f"no section on {heading_word} in the guide"
    return found.group(1)


@pytest.mark.fast
@pytest.mark.parametrize("cls", TYPE_CLASSES, ids=lambda c: c.__name__)
def test_every_type_method_has_a_docstring_and_a_return_annotation(cls):
    methods = own_methods(cls)
    assert methods, cls
    for name, function in methods.items():
        assert (function.__doc__ or "").strip(), f"{cls.__name__}.{name} has no docstring"
        assert "return" in function.__annotations__, \
            f"{cls.__name__}.{name} has no return annotation"


@pytest.mark.fast
@pytest.mark.parametrize("cls", TYPE_CLASSES, ids=lambda c: c.__name__)
def test_the_guide_names_every_method_of_each_facet_in_its_section(cls):
    """``name(`` with its parameters, in the section headed by the facet's name."""
    body = section(cls.__name__)
    for name in own_methods(cls):
        assert f"`{name}(" in body, f"the guide's section on {cls.__name__} lacks {name}"


@pytest.mark.fast
@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda c: c.__name__)
def test_every_protocol_member_is_documented_typed_and_named_in_the_guide(protocol):
    text = GUIDE.read_text()
    assert f"`puzzle_engine.hookspecs.{protocol.__name__}`" in text or \
        f"`{protocol.__name__}`" in text, protocol
    for member in members(protocol):
        if member.signature is None:
            assert member.name in protocol.__annotations__ or isinstance(
                vars(protocol)[member.name], property), member.name
            continue
        function = vars(protocol)[member.name]
        assert (function.__doc__ or "").strip(), (protocol.__name__, member.name)
        assert "return" in function.__annotations__, (protocol.__name__, member.name)


@pytest.mark.fast
def test_the_contract_s_overview_names_every_protocol_and_facet():
    """The module docstring of hookspecs.py is the newcomer's map: it names each."""
    overview = hookspecs.__doc__
    for cls in (*PROTOCOLS, hookspecs.Codec, hookspecs.Rules, *hookspecs.FACETS):
        assert f"``{cls.__name__}``" in overview, cls.__name__


@pytest.mark.fast
def test_no_stale_contract_2_words_in_the_docs():
    """Contract 3's documents do not describe contract 2 as the current one."""
    root = GUIDE.parent
    assert "contract 2, every hook" not in (root / "index.md").read_text()
    migrating = GUIDE.read_text().split("## Migrating from contract v2", 1)[1]
    assert "refuted_by" in migrating and "make_options" in migrating
