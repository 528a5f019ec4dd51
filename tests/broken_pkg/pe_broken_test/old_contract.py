"""A plugin written for contract 1: ``puzzle_*`` hooks that check the type's name, and no
``PUZZLE_ENGINE_CONTRACT`` (contract 1 had none). The host must refuse it with a line that
points to the contract, never call its hooks, and carry on."""
from puzzle_engine import hookimpl

NAME = "old_latin"


@hookimpl
def puzzle_register_types(register):
    raise AssertionError("a contract-1 plugin's hooks must never be called")


@hookimpl
def puzzle_to_data(puzzle_type, params, board):
    if puzzle_type.name != NAME:
        return None
    raise AssertionError("a contract-1 plugin's hooks must never be called")
