"""Combination's squares: their values in a board and their symbols in a level's text."""

EMPTY, WALL, HOLE = 0, 1, 2
SQUARE = {EMPTY: ".", WALL: "#", HOLE: "o"}
READ_SQUARE = {v: k for k, v in SQUARE.items()}
