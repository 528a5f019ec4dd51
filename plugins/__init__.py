"""Built-in puzzle plugins. Each sub-package is registered through the `puzzle_engine` entry-point group."""
