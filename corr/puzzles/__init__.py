"""Sudoku puzzles: the Moyo rulebook's appendix, puzzle strings, and the solver."""
