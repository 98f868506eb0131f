"""Outgoing mail: one complete RFC 5322 message per move (DESIGN.md 8).

`compose` builds, with the standard library only, a multipart/mixed message holding a
multipart/alternative body and the log attached as `<game-id>.corr`
(application/octet-stream, base64, so it arrives byte for byte). Both parts of the body
say the same (`letter`, rendered by templates/mail.txt and mail.html): whose turn it is,
addressed to the recipient when it is theirs; how to answer in this game - a reply with
the move on a line of its own, or, in a game with keys, where only signed records count,
the commands that sign it in one's own copy and mail the log back - with one of the
seat's legal moves as the example; the result once the game is over; the board; the
move list. A mail client may show either part alone, so neither may lack any of it. The
text part adds the new records as JSON lines.

Every message is built from the view of the seat it goes to (`corr.seatview`). In a game
with hidden information composed on the dealer's copy, that view holds the seat's own
card: the boards show it, and `X-Corr-For: <seat>` with `X-Corr-Private: <JSON>` (the
seat's private panel, `corr.seatview.private`) let the recipient's corr keep it. Nothing of
another seat's hand or of the pile goes in: the attachment is the public log's bytes,
never `FILE.secret`, and the move list is the public one (`record_text.game_text`, which
leaves out what the players are left to notice while the game runs).

Threading: each game keeps its last Message-ID and References chain in a sidecar file
`FILE.mail.json` next to the log (written atomically). `compose_file` reads it, so
consecutive messages of a game thread by themselves; `remember` writes it after a
message was written or sent (and `corr mail ingest` records the messages it takes in,
so a reply threads to the message it answers).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from pathlib import Path
from typing import Any

from corr.errors import UsageError
from corr.log.panels import read_sidecar, write_sidecar
from corr.seatview import SeatView
from corr.mail import ATTACHMENT_SUFFIX, ATTACHMENT_TYPE, mime

#: The sender when nobody better is known.
DEFAULT_SENDER = "corr@localhost"
#: How many Message-IDs a References header carries at most (the first and the latest).
MAX_REFERENCES = 20
#: The Subject of every corr message: `[corr <game-id>] <seq>. <what>`. The seq is ASCII
#: digits (a Subject is hostile: `\d` would take any script's digits); how many is
#: checked where it is read (MAX_SEQ_DIGITS), so an absurdly long one is refused by name.
SUBJECT_RE = re.compile(r"\[corr ([0-9a-z-]{4,64})\](?:\s+([0-9]+)\.)?")
#: The most digits a seq read from mail (Subject, X-Corr-Seq) may have.
MAX_SEQ_DIGITS = 9
#: A Message-ID corr keeps or copies into a header: `<left@right>`, printable ASCII, no
#: spaces or brackets inside (a decoded encoded-word could carry a newline otherwise).
MSGID_RE = re.compile(r"<[!-;=?-~]{1,250}@[!-;=?-~]{1,250}>")
MAX_MSGID = 500
#: The headers carrying a seat's private panel: who it is for, and the panel as JSON.
FOR_HEADER = "X-Corr-For"
PRIVATE_HEADER = "X-Corr-Private"
PANEL_SIG_HEADER = "X-Corr-Private-Sig"
def _seat(rep: Any, letter: str) -> Any:
    for seat in rep.header.seats:
        if seat.seat == letter.upper():
            return seat
    seats = ", ".join(s.seat for s in rep.header.seats)
    raise UsageError(f"unknown seat {letter!r} (seats: {seats})")


def address(seat: Any) -> str:
    """`Name <email>` of a header seat; the name on one line without control characters
    (a header value holds no newline, and a mail reader may print it to a terminal)."""
    from corr.names import short_name

    return formataddr((short_name(seat.name, 200), seat.email))


def default_sender(rep: Any, view: SeatView) -> str:
    """The seat who made the last record the recipient may read (its name and email),
    else corr@localhost."""
    if view.last is not None:
        by = view.last.record.by
        for seat in rep.header.seats:
            if seat.seat == by and seat.email:
                return address(seat)
    return DEFAULT_SENDER


def subject(rep: Any, seat: str | None = None) -> str:
    """`[corr <id>] <seq>. <move>`, naming the last record `seat` may read (`0. new
    game` before any)."""
    from corr.seatview import last_seen

    step = last_seen(rep, seat)
    if step is None:
        return f"[corr {rep.header.id}] 0. new game"
    from corr.record_text import what

    record = step.record
    return f"[corr {rep.header.id}] {record.seq}. {what(record)}"


def panel_json(panel: dict[str, Any]) -> str:
    """The panel as the X-Corr-Private header carries it: compact, sorted, ASCII."""
    return json.dumps(panel, separators=(",", ":"), sort_keys=True, ensure_ascii=True)


def plain_body(rep: Any, since_seq: int | None = None, seat: str | None = None, sender: str | None = None) -> str:
    """The text part (templates/mail.txt): whose turn it is and how to answer, the board
    as `seat` sees it (None: the public view), the new records as JSON lines, the move
    list as the seat may read it."""
    from corr.render import environment

    return environment().get_template("mail.txt").render(m=letter(rep, seat, since_seq, sender, "text"))


#: What the instructions of a game with keys call what only the player knows: the saved
#: message, the folder of their copies, their secret key, their SMTP settings.
SAVED_AS = "msg.eml"
GAMES_DIR = "~/games"
KEY_FILE = "YOUR.key"
SMTP_FILE = "smtp.toml"


class SharedParts:
    """What the messages of one position to several seats share, each made once: the
    boards as the public sees them, each format drawn once for every seat whose view
    shows that board (`seatview.shows_public_board` decides it), and the attached log,
    encoded once for every seat it goes to whole. A host mailing a position to its seats
    makes them once, not once a seat. Only for one position: the table must not change
    while its messages are composed."""

    def __init__(self, rep: Any) -> None:
        self.rep = rep
        self._public: SeatView | None = None
        self._cells: Any = None  # the public board's cells, made once for every format
        self._drawn: dict[str, str] = {}
        self._log: tuple[bytes, EmailMessage] | None = None
        self._attached: tuple[bytes, mime.Attached | None] | None = None
        self._said: dict[str, list[tuple[dict[str, Any], str]]] = {}  # template -> each letter and its part

    def draw(self, view: SeatView, fmt: str) -> str:
        """The board of `view` in `fmt`: the public one's when it shows the same."""
        from corr.render import cells, render
        from corr.seatview import shows_public_board

        if self._public is None:
            self._public = _view(self.rep, None)
        if not shows_public_board(view, self._public):
            return render(view, fmt)
        if fmt not in self._drawn:
            if self._cells is None:
                self._cells = cells(self._public.rows)
            self._drawn[fmt] = render(self._public, fmt, drawn=self._cells)
        return self._drawn[fmt]

    def part(self, template: str, letter_: dict[str, Any]) -> str:
        """A mail part from its template and letter (`environment_render`), the one made
        for another seat when its letter says the same: seats not on turn are most often
        told the same words of the same position."""
        said = self._said.setdefault(template, [])
        made = next((part for other, part in said if other == letter_), None)
        if made is None:
            made = environment_render(template, letter_)
            said.append((letter_, made))
        return made

    def attachment(self, data: bytes) -> EmailMessage:
        """The attachment part of the log `data`, the one made before when it is the same."""
        if self._log is None or self._log[0] != data:
            self._log = (data, _log_part(self.rep, data))
        return self._log[1]

    def attached(self, data: bytes) -> mime.Attached | None:
        """The attachment of the log `data` as `corr.mail.mime` writes it (None when it
        does not), encoded once for every seat it goes to."""
        if self._attached is None or self._attached[0] != data:
            self._attached = (data, _attached(self.rep, data))
        return self._attached[1]


