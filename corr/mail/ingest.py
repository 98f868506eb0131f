"""Incoming mail: take a message's move into the local copy of its game (DESIGN.md 8).

A message names its game by `[corr <id>]` in the Subject or by the header of its
attached log (`<id>.corr`); the log is the file in the games directory whose header has
that id. The move comes from

- the attached log: its records after this copy's tail are checked and appended by
  `engine.accept` (lines this copy already has are skipped; a line that differs is
  refused as a diverged copy, exit 2; a gap is refused, exit 1; signatures and rules are
  checked by replay, exit 2), or
- without an attachment, the plain-text body: the first line (not quoted with `>`) that
  parses as a move is played for the seat on turn with `engine.act`. The Subject's seq
  (the message replied to) must be this copy's last seq: an older one is stale, a newer
  one is from the future. Games with keys take signed records only, so they need the log
  attached.

  In a game without keys a body move is taken only from the address its seat has in
  the header (a weak guard: `From:` can be forged; keys are the proof). Without it,
  anyone could play for the seat on turn, and in a game with hidden cards learn that
  seat's card from the refusals.

Refused, with a one-line reason and the log unchanged: unknown game, stale or future
seq, diverged copy or bad chain or signature (exit 2), HTML-only body, a body move from
an address that is not its seat's, a message that is not a corr message, an attachment
over MAX_ATTACHMENT bytes. Ingesting the same message twice changes nothing (a body
move's Message-ID is remembered in the sidecar).

A dealer's message to one seat of a game with hidden information carries that seat's
private panel (`X-Corr-For`, `X-Corr-Private`: its hand). When the attached log is
taken in (or adopted with `new`) on a copy that cannot deal, the panel is checked and
kept in the sidecar (`compose.keep_private`), for `show --for SEAT`. A panel that does
not hold up is ignored with a note in the result; it never refuses a good message.
"""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

from corr.errors import CorrError, CorruptLog, NotationError, UsageError
from corr.mail import ATTACHMENT_SUFFIX
from corr.mail.compose import (
    FOR_HEADER,
    MAX_PANEL_TEXT,
    PRIVATE_HEADER,
    SUBJECT_RE,
    keep_private,
    panel_problem,
    read_sidecar,
    remember,
)

#: The largest attached log taken in (bytes, decoded); a bigger one is refused unread.
MAX_ATTACHMENT = 1 << 20
#: The largest message taken in at all.
MAX_MESSAGE = 4 * MAX_ATTACHMENT


@dataclass
class Result:
    """What ingesting one message did (or why it was refused)."""

    source: str
    ok: bool
    code: int = 0
    message: str = ""
    game: str | None = None
    path: Path | None = None
    records: list[Any] = field(default_factory=list)
    msg: EmailMessage | None = None

    def line(self) -> str:
        status = "ok" if self.ok else "refused"
        return f"{self.source}: {status}: {self.message}"


def parse_message(data: bytes) -> EmailMessage:
    if len(data) > MAX_MESSAGE:
        raise UsageError(f"message of {len(data)} bytes is over the limit of {MAX_MESSAGE}; not read")
    return email.message_from_bytes(data, policy=email.policy.default)  # type: ignore[return-value]


def _attachments(msg: EmailMessage) -> list[EmailMessage]:
    found = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = part.get_filename() or ""
        ctype = part.get_content_type()
        if name.endswith(ATTACHMENT_SUFFIX) or ctype.startswith("application/x-corr"):
            found.append(part)
    return found


def _attachment_bytes(part: EmailMessage) -> bytes:
    encoded = part.get_payload()
    if isinstance(encoded, str) and len(encoded) > MAX_ATTACHMENT * 4 // 3 + 4096:
        raise UsageError(f"attachment {part.get_filename()} is over the size limit of {MAX_ATTACHMENT} bytes")
    data = part.get_payload(decode=True) or b""
    if len(data) > MAX_ATTACHMENT:
        raise UsageError(f"attachment {part.get_filename()} is over the size limit of {MAX_ATTACHMENT} bytes")
    return data


def _plain_text(msg: EmailMessage) -> str | None:
    body = msg.get_body(preferencelist=("plain",))
    if body is None:
        return None
    try:
        return body.get_content()
    except (LookupError, ValueError):
        raise UsageError("the plain-text body cannot be decoded") from None


def subject_ref(msg: EmailMessage) -> tuple[str | None, int | None]:
    """(game id, seq) from the Subject's `[corr <id>] <seq>.`."""
    match = SUBJECT_RE.search(str(msg.get("Subject") or ""))
    if not match:
        return None, None
    return match.group(1), int(match.group(2)) if match.group(2) else None


