"""`corr bot`: the computer plays one move for a seat; and how its moves are shown
after `corr new` and `corr move` in games with computer seats (corr.bots.seats)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from corr.cli.app import LogFile, SignKey, app, check_format, out, seat_of


@app.command()
def bot(
    file: LogFile,
    seat: Annotated[
        Optional[str],
        typer.Option("--seat", metavar="SEAT", help="The seat the computer moves for; default: the seat on turn."),
    ] = None,
    level: Annotated[
        Optional[str],
        typer.Option("--level", metavar="LEVEL", help="random, greedy or strong; default: the level the seat was "
                     "made a computer seat with (`corr new --bot`), else strong."),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only say the move, why, and the score expected; append nothing.")
    ] = False,
    sign: SignKey = None,
    seed: Annotated[
        Optional[int], typer.Option("--seed", metavar="N", help="Seed the computer's choices (the same move again).")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", metavar="FORMAT", help="Board after the move: text, html, json or none.")
    ] = "text",
) -> None:
    """Let the computer play one move for a seat: appended like any move, and the board
    printed as `corr move` prints it.

    The computer sees only what the seat may see (its own card, never another's or the
    pile). In a game where the seat signs its records, give its key with --sign.
    Levels: random (any legal move), greedy (the best gain now), strong (looks ahead).

    \b
    Examples:
      corr bot game.corr --dry-run
      corr bot game.corr --seat B --level greedy
      corr bot duel.corr --seat A --seed 7
    """
    import random

    from corr import engine
    from corr.bots import seats
    from corr.bots.base import LEVELS, choose
    from corr.errors import UsageError

    check_format(fmt, ("text", "html", "json", "none"))
    if level is not None and level not in LEVELS:
        raise UsageError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    rep = engine.load(file)
    who = _seat(file, rep, seat_of(file, seat, "--seat"), sign)
    if level is None:
        level = seats.read(file, rep.game.seats).get(who, "strong")
    choice = choose(rep, who, level, random.Random(seed))
    if dry_run:
        typer.echo(f"{who} ({level}): {choice.move}: {choice.why} (expects {choice.expect:g})")
        return
    rep, records = engine.act(file, "move", by=who, text=str(choice.move), key=sign, answers=rep.seen_seq(who))
    if fmt != "none":
        typer.echo(f"{who} ({level}): {choice.move}: {choice.why}", err=True)
    _board(rep, fmt, who)


def _seat(file: Path, rep: Any, seat: Optional[str], sign: Optional[Path]) -> str:
    """The seat the computer moves for: --seat, the seat whose key --sign is, or the one
    seat on turn."""
    from corr.errors import UsageError

    if sign is not None and seat is None:
        from corr.engine.keys import seat_keys
        from corr.identity import load_private, public_text

        public = public_text(load_private(sign))
        keyed = [s for s, k in seat_keys(rep.header).items() if k == public]
        if not keyed:
            raise UsageError(f"{sign} is not the key of any seat of this game")
        seat = keyed[0]
    if seat is not None:
        if seat not in rep.game.seats:
            raise UsageError(f"no seat {seat!r} (seats: {', '.join(rep.game.seats)})")
        return seat
    on_turn = rep.on_turn()
    if not on_turn:
        raise UsageError("the game is over")
    if len(on_turn) > 1:
        raise UsageError(f"seats {', '.join(on_turn)} may all move now: say which with --seat SEAT")
    return on_turn[0]


def _board(rep: Any, fmt: str, seat: Optional[str], colour: bool = False) -> None:
    """The position as `corr move` prints it: the mover's own board where the public
    sees less of it (a Domino duel)."""
    from corr.render import render_position

    if fmt == "none":
        return
    board = render_position(rep, fmt, seat if seat in rep.game.seats and rep.game.own_boards else None, colour)
    if colour:
        typer.echo(board, nl=False, color=True)
    else:
        out(board)


def answered(file: Path, rep: Any, fmt: str, seat: Optional[str], colour: bool = False) -> None:
    """After a person's move (or a new game): the computer answers for every computer
    seat on turn (corr.bots.seats.answer). As text: the person's board, a line per
    computer move, and the board after them; as HTML or JSON: one document, the
    position after the computer's moves (the lines go to stderr)."""
    from corr.bots import seats

    if not seats.path_for(file).exists():
        _board(rep, fmt, seat, colour)
        return
    if fmt == "text":
        _board(rep, fmt, seat, colour)
    from corr.errors import CorrError, UsageError

    try:
        answers = seats.answer(file)
    except CorrError as err:
        raise UsageError(f"the computer could not move: {err} (what was played before it stands)") from None
    for done in answers:
        typer.echo(seats.said(done), err=fmt != "text")
    if fmt != "text":
        _board(answers[-1].replay if answers else rep, fmt, seat)
    elif answers and not (rep.game.own_boards and seat in rep.game.seats):
        _board(answers[-1].replay, fmt, seat, colour)
