"""Two-game matches (moyo 4.3): the revenge game and the match total.

Which games have matches, what a rematch changes and what a game adds to the total are
the games' business (`Game.revenge_options`, `match_points`, `match_options`).
"""

from __future__ import annotations

from typing import Any

from corr.engine import Replay
from corr.errors import UsageError


def revenge_options(old: Replay) -> dict[str, str]:
    """Options of the rematch of a finished game (moyo 4.3: the same puzzle and rules,
    colours and first move swapped)."""
    options = old.game.revenge_options(dict(old.header.options))  # refuses games without revenge
    if not old.result().over:
        raise UsageError("the game is not over yet: a revenge follows a finished game")
    return options


def match_total(first: Replay, second: Replay) -> dict[str, Any]:
    """The two-game total (moyo 4.2, 4.3: victory points); the higher total wins."""
    if first.header.game != second.header.game:
        raise UsageError(f"a match is two games of one kind, not {first.header.game} and {second.header.game}")
    games = []
    for rep in (first, second):
        if not rep.result().over:
            raise UsageError(f"{rep.log.path} is not finished")
        points = rep.game.match_points(rep.state)  # refuses games without matches
        result = rep.result()
        games.append({"file": str(rep.log.path), "id": rep.header.id, "winners": list(result.winners),
                      "victory_points": points})
    for key in first.game.match_options:
        if first.header.options[key] != second.header.options[key]:
            raise UsageError(f"the two games were not played with the same {key}")
    names = [(s.seat, s.name) for s in first.header.seats]
    if names != [(s.seat, s.name) for s in second.header.seats]:
        raise UsageError("the two games do not have the same players in the same seats")
    winners, total = first.game.match_winners([g["victory_points"] for g in games])
    return {"games": games, "total": total, "winners": list(winners)}
