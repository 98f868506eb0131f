"""An event's log on disk: a header line, then records chained by the SHA-256 of the
line before, each line in one canonical spelling - the conventions of a game's log
(`corr.log.lines`, `corr.log.store`), with the event's own fields.

A game's header and records have fixed fields the event's do not fit, so the lines are
plain JSON objects checked here field by field; the decoding (strict UTF-8, no lone
surrogates), the time stamps, the hashes, the locks and the durable writes are the game
log's own. Appends happen under the file's exclusive lock, after re-reading it, as whole
lines, fsynced; a write that fails is cut back, so a refused command changes nothing.
"""

from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from corr.errors import CorruptLog, UsageError
from corr.log import lines, store

#: The event log's format version.
FORMAT = 1
KIND = "tournament"
#: The order keys are written in, in every object of an event's lines (options and a
#: time control keep the order the game gave them).
ORDER = (
    "corr", "type", "kind", "seq", "by", "at", "id", "player", "name", "email", "key", "game", "system", "rounds",
    "round", "table", "decision", "players", "file", "final", "places", "scores", "options", "time_control",
    "director", "created", "note", "prev", "sig",
)
_RANK = {key: i for i, key in enumerate(ORDER)}
_FREE = frozenset({"options", "time_control"})  # objects whose keys are the game's
SYSTEMS = ("round-robin", "double-round-robin", "swiss", "knockout")
DECISIONS = ("adjudicate", "forfeit", "replace")
RECORD_TYPES = ("round", "bye", "result", "withdraw", "ruling")
#: What a ruling's signature covers, before the event id and the line without `sig`.
DOMAIN = b"corr-tournament-signature-v1\n"

_STAMP = re.compile(lines.STAMP_PATTERN)
_HEX64 = re.compile(r"[0-9a-f]{64}")
_ID = re.compile(r"[0-9a-z-]{4,64}")
_WORD = re.compile(r"[a-z]+")
_FILE = re.compile(r"[^/\\\x00-\x1f]{1,200}\.corr")


def _ordered(value: Any, free: bool = False) -> Any:
    if isinstance(value, dict):
        if free:
            return value
        return {k: _ordered(value[k], k in _FREE) for k in sorted(value, key=lambda k: _RANK.get(k, len(ORDER)))}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dump(line: dict[str, Any]) -> bytes:
    """The one spelling of a line: keys in ORDER, no spaces, no needless escapes."""
    return _ENCODE(_ordered(line)).encode()


def signed_bytes(event_id: str, record: dict[str, Any]) -> bytes:
    """What the director's signature of a record covers: the event and the line without `sig`."""
    return DOMAIN + event_id.encode() + b"\n" + dump({k: v for k, v in record.items() if k != "sig"})


def sign(private: Any, event_id: str, record: dict[str, Any]) -> dict[str, Any]:
    """The record with the director's signature."""
    from corr.identity import sign_bytes

    return {**record, "sig": sign_bytes(private, signed_bytes(event_id, record))}


class _Bad(Exception):
    """A field of a line that is wrong: where, and what."""


def _need(data: dict[str, Any], key: str, check: Callable[[Any], bool], what: str, optional: bool = False) -> Any:
    if key not in data:
        if optional:
            return None
        raise _Bad(f"{key}: field required")
    if not check(data[key]):
        raise _Bad(f"{key}: should be {what}")
    return data[key]


def _is_int(v: Any) -> bool:
    return type(v) is int and v >= 1


