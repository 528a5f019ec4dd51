"""Plugins that break in different ways: each entry point in pyproject.toml is one."""
