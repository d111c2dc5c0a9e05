"""The keys: the game's bindings in the order help lists them, and the player's key map."""
