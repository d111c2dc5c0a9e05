"""The board: BoardView, its lines drawn from the view, the looks of its cells, the tile sizes
and its scroll bars."""
