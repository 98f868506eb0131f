"""The host: runs games for players who only send mail (DESIGN.md 8).

One pass (`run_pass`):

1. every waiting message of the inbox (`corr.mail.inbox`: a Maildir's `new/`, or an IMAP
   folder), in order of the Subject's seq, is ingested into the games directory
   (`ingest.ingest_bytes`) and only then let go (`cur/`, or the IMAP done folder), so
   a host stopped in between takes it again, which changes nothing; a refused message
   is answered with `reply.refusal_reply` (never a message that is itself automatic,
   `Auto-Submitted` other than `no`, so two robots cannot ping-pong, nor one from an
   address no game names, `people.stranger`, which may be forged: no backscatter). A
   message that cannot be handled at all - unreadable, too big, nested too deep, or
   breaking corr - is set aside with its reason (the Maildir's `bad/`, the IMAP bad
   folder) and said on stdout. Nothing one message does stops the pass, and a mail
   server that cannot be reached only leaves the mail for the next pass;
2. every game whose log is past the seq last mailed to a seat is mailed to each seat
   with an email address (`compose.compose`'s message, written to bytes by
   `corr.mail.mime` where it can), each message built from that seat's own
   view: in a game with hidden information the host is the dealer, and each seat's
   message carries its own card and nobody else's (the attached log is public). A game
   the host has never mailed is announced to every seat at its current seq. What was
   mailed is kept per seat;
3. the seat on turn gets a short reminder at each time of its clock's schedule
   (`remind=72,24`, `hostclock.reminder_due`), each once per turn.

Before a game is mailed, the computer moves for its seats on turn (`corr new --bot`,
`FILE.bots.json`), so the players' messages already show its answer; then a seat on
turn whose time has run out loses on time: the host claims the timeout
(`hostclock.claim`), and every seat's message says the game ended so.

The host's own state lives next to each log in `FILE.host.json` (written atomically):
`{"mailed": {"A": 3, ...}, "reminded": {"seq": 3, "seat": "B", "hours": [72, 24]}}`
(see `hostclock`). Mail threading stays in the `FILE.mail.json` sidecar that `corr
mail` keeps.

A pass skips a game it left with nothing to do, as `FILE.idle.json` records (a cache,
never game state: the log's size, modification time and inode then, and the next
instant time alone could give the game something to do - a reminder, a timeout to
claim, the end of Domino's clock): replaying it again would find the same. Any append, edit or
replacement of the log changes that fingerprint; deleting the file only costs a replay.

Every message the host sends - a game's, a refusal's answer, a reminder - is first
written durably into the games folder's outbox (corr.mail.outbox), and counts as mailed
once it is there; the end of the pass sends what the outbox holds over one SMTP
connection, and keeps what the server did not take for a later pass.

Each action is reported as one line through `echo` (ingested / refused / set aside /
mailed / reminded / and the failures to send, which never stop a pass).

What a pass writes is made durable before anything relies on it, each folder fsynced
once where that matters rather than after every file: a reply's sidecar and records
before its message is let go; the inbox's moves of the messages taken once after them
all (`Inbox.settle`); a game's messages in the outbox (one fsync of its `new/`) before
its state counts them; its thread and state (one fsync of the games folder) before its
idle note is written and before anything is sent. The idle note, a cache, is not
fsynced at all.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Callable

from corr.errors import CorrError, UsageError
from corr.mail import ATTACHMENT_SUFFIX
from corr.log.sidecars import json_bytes, read_json, write_json
from corr.log.store import replace_cache, sync_dir
from corr.mail.inbox import Inbox, Incoming
from corr.seatview import seen_seq

#: Where the host keeps what it mailed and reminded: `FILE.host.json`.
HOST_SUFFIX = ".host.json"
#: The host's note that a game had nothing to do: `FILE.idle.json`.
IDLE_SUFFIX = ".idle.json"
#: The file in the games folder a pass holds locked: one pass at a time.
PASS_LOCK = ".corr-host.lock"

Echo = Callable[[str], None]
#: A message's Message-ID and References: what the game's next message threads after.
Thread = tuple[str | None, str | None]


@dataclass
class PassReport:
    """What one pass did."""

    ingested: int = 0
    refused: int = 0
    set_aside: int = 0
    mailed: int = 0
    reminded: int = 0
    digests: int = 0
    skipped: int = 0  # games left as the last pass left them (see `fingerprint`)
    sent: int = 0  # messages the SMTP server took from the outbox
    queued: int = 0  # messages left waiting in the outbox after the pass
    failed: int = 0  # messages the outbox gave up (moved to .outbox/failed/)
    failures: list[str] = field(default_factory=list)
    busy: bool = False  # another pass held the games folder: this one did nothing

    def summary(self) -> str | None:
        """The pass in one line, or None when it did nothing to tell (an idle pass is quiet)."""
        counts = [(self.ingested, "ingested"), (self.refused, "refused"), (self.set_aside, "set aside"),
                  (self.mailed, "mailed"), (self.reminded, "reminded")]
        outbox = [(self.sent, "sent"), (self.queued, "waiting"), (self.failed, "given up")]
        if not any(n for n, _ in counts + outbox):
            return None
        done = ", ".join(f"{n} {what}" for n, what in counts if n)
        return (f"pass: {done or 'nothing new'}; outbox: {self.sent} sent, {self.queued} waiting"
                + (f", {self.failed} given up" if self.failed else ""))


# ---------------------------------------------------------------------------------
# The host sidecar


def host_path(log_path: Path | str) -> Path:
    return Path(f"{log_path}{HOST_SUFFIX}")


def read_state(log_path: Path | str) -> dict[str, Any]:
    return read_json(host_path(log_path), "corr host file", "delete it to mail the game afresh")


def write_state(log_path: Path | str, data: dict[str, Any], sync_folder: bool = True) -> None:
    """Replace `FILE.host.json` (`sidecars.write_json`; without `sync_folder` the caller
    fsyncs the games folder)."""
    write_json(host_path(log_path), data, sync_folder)


# ---------------------------------------------------------------------------------
# Mail out


def _send(msg: EmailMessage, config: Any, report: PassReport, echo: Echo, failure: str, settle: bool = True) -> bool:
    """Put the message in the pass's outbox (`config.outbox`, see corr.mail.outbox), which
    sends it at the end of the pass and keeps it until the server takes it: once there it
    counts as mailed. A message that cannot even be written there is reported (and the
    caller, its state unchanged, tries again on a later pass), not raised. Without
    `settle`, the caller settles the outbox before the message counts."""
    return _put(lambda: config.outbox.put(msg, settle), str(msg["To"]), report, echo, failure)


def _put(put: Callable[[], object], to: str, report: PassReport, echo: Echo, failure: str) -> bool:
    """`_send`, the message put by `put` (its addressee `to`, for the line that says it failed)."""
    try:
        put()
    except Exception as err:  # noqa: BLE001 - put says UsageError; anything else is not fatal either
        why = str(err) if isinstance(err, UsageError) else f"{type(err).__name__}: {err}"
        report.failures.append(f"{failure}: {why}")
        echo(f"{failure} ({to}): {why}")
        return False
    return True


def _why(err: BaseException) -> str:
    """An error in a few words for the host's lines."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err) if isinstance(err, CorrError) else f"{type(err).__name__}: {err}"


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
    from corr.mail.compose import SharedParts, read_sidecar

    mailed: dict[str, int] = dict(state.get("mailed") or {})
    thread = read_sidecar(path)
    changed = False
    last: Thread | None = None  # what the next message threads after
    boards = SharedParts(rep)  # drawn once for every seat that sees the public board
    for seat in rep.header.seats:
        if not seat.email:
            continue
        before = mailed.get(seat.seat)
        seen = seen_seq(rep, seat.seat)  # in a running duel, the seat's own board
        if before is not None and before >= seen:
            continue
        sent = _mail_seat(rep, seat.seat, before, thread, config, boards, report, echo,
                          f"{path.name}: could not mail seat {seat.seat}")
        if sent is None:
            continue
        to, subject, last = sent
        mailed[seat.seat] = seen
        changed = True
        report.mailed += 1
        echo(f"{path.name}: mailed seat {seat.seat} {to}: {subject}")
    config.outbox.settle()  # the seats' messages kept, with one fsync of the outbox, before they count
    if changed:
        state["mailed"] = mailed
        if last is not None:
            from corr.mail.compose import remember_thread

            remember_thread(path, *last, sync_folder=False)  # the next message threads after this one; the
            # games folder is fsynced with the state's write (see `_pass`)
    return changed


