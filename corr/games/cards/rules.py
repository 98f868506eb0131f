"""СуДоку, the card-scoring game (docs/rules/cards.md): lay the card you hold, score the cards
already in its block, row and column.

Rule numbers in messages and comments refer to docs/rules/cards.md. The pile and the hands
are hidden (6.1): the game is dealt from the dealer's seed (corr.engine.dealer), which only the
dealer's copy knows until the reveal. Everything else - the board, every score, the
track, who holds a card, how many cards the pile has left - is public, and that is all
`state_key` (the records' state hash) covers.
"""

from __future__ import annotations

from datetime import datetime
import re
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from corr.games.dealing import DEALER, shuffles
from corr.counts import counted
from corr.errors import IllegalMove, UsageError
from corr.games.aswritten import AsWritten, Window
from corr.games.base import Action, Game, Option, Outcome, Result, Seen, resolved_once
from corr.games.grid import Grid, givens, sudoku_break
from corr.geometry import COL_CELLS, FIELD_CELLS, FIELD_OF, ROW_CELLS, name, with_article
from corr.notation import Move, Placement
from corr.puzzles.appendix import parse_puzzle, puzzle_text

TRACK = 40  # 3.2: steps of the score track; a lap token is worth 40
_DECK_TERM = re.compile(r"(\d{1,2})x([1-9])(?:-([1-9]))?")
#: 1.2 ruling: nine cards of each digit
DEFAULT_DECK = "9x1-9"


