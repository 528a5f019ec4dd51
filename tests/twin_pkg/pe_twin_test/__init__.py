"""Test plugins for the loading rules of issue 38 (tests/engine/test_plugin_loading.py)."""
