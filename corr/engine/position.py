"""A game replayed up to some seq: the game, its state, every step taken, and the time
it is judged at.

A position is the engine's: it holds the game's whole state, hidden parts included
(the dealer's copy knows every hand). Outside the engine only the seat view
(`corr.seatview`) reads it, and decides what of it a seat or the public may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import AbstractSet, Any

from corr import clock
from corr.games.base import QUIET, Action, Game, Outcome, Result
from corr.log.lines import Header, Record
from corr.log.store import GameLog


@dataclass(slots=True)
class Step:
    """One replayed record with the action it carried and what it did."""

    record: Record
    action: Action
    outcome: Outcome
    voided: bool = False  # set aside by a ruling: it stays in the log, the game ignores it


#: What `Position.steps` holds in place of a step a replay handed over and forgot
#: (`corr.engine.replay.Settler`): one shared value, so a long log's steps cost a pointer each.
SETTLED = Step(Record(0, "settled", "", "", "", ""), Action(0, "settled", ""), QUIET)


@dataclass
class Position:
    """A log replayed up to some seq: the game, the position, and every step taken."""

    log: GameLog
    game: Game
    state: Any
    steps: list[Step] = field(default_factory=list)
    forfeit: str | None = None  # the seat that lost by a timeout record or a ruling
    forfeit_cause: str = "on time"  # or "by a ruling"
    voided: AbstractSet[int] = frozenset()  # seqs a ruling set aside
    #: seq -> (state, forfeit, cause) just before that record, kept for the records void
    #: rulings of the log name: a void rebuilds the position from there, not from the start
    snapshots: dict[int, tuple[Any, str | None, str]] = field(default_factory=dict)
    void_targets: frozenset[int] = frozenset()
    #: seat -> what the dealer told that seat (its hand), on a player's copy that
    #: cannot deal; the seat view shows it to that seat only
    private: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the time the position is judged at, and new records are made at: a game with a
    #: clock of its own (Domino) is over once it has passed its limit. None: the time
    #: of asking (`corr.clock`), so a table kept open follows the clock
    now: datetime | None = None
    #: whether `voided` is this position's own set, which a void ruling may change in
    #: place (`corr.engine.rulings.rebuild`); a set handed in is copied the first time
    owns_voided: bool = field(default=False, repr=False, compare=False)

    def when(self) -> datetime:
        """The time the position is judged at now."""
        return self.now if self.now is not None else clock.now()

    def to_move(self) -> str | None:
        """The seat on turn, None when the game is over (also by a timeout, a forfeit or
        the game's own clock); in a Domino duel the first of the seats that may move."""
        return None if self.forfeit else self.game.to_move(self.state, self.when())

    def on_turn(self) -> tuple[str, ...]:
        """Every seat that may act now by the records (the dealer too); () when the game
        is over."""
        return () if self.forfeit else self.game.on_turn(self.state)

    def result(self) -> Result:
        """The game's result; a timeout or forfeit ends it, the best of the other seats winning."""
        result = self.game.result(self.state, self.when())
        if self.forfeit is None:
            return result
        others = [s for s in self.game.seats if s != self.forfeit]
        best = max(result.scores.get(s, 0) for s in others)
        return Result(True, tuple(s for s in others if result.scores.get(s, 0) == best), result.scores)

    def reads(self, by: str, seat: str | None) -> bool:
        """Whether `seat` (None: the public) may read a record made by `by` now (every
        record, but in a running Domino duel another board's)."""
        return self.game.shows(self.state, by, seat, self.when())

    def visible(self, seat: str | None) -> list[Step]:
        """The replayed steps `seat` (None: the public) may read: all of them but in a
        running Domino duel."""
        return [step for step in self.steps if self.reads(step.record.by, seat)]

    def last_seen(self, seat: str | None) -> Step | None:
        """The newest step `seat` may read (in most games the newest step)."""
        for step in reversed(self.steps):
            if self.reads(step.record.by, seat):
                return step
        return None

    def seen_seq(self, seat: str | None) -> int:
        """The seq of the newest record `seat` may read (0 before any): what the seat's
        view is of, and what its answer to that view answers."""
        step = self.last_seen(seat)
        return step.record.seq if step is not None else 0

    def standing(self, upto: int | None = None) -> list[Record]:
        """The records before index `upto` (all replayed ones by default) that no ruling
        voided: what clocks are judged on."""
        records = self.log.records[: len(self.steps) if upto is None else upto]
        if not self.voided:
            return records
        return [r for r in records if r.seq not in self.voided]

    def open_challenge(self) -> Any:
        """The move a challenge can still reach (as-written games: the newest, until the
        next move is recorded), or None; a forfeit ends every challenge with the game."""
        return None if self.forfeit is not None else getattr(self.state, "last", None)

    def check(self, move: Any, by: str | None = None) -> Any:
        """The main-rule break `move` by `by` would make here, judged afresh by the game
        (a referee's second look), or None."""
        return self.game.check(self.state, move, by)

    def match_points(self) -> dict[str, Any]:
        """What this finished game adds to a match (moyo 4.3), counted from the position
        at its end (a forfeit: at that moment)."""
        return self.game.match_points(self.state, self.forfeit)

    @property
    def seq(self) -> int:
        return self.steps[-1].record.seq if self.steps else 0

    @property
    def seats(self) -> list[str]:
        """The seat letters, A first."""
        return self.game.seats

    @property
    def header(self) -> Header:
        return self.log.header

    @property
    def path(self) -> Path:
        return self.log.path
