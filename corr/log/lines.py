"""Log lines as plain values, read and written without pydantic.

corr runs once per move, and importing pydantic costs more than everything else a move
does. So every command reads and writes lines through this module, which applies
exactly the constraints of the pydantic models in `corr.log.models` - the definition of
the format, from which `schemas/` is generated and with which `corr audit` re-checks
every line. A property test holds the two to the same verdict on every line.

Both readers see the same bytes the same way: a line is UTF-8 without a byte order mark
and without lone surrogates (`decode`), its times exist (`STAMP_PATTERN`, one regex for
both), and `store.parse` holds every line to its one canonical spelling (`dump`), so a
record signed and chained once cannot be written a second way.
"""

from __future__ import annotations

import json
import re
from json.encoder import encode_basestring as _quote  # what json.dumps(ensure_ascii=False) quotes with
from typing import Any, NamedTuple

#: The format corr writes. Format 1 (read, never written) hashed a Domino duel's hidden
#: boards into its records' `state`; format 2 hashes the public view alone, seals each
#: hidden board with a salted hash (`seal`), and has a host vouch for its games' records.
FORMAT_VERSION = 2
#: The formats corr reads.
FORMATS = (1, 2)
#: A record's type is a word of the game's or the engine's (`move`, `ruling`, `draw-offer`):
#: the log only holds it to this shape; the engine knows which types a game has.
TYPE_PATTERN = r"[a-z][a-z-]{1,23}"
_TYPE = re.compile(TYPE_PATTERN)
_HEX64 = re.compile(r"[0-9a-f]{64}")
# A UTC time `YYYY-MM-DDTHH:MM:SSZ` that exists: years 0001-9999, each month's days (Feb 29
# in leap years only), hours 00-23, seconds 00-59. One regex, shared with the pydantic
# models (pydantic-core runs it in Rust, without calling back into Python), so both
# readers give the same verdict on every stamp at the cost of one match.
_YEAR = r"(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})"
_LEAP_YEAR = r"(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][48]|[13579][26]|[2468]0)00)"
STAMP_PATTERN = (
    rf"(?:{_YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
    rf"|02-(?:0[1-9]|1[0-9]|2[0-8]))|{_LEAP_YEAR}-02-29)T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z"
)
_STAMP = re.compile(STAMP_PATTERN)
_SEAT = re.compile(r"[A-F]")
_BY = re.compile(r"[A-F]|host|referee|dealer")
_SEED = re.compile(r"[0-9a-f]{32,128}")
_ID = re.compile(r"[0-9a-z-]{4,64}")
_GAME = re.compile(r"[a-z]+")


class LineError(ValueError):
    """A line that is not a valid header or record; `where` names the field."""

    def __init__(self, where: str, message: str) -> None:
        if not where.isprintable() or len(where) > 80:  # a hostile key: one short line still
            where = repr(where[:80])
        self.where = where
        super().__init__(f"{where}: {message}")


def _obj(data: Any, where: str) -> dict[str, Any]:
    if type(data) is not dict:
        raise LineError(where, "not a JSON object")
    return data


_ABSENT = object()


def _field(data: dict[str, Any], key: str, optional: bool) -> Any:
    """The value of `key`; _ABSENT for a missing or null optional field."""
    if key not in data:
        if optional:
            return _ABSENT
        raise LineError(key, "field required")
    value = data[key]
    return _ABSENT if value is None and optional else value


def _str(data: dict[str, Any], key: str, *, optional: bool = False, pattern: re.Pattern[str] | None = None,
         min_len: int = 0, max_len: int | None = None) -> str | None:
    value = _field(data, key, optional)
    if value is _ABSENT:
        return None
    if type(value) is not str:
        raise LineError(key, "should be a string")
    if len(value) < min_len or (max_len is not None and len(value) > max_len):
        raise LineError(key, "has the wrong length")
    if pattern is not None and not pattern.fullmatch(value):
        if pattern is _STAMP:
            raise LineError(key, f"{value[:40]!r} is not a real UTC time YYYY-MM-DDTHH:MM:SSZ")
        raise LineError(key, "does not match its pattern")
    return value


