"""СуДоку, the card-scoring game (docs/rules/cards.md): hidden hands dealt by a dealer who
commits to the shuffle and reveals it at the end.

`rules` is the game, `bot` its computer opponents; its boards are
`templates/cards/board.txt` and `board.html`.
"""

from corr.games.cards.rules import Cards as GAME

__all__ = ["GAME"]
