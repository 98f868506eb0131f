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

  The seq is checked again under the log's lock (`engine.act(..., answers=seq)`), so
  of several replies racing to answer one seq exactly one is taken, the others are
  refused as stale.

Who may add records by mail. A record by a seat with a key is taken from anyone: its
signature decides (checked by replay). In a game without keys the address is the only
(weak) guard: a body move, and every new record by a keyless seat in an attached log,
is taken only from a message whose `From:` is that one seat's address in the header
(case-insensitive; a From with several addresses, or a seat without an address, is
refused). Rulings by the referee or host are signed, and the dealer's reveal is bound
by the header's commitment, so those are taken from anyone. A player's copy of a game
with hidden information, which cannot deal, only follows the dealer's copy, where every
move is made and checked: it takes the dealer's messages whoever forwards them (its
state hashes and, at the end, the reveal check them). A copy started with `new` is the
attached log as its sender has it: it is the new player's choice to accept it.

Everything in a message is hostile until checked (DESIGN.md 8). A message that cannot
be read at all - over MAX_MESSAGE bytes, or multiparts nested deeper than MAX_DEPTH, or
more than MAX_PARTS parts - is refused before anything else (`Result.aside`: the host
sets it aside); so is a message that breaks corr itself (an internal error, which is a
bug). Header values are read bounded (MAX_HEADER) and flattened to one line before they
go anywhere; a seq has at most MAX_SEQ_DIGITS digits.

Refused, with a one-line reason and the log unchanged: unknown game, stale or future
seq, diverged copy or bad chain or signature (exit 2), HTML-only body, a body move or
record from an address that is not its seat's, a message that is not a corr message, an
attachment over MAX_ATTACHMENT bytes, a From, Subject or Message-ID given twice.
Ingesting the same message twice changes nothing (a body move's Message-ID is
remembered in the sidecar).

