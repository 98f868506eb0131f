"""The replayed position kept between commands, so that `move`, `show`, `legal` and
`bot` do not read and replay a long log from its first line every time.

A checkpoint is what a replay made of a log's first N records - the records as read,
what each did, the game, its state, the forfeit and the voids - kept in the cache
(`corr.cache`, `positions/`, one file per log, readable by its owner only: a dealer's
copy holds the hands). It is never trusted blindly. It is taken only when it was made
by this corr (its version and its modules as installed), for this log file, with the
same dealer's secret beside it (or none), and when the log's first bytes are exactly
the bytes it was made from (their SHA-256): then only the lines after them are read,
chained and judged. Any mismatch means a full read and replay. It is signed with a
key only this user's corr holds (`positions/.key`), so a file put there by anyone
else is never unpickled. `corr audit` never uses it: an audit replays from the first
line.

A checkpoint is made when a long log has been replayed, and made again once the log has
grown well past it; a move in between replays only the records since.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, NamedTuple

from corr.engine.position import Position, Step
from corr.games.base import Action
from corr.log.lines import Record
from corr.log.store import GameLog
from corr.notation import parse

#: Logs shorter than this replay faster than a checkpoint is read: none is kept.
MIN_RECORDS = 200
#: A checkpoint is made again once the log has this many more records than it covers,
#: or an eighth more, whichever is more.
REFRESH = 64
#: The most checkpoints kept; past it the oldest are dropped.
MAX_KEPT = 500
_MAGIC = b"corr-position-2\n"
_FOLDER = "positions"
_code: str | None = None
#: The checkpoint the last log read was given (`known`), for `resume` to go on from.
_last: tuple[Path, Kept] | None = None


class Kept(NamedTuple):
    """A checkpoint as read: the records of the first `covered` lines and what replay
    made of them, for a position to go on from."""

    covered: int
    secret: str
    fields: dict[str, Any]
    records: list[Record]


def _folder() -> Path | None:
    from corr import cache

    return cache.folder(_FOLDER, 0o700)


def signing_key(folder: Path) -> bytes | None:
    """This user's key the checkpoints are signed with, made on first use."""
    path = folder / ".key"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another corr made it meanwhile
        try:
            return path.read_bytes()
        except OSError:
            return None
    except OSError:
        return None
    import secrets

    key = secrets.token_bytes(32)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key)
    except OSError:  # a full disk: no checkpoints, and no half-written key to trust later
        path.unlink(missing_ok=True)
        return None
    return key


def code_stamp() -> str:
    """corr's version and its modules as installed: a checkpoint made by other code is
    another replay's, never this one's."""
    global _code
    if _code is None:
        import corr

        root = Path(corr.__file__).resolve().parent
        parts = [corr.__version__]
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(dirpath, name))
                    parts.append(f"{os.path.relpath(os.path.join(dirpath, name), root)}:{st.st_size}:{st.st_mtime_ns}")
        _code = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return _code


def _name(path: Path) -> str:
    return hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:40]


def _secret(seed: str | None) -> str:
    return hashlib.sha256((seed or "-").encode()).hexdigest()


def read(path: Path, data: bytes) -> Kept | None:
    """The checkpoint of the log at `path` whose bytes are `data`, where one holds for
    them (see the module's docstring); None otherwise."""
    if data.count(b"\n") <= MIN_RECORDS:  # a short log: none is kept for it
        return None
    folder = _folder()
    key = signing_key(folder) if folder is not None else None
    if folder is None or key is None:
        return None
    body = read_signed(folder / _name(path), _MAGIC, key)
    if body is None:
        return None
    import pickle

    try:
        kept = pickle.loads(body)
        code, where, size, digest, secret, count, fields, rows = (
            kept["code"], kept["path"], kept["size"], kept["digest"], kept["secret"], kept["count"], kept["fields"],
            kept["records"])
    except Exception:  # noqa: BLE001 - a checkpoint that does not load is only a reason to replay
        return None
    if code != code_stamp() or where != str(path.resolve()) or len(data) < size or \
            hashlib.sha256(data[:size]).hexdigest() != digest:
        return None
    new = tuple.__new__
    return Kept(count, secret, fields, [new(Record, row) for row in rows])


def known(path: Path, data: bytes) -> list[Record] | None:
    """For `corr.log.store`: the records a checkpoint read from the first bytes of this
    very log, so that only the lines after them are read again."""
    global _last
    kept = read(path, data)
    _last = (path, kept) if kept is not None else None
    return kept.records if kept is not None else None


