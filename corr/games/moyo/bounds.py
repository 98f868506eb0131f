"""How many stones each Moyo seat can still place, at least and at most (3.2, 4.1).

After the opening (3.1) a seat places only into its own Shima, and the other seat can
take a digit from one of its places only by laying that digit on a place of its own
Shima in the same row or column (the two never share a field). So, per seat:

- at most: the most stones its Shima takes together (victory.py's count, with the row
  and column ties between its own areas), as if the other seat blocked nothing;
- at least: the same count over only the digits no place of the other seat's Shima in
  the same row or column could take: nothing can ever take those away (candidates only
  shrink), and they fit together whatever order they are laid in.

When the seats cannot block each other any more the two are equal. The seat on turn
that can surely place more stones than the other seat ever can wins (it never runs out
first, 4.1); the one that can place no more than the other surely can loses.
"""

from __future__ import annotations

from typing import Any

from corr.games.moyo.rules import AREA_CELLS, AZUMAYA, Moyo
from corr.games.moyo.victory import most_stones
from corr.geometry import PEERS

#: a division's places, by (units, owners): see Places
_MADE: dict[tuple[str, tuple[str | None, ...]], "Places"] = {}


class Places:
    """The Azumaya's places, each seat's Shima places, and for each Shima place the other
    seat's places in its row or column (its rivals)."""

    def __init__(self, units: str, owner: tuple[str | None, ...]) -> None:
        cells = AREA_CELLS[units]
        self.azumaya: tuple[int, ...] = cells[AZUMAYA]
        self.shima: dict[str, list[int]] = {}
        whose: dict[int, str] = {}
        for area in range(1, 10):
            seat = owner[area]
            if area != AZUMAYA and seat is not None:
                self.shima.setdefault(seat, []).extend(cells[area])
                whose.update(dict.fromkeys(cells[area], seat))
        self.rivals: list[tuple[int, ...]] = [
            tuple(p for p in PEERS[c] if p in whose and c in whose and whose[p] != whose[c]) for c in range(81)
        ]


def places(game: Moyo, state: Any) -> Places:
    """The places of this game's division (made once per division)."""
    key = (game.units, tuple(state.owner))
    got = _MADE.get(key)
    if got is None:
        got = _MADE[key] = Places(*key)
    return got


def opening(where: Places, cand: list[int]) -> bool:
    """3.1: a stone still fits the Azumaya (then every move goes there, and no bound holds)."""
    return any(cand[c] for c in where.azumaya)


def stones(where: Places, cand: list[int], seat: str) -> tuple[int, int]:
    """(at least, at most): the stones `seat` can still place in its Shima, after the opening."""
    mine = [c for c in where.shima.get(seat, ()) if cand[c]]
    high = most_stones(cand, (), mine)
    safe = list(cand)
    tied = False
    for c in mine:
        theirs = 0
        for p in where.rivals[c]:
            theirs |= cand[p]
        if cand[c] & theirs:
            safe[c] = cand[c] & ~theirs
            tied = True
    if not tied:
        return high, high
    return most_stones(safe, (), mine), high


def verdict(on_turn: tuple[int, int], waiting: tuple[int, int]) -> bool | None:
    """4.1 from the bounds of the seat on turn and the other: True when it surely wins,
    False when it surely loses, None when the bounds do not tell."""
    if on_turn[0] > waiting[1]:
        return True
    if on_turn[1] <= waiting[0]:
        return False
    return None
