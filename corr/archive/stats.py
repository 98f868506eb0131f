"""Counts over the archive: per game, how many games, how they ended and how long they
ran; for one player, their wins, draws and losses and whom they met most."""

from __future__ import annotations

import sqlite3
from typing import Any

from corr.archive.query import Query

#: How many opponents `stats --player` names.
OPPONENTS = 5


def stats(conn: sqlite3.Connection, query: Query) -> dict[str, Any]:
    """The counts of the games a query names; with a player, from that player's seat."""
    where, args = query.where()
    if query.player is None:
        per_game = conn.execute(
            f"SELECT g.game, count(*), sum(g.over), avg(g.records),"
            f" sum(EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.result = 'drawn'))"
            f" FROM games g WHERE {where} GROUP BY g.game ORDER BY g.game", args).fetchall()
        games = {name: {"games": n, "finished": over, "decided": over - drawn, "drawn": drawn, "open": n - over,
                        "average_records": round(length, 1)}
                 for name, n, over, length, drawn in per_game}
        players = conn.execute(
            f"SELECT s.player, count(*) FROM seats s JOIN games g ON g.id = s.game_id WHERE {where}"
            f" GROUP BY s.player_key ORDER BY count(*) DESC, s.player LIMIT {OPPONENTS}", args).fetchall()
        return {"player": None, "games": games, "players": [{"player": p, "games": n} for p, n in players]}
    key = query.player.strip().casefold()
    per_game = conn.execute(
        f"SELECT g.game, count(*), sum(s.result = 'won'), sum(s.result = 'drawn'), sum(s.result = 'lost'),"
        f" sum(s.result = 'open'), avg(g.records)"
        f" FROM games g JOIN seats s ON s.game_id = g.id AND s.player_key = ? WHERE {where}"
        f" GROUP BY g.game ORDER BY g.game", [key, *args]).fetchall()
    games = {name: {"games": n, "won": won, "drawn": drawn, "lost": lost, "open": still,
                    "average_records": round(length, 1)}
             for name, n, won, drawn, lost, still, length in per_game}
    opponents = conn.execute(
        f"SELECT o.player, count(DISTINCT g.id) FROM games g JOIN seats s ON s.game_id = g.id AND s.player_key = ?"
        f" JOIN seats o ON o.game_id = g.id AND o.player_key != ? WHERE {where}"
        f" GROUP BY o.player_key ORDER BY count(DISTINCT g.id) DESC, o.player LIMIT {OPPONENTS}",
        [key, key, *args]).fetchall()
    return {"player": query.player, "games": games, "opponents": [{"player": p, "games": n} for p, n in opponents]}