def _is_text(limit: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is str and 1 <= len(v) <= limit


def _number(n: int) -> Callable[[Any], bool]:
    return lambda v: type(v) is int and v == n


def _is_ints(v: Any) -> bool:
    return type(v) is list and 1 <= len(v) <= 6 and all(_is_int(x) for x in v)


def _matches(pattern: re.Pattern[str]) -> Callable[[Any], bool]:
    return lambda v: type(v) is str and pattern.fullmatch(v) is not None


def _only(data: dict[str, Any], allowed: set[str], where: str = "") -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise _Bad(f"{where}{extra[0][:40]}: extra field not permitted")


def _person(data: Any, where: str, keyed: bool) -> None:
    if type(data) is not dict:
        raise _Bad(f"{where}: should be an object")
    _only(data, {"player", "name", "email", "key"} if keyed else {"player", "name", "email"}, f"{where}.")
    try:
        _need(data, "name", _is_text(200), "a name of 1 to 200 characters")
        _need(data, "email", _is_text(320), "an address", optional=True)
        if keyed:
            _need(data, "key", _is_text(100), "a public key")
    except _Bad as err:
        raise _Bad(f"{where}.{err}") from None


def check_header(data: Any) -> None:
    """Raise _Bad naming the first field of an event header that is wrong."""
    if type(data) is not dict:
        raise _Bad("line: not a JSON object")
    if "seats" in data and "kind" not in data:
        raise _Bad("a game's log, not an event's: `corr tournament` takes the .tour file")
    _only(data, {"corr", "type", "kind", "id", "name", "game", "system", "rounds", "table", "players", "options",
                 "time_control", "director", "created"})
    _need(data, "corr", lambda v: v == FORMAT, f"{FORMAT}, the event log format")
    _need(data, "type", lambda v: v == "header", "'header'")
    _need(data, "kind", lambda v: v == KIND, f"'{KIND}'")
    _need(data, "id", _matches(_ID), "an event id (lower-case letters, digits and -)")
    _need(data, "name", _is_text(200), "the event's name")
    _need(data, "game", _matches(_WORD), "a game's name")
    _need(data, "system", lambda v: v in SYSTEMS, "one of " + ", ".join(SYSTEMS))
    _need(data, "rounds", _is_int, "a number of rounds")
    _need(data, "table", lambda v: type(v) is int and 2 <= v <= 6, "a table's seats, 2 to 6")
    players = _need(data, "players", lambda v: type(v) is list and 2 <= len(v) <= 1000, "a list of 2 or more players")
    for i, entry in enumerate(players):
        _person(entry, f"players.{i}", keyed=False)
        if entry.get("player") != i + 1:
            raise _Bad(f"players.{i}.player: should be {i + 1}: players are numbered in order")
    _need(data, "options", lambda v: type(v) is dict and all(type(x) is str for x in v.values()), "an object of strings")
    _need(data, "time_control", lambda v: type(v) is dict and all(type(x) in (int, str) for x in v.values()),
          "an object of integers and strings", optional=True)
    if "director" in data:
        _person(data["director"], "director", keyed=True)
        if "player" in data["director"]:
            raise _Bad("director.player: extra field not permitted")
    _need(data, "created", _matches(_STAMP), "a UTC time YYYY-MM-DDTHH:MM:SSZ")


_COMMON = {"seq", "type", "at", "prev"}
_FIELDS = {
    "round": {"round", "tables"},
    "bye": {"round", "player"},
    "result": {"round", "table", "game", "final", "places", "scores"},
    "withdraw": {"player", "note", "sig"},
    "ruling": {"by", "decision", "round", "table", "places", "player", "name", "email", "note", "sig"},
}


def check_record(data: Any) -> None:
    """Raise _Bad naming the first field of an event record that is wrong (its shape;
    what it means is `corr.tournament.event`'s to check)."""
    if type(data) is not dict:
        raise _Bad("line: not a JSON object")
    kind = _need(data, "type", lambda v: v in RECORD_TYPES, "one of " + ", ".join(RECORD_TYPES))
    _only(data, _COMMON | _FIELDS[kind])
    _need(data, "seq", _is_int, "a positive integer")
    _need(data, "at", _matches(_STAMP), "a UTC time YYYY-MM-DDTHH:MM:SSZ")
    _need(data, "prev", _matches(_HEX64), "a SHA-256 hash")
    if kind == "round":
        _need(data, "round", _is_int, "a round number")
        tables = _need(data, "tables", lambda v: type(v) is list and len(v) <= 500, "a list of tables")
        for i, table in enumerate(tables):
            if type(table) is not dict:
                raise _Bad(f"tables.{i}: should be an object")
            _only(table, {"table", "players", "file", "game"}, f"tables.{i}.")
            try:
                _need(table, "table", _number(i + 1), f"{i + 1}: tables are numbered in order")
                _need(table, "players", _is_ints, "a list of 1 to 6 player numbers")
                _need(table, "file", _matches(_FILE), "a game log's file name")
                _need(table, "game", _matches(_ID), "a game id")
            except _Bad as err:
                raise _Bad(f"tables.{i}.{err}") from None
    elif kind == "bye":
        _need(data, "round", _is_int, "a round number")
        _need(data, "player", _is_int, "a player number")
    elif kind == "result":
        _need(data, "round", _is_int, "a round number")
        _need(data, "table", _is_int, "a table number")
        _need(data, "game", _matches(_ID), "a game id")
        _need(data, "final", _matches(_HEX64), "the SHA-256 hash of the game log's last line")
        _need(data, "places", _is_ints, "a list of places, one per seat")
        _need(data, "scores", lambda v: type(v) is list and len(v) <= 6 and all(type(x) is int for x in v),
              "a list of scores, one per seat")
    elif kind == "withdraw":
        _need(data, "player", _is_int, "a player number")
        _need(data, "note", _is_text(2000), "a note of 1 to 2000 characters", optional=True)
        _need(data, "sig", _is_text(200), "the director's signature", optional=True)
    else:
        _need(data, "by", lambda v: v == "director", "'director'")
        decision = _need(data, "decision", lambda v: v in DECISIONS, "one of " + ", ".join(DECISIONS))
        _need(data, "note", _is_text(2000), "the reason, 1 to 2000 characters")
        _need(data, "sig", _is_text(200), "the director's signature")
        if decision == "replace":
            _only(data, _COMMON | {"by", "decision", "player", "name", "email", "note", "sig"})
            _need(data, "player", _is_int, "a player number")
            _need(data, "name", _is_text(200), "a name of 1 to 200 characters")
            _need(data, "email", _is_text(320), "an address", optional=True)
        else:
            _need(data, "round", _is_int, "a round number")
            _need(data, "table", _is_int, "a table number")
            if decision == "adjudicate":
                _only(data, _COMMON | {"by", "decision", "round", "table", "places", "note", "sig"})
                _need(data, "places", _is_ints, "a list of places, one per seat")
            else:
                _only(data, _COMMON | {"by", "decision", "round", "table", "player", "note", "sig"})
                _need(data, "player", _is_int, "a player number")


@dataclass
class EventLog:
    """An event's log as read: its lines as JSON data, and the bytes the chain is over."""

    path: Path
    header: dict[str, Any]
    header_raw: bytes
    records: list[dict[str, Any]] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)
    size: int = 0

    @property
    def tail_hash(self) -> str:
        return store.line_hash(self.raw[-1] if self.raw else self.header_raw)