def resume(log: GameLog) -> dict[str, Any] | None:
    """What replay made of the log's first records, kept for this log and its dealer's
    secret: the fields of a `Position` (game, state, steps, forfeit, voids) to go on
    from, and how many records they cover; None where none holds."""
    if len(log.records) < MIN_RECORDS or log.torn is not None or not log.path.is_file():
        return None
    if _last is not None and _last[0] == log.path:
        kept: Kept | None = _last[1]
    else:
        try:
            with open(log.path, "rb") as f:
                data = f.read(log.size)
        except OSError:
            return None
        kept = read(log.path, data)
    if kept is None or kept.secret != _secret(log.secret.seed if log.secret is not None else None) \
            or kept.covered > len(log.records) or log.records[: kept.covered] != kept.records:
        return None
    fields = dict(kept.fields)
    steps = []
    for record, (outcome, voided) in zip(log.records, fields.pop("steps")):
        move = parse(record.move) if record.move is not None and record.type != "ruling" else None
        steps.append(Step(record, Action(record.seq, record.type, record.by, move, record.target, record.at), outcome,
                          voided))
    fields["steps"] = steps
    fields["count"] = kept.covered
    return fields


def due(table: Position, covered: int) -> bool:
    """Whether the table's log has grown enough past a checkpoint of `covered` records
    (0: none) to make it again."""
    n = len(table.log.records)
    return n >= MIN_RECORDS and n - covered >= max(REFRESH, covered // 8)


def keep(table: Position) -> None:
    """Keep what replay made of the table's log, for the next command on it."""
    import pickle

    log = table.log
    if len(log.records) < MIN_RECORDS or log.torn is not None or len(table.steps) != len(log.records) \
            or not log.path.is_file():
        return
    folder = _folder()
    key = signing_key(folder) if folder is not None else None
    if folder is None or key is None:
        return
    try:
        with open(log.path, "rb") as f:
            data = f.read(log.size)
    except OSError:
        return
    if len(data) != log.size:
        return
    same: dict[Any, Any] = {}  # equal outcomes kept as one: most moves share what they did
    kept: dict[str, Any] = {
        "code": code_stamp(),
        "path": str(log.path.resolve()),
        "size": log.size,
        "digest": hashlib.sha256(data).hexdigest(),
        "secret": _secret(log.secret.seed if log.secret is not None else None),
        "count": len(log.records),
        "records": [tuple(record) for record in log.records],
        "fields": {
            "game": table.game,
            "state": table.state,
            "steps": [(_one(same, step.outcome), step.voided) for step in table.steps],
            "forfeit": table.forfeit,
            "forfeit_cause": table.forfeit_cause,
            "voided": table.voided,
            "snapshots": table.snapshots,
            "void_targets": table.void_targets,
        },
    }
    try:
        body = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a position that cannot be kept is replayed next time
        return
    if write_signed(folder / _name(log.path), _MAGIC, key, body):
        _prune(folder)


def read_signed(path: Path, magic: bytes, key: bytes) -> bytes | None:
    """The body of a cache file `magic` + HMAC + body, only when `key` signed it: a file
    anyone else wrote is never unpickled. None for a missing, short or forged file."""
    import hmac

    try:
        raw = path.read_bytes()
    except OSError:
        return None
    head = len(magic)
    if not raw.startswith(magic) or len(raw) < head + 32:
        return None
    mac, body = raw[head:head + 32], raw[head + 32:]
    return body if hmac.compare_digest(mac, hmac.new(key, body, hashlib.sha256).digest()) else None


def write_signed(target: Path, magic: bytes, key: bytes, body: bytes) -> bool:
    """Write `magic` + HMAC + body to `target` atomically (mode 0600); False when it
    could not be written (a cache: nothing else happens)."""
    import hmac

    temporary = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(magic + hmac.new(key, body, hashlib.sha256).digest() + body)
        os.replace(temporary, target)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
    return True


def _one(same: dict[Any, Any], outcome: Any) -> Any:
    """The first outcome equal to `outcome` (pickled once, loaded as one object)."""
    try:
        return same.setdefault(outcome, outcome)
    except TypeError:  # an outcome that cannot be compared so: kept as it is
        return outcome


def _prune(folder: Path) -> None:
    """Drop the oldest checkpoints past MAX_KEPT (looked at on one write in fifty)."""
    import secrets

    if secrets.randbelow(50):
        return
    try:
        entries = [e for e in os.scandir(folder) if not e.name.startswith(".")]
    except OSError:
        return
    if len(entries) <= MAX_KEPT:
        return
    entries.sort(key=lambda e: e.stat().st_mtime)
    for entry in entries[: len(entries) - MAX_KEPT]:
        try:
            os.unlink(entry.path)
        except OSError:
            pass


def drop(path: Path | str) -> None:
    """Forget what is kept for the log at `path` (a game that could not start)."""
    folder = _folder()
    if folder is None:
        return
    try:
        os.unlink(folder / _name(Path(path)))
    except OSError:
        pass
