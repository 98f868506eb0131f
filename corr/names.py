"""Names as one line of text shows them: a seat's player cut to fit a board, and the
seat a player names on the command line."""

from __future__ import annotations

import unicodedata
from typing import Any

from corr.errors import UsageError

#: Longest seat name a text board prints: keeps every line within 80 columns even with
#: the 200-character names the header allows.
SHORT_NAME = 24


def _columns(ch: str) -> int:
    """Terminal columns a character takes: wide East Asian ones 2, combining marks 0."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def short_name(text: str, width: int = SHORT_NAME) -> str:
    """A seat name made safe for one line of a text board: control characters (a newline
    or a terminal escape in a name from a mail) become spaces, and a name wider than
    `width` columns is cut and ends in `...`."""
    flat = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    flat = " ".join(flat.split())
    if sum(map(_columns, flat)) <= width:
        return flat
    kept: list[str] = []
    used = 0
    for ch in flat:
        used += _columns(ch)
        if used > width - 3:
            break
        kept.append(ch)
    return "".join(kept).rstrip() + "..."


def seat_named(seats: Any, given: str, option: str = "--for") -> str:
    """The seat a player names on the command line: its letter (`B`, `b`) or its
    player's name in any case (`Ben`, `ben`); `seats` are the header's."""
    text = given.strip()
    letters = [s.seat for s in seats]
    if text.upper() in letters:
        return text.upper()
    named = [s.seat for s in seats if s.name.casefold() == text.casefold()]
    if len(named) == 1:
        return named[0]
    if len(text) == 1 and not named:
        return text.upper()  # a letter: the command says which seats there are
    listed = ", ".join(f"{s.seat} {short_name(s.name)}" for s in seats)
    if named:
        raise UsageError(f"{option} {short_name(given, 40)!r}: seats {' and '.join(named)} have that name; "
                         f"give the seat letter ({listed})")
    raise UsageError(f"{option} {short_name(given, 40)!r}: no such seat or player (seats: {listed})")
