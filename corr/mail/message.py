"""Reading a message that arrived by mail, which is hostile until checked (DESIGN.md 8).

Everything here bounds what it reads before reading it: the message's size
(MAX_MESSAGE), how many multipart parts it declares (counted in the raw bytes, before the
parser's work can explode), how deep they nest and how many there are (walked without
recursion), header lengths (MAX_HEADER), seq digits (MAX_SEQ_DIGITS), the attachment's
size and the body lines looked at for a move. Header values are flattened to one line
(`flat`) before they go anywhere. What the message means for a game is `ingest`'s.
"""

from __future__ import annotations

import email.message
import email.parser
import email.policy
import os
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from corr.errors import CorrError, UsageError
from corr.mail import ATTACHMENT_SUFFIX
from corr.mail.compose import MAX_SEQ_DIGITS, SUBJECT_RE, header_text, header_value

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


#: The headers corr reads from an incoming message.
READ_HEADERS = frozenset({"from", "to", "subject", "message-id", "references", "in-reply-to", "auto-submitted",
                          "precedence", "x-corr-game", "x-corr-seq"})


def flat(text: str, limit: int = 200) -> str:
    """Text from a hostile message made one line: control characters (a decoded newline,
    an escape) become spaces, runs of spaces one, cut to `limit` characters."""
    out = " ".join("".join(" " if ch < " " or "\x7f" <= ch <= "\x9f" or ch in "\u2028\u2029" else ch
                           for ch in str(text)).split())
    return out[:limit]


class ReadingPolicy(email.policy.EmailPolicy):
    """email.policy.default, except that a header value is parsed once per message: the
    standard library parses a header through its registry again at every read
    (`get_content_type`, `msg["From"]`), and corr reads the same few many times over.
    `parse_message` gives each message a policy, and so a memo, of its own, shared by
    its parts; a value that cannot be parsed is not kept, so it raises at every read."""

    parsed: dict[Any, Any] | None = None

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if self.parsed is None or hasattr(value, "name") or not isinstance(value, str):
            return super().header_fetch_parse(name, value)
        key = (self.header_factory, name, value)
        found = self.parsed.get(key)
        if found is None:
            found = self.parsed[key] = super().header_fetch_parse(name, value)
        return found


def reading_policy() -> ReadingPolicy:
    """A policy for one message to be read (`ReadingPolicy`), with its memo empty."""
    policy = ReadingPolicy(header_factory=email.policy.default.header_factory)
    object.__setattr__(policy, "parsed", {})  # a policy is frozen once made
    return policy


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
        msg = email.parser.BytesParser(policy=reading_policy()).parsebytes(data)
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


def attachments(msg: EmailMessage) -> list[EmailMessage]:
    found = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = filename(part)
        ctype = part.get_content_type()
        if name.endswith(ATTACHMENT_SUFFIX) or ctype.startswith("application/x-corr"):
            found.append(part)
    return found


def filename(part: EmailMessage) -> str:
    """A part's file name made one short line ("" when it has none or it cannot be read)."""
    try:
        return flat(part.get_filename() or "", 200)
    except Exception:  # noqa: BLE001 - a name the parser cannot read is no name
        return ""


def attachment_bytes(part: EmailMessage) -> bytes:
    encoded = part.get_payload()
    if isinstance(encoded, str) and len(encoded) > MAX_ATTACHMENT * 4 // 3 + 4096:
        raise UsageError(f"attachment {filename(part)} is over the size limit of {MAX_ATTACHMENT} bytes")
    payload = part.get_payload(decode=True)  # bytes, or None for a multipart
    data = payload if isinstance(payload, bytes) else b""
    if len(data) > MAX_ATTACHMENT:
        raise UsageError(f"attachment {filename(part)} is over the size limit of {MAX_ATTACHMENT} bytes")
    return data


def plain_body(msg: EmailMessage) -> EmailMessage | None:
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


def plain_text(msg: EmailMessage) -> str | None:
    body = plain_body(msg)
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


def seq_key(message: EmailMessage | BaseException | None) -> int:
    """The Subject's seq of a message parsed once (`read_message`), for putting a mailbox
    in order; 0 when it has none or could not be read. Never raises."""
    if not isinstance(message, EmailMessage):
        return 0
    try:
        seq = subject_ref(message)[1]
    except Exception:  # noqa: BLE001 - a message that cannot be ordered goes first; ingest says why
        return 0
    return seq if seq is not None else 0


def delivery_order(key: str) -> tuple[int, int, str]:
    """When a Maildir key says its message was delivered: Python's and most delivery
    agents' keys start `SECONDS.MMICROSECONDS...`, whose digits a plain sort of the
    names would compare as text (M99999 after M100000)."""
    seconds, _, rest = key.partition(".")
    micro = rest[1:].split("P", 1)[0] if rest.startswith("M") else ""
    return (int(seconds) if seconds.isdigit() and len(seconds) < 20 else 0,
            int(micro) if micro.isdigit() and len(micro) < 10 else 0, key)


def read_message(data: bytes | None) -> EmailMessage | BaseException:
    """A message's bytes parsed, once for both ordering and ingesting it; the error that
    refuses it instead when it cannot be (None: its file could not be read)."""
    from corr.errors import UsageError

    try:
        if data is None:
            raise UsageError("the message's file cannot be read")
        return parse_message(data)
    except Exception as err:  # noqa: BLE001 - handed to ingest, which says why
        return err


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


def from_addresses(msg: EmailMessage) -> list[str] | None:
    """The addresses of the message's From header, lower-case; None when it has no From
    the parser can read (a From with an encoded newline, say), which is nobody's."""
    value = header_value(msg, "From", MAX_HEADER)  # parsed once, for its text and its addresses
    try:
        if value is None or not str(value):
            return None
        return [a.addr_spec.lower() for a in value.addresses]
    except Exception:  # noqa: BLE001 - a From header the parser cannot read is nobody's
        return None


def read_bounded(path: Path, limit: int = MAX_MESSAGE) -> bytes | None:
    """A message file's bytes, at most `limit` + 1 of them (enough to refuse it by
    size); None when it is not a regular file (a folder, a link, a pipe) or cannot be
    read."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], limit + 1
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


def first_move(text: str) -> str | None:
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


def says_pass(text: str) -> bool:
    """Whether the body's first line of its own (not quoted with `>`) is `pass`: a card
    player whose card fits nowhere (cards 5.1)."""
    for line in text.splitlines()[:MAX_BODY_LINES]:
        line = line.strip()
        if line and not line.startswith(">"):
            return line.lower() == "pass"
    return False


#: An address corr answers: printable ASCII without spaces, quotes or brackets, one @.
_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}")


def sender_of(msg: EmailMessage) -> tuple[str, str] | None:
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


def own_address(msg: EmailMessage) -> str | None:
    """The message's one To address, when it is one corr can put into a From header."""
    try:
        found = [a.addr_spec for a in msg["To"].addresses] if header_text(msg, "To", MAX_HEADER) else []
    except Exception:  # noqa: BLE001 - a To the parser cannot read is no address
        return None
    return found[0] if len(found) == 1 and _ADDRESS.fullmatch(found[0] or "") else None