def _log_name(rep: Any) -> str:
    """The attached log's file name: `<game-id>.corr`."""
    return f"{rep.header.id}{ATTACHMENT_SUFFIX}"


def _log_part(rep: Any, data: bytes) -> EmailMessage:
    """The log attached as `<game-id>.corr`: the part `EmailMessage.add_attachment` makes."""
    maintype, subtype = ATTACHMENT_TYPE
    part = EmailMessage()
    part.set_content(data, maintype=maintype, subtype=subtype, filename=_log_name(rep))
    return part


def _attached(rep: Any, data: bytes) -> mime.Attached | None:
    """`_log_part` as `corr.mail.mime` writes it (None when it does not)."""
    return mime.attached(data, _log_name(rep), "/".join(ATTACHMENT_TYPE))


def letter(rep: Any, seat: str | None, since_seq: int | None = None, sender: str | None = None,
           fmt: str = "text", view: SeatView | None = None, boards: SharedParts | None = None,
           other: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a message to `seat` says, for both parts alike: a new player must learn from
    either part whose turn it is and how to answer in this game, and see the board and
    the moves exactly as the seat may (`corr.seatview`). `boards`: the parts the
    position's messages share (`SharedParts`), its public boards among them. `other`:
    the letter of the message's other part (the same seat, view and sender), whose
    every word but the board and the new records this one says alike."""
    from corr.names import short_name
    from corr.record_text import game_text, step_text
    from corr.render import render
    from corr.seatview import private, record_lines

    if view is None:
        view = _view(rep, seat)
    since = view.seq - 1 if since_seq is None else since_seq
    since = max(0, min(since, view.seq))
    board = _board(render(view, fmt) if boards is None else boards.draw(view, fmt), fmt)
    if other is not None:
        return {**other, "new_records": record_lines(view, rep, since), "board": board}
    header = rep.header
    entry = next((s for s in header.seats if s.seat == seat), None)
    mine = seat is not None and seat in rep.on_turn() and not view.over
    alone = bool(seat is not None and private(rep, seat))
    return {
        "title": view.position["title"],
        "id": header.id,
        "seq": view.seq,
        # named only where the message says it is for this seat alone: the seats not on
        # turn are then told the same, and a host writes that once (`SharedParts.part`)
        "to": None if entry is None or not alone else {"seat": entry.seat, "name": short_name(entry.name),
                                                        "email": entry.email},
        "turn": turn(rep, view),
        "reply": how_to_answer(rep, view, sender) if mine else None,
        "follow": _follow(rep, seat) if not mine and not view.over else None,
        "saved_as": SAVED_AS,
        "private": alone,
        "private_header": PRIVATE_HEADER,
        "new_records": record_lines(view, rep, since),
        "attached": view.whole,
        "log_name": _log_name(rep),
        "moves": [step_text(step, view.over) for step in view.steps],
        "game_text": game_text(view, header).rstrip("\n"),
        "board": board,
    }


def _label(rep: Any, letter_: str) -> str:
    """`Ben (B)`: a seat as the message names it."""
    from corr.names import short_name

    entry = next((s for s in rep.header.seats if s.seat == letter_), None)
    return f"{short_name(entry.name)} ({letter_})" if entry is not None else letter_


def turn(rep: Any, view: SeatView) -> dict[str, Any]:
    """Whose turn it is, as the message to the view's seat says it: `kind` is `yours`
    (the seat may move), `theirs` (`movers` may), `dealer` (only the dealer's reveal is
    left), `board-over` (a duel's seat whose own game is over while others play on) or
    `over` (`winners`, and `forfeit` with its `cause` when a seat lost so)."""
    seat, p = view.viewer, view.position
    if p["over"]:
        forfeit = p["forfeit"]
        return {
            "kind": "over",
            "winners": [_label(rep, w) for w in p["winners"]],
            "forfeit": _label(rep, forfeit["seat"]) if forfeit else None,
            "cause": forfeit["cause"] if forfeit else None,
        }
    seats = [s.seat for s in rep.header.seats]
    movers = [s for s in rep.on_turn() if s in seats]
    if seat is not None and seat in movers:
        return {"kind": "yours", "you": _label(rep, seat), "own_board": view.own_board}
    if view.own_board and seat is not None:  # a duel: other boards are none of this seat's business
        return {"kind": "board-over"}
    if not movers:
        return {"kind": "dealer"}
    return {"kind": "theirs", "movers": [_label(rep, s) for s in movers]}


def _keyed(rep: Any) -> bool:
    """Whether moves must come as signed records (ingest refuses a move in a body then)."""
    return any(s.key for s in rep.header.seats)


def _sender_seats(rep: Any, sender: str | None) -> list[str]:
    """The seats whose address the message comes from (none: a host, or nobody known)."""
    from email.utils import parseaddr

    address = parseaddr(sender or "")[1].lower()
    return [s.seat for s in rep.header.seats if address and s.email and s.email.lower() == address]


def how_to_answer(rep: Any, view: SeatView, sender: str | None = None) -> dict[str, Any]:
    """How the view's seat, on turn, answers this message, as `corr mail ingest` takes it.

    Without keys (`how` = `body`): a reply from the seat's own address with the move on a
    line of its own, keeping the Subject (its seq is the position answered); a copy of
    the log with the move in it is taken as well when the message attaches the log. With
    keys (`signed`): only a signed record counts, so the seat takes the message into its
    copy, moves there with its key, and mails the log back - with `corr mail send` to the
    seats when the message came from one (players keeping copies), else as a reply with
    the log attached (a host reads its mailbox). The example move is one the seat may
    make that keeps the game's rule (a Domino misplacement would cost it a life)."""
    seat = view.viewer
    example = view.example()
    shown = str(example) if example is not None else None
    entry = next(s for s in rep.header.seats if s.seat == seat)
    answer: dict[str, Any] = {"example": shown, "seq": view.seq, "address": entry.email}
    if not _keyed(rep):  # with dealt cards, moves are made on the dealer's copy alone
        answer.update(how="body", attach=not view.dealt and view.whole)
        return answer
    copy = f"{GAMES_DIR}/{rep.header.id}{ATTACHMENT_SUFFIX}"
    from_seats = [s for s in _sender_seats(rep, sender) if s != seat]
    to = [s.seat for s in rep.header.seats if s.seat != seat and s.email] if from_seats else []
    quoted = f'"{shown}"' if shown else '"MOVE"'
    commands = [
        f"corr mail ingest {SAVED_AS} --games {GAMES_DIR} --new",
        f"corr move {copy} {quoted} --sign {KEY_FILE}",
        *(f"corr mail send {copy} --to {s} --config {SMTP_FILE}" for s in to),
    ]
    answer.update(how="signed", log_copy=copy, commands=commands, send_to=to, saved_as=SAVED_AS,
                  key_file=KEY_FILE, smtp_file=SMTP_FILE)
    return answer


def _follow(rep: Any, seat: str | None) -> list[str] | None:
    """What a seat not on turn runs to keep its copy in step: in a game with keys every
    player keeps one (it signs its moves there); otherwise nothing is asked."""
    if seat is None or not _keyed(rep):
        return None
    return [f"corr mail ingest {SAVED_AS} --games {GAMES_DIR} --new"]


_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.DOTALL | re.IGNORECASE)


def _board(rendered: str, fmt: str) -> Any:
    """The board for a message part. An HTML board is a whole document (what
    `corr show --format html` prints); the mail's HTML part is one document of its own,
    so it takes the board's body, marked safe: it is corr's own autoescaped output."""
    if fmt != "html":
        return rendered.rstrip("\n")
    from markupsafe import Markup

    found = _BODY.search(rendered)
    return Markup((found.group(1) if found else rendered).strip("\n"))


def compose(
    rep: Any,
    to_seat: str,
    since_seq: int | None = None,
    previous_message_id: str | None = None,
    sender: str | None = None,
    references: list[str] | None = None,
    boards: SharedParts | None = None,
) -> EmailMessage:
    """The message telling seat `to_seat` about the position of `rep`, as that seat
    sees it (`corr.seatview`): in a game with hidden information, its own card and no
    one else's; in a running Domino duel, its own board's records, and the log only
    while every record in it is the seat's own (`seatview.log_lines`).

    `previous_message_id` threads it (In-Reply-To, References) to the game's previous
    message; `references` is that message's References chain when known. Both parts
    say the same (`letter`): whose turn it is, how to answer, the board, the moves.
    In a hosted game the seat's private panel carries the host's signature
    (`X-Corr-Private-Sig`), so a player's copy keeps no panel a stranger made.
    `boards`: what the messages of one position to several seats share (`SharedParts`):
    its public boards and the attached log.
    """
    return draft(rep, to_seat, since_seq, previous_message_id, sender, references, boards).message()


@dataclass
class Draft:
    """A composed message before it is an EmailMessage: its headers in order (as set on
    one), both parts' text, and the log it attaches (None: none). A host writes it to
    bytes directly (`written`); everything else takes the EmailMessage (`message`)."""

    headers: list[tuple[str, str]]
    text: str
    html: str
    log: bytes | None
    rep: Any
    boards: SharedParts | None = None

    def value(self, name: str) -> str | None:
        """A header's value as set (the email package may write it otherwise: see mime)."""
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    def message(self) -> EmailMessage:
        """The message as an EmailMessage: multipart/alternative, in multipart/mixed
        with the log attached as add_attachment would (the part made once)."""
        msg = EmailMessage()
        for name, value in self.headers:
            msg[name] = value
        msg.set_content(self.text, subtype="plain", charset="utf-8")
        msg.add_alternative(self.html, subtype="html", charset="utf-8")
        if self.log is not None:  # a running duel keeps the others' moves (domino 1.2)
            msg.make_mixed()
            msg.attach(_log_part(self.rep, self.log) if self.boards is None else self.boards.attachment(self.log))
        return msg

    def written(self) -> bytes | None:
        """The bytes the outbox keeps for `message()`, written without building it
        (`corr.mail.mime`); None when the message is not of the shape mime writes."""
        attachment = None
        if self.log is not None:
            attachment = _attached(self.rep, self.log) if self.boards is None else self.boards.attached(self.log)
            if attachment is None:
                return None
        return mime.written(self.headers, self.text, self.html, attachment)

    def envelope(self) -> tuple[str, list[str]] | None:
        """The sender and recipients of the bytes `written` writes (`mime.envelope`)."""
        return mime.envelope(self.headers)


def draft(
    rep: Any,
    to_seat: str,
    since_seq: int | None = None,
    previous_message_id: str | None = None,
    sender: str | None = None,
    references: list[str] | None = None,
    boards: SharedParts | None = None,
) -> Draft:
    """What `compose` builds its message of (see there)."""
    from corr.seatview import log_lines, private

    seat = _seat(rep, to_seat)
    if not seat.email:
        raise UsageError(f"seat {seat.seat} ({seat.name}) has no email address in the header of {rep.log.path}")
    view = _view(rep, seat.seat)
    sender = sender or default_sender(rep, view)
    sent_from, domain = _sender(sender)
    headers = [
        ("From", sender),
        ("To", address(seat)),
        ("Subject", subject(rep, seat.seat)),
        ("Date", formatdate(localtime=False, usegmt=True)),
        ("Message-ID", make_msgid("corr", domain=domain)),
    ]
    previous_message_id = clean_message_id(previous_message_id)
    if previous_message_id:
        chain = [ref for ref in (clean_message_id(r) for r in references or []) if ref] + [previous_message_id]
        chain = list(dict.fromkeys(chain))
        if len(chain) > MAX_REFERENCES:
            chain = [chain[0], *chain[-(MAX_REFERENCES - 1):]]
        headers += [("In-Reply-To", previous_message_id), ("References", " ".join(chain))]
    headers += [("X-Corr-Game", rep.header.id), ("X-Corr-Seq", str(view.seq))]
    panel = private(rep, seat.seat)
    if panel:
        text = panel_json(panel)
        headers += [(FOR_HEADER, seat.seat), (PRIVATE_HEADER, text)]
        signature = rep.sign_panel(seat.seat, view.seq, text)
        if signature is not None:
            headers.append((PANEL_SIG_HEADER, signature))
    said = letter(rep, seat.seat, since_seq, sent_from, "text", view, boards)
    shown = letter(rep, seat.seat, None, sent_from, "html", view, boards, said)
    render = environment_render if boards is None else boards.part
    plain, html = render("mail.txt", said), render("mail.html", shown)
    lines = log_lines(view, rep)
    data = None if lines is None else b"".join(line + b"\n" for line in lines)
    return Draft(headers, plain, html, data, rep, boards)


def _sender(value: str) -> tuple[str, str]:
    """The From header as the message reads it back, and the domain of its Message-ID
    (its first address's, else localhost); a From the email package refuses raises here."""
    domain = mime.address_domain(value)
    if domain is not None:
        return value, domain
    msg = EmailMessage()
    msg["From"] = value
    addresses = msg["From"].addresses
    return str(msg["From"]), (addresses[0].domain or "localhost") if addresses else "localhost"


def _view(rep: Any, seat: str | None) -> SeatView:
    """The seat's view a message is built from, with its example move where this copy
    knows its moves (a player's copy of a game with hidden cards does not)."""
    from corr.seatview import observe

    try:
        return observe(rep, seat, example=seat is not None)
    except UsageError:
        return observe(rep, seat)


def environment_render(template: str, letter_: dict[str, Any]) -> str:
    """A mail part from its template and the letter it says."""
    from corr.render import environment

    return environment().get_template(template).render(m=letter_)


# ---------------------------------------------------------------------------------
# Threading, kept in the sidecar FILE.mail.json


def clean_message_id(text: Any) -> str | None:
    """`text` if it is one well-formed Message-ID (MSGID_RE), else None: what a hostile
    message says its id is goes into the sidecar and into later messages' headers only
    when it cannot carry anything else (a newline, a second header, spaces)."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    return text if len(text) <= MAX_MSGID and MSGID_RE.fullmatch(text) else None


def header_text(msg: Any, name: str, limit: int = 4000) -> str:
    """A header of a hostile message as one string, "" when it is missing, longer than
    `limit` (not parsed at all then) or cannot be read; the first one when doubled."""
    try:
        value = header_value(msg, name, limit)
        return "" if value is None else str(value)
    except Exception:  # noqa: BLE001 - a header the parser cannot read is no header
        return ""


def header_value(msg: Any, name: str, limit: int = 4000) -> Any:
    """The header `header_text` reads, as the parser made it (the first one when
    doubled), for a caller that reads more of it than its text; None where that gives ""
    for any reason but the header's text itself."""
    try:
        raws = [value for key, value in msg.raw_items() if key.lower() == name.lower()]
        if not raws or len(str(raws[0])) > limit:
            return None
        return msg.get(name)
    except Exception:  # noqa: BLE001 - a header the parser cannot read is no header
        return None


def message_id(msg: Any) -> str | None:
    """The message's own Message-ID when it is well formed, else None."""
    return clean_message_id(header_text(msg, "Message-ID", MAX_MSGID))


def _chain(message_id: str | None, references: str | None) -> list[str]:
    ids = [ref for ref in (clean_message_id(r) for r in (references or "").split()) if ref]
    if message_id:
        ids.append(message_id.strip())
    ids = list(dict.fromkeys(ids))
    if len(ids) > MAX_REFERENCES:
        ids = [ids[0], *ids[-(MAX_REFERENCES - 1):]]
    return ids


def remember(log_path: Path | str, msg: Any, seen: bool = False) -> None:
    """Make `msg` the game's latest message, so the next one threads to it; with
    `seen`, also note it as ingested (a duplicate is then recognised)."""
    remember_thread(log_path, message_id(msg), header_text(msg, "References", 20_000) or None, seen)


def remember_thread(log_path: Path | str, own: str | None, references: str | None, seen: bool = False,
                    sync_folder: bool = True) -> None:
    """`remember` the message whose Message-ID is `own` (kept only when well formed) and
    whose References header is `references`. Without `sync_folder` the caller fsyncs
    the log's folder before anything relies on the sidecar."""
    data = read_sidecar(log_path)
    own = clean_message_id(own)
    if own:
        chain = _chain(own, references)
        data["last_message_id"] = own
        data["references"] = chain[:-1]
        if seen:
            seen_ids = [i for i in data.get("seen", []) if i != own] if isinstance(data.get("seen"), list) else []
            data["seen"] = [*seen_ids, own][-500:]
    write_sidecar(log_path, data, sync_folder)


def compose_file(
    path: Path | str, to_seat: str, sender: str | None = None, since_seq: int | None = None
) -> EmailMessage:
    """Load the log at `path` and compose its message, threaded after the sidecar's last."""
    from corr import engine

    rep = engine.load(path)
    data = read_sidecar(path)
    return compose(
        rep,
        to_seat,
        since_seq=since_seq,
        previous_message_id=data.get("last_message_id"),
        sender=sender,
        references=sidecar_references(data),
    )


def sidecar_references(data: dict[str, Any]) -> list[str]:
    """The References chain a sidecar keeps (well-formed ids only: the file may be old)."""
    refs = data.get("references")
    return [ref for ref in refs if clean_message_id(ref)] if isinstance(refs, list) else []
