"""Sudoku War (docs/rules/war.md): White and Black numbers fight on a Sudoku board, helped by
hired pieces (Star, Corrector, Leap, Knight, Immobilizer).

Rule numbers in messages and comments refer to docs/rules/war.md. Rows run from 1 (top,
Black's first line) to 9 (bottom, White's); a cell is 0..80 in reading order, named
(F,P) like every other game. Seat A plays White and moves first (1.5).

Move generation is the hot path (bots, `corr legal`, the benchmark against
python-chess): the board is two flat lists, every neighbourhood and ray is computed once
at import, and a piece's moves are generated from its cell alone.
"""

from __future__ import annotations

from datetime import datetime
import re
from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from dataclasses import dataclass, field

from corr.errors import IllegalMove, UsageError
from corr.counts import counted
from corr.games.base import Action, Game, Option, Outcome, Result, Seen
from corr.geometry import COL_CELLS, FIELD_CELLS, FIELD_OF, ROW_CELLS, name, with_article
from corr.notation import Correction, Move, PieceMove

WHITE, BLACK = 1, 2
COLOUR_NAME = {WHITE: "White", BLACK: "Black"}
SEAT_OF = {WHITE: "A", BLACK: "B"}
SIDE_OF = {"A": WHITE, "B": BLACK}
STAR, CORRECTOR, LEAP, KNIGHT, IMMOBILIZER = 10, 11, 12, 13, 14
LETTER = {STAR: "S", CORRECTOR: "C", LEAP: "L", KNIGHT: "N", IMMOBILIZER: "I"}
PIECE_OF_LETTER = {v: k for k, v in LETTER.items()}
PIECE_NAME = {STAR: "Star", CORRECTOR: "Corrector", LEAP: "Leap", KNIGHT: "Knight", IMMOBILIZER: "Immobilizer"}
#: the first line of each colour (1.1): White's is row 9, Black's row 1
FIRST_LINE = {WHITE: frozenset(range(72, 81)), BLACK: frozenset(range(0, 9))}
FIRST_LINE_CELLS = {colour: tuple(cells) for colour, cells in FIRST_LINE.items()}  # to walk, in the set's order
#: the sides standing on each first line, read in one call: `FIRST_LINE_SIDES[colour](side)`
FIRST_LINE_SIDES = {colour: itemgetter(*cells) for colour, cells in FIRST_LINE_CELLS.items()}
#: 1.2: the hired pieces of a first line, from the corners to the centre
HIRED_LINE = "SCLNINLCS"
#: 1.4 ruling: White's numbers on row 8; Black's follow by the symmetry (1.3)
WHITE_NUMBERS = "246813579"


