"""Exporting the games a search names: PGN (which corr reads back into the same logs)
or JSON Lines (one game a line, as `corr archive search --json` shows it). The file is
written beside its place and renamed into it, so a failed export leaves none half made."""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from pathlib import Path

from corr.archive import pgn
from corr.archive.query import Query, games
from corr.errors import UsageError

FORMATS = ("pgn", "jsonl")


def export(conn: sqlite3.Connection, query: Query, fmt: str, out: Path) -> int:
    """Write the games of `query` to `out`; how many were written."""
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    found = games(conn, query)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{out}: no such folder {folder}")
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            for game in found:
                if fmt == "jsonl":
                    f.write(json.dumps(game) + "\n")
                else:
                    (log,) = conn.execute("SELECT log FROM games WHERE id = ?", (game["id"],)).fetchone()
                    f.write(pgn.game_text(game, bytes(log)))
        os.replace(temp, out)
    except BaseException:
        os.unlink(temp)
        raise
    return len(found)
