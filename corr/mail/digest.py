"""The host's daily digest (`corr host run --digest HH:MM`): a player in several games
gets one message a day listing every game of theirs on turn, instead of a reminder per
game, which would bury them under a dozen near-identical mails.

Who gets one: an address that is a seat of two or more running games in the games
folder (by the seats' addresses in the headers, in any case). Once a day, from HH:MM UTC
on, each such address on turn in at least one game is sent one plain-text message:
each game with its deadline and time left, and the Subject of its latest message, which
the player answers with the move. A reminder for such an address is folded into the
next digest when that comes before the deadline, and sent on its own otherwise.

What was sent is kept in `GAMES/.corr-host-digest.json` (written atomically):
`{"day": "2026-11-30", "sent": {"anna@example.org": "2026-11-30"}}`, `day` the day
whose digests are all out. It is a note, not game state: a file that cannot be read
only costs a digest sent once more.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Callable

from corr.errors import CorrError, UsageError
from corr.mail import ATTACHMENT_SUFFIX

#: The digest's note, in the games folder.
DIGEST_FILE = ".corr-host-digest.json"
_TIME = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


def parse_time(text: str) -> tuple[int, int]:
    """(hour, minute) of `--digest HH:MM` (UTC, 00:00 to 23:59)."""
    found = _TIME.fullmatch(text.strip())
    if found is None:
        raise UsageError(f"--digest {text!r}: give the time of day as HH:MM (UTC, 00:00 to 23:59), e.g. 07:30")
    return int(found[1]), int(found[2])


def read_note(games: Path) -> dict[str, Any]:
    """The digest's note; an empty one when it is missing or cannot be read."""
    try:
        data = json.loads((games / DIGEST_FILE).read_bytes())
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    sent = data.get("sent")
    return {"day": data.get("day"), "sent": dict(sent) if isinstance(sent, dict) else {}}


def _seat_addresses(path: Path) -> set[str]:
    """The seats' addresses a log's header names, lower-case (its first line alone)."""
    from corr.mail.people import HEADER_BYTES

    try:
        with open(path, "rb") as f:
            header = json.loads(f.readline(HEADER_BYTES))
    except (OSError, ValueError, RecursionError):
        return set()
    seats = header.get("seats") if isinstance(header, dict) else None
    if not isinstance(seats, list):
        return set()
    return {s["email"].lower() for s in seats if isinstance(s, dict) and isinstance(s.get("email"), str)}


@dataclass
class Digest:
    """The games folder as the digest sees it at `now`, read as far as it is asked."""

    games: Path
    at: tuple[int, int]  # the time of day (UTC) the digest goes out from
    now: datetime
    _logs: dict[str, list[Path]] | None = None
    _tables: dict[Path, Any] = field(default_factory=dict)

    def logs(self) -> dict[str, list[Path]]:
        """Address -> the logs whose header names it as a seat's."""
        if self._logs is None:
            self._logs = {}
            for path in sorted(self.games.glob(f"*{ATTACHMENT_SUFFIX}")):
                for address in _seat_addresses(path):
                    self._logs.setdefault(address, []).append(path)
        return self._logs

    def _table(self, path: Path) -> Any:
        """The game replayed at `now`, or None when it cannot be (the pass says why)."""
        from corr import engine

        if path not in self._tables:
            try:
                self._tables[path] = engine.load(path, now=self.now)
            except (CorrError, OSError, ValueError, RecursionError):
                self._tables[path] = None
        return self._tables[path]

    def running(self, address: str) -> list[Any]:
        """The running games of the address (as tables), when it has several; [] else."""
        paths = self.logs().get(address.lower(), [])
        if len(paths) < 2:
            return []
        tables = [t for t in map(self._table, paths) if t is not None and t.on_turn()]
        return tables if len(tables) >= 2 else []

    def next_time(self) -> datetime:
        """When the next digest goes out: today's time, or now when it is past and today's
        digests are not all out, else tomorrow's."""
        today = self.now.replace(hour=self.at[0], minute=self.at[1], second=0, microsecond=0)
        if self.now < today:
            return today
        if read_note(self.games).get("day") != self.now.date().isoformat():
            return self.now
        return today + timedelta(days=1)

    def covers(self, address: str, deadline: str | None) -> bool:
        """Whether a reminder to `address` goes into the digest: it has several running
        games, and the next digest comes before the deadline."""
        from corr import timecontrol

        if deadline is None or not self.running(address):
            return False
        return self.next_time() < timecontrol.instant(deadline)


