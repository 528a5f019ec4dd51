"""Implements a hook that does not exist (a misspelt name)."""
from puzzle_engine import hookimpl


@hookimpl
def puzzle_registr_types(register):
    pass