def find_game(games: Path, game_id: str) -> Path:
    """The log in `games` whose header has this id."""
    if not games.is_dir():
        raise UsageError(f"--games {games} is not a directory")
    for path in sorted(games.glob(f"*{ATTACHMENT_SUFFIX}")):
        try:
            with open(path, "rb") as f:
                first = f.readline(1 << 16)
            if json.loads(first).get("id") == game_id:
                return path
        except (OSError, ValueError, AttributeError):
            continue
    raise UsageError(f"unknown game {game_id}: no log in {games} has that id")


def _seen(path: Path, msg: EmailMessage) -> bool:
    message_id = str(msg.get("Message-ID") or "").strip()
    return bool(message_id) and message_id in read_sidecar(path).get("seen", [])


def adopt(games: Path, game_id: str, attached: bytes) -> Path:
    """A game's first message to a new player: its attached log, checked whole (chain,
    rules, state hashes, signatures), becomes this player's copy `<game-id>.corr`."""
    import os

    from corr import engine
    from corr.log import store

    path = games / f"{game_id}{ATTACHMENT_SUFFIX}"
    log = store.parse(attached, path)
    if log.torn is not None:
        raise CorruptLog(f"the attached log of game {game_id} ends with a torn line", kind="torn")
    engine.replay(log)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise UsageError(f"{path} exists but is not game {game_id}; move it away first") from None
    with os.fdopen(fd, "wb") as f:
        f.write(attached)
        f.flush()
        os.fsync(f.fileno())
    return path


def ingest(msg: EmailMessage, games: Path, source: str = "message", new: bool = False) -> Result:
    """Take one parsed message into its game; raises CorrError with the reason it is refused.
    With `new`, a message for a game not yet in `games` that carries the game's log
    starts this player's copy of it."""
    from corr import engine

    game_id, seq = subject_ref(msg)
    parts = _attachments(msg)
    if len(parts) > 1:
        raise UsageError(f"{len(parts)} corr logs attached; send one per message")
    attached = _attachment_bytes(parts[0]) if parts else None
    rows: list[bytes] = []
    if attached is not None:
        rows = attached.split(b"\n")
        if rows and rows[-1] == b"":
            rows.pop()
        try:
            attached_id = json.loads(rows[0]).get("id") if rows else None
        except (ValueError, AttributeError):
            attached_id = None
        if not isinstance(attached_id, str):
            raise UsageError(f"attachment {parts[0].get_filename()} is not a corr log (no header line)")
        if game_id is not None and attached_id != game_id:
            raise UsageError(f"the Subject names game {game_id}, the attached log is game {attached_id}")
        game_id = attached_id
    if game_id is None:
        raise UsageError("not a corr message: no `[corr <game-id>]` in the Subject and no .corr log attached")
    try:
        path = find_game(games, game_id)
    except UsageError:
        if not (new and attached is not None and games.is_dir()):
            raise
        path = adopt(games, game_id, attached)
        rep = engine.load(path)
        remember(path, msg, seen=True)
        return Result(source, True, game=game_id, path=path, msg=msg, records=list(rep.log.records),
                      message=f"{path.name}: new game {game_id} at seq {rep.seq}" + take_panel(msg, path, rep, rep.seq))
    result = Result(source, True, game=game_id, path=path, msg=msg)
    if attached is not None:
        local = engine.load(path)
        if rows[0] != local.log.header_raw:
            raise CorruptLog(
                f"{path}: the attached log's header differs from this copy's: the copies have diverged", kind="diverged"
            )
        rep, records = engine.accept(path, rows[1:])
        result.records = records
        if records:
            result.message = f"{path.name}: took seq {records[0].seq}-{records[-1].seq}" if len(records) > 1 else (
                f"{path.name}: took seq {records[0].seq}")
        else:
            result.message = f"{path.name}: nothing new (this copy has all {len(rows) - 1} records, up to seq {rep.seq})"
        remember(path, msg, seen=True)
        result.message += take_panel(msg, path, rep, _last_seq(rows))
        return result
    # No attachment: a move in the plain-text body.
    if _seen(path, msg):
        result.message = f"{path.name}: message already ingested; nothing changed"
        return result
    text = _plain_text(msg)
    if text is None:
        raise UsageError("HTML-only message: write the move in a plain-text body or attach the log")
    rep = engine.load(path)
    if any(seat.key for seat in rep.header.seats):
        raise UsageError(f"game {game_id} has keys: a move must come as a signed record in the attached log")
    if seq is None:
        raise UsageError("no seq in the Subject: reply to the game's last message (`[corr <id>] <seq>. ...`)")
    if seq < rep.seq:
        raise UsageError(f"stale message: it answers seq {seq}, this copy is at seq {rep.seq}")
    if seq > rep.seq:
        raise UsageError(f"message from the future: it answers seq {seq}, this copy is only at seq {rep.seq}")
    move = _first_move(text)
    if move is None:
        raise UsageError("no move found in the plain-text body (write it on a line of its own, e.g. 7 (5,4))")
    on_turn = rep.to_move()
    if on_turn is not None:
        _check_sender(rep, msg, on_turn)
    rep, records = engine.act(path, "move", by=on_turn, text=move)
    result.records = records
    result.message = f"{path.name}: played seq {records[0].seq} {records[0].by} {move}"
    remember(path, msg, seen=True)
    return result


