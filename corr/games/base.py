"""What every game provides, and the small values it exchanges with the engine.

A game is a subclass of `Game` over a state type of its own (python-chess's variants
and OpenSpiel's State are the models): class-level metadata, and a few hooks. It never
touches files, seq numbers or clocks: it gets an `Action` (a record with its move
already parsed), checks it against the rules, changes its state and says what happened
in an `Outcome`; time comes in as `now` where a game keeps its own. The engine owns the
log and asks the game for the rest; the seat view (`corr.seatview`) is the only one to
ask what a seat sees.

The hooks every game implements:

    initial, clone           the start, and an independent copy of a state
    on_turn                  who may act now: seats, or the dealer
    legal_moves              the moves of the seat on turn
    apply                    an action checked and applied, its outcome
    result                   over, winners, scores
    board, view              the cells and everything else a viewer may see
    state_key                the position as its hash covers it

and those with defaults a game overrides where it differs: `automatic` (records it
makes by itself: a pass, the dealer's reveal), `shows` (which records a seat may
read), `public_key`/`sealed_key` (what is hidden in a duel), `claim_for` (what a move
misses for want of a claim mark), `check` and `moved_cells` (a referee's second look), the rules cited for turns and the end, the dealer's deal
(`is_hidden`, `dealt_options`, `without_deal`, `whole_view`) and matches.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from functools import lru_cache
from typing import Any, Callable, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from corr.errors import IllegalMove, UsageError
from corr.notation import Move


class Option(NamedTuple):
    """A rule option: default, allowed values (None: free text checked by the game), help;
    a required option has no default a game could start with."""

    default: str
    choices: tuple[str, ...] | None
    help: str
    required: bool = False


@dataclass(slots=True)
class Action:
    """A record as the game sees it (not frozen: replay makes one per record, and
    frozen construction costs four times as much)."""

    seq: int
    type: str
    by: str
    move: Move | None = None
    target: int | None = None
    at: str | None = None  # the record's time, for games with a clock of their own


@dataclass(frozen=True, slots=True)
class Outcome:
    """What applying one action did, for logs, audits and referees.

    The engine, audit, log text and templates know an outcome only through the methods
    below; what a move means (a conquest, a score) is the game's, which subclasses this
    with fields of its own.
    """

    illegal: IllegalMove | None = None  # as-written: the rule this move broke
    verdict: str | None = None  # a challenge's: "upheld" or "rejected"
    events: tuple[str, ...] = ()  # human-readable notes

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by its fields, as the class takes them: a kept position (the engine's
        checkpoint) holds one outcome per record, and the default way costs a lookup of
        the fields for each."""
        return type(self), tuple(getattr(self, f.name) for f in fields(self))

    def told(self) -> tuple[str, ...]:
        """What every seat is told the action did: `conquers 3`, `scores 4`."""
        return ()

    def untold(self) -> tuple[str, ...]:
        """What the action did that the players are left to notice while the game runs
        (`misses 8`): shown once the game is over, and always in audits."""
        return ()

    def gained(self) -> tuple[int, ...]:
        """What an upheld challenge takes back from the mover (as-written games)."""
        return ()

    def findings(self) -> tuple[tuple[str, str], ...]:
        """(kind, detail) pairs an audit reports about this action."""
        return ()

    def highlights(self) -> dict[str, dict[str, Any]]:
        """Audit report lists this action belongs to, with its entry: {"conquests": {"fields": [3]}}."""
        return {}


Resolve = Callable[[Any, dict[str, str]], dict[str, str]]


def resolved_once(resolve: Resolve) -> Resolve:
    """A game's `resolve_options` remembered per class and options as given: every log
    read resolves its header's, most games share a few, and a puzzle's or a deck's
    checks cost more than a short game's records. A refusal is not remembered, and each
    caller gets a dict of its own."""
    remembered = lru_cache(maxsize=64)(lambda cls, given: resolve(cls, dict(given)))

    def resolve_options(cls: Any, given: dict[str, str]) -> dict[str, str]:
        return dict(remembered(cls, tuple(given.items())))
    return resolve_options


