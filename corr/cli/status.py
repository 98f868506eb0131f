"""`corr status`: every game in a folder, one line each, your turns first."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from corr.cli.app import JsonFlag, app, out


def left_text(seconds: int) -> str:
    """Time left in the two largest units: `2d 03h left`, `9m 05s left`, `overdue by 1h 02m`."""
    rest = abs(seconds)
    days, rest = divmod(rest, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        text = f"{days}d {hours:02}h"
    elif hours:
        text = f"{hours}h {minutes:02}m"
    else:
        text = f"{minutes}m {secs:02}s"
    return f"overdue by {text}" if seconds < 0 else f"{text} left"


def _turn_text(g: Any) -> str:
    """`to move: B Ben (you)`, or the end of the game."""
    if g.over:
        return f"over: {g.result}"
    if not g.turn:
        return "nobody to move"
    names = {p["seat"]: p["name"] for p in g.players}
    from corr.names import short_name

    seats = ", ".join(f"{s} {short_name(names[s])}" if s in names else f"the {s}" for s in g.turn)
    return f"to move: {seats}{' (you)' if g.yours else ''}"


def lines(games: list[Any], me: str | None, colour: bool) -> list[str]:
    """One aligned line per game; with `colour`, your turns and errors stand out. File
    names and errors (which may quote a log) show their control characters as escapes
    (`corr.names.visible`), players' names as spaces (`short_name`): one line each."""
    from corr.names import short_name, visible
    from corr.status import seats_of
    from corr.term import paint

    files = [visible(g.file) for g in games]
    file_w = max(map(len, files), default=0)
    game_w = max((len(g.game or "") for g in games), default=0)
    players = [", ".join(f"{p['seat']} {short_name(p['name'])}" for p in g.players) for g in games]
    players_w = max((len(p) for p, g in zip(players, games) if not g.error), default=0)
    seq_w = max((len(str(g.seq)) for g in games if g.seq is not None), default=0)
    result = []
    for g, name, who in zip(games, files, players):
        mark = "*" if g.yours else " "
        if g.error:
            text = f"{mark} {name.ljust(file_w)}  error: {visible(g.error)}"
            result.append(paint(text, "error") if colour else text)
            continue
        parts = [f"{mark} {name.ljust(file_w)}", (g.game or "").ljust(game_w), who.ljust(players_w),
                 f"seq {str(g.seq).ljust(seq_w)}", visible(_turn_text(g))]
        if g.deadline is not None:
            on_vacation = f" (on vacation until {g.vacation_until.replace('T', ' ')})" if g.vacation_until else ""
            parts.append(f"deadline {g.deadline.replace('T', ' ')}, {left_text(g.time_left_s or 0)}{on_vacation}")
        if g.torn:
            parts.append("(a torn last line was left out: `corr repair`)")
        text = "  ".join(parts)
        if colour and g.yours:
            mine = seats_of(g.players, me)
            text = paint(text, "you", next((s for s in g.turn if s in mine), None))
        result.append(text)
    return result


@app.command()
def status(
    folder: Annotated[
        Path, typer.Argument(metavar="DIR", help="The folder of game logs; default: the current one.", show_default=False)
    ] = Path("."),
    me: Annotated[
        Optional[str],
        typer.Option("--me", metavar="NAME", envvar="CORR_ME",
                     help="Your player name (any case): games where it is your turn are marked `*` and listed first. "
                     "Default: the environment variable CORR_ME."),
    ] = None,
    recursive: Annotated[bool, typer.Option("--recursive", "-r", help="Look into subfolders too.")] = False,
    as_json: JsonFlag = False,
    color: Annotated[
        str,
        typer.Option("--color", metavar="WHEN", help="Colour your turns: auto (on a terminal, unless NO_COLOR is set "
                     "or TERM=dumb; FORCE_COLOR forces it), always or never."),
    ] = "auto",
) -> None:
    """Every game log (*.corr) in a folder, one line each: file, game, players, seq,
    whose turn, the deadline and time left where the game has a clock, or the result.

    Games where it is your turn come first, then the nearest deadline, then by name.
    Only what every player may see is shown: never a hidden card. A log that is damaged
    or no corr log at all gets a line saying why; the others are listed all the same.
    With --json: one JSON list of {file, game, players, seq, turn, yours, deadline,
    time_left_s, vacation_until, over, result, error}.

    \b
    Example:
      corr status ~/games --me Anna
      CORR_ME=Anna corr status --json
    """
    import json
    import sys

    from corr.status import folder_status
    from corr.term import wanted

    colour = wanted(color, sys.stdout) and not as_json
    games = folder_status(folder, me, recursive)
    if as_json:
        out(json.dumps([g.as_json() for g in games], indent=2, ensure_ascii=False) + "\n")
        return
    if not games:
        from corr.names import visible

        typer.echo(f"{visible(str(folder))}: no game logs (*.corr)")
        return
    text = "\n".join(lines(games, me, colour)) + "\n"
    if colour:
        typer.echo(text, nl=False, color=True)
    else:
        out(text)
