"""Where corr keeps what it can always make again: compiled templates and replayed
positions. Nothing kept here is game state: deleting the folder costs time, never data.

`$CORR_CACHE_DIR`, else `$XDG_CACHE_HOME/corr`, else `~/.cache/corr`; a folder that
cannot be made or written means nothing is kept.
"""

from __future__ import annotations

import os
from pathlib import Path


def folder(name: str, mode: int = 0o755) -> Path | None:
    """The cache's subfolder `name`, made if missing; None where it cannot be written."""
    base = os.environ.get("CORR_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "corr"
    )
    path = os.path.join(base, name)
    try:
        os.makedirs(path, mode=mode, exist_ok=True)
    except OSError:
        return None
    if not os.path.isdir(path) or not os.access(path, os.W_OK):
        return None
    return Path(path)
