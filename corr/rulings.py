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

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corr import clock, engine
from corr.errors import IllegalMove, UsageError
from corr.games.base import Action, Outcome
from corr.log import store
from corr.log.lines import Record

KINDS = ("uphold", "reject", "void", "forfeit", "adjust-clock")
ROLES = ("referee", "host")
_DECISION = re.compile(r"(uphold|reject|void)|forfeit ([A-F])|adjust-clock ([A-F])=([+-]\d{1,4})")


@dataclass(frozen=True, slots=True)
class Decision:
    """What a ruling decides, as written in its record's `move`."""

    kind: str
    seat: str | None = None
    days: int = 0

    def __str__(self) -> str:
        if self.kind == "forfeit":
            return f"forfeit {self.seat}"
        if self.kind == "adjust-clock":
            return f"adjust-clock {self.seat}={self.days:+d}"
        return self.kind


def parse_decision(text: str) -> Decision:
    """A decision from its canonical text: `void`, `forfeit B`, `adjust-clock A=+2`, ..."""
    found = _DECISION.fullmatch(text)
    if found is None:
        raise UsageError(f"{text!r} is not a ruling: uphold, reject, void, forfeit SEAT or adjust-clock SEAT=±DAYS")
    simple, forfeit, seat, days = found.groups()
    if simple:
        return Decision(simple)
    if forfeit:
        return Decision("forfeit", forfeit)
    if int(days) == 0:
        raise UsageError("adjust-clock by 0 days changes nothing")
    return Decision("adjust-clock", seat, int(days))


def clock_adjustment(record: Any) -> tuple[str, int] | None:
    """(seat, days) when the record is a ruling that adjusts a clock, else None."""
    if record.type != "ruling" or not (record.move or "").startswith("adjust-clock"):
        return None
    decision = parse_decision(record.move)
    return decision.seat, decision.days  # type: ignore[return-value]



def apply(rep: engine.Replay, record: Record, index: int, *, rebuilding: bool = False) -> Outcome:
    """Check the ruling at `index` of the log and make it take effect on `rep` (replay
    has checked its signature, with the other records')."""
    header = rep.header
    if record.by not in ROLES:
        raise IllegalMove("", f"a ruling is made by the referee or the host, not by seat {record.by}")
    if record.by not in engine.official_keys(header):
        raise IllegalMove("", f"the header names no {record.by}, so there is nobody to rule")
    decision = parse_decision(record.move or "")
    if not (record.note or "").strip():
        raise UsageError("a ruling gives its reason (note)")
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
            rebuild(rep, index)
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


def _seat(rep: engine.Replay, seat: str | None) -> str:
    if seat not in rep.game.seats:
        raise UsageError(f"unknown seat {seat!r} (seats: {', '.join(rep.game.seats)})")
    return seat


def _uphold(rep: engine.Replay, step: engine.Step, what: str) -> Outcome:
    from corr.games.aswritten import AsWritten, Window

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


