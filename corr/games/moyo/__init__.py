"""Sudoku Moyo (docs/rules/moyo.md), with Horikomi, divisions, draft, handicap and matches.

`rules` is the game, `victory` the exact count of the stones a seat can still place
(victory points, 4.2), `check` the puzzle advice of rule 6, `bot` its computer
opponents; its boards are `templates/moyo/board.txt` and `board.html`.
"""

from corr.games.moyo.rules import Moyo as GAME

__all__ = ["GAME"]