def _cells_around(cell: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    r, c = divmod(cell, 9)
    return tuple((r + dr) * 9 + c + dc for dr, dc in steps if 0 <= r + dr < 9 and 0 <= c + dc < 9)


_KING_STEPS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
_ORTHO_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_KNIGHT_STEPS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
KING = tuple(_cells_around(c, _KING_STEPS) for c in range(81))
ORTHO = tuple(_cells_around(c, _ORTHO_STEPS) for c in range(81))
KNIGHT_JUMPS = tuple(_cells_around(c, _KNIGHT_STEPS) for c in range(81))


def _ray(cell: int, dr: int, dc: int) -> tuple[int, ...]:
    r, c = divmod(cell, 9)
    out = []
    r, c = r + dr, c + dc
    while 0 <= r < 9 and 0 <= c < 9:
        out.append(r * 9 + c)
        r, c = r + dr, c + dc
    return tuple(out)


ROOK_RAYS = tuple(tuple(ray for d in _ORTHO_STEPS if (ray := _ray(c, *d))) for c in range(81))
QUEEN_RAYS = tuple(tuple(ray for d in _KING_STEPS if (ray := _ray(c, *d))) for c in range(81))
#: the other cells of a cell's row, column and field: where the Sudoku rule looks (2.1)
PEERS = tuple(
    tuple(sorted((set(ROW_CELLS[c // 9]) | set(COL_CELLS[c % 9]) | set(FIELD_CELLS[FIELD_OF[c]])) - {c}))
    for c in range(81)
)
OWN_FIELD = tuple(tuple(x for x in FIELD_CELLS[FIELD_OF[c]] if x != c) for c in range(81))
#: per cell: its peers as a set, and what stands on them, read in one call (`PEER_PIECES[c](piece)`)
PEER_SET = tuple(frozenset(p) for p in PEERS)
PEER_PIECES = tuple(itemgetter(*p) for p in PEERS)
#: per cell: the cells a King's step away (3 to 8) read in one call, from `piece` or from `side`
KING_READ = tuple(itemgetter(*k) for k in KING)
#: every piece move made so far, by (piece, from, to, capture): moves are immutable, and
#: building one (with its checks) costs ten times a lookup; generation makes thousands
_MOVES: dict[tuple[str, int, int, bool], PieceMove] = {}


def _piece_move(letter: str, src: int, dst: int, capture: bool) -> PieceMove:
    key = (letter, src, dst, capture)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = PieceMove(letter, src, dst, capture)
    return move


# --- the position string (1.4 ruling: "a FEN-like line") ----------------------------------
def position_text(piece: Sequence[int], side: Sequence[int], turn: int) -> str:
    """The position as one line: rows 1 (top) to 9 joined by `/`, a cell `.` when empty,
    `S C L N I` or a digit for White's pieces and numbers, the same with a `b` before it
    for Black's; then ` w` or ` b`, the colour to move."""
    rows = []
    for r in range(9):
        tokens = []
        for c in range(r * 9, r * 9 + 9):
            p = piece[c]
            if not p:
                tokens.append(".")
                continue
            token = str(p) if p < 10 else LETTER[p]
            tokens.append(("b" + token) if side[c] == BLACK else token)
        rows.append("".join(tokens))
    return "/".join(rows) + (" w" if turn == WHITE else " b")


_TOKEN = re.compile(r"b?[1-9SCLNI]|\.")


def parse_position(text: str) -> tuple[list[int], list[int], int]:
    """A position string (see `position_text`) as pieces, sides and the colour to move;
    a UsageError names the first thing wrong with it."""
    if len(text) > 400:
        raise UsageError("setup: a position string is at most 400 characters")
    parts = text.strip().split()
    if len(parts) != 2 or parts[1] not in ("w", "b"):
        raise UsageError("setup: nine rows joined by '/', a space, then w or b (the colour to move), "
                         "e.g. " + DEFAULT_SETUP)
    rows = parts[0].split("/")
    if len(rows) != 9:
        raise UsageError(f"setup: {counted(len(rows), 'row')}; a position has 9, joined by '/'")
    piece, side = [0] * 81, [0] * 81
    for r, row in enumerate(rows):
        tokens = _TOKEN.findall(row)
        if "".join(tokens) != row:
            bad = next((ch for ch in row if ch not in "b.123456789SCLNI"), row[:10])
            raise UsageError(f"setup: row {r + 1}: {bad!r} is not a cell (., S C L N I, 1-9, each with b before "
                             "it for Black)")
        if len(tokens) != 9:
            raise UsageError(f"setup: row {r + 1} has {counted(len(tokens), 'cell')}, not 9")
        for c, token in enumerate(tokens):
            if token == ".":
                continue
            cell = r * 9 + c
            side[cell] = BLACK if token.startswith("b") else WHITE
            letter = token[-1]
            piece[cell] = int(letter) if letter.isdigit() else PIECE_OF_LETTER[letter]
    for cell in range(81):
        d = piece[cell]
        if 0 < d < 10:
            for p in PEERS[cell]:
                if p > cell and piece[p] == d:
                    raise UsageError(f"setup: two {d}s at {name(cell)} and {name(p)} break the Sudoku rule (2.1)")
    return piece, side, WHITE if parts[1] == "w" else BLACK


@lru_cache(maxsize=16)
def _setup(text: str) -> tuple[tuple[int, ...], tuple[int, ...], int, str]:
    """`parse_position` and the position string it reads as, kept per text: every load
    of a log resolves the header's setup and then makes the game from it, and the setups
    played are few."""
    piece, side, turn = parse_position(text)
    return tuple(piece), tuple(side), turn, position_text(piece, side, turn)


def _default_setup() -> str:
    piece, side = [0] * 81, [0] * 81
    for c, letter in enumerate(HIRED_LINE):
        piece[72 + c], side[72 + c] = PIECE_OF_LETTER[letter], WHITE
        piece[c], side[c] = PIECE_OF_LETTER[letter], BLACK
    for c, digit in enumerate(WHITE_NUMBERS):
        piece[63 + c], side[63 + c] = int(digit), WHITE
        piece[17 - c], side[17 - c] = 10 - int(digit), BLACK  # 1.3: n faces 10-n, turned 180 degrees
    return position_text(piece, side, WHITE)


DEFAULT_SETUP = "bSbCbLbNbIbNbLbCbS/b1b3b5b7b9b2b4b6b8/........./........./........./........./........./246813579/SCLNINLCS w"


@dataclass
class WarState:
    piece: list[int]  # per cell: 0 empty, 1-9 a number, STAR.. IMMOBILIZER a hired piece
    side: list[int]  # per cell: 0, WHITE or BLACK
    turn: int = WHITE
    last: tuple[int, int] | None = None  # the last move's from and to cells, for boards
    offer: str | None = None  # the seat whose draw offer stands (3.2)
    winners: tuple[str, ...] = ()
    ending: str = ""  # why the game is over; "" while it runs
    seen: dict[str, int] = field(default_factory=dict)  # position -> times it stood (repetition=3)
    #: bytes(piece) + bytes(side), kept up to date by `War.apply` so that `state_key`
    #: copies them instead of converting 162 numbers a record; whoever moves pieces on
    #: the lists by hand (a bot's search) sets it to None first
    cells: bytearray | None = field(default=None, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return bool(self.ending)


@dataclass(frozen=True, slots=True)
class Fought(Outcome):
    """A move and what it took (2.1-2.5)."""

    took: str = ""  # the captured piece, e.g. "Black's 7"
    suicide: bool = False  # a Star's capture: the Star leaves the board too (2.2)

    def told(self) -> tuple[str, ...]:
        if not self.took:
            return ()
        return (f"takes {self.took}" + (", and the Star leaves the board" if self.suicide else ""),)


class War(Game[WarState]):
    name = "war"
    title = "Sudoku War"
    aliases = ("sudoku-war",)
    rules = "war"
    min_seats = 2
    max_seats = 2
    options = {
        "setup": Option(DEFAULT_SETUP, None, "the position to start from: the string `corr show` prints (1.4)"),
        "repetition": Option("off", ("off", "3"), "3: the third time a position stands, same side to move, "
                             "the game is drawn (3.2)"),
    }
    record_types = frozenset({"move", "resign", "draw-offer", "draw-accept", "draw-decline"})
    turn_types = frozenset({"move"})
    turn_rule = "war 1.5"

    def __init__(self, options: dict[str, str], seats: list[str], seed: str | None = None) -> None:
        super().__init__(options, seats, seed)
        self.setup = _setup(options["setup"])[:3]
        self.repetition = options["repetition"] == "3"

    @classmethod
    def resolve_options(cls, given: dict[str, str]) -> dict[str, str]:
        opts = super().resolve_options(given)
        opts["setup"] = _setup(opts["setup"])[3]
        return opts

    # --- position -------------------------------------------------------------------
    def initial(self) -> WarState:
        piece, side, turn = self.setup
        state = WarState(list(piece), list(side), turn, cells=bytearray(piece) + bytearray(side))
        self._arrive(state)
        return state

    def clone(self, state: WarState) -> WarState:
        return WarState(list(state.piece), list(state.side), state.turn, state.last, state.offer, state.winners,
                        state.ending, dict(state.seen), None if state.cells is None else bytearray(state.cells))

    def state_key(self, state: WarState) -> bytes:
        # the cells as bytes (pieces 0-14, sides 0-2): the hash runs once per record
        cells = state.cells
        head = bytes(cells) if cells is not None else bytes(state.piece) + bytes(state.side)
        if state.offer is None and not state.winners and not state.ending:  # most records: the tail made once
            return head + _RUNNING_TAIL[state.turn]
        return head + f"|{state.turn}|{state.offer or ''}|{','.join(state.winners)}|{state.ending}".encode()

    #: the public position is the whole position (`Game.public_key`'s default), without its extra call
    public_key = state_key

    def on_turn(self, state: WarState) -> tuple[str, ...]:
        return () if state.ending else _ON_TURN[state.turn]

    def board(self, state: WarState, seat: str | None = None, now: datetime | None = None) -> list[int]:
        """The numbers on the board (hired pieces are no part of the Sudoku, 2.7)."""
        return [p if p < 10 else 0 for p in state.piece]

    # --- move generation ------------------------------------------------------------
    @staticmethod
    def frozen(state: WarState, colour: int) -> set[int]:
        """2.6: the cells of `colour`'s numbers next to an enemy Immobilizer."""
        return _frozen(state.piece, state.side, _immobilizers(state), colour)

    @staticmethod
    def fits(piece: list[int], cell: int, digit: int, empty: int = -1) -> bool:
        """2.1, 2.7: `digit` on `cell` keeps the Sudoku rule among all numbers of both
        colours, `empty` (the mover's old cell) counting as empty. The twenty peers are
        read in one C call and counted: a loop over them costs three times that."""
        n = PEER_PIECES[cell](piece).count(digit)
        return not n or n == 1 and piece[empty] == digit and empty in PEER_SET[cell]

    def number_targets(self, state: WarState, cell: int) -> list[int]:
        """2.1, 2.4: where the number on `cell` may step: a King's step, or one from an
        adjacent friendly Leap, or from the second of two adjacent Leaps (never back to
        its own cell)."""
        piece, side = state.piece, state.side
        own = side[cell]
        near = [n for n in KING[cell] if piece[n] == LEAP and side[n] == own]
        return list(_reach(piece, side, own, cell, near) if near else KING[cell])

    def piece_moves(self, state: WarState, cell: int, frozen: set[int] | None = None) -> list[Move]:
        """Every legal move of the piece on `cell` (its colour's turn or not)."""
        own = state.side[cell]
        if not state.piece[cell]:
            return []
        return _all_moves(state.piece, state.side, own, frozen if frozen is not None else self.frozen(state, own),
                          _pieces(state), (cell,))

    def legal_moves(self, state: WarState) -> list[Move]:
        """Every move of the side on turn, in the order `piece_moves` gives them cell by
        cell; made in one sweep (`_all_moves`), which is what audits and bots call most."""
        if state.over:
            return []
        piece, side, own = state.piece, state.side, state.turn
        board = _board(state)
        return _all_moves(piece, side, own, _frozen(piece, side, _found(board, IMMOBILIZER), own), board,
                          _found(board, own, 81, 162))

    def has_move(self, state: WarState) -> bool:
        """Whether the side to move has a legal move (3.2): `bool(legal_moves)` without
        making them, the first move found enough (it runs after every move)."""
        return _any_move(state.piece, state.side, state.turn)

    # --- applying a record ----------------------------------------------------------
    def apply(self, state: WarState, action: Action) -> Outcome:
        if state.ending:
            raise IllegalMove("war 3", f"the game is over: {state.ending}")
        if action.type == "move":
            return self._move(state, action)
        if action.type == "resign":
            state.winners = tuple(s for s in self.seats if s != action.by)
            state.ending = f"{action.by} resigned (3.2)"
            return Outcome(events=(f"{action.by} resigns",))
        if action.type == "draw-offer":
            if state.offer == action.by:
                raise IllegalMove("war 3.2", f"{action.by}'s draw offer already stands")
            state.offer = action.by
            return Outcome(events=(f"{action.by} offers a draw",))
        if state.offer is None or state.offer == action.by:
            raise IllegalMove("war 3.2", f"there is no draw offer for {action.by} to "
                              f"{'accept' if action.type == 'draw-accept' else 'decline'}")
        if action.type == "draw-decline":
            state.offer = None
            return Outcome(events=(f"{action.by} declines the draw",))
        state.offer = None
        state.winners = tuple(self.seats)
        state.ending = "a draw agreed (3.2)"
        return Outcome(events=("the players agree a draw",))

    def _move(self, state: WarState, action: Action) -> Outcome:
        move = action.move
        own = SIDE_OF[action.by]
        if not isinstance(move, PieceMove):
            if isinstance(move, Correction):
                return self._correct(state, move, own, action.by)
            raise IllegalMove("war 4", f"a War move is like N (8,2)-(4,9), 7 (7,5)x(4,6) or (7,4)=6; got {move}")
        piece, side = state.piece, state.side
        if not _is_legal(piece, side, own, move):
            illegal = self.explain(state, move, own)
            if illegal is not None:
                raise illegal
        src, dst = move.src, move.dst
        # 3.1: the enemy numbers on the mover's first line; most turns no enemy piece stands there at all
        before = self._on_first_line(state, own) if 3 - own in FIRST_LINE_SIDES[own](side) else []
        took = ""
        if side[dst]:
            victim = piece[dst]
            took = f"{COLOUR_NAME[side[dst]]}'s {victim if victim < 10 else PIECE_NAME[victim]}"
        suicide = piece[src] == STAR and move.capture
        if suicide:  # 2.2: both leave the board
            piece[dst] = side[dst] = 0
        else:
            piece[dst], side[dst] = piece[src], own
        piece[src] = side[src] = 0
        cells = state.cells
        if cells is not None:
            cells[src] = cells[src + 81] = 0
            cells[dst], cells[dst + 81] = piece[dst], side[dst]
        state.last = (src, dst)
        if not before and state.offer is None and not self.repetition and _any_move(piece, side, 3 - own):
            # `_end_turn` of most moves: no enemy number on the first line, no offer to
            # lapse, no repetition to count, and the other side can move
            state.turn = 3 - own
            return Fought(took=took, suicide=suicide) if took else _QUIET_MOVE
        return self._end_turn(state, action.by, took, before, suicide)

    def _correct(self, state: WarState, move: Correction, own: int, seat: str) -> Outcome:
        piece, side = state.piece, state.side
        cell, digit = move.cell, move.digit
        if side[cell] != own or not 0 < piece[cell] < 10:
            raise IllegalMove("war 2.3", f"{name(cell)} holds no number of {COLOUR_NAME[own]}'s to replace", (cell,))
        correctors = [c for c in ORTHO[cell] if piece[c] == CORRECTOR and side[c] == own]
        if not correctors:
            raise IllegalMove("war 2.3", f"no {COLOUR_NAME[own]} Corrector stands orthogonally next to {name(cell)}",
                              (cell,))
        if digit == piece[cell]:
            raise IllegalMove("war 2.3", f"the number at {name(cell)} is a {digit} already: a replacement puts "
                              "another number", (cell,))
        if not self.fits(piece, cell, digit, cell):
            clash = next(p for p in PEERS[cell] if piece[p] == digit)
            raise IllegalMove("war 2.3", f"{digit} at {name(cell)} breaks the Sudoku rule: a {digit} stands at "
                              f"{name(clash)}", (cell, clash))
        before = self._on_first_line(state, own)
        piece[cell] = digit
        if state.cells is not None:
            state.cells[cell] = digit
        state.last = (correctors[0], cell)
        return self._end_turn(state, seat, "", before)

    def explain(self, state: WarState, move: PieceMove, own: int) -> IllegalMove | None:
        """The rule a piece move breaks, naming the cells, or None when it is legal."""
        piece, side = state.piece, state.side
        src, dst = move.src, move.dst
        kind = piece[src]
        if not kind:
            return IllegalMove("war 4", f"{name(src)} is empty", (src,))
        if side[src] != own:
            return IllegalMove("war 1.5", f"the piece at {name(src)} is {COLOUR_NAME[side[src]]}'s, and "
                               f"{COLOUR_NAME[own]} is to move", (src,))
        letter = str(kind) if kind < 10 else LETTER[kind]
        if move.piece != letter:
            what = _a(str(kind)) if kind < 10 else f"{_a(PIECE_NAME[kind])} ({letter})"
            return IllegalMove("war 4", f"{name(src)} holds {what}, not {move.piece}", (src,))
        if src == dst:
            return IllegalMove("war 4", f"a move goes from one cell to another; both are {name(src)}", (src,))
        if side[dst] == own:
            return IllegalMove("war 2", f"{name(dst)} holds a piece of {COLOUR_NAME[own]}'s own", (src, dst))
        enemy = bool(side[dst])
        refused = self._cannot_take(kind, piece[dst], dst, side[dst]) if enemy else None
        if refused is not None:
            return IllegalMove(f"war {_RULE[kind]}", refused, (src, dst))
        if move.capture != enemy and not (kind == STAR and enemy):
            mark = "x" if enemy else "-"
            return IllegalMove("war 4", f"{name(dst)} is {'an enemy piece' if enemy else 'empty'}: write "
                               f"{letter} {name(src)}{mark}{name(dst)}", (src, dst))
        if kind == STAR and enemy and not move.capture:
            return IllegalMove("war 4", f"a Star onto an enemy is a suicide capture: write S {name(src)}x{name(dst)}",
                               (src, dst))
        if move in self.piece_moves(state, src):
            return None
        cells = (src, dst)
        if kind < 10:
            if src in self.frozen(state, own):
                imm = next(c for c in KING[src] if piece[c] == IMMOBILIZER and side[c] not in (0, own))
                return IllegalMove("war 2.6", f"the {kind} at {name(src)} stands next to the enemy Immobilizer at "
                                   f"{name(imm)} and cannot move", (src, imm))
            if dst not in self.number_targets(state, src):
                return IllegalMove("war 2.1", f"a number moves a King's step (or from an adjacent Leap, 2.4); "
                                   f"{name(dst)} is out of reach from {name(src)}", cells)
            clash = next(p for p in PEERS[dst] if piece[p] == kind and p != src)
            return IllegalMove("war 2.1", f"{kind} at {name(dst)} breaks the Sudoku rule: a {kind} stands at "
                               f"{name(clash)}", (src, dst, clash))
        pname = PIECE_NAME[kind]
        if kind in (STAR, CORRECTOR, LEAP):
            rays = QUEEN_RAYS[src] if kind == LEAP else ROOK_RAYS[src]
            for ray in rays:
                if dst in ray:
                    block = next(t for t in ray[: ray.index(dst)] if piece[t])
                    return IllegalMove(f"war {_RULE[kind]}", f"{_a(pname)} cannot slide through the piece at "
                                       f"{name(block)}", (src, block, dst))
        how = {STAR: "like a Rook, or jumps within its own field", CORRECTOR: "like a Rook", LEAP: "like a Queen",
               KNIGHT: "like a chess Knight", IMMOBILIZER: "a King's step"}[kind]
        return IllegalMove(f"war {_RULE[kind]}", f"{_a(pname)} moves {how}; {name(dst)} is out of reach from "
                           f"{name(src)}", cells)

    @staticmethod
    def _cannot_take(kind: int, target: int, cell: int, colour: int) -> str | None:
        """Why a piece of `kind` may not take the enemy `target` on `cell` (2.2-2.6), or None."""
        what = f"{COLOUR_NAME[colour]}'s {target if target < 10 else PIECE_NAME[target]}"
        if kind in (CORRECTOR, LEAP, IMMOBILIZER):
            return f"{_a(PIECE_NAME[kind])} cannot capture; {name(cell)} holds {what}"
        if kind == STAR and target >= 10:
            return f"a Star takes only an enemy number, by suicide; {name(cell)} holds {what}"
        if kind == KNIGHT and target < 10:
            return f"a Knight captures hired pieces, never numbers; {name(cell)} holds {what}"
        return None

    def _end_turn(self, state: WarState, seat: str, took: str, before: list[int], suicide: bool = False) -> Outcome:
        """3.1 ruling: the mover loses if an enemy number that stood on the mover's first
        line when the turn began still stands there; 3.2: then the other side must have
        a move, and repetition=3 draws the third time a position stands."""
        own = SIDE_OF[seat]
        enemy = BLACK if own == WHITE else WHITE
        events: list[str] = []
        if state.offer is not None and state.offer != seat:
            events.append(f"{seat} moves: {state.offer}'s draw offer lapses")
            state.offer = None
        piece, side = state.piece, state.side
        # still there, in line order (most turns began with none there)
        staying = [c for c in before if side[c] and side[c] != own and piece[c] < 10] if before else before
        state.turn = enemy
        if staying:
            state.winners = (SEAT_OF[enemy],)
            state.ending = (f"{COLOUR_NAME[enemy]}'s number at {name(staying[0])} stood on {COLOUR_NAME[own]}'s first "
                            f"line a whole turn (3.1)")
        elif self.repetition or not _any_move(piece, side, enemy):  # else `_arrive` would find nothing
            self._arrive(state)
        if state.ending:
            events.append(f"the game is over: {state.ending}")
        if not took and not events:
            return _QUIET_MOVE
        return Fought(took=took, suicide=suicide, events=tuple(events))

    def _arrive(self, state: WarState) -> None:
        """The turn of `state.turn` begins:
        end the game when it has no legal move (3.2) or a position stands a third time
        (repetition=3)."""
        if self.repetition:
            key = position_text(state.piece, state.side, state.turn)
            state.seen[key] = state.seen.get(key, 0) + 1
            if state.seen[key] >= 3:
                state.winners = tuple(self.seats)
                state.ending = "the same position stood a third time, the same side to move (3.2): a draw"
                return
        if not _any_move(state.piece, state.side, state.turn):
            mover = SEAT_OF[state.turn]
            state.winners = tuple(s for s in self.seats if s != mover)
            state.ending = f"{COLOUR_NAME[state.turn]} has no legal move (3.2)"

    @staticmethod
    def _on_first_line(state: WarState, colour: int) -> list[int]:
        """The enemy numbers standing on `colour`'s first line, in `FIRST_LINE`'s order."""
        piece, side = state.piece, state.side
        return [c for c in FIRST_LINE_CELLS[colour] if side[c] and side[c] != colour and piece[c] < 10]

    def threatened(self, state: WarState) -> list[int]:
        """3.1: the enemy numbers on the first line of the side to move, which it must
        take this turn or lose."""
        return [] if state.over else sorted(self._on_first_line(state, state.turn))

    # --- results and views ----------------------------------------------------------
    def result(self, state: WarState, now: datetime | None = None) -> Result:
        scores = {SEAT_OF[col]: sum(1 for s in state.side if s == col) for col in (WHITE, BLACK)}
        return Result(state.over, state.winners, scores)

    def moved_cells(self, move: Move) -> tuple[int, ...]:
        if isinstance(move, PieceMove):
            return (move.src, move.dst)
        if isinstance(move, Correction):
            return (move.cell,)
        return ()

    def view(self, state: WarState, viewer: str | None, now: datetime | None = None) -> Seen:
        """Everything is public: the pieces by side, the position string (1.4), the last
        move's cells, the numbers that must be taken (3.1), the frozen ones (2.6), a
        standing draw offer (3.2) and the end."""
        piece, side = state.piece, state.side
        cells: list[str | None] = []
        for c in range(81):
            if not side[c]:
                cells.append(None)
            else:
                p = piece[c]
                cells.append(("W" if side[c] == WHITE else "B") + (str(p) if p < 10 else LETTER[p]))
        shown = {
            "cells": cells,
            "position": position_text(piece, side, state.turn),
            "colours": {"A": "White", "B": "Black"},
            "last_from": name(state.last[0]) if state.last else None,
            "last_to": name(state.last[1]) if state.last else None,
            "must_take": [name(c) for c in self.threatened(state)],
            "frozen": sorted(name(c) for c in self.frozen(state, state.turn)) if not state.over else [],
            "draw_offer": state.offer,
            "end": state.ending or None,
        }
        return Seen(shown, last_cell=state.last[1] if state.last else None)


_a = with_article
#: `state_key`'s tail while the game runs with no draw offer, by the colour to move
_RUNNING_TAIL = {WHITE: b"|1|||", BLACK: b"|2|||"}
#: `on_turn` while the game runs, by the colour to move
_ON_TURN = {colour: (seat,) for colour, seat in SEAT_OF.items()}
#: a move that took nothing and told nothing: outcomes are immutable, so one serves them all
_QUIET_MOVE = Fought()


_RULE = {STAR: "2.2", CORRECTOR: "2.3", LEAP: "2.4", KNIGHT: "2.5", IMMOBILIZER: "2.6"}
assert _default_setup() == DEFAULT_SETUP


# --- every move of a side at once ---------------------------------------------------------
#: the cells a King's step and a Knight's jump reach, as sets to test one target
KING_SET = tuple(frozenset(k) for k in KING)
KNIGHT_SET = tuple(frozenset(k) for k in KNIGHT_JUMPS)
OWN_FIELD_SET = tuple(frozenset(f) for f in OWN_FIELD)


def _between(rays: tuple[tuple[tuple[int, ...], ...], ...]) -> dict[tuple[int, int], tuple[int, ...]]:
    """(from, to) -> the cells a slide along one of `rays` crosses on the way."""
    return {(c, t): ray[:i] for c in range(81) for ray in rays[c] for i, t in enumerate(ray)}


#: the cells a Rook's (Star, Corrector) and a Queen's (Leap) slide crosses, by (from, to)
ROOK_BETWEEN = _between(ROOK_RAYS)
QUEEN_BETWEEN = _between(QUEEN_RAYS)
#: the letter a move writes for each piece kind (1-9 the digit)
WRITTEN = ("",) + tuple(str(d) for d in range(1, 10)) + tuple(LETTER[k] for k in range(STAR, IMMOBILIZER + 1))
#: per cell: its peers as a bit mask, so that one test asks whether a target shares a
#: unit with any other holder of a digit (2.1) instead of reading its twenty peers
PEER_MASK = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
#: per cell: a Star's jumps within its own field (2.2), each with the cells a Rook's
#: slide there crosses (None off the Star's row and column): a jump a slide already
#: makes is not made twice
STAR_JUMPS = tuple(tuple((t, ROOK_BETWEEN.get((c, t))) for t in OWN_FIELD[c]) for c in range(81))
#: per cell: the Corrector's replacements there (2.3), by digit 1-9; made once, as moves are immutable
REPLACEMENTS = tuple(tuple((d, Correction(c, d)) for d in range(1, 10)) for c in range(81))
#: per kind * 81 + from cell: the piece's moves to each cell, quiet at dst, captures at
#: 81 + dst, each made the first time it is legal
_ROWS: list[list[PieceMove | None] | None] = [None] * ((IMMOBILIZER + 1) * 81)


def _row(kind: int, src: int) -> list[PieceMove | None]:
    """The piece's table of moves from `src`, made empty the first time it moves from there."""
    row = _ROWS[kind * 81 + src] = [None] * 162
    return row


def _from_row(row: list[PieceMove | None], kind: int, src: int, dst: int, capture: bool) -> PieceMove:
    """The move from `src` to `dst` out of the piece's table, made the first time."""
    i = dst + 81 if capture else dst
    m = row[i]
    if m is None:
        m = row[i] = _piece_move(WRITTEN[kind], src, dst, capture)
    return m


def _board(state: WarState) -> bytes | bytearray:
    """The state's pieces then sides as bytes: the ones it keeps (`WarState.cells`), else made."""
    cells = state.cells
    return cells if cells is not None else bytes(state.piece) + bytes(state.side)


def _pieces(state: WarState) -> bytes | bytearray:
    """The state's pieces as bytes (the sides may follow): the ones it keeps, else made."""
    cells = state.cells
    return cells if cells is not None else bytes(state.piece)


def _found(board: bytes | bytearray, value: int, start: int = 0, stop: int = 81) -> list[int]:
    """The cells whose byte in `board[start:stop]` is `value`, ascending, searched for in C."""
    out: list[int] = []
    i = board.find(value, start, stop)
    while i >= 0:
        out.append(i - start)
        i = board.find(value, i + 1, stop)
    return out


def _frozen(piece: list[int], side: list[int], immobilizers: list[int], colour: int) -> set[int]:
    """2.6: `colour`'s numbers next to an enemy Immobilizer, looked for around the
    Immobilizers (at most four) instead of on all 81 cells."""
    out: set[int] = set()
    for c in immobilizers:
        s = side[c]
        if s and s != colour:
            for n in KING[c]:
                if side[n] == colour and 0 < piece[n] < 10:
                    out.add(n)
    return out


def _reach(piece: list[int], side: list[int], own: int, cell: int, near: Sequence[int]) -> tuple[int, ...]:
    """2.1, 2.4: where `own`'s number on `cell` may step (`War.number_targets`) when
    `near` (ascending) are the friendly Leaps beside it: a King's step, or one from one
    of them or from a second Leap beside it, never back to `cell`."""
    more = list(KING[cell])
    for leap in near:
        more.extend(KING[leap])
        for second in KING[leap]:
            if piece[second] == LEAP and side[second] == own and second != cell:
                more.extend(KING[second])
    return tuple(dict.fromkeys(t for t in more if t != cell))


def _all_moves(piece: list[int], side: list[int], own: int, frozen: set[int], board: bytes | bytearray,
               cells: Sequence[int]) -> list[Move]:
    """The legal moves of `own`'s pieces on `cells` (ascending; 2.1-2.6), cell by cell.
    `board` holds the pieces as bytes (`WarState.cells`, read to cell 80): the Leaps
    and a digit's holders are found in it by byte search, and the Sudoku rule (2.1)
    becomes one bit test per target against the peers of the digit's other holders.
    Each move object is found by its index in a table."""
    moves: list[Move] = []
    add = moves.append
    leaps: list[int] = []
    lent: set[int] | None = None  # 2.4: where a number has a Leap beside it; found at the first number
    for cell in cells:
        kind = piece[cell]
        if not kind:
            continue
        row = _ROWS[kind * 81 + cell] or _row(kind, cell)
        if kind < 10:  # a number (2.1)
            if cell in frozen:
                continue
            if lent is None:
                leaps = [c for c in _found(board, LEAP) if side[c] == own]
                lent = set().union(*[KING_SET[c] for c in leaps])
            blocked = 0  # the cells where `kind` would share a unit with another of its holders
            h = board.find(kind, 0, 81)
            while h >= 0:
                if h != cell:
                    blocked |= PEER_MASK[h]
                h = board.find(kind, h + 1, 81)
            targets = KING[cell]
            if cell in lent:
                targets = _reach(piece, side, own, cell, [n for n in leaps if n in KING_SET[cell]])
            for t in targets:
                st = side[t]
                if st == own or blocked >> t & 1:
                    continue
                add(row[t + 81 if st else t] or _from_row(row, kind, cell, t, bool(st)))
            continue
        if kind == KNIGHT:  # 2.5: captures enemy hired pieces only
            for t in KNIGHT_JUMPS[cell]:
                if not piece[t]:
                    add(_from_row(row, kind, cell, t, False))
                elif side[t] != own and piece[t] >= 10:
                    add(_from_row(row, kind, cell, t, True))
            continue
        if kind == IMMOBILIZER:  # 2.6: a King's step, no capture
            for t in KING[cell]:
                if not piece[t]:
                    add(row[t] or _from_row(row, kind, cell, t, False))
            continue
        for ray in (QUEEN_RAYS[cell] if kind == LEAP else ROOK_RAYS[cell]):  # 2.2-2.4: slides, no capture
            for t in ray:
                if piece[t]:
                    if kind == STAR and side[t] != own and piece[t] < 10:
                        add(row[t + 81] or _from_row(row, kind, cell, t, True))  # suicide capture (2.2)
                    break
                add(row[t] or _from_row(row, kind, cell, t, False))
        if kind == STAR:  # 2.2: a jump to an empty cell of its own field, or a suicide capture there
            for t, between in STAR_JUMPS[cell]:
                p = piece[t]
                if p and (p >= 10 or side[t] == own):
                    continue
                if between is not None and not any(piece[b] for b in between):
                    continue  # a slide got there
                add(_from_row(row, kind, cell, t, bool(p)))
        elif kind == CORRECTOR:  # 2.3: replace an orthogonally adjacent friendly number
            for t in ORTHO[cell]:
                n = piece[t]
                if side[t] == own and 0 < n < 10:
                    present = set(PEER_PIECES[t](piece))
                    present.add(n)
                    moves.extend([r for d, r in REPLACEMENTS[t] if d not in present])
    return moves


# --- one question about a position, answered without making every move ---------------------


def _immobilizers(state: WarState) -> list[int]:
    """The cells of the Immobilizers (at most four), found by byte search (`_found`)."""
    return _found(_pieces(state), IMMOBILIZER)


def _held(piece: list[int], side: list[int], cell: int, own: int) -> bool:
    """2.6: an enemy Immobilizer stands next to `own`'s number on `cell`."""
    if IMMOBILIZER not in KING_READ[cell](piece):
        return False
    for n in KING[cell]:
        if piece[n] == IMMOBILIZER and side[n] and side[n] != own:
            return True
    return False


_fits = War.fits  # without the method lookup


def _reaches(piece: list[int], side: list[int], own: int, cell: int, dst: int) -> bool:
    """2.1, 2.4: `dst` is among `War.number_targets(cell)`: a King's step away, or one
    from an adjacent friendly Leap or from a second Leap beside it."""
    if dst in KING_SET[cell]:
        return True
    for leap in KING[cell]:
        if piece[leap] == LEAP and side[leap] == own:
            if dst in KING_SET[leap]:
                return True
            for second in KING[leap]:
                if piece[second] == LEAP and side[second] == own and second != cell and dst in KING_SET[second]:
                    return True
    return False


def _is_legal(piece: list[int], side: list[int], own: int, move: PieceMove) -> bool:
    """Whether `move` is among the moves `_all_moves` makes for `own` (2.1-2.6), asked of
    the one move a record makes instead of making all of its piece's: an audit asks it
    once per record. `War.explain` says why when it is not."""
    src, dst = move.src, move.dst
    kind = piece[src]
    if not kind or side[src] != own or src == dst or move.piece != WRITTEN[kind]:
        return False
    there = side[dst]
    if there == own or move.capture != bool(there):
        return False
    if kind < 10:
        return (not _held(piece, side, src, own) and _reaches(piece, side, own, src, dst)
                and _fits(piece, dst, kind, src))
    if kind == KNIGHT:
        return dst in KNIGHT_SET[src] and (not there or piece[dst] >= 10)
    if kind == IMMOBILIZER:
        return not there and dst in KING_SET[src]
    if there and (kind != STAR or piece[dst] >= 10):  # 2.2: a Star takes an enemy number only
        return False
    if kind == STAR and dst in OWN_FIELD_SET[src]:
        return True
    between = (QUEEN_BETWEEN if kind == LEAP else ROOK_BETWEEN).get((src, dst))
    if between is None:
        return False
    for t in between:
        if piece[t]:
            return False
    return True


def _any_move(piece: list[int], side: list[int], own: int) -> bool:
    """Whether `own` has a legal move (3.2): `bool(_all_moves(...))`, stopping at the
    first piece that can move, looking from `own`'s own side of the board, where its
    pieces stand most."""
    for cell in (range(80, -1, -1) if own == WHITE else range(81)):
        if side[cell] == own and _can_move(piece, side, own, cell):
            return True
    return False


def _can_move(piece: list[int], side: list[int], own: int, cell: int) -> bool:
    """Whether `own`'s piece on `cell` has a legal move: `bool(War.piece_moves)`,
    answered by the first one found."""
    kind = piece[cell]
    if not kind:
        return False
    if kind < 10:
        if _held(piece, side, cell, own):
            return False
        for t in KING[cell]:
            if side[t] != own and _fits(piece, t, kind, cell):
                return True
        for leap in KING[cell]:  # 2.4: the steps a Leap beside it lends
            if piece[leap] == LEAP and side[leap] == own:
                return bool(_all_moves(piece, side, own, set(), bytes(piece), (cell,)))
        return False
    if kind == KNIGHT:
        for t in KNIGHT_JUMPS[cell]:
            if not piece[t] or side[t] != own and piece[t] >= 10:
                return True
        return False
    if kind == STAR:
        for t in OWN_FIELD[cell]:
            if not piece[t] or side[t] != own and piece[t] < 10:
                return True
        for ray in ROOK_RAYS[cell]:
            t = ray[0]
            if not piece[t] or side[t] != own and piece[t] < 10:
                return True
        return False
    if kind != CORRECTOR:  # a Leap or an Immobilizer: a slide or step to an empty neighbour
        return 0 in KING_READ[cell](piece)
    for t in ORTHO[cell]:  # a Corrector: a slide to an empty neighbour, or a replacement beside it
        if not piece[t]:
            return True
    for t in ORTHO[cell]:
        n = piece[t]
        if side[t] == own and 0 < n < 10:
            for d in range(1, 10):
                if d != n and _fits(piece, t, d, t):
                    return True
    return False
