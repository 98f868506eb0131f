"""Who the host answers: the people its games name.

A refusal goes to the message's From address, and a From is easily forged: answering
every stranger would send the host's refusals to whoever spam or a worm put there
(backscatter). So the host answers only an address the games' headers name - a seat's,
the referee's or the host's - of the game the message names, or, when it names none
the host runs, of any game in its folder. A stranger's message is refused all the same;
the host says on its own output that it was left unanswered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from corr.mail import ATTACHMENT_SUFFIX

#: How much of a log's first line is read for its header: a header is far shorter.
HEADER_BYTES = 1 << 16


def _addresses(header: Any) -> set[str]:
    """The addresses a log's header (its first line, parsed) names, lower-case."""
    if not isinstance(header, dict):
        return set()
    people = list(header.get("seats") or []) + [header.get("referee"), header.get("host")]
    return {p["email"].lower() for p in people if isinstance(p, dict) and isinstance(p.get("email"), str)}


def _header(path: Path) -> Any:
    """A log's first line as JSON; None when it cannot be read as one."""
    try:
        with open(path, "rb") as f:
            return json.loads(f.readline(HEADER_BYTES))
    except (OSError, ValueError, RecursionError):
        return None


def stranger(msg: Any, games: Path) -> str | None:
    """Why the host does not answer the sender of `msg`, or None when it may: the
    sender's address is named by the game the Subject names, or - when the Subject names
    no game in `games` - by any game there."""
    from corr.errors import CorrError
    from corr.mail.ingest import find_game
    from corr.mail.message import sender_of, subject_ref

    found = sender_of(msg)
    if found is None:
        return None  # nobody to answer: `refusal_reply` says so
    address = found[1].lower()
    try:
        game_id = subject_ref(msg)[0]
        path = find_game(games, game_id) if game_id is not None else None
    except CorrError:
        path = None
    if path is not None:
        if address in _addresses(_header(path)):
            return None
        return f"{address} is not an address game {game_id} names"
    for log in sorted(games.glob(f"*{ATTACHMENT_SUFFIX}")):
        if address in _addresses(_header(log)):
            return None
    return f"{address} is not an address any game here names"