#: What most moves do: nothing a log or referee needs told.
QUIET = Outcome()


class BotView(Protocol):
    """What a game's computer opponent reads of its seat's view (`corr.seatview.SeatView`):
    never the replay, another seat's hand, the pile or the dealer's secret."""

    @property
    def seat(self) -> str | None: ...
    #: the game's rules without any deal
    @property
    def rules(self) -> Game[Any]: ...
    #: the position as the seat sees it (the JSON of `corr show --for SEAT --format json`)
    @property
    def position(self) -> dict[str, Any]: ...
    #: the moves the seat may make now, in the game's order
    @property
    def legal(self) -> list[Move]: ...
    #: a copy of the whole position where the game hides nothing from the seat, else None
    @property
    def state(self) -> Any: ...
    #: the moves and passes the seat may read, as (seq, seat, canonical text)
    @property
    def history(self) -> list[tuple[int, str, str]]: ...


@dataclass(frozen=True)
class Choice:
    """A computer opponent's move, the score it expects (in the game's own units), and why."""

    move: Move
    expect: float
    why: str


class Claim(NamedTuple):
    """What a move leaves untaken for want of a claim (combat 3.5: a conquest counts only
    when its move carries `!`), and how to write it to take everything: a player is
    shown the claim among its moves, and warned before it goes unmade."""

    move: Move  # the move as it must be written to take everything: `7 (5,4) !`
    fields: tuple[int, ...]  # the fields it takes so
    takes: str  # the game's words for that: `conquers field 5`
    misses: str  # and for what the move as asked about leaves: `misses field 5`
    rule: str  # the rule that asks for the claim: `combat 3.5`


class Result(NamedTuple):
    over: bool
    winners: tuple[str, ...]
    scores: dict[str, int]


#: A game's own state type.
S = TypeVar("S")


class Seen(NamedTuple):
    """What a game's `view` answers: the keys of `corr show --format json` it adds for a
    viewer, and what a board marks on its cells."""

    shown: dict[str, Any]
    owners: dict[int, str] = {}  # cell -> the seat it belongs to (boards tint it)
    last_cell: int | None = None  # the cell the newest move changed


