"""Sudoku Domino (docs/rules/domino.md): alone, or a duel on the same deal, each seat on its
own board.

`rules` is the game, `deal` the seeded generator of the start and the digit order
(7.1), `bot` its computer opponents; its boards are `templates/domino/board.txt` and
`board.html`.
"""

from corr.games.domino.rules import Domino as GAME

__all__ = ["GAME"]