def _mail_seat(rep: Any, seat: str, before: int | None, thread: dict[str, Any], config: Any, boards: Any,
               report: PassReport, echo: Echo, failure: str) -> tuple[str, str, Thread] | None:
    """Put the game's message to `seat` in the outbox: written to bytes directly when it
    is of the shape `corr.mail.mime` writes (the same bytes, without the email package's
    header objects and generator), else as an EmailMessage. Its To and Subject, and the
    Message-ID and References the next message threads after; None when it could not
    be put there (reported). The outbox is left for `mail_game` to settle, once for
    all the seats."""
    from corr.mail.compose import draft, header_text, message_id, sidecar_references
    from corr.mail.outbox import game_identity

    made = draft(rep, seat, since_seq=before, previous_message_id=thread.get("last_message_id"),
                 sender=config.sender, references=sidecar_references(thread), boards=boards)
    data = made.written()
    if data is None:
        msg = made.message()
        if not _send(msg, config, report, echo, failure, settle=False):
            return None
        return str(msg["To"]), str(msg["Subject"]), (message_id(msg), header_text(msg, "References", 20_000) or None)
    to, subject = made.value("To") or "", made.value("Subject") or ""
    if not _put(lambda: config.outbox.put_bytes(data, game_identity(to, subject), settle=False,
                                                 envelope=made.envelope()), to, report, echo, failure):
        return None
    return to, subject, (made.value("Message-ID"), made.value("References"))