def _int(data: dict[str, Any], key: str, *, optional: bool = False, minimum: int = 1) -> int | None:
    value = _field(data, key, optional)
    if value is _ABSENT:
        return None
    if type(value) is not int:
        raise LineError(key, "should be an integer")
    if value < minimum:
        raise LineError(key, f"should be at least {minimum}")
    return value


def _no_extra(data: dict[str, Any], allowed: frozenset[str], where: str = "") -> None:
    for key in data:
        if key not in allowed:
            raise LineError(f"{where}{key}", "extra field not permitted")


class Seat(NamedTuple):
    seat: str
    name: str
    email: str | None = None
    key: str | None = None


class Official(NamedTuple):
    """A referee or host named in the header: who may append signed rulings."""

    name: str
    key: str
    email: str | None = None


class Header(NamedTuple):
    id: str
    game: str
    seats: tuple[Seat, ...]
    created: str
    options: dict[str, str]
    time_control: dict[str, int | str] | None = None
    referee: Official | None = None
    host: Official | None = None
    commitment: str | None = None
    corr: int = FORMAT_VERSION
    type: str = "header"


class Record(NamedTuple):
    """One record. Lines are plain named tuples: immutable, and the cheapest value to
    build, which matters when an audit builds one per line."""

    seq: int
    type: str
    by: str
    at: str
    prev: str
    state: str
    move: str | None = None
    target: int | None = None
    note: str | None = None
    sig: str | None = None
    seed: str | None = None  # a dealer's `reveal` (DESIGN 6)
    seal: str | None = None  # a hidden board's salted hash (format 2: a running Domino duel)


# Key order on disk: the order of the pydantic models' fields.
HEADER_KEYS = (
    "corr", "type", "id", "game", "options", "seats", "time_control", "referee", "host", "commitment", "created"
)
SEAT_KEYS = ("seat", "name", "email", "key")
OFFICIAL_KEYS = ("name", "email", "key")
RECORD_KEYS = ("seq", "type", "by", "at", "move", "target", "note", "seed", "prev", "state", "seal", "sig")
_HEADER_SET, _SEAT_SET, _RECORD_SET = frozenset(HEADER_KEYS), frozenset(SEAT_KEYS), frozenset(RECORD_KEYS)
_OFFICIAL_SET = frozenset(OFFICIAL_KEYS)
assert set(Record._fields) == _RECORD_SET and set(Header._fields) == _HEADER_SET
assert Seat._fields == SEAT_KEYS and set(Official._fields) == _OFFICIAL_SET


def _seat(data: Any, i: int) -> Seat:
    where = f"seats.{i}."
    seat = _obj(data, where.rstrip("."))
    _no_extra(seat, _SEAT_SET, where)
    try:
        return Seat(
            seat=_str(seat, "seat", pattern=_SEAT),  # type: ignore[arg-type]
            name=_str(seat, "name", min_len=1, max_len=200),  # type: ignore[arg-type]
            email=_str(seat, "email", optional=True, max_len=320),
            key=_str(seat, "key", optional=True),
        )
    except LineError as err:
        raise LineError(where + err.where, str(err).split(": ", 1)[1]) from None


def _official(data: dict[str, Any], role: str) -> Official | None:
    value = data.get(role)
    if value is None:
        return None
    official = _obj(value, role)
    _no_extra(official, _OFFICIAL_SET, f"{role}.")
    try:
        return Official(
            name=_str(official, "name", min_len=1, max_len=200),  # type: ignore[arg-type]
            key=_str(official, "key"),  # type: ignore[arg-type]
            email=_str(official, "email", optional=True, max_len=320),
        )
    except LineError as err:
        raise LineError(f"{role}.{err.where}", str(err).split(": ", 1)[1]) from None