def entries(tables: list[Any], address: str, now: datetime) -> list[dict[str, Any]]:
    """What the digest lists of each game where a seat of `address` is on turn."""
    from corr import timecontrol
    from corr.mail.compose import subject
    from corr.names import short_name, visible

    listed = []
    for rep in tables:
        for seat in rep.header.seats:
            if not seat.email or seat.email.lower() != address or seat.seat not in rep.on_turn():
                continue
            deadline = left = None
            if rep.header.time_control is not None:
                clock = timecontrol.clocks(rep.header, rep.standing(), seat.seat, now).get(seat.seat)
                if clock is not None and clock["deadline"] is not None:
                    deadline = clock["deadline"]
                    left = int((timecontrol.instant(deadline) - now).total_seconds())
            listed.append({
                "game": rep.header.id, "title": rep.game.title, "seat": seat.seat,
                "name": visible(short_name(seat.name)), "key": bool(seat.key),
                "deadline": deadline.replace("T", " ").rstrip("Z") if deadline else None,
                "hours": None if left is None else max(0, left) // 3600,
                "subject": visible(subject(rep, seat.seat)),
            })
    return sorted(listed, key=lambda e: (e["deadline"] is None, e["deadline"] or "", e["game"]))


def message(to: Any, listed: list[dict[str, Any]], sender: str | None, now: datetime) -> EmailMessage:
    """The digest to one address (templates/digest.txt): plain text, automatic, so that
    no robot answers it."""
    from corr.mail.compose import DEFAULT_SENDER, address
    from corr.names import short_name, visible
    from corr.render import environment

    msg = EmailMessage()
    msg["From"] = sender or DEFAULT_SENDER
    msg["To"] = address(to)
    count = len(listed)
    msg["Subject"] = f"corr: your move in {count} game{'' if count == 1 else 's'} ({now.date().isoformat()})"
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = make_msgid("corr-digest")
    msg["Auto-Submitted"] = "auto-generated"
    text = environment().get_template("digest.txt").render(
        name=visible(short_name(to.name)), games=listed, now=now.strftime("%Y-%m-%d %H:%M"))
    msg.set_content(text)
    return msg


def send_due(games: Path, at: tuple[int, int], now: datetime, sender: str | None,
             send: Callable[[EmailMessage, str], bool], echo: Callable[[str], None]) -> int:
    """Send today's digests when their time has come and they are not all out yet;
    `send(msg, failure)` sends one (False when it could not: it is tried again on the
    next pass). Returns how many were sent. One address going wrong never stops the
    others, nor the host."""
    from corr.counts import counted
    from corr.log.sidecars import write_json
    from corr.mail.message import flat
    from corr.names import visible

    today = now.date().isoformat()
    if (now.hour, now.minute) < at:
        return 0
    note = read_note(games)
    if note.get("day") == today:
        return 0
    digest = Digest(games, at, now)
    sent = {a: d for a, d in note.get("sent", {}).items() if d == today}
    done = True
    count = 0
    for address in sorted(digest.logs()):
        if sent.get(address) == today:
            continue
        try:
            tables = digest.running(address)
            listed = entries(tables, address, now)
            if not listed:
                continue
            seat = next(s for t in tables for s in t.header.seats if s.email and s.email.lower() == address)
            msg = message(seat, listed, sender, now)
        except Exception as err:  # noqa: BLE001 - the last guard: one digest never stops the host
            done = False
            echo(visible(flat(f"could not build the digest to {address}: {type(err).__name__}: {err}", 500)))
            continue
        if not send(msg, f"could not send the digest to {visible(address)}"):
            done = False
            continue
        sent[address] = today
        count += 1
        echo(f"digest to {visible(str(msg['To']))}: {counted(len(listed), 'game')} on turn")
    try:
        write_json(games / DIGEST_FILE, {"day": today if done else note.get("day"), "sent": sent})
    except OSError as err:
        echo(f"could not keep {DIGEST_FILE}: {err.strerror or err} (a digest may go out once more)")
    return count
