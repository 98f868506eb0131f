"""The tabletop rule for illegal moves (`mode=as-written`), shared by the games that have it.

SUDOKU-Combat (combat 4.1) and the card game (cards 4.1) have the same rule: a move that
breaks the main rule is recorded as made and nobody is told; any other player may
challenge it until the next move is recorded; not challenged in time, it stands for
good. Only the penalty of an upheld challenge differs from game to game. This mixin owns
the window and its timing; the game supplies `take_back`, the penalty.

A referee's ruling that upholds a challenge the log could not take (it came too late by
the log, in time by the referee) applies the same penalty through `uphold`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from corr.errors import IllegalMove
from corr.games.base import Action, Outcome
from corr.notation import Move


@dataclass(frozen=True, slots=True)
class Window:
    """The newest move, open to a challenge until the next move is recorded. Frozen: a
    cloned state shares it with the state it was cloned from (a replay's snapshot before
    a record, which a void ruling rebuilds from), so a challenge replaces it instead of
    marking it."""

    seq: int
    by: str
    move: Move
    credited: tuple[int, ...]  # what the move won that an upheld challenge revokes
    illegal: IllegalMove | None
    challenged: bool = False


class AsWritten:
    """Challenges of the newest move for a game with `mode=as-written`.

    The game's state has an attribute `last` (a Window or None); the game calls `open`
    after every move and implements `take_back`.
    """

    #: the rule that gives the challenge, cited in every refusal: "combat 4.1"
    challenge_rule: ClassVar[str]
    #: what a move is called, and the rule an illegal one breaks, for the messages
    move_word: ClassVar[str] = "move"
    main_rule: ClassVar[str] = "the main rule"
    #: what an upheld challenge did, in a referee's report: "the tile went back to the supply"
    upheld_words: ClassVar[str] = "the move was taken back"
    opts: dict[str, str]
    seats: list[str]

    @property
    def as_written(self) -> bool:
        return self.opts.get("mode") == "as-written"

    def open(self, state: Any, action: Action, credited: tuple[int, ...], illegal: IllegalMove | None) -> None:
        """The move just made is the one a challenge can reach (strict games: none)."""
        if self.as_written:
            state.last = Window(action.seq, action.by, action.move, credited, illegal)  # type: ignore[arg-type]

    def take_back(self, state: Any, window: Window, challenger: str) -> str:
        """The game's penalty for an upheld challenge; returns what it did, in words."""
        raise NotImplementedError

    def moved(self, window: Window) -> str:
        """The challenged move in words."""
        return str(window.move)

    def challenge(self, state: Any, action: Action) -> Outcome:
        """A challenge of the newest move: refused when there is none or it is too late;
        rejected when the move kept the rules; upheld (with the game's penalty) when not."""
        rule = self.challenge_rule
        if not self.as_written:
            raise IllegalMove(rule, f"challenges exist only with mode=as-written; strict games refuse illegal {self.move_word}s")
        last: Window | None = state.last
        if last is None:
            raise IllegalMove(rule, f"there is no {self.move_word} to challenge")
        if action.target is not None and action.target != last.seq:
            raise IllegalMove(
                rule, f"too late to challenge seq {action.target}: the next move (seq {last.seq}) has been recorded"
            )
        if action.by == last.by:
            raise IllegalMove(rule, f"a player cannot challenge their own {self.move_word}")
        if last.challenged:  # decided: the same question again would only grow the log
            raise IllegalMove(rule, f"seq {last.seq} was challenged already, and the challenge rejected")
        if last.illegal is None:
            state.last = replace(last, challenged=True)
            return Outcome(verdict="rejected", events=(f"challenge rejected: {self.moved(last)} keeps {self.main_rule}",))
        state.last = None
        done = self.take_back(state, last, action.by)
        return Outcome(verdict="upheld", events=(f"challenge upheld ({last.illegal.rule}): {done}",))

    def uphold(self, state: Any, window: Window, challenger: str) -> Outcome:
        """A referee's ruling: the penalty of an upheld challenge for an illegal move that
        stood, applied now. Refused for a move that kept the rules."""
        if window.illegal is None:
            raise IllegalMove(
                self.challenge_rule, f"seq {window.seq} ({self.moved(window)}) kept {self.main_rule}: nothing to uphold"
            )
        if state.last is not None and state.last.seq == window.seq:
            state.last = None
        done = self.take_back(state, window, challenger)
        return Outcome(verdict="upheld", events=(f"challenge upheld ({window.illegal.rule}): {done}",))
