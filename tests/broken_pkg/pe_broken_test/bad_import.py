"""Written for contract 2, but fails at import."""
PUZZLE_ENGINE_CONTRACT = 2

raise ImportError("this plugin needs a library that is not installed")
