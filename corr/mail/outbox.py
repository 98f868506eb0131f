"""The host's outbox: every message a pass sends is written here first, then sent.

`GAMES/.outbox/` is laid out like a Maildir. A message is written to `tmp/`, fsynced and
renamed into `new/` (that folder fsynced after), and only then does the host count it
mailed (`FILE.host.json`): from there on the outbox owns its delivery, and a pass killed
before sending loses nothing, for the next pass sends what it finds in `new/`. The
messages of one position to its seats are renamed into `new/` one after the other and
the folder fsynced once for all of them (`settle`), before any of them counts.

At the end of each pass `flush` sends what is due over one SMTP connection, opened only
when something is due, oldest first. A message leaves `new/` (unlinked) as soon as the
server has accepted it, so a later pass never sends it again; the folder is fsynced
once, when the flush ends: a crash before then may send again what this flush sent,
as a crash between the server's answer and the unlink always could (at least once).
A refusal (4xx or 5xx) keeps it for a later try; so does a dropped connection, after
which the pass sends nothing more (the others wait for the next pass: one connection a
pass). Each try that failed doubles the wait before the next (`FIRST_WAIT` up to
`MAX_WAIT`), kept in `tries/NAME.json`; a sidecar that cannot be read only means the
message is tried now. A message still refused `GIVE_UP` after its first failure is
moved to `failed/`, with `NAME.reason` beside it saying why. A server that cannot be
reached at all counts against no message: they wait, and the next pass tries again.

A message is known by what it says, not when it was made (`identity`): a game's message
by its addressee and Subject (which names the game and the seq), so a pass killed after
writing it here but before noting it mailed puts it here once, not twice.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any, Callable

from corr.errors import UsageError
from corr.log.store import sync_dir, write_new
from corr.mail.message import flat
from corr.mail.smtp import Connection, NotSent, SmtpConfig

#: The outbox's folder in the games folder, and its sub-folders.
OUTBOX = ".outbox"
TMP, NEW, FAILED, TRIES = "tmp", "new", "failed", "tries"
#: The suffix of a message's file, and of the file that says why one was given up.
SUFFIX = ".eml"
REASON_SUFFIX = ".reason"
#: The wait after the first failed try, doubled after each next one up to MAX_WAIT.
FIRST_WAIT = timedelta(minutes=1)
MAX_WAIT = timedelta(hours=4)
#: How long after its first failed try a message is given up (moved to failed/).
GIVE_UP = timedelta(days=3)
#: A file in new/ bigger than this is no message the host wrote: it is set aside.
MAX_FILE = 64 * 1024 * 1024
#: A tries sidecar bigger than this is not one the host wrote.
MAX_SIDECAR = 4096

STAMP = "%Y-%m-%dT%H:%M:%SZ"

Echo = Callable[[str], None]


@dataclass
class Waiting:
    """A message in `new/`: to whom, what, and how its tries went."""

    file: str
    to: str
    subject: str
    tries: int = 0
    next_try: str | None = None  # None: now
    last_error: str | None = None


@dataclass
class Failed:
    """A message given up, in `failed/`, and why."""

    file: str
    to: str
    subject: str
    reason: str


@dataclass
class Flushed:
    """What one flush did: messages sent, given up, still waiting, and each failure."""

    sent: int = 0
    failed: int = 0
    waiting: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Outgoing:
    """How a pass sends: every message into its outbox, which the SMTP settings then
    empty. It stands where the SMTP settings stood (`sender` is theirs)."""

    smtp: SmtpConfig
    outbox: Outbox

    @property
    def sender(self) -> str | None:
        return self.smtp.sender


@dataclass
class _Tries:
    count: int = 0
    since: datetime | None = None  # the first failed try
    next: datetime | None = None
    error: str | None = None


def identity(msg: EmailMessage) -> str:
    """What makes two messages one: for a game's message (it has X-Corr-Game) the
    addressee and the Subject, which names the game and the seq; for the answer to a
    refused message, the message it answers (In-Reply-To), so a message taken again
    after a stop is not answered twice while the first answer waits; any other is its
    own, by its Message-ID."""
    if msg["X-Corr-Game"] is not None:
        return game_identity(str(msg["To"]), str(msg["Subject"]))
    if msg["Auto-Submitted"] == "auto-replied" and msg["In-Reply-To"] is not None:
        return f"answer\0{msg['In-Reply-To']}\0{msg['To']}\0{msg['Subject']}"
    return f"own\0{msg['Message-ID']}\0{msg['To']}\0{msg['Subject']}"


def game_identity(to: str, subject: str) -> str:
    """The identity of a game's message to `to` with `subject` (see `identity`)."""
    return f"game\0{to}\0{subject}"


