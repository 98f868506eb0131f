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
seq, diverged copy or bad chain or signature (exit 2), HTML-only body, a body move from
a seat that may not move now (told whose turn it is), a body move or record from an
address that is not its seat's, a message that is not a corr message, an
attachment over MAX_ATTACHMENT bytes, a From, Subject or Message-ID given twice.
Ingesting the same message twice changes nothing (a body move's Message-ID is
remembered in the sidecar).

A dealer's message to one seat of a game with hidden information carries that seat's
private panel (`X-Corr-For`, `X-Corr-Private`: its hand). When the attached log is
taken in (or adopted with `new`) on a copy that cannot deal, the panel is checked and
kept in the sidecar (`corr.log.panels`), for `show --for SEAT`. A panel that does
not hold up is ignored with a note in the result; it never refuses a good message.
"""

from __future__ import annotations

import json
import mailbox
import os
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

from corr.counts import counted
from corr.games.dealing import DEALER
from corr.errors import CorrError, CorruptLog, UsageError
from corr.mail import ATTACHMENT_SUFFIX
from corr.log.panels import MAX_PANEL_TEXT, keep_private, panel_problem, read_sidecar
from corr.mail.compose import FOR_HEADER, MAX_SEQ_DIGITS, PANEL_SIG_HEADER, PRIVATE_HEADER, message_id, remember
from corr.notation import parse as parse_move
from corr.seatview import seen_seq
from corr.mail.message import (
    attachment_bytes,
    attachments,
    check_headers,
    filename,
    first_move,
    flat,
    from_addresses,
    read_message,
    plain_text,
    read_bounded,
    delivery_order,
    says_pass,
    seq_key,
    subject_ref,
)


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
    #: The game's table as the message left it (its records taken), when it took any:
    #: a host pass goes on with it instead of reading the log again.
    table: Any = None

    def line(self) -> str:
        status = "ok" if self.ok else "refused"
        return f"{flat(self.source, 500)}: {status}: {flat(self.message, 2000)}"


#: What a game id looks like (the header model's pattern).
_GAME_ID = re.compile(r"[0-9a-z-]{4,64}")


def _header_id(path: Path) -> Any:
    """The id in a log's first line; None when there is none to read."""
    try:
        with open(path, "rb") as f:
            first = f.readline(1 << 16)
        return json.loads(first).get("id")
    except (OSError, ValueError, AttributeError, RecursionError):
        return None


#: games folder -> (the names of its logs, game id -> log): which log holds which game,
#: read once per folder and process (the host reads every message of a pass against it)
_INDEX: dict[str, tuple[tuple[str, ...], dict[Any, Path]]] = {}


def log_names(games: Path) -> tuple[str, ...]:
    """The logs a folder holds, by name: what the index depends on. Not the folder's
    modification time, which every sidecar written beside a log changes."""
    return tuple(sorted(n for n in os.listdir(games) if n.endswith(ATTACHMENT_SUFFIX)))


def find_game(games: Path, game_id: str, names: tuple[str, ...] | None = None) -> Path:
    """The log in `games` whose header has this id: `<id>.corr` when it is that game
    (players' copies are named so), else through an index of the folder's headers,
    rebuilt when a log is added, removed or renamed there. A hit is always checked
    against the log's header, so an index out of date (a log replaced under the same
    name) only costs a rebuild. `names`: the folder's logs (`log_names`) as the caller
    listed them, for a host pass lists its folder once for all its messages; None
    lists it now."""
    if not games.is_dir():
        raise UsageError(f"--games {games} is not a directory")
    named = games / f"{game_id}{ATTACHMENT_SUFFIX}"
    if _header_id(named) == game_id:
        return named
    key = str(games.resolve())
    built = False
    for fresh in (False, True):
        listed = log_names(games) if names is None else names
        cached = _INDEX.get(key)
        if cached is None or cached[0] != listed or (fresh and not built):
            index: dict[Any, Path] = {}
            for name in listed:
                index.setdefault(_header_id(games / name), games / name)
            cached = _INDEX[key] = (listed, index)
            built = True
        path = cached[1].get(game_id)
        if path is not None and _header_id(path) == game_id:
            return path
        if built:
            break
    raise UsageError(f"unknown game {game_id}: no log in {games} has that id")


def _seen(path: Path, msg: EmailMessage) -> bool:
    own = message_id(msg)
    seen = read_sidecar(path).get("seen", [])
    return bool(own) and isinstance(seen, list) and own in seen


def adopt(games: Path, game_id: str, attached: bytes) -> Any:
    """A game's first message to a new player: its attached log, checked whole (chain,
    rules, hashes, seals, signatures), becomes this player's copy `<game-id>.corr`; the
    table of it."""
    from corr import engine

    path = games / f"{game_id}{ATTACHMENT_SUFFIX}"
    try:
        return engine.adopt(path, attached)
    except FileExistsError:
        raise UsageError(f"{path} exists but is not game {game_id}; move it away first") from None
    except CorruptLog as err:
        raise CorruptLog(str(err).replace(f"{path}: ", f"the attached log of game {game_id}: ", 1), seq=err.seq,
                         kind=err.kind) from None


