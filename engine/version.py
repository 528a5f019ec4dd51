"""This engine's version, as its installed distribution declares it (records and level
models carry it). A leaf: every layer may read it without importing the package's root,
which re-exports the plugin-facing names of higher layers."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("puzzle-engine")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"
