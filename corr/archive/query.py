"""Which games of the archive a search names: one filter that `search`, `stats` and
`export` share, so a search and its export always hold the same games."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from corr.errors import UsageError

RESULTS = ("won", "lost", "drawn", "open")


def day(text: str | None, option: str) -> str | None:
    """A YYYY-MM-DD date given on the command line, checked."""
    if text is None:
        return None
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise UsageError(f"{option} {text!r}: not a date; give it as YYYY-MM-DD (e.g. 2026-11-30)")


@dataclass
class Query:
    """A search. `player` matches a seat's player in any case; `result` is that player's
    result, or without a player: won or lost, a game someone won; drawn, a draw; open, a
    game still going. A game is in the dates when it was played in them: created on or
    before `until`, its newest record on or after `since`. `finding` is a finding's kind
    (`ruling`) or the start of one (`challenge` for challenge-upheld and -rejected)."""

    player: str | None = None
    game: str | None = None
    result: str | None = None
    since: str | None = None
    until: str | None = None
    finding: str | None = None

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise UsageError(f"--result {self.result!r}: choose one of {', '.join(RESULTS)}")
        if self.since and self.until and self.since > self.until:
            raise UsageError(f"--since {self.since} is after --until {self.until}")

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on `games g` and its parameters."""
        terms: list[str] = []
        args: list[Any] = []
        if self.game is not None:
            terms.append("g.game = ?")
            args.append(self.game)
        if self.since is not None:
            terms.append("g.last >= ?")
            args.append(self.since)
        if self.until is not None:
            terms.append("substr(g.created, 1, 10) <= ?")
            args.append(self.until)
        # `g.id IN (...)`, not a correlated EXISTS: SQLite then reads the player's (or
        # the finding's) few rows by their index instead of probing every game
        if self.player is not None:
            seat = "SELECT game_id FROM seats WHERE player_key = ?"
            args.append(self.player.strip().casefold())
            if self.result is not None:
                seat += " AND result = ?"
                args.append(self.result)
            terms.append(f"g.id IN ({seat})")
        elif self.result is not None:
            terms.append("g.id IN (SELECT game_id FROM seats WHERE result = ?)")
            args.append(self.result)
        if self.finding is not None:
            terms.append("g.id IN (SELECT game_id FROM findings WHERE kind = ? OR kind LIKE ? ESCAPE '\\')")
            kind = self.finding.strip()
            args += [kind, kind.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "-%"]
        return (" AND ".join(terms) or "1"), args


COLUMNS = "g.id, g.game, g.options, g.created, g.last, g.records, g.over, g.winners, g.scores, g.forfeit, g.source"


def games(conn: sqlite3.Connection, query: Query, limit: int | None = None) -> list[dict[str, Any]]:
    """The games a query names, newest first, each as a dict (the JSON of a search)."""
    where, args = query.where()
    sql = f"SELECT {COLUMNS} FROM games g WHERE {where} ORDER BY g.last DESC, g.id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    rows = conn.execute(sql, args).fetchall()
    seats = _seats(conn, [r[0] for r in rows])
    found = _findings(conn, [r[0] for r in rows])
    return [
        {"id": r[0], "game": r[1], "options": json.loads(r[2]), "created": r[3], "last": r[4], "records": r[5],
         "over": bool(r[6]), "winners": json.loads(r[7]), "scores": json.loads(r[8]),
         "forfeit": json.loads(r[9]) if r[9] else None, "source": r[10],
         "seats": seats.get(r[0], []), "findings": found.get(r[0], [])}
        for r in rows
    ]


def _chunks(ids: list[str], size: int = 500) -> list[list[str]]:
    return [ids[i:i + size] for i in range(0, len(ids), size)]


def _seats(conn: sqlite3.Connection, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for part in _chunks(ids):
        marks = ", ".join("?" * len(part))
        for game_id, seat, player, result, score in conn.execute(
            f"SELECT game_id, seat, player, result, score FROM seats WHERE game_id IN ({marks}) ORDER BY seat", part
        ):
            out.setdefault(game_id, []).append({"seat": seat, "player": player, "result": result, "score": score})
    return out


def _findings(conn: sqlite3.Connection, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for part in _chunks(ids):
        marks = ", ".join("?" * len(part))
        for game_id, seq, kind, detail in conn.execute(
            f"SELECT game_id, seq, kind, detail FROM findings WHERE game_id IN ({marks}) ORDER BY rowid", part
        ):
            out.setdefault(game_id, []).append({"seq": seq, "kind": kind, "detail": detail})
    return out