def header_from(data: Any) -> Header:
    """A header from decoded JSON; raises LineError like the pydantic model would."""
    data = _obj(data, "line")
    _no_extra(data, _HEADER_SET)
    version = data.get("corr", FORMAT_VERSION)
    if type(version) is not int or version not in FORMATS:
        raise LineError("corr", f"format version should be one of {', '.join(map(str, FORMATS))}")
    if "type" in data and data["type"] != "header":
        raise LineError("type", "should be 'header'")
    options = data.get("options", {})
    if type(options) is not dict or any(type(v) is not str for v in options.values()):
        raise LineError("options", "should be an object of strings")
    if "seats" not in data:
        raise LineError("seats", "field required")
    seats = data["seats"]
    if type(seats) is not list or not 1 <= len(seats) <= 6:
        raise LineError("seats", "should be a list of 1 to 6 seats")
    tc = data.get("time_control")
    if tc is not None and (type(tc) is not dict or any(type(v) not in (int, str) for v in tc.values())):
        raise LineError("time_control", "should be an object of integers and strings")
    return Header(
        id=_str(data, "id", pattern=_ID),  # type: ignore[arg-type]
        game=_str(data, "game", pattern=_GAME),  # type: ignore[arg-type]
        seats=tuple(_seat(s, i) for i, s in enumerate(seats)),
        created=_str(data, "created", pattern=_STAMP),  # type: ignore[arg-type]
        options=options,
        time_control=tc,
        referee=_official(data, "referee"),
        host=_official(data, "host"),
        commitment=_str(data, "commitment", optional=True, pattern=_HEX64),
        corr=version,
    )


def record_from(data: Any) -> Record:
    """A record from decoded JSON; raises LineError like the pydantic model would.

    Audits call this once per record, so a well-formed record passes one inlined check;
    anything else goes through `_record_checked`, which names what is wrong.
    """
    try:
        seq, kind, by, at, prev, state = (
            data["seq"], data["type"], data["by"], data["at"], data["prev"], data["state"]
        )
    except (KeyError, TypeError):
        return _record_checked(data)
    get = data.get
    move, target, note, sig, seed, seal = get("move"), get("target"), get("note"), get("sig"), get("seed"), get("seal")
    if (
        (len(data) > 6 and not _RECORD_SET.issuperset(data))
        or type(seq) is not int or seq < 1
        or type(kind) is not str or not _TYPE.fullmatch(kind)
        or type(by) is not str or not _BY.fullmatch(by)
        or type(at) is not str or not _STAMP.fullmatch(at)
        or type(prev) is not str or not _HEX64.fullmatch(prev)
        or type(state) is not str or not _HEX64.fullmatch(state)
        or (move is not None and (type(move) is not str or len(move) > 100))
        or (target is not None and (type(target) is not int or target < 1))
        or (note is not None and (type(note) is not str or len(note) > 2000))
        or (sig is not None and type(sig) is not str)
        or (seed is not None and (type(seed) is not str or not _SEED.fullmatch(seed)))
        or (seal is not None and (type(seal) is not str or not _HEX64.fullmatch(seal)))
    ):
        return _record_checked(data)
    return Record(seq, kind, by, at, prev, state, move, target, note, sig, seed, seal)


