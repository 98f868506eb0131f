"""The archive's SQLite file: its schema, its version and how it is opened.

WAL mode lets searches read while an import writes, and a second import waits for the
first (busy timeout) instead of failing; foreign keys keep a game's seats and findings
from outliving it. The version table lets a later corr refuse, in one line, a file whose
schema it does not know instead of misreading it.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Callable

from corr.errors import UsageError

SCHEMA_VERSION = 1

#: How long a writer waits for another process's transaction before giving up (ms).
BUSY_MS = 60_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,            -- the header's id: one row per game, its longest copy
    game TEXT NOT NULL,
    options TEXT NOT NULL,          -- JSON object
    created TEXT NOT NULL,          -- the header's ISO time
    last TEXT NOT NULL,             -- the newest record's time (created when none)
    records INTEGER NOT NULL,
    final_hash TEXT NOT NULL,       -- SHA-256 of the last line: what a longer copy must hold at this place
    over INTEGER NOT NULL,
    winners TEXT NOT NULL,          -- JSON list of seats
    scores TEXT NOT NULL,           -- JSON object seat -> score
    forfeit TEXT,                   -- JSON {seat, cause} or NULL
    source TEXT NOT NULL,           -- the file it was imported from
    log BLOB NOT NULL               -- the log's bytes, complete lines only
);
CREATE INDEX IF NOT EXISTS games_game ON games (game);
CREATE INDEX IF NOT EXISTS games_last ON games (last);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    player TEXT NOT NULL,
    player_key TEXT NOT NULL,       -- the name casefolded: --player matches in any case
    result TEXT NOT NULL,           -- won, lost, drawn or open
    score INTEGER,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_player ON seats (player_key);
CREATE TABLE IF NOT EXISTS findings (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq INTEGER,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_game ON findings (game_id);
CREATE INDEX IF NOT EXISTS findings_kind ON findings (kind);
"""


def connect(path: Path | str, create: bool = False) -> sqlite3.Connection:
    """An open archive. `create` makes a missing file (import does); reading commands
    refuse a missing one rather than leave an empty archive behind."""
    path = Path(path)
    if not create and not path.is_file():
        raise UsageError(f"{path}: no such archive (make one with `corr archive import DIR --db {path}`)")
    try:
        conn = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
    except sqlite3.Error as err:
        raise UsageError(f"{path}: cannot open the archive ({err})") from None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        _patiently(lambda: _wal(conn))
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at each checkpoint, never torn
        _patiently(lambda: _migrate(conn, path))
    except sqlite3.DatabaseError as err:
        conn.close()
        raise UsageError(f"{path}: not a corr archive ({err})") from None
    except UsageError:
        conn.close()
        raise
    return conn


def _wal(conn: sqlite3.Connection) -> None:
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")


def _patiently(step: Callable[[], None]) -> None:
    """Run a step of opening the file, again while another process holds it: switching
    a new file to WAL, or making its schema, can be refused at once rather than waited
    for when two imports start together."""
    deadline = time.monotonic() + BUSY_MS / 1000
    while True:
        try:
            return step()
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Make the schema on a new file; refuse one of another version, or another program's."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_version" in tables:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            if row is None or row[0] != SCHEMA_VERSION:
                found = "no version" if row is None else f"schema version {row[0]}"
                raise UsageError(f"{path}: an archive of {found}; this corr reads version {SCHEMA_VERSION}")
        elif tables:
            raise UsageError(f"{path}: an SQLite file, but not a corr archive")
        else:
            for statement in _SCHEMA.split(";\n"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