def _scoring_cells(cell: int) -> tuple[int, ...]:
    """3.1: the cells whose cards a card laid on `cell` scores: its block but itself,
    and its row and column outside the block."""
    field = FIELD_OF[cell]
    block = tuple(c for c in FIELD_CELLS[field] if c != cell)
    lines = tuple(c for c in (*ROW_CELLS[cell // 9], *COL_CELLS[cell % 9]) if FIELD_OF[c] != field)
    return block + lines


#: (how many cells a card laid on a cell scores, the cards there read at once) per cell:
#: every record of a card game is scored
_SCORING = [(len(cells), itemgetter(*cells)) for cells in map(_scoring_cells, range(81))]


def parse_deck(text: str) -> list[int]:
    """A deck composition, `9x1-9` or terms like `9x1-9,2x5`, as its cards in order."""
    cards: list[int] = []
    for term in text.replace(" ", "").split(","):
        found = _DECK_TERM.fullmatch(term)
        if not found:
            raise UsageError(f"deck term {term!r} is not NxD or NxA-B (e.g. 9x1-9: nine of each digit 1 to 9)")
        count, low, high = int(found.group(1)), int(found.group(2)), int(found.group(3) or found.group(2))
        if count < 1 or low > high:
            raise UsageError(f"deck term {term!r} names no cards")
        cards += [d for d in range(low, high + 1) for _ in range(count)]
    if len(cards) > 200:
        raise UsageError(f"deck={text!r} has {counted(len(cards), 'card')}; at most 200")
    return cards


@dataclass(frozen=True, slots=True)
class Scored(Outcome):
    """A card laid and what it scored (3.1)."""

    points: int = 0

    def told(self) -> tuple[str, ...]:
        return (f"scores {self.points}",)

    def gained(self) -> tuple[int, ...]:
        return (self.points,)

    def highlights(self) -> dict[str, dict[str, Any]]:
        return {"scores": {"points": self.points}} if self.points else {}


#: What a card that keeps the rule does, one shared value per score (outcomes are
#: frozen): a card scores at most the 20 cells of its block, row and column (3.1)
_SCORED = {points: Scored(points=points) for points in range(21)}


@dataclass
class CardsState:
    grid: Grid
    points: list[int]  # per seat index: the sum of its turn scores (3.2)
    holding: list[bool]  # per seat index: holds a card (public; which card is not)
    hands: list[int]  # per seat index: the card held, 0 for none; all 0 on an undealt copy
    turn: int = 0
    drawn: int = 0  # cards taken from the pile, the initial hands included (1.2, 2.3)
    removed: int = 0  # cards taken out of the game by upheld challenges (4.1)
    last: Window | None = None  # the card a challenge can still reach (4.1)
    ending: str = ""  # why the game ends, once that is public; the dealer's reveal follows
    over: bool = False
    last_cell: int | None = None
    #: end=pile: the seat whose draw found the pile empty, and so holds no card (5.2). Not
    #: in `holding`, which the state hash covers as logs have always hashed it.
    emptied: int | None = None


class Cards(AsWritten, Game[CardsState]):
    name = "cards"
    title = "СуДоку"
    aliases = ("судоку",)
    rules = "cards"
    min_seats = 2  # 1.4
    max_seats = 6
    options = {
        "deck": Option(DEFAULT_DECK, None, "the cards, e.g. 9x1-9: nine of each digit (1.2)"),
        "puzzle": Option("", None, "cards on the board at the start: appendix puzzle 1-6 or 81 characters; "
                         "default: an empty board (1.2)"),
        "mode": Option(
            "strict",
            ("strict", "as-written"),
            "strict: a card breaking the Sudoku rule is refused; as-written: it stands unless challenged (4.1)",
        ),
        "end": Option(
            "pile",
            ("pile", "hands"),
            "pile: the game ends when a player cannot draw (5.2); hands: the hands are played out (5.2 ruling)",
        ),
    }
    record_types = frozenset({"move", "challenge", "pass", "reveal"})
    turn_types = frozenset({"move", "pass"})
    dealer_types = frozenset({"reveal"})
    secret = "hidden cards"
    deal_checked = "every card dealt matches the commitment"
    turn_rule = "cards 1.3"
    challenge_rule = "cards 4.1"
    move_word = "card"
    upheld_words = "the card left the game and scored nothing"
    main_rule = "the Sudoku rule"
    hidden = True
    highlight_lists = ("scores",)

    def __init__(self, options: dict[str, str], seats: list[str], seed: str | None = None) -> None:
        super().__init__(options, seats, seed)
        self.start = list(givens(options["puzzle"])) if options["puzzle"] else [0] * 81
        self.deck = self.deck_cards(options["deck"], self.start)
        if len(self.deck) < len(seats):
            raise UsageError(
                f"the deck has {counted(len(self.deck), 'card')}, too few to deal one to each of "
                f"{len(seats)} players (1.2)"
            )
        #: the pile in dealing order, where this copy knows the seed: `shuffle(seed, deck,
        #: "deck")`, its draws hashed in one go (every load deals again)
        self.pile = shuffles(seed, [("deck", self.deck)])[0] if seed is not None else None

    @staticmethod
    def deck_cards(deck: str, start: list[int]) -> list[int]:
        """1.2 ruling: the deck less one card for each given already on the board."""
        cards = parse_deck(deck)
        for d in start:
            if d and d in cards:
                cards.remove(d)
        return cards

    @classmethod
    @resolved_once
    def resolve_options(cls, given: dict[str, str]) -> dict[str, str]:
        from corr.puzzles.solver import find_clash  # only new games need it

        opts = super().resolve_options(given)
        cells = parse_puzzle(opts["puzzle"]) if opts["puzzle"] else [0] * 81
        clash = find_clash(cells)
        if clash is not None:
            first, second, unit = clash
            raise UsageError(f"puzzle: the {cells[second]} at {name(second)} breaks the Sudoku rule: another stands "
                             f"at {name(first)} in {unit} (1.2)")
        if opts["puzzle"]:
            opts["puzzle"] = puzzle_text(cells)
        opts["deck"] = opts["deck"].replace(" ", "")
        if not cls.deck_cards(opts["deck"], cells):
            raise UsageError(f"deck={opts['deck']!r} leaves no card to deal")
        return opts

    # --- position -------------------------------------------------------------------
    def initial(self) -> CardsState:
        n = len(self.seats)
        state = CardsState(grid=Grid(self.start), points=[0] * n, holding=[True] * n, hands=[0] * n, drawn=n)
        if self.pile is not None:
            state.hands = self.pile[:n]  # 1.2: each player draws one card, in seat order
        return state

    def clone(self, state: CardsState) -> CardsState:
        return CardsState(
            grid=state.grid.copy(), points=list(state.points), holding=list(state.holding), hands=list(state.hands),
            turn=state.turn, drawn=state.drawn, removed=state.removed, last=state.last, ending=state.ending,
            over=state.over, last_cell=state.last_cell, emptied=state.emptied,
        )

    def on_turn(self, state: CardsState) -> tuple[str, ...]:
        if state.over:
            return ()
        if state.ending:
            return (DEALER,)  # the end is public: the dealer reveals the deal (6.2)
        return (self.seats[state.turn],)

    def state_key(self, state: CardsState) -> bytes:
        # public only: cells, turn, points, who holds a card, the pile's count, the
        # challenge window and the end; never a hand or the order of the pile (6.1)
        last = state.last
        window = "-" if last is None else f"{last.seq}{'c' if last.challenged else ''}"
        holding = "".join(map("01".__getitem__, state.holding))  # True is 1
        points = ",".join(map(str, state.points))
        return state.grid.cell_bytes() + (
            f"|{state.turn}|{points}|{holding}|{state.drawn}|{state.removed}|{window}|{state.ending}"
            f"|{'o' if state.over else ''}"
        ).encode()

    def board(self, state: CardsState, seat: str | None = None, now: datetime | None = None) -> list[int]:
        return state.grid.cells

    def pile_left(self, state: CardsState) -> int:
        return len(self.deck) - state.drawn

    def held(self, state: CardsState, seat: str) -> int | None:
        """The card `seat` holds (0: none) where this copy knows it, else None."""
        if self.pile is None:
            return None
        return state.hands[self.seats.index(seat)]

    # --- moves ----------------------------------------------------------------------
    def legal_moves(self, state: CardsState) -> list[Move]:
        if state.over or state.ending:
            return []
        card = self.held(state, self.seats[state.turn])
        if card is None:
            raise UsageError("the legal moves depend on the hidden cards: only the dealer's copy can list them")
        grid = state.grid
        return [Placement(card, c) for c in range(81) if not grid.cells[c] and grid.fits(c, card)]

    def blocked(self, state: CardsState) -> bool:
        """5.1: the player on turn holds a card for which no free cell is legal (known
        only where the hands are)."""
        if state.over or state.ending or self.pile is None:
            return False
        card = state.hands[state.turn]
        cand = state.grid.cand
        return bool(card) and not any(m >> card & 1 for m in cand)

    def pending(self, state: CardsState) -> bool:
        """4.1 ruling: an end by 5.1 right after a card that can still be challenged does
        not stand yet: a challenge may take the card back and open the game again. The
        seat on turn ends its turn with a challenge or a pass; the window is public, so
        waiting says nothing of whether the card broke the rule."""
        last = state.last
        return (self.as_written and not state.over and not state.ending and last is not None
                and not last.challenged and last.by != self.seats[state.turn])

    def automatic(self, state: CardsState, now: datetime | None = None) -> list[tuple[str, str]]:
        """The dealer reveals the deal as soon as the game is at an end that stands (6.2,
        4.1 ruling: not while the card that caused it can still be challenged)."""
        if not state.over and (state.ending or (self.blocked(state) and not self.pending(state))):
            return [("reveal", DEALER)]
        return []

    def check(self, state: CardsState, move: Move, seat: str | None = None) -> IllegalMove | None:
        """The Sudoku-rule break a card would make (2.1), or None; raises for a card that
        cannot be laid at all (occupied cell)."""
        if not isinstance(move, Placement):
            return None
        grid = state.grid
        if grid.cand[move.cell] >> move.digit & 1:
            return None  # most cards: a candidate of a free cell
        occupant = grid.cells[move.cell]
        if occupant:
            raise IllegalMove("cards 2.1", f"{name(move.cell)} is not free: a {occupant} lies there", (move.cell,))
        return sudoku_break(grid, move.cell, move.digit, "cards 2.1")

    def apply(self, state: CardsState, action: Action) -> Outcome:
        if action.type == "move":
            return self._lay(state, action)
        if action.type == "reveal":
            return self._reveal(state)
        if action.type == "pass":
            return self._pass(state, action.by)
        return self.challenge(state, action)

    def _pass(self, state: CardsState, seat: str) -> Outcome:
        """4.1 ruling, 5.1: the seat on turn holds a card that fits nowhere and does not
        challenge the card before it: its turn ends, so the end stands and the dealer
        reveals. Only then: a seat with a card that fits lays it (a copy without the
        deal takes the pass on trust until the reveal, when every card is checked)."""
        if not self.pending(state):
            raise IllegalMove("cards 5.1", "a pass is only for a card that fits nowhere, while the card before it "
                              "can still be challenged (4.1); the dealer ends the game otherwise")
        card = self.held(state, seat)
        if card is not None and not self.blocked(state):
            raise IllegalMove("cards 2.1", f"{seat}'s {card} fits on a free cell: lay it")
        state.last = None  # the turn has ended: the card before it stands (4.1)
        # public words: a copy without the deal hashes the same state (6.1)
        state.ending = f"{seat} passes: the card held fits on no free cell (5.1)"
        return Outcome(events=(f"{seat} passes: no free cell takes the card held",))

    def _lay(self, state: CardsState, action: Action) -> Outcome:
        move = action.move
        if not isinstance(move, Placement) or move.claim is not None:
            raise IllegalMove("cards 2.1", f"a card is laid like 7 (5,4): the card, then the cell; got {move}")
        seat = action.by
        index = self.seats.index(seat)
        if not state.holding[index]:
            raise IllegalMove("cards 5.2", f"{seat} holds no card")
        card = self.held(state, seat)
        if card is not None and card != move.digit:
            raise IllegalMove("cards 2.1", f"{seat} does not hold a {move.digit}: the card to lay is the one in hand")
        illegal = self.check(state, move)
        if illegal is not None and not self.as_written:
            raise illegal
        points = self.score(state.grid.cells, move.cell)
        state.grid.place(move.cell, move.digit)
        state.points[index] += points  # 2.2
        state.last_cell = move.cell
        self.open(state, action, (points,), illegal)  # as-written: challengeable until the next move (4.1)
        self._draw(state, index)
        self._next(state)
        return _SCORED[points] if illegal is None else Scored(illegal=illegal, points=points)

    @staticmethod
    def score(cells: list[int], cell: int) -> int:
        """3.1: the cards in the card's block, plus those outside the block in its row or
        column; the card itself does not count (it is not laid yet)."""
        count, read = _SCORING[cell]
        return count - read(cells).count(0)

    def _draw(self, state: CardsState, index: int) -> None:
        """2.3, 5.2: draw from the pile; an empty pile ends the game (end=pile) or leaves
        the player without a card (end=hands)."""
        if state.drawn < len(self.deck):
            if self.pile is not None:
                state.hands[index] = self.pile[state.drawn]
            state.drawn += 1
            return
        state.hands[index] = 0
        if self.opts["end"] == "pile":
            state.ending = "the pile is empty when a player is to draw (5.2)"
            state.emptied = index
        else:
            state.holding[index] = False

    def _next(self, state: CardsState) -> None:
        """1.3: clockwise to the next player who holds a card (5.2 ruling: the others are
        skipped); nobody holds one: every card is laid or removed (5.1)."""
        if state.ending:
            return
        n = len(self.seats)
        for step in range(1, n + 1):
            turn = (state.turn + step) % n
            if state.holding[turn]:
                state.turn = turn
                return
        state.ending = "every card has been laid or removed (5.1)"

    def _reveal(self, state: CardsState) -> Outcome:
        """6.2: the seed goes into the log when the game ends, and not before."""
        if state.over:
            raise IllegalMove("cards 6.2", "the deal was revealed already")
        why = state.ending
        if not why and self.blocked(state):
            seat = self.seats[state.turn]
            card = state.hands[state.turn]
            why = f"{seat} holds {with_article(card)}, which fits on no free cell (5.1)"
        if not why:
            raise IllegalMove("cards 6.2", "the dealer reveals the deal when the game ends, and the game is not over")
        state.ending = why
        state.over = True
        return Outcome(events=(f"the game ends: {why}; the dealer reveals the deal",))

    def take_back(self, state: CardsState, window: Window, challenger: str) -> str:
        """4.1 upheld: the card leaves the game and the turn scores nothing; the offender
        keeps the card already drawn, and play goes on."""
        cell = window.move.cell  # type: ignore[union-attr]
        if state.grid.cells[cell] != window.move.digit:  # type: ignore[union-attr]
            raise IllegalMove("cards 4.1", f"the card of seq {window.seq} is no longer on the board")
        state.grid.remove(cell)
        index = self.seats.index(window.by)
        points = window.credited[0] if window.credited else 0
        state.points[index] -= points
        state.removed += 1
        if state.last_cell == cell:
            state.last_cell = None
        return f"{self.moved(window)} leaves the game and scores nothing ({points} taken back)"

    # --- result and views -----------------------------------------------------------
    def scores(self, state: CardsState) -> dict[str, int]:
        return dict(zip(self.seats, state.points))

    def result(self, state: CardsState, now: datetime | None = None) -> Result:
        return self.most_points(self.scores(state), state.over)  # 5.3

    def view(self, state: CardsState, viewer: str | None, now: datetime | None = None) -> Seen:
        """What every seat sees: the track (3.2), the pile's count, who holds a card; and
        6.1: a seat its own card and nobody else's, the public no card."""
        shown: dict[str, Any] = {
            "track": {s: {"laps": p // TRACK, "position": p % TRACK} for s, p in zip(self.seats, state.points)},
            "pile": self.pile_left(state),
            "holding": {s: h and i != state.emptied for i, (s, h) in enumerate(zip(self.seats, state.holding))},
            "removed": state.removed,
            "end": state.ending if state.over else None,
        }
        if viewer is not None:
            card = self.held(state, viewer)
            if card is not None:
                shown["hand"] = [card] if card else []
        return Seen(shown, last_cell=state.last_cell)
