"""`corr play`: a game at the terminal, against people at the same keyboard or the computer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import Color, LogFile, app


def _computer_seats(file) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The computer seats the game was made with (`corr new --bot`), where it has any."""
    from corr.bots.seats import read

    return dict(read(file))


@app.command("play")
def play_game(
    file: LogFile,
    as_seat: Annotated[
        Optional[list[str]],
        typer.Option("--as", metavar="SEAT", help="The seat (repeatable) this terminal plays; default: every seat "
                     "the computer does not."),
    ] = None,
    bot: Annotated[
        Optional[list[str]],
        typer.Option("--bot", metavar="SEAT=LEVEL", help="Let the computer play SEAT at random, greedy or strong "
                     "(repeatable), besides the game's own computer seats."),
    ] = None,
    coach: Annotated[
        bool,
        typer.Option("--coach", help="Before a move that would conquer a field goes without its claim `!` "
                     "(combat 3.5), say so and ask; without it the move is played and the field missed."),
    ] = False,
    color: Color = "auto",
) -> None:
    """Play a game at the terminal: the board, the seat on turn, and a prompt for its move.

    Type a move in the usual notation, or `legal` (a page of your moves: `legal more`,
    `legal 5` for field 5's, `legal all`), `hint` (the strong computer's move), `board`,
    `help` or `quit`. The computer answers for its seats. Every move goes into the log
    at once, so quitting loses nothing, and says how to go on; a Domino game's clock
    runs while you think and ends the game at its limit. At a terminal with Python's
    readline (not on Windows) the arrows edit the line and recall earlier ones.

    \b
    Example:
      corr new combat game.corr --player Anna --player Computer
      corr play game.corr --bot B=strong
      corr play game.corr --as A          # your seat only: stops when it is B's turn
      corr play game.corr --coach         # warns before a conquest goes unclaimed
    """
    from corr import clock
    from corr.cli.app import check_format
    from corr.errors import UsageError
    from corr.keyboard import editing, read_line
    from corr.seatview import observe
    from corr.session import Session, result_line
    from corr.term import wanted

    check_format(color, ("auto", "always", "never"))
    session = Session(file, out=lambda text: typer.echo(text, nl=False), colour=wanted(color, sys.stdout),
                      coach=coach, editing=editing())
    rep = session.load()
    from corr.bots.seats import parse_bot

    own = _computer_seats(file)
    added = dict(parse_bot(spec, rep.seats) for spec in bot or [])
    session.computer = own | added
    mine = tuple(dict.fromkeys(s.strip().upper() for s in as_seat)) if as_seat else None
    for named in [*(mine or ()), *session.computer]:
        if named not in rep.seats:
            raise UsageError(f"no seat {named} in this game (seats: {', '.join(rep.seats)})")
    session.mine = mine
    session.again = _again(file, mine, {s: lv for s, lv in added.items() if own.get(s) != lv}, coach)
    if mine is None and observe(rep).own_board:
        humans = [s for s in rep.seats if s not in session.computer]
        if len(humans) > 1:
            raise UsageError("in a duel every seat plays its own board at once: say which with --as SEAT")
    while True:
        rep = session.computer_turns(session.load())
        if not rep.on_turn():
            session.board_once(rep)
            session.out(result_line(rep))
            return
        seat = session.seat_to_play(rep)
        if seat is None:
            session.board_once(rep)
            waiting = ", ".join(session.name(rep, s) for s in rep.on_turn())
            session.out(f"{waiting} to move: send them {file}, or play that seat here with --as\n")
            return
        session.board_once(rep, seat)
        now = clock.now()
        deadline = session.deadline(rep)
        line = read_line(session.prompt(rep, seat, now), None if deadline is None else
                         (deadline - now).total_seconds())
        if deadline is not None and clock.now() >= deadline:
            session.out("time is up (domino 6.1)\n")
            rep = session.time_up(clock.now())
            session.out(session.shown(rep))
            session.out(result_line(rep))
            return
        if line is None:  # end of input: like quit
            session.out("\n")
            session.leave()
            return
        if not session.handle(line, seat):
            return


def _again(file: Path, mine: tuple[str, ...] | None, bots: dict[str, str], coach: bool) -> str:
    """The `corr play` that goes on with this game as this one plays it: the same seats
    here, and the computer seats given on its command line (the game's own it knows)."""
    import shlex

    words = ["corr", "play", str(file)]
    for seat in mine or ():
        words += ["--as", seat]
    for seat, level in bots.items():
        words += ["--bot", f"{seat}={level}"]
    if coach:
        words.append("--coach")
    return " ".join(map(shlex.quote, words))
