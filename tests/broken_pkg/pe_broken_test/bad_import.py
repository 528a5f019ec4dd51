"""Written for contract 3, but fails at import."""
PUZZLE_ENGINE_CONTRACT = 3

raise ImportError("this plugin needs a library that is not installed")
