"""Leaderboards that rank only what a replay proves (issue 49): the boards a host deals for a
challenge (``boards``), and the check that a replay wins exactly that board (``verify``).
Pure Python: no Textual, no web server."""
