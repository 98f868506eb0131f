"""A game's header: what `corr new` writes, and the game a header describes.

A header no `corr new` could have written is corrupt: every option resolved, the
seats A, B, ... in order and as many as the game takes, a commitment exactly when the
game hides something, no correspondence time control for a game with its own clock.
"""

from __future__ import annotations

import re
from datetime import datetime

from corr import clock
from corr.errors import CorruptLog, UsageError
from corr.games import game_class
from corr.games.base import Game
from corr.log import lines
from corr.log.lines import Header

SEAT_LETTERS = "ABCDEF"


def make_game(header: Header, seed: str | None = None) -> Game:
    """The game a header describes, dealt from `seed` where this copy knows it; a header
    no `corr new` could have written is corrupt."""
    try:
        cls = game_class(header.game)
        options = cls.resolve_options(dict(header.options))
    except UsageError as err:
        raise CorruptLog(f"line 1 (header): {err}", kind="header") from None
    if options != header.options:
        missing = ", ".join(sorted(set(options) - set(header.options)))
        if missing:
            raise CorruptLog(f"line 1 (header): options incomplete, missing {missing}", kind="header")
        key = next(k for k in sorted(options) if options[k] != header.options.get(k))
        raise CorruptLog(f"line 1 (header): option {key} is written {header.options[key][:40]!r}, not "
                         f"{options[key][:40]!r}: one spelling per header", kind="header")
    seats = [s.seat for s in header.seats]
    if not cls.min_seats <= len(seats) <= cls.max_seats:
        raise CorruptLog(
            f"line 1 (header): {cls.title} is for {cls.min_seats}-{cls.max_seats} seats, the header has {len(seats)}",
            kind="header",
        )
    if header.time_control is not None:
        from corr import timecontrol  # only games with a time control need it

        try:
            timecontrol.validate(dict(header.time_control))
        except UsageError as err:
            raise CorruptLog(f"line 1 (header): {err}", kind="header") from None
    if seats != list(SEAT_LETTERS[: len(seats)]):
        raise CorruptLog(f"line 1 (header): seats must be {', '.join(SEAT_LETTERS[: len(seats)])} in order", kind="header")
    hidden = cls.is_hidden(options)
    if hidden != (header.commitment is not None):
        need = "needs the dealer's commitment" if hidden else "has no hidden information, so no commitment"
        raise CorruptLog(f"line 1 (header): {cls.title} {need}", kind="header")
    if cls.own_clock and header.time_control is not None:
        raise CorruptLog(f"line 1 (header): {cls.title} keeps its own time, so no time control", kind="header")
    try:
        game = cls(options, seats, seed)
    except UsageError as err:  # options that cannot go with these seats
        raise CorruptLog(f"line 1 (header): {err}", kind="header") from None
    game.created = header.created
    return game


def make_header(
    game_name: str,
    players: list[str],
    options: dict[str, str],
    keys: dict[str, str] | None = None,
    time_control: dict[str, int | str] | None = None,
    officials: dict[str, tuple[str, str]] | None = None,
    commitment: str | None = None,
    now: datetime | None = None,
) -> Header:
    """A checked header for a new game created at `now`; seats A, B, ... in the order the
    players are given. `officials` maps "referee" / "host" to (`Name <address>`, public
    key); `commitment` is the dealer's, for games with hidden information."""
    import secrets  # only new games need it: keep it off every move's start-up

    cls = game_class(game_name)
    if not cls.min_seats <= len(players) <= cls.max_seats:
        raise UsageError(
            f"{cls.title} is for {cls.min_seats}-{cls.max_seats} players; {len(players)} given (use --player per seat)"
        )
    resolved = cls.resolve_options(options)
    if cls.own_clock and time_control is not None:
        raise UsageError(f"{cls.title} keeps its own time (option time_limit), so it takes no --time")
    cls(resolved, list(SEAT_LETTERS[: len(players)]))  # options that cannot go with this many seats
    seats = [seat_entry(SEAT_LETTERS[i], player, (keys or {}).get(SEAT_LETTERS[i])) for i, player in enumerate(players)]
    unknown = sorted(set(keys or {}) - set(SEAT_LETTERS[: len(players)]))
    if unknown:
        raise UsageError(f"--key for seat {unknown[0]}, but the game has seats {', '.join(SEAT_LETTERS[: len(players)])}")
    data = {"id": f"{cls.name}-{secrets.token_hex(4)}", "game": cls.name, "options": resolved, "seats": seats,
            "created": clock.stamp(now), "time_control": time_control, "commitment": commitment}
    for role, (person, key) in (officials or {}).items():
        entry = seat_entry("", person, key)
        del entry["seat"]
        data[role] = entry
    try:
        return lines.header_from(data)
    except lines.LineError as err:
        raise UsageError(f"cannot start the game: {err}") from None


def seat_entry(seat: str, player: str, key: str | None) -> dict[str, str]:
    """A header seat from `Name` or `Name <address>` and an optional public key."""
    entry = {"seat": seat, "name": player.strip()}
    addressed = re.fullmatch(r"\s*(.*?)\s*<([^<>@\s]+@[^<>@\s]+)>\s*", player)
    if addressed:
        name, address = addressed.groups()
        entry.update(name=name.strip('"') or address, email=address)
    if key is not None:
        entry["key"] = key
    return entry
