"""The host: runs games for players who only send mail (DESIGN.md 8).

One pass (`run_pass`):

1. every message in the Maildir's `new/` (in order of the Subject's seq) is ingested
   into the games directory (`ingest.ingest_bytes`) and then moved to `cur/` (flag
   `S`), so the next pass does not see it again; a refused message is answered with
   `reply.refusal_reply` (never a message that is itself automatic, `Auto-Submitted`
   other than `no`, so two robots cannot ping-pong, nor one from an address no game
   names, `people.stranger`, which may be forged: no backscatter). A message that cannot be handled
   at all - its file unreadable, too big, nested too deep, or breaking corr - is set
   aside instead: moved to the Maildir's `bad/` folder with `NAME.reason` beside it
   (one line: why), and said on stdout. `bad/` is a plain folder next to `new/` and
   `cur/`, not a Maildir++ folder (`.bad`): mail servers and clients leave it alone, so
   the reason files are never taken for mail. Nothing one message does stops the pass;
2. every game whose log is past the seq last mailed to a seat is mailed to each seat
   with an email address (`compose.compose`), each message built from that seat's own
   view: in a game with hidden information the host is the dealer, and each seat's
   message carries its own card and nobody else's (the attached log is public). A game
   the host has never mailed is announced to every seat at its current seq. What was
   mailed is kept per seat, so a seat whose message could not be sent (SMTP down) is
   tried again on the next pass;
3. the seat on turn gets a short reminder when `timecontrol.clocks` says it is due, at
   most once per turn.

Before a game is mailed, the computer moves for its seats on turn (`corr new --bot`,
`FILE.bots.json`), so the players' messages already show its answer.

The host's own state lives next to each log in `FILE.host.json` (written atomically):
`{"mailed": {"A": 3, ...}, "reminded": {"seq": 3, "seat": "B"}}`. Mail threading stays
in the `FILE.mail.json` sidecar that `corr mail` keeps.

A pass skips a game it left with nothing to do, as `FILE.idle.json` records (a cache,
never game state: the log's size, modification time and inode then, and the next
instant time alone could give the game something to do - a reminder, the end of
Domino's clock): replaying it again would find the same. Any append, edit or
replacement of the log changes that fingerprint; deleting the file only costs a replay.

Each action is reported as one line through `echo` (ingested / refused / set aside /
mailed / reminded / and the failures to send, which never stop a pass). Every file move
in the Maildir is followed by an fsync of the directories involved.
"""

from __future__ import annotations

import json
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
from corr.log.store import sync_dir
from corr.log.sidecars import read_json, write_bytes, write_json
from corr.seatview import seen_seq

#: Where the host keeps what it mailed and reminded: `FILE.host.json`.
HOST_SUFFIX = ".host.json"
#: The host's note that a game had nothing to do: `FILE.idle.json`.
IDLE_SUFFIX = ".idle.json"
#: The Maildir folder messages that cannot be handled are set aside in, and the suffix
#: of the file beside each that says why.
BAD = "bad"
REASON_SUFFIX = ".reason"
#: The file in the games folder a pass holds locked: one pass at a time.
PASS_LOCK = ".corr-host.lock"

Echo = Callable[[str], None]


@dataclass
class PassReport:
    """What one pass did."""

    ingested: int = 0
    refused: int = 0
    set_aside: int = 0
    mailed: int = 0
    reminded: int = 0
    skipped: int = 0  # games left as the last pass left them (see `fingerprint`)
    failures: list[str] = field(default_factory=list)
    busy: bool = False  # another pass held the games folder: this one did nothing


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


def new_messages(maildir: Path) -> list[tuple[str, str, bytes | None, Any]]:
    """The messages in `new/` as (key, file name, bytes, parsed), in order of the
    Subject's seq, then of delivery (`delivery_order`), each
    parsed once (`read_message`). A file that cannot be read (or is no regular file) has
    None for its bytes; one over the size limit, only its first MAX_MESSAGE + 1 bytes
    (enough to refuse it)."""
    from corr.mail.message import delivery_order, read_bounded, read_message, seq_key

    if not (maildir / "new").is_dir() or not (maildir / "cur").is_dir():
        raise UsageError(f"{maildir} is not a Maildir (it needs new/ and cur/)")
    colon = mailbox.Maildir.colon
    items = []
    for name in sorted(os.listdir(maildir / "new")):
        if name.startswith("."):
            continue
        path = maildir / "new" / name
        if not os.path.lexists(path):
            continue  # gone meanwhile (another reader took it)
        data = read_bounded(path)
        items.append((name.split(colon)[0], name, data, read_message(data)))
    return sorted(items, key=lambda item: (seq_key(item[3]), delivery_order(item[0])))



