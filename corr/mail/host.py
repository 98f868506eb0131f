"""The host: runs games for players who only send mail (DESIGN.md 8).

One pass (`run_pass`):

1. every message in the Maildir's `new/` (read with `mailbox.Maildir`, in order of the
   Subject's seq) is ingested into the games directory (`ingest.ingest_bytes`) and then
   moved to `cur/` (flag `S`), so the next pass does not see it again; a refused
   message is answered with `ingest.refusal_reply` (never a message that is itself
   automatic, `Auto-Submitted` other than `no`, so two robots cannot ping-pong);
2. every game whose log is past the seq last mailed to a seat is mailed to each seat
   with an email address (`compose.compose`), each message built from that seat's own
   view: in a game with hidden information the host is the dealer, and each seat's
   message carries its own card and nobody else's (the attached log is public). A game
   the host has never mailed is announced to every seat at its current seq. What was
   mailed is kept per seat, so a seat whose message could not be sent (SMTP down) is
   tried again on the next pass;
3. the seat on turn gets a short reminder when `timecontrol.clocks` says it is due, at
   most once per turn.

The host's own state lives next to each log in `FILE.host.json` (written atomically):
`{"mailed": {"A": 3, ...}, "reminded": {"seq": 3, "seat": "B"}}`. Mail threading stays
in the `FILE.mail.json` sidecar that `corr mail` keeps.

Each action is reported as one line through `echo` (ingested / refused / mailed /
reminded / and the failures to send, which never stop a pass).
"""

from __future__ import annotations

import mailbox
import os
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Callable

from corr.errors import CorrError, UsageError
from corr.mail import ATTACHMENT_SUFFIX
from corr.mail.sidecar import read_json, write_json

#: Where the host keeps what it mailed and reminded: `FILE.host.json`.
HOST_SUFFIX = ".host.json"

Echo = Callable[[str], None]


@dataclass
class PassReport:
    """What one pass did."""

    ingested: int = 0
    refused: int = 0
    mailed: int = 0
    reminded: int = 0
    failures: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------
# The host sidecar


def host_path(log_path: Path | str) -> Path:
    return Path(f"{log_path}{HOST_SUFFIX}")


def read_state(log_path: Path | str) -> dict[str, Any]:
    return read_json(host_path(log_path), "corr host file", "delete it to mail the game afresh")


def write_state(log_path: Path | str, data: dict[str, Any]) -> None:
    write_json(host_path(log_path), data)


# ---------------------------------------------------------------------------------
# The Maildir


def new_messages(maildir: Path) -> list[tuple[str, str, bytes]]:
    """The messages in `new/` as (key, file name, bytes), in order of the Subject's seq
    (then of the key, which Maildir makes from the delivery time)."""
    from corr.mail.ingest import MAX_MESSAGE, parse_message, subject_ref

    if not (maildir / "new").is_dir() or not (maildir / "cur").is_dir():
        raise UsageError(f"{maildir} is not a Maildir (it needs new/ and cur/)")
    box = mailbox.Maildir(maildir, factory=None, create=False)
    items = []
    for name in sorted(os.listdir(maildir / "new")):
        if name.startswith("."):
            continue
        key = name.split(box.colon)[0]
        try:
            size = (maildir / "new" / name).stat().st_size
            data = box.get_bytes(key) if size <= MAX_MESSAGE else (maildir / "new" / name).read_bytes()[: MAX_MESSAGE + 1]
        except (KeyError, OSError):
            continue  # gone meanwhile (another reader took it)
        items.append((key, name, data))

    def seq(item: tuple[str, str, bytes]) -> int:
        try:
            found = subject_ref(parse_message(item[2]))[1]
        except CorrError:
            found = None
        return found if found is not None else 0

    return sorted(items, key=seq)


def move_to_cur(maildir: Path, name: str) -> None:
    """Mark a message of `new/` as seen: `cur/NAME:2,S` (a rename, atomic)."""
    colon = mailbox.Maildir.colon
    base = name.split(colon)[0]
    os.replace(maildir / "new" / name, maildir / "cur" / f"{base}{colon}2,S")


# ---------------------------------------------------------------------------------
# Mail out


def _send(msg: EmailMessage, config: Any, report: PassReport, echo: Echo, failure: str) -> bool:
    """Send over SMTP; a failure is reported (and tried again on a later pass), not raised."""
    from corr.mail import smtp

    try:
        smtp.send(msg, config)
    except UsageError as err:
        report.failures.append(f"{failure}: {err}")
        echo(f"{failure} ({msg['To']}): {err}")
        return False
    return True


def _automatic(msg: EmailMessage | None) -> bool:
    if msg is None:
        return False
    auto = str(msg.get("Auto-Submitted") or "no").strip().lower()
    return auto != "no" or str(msg.get("Precedence") or "").strip().lower() in ("bulk", "junk", "list")


