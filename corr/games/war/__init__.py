"""Sudoku War (docs/rules/war.md): a chess variant of numbers under the Sudoku rule, with
Stars, Correctors, Leaps, Knights and Immobilizers.

`rules` is the game, `bot` its computer opponents; its boards are
`templates/war/board.txt` and `board.html`.
"""

from corr.games.war.rules import War as GAME

__all__ = ["GAME"]