A dealer's message to one seat of a game with hidden information carries that seat's
private panel (`X-Corr-For`, `X-Corr-Private`: its hand). When the attached log is
taken in (or adopted with `new`) on a copy that cannot deal, the panel is checked and
kept in the sidecar (`compose.keep_private`), for `show --for SEAT`. A panel that does
not hold up is ignored with a note in the result; it never refuses a good message.
"""

from __future__ import annotations

import email.message
import email.parser
import email.policy
import json
import mailbox
import os
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

from corr.errors import CorrError, CorruptLog, UsageError
from corr.mail import ATTACHMENT_SUFFIX
from corr.mail.compose import (
    FOR_HEADER,
    MAX_PANEL_TEXT,
    MAX_SEQ_DIGITS,
    PRIVATE_HEADER,
    SUBJECT_RE,
    clean_message_id,
    header_text,
    keep_private,
    message_id,
    panel_problem,
    read_sidecar,
    remember,
)

#: The largest attached log taken in (bytes, decoded); a bigger one is refused unread.
MAX_ATTACHMENT = 1 << 20
#: The largest message taken in at all.
MAX_MESSAGE = 4 * MAX_ATTACHMENT
#: How deep multiparts (and attached messages) may nest, and how many parts a message
#: may have, before it is refused unread: corr's own messages nest 2 deep in 4 parts.
MAX_DEPTH = 20
MAX_PARTS = 100
#: How many multipart or message/* parts a message may declare, counted in its raw bytes
#: before it is parsed: the parser's work grows with the nesting for every line below it
#: (a megabyte under 400 levels takes it seconds), so nesting is bounded before parsing.
MAX_CONTAINERS = 32
_CONTAINER = re.compile(rb"^content-type:[ \t]*(?:\r?\n[ \t]+)*(?:multipart|message)/", re.IGNORECASE | re.MULTILINE)
#: The longest value of a header corr reads (Subject, From, Message-ID, ...), in characters.
MAX_HEADER = 16_000
#: Headers a message may have at most once (RFC 5322 3.6): a doubled one is ambiguous.
SINGLE_HEADERS = ("From", "Subject", "Message-ID")
#: How many lines of a body are looked at for a move, and the longest one tried.
MAX_BODY_LINES = 500
MAX_MOVE_TEXT = 100


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
    #: The message could not be handled at all (not readable as a message, or it broke
    #: corr): there is nothing to answer, and the host sets it aside.
    aside: bool = False

    def line(self) -> str:
        status = "ok" if self.ok else "refused"
        return f"{flat(self.source, 500)}: {status}: {flat(self.message, 2000)}"


def flat(text: str, limit: int = 200) -> str:
    """Text from a hostile message made one line: control characters (a decoded newline,
    an escape) become spaces, runs of spaces one, cut to `limit` characters."""
    out = " ".join("".join(" " if ch < " " or "\x7f" <= ch <= "\x9f" or ch in "\u2028\u2029" else ch
                           for ch in str(text)).split())
    return out[:limit]



def parse_message(data: bytes) -> EmailMessage:
    """The message, parsed; UsageError when it cannot be read at all: too big, with too
    many multipart parts (counted before parsing), nested too deep or with too many parts
    (checked without recursion), or breaking the parser."""
    if len(data) > MAX_MESSAGE:
        raise UsageError(f"the message is over the size limit of {MAX_MESSAGE} bytes; not read")
    containers = sum(1 for _ in zip(range(MAX_CONTAINERS + 1), _CONTAINER.finditer(data)))
    if containers > MAX_CONTAINERS:
        raise UsageError(f"the message's parts are too many or nested too deep: it declares more than "
                         f"{MAX_CONTAINERS} multipart or attached-message parts; not read")
    try:
        msg = email.parser.BytesParser(policy=email.policy.default).parsebytes(data)
    except RecursionError:
        raise UsageError(f"the message's parts are nested too deep to read (at most {MAX_DEPTH} levels)") from None
    except Exception as err:  # noqa: BLE001 - whatever the parser trips over, the message is unreadable
        raise UsageError(f"the message cannot be parsed ({type(err).__name__})") from None
    check_structure(msg)  # type: ignore[arg-type]
    return msg  # type: ignore[return-value]


def check_structure(msg: EmailMessage) -> None:
    """Refuse a message nested deeper than MAX_DEPTH or with more than MAX_PARTS parts.
    Iterative: the standard library walks parts recursively, so this runs first."""
    stack: list[tuple[Any, int]] = [(msg, 0)]
    parts = 0
    while stack:
        part, depth = stack.pop()
        parts += 1
        if parts > MAX_PARTS:
            raise UsageError(f"the message has more than {MAX_PARTS} parts; not read")
        if depth > MAX_DEPTH:
            raise UsageError(f"the message's parts are nested more than {MAX_DEPTH} levels deep; not read")
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list):
                stack.extend((child, depth + 1) for child in payload if isinstance(child, email.message.Message))


def _attachments(msg: EmailMessage) -> list[EmailMessage]:
    found = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = _filename(part)
        ctype = part.get_content_type()
        if name.endswith(ATTACHMENT_SUFFIX) or ctype.startswith("application/x-corr"):
            found.append(part)
    return found


def _filename(part: EmailMessage) -> str:
    """A part's file name made one short line ("" when it has none or it cannot be read)."""
    try:
        return flat(part.get_filename() or "", 200)
    except Exception:  # noqa: BLE001 - a name the parser cannot read is no name
        return ""


def _attachment_bytes(part: EmailMessage) -> bytes:
    encoded = part.get_payload()
    if isinstance(encoded, str) and len(encoded) > MAX_ATTACHMENT * 4 // 3 + 4096:
        raise UsageError(f"attachment {_filename(part)} is over the size limit of {MAX_ATTACHMENT} bytes")
    data = part.get_payload(decode=True) or b""
    if len(data) > MAX_ATTACHMENT:
        raise UsageError(f"attachment {_filename(part)} is over the size limit of {MAX_ATTACHMENT} bytes")
    return data


def _plain_body(msg: EmailMessage) -> EmailMessage | None:
    """The part `msg.get_body(preferencelist=("plain",))` would pick - the first text/plain
    part, depth first, that is no attachment, looking only at the root part of a
    multipart/related - found without recursion and without trusting a multipart's
    payload to be a list of parts (the standard library indexes a malformed one's text)."""
    stack: list[Any] = [msg]
    while stack:
        part = stack.pop()
        if not isinstance(part, email.message.Message):
            continue
        try:
            if isinstance(part, EmailMessage) and part.is_attachment():
                continue
            maintype, _, subtype = part.get_content_type().partition("/")
        except Exception:  # noqa: BLE001 - a part whose headers cannot be read is no body
            continue
        if maintype == "text":
            if subtype == "plain":
                return part  # type: ignore[return-value]
            continue
        children = part.get_payload() if maintype == "multipart" else None
        if not isinstance(children, list) or not children:
            continue
        if subtype == "related":
            start = part.get_param("start")
            root = next((c for c in children if start and isinstance(c, email.message.Message)
                         and c.get("content-id") == start), None)
            children = [root if root is not None else children[0]]
        stack.extend(reversed(children))
    return None


