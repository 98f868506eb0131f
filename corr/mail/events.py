"""The host runs events (`corr host run ... --tournaments DIR`): each pass takes the
results of the finished games of every event's round (each game audited first, as
`corr tournament record` does), pairs the next round once a round is over (its games
made in the host's games folder, so the same pass announces them to their seats), and
mails every player with an address the standings after each round and at the end.

What was mailed is kept beside each event log in `EVENT.tour.host.json`:
`{"standings": N}`, the rounds whose standings went out (a garbled note only costs
the standings sent once more). One event going wrong is said and the others go on.
"""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate
from pathlib import Path
from typing import Any, Callable

from corr.errors import CorrError
from corr.log.sidecars import write_json

#: Beside an event log: what the host mailed of it.
STATE_SUFFIX = ".host.json"

Send = Callable[[EmailMessage, str], bool]


def run_events(folder: Path, games: Path, now: datetime, sender: str | None, send: Send,
               echo: Callable[[str], None]) -> list[str]:
    """One pass over the events of `folder`; the failures, one line each."""
    failures = []
    for path in sorted(folder.glob("*.tour")):
        try:
            run_event(path, games, now, sender, send, echo)
        except Exception as err:  # noqa: BLE001 - one event going wrong never stops the others
            from corr.mail.message import flat

            why = flat(str(err) if isinstance(err, CorrError) else
                       f"internal error, a bug in corr: {type(err).__name__}: {err}", 1000)
            failures.append(f"{path.name}: {why}")
            echo(f"{path.name}: skipped: {why}")
    return failures


def run_event(path: Path, games: Path, now: datetime, sender: str | None, send: Send,
              echo: Callable[[str], None]) -> None:
    """Record, mail the standings of a round just over, pair the next."""
    from corr.tournament import director
    from corr.tournament.event import read

    event = read(path)
    if event.open_tables():
        event, taken, _ = director.record(path, games, now)
        for table in taken:
            echo(f"{path.name}: round {table.round} table {table.table}: result taken from {table.file}")
    if event.open_tables():
        return
    played = len(event.rounds)
    if played and _mailed(path) < played:
        sent = mail_standings(path, event, sender, send, echo)
        if sent:
            write_json(_state_path(path), {"standings": played})
    if not event.finished and played < event.planned:
        event, number = director.pair(path, games, now)
        tables = event.rounds[number - 1]
        echo(f"{path.name}: round {number} paired: {len(tables)} game{'s' if len(tables) != 1 else ''} in "
             f"{games.name}/ ({', '.join(t.file for t in tables)})")


def _state_path(path: Path) -> Path:
    return Path(f"{path}{STATE_SUFFIX}")


def _mailed(path: Path) -> int:
    """The rounds whose standings went out; 0 for a missing or garbled note."""
    import json

    try:
        value = json.loads(_state_path(path).read_bytes()).get("standings")
    except (OSError, ValueError, AttributeError, RecursionError):
        return 0
    return value if type(value) is int and value >= 0 else 0


def mail_standings(path: Path, event: Any, sender: str | None, send: Send, echo: Callable[[str], None]) -> bool:
    """The standings to every player with an address (text and HTML); True when every
    message went into the outbox."""
    from corr.mail.compose import DEFAULT_SENDER
    from corr.names import visible
    from corr.tournament import standings

    data = standings.standings(event)
    played = len(event.rounds)
    over = event.finished
    what = "final standings" if over else f"standings after round {played}"
    text, page = standings.text(data), standings.html(data)
    ok = True
    for player in event.players.values():
        if not player.email:
            continue
        msg = EmailMessage()
        msg["From"] = sender or DEFAULT_SENDER
        msg["To"] = player.email
        msg["Subject"] = f"[corr {event.header['id']}] {what}"
        msg["Date"] = formatdate(usegmt=True)
        # one id per event, round and player: taken again after a stop, it is the same message
        msg["Message-ID"] = _message_id(event.header["id"], played, over, player.email)
        msg["Auto-Submitted"] = "auto-generated"
        msg["X-Corr-Event"] = event.header["id"]
        msg.set_content(f"{visible(player.name)}, the {what} of {visible(event.header['name'])}:\n\n{text}"
                        + ("" if over else "\nThe next round's games come in their own messages.\n"))
        msg.add_alternative(page, subtype="html")
        if send(msg, f"{path.name}: could not mail the standings to {player.email}"):
            echo(f"{path.name}: mailed the {what} to {player.email}")
        else:
            ok = False
    return ok


def _message_id(event_id: str, played: int, over: bool, address: str) -> str:
    import hashlib

    digest = hashlib.sha256(f"{event_id}\0{played}\0{over}\0{address}".encode()).hexdigest()[:20]
    return f"<corr-standings.{digest}@corr.invalid>"
