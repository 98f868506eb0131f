"""What a position looks like to one seat, or to the public: one plain dict per position.

This is the one place that decides what a seat may see (DESIGN 4). `show`, `legal`,
the text, HTML and JSON boards, `log`, mail and the host all ask it; the game answers
through `Game.view(state, seat)`, and what a move did reaches a seat only as the
outcome's `told()` notes. Decisions (who owns a cell, what the last move did, how a
name fits one line) are made here; the templates only lay them out.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from corr.engine import Position
from corr.errors import UsageError
from corr.geometry import FIELD_OF, PLACE_OF, name

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


def viewer(rep: Position, seat: str | None) -> str | None:
    """`--for SEAT` checked against the game's seats (None: the public view); a
    player's name names its seat."""
    if seat is None:
        return None
    letter = seat_named(rep.header.seats, seat)
    if letter not in rep.game.seats:
        raise UsageError(f"--for {seat!r}: no such seat (seats: {', '.join(rep.game.seats)})")
    return letter


def _last_move(rep: Position, seat: str | None) -> dict[str, Any] | None:
    """The newest record `seat` may read and what every seat is told it did.

    What the outcome leaves untold (a missed conquest) and an illegal move in
    as-written play are left out: noticing them is the other players' part of the game.
    """
    step = rep.last_seen(seat)
    if step is None:
        return None
    record, outcome = step.record, step.outcome
    return {
        "seq": record.seq,
        "type": record.type,
        "by": record.by,
        "move": record.move,
        "target": record.target,
        "told": list(outcome.told()),
        "verdict": outcome.verdict,
    }


def position(rep: Position, seat: str | None = None) -> dict[str, Any]:
    """The documented JSON of a position as `seat` sees it (None: the public; DESIGN 9,
    `corr show --format json`)."""
    game, state, header = rep.game, rep.state, rep.header
    result = rep.result()
    board = game.board(state, seat, rep.when())
    data: dict[str, Any] = {
        "game": header.game,
        "title": game.title,
        "id": header.id,
        "seq": rep.seen_seq(seat),
        "to_move": rep.to_move(),
        "over": result.over,
        "winners": list(result.winners),
        "forfeit": {"seat": rep.forfeit, "cause": rep.forfeit_cause} if rep.forfeit else None,
        "scores": result.scores,
        "board": "".join(str(d) if d else "." for d in board),
        "seats": [{"seat": s.seat, "name": s.name, "short": short_name(s.name)} for s in header.seats],
        "options": dict(header.options),
        "last": _last_move(rep, seat),
    }
    data.update(game.view(state, seat, rep.when()))
    if seat is not None:
        data["viewer"] = seat
        if not game.dealt:  # a player's copy: what the dealer told this seat, if still true
            data.update((k, v) for k, v in told(rep, seat).items() if k not in data)
    return data


def told(rep: Position, seat: str) -> dict[str, Any]:
    """What the dealer's latest message told `seat` of its hidden state (`rep.private`:
    seat -> {"seq": N, "view": {...}}), while it still holds: a hand changes only when
    its seat acts, so the panel is dropped once the seat has made a record after seq N."""
    entry = rep.private.get(seat)
    if not entry:
        return {}
    since = entry.get("seq", 0)
    if any(step.record.by == seat and step.record.seq > since for step in rep.steps):
        return {}
    return dict(entry.get("view", {}))


def private(rep: Position, seat: str) -> dict[str, Any]:
    """The part of `seat`'s view the public view lacks (its hand): what a dealer's message
    to that seat carries besides the public position."""
    own, public = position(rep, seat), position(rep)
    return {k: v for k, v in own.items() if k not in public and k != "viewer"}


def board_rows(rep: Position, seat: str | None = None) -> list[list[dict[str, Any]]]:
    """The 9x9 board as rows of cells with what the templates mark on them.

    `row`/`col` are 1-based (for `r4c7` input and the axes), `given` marks tiles that
    stood there from the start, `owner` is the seat the game says the cell belongs to.
    The board is public in every game: what stands on it is seen by all.
    """
    game, state = rep.game, rep.state
    board = game.board(state, seat, rep.when())
    start = game.board(game.initial(), seat, rep.when())
    owners = game.owners(state)
    last_cell = game.last_cell(state)
    rows = []
    for r in range(9):
        row = []
        for c in range(9):
            cell = r * 9 + c
            row.append(
                {
                    "digit": board[cell],
                    "field": FIELD_OF[cell],
                    "place": PLACE_OF[cell],
                    "name": name(cell),
                    "row": r + 1,
                    "col": c + 1,
                    "last": cell == last_cell,
                    "given": bool(start[cell]) and start[cell] == board[cell],
                    "owner": owners.get(cell),
                }
            )
        rows.append(row)
    return rows