def _record_checked(data: Any) -> Record:
    """record_from, field by field, raising LineError for the first field that is wrong."""
    data = _obj(data, "line")
    _no_extra(data, _RECORD_SET)
    kind = data.get("type")
    if type(kind) is not str or not _TYPE.fullmatch(kind):
        raise LineError("type", "field required" if "type" not in data else "is not a record type (a short lower-case word)")
    return Record(
        seq=_int(data, "seq"),  # type: ignore[arg-type]
        type=kind,
        by=_str(data, "by", pattern=_BY),  # type: ignore[arg-type]
        at=_str(data, "at", pattern=_STAMP),  # type: ignore[arg-type]
        prev=_str(data, "prev", pattern=_HEX64),  # type: ignore[arg-type]
        state=_str(data, "state", pattern=_HEX64),  # type: ignore[arg-type]
        move=_str(data, "move", optional=True, max_len=100),
        target=_int(data, "target", optional=True),
        note=_str(data, "note", optional=True, max_len=2000),
        sig=_str(data, "sig", optional=True),
        seed=_str(data, "seed", optional=True, pattern=_SEED),
        seal=_str(data, "seal", optional=True, pattern=_HEX64),
    )


#: The line of most records, byte for byte as `canonical_record` writes it: seq, type,
#: by, at, a move that needs no JSON escape, prev and state. A line it matches whose
#: prev and state are hex digits is valid and canonical by its shape alone; any other
#: line is read field by field. The two hashes are matched as any 64 bytes and held to
#: hex after: a regex tests a class byte by byte, and the hashes are most of a line.
_PLAIN = re.compile(
    rb'\{"seq":([1-9][0-9]{0,17}),"type":"(' + TYPE_PATTERN.encode() + rb')","by":"([A-F]|host|referee|dealer)",'
    rb'"at":"(' + STAMP_PATTERN.encode() + rb')"(?:,"move":"([^"\\\x00-\x1f]{0,400})")?,'
    rb'"prev":"(.{64})","state":"(.{64})"\}',
    re.DOTALL,
).fullmatch
_HEX_DIGITS = b"0123456789abcdef"
_new_record = tuple.__new__  # Record(...) without its Python-level __new__: one per line read
#: A record's type and author as text, by their bytes: a log has a handful of each, and
#: one shared string for all of them keeps a long log's records smaller (`_word`).
_WORDS: dict[bytes, str] = {}


def _word(raw: bytes) -> str:
    """`raw` decoded, the one string for it once seen (at most a few hundred are kept)."""
    text = raw.decode()
    if len(_WORDS) < 256:
        _WORDS[raw] = text
    return text


def plain_record(raw: bytes) -> Record | None:
    """The record of a line of the common shape (`_PLAIN`), read off its bytes without
    parsing JSON; None for any other line, which a reader must then read and hold to
    its canonical form. Every log read passes each record line through here first."""
    m = _PLAIN(raw)
    if m is None:
        return None
    seq, kind, by, at, move, prev, state = m.groups()
    if prev.strip(_HEX_DIGITS) or state.strip(_HEX_DIGITS):  # not all hex digits
        return None
    text = None
    if move is not None:
        try:
            text = move.decode()
        except UnicodeDecodeError:  # the readers name what is wrong with it
            return None
        if len(text) > 100:
            return None
    words = _WORDS
    return _new_record(Record, (int(seq), words.get(kind) or _word(kind), words.get(by) or _word(by), at.decode(),
                                prev.decode(), state.decode(), text, None, None, None, None, None))


def read_header(raw: bytes) -> Header:
    """A header from one raw line."""
    return header_from(decode(raw))


def read_record(raw: bytes) -> Record:
    """A record from one raw line."""
    return record_from(decode(raw))


def decode(raw: bytes) -> Any:
    """JSON of one line; raises LineError for what the models' reader refuses too: bytes
    that are not UTF-8 (UTF-16, encoded surrogates), a byte order mark, text that is not
    JSON, and strings holding a lone surrogate (`"\\ud800"`), which are not text.

    `json.loads` of bytes would guess UTF-16, skip a BOM and let surrogates through, so
    the line is decoded here, strictly."""
    try:
        text = raw.decode()
        data = json.loads(text)
    except UnicodeDecodeError as err:
        raise LineError("line", f"not UTF-8 text (byte {err.start + 1})") from None
    except (ValueError, RecursionError) as err:
        if raw.startswith(b"\xef\xbb\xbf"):
            raise LineError("line", "starts with a byte order mark (BOM): corr lines are UTF-8 without one") from None
        raise LineError("line", f"not JSON ({err.__class__.__name__})") from None
    if b"\\u" in raw:  # only an escape can make a lone surrogate; canonical lines rarely hold one
        try:  # every key and value as written, a duplicate key's dropped value too
            _ENCODE(json.loads(text, object_pairs_hook=list)).encode()
        except UnicodeEncodeError:
            raise LineError("line", "holds a lone surrogate escape (\\ud800-\\udfff), which is not text") from None
    return data