def remind_game(path: Path, rep: Any, state: dict[str, Any], config: Any, now: datetime, echo: Echo,
                report: PassReport, digest: Any = None) -> bool:
    """Remind the seat on turn when a time of its clock's schedule has come, each time
    once per turn (`hostclock.reminder_due`), or leave it to the daily `digest` when that
    covers the seat's address; True if state changed."""
    from corr.mail import hostclock

    due = hostclock.reminder_due(rep, state, now)
    if due is None:
        return False
    to_move, clock, hours = due
    seat = next((s for s in rep.header.seats if s.seat == to_move), None)
    if seat is None or not seat.email:
        return False
    if digest is not None and digest.covers(seat.email, clock["deadline"]):
        hostclock.note_reminded(state, rep, to_move, hours)
        echo(f"{path.name}: seat {to_move}'s reminder goes into the daily digest")
        return True
    msg = reminder(rep, seat, clock["left"], clock["deadline"], config.sender)
    if not _send(msg, config, report, echo, f"{path.name}: could not remind seat {to_move}"):
        return False
    hostclock.note_reminded(state, rep, to_move, hours)
    report.reminded += 1
    echo(f"{path.name}: reminded seat {to_move} {msg['To']}: {msg['Subject']}")
    return True


# ---------------------------------------------------------------------------------
# Idle games

def fingerprint(path: Path) -> list[int]:
    """What changes whenever a log is appended to, edited or replaced."""
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _logs(games: Path) -> list[Path]:
    """The games folder's logs, in order of their names: what `games.glob("*.corr")`
    finds, without matching each name against a pattern."""
    return [games / name for name in sorted(os.listdir(games)) if name.endswith(ATTACHMENT_SUFFIX)]


