"""Test plugins for the loading rules of issue 38 (tests/test_plugin_loading.py)."""