def _plain_text(msg: EmailMessage) -> str | None:
    body = _plain_body(msg)
    if body is None:
        return None
    try:
        return body.get_content()
    except (CorrError, RecursionError):
        raise
    except Exception:  # noqa: BLE001 - an unknown charset, a broken encoding
        raise UsageError("the plain-text body cannot be decoded") from None


def read_seq(text: str, what: str) -> int:
    """A seq read from mail: ASCII digits, at most MAX_SEQ_DIGITS of them (int() of a few
    thousand digits raises, and no game has a billion records)."""
    if len(text) > MAX_SEQ_DIGITS:
        raise UsageError(f"the {what}'s seq has {len(text)} digits, at most {MAX_SEQ_DIGITS}: not a seq of any game")
    if not text.isascii() or not text.isdigit():
        raise UsageError(f"the {what}'s seq {flat(text, 20)!r} is not a number")
    return int(text)


def subject_ref(msg: EmailMessage) -> tuple[str | None, int | None]:
    """(game id, seq) from the Subject's `[corr <id>] <seq>.`; UsageError when the seq is
    too long to be one (read_seq)."""
    match = SUBJECT_RE.search(header_text(msg, "Subject", MAX_HEADER))
    if not match:
        return None, None
    return match.group(1), read_seq(match.group(2), "Subject") if match.group(2) else None


def seq_key(data: bytes) -> int:
    """The Subject's seq of a message's bytes, for putting a mailbox in order; 0 when it
    has none or it cannot be read. Reads the headers alone and never raises."""
    try:
        head = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(data[:MAX_MESSAGE])
        seq = subject_ref(head)[1]  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - a message that cannot be ordered goes first; ingest says why
        return 0
    return seq if seq is not None else 0


def check_headers(msg: EmailMessage) -> None:
    """Refuse a message whose From, Subject or Message-ID is doubled (which one would
    count?) or whose headers corr reads are absurdly long."""
    counts: dict[str, int] = {}
    for name, value in msg.raw_items():
        key = name.lower()
        counts[key] = counts.get(key, 0) + 1
        if key in READ_HEADERS and len(str(value)) > MAX_HEADER:
            raise UsageError(f"the {flat(name, 40)} header is {len(str(value))} characters long, at most {MAX_HEADER}")
    for name in SINGLE_HEADERS:
        if counts.get(name.lower(), 0) > 1:
            raise UsageError(f"the message has {counts[name.lower()]} {name} headers, one expected")


#: What a game id looks like (the header model's pattern).
_GAME_ID = re.compile(r"[0-9a-z-]{4,64}")
#: The headers corr reads from an incoming message.
READ_HEADERS = frozenset({"from", "to", "subject", "message-id", "references", "in-reply-to", "auto-submitted",
                          "precedence", "x-corr-game", "x-corr-seq"})


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
    own = message_id(msg)
    seen = read_sidecar(path).get("seen", [])
    return bool(own) and isinstance(seen, list) and own in seen


def adopt(games: Path, game_id: str, attached: bytes) -> Path:
    """A game's first message to a new player: its attached log, checked whole (chain,
    rules, state hashes, signatures), becomes this player's copy `<game-id>.corr`."""
    from corr import engine
    from corr.log import store
    from corr.mail.sidecar import fsync_dir

    path = games / f"{game_id}{ATTACHMENT_SUFFIX}"
    log = store.parse(attached, path)
    if log.torn is not None:
        raise CorruptLog(f"the attached log of game {game_id} ends with a torn line", kind="torn")
    engine.replay(log)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise UsageError(f"{path} exists but is not game {game_id}; move it away first") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(attached)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        path.unlink(missing_ok=True)  # no half-written copy left behind
        raise
    fsync_dir(games)  # the new file's name is durable too
    return path