class Game(Generic[S]):
    """Base of the games: class-level metadata plus a few hooks over a state `S`."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: other names the game is known by (`corr new sudoku-combat ...`)
    aliases: ClassVar[tuple[str, ...]] = ()
    #: `corr puzzle` commands a module of the game's package serves: {"check": "check"}
    puzzle_tools: ClassVar[dict[str, str]] = {}
    rules: ClassVar[str]  # rules file, for citations: "combat"
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[dict[str, Option]] = {}
    #: record types the game accepts besides the engine's own (comment, ruling, timeout,
    #: vacation)
    record_types: ClassVar[frozenset[str]] = frozenset({"move"})
    #: record types that need the seat to be on turn (checked by the engine)
    turn_types: ClassVar[frozenset[str]] = frozenset({"move", "pass"})
    #: the rule that fixes the order of play, cited when a seat moves out of turn
    turn_rule: ClassVar[str] = ""
    #: hidden information (DESIGN 6): the game has a dealer, who commits to a secret
    #: seed in the header and reveals it in a `reveal` record when the game ends
    hidden: ClassVar[bool] = False
    #: what the dealer keeps secret, in the game's own words: "the legal moves of X
    #: depend on {secret}"
    secret: ClassVar[str] = "hidden information"
    #: what the revealed seed lets every copy check, in the game's own words
    deal_checked: ClassVar[str] = "everything dealt matches the commitment"
    #: the audit report lists a game's outcomes fill (see Outcome.highlights)
    highlight_lists: ClassVar[tuple[str, ...]] = ()
    #: record types only the dealer makes
    dealer_types: ClassVar[frozenset[str]] = frozenset()
    #: every seat plays a board of its own (Domino): a command shows the mover its own
    own_boards: ClassVar[bool] = False
    #: the game keeps time itself (domino 6) and takes no correspondence time control
    own_clock: ClassVar[bool] = False
    #: the header's `created` time, set by the engine: a game clock starts there
    created: str | None = None

    def __init__(self, options: dict[str, str], seats: list[str], seed: str | None = None) -> None:
        self.opts = options
        self.seats = seats
        #: the dealer's seed where it is known (the dealer's copy, or any copy after the
        #: reveal); None on a player's copy before the reveal
        self.seed = seed

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

    # --- the hooks every game implements ---------------------------------------------
    def initial(self) -> S:
        """The position before the first record."""
        raise NotImplementedError

    def clone(self, state: S) -> S:
        """A copy of `state` that changes independently of it."""
        raise NotImplementedError

    def on_turn(self, state: S) -> tuple[str, ...]:
        """Every seat that may act now by the records: one in turn-based games, several
        in a Domino duel (each seat plays its own board at its own pace), the dealer when
        only its reveal is left; () when the game is over."""
        raise NotImplementedError

    def legal_moves(self, state: S) -> list[Move]:
        """The moves the seat on turn may make."""
        raise NotImplementedError

    def apply(self, state: S, action: Action) -> Outcome:
        """Check an action against the rules and apply it to `state` in place; raises
        the IllegalMove of the rule it breaks."""
        raise NotImplementedError

    def result(self, state: S, now: datetime | None = None) -> Result:
        """Whether the game is over at `now`, who won, and every seat's score."""
        raise NotImplementedError

    def board(self, state: S, viewer: str | None = None, now: datetime | None = None) -> list[int]:
        """The 81 cells, 0 for empty, as `viewer` sees them (None: the public); one board
        everyone sees in every game but a Domino duel."""
        raise NotImplementedError

    def view(self, state: S, viewer: str | None, now: datetime | None = None) -> Seen:
        """Everything beyond the cells that `viewer` (None: the public) may see at `now`:
        the one place a game says what is hidden from whom. `corr.seatview` asks it for
        every board, log, mail and bot."""
        raise NotImplementedError

    def state_key(self, state: S) -> bytes:
        """A canonical encoding of the position as format 1 hashed it into each record's
        `state`; in every game but Domino that is the public position, as `public_key`."""
        raise NotImplementedError

    # --- hooks with defaults -----------------------------------------------------------
    def to_move(self, state: S, now: datetime | None = None) -> str | None:
        """The first that may act at `now` (the dealer when only its record is left),
        None when the game is over."""
        seats = self.on_turn(state)
        return seats[0] if seats else None

    def legal_for(self, state: S, seat: str) -> list[Move]:
        """The moves `seat` may make now: the legal moves when it is on turn."""
        return self.legal_moves(state) if seat in self.on_turn(state) else []

    def example_for(self, state: S, seat: str) -> Move | None:
        """The move a message to `seat` shows the notation by: the first of its legal
        moves (`legal_for`) that keeps the main rule (`check`), else the first; None when
        it has none. A game whose legal moves are many may find it without listing them."""
        legal = self.legal_for(state, seat)
        return next((m for m in legal if self.check(state, m, seat) is None), legal[0] if legal else None)

    def automatic(self, state: S, now: datetime | None = None) -> list[tuple[str, str]]:
        """(type, seat) records the game makes by itself at `now`: after a record (a seat
        that can place nothing more passes, the dealer reveals the deal at the end) and
        once time alone makes one due (Domino's limit, 6.1). The engine appends the
        first, then asks again."""
        return []

    def disclose(self, state: S) -> None:
        """The dealer's reveal after a timeout or forfeit ended the game outside its own
        rules: what the game hides until its end is hidden no longer. Most games read
        their end off the board alone, so there is nothing to do."""

    def due_at(self, state: S) -> datetime | None:
        """The instant from which time alone may give `automatic` something to do; None
        when it never does."""
        return None

    def shows(self, state: S, by: str, seat: str | None, now: datetime | None = None) -> bool:
        """Whether `seat` (None: the public) may read a record made by `by`: records are
        public in every game but a running Domino duel, where one board's moves would
        give away the digits to come (domino 1.2)."""
        return True

    def public_key(self, state: S) -> bytes:
        """A canonical encoding of the public view; its SHA-256 is each record's `state`.
        Nothing hidden goes in: a player's copy must reach the same bytes, and the hash
        must not let anyone guess a hidden card (the commitment binds those)."""
        return self.state_key(state)

    def sealed_key(self, state: S, seat: str) -> bytes | None:
        """A canonical encoding of what `seat` has that the public does not see yet (a
        running Domino duel's board), or None: the engine seals it into the record with
        a hash salted from the dealer's seed, revealed with it."""
        return None

    def claim_for(self, state: S, move: Move) -> Claim | None:
        """What `move`, written as it is, would leave untaken in `state` that a claim
        would take (combat 3.5), or None: it misses nothing, cannot be made, or the game
        has no claims (every game but Combat)."""
        return None

    def check(self, state: S, move: Move, seat: str | None = None) -> IllegalMove | None:
        """The main-rule break `move` by `seat` would make in `state`, judged afresh (the
        referee's second look, a safe example move), or None. Raises for moves that
        cannot be made at all."""
        return None

    def moved_cells(self, move: Move) -> tuple[int, ...]:
        """The cells a move names, for a referee's report (a placement: its cell)."""
        cell = getattr(move, "cell", None)
        return () if cell is None else (cell,)

    def end_rule(self, state: S) -> str:
        """The rule that ended the game, cited when an action comes after the end."""
        return ""

    def turn_rule_for(self, state: S) -> str:
        """The rule a seat out of turn breaks in this position (Moyo: its draft or its
        handicap stones have orders of their own); most games: `turn_rule`."""
        return self.turn_rule

    # --- the dealer's deal (DESIGN 6); games without hidden information keep these -----
    @classmethod
    def is_hidden(cls, options: dict[str, str]) -> bool:
        """Whether a game with these (resolved) options hides information: most games
        always or never do; Domino only without a public seed."""
        return cls.hidden

    @property
    def dealt(self) -> bool:
        """Whether this copy knows the hidden state (always, for games without it)."""
        return not self.hidden or self.seed is not None

    @classmethod
    def dealt_options(cls, options: dict[str, str], seed: str | None) -> dict[str, str]:
        """A new game's options with what the dealer's seed fixes in public (Domino's
        start); most games add nothing."""
        return options

    def without_deal(self) -> Game[S]:
        """The game's rules without any deal: what a computer opponent may reason with
        (the options, the seats, the deck's make-up; never the order of a pile)."""
        rules = type(self)(self.opts, self.seats, None)
        rules.created = self.created
        return rules

    def whole_view(self, seat: str) -> bool:
        """Whether `seat` may see the whole state: in games that hide nothing. A
        computer opponent then gets a copy to try moves on."""
        return not self.hidden

    # --- matches (moyo 4.3); games without them keep these defaults --------------------
    @classmethod
    def revenge_options(cls, options: dict[str, str]) -> dict[str, str]:
        """The options of a finished game's rematch: the same game with every role swapped.
        A match is exactly a game and its revenge, so two games make a match only when
        one's options are the other's `revenge_options`."""
        raise UsageError(f"{cls.title} has no revenge games")

    def match_points(self, state: S, forfeit: str | None = None) -> dict[str, Any]:
        """What a finished game adds to the match, as JSON-ready {what: {seat: n}}
        (Moyo: {"victory_points": {"A": 0, "B": 3}}). `forfeit` is the seat that lost by
        a timeout or a ruling (the position knows it, the state does not)."""
        raise UsageError(f"{self.title} has no matches")

    def match_winners(self, points: list[dict[str, Any]]) -> dict[str, Any]:
        """The match from each game's `match_points`: {"total": {seat: n}, "unit": ...,
        "winners": [...] (all seats: a draw), "decided_by": "..."}."""
        raise UsageError(f"{self.title} has no matches")

    # --- helpers a game may use ----------------------------------------------------------
    def most_points(self, scores: dict[str, int], over: bool) -> Result:
        """The result of a game where the most points win and equal totals share the win
        (combat 5.3, cards 5.3)."""
        if not over:
            return Result(False, (), scores)
        best = max(scores.values())
        return Result(True, tuple(s for s in self.seats if scores[s] == best), scores)
