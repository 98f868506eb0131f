"""Sudoku Domino (docs/rules/domino.md): place the digit you are given on a docking cell.

Rule numbers in messages and comments refer to docs/rules/domino.md. The start and the
digit order are dealt from a seed (7.1): a public one (`-o seed=S`, a practice game or a
published daily puzzle) or the dealer's secret, committed to in the header and revealed
when the game is over (7.2). With two or more seats the game is a duel (1.2): every seat
plays its own board on the same deal, at its own pace, and sees nothing of another
board until every board's game is over.

What is public on a board is what its records made of it: the stones, jokers, lives,
points and the end. The digit to place is the one thing hidden, as it gives away the
order; `state_key` covers the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Sequence

from corr.games.dealing import DEALER
from corr.errors import CorruptLog, IllegalMove, UsageError
from corr.games.base import Action, Game, Option, Outcome, Result, Seen
from corr.games.grid import Grid, sudoku_break
from corr.geometry import COL_CELLS, FIELD_CELLS, FIELD_OF, ROW_CELLS, name
from corr.notation import Joker, Move, Placement
from corr.games.domino import deal
from corr.puzzles.appendix import parse_puzzle, puzzle_text

GREY, GOLD = 10, 11  # a joker on a board's cell (4.1); stones are 1..9
LIVES = 3  # 3.1
JOKERS = {"grey": 4, "gold": 2}  # 4.1
DEFAULT_LIMIT = 600  # 6.1: ten minutes
MAX_LIMIT = 366 * 24 * 3600
_SEED = re.compile(r"[A-Za-z0-9._-]{1,64}")
#: a start written as puzzle_text writes one: read back, it spells itself
_START_TEXT = re.compile(r"[1-9.]{81}")
#: the three units through each cell: its row, its column and its field (5)
UNITS: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...] = tuple(
    (
        (f"row {c // 9 + 1}", tuple(ROW_CELLS[c // 9])),
        (f"column {c % 9 + 1}", tuple(COL_CELLS[c % 9])),
        (f"field {FIELD_OF[c]}", tuple(FIELD_CELLS[FIELD_OF[c]])),
    )
    for c in range(81)
)
#: UNITS with each unit's cells as a mask by rows (deal.occupied), to see it filled at a glance
_UNIT_MASKS: tuple[tuple[tuple[str, tuple[int, ...], int], ...], ...] = tuple(
    tuple((unit, members, sum(1 << m for m in members)) for unit, members in units) for units in UNITS
)
_FULL = (1 << 81) - 1


def board_text(cells: Sequence[int]) -> str:
    """A board as 81 characters row by row: digits, `.` empty, `g` grey and `G` gold joker."""
    return bytes(cells).translate(_TEXT).decode()


#: board_text's character of each cell value, by byte (a board's state key spells every board)
_TEXT = b".123456789gG".ljust(256, b"?")


@dataclass
class Board:
    """One seat's board and everything its records made of it."""

    cells: list[int]  # 0 empty, 1-9 a stone, GREY or GOLD a joker
    grid: Grid  # the stones alone, for the Sudoku rule (3.1)
    placed: int = 0  # digits of the order placed so far: the next one is given (2.1)
    lives: int = LIVES
    jokers: dict[str, int] = field(default_factory=lambda: dict(JOKERS))
    points: int = 0
    ended: str = ""  # why this board's game is over (1.3); "" while it runs
    last_cell: int | None = None
    moves: int = 0  # records on this board
    missed: int | None = None  # the cell of the newest misplacement (3.1), so each has its own hash
    #: the cells not empty, as deal.occupied's masks, kept with `cells` by `fill`: the
    #: docking cells are read from them after every record
    occupied: tuple[int, int] = (0, 0)
    #: the cells as `board_text` spells them, kept with `cells` by `fill`: every
    #: record's hash spells the board
    text: bytearray = field(default_factory=bytearray)

    @classmethod
    def start(cls, cells: list[int]) -> Board:
        return cls(cells, Grid(cells), occupied=deal.occupied(cells), text=bytearray(bytes(cells).translate(_TEXT)))

    def copy(self) -> Board:
        return Board(list(self.cells), self.grid.copy(), self.placed, self.lives, dict(self.jokers), self.points,
                     self.ended, self.last_cell, self.moves, self.missed, self.occupied, self.text[:])

    def fill(self, cell: int, piece: int) -> None:
        """A stone or joker on an empty cell."""
        self.cells[cell] = piece
        self.text[cell] = _TEXT[piece]
        by_rows, by_cols = self.occupied
        self.occupied = (by_rows | 1 << cell, by_cols | 1 << (cell % 9 * 9 + cell // 9))

    def key(self) -> bytes:
        """The board's text, the digits placed, lives, jokers left, points, the newest
        misplacement and the end: what the board's part of a hash spells."""
        missed = b"-" if self.missed is None else b"%d" % self.missed
        return b"%b|%d|%d|%d%d|%d|%b|%b" % (bytes(self.text), self.placed, self.lives, self.jokers["grey"],
                                            self.jokers["gold"], self.points, missed, self.ended.encode())


@dataclass
class DominoState:
    boards: list[Board]  # by seat index
    revealed: bool = False  # the dealer's reveal (7.2): the game is over for every board
    last_by: str | None = None  # the seat of the newest move, for boards that mark it

    @property
    def running(self) -> bool:
        """Some board's game runs (asked for every record's hash: no generator)."""
        if self.revealed:
            return False
        for b in self.boards:
            if not b.ended:
                return True
        return False


@dataclass(frozen=True, slots=True)
class Placed(Outcome):
    """A stone or joker placed and what it scored (5), or a misplacement (3.1)."""

    points: int = 0
    completed: tuple[str, ...] = ()  # the units this placement completed and scored
    misplaced: bool = False

    def told(self) -> tuple[str, ...]:
        if self.misplaced:
            return ("misplaced: a life lost",)
        notes = [f"scores {self.points}"] if self.points else []
        if self.completed:
            notes.append("completes " + ", ".join(self.completed))
        return tuple(notes)

    def gained(self) -> tuple[int, ...]:
        return (self.points,)

    def highlights(self) -> dict[str, dict[str, Any]]:
        return {"scores": {"points": self.points}} if self.points else {}


#: What most stones and jokers do, one shared value each (outcomes are frozen): score
#: their own points and complete nothing; by points (0: a grey joker, 5: the rest)
_PLAIN = {points: Placed(points=points) for points in (0, 5)}


class Domino(Game[DominoState]):
    name = "domino"
    title = "Sudoku Domino"
    aliases = ("sudoku-domino",)
    puzzle_tools = {"domino": "deal"}
    rules = "domino"
    min_seats = 1
    max_seats = 6
    options = {
        "seed": Option("", None, "a public seed the game is dealt from (practice, a daily puzzle); "
                       "default: the dealer's secret seed, revealed at the end (7.2)"),
        "givens": Option("30", None, f"stones on the board at the start, {deal.MIN_GIVENS}-{deal.MAX_GIVENS} (7.1)"),
        "time_limit": Option(str(DEFAULT_LIMIT), None, "seconds from the game's start to its end, or none (6.1)"),
        "start": Option("", None, "the starting position, 81 characters: written by corr new from the seed, "
                        "so every copy knows it (1.2)"),
    }
    record_types = frozenset({"move", "pass", "reveal"})
    turn_types = frozenset({"move", "pass"})
    dealer_types = frozenset({"reveal"})
    secret = "a secret digit order"
    deal_checked = "the start and every digit given match the commitment (7.2)"
    turn_rule = "domino 1.2"
    own_clock = True
    own_boards = True
    highlight_lists = ("scores",)

    def __init__(self, options: dict[str, str], seats: list[str], seed: str | None = None) -> None:
        public = options["seed"]
        self.hidden = not public  # type: ignore[misc]  # per game: a public seed hides nothing
        super().__init__(options, seats, public or seed)
        self.givens = int(options["givens"])
        self.limit = None if options["time_limit"] == "none" else int(options["time_limit"])
        self._deadline: datetime | None = None
        self._left_at: str | None = None  # the time seconds_left last answered for, and its answer
        self._left = 0
        #: the deal where this copy knows the seed; the start alone is public (1.2)
        self.deal = deal.generate(self.seed, self.givens) if self.seed is not None else None
        written = self._written_start(options["start"])
        if self.deal is not None and written is not None and self.deal.start != written:
            raise UsageError("option start is not the start the seed deals (7.2)")
        self._start = written or (self.deal.start if self.deal is not None else None)

    def _written_start(self, text: str) -> tuple[int, ...] | None:
        """The start option's cells (None where there is none); every load checks them
        against the deal, spelled as the deal's start is spelled (puzzle_text) or not."""
        if not text:
            return None
        if self.deal is not None and text == board_text(self.deal.start):
            return self.deal.start
        return tuple(parse_puzzle(text))

    @property
    def start(self) -> tuple[int, ...]:
        """The starting position every board begins with (1.2): in the header, so that a
        copy without the seed knows it too."""
        if self._start is None:
            raise CorruptLog("line 1 (header): option start is missing: corr new writes it from the seed",
                             kind="header")
        return self._start

    @classmethod
    def dealt_options(cls, options: dict[str, str], seed: str | None) -> dict[str, str]:
        """The start written into a new game's header, so that every copy knows it
        (1.2) while the digit order stays with the seed."""
        if options.get("start"):
            raise UsageError("option start is dealt from the seed, not chosen: give seed=S for a public game")
        resolved = cls.resolve_options({**options, "start": "." * 81})
        source = resolved["seed"] or seed
        if source is None:
            return options
        return {**options, "start": puzzle_text(list(deal.generate(source, int(resolved["givens"])).start))}

    @classmethod
    def is_hidden(cls, options: dict[str, str]) -> bool:
        return not options.get("seed")

    @classmethod
    def resolve_options(cls, given: dict[str, str]) -> dict[str, str]:
        opts = super().resolve_options(given)
        if opts["seed"] and not _SEED.fullmatch(opts["seed"]):
            raise UsageError(f"seed={opts['seed'][:70]!r}: a public seed is 1-64 letters, digits, '.', '_' or '-'")
        givens = opts["givens"]
        if not (givens.isascii() and givens.isdigit() and deal.MIN_GIVENS <= int(givens) <= deal.MAX_GIVENS):
            raise UsageError(f"givens={givens[:20]!r} is not a number from {deal.MIN_GIVENS} to {deal.MAX_GIVENS} (7.1)")
        opts["givens"] = str(int(givens))
        limit = opts["time_limit"].strip().lower()
        if limit != "none":
            if not (limit.isascii() and limit.isdigit() and 1 <= int(limit) <= MAX_LIMIT):
                raise UsageError(f"time_limit={limit[:20]!r} is not a number of seconds (1 to {MAX_LIMIT}) or none (6.1)")
            limit = str(int(limit))
        opts["time_limit"] = limit
        if opts["start"] and not _START_TEXT.fullmatch(opts["start"]):
            opts["start"] = puzzle_text(parse_puzzle(opts["start"]))
        return opts

    # --- the start --------------------------------------------------------------------
    def initial(self) -> DominoState:
        board = Board.start(list(self.start))  # the first seat's; every load makes it
        return DominoState([board] + [board.copy() for _ in self.seats[1:]])

    def clone(self, state: DominoState) -> DominoState:
        return DominoState([b.copy() for b in state.boards], state.revealed, state.last_by)

    def state_key(self, state: DominoState) -> bytes:
        """Every board, as format 1 hashed it (a duel's hidden boards too)."""
        return b"/".join([b.key() for b in state.boards]) + (b"|r" if state.revealed else b"|")

    def public_key(self, state: DominoState) -> bytes:
        """What the public sees (1.2): every board in a game of one or once the duel is
        over; while it runs, only which boards' games are over."""
        if not self.duel() or not state.running:
            return self.state_key(state)
        ended = "".join("e" if b.ended else "-" for b in state.boards)
        return f"duel|{ended}|{'r' if state.revealed else ''}".encode()

    def sealed_key(self, state: DominoState, seat: str) -> bytes | None:
        """A running duel's board of `seat`: the public does not see it yet (1.2)."""
        if not self.duel() or not state.running or seat not in self.seats:
            return None
        return self.board_of(state, seat).key()

    # --- who plays --------------------------------------------------------------------
    def playing(self, state: DominoState) -> tuple[str, ...]:
        """The seats whose game runs (1.3): each plays its own board."""
        if state.revealed:
            return ()
        return tuple([s for s, b in zip(self.seats, state.boards) if not b.ended])

    def on_turn(self, state: DominoState) -> tuple[str, ...]:
        seats = self.playing(state)
        if seats or state.revealed or not self.hidden:
            return seats
        return (DEALER,)  # every board is over: the dealer reveals the seed (7.2)

    def to_move(self, state: DominoState, now: datetime | None = None) -> str | None:
        """The first seat that may move; None once the time has run out at `now` (6.1),
        though records made in time still replay (`on_turn` reads the records alone)."""
        seats = self.on_turn(state)
        return seats[0] if seats and not self.time_up(now) else None

    def duel(self) -> bool:
        return len(self.seats) > 1

    def shows(self, state: DominoState, by: str, seat: str | None, now: datetime | None = None) -> bool:
        """1.2: while a duel runs, a seat reads only its own board's records (another
        board's would give away the digits to come), and the public reads none."""
        if not self.duel() or by not in self.seats or not state.running or self.time_up(now):
            return True
        return by == seat

    def board_of(self, state: DominoState, seat: str) -> Board:
        return state.boards[self.seats.index(seat)]

    def given(self, state: DominoState, seat: str) -> int | None:
        """The digit `seat` is to place (2.1), where this copy knows the order; None
        when its game is over or the order is hidden from this copy."""
        board = self.board_of(state, seat)
        if board.ended or state.revealed or self.deal is None or board.placed >= len(self.deal.order):
            return None
        return self.deal.order[board.placed][1]

    # --- the clock (6) ----------------------------------------------------------------
    def deadline(self) -> datetime | None:
        """When the time runs out (6.1): the limit after the game's start, None without one.
        Read once: every record of a timed game is judged against it."""
        if self.limit is None or self.created is None:
            return None
        if self._deadline is None:
            from corr.timecontrol import instant

            self._deadline = instant(self.created) + timedelta(seconds=self.limit)
        return self._deadline

    def seconds_left(self, at: str | None) -> int | None:
        """Seconds left on the clock at a record's time (negative: past the limit).
        Asked for every record, and records often share their second: the answer for
        the last time asked is kept."""
        end = self.deadline()
        if end is None or at is None:
            return None
        if at != self._left_at:
            from corr.timecontrol import instant

            self._left = int((end - instant(at)).total_seconds())
            self._left_at = at
        return self._left

    def time_up(self, now: datetime | None) -> bool:
        """Whether the time has run out at `now` (6.1): every game still running is over
        at the limit. None asks by the records alone: then it has not."""
        end = self.deadline()
        return end is not None and now is not None and now > end

    # --- moves ------------------------------------------------------------------------
    def docking(self, board: Board) -> list[int]:
        return deal.cells_of(deal.docking_mask(*board.occupied))

    def legal_for(self, state: DominoState, seat: str) -> list[Move]:
        """`seat`'s moves: the given digit on each docking cell (2.4; where it breaks the
        Sudoku rule it is taken and costs a life, 3.1), then each joker left on each
        empty cell (4.1)."""
        board = self.board_of(state, seat)
        if board.ended or state.revealed:
            return []
        digit = self.given(state, seat)
        if digit is None:
            raise UsageError("the legal moves depend on the hidden digit order: only the dealer's copy can list them")
        moves: list[Move] = [Placement(digit, c) for c in self.docking(board)]
        empty = [c for c in range(81) if not board.cells[c]]
        for kind in ("grey", "gold"):
            if board.jokers[kind]:
                moves += [Joker(kind, c) for c in empty]
        return moves

    def legal_moves(self, state: DominoState) -> list[Move]:
        seat = self.to_move(state)
        return [] if seat is None or seat == DEALER else self.legal_for(state, seat)

    def check(self, state: DominoState, move: Move, seat: str | None = None) -> IllegalMove | None:
        """3.1: the Sudoku-rule break a stone would make on `seat`'s board (a
        misplacement: legal, but it costs a life), or None; jokers break nothing."""
        if seat not in self.seats or not isinstance(move, Placement):
            return None
        return sudoku_break(self.board_of(state, seat).grid, move.cell, move.digit, "domino 3.1")

    def without_deal(self) -> Domino:
        """The rules without the deal, whatever the seed: the digits to come are no seat's
        to know, a public seed's included (2.1)."""
        rules = Domino({**self.opts, "seed": ""}, self.seats, None)
        rules.created = self.created
        return rules

    def whole_view(self, seat: str) -> bool:
        """A seat sees the whole state of a game alone with a public seed; never another
        seat's board in a running duel (1.2)."""
        return not self.hidden and not self.duel()

    def blocked(self, state: DominoState, seat: str) -> bool:
        """1.3: no more stones can be placed on `seat`'s board: the given digit keeps the
        Sudoku rule on no docking cell and no joker is left (known where the order is)."""
        board = self.board_of(state, seat)
        if board.ended or any(board.jokers.values()):
            return False
        digit = self.given(state, seat)
        return digit is not None and not any(board.grid.fits(c, digit) for c in self.docking(board))

    def automatic(self, state: DominoState, now: datetime | None = None) -> list[tuple[str, str]]:
        """The pass of a seat that can place nothing more (1.3); the dealer's reveal once
        every board is over, or (6.1, 7.2) once the time has run out at `now`: every game
        still running is over at the limit."""
        revealing = self.hidden and self.seed is not None and not state.revealed
        if self.time_up(now):  # no record of a seat's is taken after the limit: only the reveal
            return [("reveal", DEALER)] if revealing else []
        for seat in self.playing(state):
            if self.blocked(state, seat):
                return [("pass", seat)]
        return [("reveal", DEALER)] if revealing and not self.playing(state) else []

    def due_at(self, state: DominoState) -> datetime | None:
        end = self.deadline()
        if end is None or not self.hidden or self.seed is None or state.revealed:
            return None
        return end + timedelta(seconds=1)

    def apply(self, state: DominoState, action: Action) -> Outcome:
        if action.type == "reveal":
            return self._reveal(state, action)
        board = self.board_of(state, action.by)
        left = self.seconds_left(action.at)
        if left is not None and left < 0:
            raise IllegalMove("domino 6.1", f"the time ran out at {self.deadline():%Y-%m-%d %H:%M:%S}Z, "  # type: ignore[str-format]
                              f"{-left} s before this: {action.by}'s game ended at the limit")
        if action.type == "pass":
            return self._pass(state, board, action.by)
        move = action.move
        if isinstance(move, Joker):
            return self._joker(state, board, action.by, move, left)
        if not isinstance(move, Placement) or move.claim is not None:
            raise IllegalMove("domino 2.4", f"a move is the given digit and its docking cell, like 7 (5,4), "
                              f"or a joker, like grey (5,4); got {move}")
        return self._place(state, board, action.by, move, left)

    def _place(self, state: DominoState, board: Board, seat: str, move: Placement, left: int | None) -> Outcome:
        digit, cell = move.digit, move.cell
        given = self.given(state, seat)
        if given is not None and digit != given:
            raise IllegalMove("domino 2.1", f"the digit to place is {given}, not {digit}: the order is given")
        if board.cells[cell]:
            raise IllegalMove("domino 2.4", f"{name(cell)} is not empty", (cell,))
        if not deal.docks(*board.occupied, cell):
            raise IllegalMove("domino 2.4", f"{name(cell)} is not a docking cell: a stone pushed in from the edge "
                              "stops only on the last empty cell before another stone (2.2, 2.3)", (cell,))
        board.moves += 1
        state.last_by = seat
        broken = sudoku_break(board.grid, cell, digit, "domino 3.1")
        if broken is not None:  # 3.1: the stone disappears, a life is lost, the digit comes again
            board.lives -= 1
            board.missed = cell
            if not board.lives:
                board.ended = "three misplacements (1.3)"
            left_text = f"{board.lives} {'life' if board.lives == 1 else 'lives'} left"
            return Placed(events=(f"{seat} misplaced: {str(broken).removeprefix('domino 3.1: ')}; {left_text} (3.1)",), misplaced=True)
        board.grid.place(cell, digit)
        board.fill(cell, digit)
        board.placed += 1
        board.last_cell = cell
        points, completed = self._score(board, cell, 5)  # 5: a correctly placed stone
        return self._after(state, board, seat, points, completed, left)

    def _joker(self, state: DominoState, board: Board, seat: str, move: Joker, left: int | None) -> Outcome:
        kind, cell = move.kind, move.cell
        if not board.jokers[kind]:
            raise IllegalMove("domino 4.1", f"{seat} has no {kind} joker left")
        if board.cells[cell]:
            raise IllegalMove("domino 4.1", f"{name(cell)} is not empty: a joker goes on an empty cell", (cell,))
        board.jokers[kind] -= 1
        board.fill(cell, GOLD if kind == "gold" else GREY)
        board.last_cell = cell
        board.moves += 1
        state.last_by = seat
        completed: tuple[str, ...] = ()
        if kind == "grey":  # 4.2: a placeholder, no points, and a void unit bonus
            points = 0
        else:
            points, completed = self._score(board, cell, 5)  # 5: a gold joker used
        return self._after(state, board, seat, points, completed, left)

    @staticmethod
    def _score(board: Board, cell: int, base: int) -> tuple[int, tuple[str, ...]]:
        """5: points for a stone or gold joker on `cell`: its own, each unit it completes
        (10 x the sum of its stones; jokers count 0, a grey joker voids the unit), and the
        bonus for completing two or three units at once."""
        cells, filled = board.cells, board.occupied[0]
        points = base
        completed = []
        for unit, members, mask in _UNIT_MASKS[cell]:
            if filled & mask == mask and GREY not in (cells[c] for c in members):
                points += 10 * sum(cells[c] for c in members if cells[c] < GREY)
                completed.append(unit)
        points += {2: 50, 3: 100}.get(len(completed), 0)
        return points, tuple(completed)

    def _after(self, state: DominoState, board: Board, seat: str, points: int, completed: tuple[str, ...],
               left: int | None) -> Outcome:
        """Points credited, then the end of this board's game (1.3): the whole puzzle
        complete (+500 and the time bonus, 5), or nothing left that could be placed."""
        events: list[str] = []
        if board.occupied[0] == _FULL:
            points += 500
            bonus = 10 * left if left is not None else 0  # 5, 6.2: only for a complete puzzle
            points += bonus
            board.ended = "the puzzle is complete (1.3)"
            events.append(f"{seat} completes the puzzle: 500" + (f" and a time bonus of {bonus} ({left} s left)"
                                                                  if left is not None else ""))
        elif not any(board.jokers.values()) and not deal.any_docking(*board.occupied):
            board.ended = "no more stones can be placed: no docking cell is left and no joker (1.3)"
        board.points += points
        if board.ended:
            events.append(f"{seat}'s game is over: {board.ended}")
        elif not completed and points in _PLAIN:
            return _PLAIN[points]
        return Placed(points=points, completed=completed, events=tuple(events))

    def _pass(self, state: DominoState, board: Board, seat: str) -> Outcome:
        """1.3: the given digit fits on no docking cell and no joker is left. The copy that
        knows the order checks it; a copy without it takes the pass on the dealer's word
        until the reveal, when the audit checks it."""
        if any(board.jokers.values()):
            raise IllegalMove("domino 1.3", f"{seat} still has a joker to play: the game is not over")
        if self.deal is not None and not self.blocked(state, seat):
            raise IllegalMove("domino 1.3", f"the given digit still fits on a docking cell of {seat}'s board")
        # the same words on every copy: the digit itself stays hidden until the reveal
        board.ended = "no more stones can be placed: the given digit fits on no docking cell and no joker is left (1.3)"
        board.moves += 1
        return Outcome(events=(f"{seat}'s game is over: {board.ended}",))

    def _reveal(self, state: DominoState, action: Action) -> Outcome:
        """7.2: the seed goes into the log when every board's game is over, or the time is."""
        if state.revealed:
            raise IllegalMove("domino 7.2", "the seed was revealed already")
        left = self.seconds_left(action.at)
        if self.playing(state) and (left is None or left >= 0):
            raise IllegalMove("domino 7.2", "the dealer reveals the seed when the game is over, and it is not")
        state.revealed = True
        why = "every board's game is over" if not self.playing(state) else "the time has run out (6.1)"
        return Outcome(events=(f"the game is over: {why}; the dealer reveals the seed",))

    def disclose(self, state: DominoState) -> None:
        """A duel a forfeit ruling ended is over for every board once the seed is out
        (7.2): every board and record is shown, as at the limit."""
        state.revealed = True

    # --- results and views ------------------------------------------------------------
    def over(self, state: DominoState, now: datetime | None) -> bool:
        return not state.running or self.time_up(now)

    def result(self, state: DominoState, now: datetime | None = None) -> Result:
        scores = {s: b.points for s, b in zip(self.seats, state.boards)}
        return self.most_points(scores, self.over(state, now))  # 1.1

    def board(self, state: DominoState, seat: str | None = None, now: datetime | None = None) -> list[int]:
        """`seat`'s board; the public sees the first seat's board in a game of one, and
        in a duel the start until the duel is over, then seat A's."""
        if seat is None and self.duel() and not self.over(state, now):
            return list(self.start)
        board = state.boards[self.seats.index(seat)] if seat in self.seats else state.boards[0]
        return board.cells

    def board_view(self, state: DominoState, seat: str, left: int | None) -> dict[str, Any]:
        """One board as its seat sees it: stones and jokers, the docking cells (the orange
        markers, 2.3), the unreachable cells (3.3), lives, jokers left, points, the end."""
        board = self.board_of(state, seat)
        ended = board.ended
        if not ended and not state.revealed and left is not None and left < 0:
            ended = "the time has run out (6.1)"
        elif not ended and state.revealed:
            ended = "the time has run out (6.1)"
        running = not ended
        return {
            "board": board_text(board.cells),
            "docking": [name(c) for c in self.docking(board)] if running else [],
            "unreachable": [name(c) for c in deal.unreachable_cells(board.cells)],
            "lives": board.lives,
            "jokers": dict(board.jokers),
            "points": board.points,
            "placed": board.placed,
            "last_cell": name(board.last_cell) if board.last_cell is not None else None,
            "ended": ended or None,
        }

    def view(self, state: DominoState, seat: str | None, now: datetime | None = None) -> Seen:
        """What `seat` (None: the public) sees at `now` (1.2, 2.1): its own board, its
        given digit, lives, jokers and score; in a running duel nothing of another board.
        Once the game is over every board is shown to all. The digit to place is the
        seat's alone in a game dealt from a secret seed; a public seed hides nothing."""
        end = self.deadline()
        left = int((end - now).total_seconds()) if end is not None and now is not None else None
        over = self.over(state, now)
        if over or not self.duel():
            shown = list(self.seats)
        else:
            shown = [seat] if seat in self.seats else []
        boards = {s: self.board_view(state, s, left) for s in shown}
        mine = seat if seat in boards else (self.seats[0] if not self.duel() else None)
        own = boards[mine] if mine is not None else {"board": board_text(list(self.start)), "docking": [],
                                                        "unreachable": []}
        end_text = None
        if over:
            end_text = "every board's game is over" if not state.running else "the time has run out (6.1)"
        data: dict[str, Any] = {
            "start": board_text(list(self.start)),
            "duel": self.duel(),
            "board": own["board"],
            "docking": own["docking"],
            "unreachable": own["unreachable"],
            "boards": boards,
            "playing": [] if self.time_up(now) else list(self.playing(state)),
            "lives": {s: b["lives"] for s, b in boards.items()},
            "jokers": {s: b["jokers"] for s, b in boards.items()},
            "scores": {s: b["points"] for s, b in boards.items()},
            "clock": {
                "limit": self.limit,
                "started": self.created,
                "deadline": f"{end:%Y-%m-%dT%H:%M:%SZ}" if end is not None else None,
                "left": max(left, 0) if left is not None and not over else None,
            },
            "end": end_text,
        }
        if seat in self.seats:
            data["to_move"] = seat if seat in data["playing"] else None
        if (seat in self.seats or not self.hidden) and (self.deal is not None or over):
            # a secret order: the digit is its seat's alone, and a copy without the seed
            # has only what the dealer told the seat (corr.seatview)
            data["given"] = self.given(state, mine) if mine is not None and not over else None
        return Seen(data, last_cell=state.boards[0].last_cell if not self.duel() else None)
