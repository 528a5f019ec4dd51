"""Three small third-party style plugins, one per puzzle shape of contract 3, used by
tests/engine/test_shapes.py. Each module is a plugin on its own (``PUZZLE_ENGINE_CONTRACT = 3``
and a ``register_puzzle_types`` hook) and uses only the public ``puzzle_engine`` API:

* ``rooks``: peaceful rooks of two colours, grown one rook at a time (strategy
  ``growing``), unique up to swapping the colours (``unique-modulo-symmetry``);
* ``dominoes``: a domino packing of most weight, drawn by the type itself (``own``),
  whose optimum must be reached by one packing only (``unique-optimum``);
* ``riddle``: an arithmetic riddle with options, drawn by the type itself (``own``),
  whose one correct option holds in every solution while each other holds in none
  (``unique-answer``).
"""
from . import dominoes, riddle, rooks

PLUGINS = {"shape_rooks": rooks, "shape_dominoes": dominoes, "shape_riddle": riddle}
VERSION = "0.0.shapes"


def register_all(host) -> None:
    """Register the three plugins on ``host`` (a host from ``get_host()``)."""
    for name, module in PLUGINS.items():
        if not host.register(module, name=name, version=VERSION):
            raise RuntimeError(f"plugin {name} was refused: {host.failures[-1].error}")
