"""A count and its noun in agreement: `1 move`, `2 moves`, `1 day`. Every count text
corr prints goes through `counted`, so none reads "1 moves" when the count happens to
be one."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the noun plural (`plural`, else the noun and an `s`) unless `n`
    is one: `counted(1, "record")` is `1 record`, `counted(3, "ply", "plies")` `3 plies`."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
