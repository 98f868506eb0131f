"""Commands that change a game: new, move, challenge, repair."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import Format, LogFile, app, check_format, out


def _parse_options(pairs: list[str]) -> dict[str, str]:
    from corr.errors import UsageError

    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(f"option {pair!r} is not KEY=VALUE (e.g. -o conquest=auto)")
        options[key.strip()] = value.strip()
    return options


@app.command()
def new(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game name (see `corr games`).", show_default=False)],
    file: LogFile,
    player: Annotated[
        list[str],
        typer.Option(
            "--player", "-p", metavar="NAME", help="A player's name; repeat once per seat (A, B, C, D in order)."
        ),
    ],
    option: Annotated[
        Optional[list[str]],
        typer.Option("--option", "-o", metavar="KEY=VALUE", help="A rule option (see `corr games`); repeatable."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html, json or none.")] = "text",
) -> None:
    """Start a game: write the log's header and show the first position.

    Refuses an existing FILE, an unknown game or option, a bad option value and a
    wrong number of players.

    \b
    Example:
      corr new combat game.corr --player Anna --player Ben -o conquest=auto
    """
    from corr import engine

    check_format(fmt, ("text", "html", "json", "none"))
    rep = engine.new_game(file, game, player, _parse_options(option or []))
    _after(rep, fmt)


def _after(rep, fmt: str) -> None:  # type: ignore[no-untyped-def]
    from corr.render import render_position

    if fmt != "none":
        out(render_position(rep, fmt))


@app.command()
def move(
    file: LogFile,
    notation: Annotated[str, typer.Argument(metavar="MOVE", help="The move, e.g. '7 (5,4)' or '7 (3,4) !'.")],
    by: Annotated[
        Optional[str], typer.Option("--by", metavar="SEAT", help="Seat making the move; default: the seat on turn.")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", metavar="FORMAT", help="Board after the move: text, html, json or none.")
    ] = "text",
) -> None:
    """Check a move against the rules, append it to the log and print the board.

    A refused move appends nothing and exits 1; a damaged log exits 2.

    \b
    Example:
      corr move game.corr "7 (5,4)" --by A
      corr move game.corr "7 (3,4) !"
    """
    from corr import engine

    check_format(fmt, ("text", "html", "json", "none"))
    rep, _ = engine.act(file, "move", by=by.upper() if by else None, text=notation)
    _after(rep, fmt)


@app.command()
def challenge(
    file: LogFile,
    by: Annotated[str, typer.Option("--by", metavar="SEAT", help="The challenging seat.", show_default=False)],
    seq: Annotated[
        Optional[int], typer.Option("--seq", metavar="SEQ", help="The placement challenged; default: the last.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html, json or none.")] = "text",
) -> None:
    """Challenge the last placement as breaking the Sudoku rule (mode=as-written).

    Upheld: the tile goes back and the challenger places two tiles next turn (combat 4.1).

    \b
    Example:
      corr challenge game.corr --by B
    """
    from corr import engine

    check_format(fmt, ("text", "html", "json", "none"))
    rep, records = engine.act(file, "challenge", by=by.upper(), target=seq)
    step = rep.steps[-len(records)]
    for event in step.outcome.events:
        typer.echo(event, err=True)
    _after(rep, fmt)


@app.command()
def repair(file: LogFile) -> None:
    """Cut off a torn last line (a write that never finished), keeping it in FILE.torn.

    \b
    Example:
      corr repair game.corr
    """
    from corr.log import store

    cut = store.repair(file)
    if cut is None:
        typer.echo(f"{file}: no torn line; nothing changed")
    else:
        typer.echo(f"{file}: cut {len(cut)} bytes of a torn last line, saved in {Path(f'{file}.torn')}")
