"""Imports fine (contract 3); registering its puzzle types raises."""
from puzzle_engine import hookimpl

PUZZLE_ENGINE_CONTRACT = 3


@hookimpl
def register_puzzle_types(register):
    raise RuntimeError("cannot declare types today")
