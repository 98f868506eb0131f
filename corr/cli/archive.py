"""`corr archive`: many games in one SQLite file, to search, count and export."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer

from corr.cli.app import JsonFlag, app, out

if TYPE_CHECKING:
    from corr.archive.ingest import Outcome, Row
    from corr.archive.query import Query

archive_app = typer.Typer(
    help="An archive of many games in one SQLite file: import logs (each audited), search them "
    "by player, game, result, date and finding, count them, export them as PGN or JSON Lines.\n\n"
    "\b\nExample:\n"
    "  corr archive import ~/games --db games.sqlite\n"
    "  corr archive search --db games.sqlite --player Anna --result won\n"
    "  corr archive export --db games.sqlite --format pgn --out games.pgn",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(
    archive_app,
    name="archive",
    help="Archive many games in SQLite: import (audited), search, stats, export PGN.\n\n"
    "\b\nExample:\n"
    "  corr archive import ~/games --db games.sqlite",
)

Db = Annotated[Path, typer.Option("--db", metavar="ARCHIVE", help="The archive (an SQLite file).",
                                  show_default=False)]
Player = Annotated[Optional[str], typer.Option("--player", metavar="NAME", help="Games this player sat in "
                                               "(the name in any case).")]
GameOpt = Annotated[Optional[str], typer.Option("--game", metavar="GAME", help="Games of this game (combat, "
                                                "moyo, cards, domino, war).")]
ResultOpt = Annotated[Optional[str], typer.Option("--result", metavar="RESULT", help="won, lost, drawn or open: "
                                                  "the player's result (any seat's without --player).")]
Since = Annotated[Optional[str], typer.Option("--since", metavar="YYYY-MM-DD", help="Games whose newest "
                                              "record is on or after this day.")]
Until = Annotated[Optional[str], typer.Option("--until", metavar="YYYY-MM-DD", help="Games created on or "
                                              "before this day.")]
Finding = Annotated[Optional[str], typer.Option("--finding", metavar="KIND", help="Games with an audit "
                                                "finding of this kind (ruling, void, timeout, vacation, late, "
                                                "illegal-unchallenged; challenge for either verdict).")]

#: Imports of at least this many logs show a progress line on a terminal.
PROGRESS_FROM = 20


def _query(player: str | None, game: str | None, result: str | None, since: str | None,
           until: str | None, finding: str | None) -> Query:
    from corr.archive.query import Query, day

    return Query(player=player, game=game, result=result, since=day(since, "--since"),
                 until=day(until, "--until"), finding=finding)


@archive_app.command("import")
def import_(
    paths: Annotated[list[Path], typer.Argument(metavar="DIR|FILE...", help="Game logs, folders of them (every "
                                                "*.corr inside, subfolders too) or PGN files corr exported.",
                                                show_default=False)],
    db: Db,
    as_json: JsonFlag = False,
) -> None:
    """Audit each log as `corr audit` does and store it with what the audit found.

    One line per log: stored, unchanged (already stored), replaced (a longer copy of
    a stored game), kept-longer (a longer copy is stored), conflict (another copy of
    the game, which parts from this one, is stored), corrupt (with the reason: never
    stored) or not-corr (a PGN game corr did not write). A PGN file that does not
    parse stores nothing. Exit 2 when a log was corrupt, 1 when one was refused.

    \b
    Example:
      corr archive import ~/games --db games.sqlite
      corr archive import games.pgn --db copy.sqlite
    """
    from corr.archive import db as archive_db, ingest, pgn
    from corr.names import visible

    sources: list[Callable[[], Row | Outcome]] = []
    for path in ingest.log_files(paths):
        if path.suffix.lower() != ".pgn":
            sources.append(functools.partial(ingest.audit_file, path))
            continue
        for k, game in enumerate(pgn.read(path), 1):
            where = f"{path} game {k} (line {game.line})"
            log = game.log()
            if log is None:
                sources.append(functools.partial(ingest.Outcome, where, "not-corr", None,
                                                 f"no {pgn.HEADER_TAG} tag: a game corr did not write"))
            else:
                sources.append(functools.partial(ingest.audit_bytes, log, where))
    conn = archive_db.connect(db, create=True)
    progress = _progress if sys.stderr.isatty() and len(sources) >= PROGRESS_FROM else None

    def tell(outcome: Outcome) -> None:
        if not as_json:
            if progress is not None:
                sys.stderr.write("\r\x1b[K")
            shown = f"{outcome.source}: {outcome.status}"
            if outcome.id:
                shown += f" {outcome.id}"
            out(visible(f"{shown} ({outcome.detail})" if outcome.detail else shown) + "\n")

    try:
        outcomes = ingest.import_all(conn, iter(sources), len(sources), tell, progress)
    finally:
        conn.close()
        if progress is not None:
            sys.stderr.write("\r\x1b[K")
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    if as_json:
        out(json.dumps({"counts": counts, "logs": [vars(o) for o in outcomes]}, indent=2) + "\n")
    else:
        from corr.counts import counted

        said = ", ".join(f"{n} {status}" for status, n in counts.items())
        out(f"{counted(len(outcomes), 'log')}{': ' + said if said else ''}\n")
    if counts.get(ingest.CORRUPT):
        raise typer.Exit(2)
    if counts.get(ingest.CONFLICT) or counts.get("not-corr"):
        raise typer.Exit(1)


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\r\x1b[Kimporting {done}/{total}")
    sys.stderr.flush()


@archive_app.command()
def search(
    db: Db,
    player: Player = None,
    game: GameOpt = None,
    result: ResultOpt = None,
    since: Since = None,
    until: Until = None,
    finding: Finding = None,
    as_json: JsonFlag = False,
) -> None:
    """The archived games a search names, newest first, one line each (or one JSON list).

    A game is in --since/--until when it was played then: created on or before
    --until, its newest record on or after --since.

    \b
    Example:
      corr archive search --db games.sqlite --player anna --result won
      corr archive search --db games.sqlite --game combat --since 2026-01-01 --finding ruling --json
    """
    from corr.archive import db as archive_db, query

    wanted = _query(player, game, result, since, until, finding)
    conn = archive_db.connect(db)
    try:
        found = query.games(conn, wanted)
    finally:
        conn.close()
    if as_json:
        out(json.dumps(found, indent=2) + "\n")
        return
    out("".join(line_of(g) + "\n" for g in found))


def line_of(game: dict[str, Any]) -> str:
    """One search hit as a line: id, game, dates, length, players, result, findings."""
    from corr.counts import counted
    from corr.names import short_name, visible

    players = ", ".join(f"{s['seat']} {short_name(s['player'])}" for s in game["seats"])
    names = {s["seat"]: short_name(s["player"]) for s in game["seats"]}
    if not game["over"]:
        outcome = "in progress"
    elif len(game["winners"]) == 1:
        outcome = f"{names.get(game['winners'][0], game['winners'][0])} wins"
    else:
        outcome = "draw"
    kinds = sorted({f["kind"] for f in game["findings"]})
    found = f"  findings: {', '.join(kinds)}" if kinds else ""
    return visible(f"{game['id']}  {game['game']}  {game['created'][:10]}..{game['last'][:10]}  "
                   f"{counted(game['records'], 'record')}  {players}  {outcome}{found}")


@archive_app.command()
def stats(
    db: Db,
    player: Player = None,
    game: GameOpt = None,
    since: Since = None,
    until: Until = None,
    as_json: JsonFlag = False,
) -> None:
    """Counts per game: games, how they ended, the average length in records; the most
    frequent players. With --player: that player's wins, draws and losses per game and
    the opponents met most.

    \b
    Example:
      corr archive stats --db games.sqlite
      corr archive stats --db games.sqlite --player Anna --json
    """
    from corr.archive import db as archive_db
    from corr.archive.stats import stats as count
    from corr.counts import counted
    from corr.names import short_name, visible

    wanted = _query(player, game, None, since, until, None)
    conn = archive_db.connect(db)
    try:
        found = count(conn, wanted)
    finally:
        conn.close()
    if as_json:
        out(json.dumps(found, indent=2) + "\n")
        return
    lines = []
    for name, c in found["games"].items():
        if player is None:
            lines.append(f"{name}: {counted(c['games'], 'game')}, {c['decided']} won, {c['drawn']} drawn, {c['open']} open, "
                         f"{c['average_records']} records on average")
        else:
            lines.append(f"{name}: {counted(c['games'], 'game')}, {c['won']} won, {c['drawn']} drawn, {c['lost']} lost, "
                         f"{c['open']} open, {c['average_records']} records on average")
    if not found["games"]:
        lines.append("no games")
    others = found["players"] if player is None else found["opponents"]
    if others:
        title = "players" if player is None else "opponents"
        lines.append(f"{title}: " + ", ".join(f"{short_name(o['player'])} {o['games']}" for o in others))
    out("".join(visible(line) + "\n" for line in lines))


@archive_app.command()
def export(
    db: Db,
    out_file: Annotated[Path, typer.Option("--out", metavar="FILE", help="The file to write.", show_default=False)],
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="pgn or jsonl.")] = "pgn",
    player: Player = None,
    game: GameOpt = None,
    result: ResultOpt = None,
    since: Since = None,
    until: Until = None,
    finding: Finding = None,
) -> None:
    """Write the games a search names (all without search options) as PGN, which
    `corr archive import FILE.pgn` reads back into the same logs, or as JSON Lines,
    one game a line as `search --json` shows it.

    \b
    Example:
      corr archive export --db games.sqlite --format pgn --out games.pgn
      corr archive export --db games.sqlite --player Anna --format jsonl --out anna.jsonl
    """
    from corr.archive import db as archive_db
    from corr.archive.export import export as write
    from corr.names import visible

    wanted = _query(player, game, result, since, until, finding)
    conn = archive_db.connect(db)
    try:
        n = write(conn, wanted, fmt, out_file)
    finally:
        conn.close()
    from corr.counts import counted

    out(visible(f"{counted(n, 'game')} written to {out_file}") + "\n")
