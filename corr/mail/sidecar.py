"""Small JSON files kept beside a game's log (`FILE.mail.json`, `FILE.host.json`)."""

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
    except (OSError, ValueError) as err:
        raise UsageError(f"{path}: not a readable {what} ({err}); {remedy}") from None
    return data if isinstance(data, dict) else {}


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Replace the file atomically: a temporary file, fsynced, renamed over it."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