def _read_idle(path: str) -> Any:
    """The idle note, or None when there is none or it cannot be read (a cache: a bad
    one is only a reason to replay)."""
    try:
        with open(path, "rb") as note:
            return json.loads(note.read())
    except (OSError, ValueError, RecursionError):  # none (FileNotFoundError) among them
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
    seat on turn's next reminder (each time of its schedule once per turn), the second
    its time runs out (the host claims the timeout) or the end of a game's own clock;
    None when only a new record could."""
    from corr import clock as corr_clock
    from corr.mail import hostclock

    times = hostclock.wake_times(rep, state, now)
    due = rep.due_at()
    if due is not None:
        times.append(due)
    if not times:
        return None
    return corr_clock.stamp(max(min(times), now))


# ---------------------------------------------------------------------------------
# One pass


def run_pass(inbox: Inbox | Path, games: Path, config: Any, echo: Echo = print, now: datetime | None = None,
             keys: tuple[Any, ...] = (), digest: tuple[int, int] | None = None,
             tournaments: Path | None = None) -> PassReport:
    """Ingest the new mail, mail the games that moved, send the reminders that are due.
    `inbox`: where the mail comes from (`corr.mail.inbox`; a path is a Maildir). One
    message or one game going wrong is reported and the pass goes on; only a games
    directory or Maildir that is not there raises. `keys`: the host's private key, which
    signs the records of the games it vouches for (`corr new --host`). `digest`: the
    time of day (UTC) of the daily digest to players in several games (`corr.mail.digest`).
    `tournaments`: a folder of event logs the host runs (`corr.mail.events`).

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
        if isinstance(inbox, Path):
            from corr.mail.maildir import MaildirInbox

            inbox = MaildirInbox(inbox)
        return _pass(inbox, games, config, echo, now, keys, digest, tournaments)


def _pass(inbox: Inbox, games: Path, config: Any, echo: Echo, now: datetime | None,
          keys: tuple[Any, ...], digest: tuple[int, int] | None = None,
          tournaments: Path | None = None) -> PassReport:
    """One pass, under the games folder's lock (see run_pass)."""
    from corr import clock, engine
    from corr.mail import digest as digests
    from corr.mail.outbox import Outbox, Outgoing
    from corr.mail import hostclock

    report = PassReport()
    config = Outgoing(config, Outbox(games))  # every message goes into the outbox first
    try:
        waiting = inbox.messages()
    except CorrError as err:  # a mail server down: the games still get their mail and clocks
        from corr.mail.message import flat

        why = flat(str(err), 500)
        report.failures.append(f"{inbox.label}: {why}")
        echo(f"mail not read this pass: {why}")
        waiting = []
    names = None
    if waiting:  # the folder listed once for every message (a message adds no log to it)
        from corr.mail.ingest import log_names

        names = log_names(games)
    taken: dict[Path, tuple[list[int], Any]] = {}  # log -> (its fingerprint, its table) as a message left it
    for item in waiting:
        try:
            took = take_message(inbox, games, config, item, echo, report, keys, names)
            if took is not None:
                taken[took.path] = (fingerprint(took.path), took.table)
        except Exception as err:  # noqa: BLE001 - the last guard: one message never stops the host
            from corr.mail.message import flat

            why = flat(f"internal error, a bug in corr: {type(err).__name__}: {err}", 500)
            source = flat(f"{inbox.label}/{item.key}", 300)
            report.failures.append(f"{source}: {why}")
            try:
                inbox.set_aside(item, why)
                report.set_aside += 1
                echo(f"set aside {source}: {why}")
                continue
            except Exception:  # noqa: BLE001 - then it stays waiting, and is said so
                pass
            echo(f"{source}: could not be handled: {why}")
    if waiting:  # the messages' moves kept together (see Inbox.settle)
        inbox.settle()

    when = now or clock.now()
    if tournaments is not None:  # results taken, rounds paired: the games loop announces them
        from corr.mail.events import run_events

        report.failures += run_events(tournaments, games, when, config.sender,
                                      lambda msg, failure: _send(msg, config, report, echo, failure), echo)
    daily = digests.Digest(games, digest, when) if digest is not None else None
    for path in _logs(games):
        try:
            seen = fingerprint(path)
            idle_note = f"{path}{IDLE_SUFFIX}"
            was_idle = _read_idle(idle_note)
            if _still_idle(was_idle, seen, when):
                report.skipped += 1
                continue
            idle_path = Path(idle_note)
            state = read_state(path)
            kept = taken.get(path)
            if kept is not None and kept[0] == seen:  # the log as a message of this pass left it
                rep = kept[1]
                rep.now = when
            else:
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
            claimed = hostclock.claim(path, rep, when, keys)  # a seat out of time: the host claims it
            if claimed is not None:
                rep, acted = claimed[0], True
                for line in hostclock.claim_lines(path.name, *claimed):
                    echo(line)
            changed = mail_game(path, rep, state, config, echo, report)
            changed = remind_game(path, rep, state, config, when, echo, report, daily) or changed
            if changed:  # the thread and the state kept with one fsync of the folder, before the idle note
                write_state(path, state, sync_folder=False)
                sync_dir(games)
            idle = None if acted or _pending(rep, state) else {"log": seen, "wake": wake_time(rep, state, when)}
            if idle != was_idle:
                if idle is None:
                    idle_path.unlink(missing_ok=True)
                else:  # a cache written after what it sums up is kept: a crash at worst costs a replay
                    replace_cache(idle_path, json_bytes(idle), 0o600)
        except Exception as err:  # noqa: BLE001 - one game going wrong never stops the others
            from corr.mail.message import flat

            why = flat(str(err) if isinstance(err, CorrError) else
                       f"internal error, a bug in corr: {type(err).__name__}: {err}", 1000)
            report.failures.append(f"{path.name}: {why}")
            echo(f"{path.name}: skipped: {why}")
    if digest is not None:
        report.digests += digests.send_due(games, digest, when, config.sender,
                                           lambda msg, failure: _send(msg, config, report, echo, failure), echo)

    flushed = config.outbox.flush(config.smtp, now or clock.now(), echo)
    report.sent, report.queued, report.failed = flushed.sent, flushed.waiting, flushed.failed
    report.failures += flushed.failures
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


