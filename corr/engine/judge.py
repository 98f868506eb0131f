"""One record judged against the position before it, and applied: the same judgement
for a record replayed from the log and for one being made.

The checks every game shares come first (`check_turn`: record types, turns, the
dealer's records); records about time are judged against the header's time control;
rulings go to `corr.engine.rulings`; everything else is the game's.
"""

from __future__ import annotations

import re
from typing import Any

from corr.engine.keys import vouched
from corr.engine.position import Position
from corr.errors import IllegalMove, UsageError
from corr.games.base import QUIET, Action, Game, Outcome
from corr.games.dealing import DEALER
from corr.log.lines import Record
from corr.notation import canonical

#: Records about time, judged by the engine against the header's time control (DESIGN 6).
CLOCK_TYPES = frozenset({"timeout", "vacation"})
#: The records every game has, besides its own: the engine judges them.
ENGINE_TYPES = frozenset({"comment", "ruling"}) | CLOCK_TYPES
#: A vacation's days as its record writes them: one spelling per number.
_DAYS = re.compile(r"[1-9][0-9]{0,3}")
#: Records that may still follow a game ended by a timeout or a forfeit.
AFTER_FORFEIT = frozenset({"comment", "reveal"})


def check_turn(game: Game, state: Any, action: Action) -> None:
    """The checks every game shares, made before the game sees the action."""
    if action.type in ENGINE_TYPES:
        return
    if action.type not in game.record_types:
        raise IllegalMove("", f"{game.title} has no {action.type!r} records")
    if (action.by == DEALER) != (action.type in game.dealer_types):
        if action.by == DEALER:
            raise IllegalMove("", f"the dealer makes no {action.type!r} records")
        raise IllegalMove("", f"a {action.type} is the dealer's record, not {action.by}'s")
    if action.by == DEALER:
        return
    if action.by not in game.seats:
        raise UsageError(f"unknown seat {action.by!r} (seats: {', '.join(game.seats)})")
    if action.type in game.turn_types:
        on_turn = game.on_turn(state)
        if not on_turn:
            raise IllegalMove(game.end_rule(state), "the game is over")
        if action.by not in on_turn:
            if len(on_turn) > 1:
                raise IllegalMove(game.turn_rule, f"{', '.join(on_turn)} may move now, not {action.by}")
            raise IllegalMove(game.turn_rule_for(state), f"it is {on_turn[0]}'s turn, not {action.by}'s")
    if action.type == "move" and action.move is None:
        raise UsageError("a move record needs a move")


def apply(game: Game, state: Any, action: Action) -> Outcome:
    """An action the game judges, after the checks every game shares; the records the
    engine judges itself (comments, rulings, clocks) do nothing to the state here."""
    check_turn(game, state, action)
    if action.type in ENGINE_TYPES:
        return QUIET
    return game.apply(state, action)


def _clock(pos: Position, action: Action, note: str | None, before: list[Record]) -> None:
    """Check a timeout or vacation record against the time control; a due timeout makes
    the seat on turn forfeit. A timeout is claimed by another seat or, in a game its
    host vouches for (format 2), by the host, whose key signs it: it runs the game's
    clock when the seats sign their own records and it can sign none of them."""
    from corr import timecontrol  # only games with a time control have these records

    header = pos.header
    if header.time_control is None:
        raise IllegalMove("", f"this game has no time control, so no {action.type} records")
    if action.by not in pos.game.seats and not (action.type == "timeout" and action.by == "host" and vouched(header)):
        raise UsageError(f"unknown seat {action.by!r} (seats: {', '.join(pos.game.seats)})")
    when = timecontrol.instant(action.at)
    on_turn = pos.game.to_move(pos.state)
    if action.type == "timeout":
        late = timecontrol.overdue(header, before, on_turn, when)
        if late is None:
            raise IllegalMove("", f"no timeout is due: {on_turn} still has time (see `corr clock`)")
        if late == action.by:
            raise IllegalMove("", "a seat cannot claim a timeout against itself")
        pos.forfeit, pos.forfeit_cause = late, "on time"
        return
    if note is None or not _DAYS.fullmatch(note):
        raise UsageError("a vacation record names its whole days (note) in ASCII digits without leading zeros, e.g. 7")
    timecontrol.check_vacation(header, before, action.by, int(note), when, to_move=on_turn)


def _reveal_after_forfeit(pos: Position, action: Action) -> Outcome:
    """A game with hidden information that a timeout or forfeit ended is over too: the
    dealer reveals the deal, so the cards played can still be checked (cards 6.2)."""
    check_turn(pos.game, pos.state, action)  # the dealer's record, in a game that has one
    if any(step.record.type == "reveal" for step in pos.steps):
        raise IllegalMove("", "the deal was revealed already")
    pos.game.disclose(pos.state)
    return Outcome(events=(f"the game is over ({pos.forfeit} lost {pos.forfeit_cause}); the dealer reveals the deal",))


def judge(pos: Position, record: Record, index: int, action: Action | None = None) -> tuple[Action, Outcome]:
    """Judge record number `index` of the log (`pos.log.records[index]` is this record)
    against the position and apply it to `pos`; raises the error of the rule it breaks.
    `action` is the record as the game sees it, where the caller has it already; the
    caller checks hashes and signatures."""
    if action is None:
        move = canonical(record.move) if record.move is not None and record.type != "ruling" else None
        action = Action(record.seq, record.type, record.by, move, record.target, record.at)
    if record.type == "ruling":
        from corr.engine import rulings  # most logs have none

        return action, rulings.apply(pos, record, index, judge)
    if pos.forfeit is not None:
        if record.type not in AFTER_FORFEIT:
            raise IllegalMove("", f"the game is over: {pos.forfeit} lost {pos.forfeit_cause}")
        if record.type == "reveal":
            return action, _reveal_after_forfeit(pos, action)
    if record.type in CLOCK_TYPES:
        _clock(pos, action, record.note, pos.standing(index))
    return action, apply(pos.game, pos.state, action)
