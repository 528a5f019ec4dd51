"""Imports fine (contract 3); registering its complexity functions raises."""
from puzzle_engine import hookimpl

PUZZLE_ENGINE_CONTRACT = 3


@hookimpl
def register_complexities(register):
    raise RuntimeError("no complexity here")