def ingest(msg: EmailMessage, games: Path, source: str = "message", new: bool = False,
           keys: tuple[Any, ...] = (), names: tuple[str, ...] | None = None) -> Result:
    """Take one parsed message into its game; raises CorrError with the reason it is refused.
    With `new`, a message for a game not yet in `games` that carries the game's log
    starts this player's copy of it. Everything is judged at the game's table, under
    its lock, replayed once; `keys` are the private keys it signs with (the host's);
    `names` the folder's logs as the caller listed them (`find_game`)."""
    from corr import engine

    check_headers(msg)
    game_id, seq = subject_ref(msg)
    parts = attachments(msg)
    if len(parts) > 1:
        raise UsageError(f"{len(parts)} corr logs attached; send one per message")
    attached = attachment_bytes(parts[0]) if parts else None
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
            raise UsageError(f"attachment {filename(parts[0])} is not a corr log (no header line)")
        if not _GAME_ID.fullmatch(attached_id):  # it names a file: nothing but a game id's characters
            raise UsageError(f"attachment {filename(parts[0])} is not a corr log (its id {flat(attached_id, 70)!r} "
                             "is not a game id)")
        if game_id is not None and attached_id != game_id:
            raise UsageError(f"the Subject names game {game_id}, the attached log is game {flat(attached_id, 64)}")
        game_id = attached_id
    if game_id is None:
        raise UsageError("not a corr message: no `[corr <game-id>]` in the Subject and no .corr log attached")
    try:
        path = find_game(games, game_id, names)
    except UsageError:
        if not (new and attached is not None and games.is_dir()):
            raise
        rep = adopt(games, game_id, attached)
        path = rep.path
        try:
            remember(path, msg, seen=True)
        except BaseException:  # a game half taken in is not taken in: the message can come again
            path.unlink(missing_ok=True)
            raise
        return Result(source, True, game=game_id, path=path, msg=msg, records=list(rep.log.records),
                      message=f"{path.name}: new game {game_id} at seq {rep.seq}" + take_panel(msg, path, rep, rep.seq))
    result = Result(source, True, game=game_id, path=path, msg=msg)
    if attached is not None:
        with engine.writing(path, keys=keys) as rep:
            if rows[0] != rep.log.header_raw:
                raise CorruptLog(f"{path}: the attached log's header differs from this copy's: the copies have "
                                 "diverged", kind="diverged")
            check_record_senders(rep, msg, rows[1:])
            records = rep.accept(rows[1:])
            # what is kept beside the log is written before the records are taken: if it
            # cannot be, the block fails and nothing of the message stays
            remember(path, msg, seen=True)
            panel = take_panel(msg, path, rep, _last_seq(rows))
        result.records = records
        result.table = rep if records else None
        if records:
            result.message = f"{path.name}: took seq {records[0].seq}-{records[-1].seq}" if len(records) > 1 else (
                f"{path.name}: took seq {records[0].seq}")
        else:
            result.message = (f"{path.name}: nothing new (this copy has all the attached log's "
                              f"{counted(len(rows) - 1, 'record')}, up to seq {rep.seq})")
        result.message += panel
        return result
    # No attachment: a move in the plain-text body.
    if _seen(path, msg):
        result.message = f"{path.name}: message already ingested; nothing changed"
        return result
    text = plain_text(msg)
    if text is None:
        raise UsageError("no plain-text body (an HTML-only or empty message): write the move in a plain-text body "
                         "or attach the log")
    # Everything is checked under the log's lock: of replies racing to answer one seq,
    # one is taken and the others are refused as stale.
    with engine.writing(path, keys=keys) as rep:
        if any(seat.key for seat in rep.header.seats):
            raise UsageError(f"game {game_id} has keys: a move must come as a signed record in the attached log")
        if seq is None:
            raise UsageError("no seq in the Subject: reply to the game's last message (`[corr <id>] <seq>. ...`)")
        seats = rep.on_turn()
        if seats and rep.game.own_boards:  # a duel's seq is the sender's own board's: its turn comes first
            _not_their_turn(rep, msg, seats)
        on_turn = _sender_seat(rep, msg, seats) if len(seats) > 1 else (seats[0] if seats else None)
        seen = seen_seq(rep, on_turn)  # a duel's seat answers the newest record of its own board
        if seq < seen:
            taken = _taken_before(rep, msg, seq, text)
            if taken is None:
                raise UsageError(f"stale message: it answers seq {seq}, this copy is at seq {seen}")
            remember(path, msg, seen=True)
            result.message = f"{path.name}: message already ingested (seq {taken}); nothing changed"
            return result
        if seq > seen:
            raise UsageError(f"message from the future: it answers seq {seq}, this copy is only at seq {seen}")
        move = first_move(text)
        kind = "move"
        if move is None and "pass" in rep.game.record_types and says_pass(text):
            kind = "pass"  # the card game: the card held fits nowhere (cards 5.1)
        elif move is None:
            raise UsageError("no move found in the plain-text body (write it on a line of its own, e.g. 7 (5,4))")
        if on_turn is not None:
            _not_their_turn(rep, msg, seats)
            _check_sender(rep, msg, on_turn)
        records = rep.add(kind, on_turn, move, answers=seq)
        remember(path, msg, seen=True)  # inside the block: without it, the move is not taken either
    result.records = records
    result.table = rep
    result.message = f"{path.name}: played seq {records[0].seq} {records[0].by} {move or kind}"
    return result


