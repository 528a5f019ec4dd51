"""A careless plugin: a hook that returns the wrong kind of value is one line that names
the hook, the puzzle type and its plugin, never a traceback and never a wrong puzzle
(``is_remove_valid`` answering "yes" once emptied the whole board and exited 0).

A row is ``(hook, value, words)``: a plugin whose ``tryfirst`` hook returns ``value`` for
the toy Latin-square type of test_inline_plugin, and what the error must say."""
import pytest

from puzzle_engine import Parsed, hookimpl
from puzzle_engine.errors import PluginError
from puzzle_engine.genpuzzles import GenOptions
from test_inline_plugin import TYPE, ToyLatin

N = 16  # a 4x4 toy board
ROWS = [
    ("puzzle_random_solution", ["1"] * N, "not a full board of 16 whole numbers from 1"),
    ("puzzle_random_solution", [1] * 15, "not a full board of 16"),
    ("puzzle_random_solution", [0] * N, "not a full board of 16"),
    ("puzzle_random_solution", [True] * N, "not a full board of 16"),
    ("puzzle_random_solution", 7, "returned 7, not a full board"),
    ("puzzle_is_remove_valid", "yes", "returned 'yes', not True or False"),
    ("puzzle_is_remove_valid", [], "returned [], not True or False"),
    ("puzzle_to_data", ["n", 4], "not a mapping of MiniZinc data"),
    ("puzzle_format", 42, "returned 42, not text"),
    ("puzzle_parse", (("size", 4), (0,) * N), "not a Parsed(params, board)"),
    ("puzzle_parse", Parsed({"size": 4}, ("1",) * N), "not a board of 16 whole numbers"),
    ("puzzle_from_solution", "1234", "not a full board of 16"),
]


def careless(hook, value):
    """A plugin whose ``hook`` answers ``value`` for the toy type first."""
    def answer(self, puzzle_type, **kwargs):
        return value if puzzle_type.name == TYPE else None
    answer.__name__ = hook
    return type("Careless", (), {hook: hookimpl(tryfirst=True)(answer)})()


@pytest.fixture
def host():
    from puzzle_engine.plugins import get_host
    host = get_host()
    host.register(ToyLatin(), name="toy_latin", version="0.0.test")
    return host


@pytest.mark.parametrize("hook, value, words", ROWS, ids=lambda x: str(x)[:40])
def test_a_bad_hook_result_is_one_line_naming_the_plugin(host, hook, value, words):
    from puzzle_engine.backend import Backend
    from puzzle_engine.cli import _parse, _render
    from puzzle_engine.genpuzzles import Engine
    host.register(careless(hook, value), name="careless")
    engine = Engine(host, Backend("gecode"))
    ptype = host.get_type(TYPE)
    params = ptype.canonical_params({"size": 4})
    with pytest.raises(PluginError) as caught:
        if hook == "puzzle_format":
            _render(engine, ptype, params, (0,) * N, "line")
        elif hook == "puzzle_parse":
            _parse(engine, ptype, params, "." * N)
        elif hook == "puzzle_from_solution":
            engine.solve(ptype, params, (0,) * N)
        else:
            engine.generate(ptype, params, 1, GenOptions(batch=1))
    message = str(caught.value)
    assert "\n" not in message
    assert f"hook {hook} (puzzle '{TYPE}', plugin 'toy_latin')" in message
    assert words in message
    engine.close()
