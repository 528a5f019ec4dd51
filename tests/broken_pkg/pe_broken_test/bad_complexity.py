"""Imports fine; declaring its complexity functions raises."""
from puzzle_engine import hookimpl


@hookimpl
def puzzle_register_complexities(register):
    raise RuntimeError("no complexity here")
