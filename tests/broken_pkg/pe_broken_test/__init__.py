"""Plugins that break in different ways."""
