"""How many stones each Moyo seat can still place, at least and at most (3.2, 4.1).

After the opening (3.1) a seat places only into its own Shima, and the other seat can
take a digit from one of its places only by laying that digit on a place of its own
Shima in the same row or column (the two never share a field). So, per seat:

- at most: the most stones its Shima takes together (victory.py's count, with the row
  and column ties between its own areas), as if the other seat blocked nothing;
- at least: the same count over only the digits no place of the other seat's Shima in
  the same row or column could take: nothing can ever take those away (candidates only
  shrink), and they fit together whatever order they are laid in.

Both counts are exact up to EXACT_UP_TO open places in the Shima; a larger Shima (early
after the opening) would make one count cost tens of milliseconds, so there the most is
bounded from above by matchings (no row, column or field takes more than a matching of
its places to digits) and the least from below by stones laid one by one, each on the
place with the fewest digits left: still bounds, only looser. When the seats cannot
block each other any more the two are equal. The seat on turn
that can surely place more stones than the other seat ever can wins (it never runs out
first, 4.1); the one that can place no more than the other surely can loses.
"""

from __future__ import annotations

from typing import Any

from corr.games.moyo.rules import AREA_CELLS, AZUMAYA, Moyo
from corr.games.moyo.victory import POP, matching, most_stones
from corr.geometry import COL_CELLS, FIELD_CELLS, PEERS, ROW_CELLS

#: the most open places of a Shima whose stones are counted exactly (see above)
EXACT_UP_TO = 12
#: the rows, the columns and the fields, each as its nine cells
_UNITS = (ROW_CELLS, COL_CELLS, FIELD_CELLS[1:])

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
    exact = len(mine) <= EXACT_UP_TO
    high = most_stones(cand, (), mine) if exact else _at_most(cand, mine)
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
        return (high if exact else _at_least(cand, mine)), high
    return (most_stones(safe, (), mine) if exact else _at_least(safe, mine)), high


def _at_most(cand: list[int], cells: list[int]) -> int:
    """No more stones than the fewest a matching allows, summed over the rows, the
    columns or the fields."""
    inside = set(cells)
    return min(
        sum(matching([cand[c] for c in unit if c in inside and cand[c]]) for unit in units) for units in _UNITS
    )


def _at_least(cand: list[int], cells: list[int]) -> int:
    """Stones that surely fit together: laid one by one, each on the open place with the
    fewest digits left, its lowest digit, taken from the places in its row, column and
    field."""
    left = {c: cand[c] for c in cells if cand[c]}
    laid = 0
    while left:
        cell = min(left, key=lambda c: POP[left[c]])
        mask = left.pop(cell)
        if not mask:
            continue
        laid += 1
        keep = ~(mask & -mask)
        for p in PEERS[cell]:
            if p in left:
                left[p] &= keep
    return laid


def verdict(on_turn: tuple[int, int], waiting: tuple[int, int]) -> bool | None:
    """4.1 from the bounds of the seat on turn and the other: True when it surely wins,
    False when it surely loses, None when the bounds do not tell."""
    if on_turn[0] > waiting[1]:
        return True
    if on_turn[1] <= waiting[0]:
        return False
    return None
