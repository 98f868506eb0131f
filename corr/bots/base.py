"""The computer's levels, and how a level of a game's opponent chooses a move.

A computer opponent sees a position only through its seat's view (`corr.seatview`,
the one place that decides what a seat may see): its own position, the moves it may
make, the records it may read, and a copy of the whole position only where the game
hides nothing from it. It answers a `Choice`: the move, the score it expects and why,
which `corr bot --dry-run` prints.
"""

from __future__ import annotations

import random
from typing import Callable

from corr.engine import Position
from corr.errors import UsageError
from corr.games.base import BotView, Choice
from corr.seatview import SeatView, observe

LEVELS = ("random", "greedy", "strong")


def seat_view(table: Position, seat: str) -> SeatView:
    """The view a computer opponent of `seat` plays from; refuses a seat that may not
    move now."""
    if seat not in table.game.seats:
        raise UsageError(f"no seat {seat!r} (seats: {', '.join(table.game.seats)})")
    if seat not in table.on_turn():
        raise UsageError(f"seat {seat} is not on turn" if table.on_turn() else "the game is over")
    return observe(table, seat, moves=True)


Chooser = Callable[[BotView, random.Random], Choice]


def random_choice(view: BotView, rng: random.Random) -> Choice:
    """Any legal move, uniformly: the `random` level of every game."""
    if not view.legal:
        raise UsageError(f"seat {view.seat} has no legal move")
    move = rng.choice(view.legal)
    return Choice(move, 0.0, f"a random move of {len(view.legal)}")


def chooser(game: str, level: str) -> Chooser:
    """The function that plays `level` in `game` (`corr.games.<game>.bot.greedy|strong`)."""
    if level not in LEVELS:
        raise UsageError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    if level == "random":
        return random_choice
    from corr.games import part

    try:
        module = part(game, "bot")
    except UsageError:
        raise UsageError(f"no computer opponent for {game} yet") from None
    return getattr(module, level)


def choose(rep: Position, seat: str, level: str, rng: random.Random | None = None) -> Choice:
    """The move a bot of `level` makes for `seat` in `rep`, from the seat's view only."""
    view = seat_view(rep, seat)
    if not view.legal:
        raise UsageError(f"seat {seat} has no legal move")
    return chooser(rep.header.game, level)(view, rng or random.Random())
