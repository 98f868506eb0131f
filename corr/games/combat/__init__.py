"""SUDOKU-Combat (docs/rules/combat.md): tiles from a common supply, fields conquered by the
seat whose placement leaves a digit no place in them.

`rules` is the game, `bot` its computer opponents; its boards are
`templates/combat/board.txt` and `board.html`.
"""

from corr.games.combat.rules import Combat as GAME

__all__ = ["GAME"]
