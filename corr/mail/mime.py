"""A message of corr's own shape written straight to the bytes the outbox keeps.

corr's messages have one shape (`compose`): a few headers, then a text and an HTML part
as multipart/alternative, the log attached beside them as multipart/mixed. Building an
`EmailMessage` for it and flattening it with the standard library's generator makes a
header object for every value and folds each again, which a host mailing hundreds of
seats a pass pays for each message. `written` writes the same bytes directly: the same
headers in the same order, the parts' headers as `set_content`, `add_alternative` and
`make_mixed` leave them, each part's transfer encoding chosen by the email package's own
rule (`contentmanager._encode_text`: 7bit, 8bit, quoted-printable or base64, its
quoted-printable as `quoprimime.body_encode` writes it), and multipart boundaries of
the generator's form.

It is correct by construction for what it takes, and takes only that: header values of
printable ASCII words, one space apart, that no decoder would read as an encoded word
(`=?`), addresses of plain atoms, Date as `formatdate(usegmt=True)` writes it. Such a
value is written as it stands when its line fits in MAX_LINE, and an unstructured one
(Subject, References, the X- headers) is folded at its spaces as the email package
folds it. Anything else - a name or subject beyond ASCII, a word too long for a line, an
address needing quotes - gives None, and the caller writes that message with the email
package (as `lines.plain_record` reads a log line of the common shape and leaves every
other to the general reader).
"""

from __future__ import annotations

import binascii
import random
import re
import sys
from dataclasses import dataclass
from datetime import date
from typing import Sequence

#: The longest line the default policy writes (its max_line_length).
MAX_LINE = 78
#: Header values of printable ASCII words one space apart.
_WORDS = re.compile(r"[!-~]+(?: [!-~]+)*")
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = rf"{_ATOM}(?:\.{_ATOM})*"
_ADDR_SPEC = rf"{_DOT_ATOM}@{_DOT_ATOM}"
#: `Name <local@domain>` or a bare `local@domain`: a display name of atoms needs no quotes.
_ADDRESS = re.compile(rf"(?:{_ATOM}(?: {_ATOM})* <{_ADDR_SPEC}>|{_ADDR_SPEC})")
_MESSAGE_ID = re.compile(rf"<{_ADDR_SPEC}>")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DATE = re.compile(r"([A-Z][a-z]{2}), ([0-9]{2}) ([A-Z][a-z]{2}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT")
#: How the email package reads each header corr sets that is not unstructured.
_ADDRESSES = frozenset({"from", "to"})
_STRUCTURED = frozenset({"from", "to", "date", "message-id"})
#: What the email package's header registry treats apart (refused here: none of corr's).
_SPECIAL = frozenset({"sender", "cc", "bcc", "reply-to", "mime-version", "orig-date"})
#: A header name of corr's kind (a short one: its label never folds).
_NAME = re.compile(r"[A-Za-z0-9-]{1,30}")
_FILENAME = re.compile(r"[A-Za-z0-9._-]+")
_TYPE = re.compile(r"[a-z]+/[a-z0-9.+-]+")
#: The generator's boundary: 15 `=`, 19 digits (sys.maxsize's width), `==`.
_BOUNDARY_WIDTH = len(repr(sys.maxsize - 1))


@dataclass(frozen=True)
class Attached:
    """An attachment part, encoded once for every message it goes with: its type, its
    file name and its body (base64, as `set_content(bytes, ...)` encodes it)."""

    type: str
    filename: str
    body: str


def attached(data: bytes, filename: str, type_: str) -> Attached | None:
    """The attachment part of `data`; None for a name or type this module does not write."""
    if not _FILENAME.fullmatch(filename) or not _TYPE.fullmatch(type_) or type_.split("/")[0] in ("text", "multipart"):
        return None
    if len(f"Content-Type: {type_}") > MAX_LINE:  # the email package would fold it
        return None
    if len(f'Content-Disposition: attachment; filename="{filename}"') > MAX_LINE or not data:
        return None
    body = _base64(data).decode("ascii")
    return Attached(type_, filename, body)


def envelope(headers: Sequence[tuple[str, str]]) -> tuple[str, list[str]] | None:
    """The sender and the recipients smtplib's `send_message` takes from the message
    `written` writes with these headers: the addresses of its From and its To, read as
    they stand (`written` takes only a plain `Name <address>` or a bare address); None
    without exactly one of each."""
    values = {name.lower(): value for name, value in headers}
    if len(values) < len(headers) or "from" not in values or "to" not in values:
        return None
    return _address(values["from"]), [_address(values["to"])]


def _address(value: str) -> str:
    """The address of a plain `Name <address>` or of a bare address."""
    return value[value.rindex("<") + 1:-1] if value.endswith(">") else value


def address_domain(value: str) -> str | None:
    """The domain of a From value of the simple kind `header` writes as it stands (what
    the email package's first address says), else None."""
    if "=?" in value or not _ADDRESS.fullmatch(value):
        return None
    return value.rstrip(">").rsplit("@", 1)[1]


