"""MiniZinc models shipped with puzzle-engine's built-in plugins (read via importlib.resources)."""