_NONCANONICAL = ("is not in canonical form (corr writes each line one way: keys in order, no spaces, no needless "
                 "escapes, no key twice): it was edited")


def _line(raw: bytes, path: Path, where: str, check: Callable[[Any], None]) -> dict[str, Any]:
    try:
        data = lines.decode(raw)
        check(data)
    except lines.LineError as err:
        raise CorruptLog(f"{path}: {where} is not a valid event line ({err})", kind="schema") from None
    except _Bad as err:
        raise CorruptLog(f"{path}: {where} is not a valid event line ({err})", kind="schema") from None
    if dump(data) != raw:
        raise CorruptLog(f"{path}: {where} {_NONCANONICAL}", kind="noncanonical")
    return data  # type: ignore[no-any-return]


def parse(data: bytes, path: Path) -> EventLog:
    """An event log's lines checked: each valid and canonical, chained, in seq order, and
    the director's rulings signed by the director's key. Raises CorruptLog naming the
    first line that is not."""
    if not data:
        raise CorruptLog(f"{path}: the file is empty, not an event log", kind="schema")
    rows = data.split(b"\n")
    if rows.pop():
        raise CorruptLog(f"{path}: the last line is torn (a write never finished)", kind="torn")
    if not rows:
        raise CorruptLog(f"{path}: no complete header line", kind="torn")
    header = _line(rows[0], path, "line 1 (the header)", check_header)
    log = EventLog(path=path, header=header, header_raw=rows[0], size=len(data))
    prev = store.line_hash(rows[0])
    for i, raw in enumerate(rows[1:], start=1):
        record = _line(raw, path, f"line {i + 1} (seq {i})", check_record)
        if record["seq"] != i:
            raise CorruptLog(f"{path}: line {i + 1} has seq {record['seq']}, expected {i} (records removed or "
                             "reordered)", seq=record["seq"], kind="seq")
        if record["prev"] != prev:
            raise CorruptLog(f"{path}: seq {i} does not chain to the line before it (prev hash differs): the log "
                             "was edited", seq=i, kind="chain")
        if record["type"] == "ruling" or (record["type"] == "withdraw"
                                          and ("director" in header or "sig" in record)):
            _check_signature(header, record, path)  # with a director, a withdrawal is the director's ruling
        prev = store.line_hash(raw)
        log.records.append(record)
    log.raw = rows[1:]
    return log


