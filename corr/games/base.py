"""What every game plug-in provides, and the small values it exchanges with the engine.

A game never touches files, seq numbers or clocks: it gets an `Action` (a record with
its move already parsed), checks it against the rules, changes its state and says what
happened in an `Outcome`. The engine owns the log and asks the game for the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from corr.errors import IllegalMove, UsageError
from corr.notation import Move


class Option(NamedTuple):
    """A rule option: default, allowed values (None: free text checked by the game), help."""

    default: str
    choices: tuple[str, ...] | None
    help: str


@dataclass(slots=True)
class Action:
    """A record as the game sees it (not frozen: replay makes one per record, and
    frozen construction costs four times as much)."""

    seq: int
    type: str
    by: str
    move: Move | None = None
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What applying one action did, for logs, audits and referees."""

    conquered: tuple[int, ...] = ()  # fields credited by this action
    missed: tuple[int, ...] = ()  # fields conquered but not claimed (conquest=claim)
    illegal: IllegalMove | None = None  # as-written: the rule this placement broke
    verdict: str | None = None  # a challenge's: "upheld" or "rejected"
    events: tuple[str, ...] = ()  # human-readable notes


#: What most moves do: nothing a log or referee needs told.
QUIET = Outcome()


class Result(NamedTuple):
    over: bool
    winners: tuple[str, ...]
    scores: dict[str, int]


class Game:
    """Base of the game plug-ins: class-level metadata plus a few hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules: ClassVar[str]  # rules file, for citations: "combat"
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[dict[str, Option]] = {}
    #: record types the game accepts besides the engine's own (comment)
    record_types: ClassVar[frozenset[str]] = frozenset({"move"})
    #: record types that need the seat to be on turn (checked by the engine)
    turn_types: ClassVar[frozenset[str]] = frozenset({"move", "pass"})
    #: the rule that fixes the order of play, cited when a seat moves out of turn
    turn_rule: ClassVar[str] = ""

    def __init__(self, options: dict[str, str], seats: list[str]) -> None:
        self.opts = options
        self.seats = seats

    @classmethod
    def resolve_options(cls, given: dict[str, str]) -> dict[str, str]:
        """Defaults filled in, unknown keys and bad values refused."""
        resolved: dict[str, str] = {}
        for key in given:
            if key not in cls.options:
                known = ", ".join(sorted(cls.options)) or "none"
                raise UsageError(f"{cls.name} has no option {key!r} (options: {known})")
        for key, opt in cls.options.items():
            value = given.get(key, opt.default)
            if opt.choices is not None and value not in opt.choices:
                raise UsageError(f"option {key}={value!r} is not one of: {', '.join(opt.choices)}")
            resolved[key] = value
        return resolved

    # --- hooks every game implements -------------------------------------------------
    def initial(self) -> Any:
        raise NotImplementedError

    def to_move(self, state: Any) -> str | None:
        raise NotImplementedError

    def apply(self, state: Any, action: Action) -> Outcome:
        """Check an action against the rules and apply it to `state` in place."""
        raise NotImplementedError

    def auto_actions(self, state: Any) -> list[tuple[str, str]]:
        """(type, seat) records the engine appends by itself after a move, e.g. passes."""
        return []

    def legal_moves(self, state: Any) -> list[Move]:
        raise NotImplementedError

    def result(self, state: Any) -> Result:
        raise NotImplementedError

    def state_key(self, state: Any) -> bytes:
        """A canonical encoding of the position; its SHA-256 is each record's `state`."""
        raise NotImplementedError

    def clone(self, state: Any) -> Any:
        raise NotImplementedError

    def board(self, state: Any) -> list[int]:
        """The 81 cells, 0 for empty (a digit otherwise), as the seat-neutral view shows them."""
        raise NotImplementedError

    def describe(self, state: Any) -> dict[str, Any]:
        """Game-specific keys for `show --format json` and the templates."""
        return {}
