"""Fixtures for the UI tests; the shared helpers live in tests/helpers.py."""
