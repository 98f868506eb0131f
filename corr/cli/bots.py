"""`corr bot`: the computer plays one move for a seat; and how its moves are shown
after `corr new` and `corr move` in games with computer seats (corr.bots.seats)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from corr.cli.app import LogFile, SignKey, app, board, check_format, seat_of


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
    printed as `corr move` prints it. Computer seats then on turn (`corr new --bot`)
    answer, as they do after `corr move`.

    The computer sees only what the seat may see (its own card, never another's or the
    pile; in Domino its own board and the digit it is given, never the digits to come).
    In a game where the seat signs its records, give its key with --sign.
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
    levels = seats.read(file, rep.seats)
    if level is None:
        level = levels.get(who, "strong")
    choice = choose(rep, who, level, random.Random(seed))
    if dry_run:
        typer.echo(f"{who} ({level}): {choice.move}: {choice.why} (expects {choice.expect:g})")
        return
    from corr.seatview import mover, seen_seq

    key = None
    if sign is not None:
        from corr.identity import load_private

        key = load_private(sign)
    with engine.writing(file, resume=rep) as rep:
        if key is not None:
            rep.seat_of_key(key, who, str(sign))
        rep.add("move", who, choice.move, answers=seen_seq(rep, who))
    if fmt != "none":
        typer.echo(f"{who} ({level}): {choice.move}: {choice.why}", err=True)
    if any(s in levels for s in rep.on_turn()):  # a computer seat on turn answers, as after `corr move`
        answered(file, rep, fmt, who if who not in levels else None)
        return
    board(rep, fmt, mover(rep, who))


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
        if seat not in rep.seats:
            raise UsageError(f"no seat {seat!r} (seats: {', '.join(rep.seats)})")
        return seat
    on_turn = rep.on_turn()
    if not on_turn:
        raise UsageError("the game is over")
    if len(on_turn) > 1:
        raise UsageError(f"seats {', '.join(on_turn)} may all move now: say which with --seat SEAT")
    return on_turn[0]


def answered(file: Path, rep: Any, fmt: str, seat: Optional[str], colour: bool = False) -> None:
    """After a person's move (or a new game): the computer answers for every computer
    seat on turn (corr.bots.seats.answer). Everything printed is the person's to see,
    `seat` being theirs (None: the public view): the board as a command prints it after
    that seat acted (`corr.seatview.mover`), a line per computer move the seat may read
    (in a running Domino duel, none of the computer's own board), and the board after
    them; as HTML or JSON one document, the position after the computer's moves (the
    lines go to stderr)."""
    from corr.bots import seats
    from corr.seatview import mover

    if not seats.path_for(file).exists():
        board(rep, fmt, mover(rep, seat), colour)
        return
    if fmt == "text":
        board(rep, fmt, mover(rep, seat), colour)
    from corr.errors import CorrError

    try:
        answers, after = seats.answer(file, table=rep)
    except CorrError as err:
        # the person's move is in the log: the exit code says so, and the warning what is left to do
        from corr.cli import one_line

        typer.echo(f"corr: warning: the computer could not answer: {one_line(str(err))} (what was played stands; "
                   f"`corr bot {file}` tries again)", err=True)
        if fmt != "text":
            board(rep, fmt, mover(rep, seat))
        return
    told = seats.narrate(answers, after, seat)
    for line in told:
        typer.echo(line, err=fmt != "text")
    if fmt != "text":
        board(after or rep, fmt, mover(rep, seat))
    elif told and mover(rep, seat) is None:  # a duel's own board did not change
        board(after, fmt, None, colour)
