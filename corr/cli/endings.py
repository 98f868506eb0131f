"""`corr resign` and `corr draw`: ending a game by the players' word (war 3.2)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from corr.cli.app import LogFile, SignKey, app, seat_of

draw_app = typer.Typer(
    help="Offer, accept or decline a draw (Sudoku War).\n\nExample: corr draw offer game.corr --by A",
    no_args_is_help=True,
)
app.add_typer(draw_app, name="draw")

BySeat = Annotated[Optional[str], typer.Option("--by", metavar="SEAT", help="The seat speaking (or --sign with its key).")]


def _record(file: LogFile, record_type: str, by: Optional[str], sign: SignKey) -> None:
    from corr import engine
    from corr.errors import UsageError

    if by is None and sign is None:
        raise UsageError("missing option --by: name your seat (or --sign with its key)")
    rep, records = engine.act(file, record_type, by=seat_of(file, by), key=sign)
    for step in rep.steps[-len(records):]:
        for event in step.outcome.events:
            typer.echo(event)
    result = rep.result()
    if result.over:
        typer.echo("the game is over: " + (" and ".join(result.winners) + " draw" if len(result.winners) > 1
                                            else f"{result.winners[0]} wins"))


@app.command()
def resign(file: LogFile, by: BySeat = None, sign: SignKey = None) -> None:
    """Resign the game: the other side wins (war 3.2). Any time, on either turn.

    \b
    Example:
      corr resign game.corr --by B
    """
    _record(file, "resign", by, sign)


@draw_app.command("offer")
def offer(file: LogFile, by: BySeat = None, sign: SignKey = None) -> None:
    """Offer a draw; it stands until the other seat accepts, declines or moves.

    \b
    Example:
      corr draw offer game.corr --by A
    """
    _record(file, "draw-offer", by, sign)


@draw_app.command("accept")
def accept(file: LogFile, by: BySeat = None, sign: SignKey = None) -> None:
    """Accept the other seat's standing draw offer: the game is drawn.

    \b
    Example:
      corr draw accept game.corr --by B
    """
    _record(file, "draw-accept", by, sign)


@draw_app.command("decline")
def decline(file: LogFile, by: BySeat = None, sign: SignKey = None) -> None:
    """Decline the other seat's standing draw offer (a move declines it too).

    \b
    Example:
      corr draw decline game.corr --by B
    """
    _record(file, "draw-decline", by, sign)