def ingest(msg: EmailMessage, games: Path, source: str = "message", new: bool = False) -> Result:
    """Take one parsed message into its game; raises CorrError with the reason it is refused.
    With `new`, a message for a game not yet in `games` that carries the game's log
    starts this player's copy of it."""
    from corr import engine

    check_headers(msg)
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
        except (ValueError, AttributeError, RecursionError):
            attached_id = None
        if not isinstance(attached_id, str):
            raise UsageError(f"attachment {_filename(parts[0])} is not a corr log (no header line)")
        if not _GAME_ID.fullmatch(attached_id):  # it names a file: nothing but a game id's characters
            raise UsageError(f"attachment {_filename(parts[0])} is not a corr log (its id {flat(attached_id, 70)!r} "
                             "is not a game id)")
        if game_id is not None and attached_id != game_id:
            raise UsageError(f"the Subject names game {game_id}, the attached log is game {flat(attached_id, 64)}")
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
        check_record_senders(local, msg, rows[1:])
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
        raise UsageError("no plain-text body (an HTML-only or empty message): write the move in a plain-text body "
                         "or attach the log")
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
    try:
        # The seq is checked again under the log's lock: of replies racing to answer
        # one seq, one is taken and the others are refused as stale.
        rep, records = engine.act(path, "move", by=on_turn, text=move, answers=seq)
    except UsageError:
        now = _records_on_disk(path)
        if now is not None and now != seq:
            raise UsageError(f"stale message: it answers seq {seq}, and another move came in first "
                             f"(this copy is at seq {now} now)") from None
        raise
    result.records = records
    result.message = f"{path.name}: played seq {records[0].seq} {records[0].by} {move}"
    remember(path, msg, seen=True)
    return result


def _records_on_disk(path: Path) -> int | None:
    """How many records the log holds now (None when it cannot be read)."""
    from corr.log import store

    try:
        return len(store.read(path).records)
    except (CorrError, OSError):
        return None


def from_addresses(msg: EmailMessage) -> list[str] | None:
    """The addresses of the message's From header, lower-case; None when it has no From
    the parser can read (a From with an encoded newline, say), which is nobody's."""
    if not header_text(msg, "From", MAX_HEADER):
        return None
    try:
        return [a.addr_spec.lower() for a in msg["From"].addresses]
    except Exception:  # noqa: BLE001 - a From header the parser cannot read is nobody's
        return None


def _check_sender(rep: Any, msg: EmailMessage, seat: str, lead: str | None = None) -> None:
    """A game without keys takes a move or record of `seat` only from a message whose
    From is that seat's one address in the header (DESIGN 8: a weak guard, as the
    refusal says: From can be forged, keys are the proof)."""
    lead = lead or f"the move is seat {seat}'s to make"
    why = "a game without keys takes a seat's moves only from its own address; keys are the proof"
    entry = next((s for s in rep.header.seats if s.seat == seat), None)
    if entry is None or not entry.email:
        raise UsageError(f"{lead}, and seat {seat} has no address in the header to take it from ({why})")
    senders = from_addresses(msg) or []
    if len(senders) > 1:
        raise UsageError(f"{lead}, and this message is not from {seat}'s address alone: its From names "
                         f"{len(senders)} addresses ({why})")
    if senders != [entry.email.lower()]:
        raise UsageError(f"{lead}, and this message is not from {seat}'s address in the header ({why})")


def check_record_senders(local: Any, msg: EmailMessage, rows: list[bytes]) -> None:
    """Who may add the attached log's new records (those past this copy's tail): a seat
    with a key, anyone (replay checks the signature); a seat without one, only a message
    from that seat's one address (`_check_sender`); the referee's and host's rulings are
    signed, and the dealer's reveal is bound by the commitment. A copy that cannot deal
    takes the dealer's records from whoever forwards them (see the module's docstring).
    Lines that are not records are left to `engine.accept`, which refuses them."""
    from corr import engine

    game = local.game
    if game.hidden and not game.dealt:
        return
    header = local.header
    keys = engine.signing_keys(header)
    vouched = set(engine.official_keys(header)) | set(engine.dealer_keys(header))
    tail = len(local.log.records)
    for raw in rows:
        try:
            record = json.loads(raw)
            seq, by, kind = record.get("seq"), record.get("by"), record.get("type")
        except (ValueError, AttributeError, RecursionError):
            continue
        if type(seq) is not int or seq <= tail or not isinstance(by, str):
            continue
        if by in keys or by in vouched:
            continue
        if by == "dealer" and kind == "reveal" and header.commitment is not None:
            continue
        if by not in game.seats:
            raise UsageError(f"the attached log's seq {seq} is by {flat(by, 20)!r}, whom nothing in this game vouches "
                             "for (no key, no seat)")
        _check_sender(local, msg, by, f"the attached log's seq {seq} is seat {by}'s record")