def written(headers: Sequence[tuple[str, str]], text: str, html: str, attachment: Attached | None) -> bytes | None:
    """The bytes of the message with `headers` (name, value as set on an EmailMessage, in
    order), `text` as its text/plain and `html` as its text/html alternative, and
    `attachment` beside them: what `_as_bytes` writes for the message `compose` builds of
    them. None when anything in it is outside what this module writes. No line of it is
    longer than MAX_LINE or holds a CR, and it ends with a newline: `outbox.as_written`
    relies on that."""
    if len({name.lower() for name, _ in headers}) < len(headers):  # EmailMessage refuses some twice
        return None
    head = []
    for name, value in headers:
        line = header(name, value)
        if line is None:
            return None
        head.append(line)
    parts = []
    for text_, subtype, version in ((text, "plain", False), (html, "html", True)):
        encoded = _text_part(text_, subtype, version)
        if encoded is None:
            return None
        parts.append(encoded)
    body = _multipart("alternative", parts)
    if attachment is not None:
        part = (f"Content-Type: {attachment.type}\nContent-Transfer-Encoding: base64\n"
                f'Content-Disposition: attachment; filename="{attachment.filename}"\nMIME-Version: 1.0\n\n'
                ).encode("ascii") + attachment.body.encode("ascii")
        body = _multipart("mixed", [body, part])
    return "".join(head).encode("ascii") + b"MIME-Version: 1.0\n" + body


def header(name: str, value: str) -> str | None:
    """The header's lines as the email package writes `msg[name] = value` (default
    policy), or None when it is not of the simple kind this module writes."""
    if not _NAME.fullmatch(name) or name.lower() in _SPECIAL or name.lower().startswith(("content-", "resent-")):
        return None
    if not _WORDS.fullmatch(value) or "=?" in value:
        return None
    key = name.lower()
    if key == "date":
        rewritten = _date(value)  # DateHeader writes the instant again, with +0000
        if rewritten is None:
            return None
        value = rewritten
    elif key in _ADDRESSES and not _ADDRESS.fullmatch(value):
        return None
    elif key == "message-id" and not _MESSAGE_ID.fullmatch(value):
        return None
    if len(name) + 2 + len(value) <= MAX_LINE:
        return f"{name}: {value}\n"
    if key in _STRUCTURED:
        return None
    return _folded(name, value)


def _folded(name: str, value: str) -> str | None:
    """An unstructured value too long for its line, folded as `_refold_parse_tree` does
    a list of words: the whole value on a line of its own when it fits there, else word
    by word, each line as full as it goes, breaking before a space. A word too long for
    any line would be made an encoded word: None."""
    if len(value) + 1 <= MAX_LINE:
        return f"{name}:\n {value}\n"
    lines = [f"{name}:"]
    for word in value.split(" "):
        if len(word) + 1 > MAX_LINE:
            return None
        if len(lines[-1]) + 1 + len(word) <= MAX_LINE:
            lines[-1] += " " + word
        else:
            lines.append(" " + word)
    return "\n".join(lines) + "\n"


def _date(value: str) -> str | None:
    """Date as the email package writes back `formatdate(usegmt=True)`'s value: the same
    instant, `+0000` for `GMT`; None for any other form, or a weekday that is not the date's."""
    found = _DATE.fullmatch(value)
    if found is None:
        return None
    day, dd, month, year = found.group(1), int(found.group(2)), found.group(3), int(found.group(4))
    if month not in _MONTHS or int(found.group(5)) > 23 or int(found.group(6)) > 59 or int(found.group(7)) > 59:
        return None
    try:
        weekday = date(year, _MONTHS.index(month) + 1, dd).weekday()
    except ValueError:
        return None
    if year < 1900 or _DAYS[weekday] != day:
        return None
    return value[:-3] + "+0000"


#: The text parts written last, by text and kind: the messages of one position to the
#: seats not on turn most often say the same, and are written one after another.
_PARTS: dict[tuple[str, str, bool], bytes | None] = {}
_PARTS_KEPT = 8


def _text_part(text: str, subtype: str, version: bool) -> bytes | None:
    """A text part as `set_content(text, subtype=..., charset="utf-8")` makes it and the
    generator writes it; `version`: it carries MIME-Version (a part `add_alternative` made).
    One of the last _PARTS_KEPT written is not written again."""
    key = (text, subtype, version)
    if key not in _PARTS:
        if len(_PARTS) >= _PARTS_KEPT:
            del _PARTS[next(iter(_PARTS))]
        _PARTS[key] = _new_text_part(text, subtype, version)
    return _PARTS[key]


def _new_text_part(text: str, subtype: str, version: bool) -> bytes | None:
    """`_text_part`, written afresh."""
    try:
        lines = text.encode("utf-8").splitlines()
    except UnicodeEncodeError:
        return None
    cte, body = _encoded(lines)
    head = f'Content-Type: text/{subtype}; charset="utf-8"\nContent-Transfer-Encoding: {cte}\n'
    return (head + ("MIME-Version: 1.0\n" if version else "") + "\n").encode("ascii") + body


