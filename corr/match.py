"""Two-game matches (Moyo 4.3): the revenge game and the match total."""

from __future__ import annotations

from typing import Any

from corr.engine import Replay
from corr.errors import UsageError

def revenge_options(old: Replay) -> dict[str, str]:
    """Options of the rematch: the same puzzle and rules with colours and first move
    swapped (moyo 4.3). Only a finished Moyo game has a revenge."""
    if old.header.game != "moyo":
        raise UsageError(f"a revenge game follows a Moyo game, not {old.header.game}")
    if not old.result().over:
        raise UsageError("the game is not over yet: a revenge follows a finished game")
    from corr.games.moyo import revenge_options as swapped

    return swapped(dict(old.header.options))


def match_total(first: Replay, second: Replay) -> dict[str, Any]:
    """The two-game total of victory points (moyo 4.2, 4.3); the higher total wins."""
    for rep in (first, second):
        if rep.header.game != "moyo":
            raise UsageError(f"{rep.log.path} is not a Moyo game")
        if not rep.result().over:
            raise UsageError(f"{rep.log.path} is not finished")
    if first.header.options["puzzle"] != second.header.options["puzzle"]:
        raise UsageError("the two games were not played on the same puzzle")
    names = [(s.seat, s.name) for s in first.header.seats]
    if names != [(s.seat, s.name) for s in second.header.seats]:
        raise UsageError("the two games do not have the same players in the same seats")
    from corr.games.moyo import match_winners

    games = []
    for rep in (first, second):
        points = rep.game.describe(rep.state).get("victory_points") or {}
        result = rep.result()
        games.append({"file": str(rep.log.path), "id": rep.header.id, "winners": list(result.winners),
                      "victory_points": points})
    winners, total = match_winners([g["victory_points"] for g in games])
    return {"games": games, "total": total, "winners": list(winners)}
