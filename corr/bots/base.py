"""What a bot may know, and what it answers.

`seat_view` is the only way from a replay to a bot: it keeps the seat's own view
(`corr.view.position`, the one place that decides what a seat may see), the moves the
seat may make, the records it may read, and a copy of the whole position only in games
without hidden information. A bot returns a `Choice`: the move, the score it expects
and why, which `corr bot --dry-run` prints.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from corr.engine import Position
from corr.errors import UsageError
from corr.games.base import Game
from corr.notation import Move

LEVELS = ("random", "greedy", "strong")


@dataclass(frozen=True)
class SeatView:
    """Everything a bot of `seat` may use to choose its move."""

    #: the rules: the game's options and seats, without the dealer's seed
    game: Game
    seat: str
    #: the position as the seat sees it (the JSON of `corr show --for SEAT --format json`)
    position: dict[str, Any]
    #: the moves the seat may make now, in the game's order
    legal: list[Move]
    #: the moves the seat may read so far, as (seq, seat, canonical text)
    history: list[tuple[int, str, str]] = field(default_factory=list)
    #: a copy of the whole position, only in games without hidden information (Combat,
    #: Moyo, War, Domino with a public seed): the bot may try moves on it
    state: Any = None


@dataclass(frozen=True)
class Choice:
    """A bot's move, the score it expects (in the game's own units), and why."""

    move: Move
    expect: float
    why: str


def seat_view(rep: Position, seat: str) -> SeatView:
    """The view a bot of `seat` plays from; refuses a seat that may not move now."""
    from corr.view import position

    game = rep.game
    if seat not in game.seats:
        raise UsageError(f"no seat {seat!r} (seats: {', '.join(game.seats)})")
    if seat not in rep.on_turn():
        raise UsageError(f"seat {seat} is not on turn" if rep.on_turn() else "the game is over")
    rules = type(game)(game.opts, game.seats, None)
    rules.created = game.created
    hidden = game.is_hidden(game.opts)
    history = [
        (step.record.seq, step.record.by, step.record.move or step.record.type)
        for step in rep.visible(seat)
        if step.record.type in ("move", "pass")
    ]
    return SeatView(
        game=rules,
        seat=seat,
        position=position(rep, seat),
        legal=list(game.legal_for(rep.state, seat)),
        history=history,
        state=None if hidden else game.clone(rep.state),
    )


Chooser = Callable[[SeatView, random.Random], Choice]


def random_choice(view: SeatView, rng: random.Random) -> Choice:
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
