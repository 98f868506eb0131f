"""The replayed position kept beside a log, so that a command costs O(1) in its length."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from corr.log.store import GameLog


def load(log: GameLog, now: datetime | None) -> Any:
    """The table kept for this log, or None."""
    return None


def keep(table: Any) -> None:
    """Keep the table's position for the next command."""


def drop(path: Path | str) -> None:
    """Forget what is kept for the log at `path`."""
