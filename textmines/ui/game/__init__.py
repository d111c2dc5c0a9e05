"""The game's screen and what runs it: the flow of a game, help (hints, autoplay, the overlay),
the zoom, the options, replays, the background review, the player's keys."""