def _stamp(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime(STAMP)


def _instant(text: Any) -> datetime | None:
    if not isinstance(text, str) or len(text) != 20:
        return None
    try:
        return datetime.strptime(text, STAMP).replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def wait_after(tries: int) -> timedelta:
    """The wait after the `tries`th failed try: FIRST_WAIT, doubled each time, at most MAX_WAIT."""
    return min(FIRST_WAIT * (2 ** min(max(tries, 1) - 1, 30)), MAX_WAIT)


class Outbox:
    """The outbox of one games folder (`GAMES/.outbox`)."""

    def __init__(self, games: Path) -> None:
        self.root = games / OUTBOX
        self._known: dict[str, str] | None = None  # digest -> file name, of new/
        self._last = 0
        self._unsettled = False  # a message renamed into new/ since the folder was last fsynced
        self._unlinked = False  # a message sent and taken out of new/ since the folder was last fsynced
        self._made: set[str] = set()  # the folders this object made or found: one pass at a time holds them
        # file name -> bytes and envelope (`put_bytes`), of the messages this object wrote
        self._written: dict[str, tuple[bytes, tuple[str, list[str]] | None]] = {}

    # -- writing ----------------------------------------------------------------------

    def put(self, msg: EmailMessage, settle: bool = True) -> str:
        """Write the message into `new/`, durably, unless the same message (`identity`)
        waits there already; its file name. UsageError when it cannot be written.
        `settle`: see put_bytes."""
        try:
            data = _as_bytes(msg)
        except Exception as err:  # noqa: BLE001 - a header that will not go, whatever the error
            raise UsageError(f"the message cannot be written out: {type(err).__name__}: {flat(str(err), 300)}") from None
        return self.put_bytes(data, identity(msg), settle)

    def put_bytes(self, data: bytes, same: str, settle: bool = True,
                  envelope: tuple[str, list[str]] | None = None) -> str:
        """Write the message `data` (as `_as_bytes` writes one) into `new/`, durably, unless
        a message of the identity `same` (`identity`) waits there already; its file name.
        Durably: the file fsynced in `tmp/`, renamed into `new/`, and `new/` fsynced, which
        is what keeps it (a crash before leaves at most a file in `tmp/`, which the next
        flush clears). Without `settle` the fsync of `new/` is left to the caller's
        `settle()`, which must come before the message counts as mailed: several
        messages then share one. `envelope`: for bytes `mime.written` wrote, the sender
        and recipients its headers name (`mime.envelope`), which spares the flush
        reading them back (`as_written`). UsageError when it cannot be written."""
        digest = hashlib.sha256(same.encode("utf-8", "surrogateescape")).hexdigest()[:24]
        try:
            known = self._digests()
            if digest in known and os.path.lexists(self.root / NEW / known[digest]):
                if settle:
                    self.settle()  # it may be one whose folder is not fsynced yet
                return known[digest]
            self._make(TMP, NEW)
            self._last = max(time.time_ns(), self._last + 1)
            name = f"{self._last:020d}.{digest}{SUFFIX}"
            write_new(self.root / TMP / name, data, 0o600, sync_folder=False)
            os.replace(self.root / TMP / name, self.root / NEW / name)
            self._unsettled = True
            if settle:
                self.settle()
        except OSError as err:
            raise self._unwritable(err) from None
        known[digest] = name
        self._written[name] = (data, envelope)
        return name

    def settle(self) -> None:
        """fsync `new/` when a message was renamed into it since it last was: what makes
        those messages stay there through a crash."""
        if self._unsettled:
            try:
                sync_dir(self.root / NEW)
            except OSError as err:
                raise self._unwritable(err) from None
            self._unsettled = False

    def _unwritable(self, err: OSError) -> UsageError:
        return UsageError(f"cannot write to the outbox {self.root}: {err.strerror or err}")

    def _digests(self) -> dict[str, str]:
        if self._known is None:
            self._known = {}
            for name in self._names():
                parts = name.split(".")
                if len(parts) == 3 and parts[0].isdigit():
                    self._known[parts[1]] = name
                    self._last = max(self._last, int(parts[0]))
        return self._known

    def _make(self, *folders: str) -> None:
        """Make the outbox's folders that are missing (each made durable); those this
        object made or found before are not looked for again (a pass writes many
        messages, and holds the games folder's lock while it does)."""
        folders = tuple(folder for folder in folders if folder not in self._made)
        if not folders:
            return
        if not self.root.is_dir():
            self.root.mkdir(mode=0o700, exist_ok=True)
            sync_dir(self.root.parent)
        made = False
        for folder in folders:
            if not (self.root / folder).is_dir():
                (self.root / folder).mkdir(mode=0o700, exist_ok=True)
                made = True
        if made:
            sync_dir(self.root)
        self._made.update(folders)

    def _names(self) -> list[str]:
        """The files of `new/`, oldest first (their names start with the time they were made)."""
        try:
            return sorted(n for n in os.listdir(self.root / NEW) if not n.startswith("."))
        except FileNotFoundError:
            return []

    # -- reading ----------------------------------------------------------------------

    def waiting(self) -> list[Waiting]:
        """The messages in `new/`, oldest first."""
        out = []
        for name in self._names():
            to, subject = _heading(self.root / NEW / name)
            tries = self._tries(name)
            out.append(Waiting(name, to, subject, tries.count, _stamp(tries.next) if tries.next else None,
                               tries.error))
        return out

    def failed(self) -> list[Failed]:
        """The messages given up, in `failed/`, with their reasons."""
        try:
            names = sorted(n for n in os.listdir(self.root / FAILED)
                           if not n.startswith(".") and not n.endswith(REASON_SUFFIX))
        except FileNotFoundError:
            return []
        out = []
        for name in names:
            to, subject = _heading(self.root / FAILED / name)
            try:
                with open(self.root / FAILED / f"{name}{REASON_SUFFIX}", "rb") as f:
                    reason = flat(f.read(4000).decode("utf-8", "replace"), 2000)
            except OSError:
                reason = "(no reason kept)"
            out.append(Failed(name, to, subject, reason))
        return out

    def _tries(self, name: str) -> _Tries:
        """How the message's tries went; a sidecar missing, garbled or hostile is no try."""
        try:
            with open(self.root / TRIES / f"{name}.json", "rb") as f:
                raw = f.read(MAX_SIDECAR + 1)
            data = json.loads(raw) if len(raw) <= MAX_SIDECAR else None
        except (OSError, ValueError, RecursionError):
            return _Tries()
        if not isinstance(data, dict):
            return _Tries()
        count = data.get("tries")
        if type(count) is not int or not 0 < count < 10**6:
            return _Tries()
        error = data.get("error")
        return _Tries(count, _instant(data.get("since")), _instant(data.get("next")),
                      flat(error, 1000) if isinstance(error, str) else None)

    # -- sending ----------------------------------------------------------------------

    def flush(self, config: SmtpConfig, now: datetime, echo: Echo) -> Flushed:
        """Send what is due over one connection (see the module's docstring). Never
        raises: what goes wrong is a failure line, and the messages wait."""
        done = Flushed()
        if not self.root.is_dir():
            return done
        self.settle()  # nothing leaves before it is kept
        try:
            self._flush(config, now, echo, done)
        except Exception as err:  # noqa: BLE001 - the last guard: the outbox never stops the host
            line = f"outbox: internal error, a bug in corr: {_why(err)}"
            done.failures.append(line)
            echo(line)
        try:
            done.waiting = len(self._names())
        except OSError:
            pass
        return done

    def _flush(self, config: SmtpConfig, now: datetime, echo: Echo, done: Flushed) -> None:
        self._clear_tmp()
        due = []
        kept = self._sidecars()  # listed once: most messages were never tried, and have none
        for name in self._names():
            tries = self._tries(name) if f"{name}.json" in kept else _Tries()
            if tries.next is None or tries.next <= now or tries.next > now + MAX_WAIT:  # beyond: not ours
                due.append((name, tries))
        server: Connection | None = None
        try:
            for at, (name, tries) in enumerate(due):
                msg = self._load(name, now, echo, done)
                if msg is None:
                    continue
                if server is None:
                    try:
                        server = Connection(config).__enter__()
                    except Exception as err:  # noqa: BLE001 - UsageError, or whatever else: the host goes on
                        why = _why(err)
                        left = len(due) - at
                        line = (f"outbox: cannot send {left} message{'s' if left != 1 else ''} now, "
                                f"{'they wait' if left != 1 else 'it waits'} for the next pass: {why}")
                        done.failures.append(line)
                        echo(line)
                        break
                if not self._send(server, name, msg, tries, now, echo, done, f"{name}.json" in kept):
                    break
        finally:
            if server is not None:
                server.close()
            if self._unlinked:  # the messages sent leave new/ for good: one fsync for them all
                sync_dir(self.root / NEW)
                self._unlinked = False
        self._clear_sidecars()

    def _send(self, server: Connection, name: str, msg: _Ready, tries: _Tries, now: datetime, echo: Echo,
              done: Flushed, tried: bool = True) -> bool:
        """Send one message; False when the connection is gone (the pass sends no more).
        `tried`: its tries sidecar may stand in `tries/` (the flush listed it there)."""
        try:
            refused = msg.send(server)
        except Exception as err:  # noqa: BLE001 - NotSent, or a bug: the message waits either way
            dropped = not isinstance(err, NotSent) or err.dropped
            self._failed_try(name, msg.about(), tries, _why(err), now, echo, done)
            return not dropped
        try:  # accepted: it never goes again (new/ is fsynced when the flush ends)
            os.unlink(self.root / NEW / name)
            self._unlinked = True
        except OSError as err:
            line = (f"outbox: sent the message {msg.about()}, but cannot take it out of {NEW}/ "
                    f"({err.strerror or err}): the pass stops sending")
            done.failures.append(line)
            echo(line)
            return False
        done.sent += 1
        if tried:
            _remove(self.root / TRIES / f"{name}.json")
        if refused:
            line = f"outbox: sent the message {msg.about()}, but the server refused {flat(', '.join(refused), 300)}"
            done.failures.append(line)
            echo(line)
        return True

    def _failed_try(self, name: str, about: str, tries: _Tries, why: str, now: datetime, echo: Echo,
                    done: Flushed) -> None:
        """Note a failed try: a wait before the next, or the message given up."""
        count = tries.count + 1
        since = tries.since or now
        if now - since >= GIVE_UP:
            reason = f"not sent after {count} tries since {_stamp(since)}: {why}"
            self._give_up(name, reason, about, echo, done)
            return
        nxt = now + wait_after(count)
        line = f"outbox: could not send the message {about}: {why} (try {count}, next at {_stamp(nxt)})"
        done.failures.append(line)
        echo(line)
        record = {"tries": count, "since": _stamp(since), "next": _stamp(nxt), "error": why}
        try:
            from corr.log.sidecars import write_json

            self._make(TRIES)
            write_json(self.root / TRIES / f"{name}.json", record)
        except OSError as err:  # then it is tried again at the next pass: no harm
            echo(f"outbox: cannot note the try of {name}: {err.strerror or err}")

    def _give_up(self, name: str, reason: str, about: str, echo: Echo, done: Flushed) -> None:
        """Move a message to `failed/`, `NAME.reason` beside it, and say so."""
        from corr.log.sidecars import write_bytes

        try:
            self._make(FAILED)
            write_bytes(self.root / FAILED / f"{name}{REASON_SUFFIX}", (flat(reason, 2000) + "\n").encode("utf-8"))
            os.replace(self.root / NEW / name, self.root / FAILED / name)
            sync_dir(self.root / FAILED)
            sync_dir(self.root / NEW)
        except OSError as err:
            line = f"outbox: cannot move {name} to {FAILED}/ ({err.strerror or err}): {flat(reason, 500)}"
            done.failures.append(line)
            echo(line)
            return
        _remove(self.root / TRIES / f"{name}.json")
        done.failed += 1
        line = f"outbox: gave up the message {about}: {flat(reason, 500)} (in {OUTBOX}/{FAILED}/{name})"
        done.failures.append(line)
        echo(line)

    def _load(self, name: str, now: datetime, echo: Echo, done: Flushed) -> _Ready | None:
        """The message of `new/NAME` ready to send, or None when it is none the host
        could send (then it is set aside in `failed/`)."""
        import email.policy
        from email.parser import BytesParser

        path = self.root / NEW / name
        if not os.path.lexists(path):
            return None
        kept = self._written.pop(name, None)  # what this pass wrote there: not read back
        data, envelope = kept if kept is not None else (_read(path), None)
        why = None
        ready: _Ready | None = None
        if data is None:
            why = "not a regular file the host can read"
        elif len(data) > MAX_FILE:
            why = f"bigger than {MAX_FILE // (1024 * 1024)} MB"
        else:
            try:
                wire = as_sent(data) if envelope is None else as_written(data, envelope)
                if wire is not None:
                    ready = _Ready(data, wire, None)
                else:
                    msg = BytesParser(policy=email.policy.default).parsebytes(data)
                    if not msg["To"] or not getattr(msg["To"], "addresses", ()):
                        why = "it names nobody to send it to (no To:)"
                    ready = _Ready(data, None, msg)
            except Exception as err:  # noqa: BLE001 - a garbled file is set aside, whatever breaks
                why = f"not a message: {type(err).__name__}"
        if why is None:
            return ready
        self._give_up(name, f"not a message the host wrote: {why}", f"in {NEW}/{name}", echo, done)
        return None

    def _clear_tmp(self) -> None:
        """Remove what a pass killed while writing left in `tmp/`: one pass at a time
        (the games folder's lock), so nothing there is being written now."""
        try:
            names = os.listdir(self.root / TMP)
        except OSError:
            return
        for name in names:
            _remove(self.root / TMP / name)

    def _sidecars(self) -> set[str]:
        """The files of `tries/` (none when it cannot be listed)."""
        try:
            return set(os.listdir(self.root / TRIES))
        except OSError:
            return set()

    def _clear_sidecars(self) -> None:
        """Remove the tries of messages no longer in `new/`."""
        names = [name for name in self._sidecars() if name.endswith(".json")]
        if not names:
            return
        waiting = set(self._names())
        for name in names:
            if name[:-5] not in waiting:
                _remove(self.root / TRIES / name)

    # -- listing ----------------------------------------------------------------------

    def listing(self) -> dict[str, Any]:
        """What waits and what was given up, as `corr host outbox --json` prints it."""
        return {"waiting": [asdict(w) for w in self.waiting()], "failed": [asdict(f) for f in self.failed()]}


def listing_text(outbox: Outbox) -> str:
    """What waits and what was given up, one line a message, as `corr host outbox` prints it."""
    waiting, failed = outbox.waiting(), outbox.failed()
    lines = []
    if not waiting and not failed:
        return f"nothing waits in {outbox.root} and nothing was given up\n"
    lines.append(f"{len(waiting)} waiting in {outbox.root}{':' if waiting else ''}")
    for w in waiting:
        tried = (f"{w.tries} tr{'y' if w.tries == 1 else 'ies'}, next {w.next_try or 'now'}"
                 + (f", last error: {w.last_error}" if w.last_error else "")) if w.tries else "not tried yet"
        lines.append(f"  To: {w.to}  Subject: {w.subject}  ({tried})")
    lines.append(f"{len(failed)} given up in {outbox.root / FAILED}{':' if failed else ''}")
    for f in failed:
        lines.append(f"  To: {f.to}  Subject: {f.subject}  ({f.file}: {f.reason})")
    return "\n".join(lines) + "\n"


@dataclass
class _Ready:
    """A kept message about to be sent: its bytes, and either the envelope and bytes
    that smtplib's send_message would send for it (`as_sent`) or the whole message
    parsed, for send_message to write out."""

    data: bytes
    wire: tuple[str, list[str], bytes] | None
    whole: EmailMessage | None

    def send(self, server: Connection) -> dict[str, tuple[int, bytes]]:
        if self.wire is not None:
            return server.send_bytes(*self.wire)
        assert self.whole is not None
        return server.send(self.whole)

    def about(self) -> str:
        """`to ADDRESSEE (SUBJECT)`: the message in the outbox's lines."""
        import email.policy

        head = self.whole or BytesHeaderParser(policy=email.policy.default).parsebytes(self.data)
        return f"to {flat(str(head['To']), 200)} ({flat(str(head['Subject']), 200)})"


#: The longest line the standard library's default policy writes: a message none of
#: whose lines is longer is written out again line for line.
MAX_LINE = 78


def as_sent(data: bytes) -> tuple[str, list[str], bytes] | None:
    """The envelope (sender, recipients) and the bytes smtplib's `send_message` sends
    for the message kept as `data`, without parsing it whole and writing it out again;
    None when that could change it, or the envelope is not plain. The bytes are the
    same, line for line with CRLF ends, for a message as the outbox writes one
    (`_as_bytes`) that is ASCII throughout, has no line the default policy would fold
    anew (none over MAX_LINE: it refolds only longer header lines) and no header that
    send_message treats apart (Bcc, which it drops; Sender and the Resent- headers,
    which change the envelope). Its headers are read as they stand (compat32): the
    addresses are those send_message reads, without building a header object each."""
    import email.policy
    from email.utils import getaddresses

    if not data.isascii() or b"\r" in data or not data.endswith(b"\n"):
        return None
    if max(map(len, data.split(b"\n"))) > MAX_LINE:
        return None
    end = data.find(b"\n\n")  # the headers end at the first blank line: the parser reads no further
    head = BytesHeaderParser(policy=email.policy.compat32).parsebytes(data if end < 0 else data[:end + 2])
    names = [key.lower() for key in head.keys()]
    if any(name in ("bcc", "sender") or name.startswith("resent-") for name in names):
        return None
    if names.count("from") != 1 or names.count("to") != 1 or names.count("cc") > 1:
        return None
    unfolded = {name: "".join(str(head[name]).splitlines()) for name in ("From", "To", "Cc") if head[name] is not None}
    senders = getaddresses([unfolded["From"]])
    recipients = [addr for _, addr in getaddresses([unfolded[name] for name in ("To", "Cc") if name in unfolded])]
    if len(senders) != 1 or not recipients or not all("@" in addr for addr in [senders[0][1], *recipients]):
        return None
    return senders[0][1], recipients, data.replace(b"\n", b"\r\n")


def as_written(data: bytes, envelope: tuple[str, list[str]]) -> tuple[str, list[str], bytes] | None:
    """`as_sent(data)` for bytes `mime.written` wrote, `envelope` what their headers name
    (`mime.envelope`): no line of them is longer than MAX_LINE or holds a CR, and their
    headers are From, To and corr's own, so what is left to ask is whether they are ASCII."""
    if not data.isascii():
        return None
    return envelope[0], list(envelope[1]), data.replace(b"\n", b"\r\n")


def _as_bytes(msg: EmailMessage) -> bytes:
    """The message as the outbox keeps it: one to or from an address that is not ASCII is
    kept as UTF-8 (and goes with SMTPUTF8, as `smtplib` sends it), for the default
    encoding would garble the address."""
    import email.policy
    from email.utils import getaddresses

    values = [str(v) for name in ("From", "Sender", "To", "Cc", "Bcc") for v in msg.get_all(name) or []]
    if all(addr.isascii() for _, addr in getaddresses(values)):
        return msg.as_bytes()
    return msg.as_bytes(policy=email.policy.SMTPUTF8)


def _heading(path: Path) -> tuple[str, str]:
    """A kept message's To and Subject, each on one line ('' when it has none)."""
    data = _read(path, 256 * 1024)
    if data is None:
        return "", ""
    try:
        head = BytesHeaderParser().parsebytes(data)
        return flat(str(head["To"] or ""), 300), flat(str(head["Subject"] or ""), 300)
    except Exception:  # noqa: BLE001 - a garbled file lists with what can be read: nothing
        return "", ""


def _read(path: Path, limit: int = MAX_FILE) -> bytes | None:
    """At most limit + 1 bytes of a regular file; None for anything else (a folder, a
    link, a pipe) or a file that cannot be read."""
    from corr.mail.message import read_bounded

    return read_bounded(path, limit)


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _why(err: BaseException) -> str:
    if isinstance(err, UsageError):
        return flat(str(err), 1000)
    return flat(f"{type(err).__name__}: {err}", 1000)
