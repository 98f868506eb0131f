"""What the searching computer opponents (War's, Moyo's) share: won and lost scores kept in a
transposition table.

A win found `ply` moves below the root is worth less the further away it is, so the
search prefers the quickest win. A table entry is reached by many paths at many depths,
so it stores a win counted from its own node and each reader adds its own distance.
"""

from __future__ import annotations


def to_table(value: int, ply: int, win: int, zone: int) -> int:
    """A score as the table keeps it: a won or lost score counted from this node."""
    if value > win - zone:
        return value + ply
    if value < -win + zone:
        return value - ply
    return value


def from_table(value: int, ply: int, win: int, zone: int) -> int:
    """A score read from the table, counted from the root again."""
    if value > win - zone:
        return value - ply
    if value < -win + zone:
        return value + ply
    return value
