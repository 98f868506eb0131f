"""The solver's search: the board as one exact-cover bitset, singles found for all of it at once.

Sudoku is an exact cover: each of the 729 candidates (a digit in a cell) meets four of
324 constraints (the cell holds one digit; each row, column and field holds each digit
once). The state is one int with a 10-bit field per constraint (9 bits, one per
candidate that could meet it, and a guard bit), so every candidate is four bits. A few
big-int operations then look at all 324 fields together: a field with no bit left is a
contradiction, a field with one unplaced bit is a naked single (a cell field) or a
hidden single (a unit field), and placing a candidate is one AND with a precomputed
mask that drops every candidate it excludes. Python spends its time in C on 3,240-bit
ints instead of in a loop over cells and units, and a search node is an int, not a copy
of a list.

The search is the one a per-cell solver makes (naked and hidden singles until neither
fires, then the unsolved cell with fewest candidates, the first in reading order, its
digits in ascending order), so it visits the same nodes and finds the same solutions in
the same order.
"""

from __future__ import annotations

from typing import Iterator

from corr.geometry import UNITS

#: Fields: cells 0-80, then (unit u, digit d) at 81 + 9 * u + d - 1 for the 27 units of
#: geometry.UNITS. A field's bits are its candidates: a cell's in digit order, a unit's
#: by the cell's place in the unit.
_FIELDS = 81 + 27 * 9
_ONE = sum(1 << 10 * f for f in range(_FIELDS))  # bit 0 of every field
_GUARD = _ONE << 9  # the guard bit of every field
_NINE = _ONE * 511  # the nine candidate bits of every field
_CELLS = (1 << 810) - 1  # the 81 cell fields
_CELL_ONE = _ONE & _CELLS
_CELL_GUARD = _GUARD & _CELLS
_CELL_NINE = _NINE & _CELLS


def _build() -> tuple[list[int], list[int], list[int], list[int]]:
    """Per candidate c * 9 + d - 1: its four bits, and the state mask that places it
    (it stays, every candidate sharing a constraint with it goes); per bit position + 1,
    the candidate the bit belongs to."""
    owner = [-1] * (10 * _FIELDS + 1)
    positions: list[list[int]] = [[10 * c + d] for c in range(81) for d in range(9)]
    for u, (_, _, cells) in enumerate(UNITS):
        for place, c in enumerate(cells):
            for d in range(9):
                positions[c * 9 + d].append(10 * (81 + 9 * u + d) + place)
    bits = []
    for k, where in enumerate(positions):
        b = 0
        for i in where:
            b |= 1 << i
            owner[i + 1] = k
        bits.append(b)
    # every candidate of a cell, and of a digit in a unit: what placing a candidate excludes
    in_cell = [0] * 81
    in_unit = [0] * (27 * 9)
    for u, (_, _, cells) in enumerate(UNITS):
        for c in cells:
            for d in range(9):
                in_unit[9 * u + d] |= bits[c * 9 + d]
    for k, b in enumerate(bits):
        in_cell[k // 9] |= b
    keep = []
    for k, where in enumerate(positions):
        gone = in_cell[k // 9]
        for i in where[1:]:
            gone |= in_unit[i // 10 - 81]
        keep.append(_NINE & ~gone | bits[k])
    return bits, keep, [kp & ~b for kp, b in zip(keep, bits)], owner


#: _BITS[k]: candidate k's four bits; _KEEP[k]: AND it into a state to place k;
#: _DROP[k]: _KEEP[k] without k itself; _OWNER[bit position + 1]: the bit's candidate.
_BITS, _KEEP, _DROP, _OWNER = _build()


def _settle(state: int, open_: int) -> tuple[int, int] | None:
    """Place naked and hidden singles until none is left: the new state and its unplaced
    candidates, or None on a contradiction. `open_` holds the bits of the candidates not
    placed yet (a placed one stays the single bit of its four fields)."""
    one, guard, nine = _ONE, _GUARD, _NINE
    keep, drop, owner, bits = _KEEP, _DROP, _OWNER, _BITS
    while True:
        some = (state + nine) & guard  # guard set where a field has a candidate
        if some != guard:
            return None  # a cell without a digit, or a digit without a place in a unit
        more = state & ((state | guard) - one)  # each field without its lowest bit
        single = some ^ ((more + nine) & guard)
        new = state & open_ & ((single >> 9) * 511)
        if not new:
            return state, open_
        while new:
            k = owner[(new & -new).bit_length()]
            state &= keep[k]
            open_ &= ~bits[k]
            new &= drop[k]  # a single it excludes goes too; its emptied field shows next round


def _branch(state: int) -> int:
    """The unsolved cell with the fewest candidates, the first in reading order of those,
    or -1 when every cell is solved."""
    one, guard, nine = _CELL_ONE, _CELL_GUARD, _CELL_NINE
    cells = state & _CELLS
    rest = cells & ((cells | guard) - one)  # each cell field without its lowest bit
    if not rest:
        return -1
    many = (rest + nine) & guard  # cells with at least two candidates
    while True:
        rest &= (rest | guard) - one
        more = (rest + nine) & guard  # ... with at least one more
        exactly = many ^ more
        if exactly:
            return ((exactly & -exactly).bit_length() - 1) // 10
        many = more


def _start(cells: list[int]) -> tuple[int, int]:
    """The state with the givens placed, and its unplaced candidates."""
    state, open_ = _NINE, _NINE
    for c, d in enumerate(cells):
        if d:
            k = c * 9 + d - 1
            state &= _KEEP[k]
            open_ &= ~_BITS[k]
    return state, open_


def _digits(state: int) -> list[int]:
    """The 81 digits of a solved state."""
    return [((state >> 10 * c) & 511).bit_length() for c in range(81)]


def solutions(cells: list[int], limit: int) -> list[list[int]]:
    """Up to `limit` solutions of a puzzle (81 digits, 0 for empty), in search order."""
    found: list[list[int]] = []
    settled = _settle(*_start(cells)) if limit > 0 else None
    if settled is not None:
        _search(*settled, limit, found)
    return found


def _search(state: int, open_: int, limit: int, found: list[list[int]]) -> None:
    c = _branch(state)
    if c < 0:
        found.append(_digits(state))
        return
    for child in _children(state, open_, c):
        _search(*child, limit, found)
        if len(found) >= limit:
            return


def _children(state: int, open_: int, c: int) -> Iterator[tuple[int, int]]:
    """The settled positions after each digit cell `c` still takes, in ascending order of
    digit, leaving out those that contradict: the one branching rule of both searches."""
    digits = (state >> 10 * c) & 511
    while digits:
        low = digits & -digits
        digits ^= low
        k = c * 9 + low.bit_length() - 1
        child = _settle(state & _KEEP[k], open_ & ~_BITS[k])
        if child is not None:
            yield child


def count(cells: list[int], limit: int) -> int:
    """The number of solutions of a puzzle, exact up to `limit` (the search stops there)."""
    settled = _settle(*_start(cells)) if limit > 0 else None
    if settled is None:
        return 0
    counter = [0]
    _count(*settled, limit, counter)
    return counter[0]


def _count(state: int, open_: int, limit: int, counter: list[int]) -> None:
    c = _branch(state)
    if c < 0:
        counter[0] += 1
        return
    for child in _children(state, open_, c):
        _count(*child, limit, counter)
        if counter[0] >= limit:
            return
