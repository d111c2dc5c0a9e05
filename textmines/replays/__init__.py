"""Replays: the recording of a game (what the statistics keep), and replay files of other
programs (.evf, .avf, .rmv, .mvf). Pure Python below the UI; never imports Textual."""
