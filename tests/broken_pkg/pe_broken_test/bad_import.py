"""Fails at import."""
raise ImportError("this plugin needs a library that is not installed")
