"""Small files kept beside a game's log (`FILE.mail.json`, `FILE.host.json`), and the
durable writes every file the mail code makes goes through.

A file is durable only once the directory entry naming it is: after creating a file or
renaming one into place, the containing directory is fsynced too (`store.sync_dir`), so
a crash right after cannot lose the new name (or bring back the old one). A writer of
several files may fsync their directory once after the last (`sync_folder=False`, then
`store.sync_dir`), before anything relies on them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from corr.errors import UsageError
from corr.log.store import replace_file


def read_json(path: Path, what: str, remedy: str) -> dict[str, Any]:
    """The file's object; {} when it does not exist, a one-line error when it is damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as err:
        raise UsageError(f"{path}: not a readable {what} ({err}); {remedy}") from None
    return data if isinstance(data, dict) else {}


def write_bytes(path: Path, data: bytes, sync_folder: bool = True) -> None:
    """Replace the file atomically and durably (`store.replace_file`), mode 0600: it may
    hold a seat's hand. Without `sync_folder` its directory is left for the caller to
    fsync."""
    replace_file(path, data, 0o600, sync_folder=sync_folder)


def write_json(path: Path, data: dict[str, Any], sync_folder: bool = True) -> None:
    """Replace the JSON file atomically (see write_bytes)."""
    write_bytes(path, json_bytes(data), sync_folder)


def json_bytes(data: dict[str, Any]) -> bytes:
    """A sidecar's bytes: indented, keys sorted, a newline at the end."""
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8")