def _taken_before(rep: Any, msg: EmailMessage, seq: int, text: str) -> int | None:
    """The seq of the record that is this message's answer to `seq`, where the log holds
    it already, else None. A host stopped after it wrote the record and before it noted
    the message seen (a crash, kill -9) finds the message again: it was taken, and is
    not refused as stale. The answer is the first record after `seq` by a seat (in a
    duel, by the sender's own seat), made by the sender's seat, saying what the body
    says."""
    duel = rep.game.own_boards
    seats = {entry.seat for entry in rep.header.seats}
    for record in rep.log.records[seq:]:
        if record.by not in seats:
            continue
        try:
            _check_sender(rep, msg, record.by)
        except UsageError:
            if duel:
                continue
            return None
        if record.type == "pass":
            return record.seq if says_pass(text) else None
        move = first_move(text)
        if record.type != "move" or move is None:
            return None
        try:
            said = str(parse_move(move))
        except CorrError:
            return None
        return record.seq if said == record.move else None
    return None


def _sender_seat(rep: Any, msg: EmailMessage, seats: tuple[str, ...]) -> str:
    """Of several seats that may move at once (a Domino duel), the one whose address
    the message is from; `_check_sender` then holds it to that address alone."""
    senders = from_addresses(msg) or []
    for entry in rep.header.seats:
        if entry.seat in seats and entry.email and entry.email.lower() in senders:
            return entry.seat
    raise UsageError(f"seats {', '.join(seats)} may move now, and this message is from none of their addresses "
                     "in the header")


def _not_their_turn(rep: Any, msg: EmailMessage, movers: tuple[str, ...]) -> None:
    """A move from the one address of a seat that may not move now is refused as out of
    turn: that player needs to hear whose turn it is, not which address counts. Any
    other sender is left to `_check_sender`."""
    senders = from_addresses(msg) or []
    if len(senders) != 1:
        return
    theirs = [s.seat for s in rep.header.seats if s.email and s.email.lower() == senders[0]]
    if not theirs or any(seat in movers for seat in theirs):
        return
    sender = theirs[0]
    seats = [m for m in movers if m in rep.game.seats]
    lead = f"it is not seat {sender}'s turn"
    if not seats:
        raise UsageError(f"{lead}: the game is at its end, and only the dealer's reveal is left")
    if rep.game.own_boards and len(rep.game.seats) > 1:  # a duel: the sender's own board is over
        going = f"seat {seats[0]}'s goes" if len(seats) == 1 else f"those of seats {', '.join(seats)} go"
        raise UsageError(f"{lead}: its game on its own board is over, and only {going} on")
    whose = f"seat {seats[0]}'s" if len(seats) == 1 else f"seats {', '.join(seats)}'"
    raise UsageError(f"{lead}: the move is {whose} to make; wait for the message that says it is yours")


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
    from corr.engine import keys as signers

    game = local.game
    if game.hidden and not game.dealt:
        return
    header = local.header
    keys = signers.seat_keys(header)
    vouched = set(signers.official_keys(header)) | set(signers.dealer_keys(header))
    if signers.vouched(header):  # the host signs every record its seat does not: replay checks it
        return
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
        if by == DEALER and kind == "reveal" and header.commitment is not None:
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
    with the reason a panel cannot be kept. In a game a host vouches for, the panel must
    carry the host's signature: a stranger's panel is ignored."""
    from corr.seatview import panel_kept, position

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
    why = panel_kept(rep)
    if why is not None:
        raise _Ignored(why)
    if game_text.strip() and game_text.strip() != rep.header.id:
        raise _Ignored(f"X-Corr-Game names another game than {rep.header.id}")
    if seq_text.strip() and seq_text.strip() != str(seq):
        raise _Ignored(f"X-Corr-Seq is not the attached log's seq {seq}")
    seat = seat_text.strip().upper()
    seats = [s.seat for s in rep.header.seats]
    if seat not in seats:
        raise _Ignored(f"{FOR_HEADER} names no seat of this game (seats: {', '.join(seats)})")
    _check_panel_signature(msg, rep, seat, seq, text)
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


def _check_panel_signature(msg: EmailMessage, rep: Any, seat: str, seq: int, text: str) -> None:
    """In a game its host vouches for (format 2), the panel is the host's word: signed
    with the host's key over the game, the seat, the seq and the panel itself."""
    from corr.engine.keys import vouched
    from corr.identity import panel_bytes, verified

    if not vouched(rep.header):
        return
    raws = [value for name, value in msg.raw_items() if name.lower() == PANEL_SIG_HEADER.lower()]
    if len(raws) != 1:
        raise _Ignored(f"{PANEL_SIG_HEADER} given {len(raws)} times: the host signs every panel of this game")
    if len(str(raws[0])) > 400:
        raise _Ignored(f"{PANEL_SIG_HEADER} is too long to be a signature")
    try:
        signature = "".join(str(msg[PANEL_SIG_HEADER]).split())  # unfolded, encoded words decoded
    except Exception:  # noqa: BLE001 - a header the parser cannot read
        raise _Ignored(f"{PANEL_SIG_HEADER} cannot be read") from None
    if len(signature) > 200 or not verified(rep.header.host.key, panel_bytes(rep.header.id, seat, seq, text), signature):
        raise _Ignored(f"{PANEL_SIG_HEADER} is not the host's signature of this panel")


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


