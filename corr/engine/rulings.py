"""Rulings (DESIGN 5): the referee's or host's signed decision on a disputed record.

A ruling is a record like any other - `type` "ruling", `by` "referee" or "host",
`target` the seq it rules on, `move` the decision, `note` the reason - signed with the
key the header names for that official. Nothing earlier is rewritten: every replay
meets the ruling at its place in the log and honours it from there.

The decisions:
- `uphold`: a challenge the log could not take (it came too late by the log, in time by
  the referee) is upheld now: the game's as-written penalty applies to the target move;
  the seat that moved after the offender is the challenger.
- `reject`: the dispute over the target is dismissed; the record stands as it is.
- `void`: the game goes on as if the target had never been recorded: the position is
  rebuilt without it, and every later record must still hold in the rebuilt game
  (otherwise the ruling is refused). A voided ruling is undone the same way.
- `forfeit SEAT`: the seat loses now; the best of the others wins, as after a timeout.
- `adjust-clock SEAT=±DAYS`: days added to (or taken from) the seat's clock from now.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from corr.decisions import Decision, parse_decision
from corr.engine.keys import official_keys
from corr.engine.position import Position, Step
from corr.errors import IllegalMove, UsageError
from corr.games.aswritten import AsWritten, Window
from corr.games.base import Action, Outcome
from corr.log.lines import Record

#: How a ruling's void has the records after its target judged again: the engine's one
#: judgement of a record (`corr.engine.judge.judge`), handed in.
Judge = Callable[[Position, Record, int], tuple[Action, Outcome]]

ROLES = ("referee", "host")


def apply(rep: Position, record: Record, index: int, judge: Judge, *, rebuilding: bool = False) -> Outcome:
    """Check the ruling at `index` of the log and make it take effect on `rep` (replay
    has checked its signature, with the other records')."""
    header = rep.header
    if record.by not in ROLES:
        raise IllegalMove("", f"a ruling is made by the referee or the host, not by seat {record.by}")
    if record.by not in official_keys(header):
        raise IllegalMove("", f"the header names no {record.by}, so there is nobody to rule")
    decision = written(record.move or "")
    if not (record.note or "").strip():
        raise UsageError("a ruling gives its reason (note)")
    if record.note != record.note.strip():  # type: ignore[union-attr]
        raise UsageError("a ruling's reason (note) starts and ends with what it says, not with spaces")
    target = record.target
    if target is None or not 1 <= target < record.seq:
        raise UsageError(f"a ruling names an earlier record (target), not {target}")
    # when rebuilding, a void ruling's own target is void already
    if target in rep.voided and (decision.kind != "void" or not rebuilding):
        raise IllegalMove("", f"seq {target} is void already")
    what = f"{record.by} rules on seq {target}: {decision}"
    if decision.kind == "reject":
        return Outcome(verdict="rejected", events=(f"{what}: the record stands",))
    if decision.kind == "void":
        if not rebuilding:
            rebuild(rep, index, judge)
        return Outcome(events=(f"{what}: the game goes on as if seq {target} had not been recorded",))
    if decision.kind == "forfeit":
        seat = _seat(rep, decision.seat)
        rep.forfeit, rep.forfeit_cause = seat, "by a ruling"
        return Outcome(events=(f"{what}: {seat} loses the game",))
    if decision.kind == "adjust-clock":
        if header.time_control is None:
            raise IllegalMove("", "this game has no time control, so no clock to adjust")
        seat = _seat(rep, decision.seat)
        days = abs(decision.days)
        return Outcome(events=(f"{what}: {seat}'s clock {'gains' if decision.days > 0 else 'loses'} "
                               f"{days} day{'s' if days != 1 else ''}",))
    return _uphold(rep, rep.steps[target - 1], what)


@lru_cache(maxsize=32)
def written(move: str) -> Decision:
    """The decision a ruling's `move` writes, in its one spelling; parsed once per
    spelling, as a log's rulings write few."""
    decision = parse_decision(move)
    if str(decision) != move:
        raise UsageError(f"a ruling writes its decision {str(decision)!r}, not {move!r}: one spelling per record")
    return decision


def _seat(rep: Position, seat: str | None) -> str:
    if seat not in rep.game.seats:
        raise UsageError(f"unknown seat {seat!r} (seats: {', '.join(rep.game.seats)})")
    return seat


def _uphold(rep: Position, step: Step, what: str) -> Outcome:
    game = rep.game
    if not isinstance(game, AsWritten) or not game.as_written:
        raise IllegalMove("", f"{game.title} in this mode has no challenges, so there is nothing to uphold")
    if rep.forfeit is not None:
        raise IllegalMove("", f"the game is over: {rep.forfeit} lost {rep.forfeit_cause}")
    record = step.record
    if record.type != "move":
        raise IllegalMove(game.challenge_rule, f"uphold names the challenged move; seq {record.seq} is a {record.type}")
    seats = game.seats
    challenger = seats[(seats.index(record.by) + 1) % len(seats)]
    window = Window(record.seq, record.by, step.action.move, step.outcome.gained(), step.outcome.illegal)  # type: ignore[arg-type]
    outcome = game.uphold(rep.state, window, challenger)
    return Outcome(verdict="upheld", events=(f"{what}: " + "; ".join(outcome.events),))


def chain(records: list[Record], index: int) -> list[int]:
    """The seqs whose standing the void ruling at `index` changes: its target, and,
    where that is a void ruling too, what voiding it restores, and so on."""
    seqs = []
    seq = records[index].target
    while seq is not None and 1 <= seq <= index:
        seqs.append(seq)
        named = records[seq - 1]
        if named.type != "ruling" or named.move != "void":
            break
        seq = named.target
    return seqs


def rejudged(records: list[Record], index: int) -> int:
    """The first seq the void ruling at `index` has judged again (`rebuild`): every step
    from there to the ruling may change when it is made, none before."""
    seqs = chain(records, index)
    return min(seqs) if seqs else 1


def rebuild(rep: Position, index: int, judge: Judge) -> None:
    """The position as if every voided record (counting the void ruling at `index`) had
    never been made: each record judged again from the first whose standing changed,
    starting from the position the replay kept just before it (`Position.snapshots`), or
    from the start where it kept none. Costs the records from there on, not the log:
    the set of voided seqs is changed in place (a copy only the first time)."""
    records = rep.log.records
    seqs = chain(records, index)
    gone = rep.voided if isinstance(rep.voided, set) and rep.owns_voided else set(rep.voided)
    were = [(seq, seq in gone) for seq in seqs]  # to put back if the void is refused
    void = True
    for seq in seqs:
        (gone.add if void else gone.discard)(seq)
        void = not void
    first = min(seqs) if seqs else 1
    kept = rep.snapshots.get(first)
    if kept is None:
        first = 1
        fresh = Position(rep.log, rep.game, rep.game.initial(), voided=gone, now=rep.now)
    else:
        state, forfeit, cause = kept
        fresh = Position(rep.log, rep.game, rep.game.clone(state), forfeit=forfeit, forfeit_cause=cause,
                         voided=gone, now=rep.now)
    # the snapshot at `first` stays as it is: nothing before it changed
    old = rep.steps[first - 1: index]  # what the records did before this ruling, for the void ones
    fresh.steps = rep.steps  # the steps before `first` stand; the others are replaced one by one
    for i in range(first - 1, index):
        record = records[i]
        if record.seq in rep.void_targets and (i >= first or kept is None):  # the position before it, now
            rep.snapshots[record.seq] = (rep.game.clone(fresh.state), fresh.forfeit, fresh.forfeit_cause)
        if record.seq in gone:  # what it did before it was voided stays on view
            was = old[i - first + 1]
            fresh.steps[i] = Step(record, was.action, was.outcome, voided=True)
            continue
        try:
            if record.type == "ruling":
                action = Action(record.seq, record.type, record.by, None, record.target)
                outcome = apply(fresh, record, i, judge, rebuilding=True)
            else:
                action, outcome = judge(fresh, record, i)
        except (IllegalMove, UsageError) as err:
            rep.steps[first - 1: index] = old  # refused: the replay as it was
            for seq, was_gone in reversed(were):
                (gone.add if was_gone else gone.discard)(seq)
            target = records[index].target
            raise IllegalMove(
                "", f"voiding seq {target} leaves seq {record.seq} ({record.type} {record.move or ''} "
                f"by {record.by}) against the rules: {err}"
            ) from None
        fresh.steps[i] = Step(record, action, outcome)
    rep.state, rep.forfeit, rep.forfeit_cause, rep.voided = fresh.state, fresh.forfeit, fresh.forfeit_cause, gone
    rep.owns_voided = True
