"""Names and other text from players as one line of output shows them: a seat's player
cut to fit a board, any text from a log with its control characters made visible, and
the seat a player names on the command line."""

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


def columns(text: str) -> int:
    """Terminal columns a line of text takes (no control characters in it): what pads a
    name to line up a table."""
    return sum(map(_columns, text))


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


#: What `visible` escapes: controls (C0, DEL, C1), format characters (bidi overrides,
#: zero-width ones), line and paragraph separators, and lone surrogates.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: The controls `visible` writes as Python does, by letter.
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(ch: str) -> str:
    """A character's escape: `\\n`, `\\x1b`, `\\u2028`, `\\U000e0001`."""
    code = ord(ch)
    if ch in _SHORT:
        return _SHORT[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """Text from a player, a referee or a log as a terminal may be given it: every control
    or format character (Unicode categories Cc, Cf, Zl, Zp and lone surrogates, Cs)
    written as its escape, as Python writes one: ESC as the four characters `\\x1b`, a
    newline as `\\n`, U+2028 as `\\u2028`.

    Names and a ruling's reason are printed by commands people run in a terminal. Raw,
    an escape sequence in one would drive the terminal (OSC 52 writes the clipboard) and
    a newline would start a line of its own that reads like corr's (`result: B wins`).
    Everything else is kept as it is: letters of any script, and a backslash too, so the
    result is for reading, not for decoding back (`\\x1b` typed as four characters
    looks the same)."""
    if text.isprintable():  # the common case, any script: nothing to show
        return text
    return "".join(_escape(ch) if unicodedata.category(ch) in _HIDDEN else ch for ch in text)


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