def move_to_cur(maildir: Path, name: str) -> None:
    """Mark a message of `new/` as seen: `cur/NAME:2,S` (a rename, atomic, made durable)."""
    colon = mailbox.Maildir.colon
    base = name.split(colon)[0]
    os.replace(maildir / "new" / name, maildir / "cur" / f"{base}{colon}2,S")
    sync_dir(maildir / "cur")
    sync_dir(maildir / "new")


def set_aside(maildir: Path, name: str, reason: str) -> Path:
    """Move a message of `new/` that cannot be handled to `bad/NAME`, with the reason in
    `bad/NAME.reason` (one line); the folder is made when first needed. Returns where it went."""
    from corr.mail.message import flat

    bad = maildir / BAD
    if not bad.is_dir():
        bad.mkdir(exist_ok=True)
        sync_dir(maildir)
    base = name.split(mailbox.Maildir.colon)[0]
    target = bad / base
    write_bytes(bad / f"{base}{REASON_SUFFIX}", (flat(reason, 2000) + "\n").encode("utf-8"))
    os.replace(maildir / "new" / name, target)
    sync_dir(bad)
    sync_dir(maildir / "new")
    return target


# ---------------------------------------------------------------------------------
# Mail out


def _send(msg: EmailMessage, config: Any, report: PassReport, echo: Echo, failure: str) -> bool:
    """Send over SMTP; a failure is reported (and tried again on a later pass), not raised."""
    from corr.mail import smtp

    try:
        smtp.send(msg, config)
    except Exception as err:  # noqa: BLE001 - smtp.send says UsageError; anything else is not fatal either
        why = str(err) if isinstance(err, UsageError) else f"{type(err).__name__}: {err}"
        report.failures.append(f"{failure}: {why}")
        echo(f"{failure} ({msg['To']}): {why}")
        return False
    return True


def _automatic(msg: EmailMessage | None) -> bool:
    """Whether a message says it was sent by a robot (never answered: no ping-pong)."""
    from corr.mail.compose import header_text

    if msg is None:
        return False
    auto = header_text(msg, "Auto-Submitted", 1000).strip().lower() or "no"
    return auto != "no" or header_text(msg, "Precedence", 1000).strip().lower() in ("bulk", "junk", "list")


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
        + (f"This game takes signed moves only: answer the game's latest message (`{subject(rep)}`) as it says.\n"
           if seat.key else
           f"Reply with your move on a line of its own (the game's latest message is `{subject(rep)}`).\n")
    )
    return msg


def mail_game(path: Path, rep: Any, state: dict[str, Any], config: Any, echo: Echo, report: PassReport) -> bool:
    """Mail each seat with an address that has not seen this seq; True if state changed."""
    from corr.mail.compose import compose, read_sidecar, remember, sidecar_references

    mailed: dict[str, int] = dict(state.get("mailed") or {})
    thread = read_sidecar(path)
    changed = False
    last = None
    for seat in rep.header.seats:
        if not seat.email:
            continue
        before = mailed.get(seat.seat)
        seen = seen_seq(rep, seat.seat)  # in a running duel, the seat's own board
        if before is not None and before >= seen:
            continue
        msg = compose(rep, seat.seat, since_seq=before, previous_message_id=thread.get("last_message_id"),
                      sender=config.sender, references=sidecar_references(thread))
        if not _send(msg, config, report, echo, f"{path.name}: could not mail seat {seat.seat}"):
            continue
        mailed[seat.seat] = seen
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
# Idle games

def fingerprint(path: Path) -> list[int]:
    """What changes whenever a log is appended to, edited or replaced."""
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _read_idle(path: Path) -> Any:
    """The idle note, or None when there is none or it cannot be read (a cache: a bad
    one is only a reason to replay)."""
    try:
        return json.loads(path.read_bytes()) if os.path.exists(path) else None
    except (OSError, ValueError, RecursionError):
        return None


def _still_idle(idle: Any, seen: list[int], now: datetime) -> bool:
    """Whether the pass that left the game idle still holds: the same log, and no wake
    time reached. A sidecar edited by hand that is not what this writes is no reason
    to skip."""
    if not isinstance(idle, dict) or idle.get("log") != seen:
        return False
    wake = idle.get("wake")
    if wake is None:
        return True
    from corr import timecontrol
    from corr.errors import CorruptLog

    try:
        return now < timecontrol.instant(wake)
    except CorruptLog:
        return False


