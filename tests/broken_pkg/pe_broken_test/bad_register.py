"""Imports fine; declaring its types raises."""
from puzzle_engine import hookimpl


@hookimpl
def puzzle_register_types(register):
    raise RuntimeError("cannot declare types today")
