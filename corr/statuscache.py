"""The summaries `corr status` made of a folder's logs, kept so that the next run reads
each log once instead of replaying it.

What is kept depends on the log alone: its game, players, seq, the seats on turn, the
result, and the clock of the seat on turn as the records leave it (deadlines and time
left are worked out from it at the time asked, never kept). A summary is taken only for
the very bytes it was made from - the log's size and the SHA-256 of all of it, and of
the dealer's secret beside it, or none - so an appended record, an edited or a replaced
log is replayed at once. A summary whose public view shows the game's own clock (Domino,
domino 6) holds only on the side of that clock's end it was made on.

One file per folder in the cache (`corr.cache`, `status/`), readable by its owner only,
made by this corr (its version and modules as installed) and signed with a key only this
user's corr holds, so a file put there by anyone else is never unpickled. A file that
does not load, or an entry that does not match, is only a reason to replay.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

_MAGIC = b"corr-status-1\n"
_FOLDER = "status"


def _place() -> tuple[Path, bytes] | None:
    from corr import cache
    from corr.engine.checkpoint import signing_key

    folder = cache.folder(_FOLDER, 0o700)
    key = signing_key(folder) if folder is not None else None
    return (folder, key) if folder is not None and key is not None else None


def _name(folder: Path, recursive: bool) -> str:
    return hashlib.sha256(f"{folder.resolve()}\0{recursive}".encode()).hexdigest()[:40]


def fingerprint(path: Path) -> tuple[int, str] | None:
    """The log's size and SHA-256; None when it cannot be read as a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not hang the read
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            data = f.read()
    except OSError:
        return None
    return len(data), hashlib.sha256(data).hexdigest()


def secret_seen(path: Path) -> str:
    """The SHA-256 of the dealer's secret beside the log, `none` without one, `unread`
    when it cannot be read: only a log whose header commits to a secret reads it."""
    from corr.engine.dealer import secret_path

    try:
        with open(secret_path(path), "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except FileNotFoundError:
        return "none"
    except OSError:
        return "unread"


def load(folder: Path, recursive: bool) -> dict[str, Any]:
    """The summaries kept for `folder`, by file label; {} where none hold."""
    from corr.engine.checkpoint import code_stamp, read_signed

    place = _place()
    if place is None:
        return {}
    where, key = place
    body = read_signed(where / _name(folder, recursive), _MAGIC, key)
    if body is None:
        return {}
    try:
        kept = pickle.loads(body)
        if kept["code"] != code_stamp() or kept["folder"] != str(folder.resolve()):
            return {}
        entries = kept["entries"]
    except Exception:  # noqa: BLE001 - a cache that does not load is only a reason to replay
        return {}
    return entries if isinstance(entries, dict) else {}


def save(folder: Path, recursive: bool, entries: dict[str, Any]) -> None:
    """Keep `entries` (by file label) for `folder`; nothing when the cache cannot be written."""
    from corr.engine.checkpoint import code_stamp, write_signed

    place = _place()
    if place is None:
        return
    where, key = place
    try:
        body = pickle.dumps({"code": code_stamp(), "folder": str(folder.resolve()), "entries": entries},
                            protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - summaries that cannot be kept are made again next time
        return
    write_signed(where / _name(folder, recursive), _MAGIC, key, body)


def holds(entry: Any, path: Path, seen: tuple[int, str], now: datetime) -> bool:
    """Whether a kept entry is the summary of the log at `path` as `seen` now: the same
    bytes, the same dealer's secret beside them where they commit to one, and on the
    same side of the game's own clock's end (its second, shown rounded down, is always
    replayed)."""
    from corr import timecontrol
    from corr.errors import CorruptLog

    if not isinstance(entry, dict) or entry.get("seen") != seen:
        return False
    if entry.get("secret") is not None and entry["secret"] != secret_seen(path):
        return False
    own = entry.get("own_end")
    if own is None:
        return True
    try:
        end = timecontrol.instant(own)
    except CorruptLog:
        return False
    if end <= now <= end + timedelta(seconds=1):
        return False
    return (now < end) == entry.get("before_end")