def _check_sender(rep: Any, msg: EmailMessage, seat: str) -> None:
    """A body move is taken only from the address its seat has in the header (DESIGN 8:
    a weak guard, said so in the refusal); a seat without an address is not checked."""
    entry = next((s for s in rep.header.seats if s.seat == seat), None)
    if entry is None or not entry.email:
        return
    try:
        senders = [a.addr_spec.lower() for a in msg["From"].addresses] if msg["From"] is not None else []
    except Exception:  # noqa: BLE001 - a From header the parser cannot read is nobody's
        senders = []
    if senders != [entry.email.lower()]:
        raise UsageError(
            f"the move is seat {seat}'s to make, and this message is not from {seat}'s address in the header "
            "(a game without keys takes a body move only from its seat's address)"
        )


def _last_seq(rows: list[bytes]) -> int:
    """The seq of an attached log's last record (0 for a header alone); its lines were
    checked already."""
    if len(rows) < 2:
        return 0
    try:
        seq = json.loads(rows[-1]).get("seq")
    except (ValueError, AttributeError):
        return 0
    return seq if type(seq) is int else 0


class _Ignored(Exception):
    """Why a message's private panel is not kept."""


def read_panel(msg: EmailMessage, rep: Any, seq: int) -> tuple[str, dict[str, Any]] | None:
    """The (seat, panel) a message carries for this copy of a game with hidden
    information, checked as hostile input; None when it carries none. Raises _Ignored
    with the reason a panel cannot be kept."""
    from corr.view import position

    wanted = (FOR_HEADER.lower(), PRIVATE_HEADER.lower())
    found = [(name.lower(), value) for name, value in msg.raw_items() if name.lower() in wanted]
    if not found:
        return None
    for header in (FOR_HEADER, PRIVATE_HEADER):
        count = sum(1 for name, _ in found if name == header.lower())
        if count != 1:
            raise _Ignored(f"{header} given {count} times, once expected")
    if any(len(str(value)) > 4 * MAX_PANEL_TEXT for _, value in found):
        raise _Ignored(f"a header over {MAX_PANEL_TEXT} characters")
    try:
        seat_text, text = str(msg[FOR_HEADER]), str(msg[PRIVATE_HEADER])
        game_text, seq_text = str(msg.get("X-Corr-Game") or ""), str(msg.get("X-Corr-Seq") or "")
    except Exception:  # noqa: BLE001 - a header the parser cannot read
        raise _Ignored("a header that cannot be read") from None
    if len(text) > MAX_PANEL_TEXT or len(seat_text) > MAX_PANEL_TEXT:
        raise _Ignored(f"a header over {MAX_PANEL_TEXT} characters")
    game = rep.game
    if not game.hidden:
        raise _Ignored(f"{game.title} has no hidden information")
    if game.dealt:
        raise _Ignored("this copy knows every hand itself")
    if game_text.strip() and game_text.strip() != rep.header.id:
        raise _Ignored(f"X-Corr-Game names another game than {rep.header.id}")
    if seq_text.strip() and seq_text.strip() != str(seq):
        raise _Ignored(f"X-Corr-Seq is not the attached log's seq {seq}")
    seat = seat_text.strip().upper()
    if seat not in game.seats:
        raise _Ignored(f"{FOR_HEADER} names no seat of this game (seats: {', '.join(game.seats)})")
    try:
        view = json.loads(text)
    except (ValueError, RecursionError):
        raise _Ignored(f"{PRIVATE_HEADER} is not JSON") from None
    problem = panel_problem(view)
    if problem is not None:
        raise _Ignored(f"{PRIVATE_HEADER}: {problem}")
    public = set(position(rep)) | {"viewer"}
    clash = sorted(set(view) & public)
    if clash:
        raise _Ignored(f"{PRIVATE_HEADER} would overwrite the public position's {clash[0]!r}")
    return seat, view


def take_panel(msg: EmailMessage, path: Path, rep: Any, seq: int) -> str:
    """Keep the message's private panel for its seat (see read_panel); the note the
    result line gets, "" when the message carries none."""
    try:
        found = read_panel(msg, rep, seq)
    except _Ignored as why:
        return f"; private panel ignored: {why}"
    if found is None:
        return ""
    seat, view = found
    if not keep_private(path, seat, seq, view):
        return f"; seat {seat}'s private panel of seq {seq} not kept: a later one is"
    return f"; kept seat {seat}'s private panel of seq {seq}"


