"""Importing logs: each is audited as `corr audit` does, and what the audit found is
stored beside the log's own bytes.

A game is known by its id. Importing a copy already stored changes nothing; a longer
copy of it (the stored one's lines a prefix of it) replaces the stored one; a copy that
parts from the stored one is refused; a log the audit finds corrupt is listed with the
reason and never stored. Whether one copy extends another is read from one line hash:
each record carries the hash of the line before it, so the two copies hold the same
line at the stored copy's last place only if every line before it is the same too.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from corr.audit import audited
from corr.errors import CorrError, UsageError
from corr.log import store

#: Games written to the archive in one transaction: few enough that another import
#: waits little, many enough that a commit per game does not dominate.
BATCH = 200

STORED, REPLACED, UNCHANGED, KEPT_LONGER, CORRUPT, CONFLICT = (
    "stored", "replaced", "unchanged", "kept-longer", "corrupt", "conflict")


@dataclass
class Outcome:
    """What became of one log: its status (the constants above) and why."""

    source: str
    status: str
    id: str | None = None
    detail: str = ""


@dataclass
class Row:
    """One audited, intact log as the archive stores it."""

    source: str
    id: str
    game: str
    options: dict[str, str]
    created: str
    last: str
    records: int
    final_hash: str
    hashes: Callable[[int], str]  # the hash of line k (0: the header)
    over: bool
    winners: list[str]
    scores: dict[str, int]
    forfeit: dict[str, str] | None
    seats: list[tuple[str, str]]  # (seat, player)
    findings: list[dict[str, Any]]
    log: bytes = field(repr=False, default=b"")


def seat_result(seat: str, over: bool, winners: list[str]) -> str:
    """won, lost, drawn or open: one seat's part in a result. Several winners share the
    win, which the archive calls a draw, as `corr audit` does; a game over with no
    winner is drawn for everyone."""
    if not over:
        return "open"
    if not winners:
        return "drawn"
    if seat in winners:
        return "won" if len(winners) == 1 else "drawn"
    return "lost"


def row_of(source: str, report: dict[str, Any], log: store.GameLog) -> Row:
    """The archive's row of an intact log and its audit report."""
    header = log.header
    result = report["result"]
    raw = [log.header_raw, *log.raw]
    return Row(
        source=source, id=header.id, game=header.game, options=dict(header.options), created=header.created,
        last=log.records[-1].at if log.records else header.created, records=len(log.records),
        final_hash=log.tail_hash, hashes=lambda k: store.line_hash(raw[k]),
        over=result["over"], winners=list(result["winners"]), scores=dict(result["scores"]),
        forfeit=result.get("forfeit"), seats=[(s.seat, s.name) for s in header.seats],
        findings=[f for f in report["findings"]], log=store.text(log),
    )


def audit_file(path: Path, source: str | None = None) -> Row | Outcome:
    """A log's row, or the outcome that says why it is corrupt."""
    source = source or str(path)
    try:
        report, log = audited(path, lines=True)
    except (CorrError, OSError) as err:  # unreadable, or no log at all
        return Outcome(source, CORRUPT, None, getattr(err, "strerror", None) or str(err))
    if not report["intact"] or log is None:
        fatal = report["findings"][-1] if report["findings"] else {"detail": "not a corr log"}
        return Outcome(source, CORRUPT, report.get("id"), str(fatal["detail"]).removeprefix(f"{path}: "))
    return row_of(source, report, log)


def audit_bytes(data: bytes, source: str) -> Row | Outcome:
    """`audit_file` of a log held in memory (a game read back from a PGN file)."""
    with tempfile.TemporaryDirectory(prefix="corr-archive-") as folder:
        path = Path(folder) / "game.corr"
        path.write_bytes(data)
        return audit_file(path, source)


def log_files(paths: list[Path]) -> list[Path]:
    """The files to import: each file given, and every `*.corr` under each folder given."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.corr") if p.is_file()))
        elif path.is_file():
            found.append(path)
        elif path.exists():
            raise UsageError(f"{path}: not a regular file or folder")
        else:
            raise UsageError(f"{path}: no such file or folder")
    return found


def store_rows(conn: sqlite3.Connection, rows: list[Row]) -> list[Outcome]:
    """Write audited rows in one transaction, each judged against the copy stored now
    (another import may have stored one since this one started)."""
    outcomes = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for row in rows:
            outcomes.append(_store(conn, row))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return outcomes


def _store(conn: sqlite3.Connection, row: Row) -> Outcome:
    old = conn.execute("SELECT records, final_hash, log FROM games WHERE id = ?", (row.id,)).fetchone()
    if old is None:
        _insert(conn, row)
        return Outcome(row.source, STORED, row.id, f"{row.game}, {row.records} records")
    records, final_hash, log = old
    if records == row.records and final_hash == row.final_hash:
        return Outcome(row.source, UNCHANGED, row.id, "already stored")
    if row.records > records and row.hashes(records) == final_hash:
        conn.execute("DELETE FROM games WHERE id = ?", (row.id,))
        _insert(conn, row)
        return Outcome(row.source, REPLACED, row.id, f"a longer copy: {records} records before, {row.records} now")
    stored_lines = bytes(log).split(b"\n")
    if row.records < records and store.line_hash(stored_lines[row.records]) == row.final_hash:
        return Outcome(row.source, KEPT_LONGER, row.id, f"a longer copy ({records} records) is stored")
    return Outcome(row.source, CONFLICT, row.id, "another copy of this game, which parts from this one, is stored")


def _insert(conn: sqlite3.Connection, row: Row) -> None:
    conn.execute(
        "INSERT INTO games (id, game, options, created, last, records, final_hash, over, winners, scores, forfeit,"
        " source, log) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (row.id, row.game, json.dumps(row.options), row.created, row.last, row.records, row.final_hash,
         int(row.over), json.dumps(row.winners), json.dumps(row.scores),
         json.dumps(row.forfeit) if row.forfeit else None, row.source, row.log),
    )
    conn.executemany(
        "INSERT INTO seats (game_id, seat, player, player_key, result, score) VALUES (?, ?, ?, ?, ?, ?)",
        [(row.id, seat, name, name.casefold(), seat_result(seat, row.over, row.winners), row.scores.get(seat))
         for seat, name in row.seats],
    )
    conn.executemany(
        "INSERT INTO findings (game_id, seq, kind, detail) VALUES (?, ?, ?, ?)",
        [(row.id, f["seq"], f["kind"], f["detail"]) for f in row.findings],
    )


def import_all(
    conn: sqlite3.Connection,
    sources: Iterator[Callable[[], Row | Outcome]],
    total: int,
    tell: Callable[[Outcome], None],
    progress: Callable[[int, int], None] | None = None,
) -> list[Outcome]:
    """Audit each source (a thunk giving a row or an outcome) and store the intact ones
    in batches; `tell` hears every outcome as its batch is written."""
    outcomes: list[Outcome] = []
    pending: list[Row] = []

    def flush() -> None:
        for outcome in store_rows(conn, pending):
            outcomes.append(outcome)
            tell(outcome)
        pending.clear()

    for done, source in enumerate(sources, 1):
        got = source()
        if isinstance(got, Outcome):
            outcomes.append(got)
            tell(got)
        else:
            pending.append(got)
            if len(pending) >= BATCH:
                flush()
        if progress is not None:
            progress(done, total)
    if pending:
        flush()
    return outcomes