def header_dict(header: Header) -> dict[str, Any]:
    """The header as JSON data: keys in HEADER_KEYS order (seats' in SEAT_KEYS order,
    officials' in OFFICIAL_KEYS order), no nulls."""
    values = header._asdict()
    values["seats"] = [{k: v for k, v in zip(SEAT_KEYS, seat) if v is not None} for seat in header.seats]
    for role in ("referee", "host"):
        official = values[role]
        if official is not None:
            values[role] = {k: v for k in OFFICIAL_KEYS if (v := getattr(official, k)) is not None}
    return {k: v for k in HEADER_KEYS if (v := values[k]) is not None}


def record_dict(record: Record) -> dict[str, Any]:
    """The record as JSON data: keys in RECORD_KEYS order, no nulls."""
    seq, kind, by, at, prev, state, move, target, note, sig, seed, seal = record
    data = {"seq": seq, "type": kind, "by": by, "at": at}
    if move is not None:
        data["move"] = move
    if target is not None:
        data["target"] = target
    if note is not None:
        data["note"] = note
    if seed is not None:
        data["seed"] = seed
    data["prev"] = prev
    data["state"] = state
    if seal is not None:
        data["seal"] = seal
    if sig is not None:
        data["sig"] = sig
    return data


#: json.dumps(data, separators=(",", ":"), ensure_ascii=False), without building an
#: encoder per call: the one canonical spelling of every line (no spaces, no escapes but
#: the ones JSON requires, each key once).
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def canonical_record(record: Record) -> bytes:
    """`dump(record)` of a record a reader has validated, five times faster: every log
    read holds every record line to these bytes. Only the free-text fields (move, note,
    sig) can need JSON escapes, quoted by the function json.dumps itself uses; the other
    strings are held by their patterns to characters JSON writes as they are, and seq and
    target are ints. A property test holds it to `dump`."""
    seq, kind, by, at, prev, state, move, target, note, sig, seed, seal = record
    if target is None and note is None and seed is None and sig is None and seal is None:  # most records: one f-string
        moved = "" if move is None else ',"move":' + _quote(move)
        return f'{{"seq":{seq},"type":"{kind}","by":"{by}","at":"{at}"{moved},"prev":"{prev}","state":"{state}"}}'.encode()
    parts = ['{"seq":', str(seq), ',"type":"', kind, '","by":"', by, '","at":"', at, '"']
    if move is not None:
        parts += (',"move":', _quote(move))
    if target is not None:
        parts += (',"target":', str(target))
    if note is not None:
        parts += (',"note":', _quote(note))
    if seed is not None:
        parts += (',"seed":"', seed, '"')
    parts += (',"prev":"', prev, '","state":"', state, '"')
    if seal is not None:
        parts += (',"seal":"', seal, '"')
    if sig is not None:
        parts += (',"sig":', _quote(sig))
    parts.append("}")
    return "".join(parts).encode()


def dump(line: Header | Record) -> bytes:
    """The canonical one-line JSON (no newline): keys in model order, no nulls.

    A line of a log must be exactly these bytes of what it reads as (`store.parse`), so
    each header and record has one byte form."""
    data = header_dict(line) if isinstance(line, Header) else record_dict(line)
    return _ENCODE(data).encode()
