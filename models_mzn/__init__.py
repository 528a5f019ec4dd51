"""MiniZinc solver libraries shared by every puzzle (read via importlib.resources): the
redefinitions of globals for the SAT (``sat/``), CP-SAT (``cpsat/``) and explaining
(``explain/``) back ends. No puzzle's model lives here: each ships in its plugin's package."""