def _check_signature(header: dict[str, Any], record: dict[str, Any], path: Path) -> None:
    from corr.identity import verified

    director = header.get("director")
    seq = record["seq"]
    if director is None:
        raise CorruptLog(f"{path}: seq {seq} is a director's ruling, but the event names no director",
                         seq=seq, kind="signature")
    if "sig" not in record:
        raise CorruptLog(f"{path}: seq {seq}: a withdrawal from an event with a director is the director's "
                         "ruling, and this one is not signed", seq=seq, kind="signature")
    if not verified(director["key"], signed_bytes(header["id"], record), record["sig"]):
        raise CorruptLog(f"{path}: seq {seq}: the signature is not the director's (altered ruling or a stranger's "
                         "key)", seq=seq, kind="signature")


def is_event(path: Path | str) -> bool:
    """Whether the file's first line says it is an event log (the rest unchecked)."""
    try:
        with open(path, "rb") as f:
            first = f.readline(65536)
    except OSError:
        return False
    return b'"kind":"tournament"' in first and first.startswith(b'{"corr":')


def _not_found(path: Path, err: OSError) -> UsageError:
    if isinstance(err, FileNotFoundError):
        return UsageError(f"no such event log: {path}")
    if isinstance(err, IsADirectoryError):
        return UsageError(f"{path} is a directory, not an event log")
    return UsageError(f"cannot open {path}: {err.strerror}")


def read(path: Path | str) -> EventLog:
    """An event log read under a shared lock and checked (`parse`)."""
    path = Path(path)
    try:
        f = open(path, "rb")
    except OSError as err:
        raise _not_found(path, err) from None
    from corr.log import locking

    with f, locking.held(f, exclusive=False):
        data = f.read()
    return parse(data, path)


def create(path: Path | str, header: dict[str, Any]) -> EventLog:
    """Write a new event log holding its header; refuses to overwrite a file."""
    path = Path(path)
    check_header(header)
    raw = dump(header)
    try:
        store.write_new(path, raw + b"\n")
    except FileExistsError:
        raise UsageError(f"{path} already exists; choose another file name") from None
    except OSError as err:
        raise _not_found(path, err) from None
    return EventLog(path=path, header=header, header_raw=raw, size=len(raw) + 1)


class Writer:
    """An event log open under its exclusive lock: records are built on its tail and
    appended as whole lines; `writing` cuts the file back if its block fails."""

    def __init__(self, f: Any, log: EventLog) -> None:
        self._f = f
        self.log = log
        self.start = log.size
        self._pending: list[dict[str, Any]] = []
        self._pending_raw: list[bytes] = []

    def record(self, kind: str, at: str, **fields: Any) -> dict[str, Any]:
        """A record of `kind` continuing the log (its seq and prev), not yet written."""
        seq = len(self.log.records) + 1 + len(self._pending)
        prev = store.line_hash(self._pending_raw[-1]) if self._pending_raw else self.log.tail_hash
        return {"seq": seq, "type": kind, "at": at, **{k: v for k, v in fields.items() if v is not None},
                "prev": prev}

    def stage(self, record: dict[str, Any]) -> None:
        """Hold a record to be written with the others at `flush`."""
        check_record(record)
        self._pending.append(record)
        self._pending_raw.append(dump(record))

    def flush(self) -> None:
        """Write every staged record at once: all of them or, on failure, none."""
        if not self._pending:
            return
        blob = b"".join(raw + b"\n" for raw in self._pending_raw)
        fd = self._f.fileno()
        try:
            view, offset = memoryview(blob), self.log.size
            while view:
                done = os.pwrite(fd, view, offset)
                view, offset = view[done:], offset + done
            os.fsync(fd)
        except OSError as err:
            self.cut()
            raise UsageError(f"{self.log.path}: could not write to the event log ({err.strerror or err}): nothing "
                             "was added") from None
        self.log.records += self._pending
        self.log.raw += self._pending_raw
        self.log.size += len(blob)
        self._pending, self._pending_raw = [], []

    def cut(self) -> None:
        """The file back to the size it had when it was opened."""
        os.ftruncate(self._f.fileno(), self.start)
        os.fsync(self._f.fileno())


@contextmanager
def writing(path: Path | str) -> Iterator[Writer]:
    """The event log locked exclusively and read; its Writer for the block. A block that
    raises leaves the file as it was."""
    path = Path(path)
    try:
        f = open(path, "r+b")
    except OSError as err:
        raise _not_found(path, err) from None
    from corr.log import locking

    with f, locking.held(f, exclusive=True):
        writer = Writer(f, parse(f.read(), path))
        try:
            yield writer
        except BaseException:
            if writer.log.size != writer.start:
                writer.cut()
            raise
