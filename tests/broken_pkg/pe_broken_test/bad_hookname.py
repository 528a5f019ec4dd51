"""Contract 2, but implements a hook that does not exist (a misspelt name)."""
from puzzle_engine import hookimpl

PUZZLE_ENGINE_CONTRACT = 3


@hookimpl
def register_puzle_types(register):  # misspelt: the hook is register_puzzle_types
    pass