def _last_seq(rows: list[bytes]) -> int:
    """The seq of an attached log's last record (0 for a header alone); its lines were
    checked already."""
    if len(rows) < 2:
        return 0
    try:
        seq = json.loads(rows[-1]).get("seq")
    except (ValueError, AttributeError, RecursionError):
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
    for header in ("X-Corr-Game", "X-Corr-Seq"):
        count = sum(1 for name, _ in msg.raw_items() if name.lower() == header.lower())
        if count > 1:
            raise _Ignored(f"{header} given {count} times, at most once expected")
    try:
        seat_text, text = str(msg[FOR_HEADER]), str(msg[PRIVATE_HEADER])
        game_text, seq_text = str(msg.get("X-Corr-Game") or ""), str(msg.get("X-Corr-Seq") or "")
    except Exception:  # noqa: BLE001 - a header the parser cannot read
        raise _Ignored("a header that cannot be read") from None
    if len(game_text) > 100 or len(seq_text.strip()) > MAX_SEQ_DIGITS:
        raise _Ignored(f"X-Corr-Game or X-Corr-Seq is too long to name a game or seq (a seq has at most "
                       f"{MAX_SEQ_DIGITS} digits)")
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
    """The first line of the body (not quoted with `>`) that parses as a move; only the
    first MAX_BODY_LINES lines are looked at, and no line longer than a move can be."""
    from corr.notation import parse

    for line in text.splitlines()[:MAX_BODY_LINES]:
        line = line.strip()
        if not line or line.startswith(">") or len(line) > MAX_MOVE_TEXT:
            continue
        try:
            parse(line)
        except CorrError:
            continue
        return line
    return None


def ingest_bytes(data: bytes | None, games: Path, source: str = "message", new: bool = False) -> Result:
    """Ingest one message; a refusal becomes a Result with its exit code and a one-line
    reason. A message that cannot be read (None: its file could not be read) or that
    breaks corr is a refusal too, marked `aside`: nothing raises from here."""
    msg = None
    try:
        if data is None:
            raise UsageError("the message's file cannot be read")
        msg = parse_message(data)
    except CorrError as err:
        return Result(source, False, err.exit_code, flat(str(err), 2000), aside=True)
    except Exception as err:  # noqa: BLE001 - parse_message catches what it knows; anything else is a bug
        return Result(source, False, 1, _internal(err), aside=True)
    try:
        return ingest(msg, games, source, new)
    except CorrError as err:
        return Result(source, False, err.exit_code, flat(str(err), 2000), msg=msg)
    except RecursionError:
        return Result(source, False, 1, "the message is nested too deep to read", msg=msg, aside=True)
    except Exception as err:  # noqa: BLE001 - one message never stops the others
        return Result(source, False, 1, _internal(err), msg=msg, aside=True)


def _internal(err: Exception) -> str:
    return flat(f"internal error, a bug in corr: {type(err).__name__}: {err}", 500)


def _seq_key(item: tuple[str, bytes | None]) -> int:
    return seq_key(item[1]) if item[1] is not None else 0


