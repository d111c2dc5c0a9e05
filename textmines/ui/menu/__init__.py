"""The menu bar, its drop-downs and the menus of the game."""
