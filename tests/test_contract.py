"""The contract is documented and the layering holds."""
import inspect
import re
from pathlib import Path

import pytest

import puzzle_engine
from puzzle_engine import hookspecs

ROOT = Path(__file__).resolve().parent.parent
ENGINE = Path(puzzle_engine.__file__).resolve().parent
HOOKS = [name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
         if name.startswith("puzzle_")]


def test_hooks_share_a_prefix_and_have_docstrings():
    assert len(HOOKS) >= 11
    for name in HOOKS:
        assert getattr(hookspecs, name).__doc__.strip(), name


@pytest.mark.parametrize("hook", HOOKS)
def test_every_hook_is_documented(hook):
    text = (ROOT / "docs" / "plugin-authoring.md").read_text()
    assert re.search(rf"\b{hook}\b", text), f"{hook} is not in docs/plugin-authoring.md"


def test_only_the_backend_imports_minizinc():
    importers = [p.name for p in ENGINE.glob("*.py")
                 if re.search(r"^\s*(import minizinc|from minizinc)", p.read_text(), re.M)]
    assert importers == ["backend.py"]


def test_randomness_comes_from_explicit_seeds():
    """No module-level random.* calls: every draw goes through a random.Random(seed)."""
    for path in list(ENGINE.glob("*.py")) + list((ROOT / "plugins").rglob("*.py")):
        text = path.read_text()
        assert not re.search(r"\brandom\.(random|choice|randrange|randint|shuffle|sample|seed)\(",
                             text), path
