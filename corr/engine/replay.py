"""Replay: a log rebuilt record by record, each judged against the rules and held to its
hashes and signature (DESIGN 2).

A game with hidden information is dealt from the log's reveal, else from the dealer's
secret where this copy has it; without either, only the public position is replayed
(and checked: the state hashes cover nothing else, and a seal waits for the seed).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Callable, TypeVar

from corr.engine import dealer, hashes, keys
from corr.engine.header import make_game
from corr.engine.judge import check_turn, judge
from corr.engine.position import SETTLED, Position, Step
from corr.errors import CorrError, CorruptLog, NotationError
from corr.games.base import Action, Game
from corr.log.lines import Record
from corr.log.store import GameLog
from corr.notation import canonical

P = TypeVar("P", bound=Position)
#: The records a replay treats apart: rulings (one names a record to keep; a void
#: judges records again) and reveals (a second one is refused).
APART = frozenset({"ruling", "reveal"})


def replay(
    log: GameLog,
    upto: int | None = None,
    each: Callable[[Position], None] | None = None,
    *,
    cls: type[P] = Position,  # type: ignore[assignment]
    now: datetime | None = None,
    settled: Callable[[Step], None] | None = None,
) -> P:
    """Rebuild the position record by record, checking each against the rules, its
    hashes and its signature; raises CorruptLog at the first record that does not hold.
    `each`, if given, sees the position at every step on the way (seq 0 first), in one
    pass. `now` is the time the position is judged at afterwards (the game's own clock).

    `settled`, if given, is handed each step in seq order as soon as no later ruling of
    the log can change it, and the position then forgets it (`Settler`): a walk over
    every step in memory that stays flat however long the log is (`corr audit`)."""
    game = make_game(log.header, dealer.seed_for(log))
    position = cls(log, game, game.initial(), now=now)
    apart = [r for r in log.records if r.type in APART]  # few, found in one pass over the records
    position.void_targets = frozenset(
        r.target for r in apart if r.type == "ruling" and r.move == "void" and r.target is not None
    )
    records = log.records if upto is None else [r for r in log.records if r.seq <= upto]
    if settled is not None:
        settler = Settler(position, records, settled, apart if upto is None else [r for r in apart if r.seq <= upto])
        each = settler.after(each)
    if each is not None:
        each(position)
    run(position, records, 0, each)
    if settled is not None:
        settler.finish()
    return position


class Settler:
    """Hands a replay's steps over as they settle, and keeps only what rulings still need.

    A step settles once the replay has passed every void ruling that would judge it
    again (`rulings.rejudged`: from the first record whose standing the ruling changes
    to the ruling itself). Handed over, it is replaced in `Position.steps` by `SETTLED`
    unless a ruling names it (a void keeps what it did on view, an uphold reads its
    move) or it is a reveal (a second one is refused), or it is the newest (`seq`); the
    snapshots go after each void ruling but those a later one starts from."""

    def __init__(self, position: Position, records: list[Record], settled: Callable[[Step], None],
                 apart: list[Record] | None = None) -> None:
        """`apart`: the rulings and reveals of `records`, where the caller has them."""
        from corr.engine import rulings

        self.position, self.settled = position, settled
        self.done = 0  # steps handed over
        self.dropped = 0  # steps before this index are handed over and forgotten (or kept)
        if apart is None:
            apart = [r for r in records if r.type in APART]
        self.keep = {r.target for r in apart if r.type == "ruling"} | {r.seq for r in apart if r.type == "reveal"}
        #: seq -> the seq of the last void ruling that judges it again
        self.hold: dict[int, int] = {}
        #: void ruling's seq -> the seq its rebuild starts from; start -> rulings yet to use it
        self.starts: dict[int, int] = {}
        self.uses: dict[int, int] = {}
        for record in apart:
            if record.type == "ruling" and record.move == "void":
                first = rulings.rejudged(records, record.seq - 1)  # records[i] is the record of seq i + 1
                for seq in range(first, record.seq):
                    self.hold[seq] = record.seq
                self.starts[record.seq] = first
                self.uses[first] = self.uses.get(first, 0) + 1
        self.unruled = not self.starts  # no void ruling: every step settles as it is made

    def after(self, each: Callable[[Position], None] | None) -> Callable[[Position], None]:
        """`each` followed by handing over what the newest step settled."""
        if self.unruled:
            return self._unruled(each)

        def step(position: Position) -> None:
            if each is not None:
                each(position)
            self.settle()
        return step

    def _unruled(self, each: Callable[[Position], None] | None) -> Callable[[Position], None]:
        """`after` for a log without void rulings: each step settles as the replay makes
        it, one a record, and the one before it is forgotten unless kept - what `settle`
        does then, without its bookkeeping (it runs once per record of every audit)."""
        steps, settled, keep = self.position.steps, self.settled, self.keep

        def step(position: Position) -> None:
            if each is not None:
                each(position)
            end = len(steps)
            if end:
                settled(steps[end - 1])
                if end > 1 and end - 1 not in keep:
                    steps[end - 2] = SETTLED
        return step

    def settle(self, held_too: bool = False) -> None:
        """Hand over the steps settled now (`held_too`: every step left), and forget them.
        Runs once per record: the step at index i is the record of seq i + 1."""
        steps = self.position.steps
        end = len(steps)
        hold, settled, done = self.hold, self.settled, self.done
        if held_too or not hold:
            while done < end:
                settled(steps[done])
                done += 1
        else:
            while done < end and hold.get(done + 1, 0) <= end:
                settled(steps[done])
                done += 1
        self.done = done
        keep, dropped = self.keep, self.dropped
        last = min(done, end - 1)  # the newest stays: `Position.seq`
        while dropped < last:
            if dropped + 1 not in keep:
                steps[dropped] = SETTLED
            dropped += 1
        self.dropped = dropped
        start = self.starts.pop(end, None)
        if start is not None:  # a void ruling: the snapshots no later one starts from go
            uses, snapshots = self.uses, self.position.snapshots
            uses[start] -= 1
            for kept in [k for k in snapshots if not uses.get(k)]:
                del snapshots[kept]

    def finish(self) -> None:
        """Hand over what is left: the steps held for rulings past the replayed ones."""
        if not self.unruled:  # else none is left
            self.settle(held_too=True)


def run(position: Position, records: list[Record], start: int,
        each: Callable[[Position], None] | None = None) -> None:
    """Judge `records` (the log's records from index `start` on) one after another on
    `position`, as `replay` does, and keep each step."""
    log, game = position.log, position.game
    header = log.header
    version = header.corr
    # Runs once per record of every log read: locals only, the hash inlined.
    add_step = position.steps.append
    state_hash = hashes.state_hash
    # the state hash inlined for the common case (no forfeit): the key's bytes, hashed
    public_key = game.public_key if version >= 2 and type(game).public_key is not Game.public_key else game.state_key
    sha256 = hashlib.sha256
    signers = keys.signers(header)
    signed = any(signers.values())
    sealed = version >= 2 and len(game.seats) > 1 and game.sealed_key(position.state, game.seats[0]) is not None
    targets = position.void_targets
    snapshots = position.snapshots
    clone = game.clone
    game_apply = game.apply
    authors = keys.authors(header)
    # a move by a seat on turn passes every check `check_turn` makes, where the game takes
    # moves in turn and the dealer makes none: only other moves need it
    on_turn = game.on_turn if "move" in game.record_types and "move" in game.turn_types \
        and "move" not in game.dealer_types else None
    seats = frozenset(game.seats)
    for index, record in enumerate(records, start):
        # one unpacking instead of a field lookup at each use
        seq, kind, by, at, _, state, text, _, _, sig, _, seal = record
        if by not in authors:
            raise CorruptLog(f"{log.path}: seq {seq} is by {by!r}, who has no part in this game "
                             f"(its records are made by {', '.join(sorted(authors))})", seq=seq, kind="by")
        if targets and seq in targets:
            snapshots[seq] = (clone(position.state), position.forfeit, position.forfeit_cause)
        if signed:
            signer = signers.get(by)
            if signer is not None or sig is not None:  # a record nobody signs, carrying nothing: nothing to check
                check_signature(log, record, signer)
        elif sig is not None:  # a signature nobody can check would be a second encoding
            raise CorruptLog(f"{log.path}: seq {seq} carries a signature, but {by} signs with no key",
                             seq=seq, kind="signature")
        try:
            if kind == "move" and position.forfeit is None and text is not None:
                # judge's own path for a move while the game goes on, without its layers
                action = Action(seq, "move", by, canonical(text), None, at)
                if on_turn is None or by not in seats or by not in on_turn(position.state):
                    check_turn(game, position.state, action)
                outcome = game_apply(position.state, action)
            else:
                action, outcome = judge(position, record, index)
        except NotationError as err:
            raise CorruptLog(f"{log.path}: seq {seq}: {err}", seq=seq, kind="notation") from None
        except CorrError as err:
            raise CorruptLog(
                f"{log.path}: seq {seq} ({kind} {text or ''} by {by}) breaks the rules: {err}",
                seq=seq,
                kind="illegal",
            ) from None
        # the position as it now stands: a ruling that voids a record rebuilds it
        forfeit = position.forfeit
        if (sha256(public_key(position.state)).hexdigest() if forfeit is None
                else state_hash(game, position.state, forfeit, version)) != state:
            raise CorruptLog(
                f"{log.path}: seq {seq}: the position after the record does not match its state hash: "
                "the log was edited",
                seq=seq,
                kind="state",
            )
        if sealed or seal is not None:
            check_seal(position, record)
        add_step(Step(record, action, outcome))
        if each is not None:
            each(position)


def check_signature(log: GameLog, record: Record, signer: tuple[str, str] | None) -> None:
    """The record's signature by `signer`, (who, public key) of whoever must sign it
    (`keys.signer_of`); a record that nobody signs must carry none."""
    from corr.identity import verify

    if signer is None:
        if record.sig is not None:
            raise CorruptLog(f"{log.path}: seq {record.seq} carries a signature, but {record.by} signs with no key",
                             seq=record.seq, kind="signature")
        return
    who, public = signer
    try:
        verify(public, log.header.id, record, who)
    except CorruptLog as err:
        raise CorruptLog(f"{log.path}: {err}", seq=err.seq, kind=err.kind) from None


def check_seal(position: Position, record: Record) -> None:
    """The record's seal of its seat's hidden board, where one is due: present, and,
    on a copy that knows the seed, the one the board after it gives."""
    log = position.log
    try:
        expected = hashes.seal(position.game, position.state, record.by, log.header.corr)
    except LookupError:  # due, but this copy has no seed to check it with (until the reveal)
        if record.seal is None:
            raise CorruptLog(f"{log.path}: seq {record.seq}: the record has no seal of {record.by}'s board",
                             seq=record.seq, kind="state") from None
        return
    if record.seal != expected:
        what = "has no seal" if record.seal is None else (
            "carries a seal, but nothing is hidden" if expected is None else "does not match its seal")
        raise CorruptLog(f"{log.path}: seq {record.seq}: the board after the record {what}: the log was edited",
                         seq=record.seq, kind="state")