def _pending(rep: Any, state: dict[str, Any]) -> bool:
    """A seat with an address not mailed its newest view (its message failed): the next
    pass must try again."""
    mailed = state.get("mailed") or {}
    return any(seat.email and _seq(mailed.get(seat.seat)) < seen_seq(rep, seat.seat) for seat in rep.header.seats)


def _seq(value: Any) -> int:
    """A seq from the sidecar; -1 for one that is missing or not a number."""
    return value if type(value) is int else -1


def wake_time(rep: Any, state: dict[str, Any], now: datetime) -> str | None:
    """The first instant at which time alone could give this game something to do: the
    seat on turn's reminder (once per turn) or the end of a game's own clock; None when
    only a new record could."""
    from corr import clock as corr_clock
    from corr import timecontrol

    times = []
    to_move = rep.to_move()
    tc = rep.header.time_control
    done = state.get("reminded") or {}
    if to_move is not None and tc is not None and (done.get("seq"), done.get("seat")) != (rep.seq, to_move):
        left = timecontrol.clocks(rep.header, rep.standing(), to_move, now).get(to_move)
        remind = int(dict(tc).get("remind_hours", timecontrol.DEFAULT_REMIND_HOURS)) * timecontrol.HOUR
        if left and left["deadline"] and remind > 0:
            from datetime import timedelta

            times.append(timecontrol.instant(left["deadline"]) - timedelta(seconds=remind))
    due = rep.due_at()
    if due is not None:
        times.append(due)
    if not times:
        return None
    return corr_clock.stamp(max(min(times), now))


# ---------------------------------------------------------------------------------
# One pass


def run_pass(maildir: Path, games: Path, config: Any, echo: Echo = print, now: datetime | None = None,
             keys: tuple[Any, ...] = ()) -> PassReport:
    """Ingest the new mail, mail the games that moved, send the reminders that are due.
    One message or one game going wrong is reported and the pass goes on; only a games
    directory or Maildir that is not there raises. `keys`: the host's private key, which
    signs the records of the games it vouches for (`corr new --host`).

    One pass at a time per games folder (`PASS_LOCK` in it): two overlapping passes
    (a cron job that outlived its minute) would take one reply and refuse the same as
    stale. A pass that finds another running leaves at once, says so, and reports
    `busy`."""
    from corr.log.locking import attempt

    if not games.is_dir():
        raise UsageError(f"--games {games} is not a directory")
    try:
        lock = open(games / PASS_LOCK, "a+b")
    except OSError as err:
        raise UsageError(f"--games {games}: cannot open {PASS_LOCK} there ({err.strerror or err})") from None
    with lock, attempt(lock) as taken:
        if not taken:
            lock.seek(0)
            holder = lock.read(32).decode("ascii", "replace").strip()
            who = f" (process {holder})" if holder.isdigit() else ""
            echo(f"another host pass is running on {games}{who}: this one leaves")
            return PassReport(busy=True)
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n".encode())
        lock.flush()
        return _pass(maildir, games, config, echo, now, keys)