def _first_move(text: str) -> str | None:
    from corr.notation import parse

    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(">"):
            continue
        try:
            parse(line)
        except NotationError:
            continue
        except CorrError:
            continue
        return line
    return None


def ingest_bytes(data: bytes, games: Path, source: str = "message", new: bool = False) -> Result:
    """Ingest one message; a refusal becomes a Result with its exit code and reason."""
    msg = None
    try:
        msg = parse_message(data)
        return ingest(msg, games, source, new)
    except CorrError as err:
        return Result(source, False, err.exit_code, str(err), msg=msg)


def _seq_key(item: tuple[str, bytes]) -> int:
    try:
        _, seq = subject_ref(parse_message(item[1]))
    except CorrError:
        seq = None
    return seq if seq is not None else 0


def mailbox_messages(mbox: Path | None = None, maildir: Path | None = None) -> list[tuple[str, bytes]]:
    """Every message of an mbox or Maildir, as (name, bytes), in order of the Subject's
    seq (stable: mbox order, then Maildir key order) so a game's moves go in in turn."""
    items: list[tuple[str, bytes]] = []
    if mbox is not None:
        if not mbox.is_file():
            raise UsageError(f"no such mbox: {mbox}")
        box: Any = mailbox.mbox(mbox, create=False)
        for i, key in enumerate(box.keys(), start=1):
            items.append((f"{mbox.name}#{i}", box.get_bytes(key)))
    elif maildir is not None:
        if not (maildir / "new").is_dir() and not (maildir / "cur").is_dir():
            raise UsageError(f"{maildir} is not a Maildir (no new/ or cur/)")
        box = mailbox.Maildir(maildir, factory=None, create=False)
        for key in sorted(box.keys()):
            items.append((f"{maildir.name}/{key}", box.get_bytes(key)))
    return sorted(items, key=_seq_key)


def iter_ingest(items: list[tuple[str, bytes]], games: Path, new: bool = False) -> Iterator[Result]:
    for name, data in items:
        yield ingest_bytes(data, games, name, new)


def _flat(text: str, limit: int = 200) -> str:
    """A header value from a hostile message made safe to put into a reply's header: its
    control characters (a decoded newline) become spaces, and it is cut to `limit`."""
    flat = " ".join("".join(" " if ch < " " or "\x7f" <= ch <= "\x9f" else ch for ch in text).split())
    return flat[:limit]


def _sender(msg: EmailMessage) -> tuple[str, str] | None:
    """(name, address) of the message's first `From:` address; None when it has none."""
    try:
        header = msg["From"]
        addresses = header.addresses if header is not None else ()
    except Exception:  # noqa: BLE001 - a From header the parser cannot read is nobody's
        return None
    for found in addresses:
        spec = _flat(found.addr_spec or "", 320)
        if "@" in spec and " " not in spec:
            return _flat(found.display_name or "", 100), spec
    return None


def refusal_reply(result: Result, sender: str | None = None) -> EmailMessage | None:
    """A reply to a refused message, saying why; None when there is nobody to answer.

    It goes to the message's `From:` address only, never to a `Reply-To:`: a refusal may
    tell about the sender's own hand ("B does not hold a 5"), and the address a body move
    is checked against is the From address, so an impostor naming a seat's address gets
    nothing back. Header values taken from the message are made single-line first."""
    from email.utils import formataddr, formatdate, make_msgid

    original = result.msg
    if original is None:
        return None
    found = _sender(original)
    if found is None:
        return None
    try:
        subj = _flat(str(original.get("Subject") or ""))
        message_id = _flat(str(original.get("Message-ID") or ""), 500)
        references = _flat(str(original.get("References") or ""), 4000).split()[-20:]
        own = _flat(str(original.get("To") or ""), 500)
    except Exception:  # noqa: BLE001 - headers the parser cannot read are left out
        subj, message_id, references, own = "", "", [], ""
    reply = EmailMessage()
    try:
        reply["From"] = sender or own or "corr@localhost"
    except (ValueError, TypeError, IndexError):
        reply["From"] = "corr@localhost"
    reply["To"] = formataddr(found)
    reply["Subject"] = subj if subj.lower().startswith("re:") else f"Re: {subj}" if subj else "Re: your corr message"
    reply["Date"] = formatdate(usegmt=True)
    reply["Message-ID"] = make_msgid("corr-reply")
    if message_id:
        reply["In-Reply-To"] = message_id
        reply["References"] = " ".join([*references, message_id])
    reply["Auto-Submitted"] = "auto-replied"
    reply.set_content(
        "corr did not take your message:\n\n"
        f"  {result.message}\n\n"
        "Nothing was changed in the game log. Reply to the game's latest message with your move\n"
        "on the first line, or attach your copy of the log.\n"
    )
    return reply
