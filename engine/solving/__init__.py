"""Solving: solver discovery (``discovery``, ``registration``), answers (``results``), the
FlatZinc reader (``flatzinc``), models compiled once and cached (``compiled``), and the
session protocol every back end answers (``session``): processes (``process``), CP-SAT
(``cpsat``, ``cpsat_api``, ``cpsat_session``) and SAT (``cnf``, ``sat``) in this process;
the ``Backend`` that picks one by configuration, and the uniqueness checker of grid
puzzles (``checker``). docs/solvers.md has the map."""
