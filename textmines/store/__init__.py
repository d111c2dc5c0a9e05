"""Persistence: file locations, settings, statistics and saved games.

Nothing in this package imports Textual or Rich; the UI calls it at game boundaries.
"""
