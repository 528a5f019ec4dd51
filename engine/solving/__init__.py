"""Solving: solver discovery (``discovery``), answers (``results``), the FlatZinc reader
(``flatzinc``), models compiled once and cached (``compiled``), the session protocol every
back end answers (``session``): processes (``process``) and CP-SAT in this process
(``cpsat``); the ``Backend`` that picks one by configuration, and the uniqueness
checker of grid puzzles (``checker``)."""