def ingest_bytes(data: bytes | None, games: Path, source: str = "message", new: bool = False,
                 parsed: EmailMessage | BaseException | None = None, keys: tuple[Any, ...] = (),
                 names: tuple[str, ...] | None = None) -> Result:
    """Ingest one message; a refusal becomes a Result with its exit code and a one-line
    reason. A message that cannot be read (None: its file could not be read) or that
    breaks corr is a refusal too, marked `aside`: nothing raises from here. `parsed` is
    `read_message(data)` where the caller parsed it already (to order a mailbox);
    `names` the folder's logs as the caller listed them (`find_game`)."""
    msg = parsed if parsed is not None else read_message(data)
    if isinstance(msg, CorrError):
        return Result(source, False, msg.exit_code, flat(str(msg), 2000), aside=True)
    if isinstance(msg, BaseException):  # parse_message catches what it knows; anything else is a bug
        return Result(source, False, 1, _internal(msg), aside=True)
    try:
        return ingest(msg, games, source, new, keys, names)
    except CorrError as err:
        return Result(source, False, err.exit_code, flat(str(err), 2000), msg=msg)
    except RecursionError:
        return Result(source, False, 1, "the message is nested too deep to read", msg=msg, aside=True)
    except OSError as err:  # a full disk: nothing was taken, and the message can come again
        where = f"{err.filename}: " if err.filename else ""
        return Result(source, False, 1, flat(f"{where}could not write ({err.strerror or err}): nothing was taken",
                                             2000), msg=msg)
    except Exception as err:  # noqa: BLE001 - one message never stops the others
        return Result(source, False, 1, _internal(err), msg=msg, aside=True)


def _internal(err: BaseException) -> str:
    return flat(f"internal error, a bug in corr: {type(err).__name__}: {err}", 500)


def mailbox_messages(mbox: Path | None = None, maildir: Path | None = None,
                     ) -> list[tuple[str, bytes | None, EmailMessage | BaseException]]:
    """Every message of an mbox or Maildir, as (name, bytes, parsed), in order of the
    Subject's seq (stable: mbox order, then Maildir key order) so a game's moves go in in
    turn; each is parsed once (`read_message`). A Maildir file that cannot be read has
    None for its bytes (ingest refuses it)."""
    items: list[tuple[str, bytes | None]] = []
    if mbox is not None:
        if not mbox.is_file():
            raise UsageError(f"no such mbox: {mbox}")
        with open(mbox, "rb") as f:  # an empty mbox is a mailbox with no mail; text is none
            start = f.read(5)
        if start and start != b"From ":
            raise UsageError(f'{mbox}: not an mbox (no "From " line starts a message)')
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
                items.append((f"{maildir.name}/{name.split(colon)[0]}", read_bounded(folder / name)))
        items.sort(key=lambda item: delivery_order(item[0].rsplit("/", 1)[1]))
    read = [(name, data, read_message(data)) for name, data in items]
    return sorted(read, key=lambda item: seq_key(item[2]))


def iter_ingest(items: list[tuple[str, bytes | None, EmailMessage | BaseException]], games: Path,
                new: bool = False, keys: tuple[Any, ...] = ()) -> Iterator[Result]:
    for name, data, parsed in items:
        yield ingest_bytes(data, games, name, new, parsed, keys)


