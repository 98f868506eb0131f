"""corr: a correspondence engine for competitive Sudoku games.

A game is an append-only log of records; replay rebuilds every position from it.
"""

__version__ = "0.1.0"
