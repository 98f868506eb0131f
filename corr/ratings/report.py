"""The rating lists as text (each within 80 columns) and as JSON. Names and file names
come from logs that anyone may have written: text shows their control characters as
escapes (`corr.names.visible`), never raw."""

from __future__ import annotations

from typing import Any

from corr.counts import counted
from corr.names import columns, short_name, visible
from corr.ratings.finished import REASONS, Finished, Skipped
from corr.ratings.systems import GLICKO2, SYSTEMS, Standing, Table

#: Columns of the player's name and address in a text table.
NAME_WIDTH = 36


def _who(s: Standing) -> str:
    """A player as one cell: the name, and the address when the player has one."""
    shown = visible(s.name)
    if s.address:
        shown += f" <{visible(s.address)}>"
    return short_name(shown, NAME_WIDTH)


def _number(value: float, system: str) -> str:
    return f"{value:.0f}" if system == GLICKO2 else f"{value:.1f}"


def table_text(table: Table) -> list[str]:
    """One game's list: a heading, then a row per player, best first."""
    words = SYSTEMS[table.system]
    sizes = "2 seats" if table.system == GLICKO2 else "3-6 seats"
    lines = [f"{table.game}, {sizes}: {words['title']}, {counted(table.games, 'game')}",
             f"{'#':>3}  {'player':<{NAME_WIDTH}} {words['rating']:>6} {words['deviation']:>5} "
             f"{'games':>5} {'W':>4} {'D':>4} {'L':>4}"]
    for place, s in enumerate(table.ranked(), 1):
        who = _who(s)
        pad = NAME_WIDTH - columns(who)
        lines.append(f"{place:>3}  {who}{' ' * max(pad, 0)} {_number(s.rating, table.system):>6} "
                     f"{_number(s.deviation, table.system):>5} {s.games:>5} {s.wins:>4} {s.draws:>4} {s.losses:>4}")
    return lines


def skipped_summary(skipped: list[Skipped]) -> str:
    """`skipped 3 logs: 1 corrupt, 2 unfinished`, or that none was."""
    if not skipped:
        return "skipped no log"
    counts = [f"{n} {reason}" for reason in REASONS if (n := sum(s.reason == reason for s in skipped))]
    return f"skipped {counted(len(skipped), 'log')}: {', '.join(counts)}"


def skipped_line(s: Skipped) -> str:
    """One skipped log, on one line: `skipped FILE: corrupt (why)`."""
    detail = " ".join(s.detail.split())
    return visible(f"skipped {s.file}: {s.reason}" + (f" ({detail})" if detail else ""))


def text(tables: list[Table], games: list[Finished], skipped: list[Skipped], verbose: bool) -> str:
    """The whole text report: each list, then what was rated and skipped."""
    lines: list[str] = []
    for table in tables:
        lines += table_text(table) + [""]
    if not tables:
        lines.append("no finished game to rate")
    if verbose:
        lines += [skipped_line(s) for s in skipped]
    lines.append(f"rated {counted(len(games), 'game')}; {skipped_summary(skipped)}")
    return "\n".join(lines) + "\n"


def as_json(tables: list[Table], games: list[Finished], skipped: list[Skipped]) -> dict[str, Any]:
    """The report as one JSON object: `ratings` (a list per game and system), `rated` (the
    games in the order they were rated) and `skipped` (each log with its reason)."""
    return {
        "ratings": [{"game": t.game, "system": t.system, "games": t.games,
                     "players": [s.as_json() for s in t.ranked()]} for t in tables],
        "rated": [{"file": g.file, "game": g.game, "id": g.id, "ended": g.ended,
                   "players": [p.key for p in g.players], "places": list(g.places)} for g in games],
        "skipped": [{"file": s.file, "reason": s.reason, "detail": s.detail} for s in skipped],
    }
