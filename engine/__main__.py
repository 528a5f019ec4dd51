"""``python -m puzzle_engine``: the ``puzzle-engine`` command (where the virtual
environment's ``bin`` is not on PATH)."""
from .cli import main

if __name__ == "__main__":
    main()
