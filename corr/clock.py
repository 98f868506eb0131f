"""The one clock every timestamp comes from, so tests can pin time (freezegun)."""

from __future__ import annotations

from datetime import datetime, timezone


def now() -> datetime:
    """The current UTC time, to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0)


def stamp(when: datetime | None = None) -> str:
    """An ISO-8601 UTC timestamp as stored in logs: `2026-11-29T19:23:00Z`."""
    return (when or now()).strftime("%Y-%m-%dT%H:%M:%SZ")