def _read_bounded(path: Path) -> bytes | None:
    """A message file's bytes, at most MAX_MESSAGE + 1 of them (enough to refuse it by
    size); None when it is not a regular file or cannot be read."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], MAX_MESSAGE + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def mailbox_messages(mbox: Path | None = None, maildir: Path | None = None) -> list[tuple[str, bytes | None]]:
    """Every message of an mbox or Maildir, as (name, bytes), in order of the Subject's
    seq (stable: mbox order, then Maildir key order) so a game's moves go in in turn.
    A Maildir file that cannot be read has None for its bytes (ingest refuses it)."""
    items: list[tuple[str, bytes | None]] = []
    if mbox is not None:
        if not mbox.is_file():
            raise UsageError(f"no such mbox: {mbox}")
        box: Any = mailbox.mbox(mbox, create=False)
        for i, key in enumerate(box.keys(), start=1):
            items.append((f"{mbox.name}#{i}", box.get_bytes(key)))
    elif maildir is not None:
        if not (maildir / "new").is_dir() and not (maildir / "cur").is_dir():
            raise UsageError(f"{maildir} is not a Maildir (no new/ or cur/)")
        colon = mailbox.Maildir.colon
        for sub in ("new", "cur"):
            folder = maildir / sub
            names = sorted(os.listdir(folder)) if folder.is_dir() else []
            for name in names:
                if name.startswith("."):
                    continue
                items.append((f"{maildir.name}/{name.split(colon)[0]}", _read_bounded(folder / name)))
        items.sort(key=lambda item: item[0])
    return sorted(items, key=_seq_key)


def iter_ingest(items: list[tuple[str, bytes | None]], games: Path, new: bool = False) -> Iterator[Result]:
    for name, data in items:
        yield ingest_bytes(data, games, name, new)


#: An address corr answers: printable ASCII without spaces, quotes or brackets, one @.
_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}")


def _sender(msg: EmailMessage) -> tuple[str, str] | None:
    """(name, address) of the message's one `From:` address; None when it has none, or
    several, or one corr would not put into a header. A From whose display name the
    parser refuses (an encoded newline in it) is read again as raw text, and only its
    address is used."""
    from email.utils import getaddresses

    raw = [value for name, value in msg.raw_items() if name.lower() == "from"]
    if len(raw) != 1 or len(str(raw[0])) > MAX_HEADER:
        return None
    try:
        found = [(a.display_name or "", a.addr_spec or "") for a in msg["From"].addresses]
    except Exception:  # noqa: BLE001 - read it as raw text instead
        try:
            found = [("", spec) for _, spec in getaddresses([str(raw[0])])]
        except Exception:  # noqa: BLE001 - a From nobody can read is nobody's
            return None
    if len(found) != 1:
        return None
    name, spec = found[0]
    if not _ADDRESS.fullmatch(spec):
        return None
    return flat(name, 100), spec


def _own_address(msg: EmailMessage) -> str | None:
    """The message's one To address, when it is one corr can put into a From header."""
    try:
        found = [a.addr_spec for a in msg["To"].addresses] if header_text(msg, "To", MAX_HEADER) else []
    except Exception:  # noqa: BLE001 - a To the parser cannot read is no address
        return None
    return found[0] if len(found) == 1 and _ADDRESS.fullmatch(found[0] or "") else None


def refusal_reply(result: Result, sender: str | None = None) -> EmailMessage | None:
    """A reply to a refused message, saying why; None when there is nobody to answer.

    It goes to the message's `From:` address only, never to a `Reply-To:`: a refusal may
    tell about the sender's own hand ("B does not hold a 5"), and the address a body move
    is checked against is the From address, so an impostor naming a seat's address gets
    nothing back. Whatever is taken from the message is made harmless first: the Subject
    one line, Message-IDs only when well formed (`compose.clean_message_id`), the
    address only when plain (`_sender`). Never raises for a hostile message."""
    from email.utils import formataddr, formatdate, make_msgid

    original = result.msg
    if original is None:
        return None
    found = _sender(original)
    if found is None:
        return None
    subj = flat(header_text(original, "Subject", MAX_HEADER))
    own_id = message_id(original)
    references = [ref for ref in (clean_message_id(r) for r in
                                  header_text(original, "References", MAX_HEADER).split()) if ref][-19:]
    reply = EmailMessage()
    try:
        reply["From"] = sender or _own_address(original) or "corr@localhost"
    except Exception:  # noqa: BLE001 - a configured sender the header cannot take
        del reply["From"]
        reply["From"] = "corr@localhost"
    try:
        reply["To"] = formataddr(found)
    except Exception:  # noqa: BLE001 - a display name the header cannot take: the address alone
        del reply["To"]
        reply["To"] = found[1]
    reply["Subject"] = subj if subj.lower().startswith("re:") else f"Re: {subj}" if subj else "Re: your corr message"
    reply["Date"] = formatdate(usegmt=True)
    reply["Message-ID"] = make_msgid("corr-reply")
    if own_id:
        reply["In-Reply-To"] = own_id
        reply["References"] = " ".join(dict.fromkeys([*references, own_id]))
    reply["Auto-Submitted"] = "auto-replied"
    reply.set_content(
        "corr did not take your message:\n\n"
        f"  {flat(result.message, 2000)}\n\n"
        "Nothing was changed in the game log. Reply to the game's latest message with your move\n"
        "on the first line, or attach your copy of the log.\n"
    )
    return reply
