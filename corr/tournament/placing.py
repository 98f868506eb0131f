"""A finished game's places, and the points they are worth in an event.

Every game of an event is scored as games between each two players at its table: the
one placed higher takes 1 point from that pair, equal places take half a point each. At
a table of two that is the usual 1, ½ or 0; at a table of N the winner takes N-1 points
and the last 0, and the crosstable holds what each player took from each other.
"""

from __future__ import annotations

from typing import Any, Sequence


def places(seats: Sequence[str], result: dict[str, Any]) -> list[int]:
    """Each seat's place (1 is first; equal seats share a place, the next place is
    skipped) from an audit's result: the winners first, then the others by score, a seat
    that forfeited (timeout, resignation) last."""
    winners = set(result["winners"])
    forfeit = (result.get("forfeit") or {}).get("seat")
    scores = result["scores"]

    def rank(seat: str) -> tuple[int, int]:
        if seat in winners:
            return (2, 0)
        if seat == forfeit:
            return (0, 0)
        return (1, scores.get(seat, 0))

    keys = [rank(s) for s in seats]
    return [1 + sum(other > key for other in keys) for key in keys]


def pair_points(mine: int, theirs: int) -> float:
    """What a place takes from one other player's place at the same table."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def forfeited(count: int, loser: int) -> list[int]:
    """Places at a table of `count` where the seat at index `loser` forfeits: the others
    share the first place."""
    return [count if i == loser else 1 for i in range(count)]
