"""Solving: the MiniZinc backend (``backend``: whole solves, and models flattened once for
many checks), the compiled uniqueness check of grid puzzles (``checker``), and CP-SAT run
in-process as one more FlatZinc solver (``cpsat``)."""
