"""Small files kept beside a game's log (`FILE.mail.json`, `FILE.host.json`), and the
durable writes every file the mail code makes goes through.

A file is durable only once the directory entry naming it is: after creating a file or
renaming one into place, the containing directory is fsynced too (`fsync_dir`), so a
crash right after cannot lose the new name (or bring back the old one)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from corr.errors import UsageError


def read_json(path: Path, what: str, remedy: str) -> dict[str, Any]:
    """The file's object; {} when it does not exist, a one-line error when it is damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as err:
        raise UsageError(f"{path}: not a readable {what} ({err}); {remedy}") from None
    return data if isinstance(data, dict) else {}


def fsync_dir(directory: Path | str) -> None:
    """Make the directory's entries durable (a file created or renamed in it). Platforms
    that cannot open or fsync a directory are left as they are."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(path: Path, data: bytes) -> None:
    """Replace the file atomically: a temporary file beside it (mode 0600, as it may hold a
    seat's hand), fsynced, renamed over it, and the directory fsynced."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Replace the JSON file atomically (see write_bytes)."""
    write_bytes(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"))
