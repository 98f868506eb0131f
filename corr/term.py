"""Colour on a terminal: whether it is on, decided once per command, and the styles.

Boards stay plain text that mail clients show unchanged; colour is only for a person
reading at a terminal. So `auto` turns it on only for a terminal that wants it
(https://no-color.org: a non-empty NO_COLOR turns it off; TERM=dumb too), and every
styling helper is the identity when colour is off: the output is then byte for byte
the plain board.
"""

from __future__ import annotations

import os
import re
from typing import Callable, TextIO

MODES = ("auto", "always", "never")

#: Seat colours from the 256-colour palette, of middle brightness so that each reads on
#: a dark and on a light background alike: red, blue, green, magenta, orange, teal.
SEAT_COLOURS = {"A": "38;5;160", "B": "38;5;33", "C": "38;5;34", "D": "38;5;127", "E": "38;5;172", "F": "38;5;37"}

#: Named styles (SGR parameters). Moyo's light and dark areas set both the background
#: and the text colour, so they read on any terminal's own colours.
STYLES = {
    "last": "1;7",  # the last move: bold, reverse video
    "light": "38;5;16;48;5;223",  # black on wheat
    "dark": "38;5;231;48;5;60",  # white on slate
    "you": "1",  # status: a game where it is your turn
    "clash": "1;7;38;5;160",  # a refused move: the tile it clashes with
    "error": "38;5;160",
}

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
RESET = "\x1b[0m"


def wanted(mode: str, stream: TextIO) -> bool:
    """Whether to colour what goes to `stream`: `always`, `never`, or `auto` - on when
    FORCE_COLOR is set (and not 0), else only on a terminal with NO_COLOR unset or empty
    and TERM other than "dumb"."""
    from corr.errors import UsageError

    if mode not in MODES:
        raise UsageError(f"--color {mode!r}: say auto, always or never")
    if mode != "auto":
        return mode == "always"
    force = os.environ.get("FORCE_COLOR", "")
    if force and force != "0":
        return True
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False


def codes(*styles: str | None) -> str:
    """The SGR parameters of named styles and seat letters, joined (unknown: none)."""
    return ";".join(c for s in styles if s and (c := STYLES.get(s) or SEAT_COLOURS.get(s)))


def paint(text: object, *styles: str | None) -> str:
    """`text` in the given styles (seat letters or STYLES names), reset after it."""
    sgr = codes(*styles)
    text = str(text)
    return f"\x1b[{sgr}m{text}{RESET}" if sgr and text else text


def strip(text: str) -> str:
    """`text` without colour codes: what the same output is with colour off."""
    return _ANSI.sub("", text)


def _plain(text: object, *styles: object) -> object:
    return text


def filters(on: bool) -> dict[str, Callable[..., object]]:
    """The Jinja filters the text boards colour with; each is the identity when `on` is
    false, so the templates need no branch of their own.

    `seat_colour(seat)`: in the seat's colour; `last_move`: the last move's highlight;
    `area(tone)`: a Moyo area, "light" or "dark" (anything else: unchanged);
    `style(*names)`: any named styles at once."""
    if not on:
        return {"seat_colour": _plain, "last_move": _plain, "area": _plain, "style": _plain}

    def area(text: object, tone: object) -> str:
        return paint(text, str(tone)) if tone in ("light", "dark") else str(text)

    return {
        "seat_colour": lambda text, seat: paint(text, seat if seat in SEAT_COLOURS else None),
        "last_move": lambda text: paint(text, "last"),
        "area": area,
        "style": paint,
    }