def reminder(rep: Any, seat: Any, left: int, deadline: str | None, sender: str | None) -> EmailMessage:
    """`[corr <id>] <seq>. reminder: your move, N hours left`, a short plain-text message;
    the seq lets a player answer the reminder itself with a move."""
    from corr.mail.compose import DEFAULT_SENDER, address, subject

    hours = max(0, left) // 3600
    msg = EmailMessage()
    msg["From"] = sender or DEFAULT_SENDER
    msg["To"] = address(seat)
    msg["Subject"] = f"[corr {rep.header.id}] {rep.seq}. reminder: your move, {hours} hour{'' if hours == 1 else 's'} left"
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = make_msgid("corr-reminder")
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Corr-Game"] = rep.header.id
    msg["X-Corr-Seq"] = str(rep.seq)
    msg.set_content(
        f"{seat.name}, it is your move in game {rep.header.id} (seat {seat.seat}).\n\n"
        f"Time left: {hours} hour{'' if hours == 1 else 's'}; deadline {deadline or 'unknown'} (UTC).\n\n"
        f"Reply with your move on a line of its own (the game's latest message is `{subject(rep)}`).\n"
    )
    return msg


def mail_game(path: Path, rep: Any, state: dict[str, Any], config: Any, echo: Echo, report: PassReport) -> bool:
    """Mail each seat with an address that has not seen this seq; True if state changed."""
    from corr.mail.compose import compose, read_sidecar, remember

    mailed: dict[str, int] = dict(state.get("mailed") or {})
    thread = read_sidecar(path)
    changed = False
    last = None
    for seat in rep.header.seats:
        if not seat.email:
            continue
        before = mailed.get(seat.seat)
        if before is not None and before >= rep.seq:
            continue
        msg = compose(rep, seat.seat, since_seq=before, previous_message_id=thread.get("last_message_id"),
                      sender=config.sender, references=list(thread.get("references", [])))
        if not _send(msg, config, report, echo, f"{path.name}: could not mail seat {seat.seat}"):
            continue
        mailed[seat.seat] = rep.seq
        changed = True
        last = msg
        report.mailed += 1
        echo(f"{path.name}: mailed seat {seat.seat} {msg['To']}: {msg['Subject']}")
    if changed:
        state["mailed"] = mailed
        if last is not None:
            remember(path, last)  # the next message threads after this one
    return changed


def remind_game(path: Path, rep: Any, state: dict[str, Any], config: Any, now: datetime, echo: Echo,
                report: PassReport) -> bool:
    """Remind the seat on turn when its clock says so, once per turn; True if state changed."""
    from corr import timecontrol

    to_move = rep.to_move()
    if to_move is None or rep.header.time_control is None:
        return False
    clock = timecontrol.clocks(rep.header, rep.standing(), to_move, now).get(to_move)
    if not clock or not clock["remind"]:
        return False
    done = state.get("reminded") or {}
    if done.get("seq") == rep.seq and done.get("seat") == to_move:
        return False
    seat = next((s for s in rep.header.seats if s.seat == to_move), None)
    if seat is None or not seat.email:
        return False
    msg = reminder(rep, seat, clock["left"], clock["deadline"], config.sender)
    if not _send(msg, config, report, echo, f"{path.name}: could not remind seat {to_move}"):
        return False
    state["reminded"] = {"seq": rep.seq, "seat": to_move}
    report.reminded += 1
    echo(f"{path.name}: reminded seat {to_move} {msg['To']}: {msg['Subject']}")
    return True


# ---------------------------------------------------------------------------------
# One pass


def run_pass(maildir: Path, games: Path, config: Any, echo: Echo = print, now: datetime | None = None) -> PassReport:
    """Ingest the new mail, mail the games that moved, send the reminders that are due."""
    from corr import clock, engine
    from corr.mail.ingest import Result, ingest_bytes, refusal_reply

    if not games.is_dir():
        raise UsageError(f"--games {games} is not a directory")
    report = PassReport()
    for key, name, data in new_messages(maildir):
        source = f"{maildir.name}/{key}"
        try:
            result = ingest_bytes(data, games, source)
        except Exception as err:  # noqa: BLE001 - one bad message never stops the host
            result = Result(source, False, 1, f"internal error, a bug in corr: {type(err).__name__}: {err}")
        try:
            move_to_cur(maildir, name)
        except OSError as err:
            echo(f"{source}: could not move it to cur/: {err.strerror or err}")
        if result.ok:
            report.ingested += 1
            echo(f"ingested {result.line()}")
            continue
        report.refused += 1
        echo(f"refused {result.line()}")
        if _automatic(result.msg):
            echo(f"{source}: not answered (an automatic message)")
            continue
        try:
            reply = refusal_reply(result, sender=config.sender)
        except Exception as err:  # noqa: BLE001 - a reply that cannot be built never stops the host
            echo(f"{source}: no reply sent: it cannot be built ({type(err).__name__}: {err})")
            continue
        if reply is None:
            echo(f"{source}: nobody to answer")
            continue
        if not _send(reply, config, report, echo, f"{source}: could not send the refusal"):
            continue
        echo(f"{source}: replied to {reply['To']}")

    when = now or clock.now()
    for path in sorted(games.glob(f"*{ATTACHMENT_SUFFIX}")):
        try:
            rep = engine.load(path)
            state = read_state(path)
            changed = mail_game(path, rep, state, config, echo, report)
            changed = remind_game(path, rep, state, config, when, echo, report) or changed
            if changed:
                write_state(path, state)
        except CorrError as err:
            report.failures.append(f"{path.name}: {err}")
            echo(f"{path.name}: skipped: {err}")
    return report
