"""The panel and what is in it besides the board: the header, the face, the LED counters,
the status line, and the covers that stand in for the board."""