def take_message(inbox: Inbox, games: Path, config: Any, item: Incoming, echo: Echo, report: PassReport,
                 keys: tuple[Any, ...] = (), names: tuple[str, ...] | None = None) -> Any:
    """Ingest one waiting message, answer it when it is refused, and only then tell the
    inbox it is done; or set it aside when it cannot be handled at all. Only what is on
    disk - the game's records, the answer in the outbox - lets the message go: a host
    stopped before `done` takes it again, which changes nothing (the same answer still
    waiting in the outbox is not queued twice). `names`: the games folder's logs, as the
    pass listed them once for all its messages. The ingest's result when the message
    added records to a game (its table then goes on into the pass), else None."""
    from corr.mail.ingest import ingest_bytes
    from corr.mail.message import flat

    source = flat(f"{inbox.label}/{item.key}", 300)
    result = ingest_bytes(item.data, games, source, parsed=item.parsed, keys=keys, names=names)
    if result.aside:
        report.set_aside += 1
        try:
            where = inbox.set_aside(item, result.message)
        except Exception as err:  # noqa: BLE001 - an inbox that fails says why; the pass goes on
            echo(f"{source}: could not be handled ({result.message}), and could not be set aside: {_why(err)}")
            return
        echo(f"set aside {source}: {result.message} ({where})")
        return
    if result.ok:
        report.ingested += 1
        echo(f"ingested {result.line()}")
    else:
        report.refused += 1
        echo(f"refused {result.line()}")
        _answer(result, games, config, source, echo, report)
    try:
        inbox.done(item)
    except Exception as err:  # noqa: BLE001 - taken again next pass, which changes nothing
        echo(f"{source}: could not mark it done: {_why(err)}")
    return result if result.ok and result.table is not None and result.path is not None else None


def _answer(result: Any, games: Path, config: Any, source: str, echo: Echo, report: PassReport) -> None:
    """Tell the sender of a refused message why, unless it is automatic or comes from an
    address no game names (a forged From would turn the answer into backscatter)."""
    from corr.mail.message import flat
    from corr.mail.people import stranger
    from corr.mail.reply import refusal_reply

    if _automatic(result.msg):
        echo(f"{source}: not answered (an automatic message)")
        return
    why = stranger(result.msg, games)
    if why is not None:
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
