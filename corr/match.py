"""Two-game matches (moyo 4.3): the revenge game and the match total.

Which games have matches, what a rematch changes and what a game adds to the total are
the games' business (`Game.revenge_options`, `match_points`, `match_winners`). A match
is exactly a game and its revenge: the same game, players and options, with the roles
the rematch swaps swapped; anything else is refused, naming what is wrong.
"""

from __future__ import annotations

from typing import Any

from corr.engine import Position
from corr.errors import UsageError


def revenge_options(old: Position) -> dict[str, str]:
    """Options of the rematch of a finished game (moyo 4.3: the same puzzle and rules,
    every role swapped)."""
    options = old.game.revenge_options(dict(old.header.options))  # refuses games without revenge
    if not old.result().over:
        raise UsageError("the game is not over yet: a revenge follows a finished game")
    return options


def _value(key: str, value: str | None) -> str:
    """An option's value for a message: a long puzzle string cut short; an absent
    first_pick is A, its default (kept out of headers)."""
    if value is None:
        return "unset" if key != "first_pick" else "A"
    return value if len(value) <= 20 else f"{value[:12]}..."


def check_pair(first: Position, second: Position) -> None:
    """Refuse two games that are not a game and its revenge (moyo 4.3 rulings)."""
    one, two = first.header, second.header
    if one.game != two.game:
        raise UsageError(f"a match is two games of one kind, not {one.game} and {two.game}")
    revenge = first.game.revenge_options(dict(one.options))  # refuses games without matches
    if one.id == two.id:
        raise UsageError(f"both files are the same game ({one.id}): a match is a game and its revenge, "
                         "not one game twice (4.3)")
    names = [(s.seat, s.name) for s in one.seats]
    if names != [(s.seat, s.name) for s in two.seats]:
        who = lambda h: ", ".join(f"{s.seat} {s.name}" for s in h.seats)  # noqa: E731
        raise UsageError(f"the two games do not have the same players in the same seats ({who(one)}; {who(two)}) (4.3)")
    theirs = dict(two.options)
    roles = sorted(k for k in set(revenge) | set(one.options) if revenge.get(k) != one.options.get(k))
    for key in sorted(set(revenge) | set(theirs)):
        if key in roles or revenge.get(key) == theirs.get(key):
            continue
        if key == "puzzle":
            raise UsageError("the two games were not played on the same puzzle: "
                             "a match is a game and its revenge (4.3)")
        raise UsageError(f"the two games were not played with the same {key} ({_value(key, one.options.get(key))} "
                         f"and {_value(key, theirs.get(key))}): a match is a game and its revenge (4.3)")
    kept = [k for k in roles if revenge.get(k) != theirs.get(k)]
    if kept:
        same = ", ".join(f"{k}={_value(k, theirs.get(k))}" for k in kept)
        raise UsageError(f"the roles are not swapped: {same} in both games; a revenge swaps "
                         f"{', '.join(roles)} (4.3)")


def match_total(first: Position, second: Position) -> dict[str, Any]:
    """The match of a game and its revenge (moyo 4.2, 4.3): each game's points - a game
    lost by a timeout or a ruling counted from the position at that moment - the totals
    and the winners (all seats: a draw)."""
    check_pair(first, second)
    for rep in (first, second):
        if not rep.result().over:
            raise UsageError(f"{rep.log.path} is not finished: a match totals two finished games")
    games, points = [], []
    for rep in (first, second):
        forfeit = {"seat": rep.forfeit, "cause": rep.forfeit_cause} if rep.forfeit else None
        points.append(rep.match_points())
        games.append({"file": str(rep.log.path), "id": rep.header.id, "winners": list(rep.result().winners),
                      "forfeit": forfeit, **points[-1]})
    return {"games": games, **first.game.match_winners(points)}