def _encoded(lines: list[bytes]) -> tuple[str, bytes]:
    """The transfer encoding `contentmanager._encode_text` picks for these lines, and
    the body in it: 7bit or 8bit when no line is longer than MAX_LINE, else
    quoted-printable unless the first ten lines come out shorter in base64."""
    whole = b"\n".join(lines) + b"\n"
    if max(map(len, lines), default=0) <= MAX_LINE:
        return ("7bit" if whole.isascii() else "8bit"), whole
    sniff = b"\n".join(lines[:10]) + b"\n"
    if len(_quoted_printable(lines[:10])) > len(binascii.b2a_base64(sniff)):
        return "base64", _base64(whole)
    return "quoted-printable", _quoted_printable(lines)


def _base64(data: bytes) -> bytes:
    """`data` in base64 as `contentmanager._encode_base64` writes it: 57 bytes a line."""
    step = MAX_LINE // 4 * 3
    return b"".join(binascii.b2a_base64(data[i:i + step]) for i in range(0, len(data), step))


#: A line quoted-printable leaves as it is: bytes safe in a body (printable ASCII but
#: `=`, and tab), too few to be broken, the last not white space.
_AS_IS = re.compile(rb"(?:[\t -<>-~]{0,77}[!-<>-~])?").fullmatch
#: Bytes quoted-printable quotes as `=XX` besides `=` itself.
_UNSAFE = re.compile(rb"[^\t -~]+")


#: Long lines already quoted, by line: a position's board is the same long lines in the
#: message to every seat, so a pass quotes each once. Each line is quoted on its own.
_QUOTED: dict[bytes, bytes] = {}
_QUOTED_MAX = 4096


def _quoted_printable(lines: list[bytes]) -> bytes:
    """`quoprimime.body_encode(body, MAX_LINE)` of the body of these lines, on bytes:
    each byte that is not safe quoted (as its table quotes it), then each line broken
    apart from the others, as it breaks them - the same steps, without its table of
    strings taken character by character."""
    out: list[bytes] = []
    append = out.append
    for line in lines:
        if _AS_IS(line):  # nothing to quote, nothing to break
            append(line)
            continue
        quoted = _QUOTED.get(line)
        if quoted is None:
            if len(_QUOTED) >= _QUOTED_MAX:
                _QUOTED.clear()
            quoted = _QUOTED[line] = _quoted_line(line)
        append(quoted)
    return b"\n".join(out) + b"\n"


def _quoted_line(line: bytes) -> bytes:
    """One line that needs quoting or breaking, quoted and broken (its pieces joined by
    newlines), as `_quoted_printable` writes it."""
    out: list[bytes] = []
    append, width = out.append, MAX_LINE - 1
    line = _UNSAFE.sub(_quote_run, line.replace(b"=", b"=3D"))
    start = 0
    laststart = len(line) - 1 - MAX_LINE
    while start <= laststart:  # pieces of MAX_LINE - 1, never through an escape
        stop = start + width
        if line[stop - 2] == 0x3D:  # `=`
            append(line[start:stop - 1])
            start = stop - 2
        elif line[stop - 1] == 0x3D:
            append(line[start:stop])
            start = stop - 1
        else:
            append(line[start:stop] + b"=")
            start = stop
    if line and line[-1] in b" \t":  # white space ending a line is quoted
        room = start - laststart
        if room >= 3:
            end = b"=%02X" % line[-1]
        elif room == 2:
            end = line[-1:] + b"=\n"
        else:
            end = b"=\n=%02X" % line[-1]
        append(line[start:-1] + end)
    else:
        append(line[start:])
    return b"\n".join(out)


def _quote_run(found: re.Match[bytes]) -> bytes:
    return b"=" + found.group().hex("=").upper().encode("ascii")


def _multipart(subtype: str, parts: list[bytes]) -> bytes:
    """A multipart's Content-Type and body as the generator writes them: a boundary
    drawn as `Generator._make_boundary` draws it, none of the parts' lines."""
    boundary = _boundary(parts)
    head = f'Content-Type: multipart/{subtype}; boundary="{boundary}"'
    if len(head) > MAX_LINE:  # a parameter that does not fit goes on a line of its own
        head = f'Content-Type: multipart/{subtype};\n boundary="{boundary}"'
    mark = f"--{boundary}".encode("ascii")
    out = [head.encode("ascii"), b"\n\n", mark, b"\n", parts[0]]
    for part in parts[1:]:
        out += [b"\n", mark, b"\n", part]
    out += [b"\n", mark, b"--\n"]
    return b"".join(out)


def _boundary(parts: list[bytes]) -> str:
    """A boundary drawn as `Generator._make_boundary` draws it: suffixed `.0`, `.1`, ...
    while a line of the parts is that boundary's."""
    boundary = "=" * 15 + f"{random.randrange(sys.maxsize):0{_BOUNDARY_WIDTH}d}" + "=="
    text = b"\n".join(parts)
    candidate, counter = boundary, 0
    while f"--{candidate}".encode("ascii") in text and re.search(
            rb"^--" + re.escape(candidate.encode("ascii")) + rb"(--)?$", text, re.MULTILINE):
        candidate = f"{boundary}.{counter}"
        counter += 1
    return candidate