def _pass(maildir: Path, games: Path, config: Any, echo: Echo, now: datetime | None,
          keys: tuple[Any, ...]) -> PassReport:
    """One pass, under the games folder's lock (see run_pass)."""
    from corr import clock, engine

    report = PassReport()
    for key, name, data, parsed in new_messages(maildir):
        try:
            take_message(maildir, games, config, key, name, data, echo, report, parsed, keys)
        except Exception as err:  # noqa: BLE001 - the last guard: one message never stops the host
            from corr.mail.message import flat

            why = flat(f"internal error, a bug in corr: {type(err).__name__}: {err}", 500)
            source = flat(f"{maildir.name}/{key}", 300)
            report.failures.append(f"{source}: {why}")
            try:
                if os.path.lexists(maildir / "new" / name):
                    set_aside(maildir, name, why)
                    report.set_aside += 1
                    echo(f"set aside {source}: {why}")
                    continue
            except Exception:  # noqa: BLE001 - then it stays in new/, and is said so
                pass
            echo(f"{source}: could not be handled: {why}")

    when = now or clock.now()
    for path in sorted(games.glob(f"*{ATTACHMENT_SUFFIX}")):
        try:
            seen = fingerprint(path)
            idle_path = Path(f"{path}{IDLE_SUFFIX}")
            was_idle = _read_idle(idle_path)
            if _still_idle(was_idle, seen, when):
                report.skipped += 1
                continue
            state = read_state(path)
            rep = engine.load(path, now=when)
            for key in keys:  # the host signs what it tells a seat alone (its card), too
                rep.hold(key)
            acted = False
            if rep.is_due():  # a game over on its own clock
                with engine.writing(path, when, resume=rep, keys=keys) as rep:
                    for record in rep.due():
                        acted = True
                        echo(f"{path.name}: seq {record.seq}: {record.by} {record.type}: the time has run out")
            answered = computer_moves(path, echo, rep, keys)
            if answered is not None:
                rep, acted = answered, True
            changed = mail_game(path, rep, state, config, echo, report)
            changed = remind_game(path, rep, state, config, when, echo, report) or changed
            if changed:
                write_state(path, state)
            idle = None if acted or _pending(rep, state) else {"log": seen, "wake": wake_time(rep, state, when)}
            if idle != was_idle:
                if idle is None:
                    idle_path.unlink(missing_ok=True)
                else:
                    write_json(idle_path, idle)
        except Exception as err:  # noqa: BLE001 - one game going wrong never stops the others
            from corr.mail.message import flat

            why = flat(str(err) if isinstance(err, CorrError) else
                       f"internal error, a bug in corr: {type(err).__name__}: {err}", 1000)
            report.failures.append(f"{path.name}: {why}")
            echo(f"{path.name}: skipped: {why}")
    return report


def computer_moves(path: Path, echo: Echo, rep: Any = None, keys: tuple[Any, ...] = ()) -> Any:
    """Let the computer move for its seats on turn (`corr new --bot`, corr.bots.seats)
    before the position is mailed, so a player plays the computer by mail; the game
    after its moves, or None when it made none. The host's lines say what the public
    may read: a move on a board of a running Domino duel is counted, not shown."""
    from corr.bots import seats

    if not seats.path_for(path).exists():
        return None
    answers, after = seats.answer(path, table=rep, keys=keys)
    for line in seats.narrate(answers, after, None):
        echo(f"{path.name}: {line}")
    unseen = len(answers) - len(seats.narrate(answers, after, None))
    if unseen:
        echo(f"{path.name}: the computer made {unseen} move{'s' if unseen > 1 else ''} on boards the public "
             "does not see yet")
    return after


def take_message(maildir: Path, games: Path, config: Any, key: str, name: str, data: bytes | None, echo: Echo,
                 report: PassReport, parsed: Any = None, keys: tuple[Any, ...] = ()) -> None:
    """Ingest one message of `new/`, then move it to `cur/` (answering a refusal), or set
    it aside in `bad/` when it cannot be handled at all."""
    from corr.mail.ingest import ingest_bytes
    from corr.mail.message import flat
    from corr.mail.reply import refusal_reply

    source = flat(f"{maildir.name}/{key}", 300)
    result = ingest_bytes(data, games, source, parsed=parsed, keys=keys)
    if result.aside:
        report.set_aside += 1
        try:
            target = set_aside(maildir, name, result.message)
        except OSError as err:
            echo(f"{source}: could not be handled ({result.message}), and could not be set aside in {BAD}/: "
                 f"{err.strerror or err}")
            return
        echo(f"set aside {source}: {result.message} (in {BAD}/{target.name}, reason in {target.name}{REASON_SUFFIX})")
        return
    try:
        move_to_cur(maildir, name)
    except OSError as err:
        echo(f"{source}: could not move it to cur/: {err.strerror or err}")
    if result.ok:
        report.ingested += 1
        echo(f"ingested {result.line()}")
        return
    report.refused += 1
    echo(f"refused {result.line()}")
    if _automatic(result.msg):
        echo(f"{source}: not answered (an automatic message)")
        return
    from corr.mail.people import stranger

    why = stranger(result.msg, games)
    if why is not None:  # a forged From would turn the refusal into backscatter
        echo(f"{source}: not answered: {flat(why, 300)}")
        return
    try:
        reply = refusal_reply(result, sender=config.sender)
    except Exception as err:  # noqa: BLE001 - a reply that cannot be built never stops the host
        echo(f"{source}: no reply sent: it cannot be built ({type(err).__name__}: {flat(str(err), 300)})")
        return
    if reply is None:
        echo(f"{source}: nobody to answer")
        return
    if _send(reply, config, report, echo, f"{source}: could not send the refusal"):
        echo(f"{source}: replied to {reply['To']}")