def rebuild(rep: engine.Replay, index: int) -> None:
    """The position as if every voided record (counting the void ruling at `index`) had
    never been made: each record judged again from the first whose standing changed,
    starting from the position the replay kept just before it (`Replay.snapshots`), or
    from the start where it kept none. Costs the records from there on, not the log."""
    records = rep.log.records
    gone = set(rep.voided)
    chain = []  # voiding a void ruling restores its target, which may be a void ruling too
    seq, void = records[index].target, True
    while seq is not None and 1 <= seq <= index:
        chain.append(seq)
        (gone.add if void else gone.discard)(seq)
        named = records[seq - 1]
        if named.type != "ruling" or named.move != "void":
            break
        seq, void = named.target, not void
    first = min(chain) if chain else 1
    kept = rep.snapshots.get(first)
    if kept is None:
        first = 1
        fresh = engine.Replay(rep.log, rep.game, rep.game.initial(), voided=frozenset(gone))
    else:
        state, forfeit, cause = kept
        fresh = engine.Replay(rep.log, rep.game, rep.game.clone(state), forfeit=forfeit, forfeit_cause=cause,
                              voided=frozenset(gone))
    old = rep.steps[first - 1: index]  # what the records did before this ruling, for the void ones
    fresh.steps = rep.steps  # the steps before `first` stand; the others are replaced one by one
    for i in range(first - 1, index):
        record = records[i]
        if record.seq in rep.void_targets:  # the position before it, as it now stands
            rep.snapshots[record.seq] = (rep.game.clone(fresh.state), fresh.forfeit, fresh.forfeit_cause)
        if record.seq in gone:  # what it did before it was voided stays on view
            was = old[i - first + 1]
            fresh.steps[i] = engine.Step(record, was.action, was.outcome, voided=True)
            continue
        try:
            if record.type == "ruling":
                action = Action(record.seq, record.type, record.by, None, record.target)
                outcome = apply(fresh, record, i, rebuilding=True)
            else:
                action, outcome = engine.advance(fresh, record, i)
        except (IllegalMove, UsageError) as err:
            rep.steps[first - 1: index] = old  # refused: the replay as it was
            target = records[index].target
            raise IllegalMove(
                "", f"voiding seq {target} leaves seq {record.seq} ({record.type} {record.move or ''} "
                f"by {record.by}) against the rules: {err}"
            ) from None
        fresh.steps[i] = engine.Step(record, action, outcome)
    rep.state, rep.forfeit, rep.forfeit_cause, rep.voided = fresh.state, fresh.forfeit, fresh.forfeit_cause, \
        frozenset(gone)


def rule(path: Path | str, seq: int, decision: Decision, reason: str, key: Path | str) -> tuple[engine.Replay, Record]:
    """Append a ruling signed with `key`, which must be the referee's or the host's of
    this game. The ruling is checked as every later replay will check it; a refused
    ruling appends nothing."""
    from corr.identity import load_private, public_text

    signer = load_private(key)
    public = public_text(signer)
    if not reason.strip():
        raise UsageError("give the ruling's reason with --reason")
    with store.writing(path) as writer:
        log = writer.log
        roles = engine.official_keys(log.header)
        if not roles:
            raise UsageError("this game names no referee or host, so nobody can rule "
                             "(start games with `corr new ... --referee NAME --referee-key FILE`)")
        role = next((r for r, k in roles.items() if k == public), None)
        if role is None:
            names = " or ".join(roles)
            raise UsageError(f"{key} is not the key of this game's {names}: only they can rule")
        if not 1 <= seq <= len(log.records):
            raise UsageError(f"seq {seq} is outside the log (seq 1 to {len(log.records)})")
        current = engine.replay(log)
        record = ruling_record(current, role, seq, decision, reason, signer)
        writer.append([record])
        current.log = writer.log
        return current, record


def ruling_record(current: engine.Replay, role: str, seq: int, decision: Decision, reason: str,
                  signer: Any) -> Record:
    """A signed ruling by `role` on record `seq`, checked against `current` (the log's
    newest position), which it moves on; writing it is the caller's."""
    from corr.identity import sign

    log = current.log
    record = Record(seq=log.next_seq, type="ruling", by=role, at=clock.stamp(), prev=log.tail_hash,
                    state="0" * 64, move=str(decision), target=seq, note=reason.strip())
    # a void rebuilds from the log, so the log it sees holds this ruling
    current.log = store.GameLog(path=log.path, header=log.header, header_raw=log.header_raw,
                                records=[*log.records, record])
    outcome = apply(current, record, len(log.records))
    record = sign(signer, log.header.id, record._replace(
        state=engine.state_hash(current.game, current.state, current.forfeit)))
    current.log = log
    current.steps.append(engine.Step(record, Action(record.seq, record.type, record.by, None, seq), outcome))
    return record
