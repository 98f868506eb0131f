"""Computer opponents for Sudoku Domino (docs/rules/domino.md).

A seat sees its own board, its lives and jokers and the digit it is given, never the
digits to come (2.1, 7.2); what it does know is their multiset: every digit of the
order is a stone of the solution, so digit d still comes 9 - (the stones of d on the
board) times. `greedy` lays the given digit where it scores most now (5), on a docking
cell where it keeps the Sudoku rule (3.1 costs a life otherwise), preferring a cell the
digit is sure of (the only candidate of the cell, or the only place of the digit in a
row, column or field). `strong` keeps the board solvable (the puzzle solver, jokers
counted as free cells), and where several cells take the digit it plays out the rest
of the game many times on sampled digit orders and sampled solutions (Monte Carlo) and
lays the digit where the puzzle was completed most often; jokers are kept for when the
digit fits no docking cell, and fill the last cells when nothing else can (4.1).

`Choice.expect` is in points (5): what the move scores now, plus for `strong` the
complete puzzle's 500 times the share of play-outs that completed it.
"""

from __future__ import annotations

import random
import time
from typing import Sequence

from corr.games.base import BotView, Choice
from corr.games.domino.rules import GOLD, GREY, UNITS
from corr.geometry import name
from corr.notation import Joker, Move, Placement
from corr.games.domino.deal import ENTRIES, docking_cells

#: Seconds a `strong` move may think by default; a move stays well under 2 s.
BUDGET = 1.0
_BITS = [0] + [1 << d for d in range(1, 10)]
#: For each cell, the indexes of the entries (lines from one edge, corr.games.domino.deal)
#: that pass through it.
_ENTRIES_OF: list[tuple[int, ...]] = [tuple(i for i, e in enumerate(ENTRIES) if c in e) for c in range(81)]
#: For each cell, the cells next to it along its row and column.
_NEIGHBOURS: list[tuple[int, ...]] = [
    tuple(n for n, ok in ((c - 9, c >= 9), (c + 9, c < 72), (c - 1, c % 9), (c + 1, c % 9 < 8)) if ok)
    for c in range(81)
]
_PEERS: list[tuple[int, ...]] = [
    tuple(sorted({p for _, unit in UNITS[c] for p in unit} - {c})) for c in range(81)
]


def read_board(text: str) -> list[int]:
    """A board from its 81 characters (domino.board_text): digits, `.`, `g`, `G`."""
    return [0 if ch == "." else GREY if ch == "g" else GOLD if ch == "G" else int(ch) for ch in text]


def stones(cells: Sequence[int]) -> list[int]:
    """The stones alone: jokers stand for any digit, so the solver sees them as free."""
    return [d if d < GREY else 0 for d in cells]


def fits(cells: Sequence[int], cell: int, digit: int) -> bool:
    """Whether `digit` on `cell` keeps the Sudoku rule against the stones (3.1)."""
    return not any(cells[p] == digit for p in _PEERS[cell])


def gain(cells: Sequence[int], cell: int, piece: int) -> int:
    """The points (5) of `piece` (a digit, GREY or GOLD) on the empty `cell`, without
    the time bonus: 5 for a stone or gold joker, 10 x the stones of each unit it
    completes (a grey joker in it voids that), 50 or 100 more for two or three units, 500
    for the last cell."""
    if piece == GREY:
        points, done = 0, 0
    else:
        points, done = 5, 0
        for _, unit in UNITS[cell]:
            if all(cells[c] or c == cell for c in unit) and not any(cells[c] == GREY for c in unit):
                points += 10 * sum(cells[c] for c in unit if cells[c] < GREY) + 10 * (piece if piece < GREY else 0)
                done += 1
        points += {2: 50, 3: 100}.get(done, 0)
    if sum(1 for d in cells if not d) == 1:
        points += 500
    return points


def left_to_come(cells: Sequence[int], given: int) -> list[int]:
    """The digits still to come after the given one, as a multiset: nine of each digit
    less the stones on the board and the given digit."""
    count = [9] * 10
    for d in cells:
        if 0 < d < GREY:
            count[d] -= 1
    count[given] -= 1
    return [d for d in range(1, 10) for _ in range(max(count[d], 0))]


class Seen:
    """What the seat sees of its own board: cells, the given digit, jokers, lives."""

    def __init__(self, view: BotView) -> None:
        pos = view.position
        self.cells = read_board(pos["board"])
        self.given = pos.get("given") or next(
            (m.digit for m in view.legal if isinstance(m, Placement)), 0
        )
        self.jokers = dict(pos.get("jokers", {}).get(view.seat, {"grey": 0, "gold": 0}))
        self.legal = view.legal

    def empty(self) -> list[int]:
        return [c for c in range(81) if not self.cells[c]]

    def docking(self) -> list[int]:
        return docking_cells(self.cells)

    def fitting(self) -> list[int]:
        """Docking cells where the given digit keeps the Sudoku rule (no life lost)."""
        d = self.given
        return [c for c in self.docking() if fits(self.cells, c, d)] if d else []

    def points(self, move: Placement | Joker) -> int:
        if isinstance(move, Joker):
            return gain(self.cells, move.cell, GOLD if move.kind == "gold" else GREY)
        return gain(self.cells, move.cell, move.digit)


def _sure(cells: Sequence[int], cell: int, digit: int) -> bool:
    """The digit is sure of the cell by what the board shows: it is the cell's only
    candidate, or the cell is its only place in the cell's row, column or field."""
    cand = [d for d in range(1, 10) if fits(cells, cell, d)]
    if cand == [digit]:
        return True
    for _, unit in UNITS[cell]:
        if any(cells[c] == digit for c in unit):
            continue
        if all(c == cell or cells[c] or not fits(cells, c, digit) for c in unit):
            return True
    return False


def greedy(view: BotView, rng: random.Random) -> Choice:
    """The given digit where it scores most now, on a cell it is sure of if one docks;
    with no docking cell for it, the joker that scores most now."""
    seen = Seen(view)
    d = seen.given
    fitting = seen.fitting()
    if fitting:
        best = max((_sure(seen.cells, c, d), seen.points(Placement(d, c)), rng.random(), c) for c in fitting)
        sure, points, _, cell = best
        why = f"lays {d} on {name(cell)}" + (", the only place it can be" if sure else "") + f": {points} points"
        return Choice(Placement(d, cell), float(points), why)
    jokers = [m for m in view.legal if isinstance(m, Joker)]
    if jokers:
        joker = max(jokers, key=lambda m: (seen.points(m), _opens(seen.cells, m.cell, d), rng.random()))
        return Choice(joker, float(seen.points(joker)), f"{d} fits no docking cell: a {joker.kind} joker on {name(joker.cell)}")
    move = rng.choice(view.legal)
    return Choice(move, 0.0, f"{d} fits no docking cell and no joker is left")


def _opens(cells: Sequence[int], cell: int, digit: int) -> int:
    """How many docking cells that take `digit` a joker on `cell` makes."""
    after = list(cells)
    after[cell] = GREY
    return sum(1 for c in docking_cells(after) if fits(cells, c, digit))


# --- strong -----------------------------------------------------------------------------


def _solve(cells: list[int], rng: random.Random) -> list[int] | None:
    """One solution of the stones, chosen at random: the solver finds the first in its
    own order, so the digits are relabelled at random before and back after."""
    from corr.puzzles.solver import solve

    label = list(range(1, 10))
    rng.shuffle(label)
    there = [0] + label
    back = [0] * 10
    for d in range(1, 10):
        back[there[d]] = d
    found = solve([there[d] for d in cells])
    return None if found is None else [back[d] for d in found]


class _Playout:
    """A board played out fast: the docking cell of each of the 36 entries is kept up to
    date as stones land, instead of sliding along every line after each stone."""

    __slots__ = ("cells", "dock", "count")

    def __init__(self, cells: list[int]) -> None:
        self.cells = cells
        self.dock = [self._entry_dock(e) for e in ENTRIES]
        self.count = [0] * 81
        for c in self.dock:
            if c >= 0:
                self.count[c] += 1

    def _entry_dock(self, entry: tuple[int, ...]) -> int:
        cells = self.cells
        if cells[entry[0]]:
            return -1
        for before, cell in zip(entry, entry[1:]):
            if cells[cell]:
                return before
        return -1

    def put(self, cell: int, piece: int) -> None:
        self.cells[cell] = piece
        for i in _ENTRIES_OF[cell]:
            old = self.dock[i]
            new = self._entry_dock(ENTRIES[i])
            if old != new:
                if old >= 0:
                    self.count[old] -= 1
                if new >= 0:
                    self.count[new] += 1
                self.dock[i] = new

    def docking(self) -> set[int]:
        return {c for c in self.dock if c >= 0}


def _backed(cells: Sequence[int], cell: int) -> int:
    """How many stones or jokers stand next to a cell along its row and column: a cell
    deep among stones is the one later stones would shut in, so it is filled first."""
    return sum(1 for n in _NEIGHBOURS[cell] if cells[n])


def _play_out(cells: list[int], solution: list[int], order: list[int], rng: random.Random) -> int:
    """How many of the digits in `order` land on a docking cell the solution gives them,
    each on the cell most shut in (ties at random); stops at the first that cannot."""
    board = _Playout(cells)
    laid = 0
    for e in order:
        best, best_key = -1, -1.0
        for c in board.docking():
            if solution[c] == e:
                key = _backed(board.cells, c) + rng.random()
                if key > best_key:
                    best, best_key = c, key
        if best < 0:
            return laid
        board.put(best, e)
        laid += 1
    return laid


def _with(cells: Sequence[int], cell: int, digit: int) -> list[int]:
    """The stones with `digit` laid on `cell`."""
    trial = stones(cells)
    trial[cell] = digit
    return trial


def _consistent(cells: list[int], digit: int, rng: random.Random) -> dict[int, list[int]]:
    """The docking cells where `digit` keeps the puzzle solvable, each with a solution."""
    found = {}
    for c in docking_cells(cells):
        if fits(cells, c, digit):
            solution = _solve(_with(cells, c, digit), rng)
            if solution is not None:
                found[c] = solution
    return found


def strong(view: BotView, rng: random.Random, *, budget: float = BUDGET, playouts: int = 300) -> Choice:
    """Lays the given digit where the puzzle stays solvable and play-outs of the digits
    to come complete it most often; a joker only when the digit fits no such cell."""
    start = time.perf_counter()
    seen = Seen(view)
    d = seen.given
    options = _consistent(seen.cells, d, rng) if d else {}
    if len(options) == 1:
        (cell,) = options
        points = seen.points(Placement(d, cell))
        return Choice(Placement(d, cell), float(points), f"lays {d} on {name(cell)}, the one docking cell it keeps the puzzle solvable on")
    if options:
        return _best_of(seen, options, rng, start + budget, playouts, view)
    return _joker_or_fit(seen, view, rng)


def _orders(seen: Seen, rng: random.Random) -> list[int]:
    """A sampled order of the digits to come: which digits come is known (each stone of
    the solution that is not on the board), their order is no seat's to know (2.1), a
    public seed's included."""
    digits = left_to_come(seen.cells, seen.given)
    rng.shuffle(digits)
    return digits


def _best_of(seen: Seen, options: dict[int, list[int]], rng: random.Random, deadline: float, playouts: int,
             view: BotView) -> Choice:
    """Monte Carlo over digit orders and solutions: each option played out on the same
    sampled orders, so that they differ by the cell alone."""
    d = seen.given
    cells = seen.cells
    to_fill = sum(1 for c in cells if not c) - 1
    solutions = {c: [s] for c, s in options.items()}
    total = {c: 0.0 for c in options}
    complete = {c: 0 for c in options}
    runs = 0
    while runs < playouts and (runs < 2 or time.perf_counter() < deadline):
        order = _orders(seen, rng)
        for c in options:
            pool = solutions[c]
            if len(pool) < 6 and runs % 3 == 1:  # more solutions as time allows
                extra = _solve(_with(cells, c, d), rng)
                if extra is not None:
                    pool.append(extra)
            board = list(cells)
            board[c] = d
            laid = _play_out(board, rng.choice(pool), order, rng)
            total[c] += laid
            complete[c] += laid >= to_fill
        runs += 1
    best = max(options, key=lambda c: (complete[c], total[c], seen.points(Placement(d, c)), rng.random()))
    share = complete[best] / runs
    points = seen.points(Placement(d, best))
    why = (f"lays {d} on {name(best)}: of {runs} play-outs of the digits to come "
           f"{complete[best]} complete the puzzle from there")
    return Choice(Placement(d, best), points + 500 * share, why)


def _joker_or_fit(seen: Seen, view: BotView, rng: random.Random) -> Choice:
    """No docking cell keeps the puzzle solvable with the given digit: fill the last
    cells with jokers where they suffice (gold first, it scores), else the joker that
    opens a docking cell for the digit, else the digit where it at least keeps the
    Sudoku rule."""
    d = seen.given
    empty = seen.empty()
    move: Move
    kinds = [k for k in ("gold", "grey") if seen.jokers.get(k)]
    if kinds and len(empty) <= sum(seen.jokers.values()):
        kind = kinds[0]
        piece = GOLD if kind == "gold" else GREY
        cell = max(empty, key=lambda c: (gain(seen.cells, c, piece), rng.random()))
        move = Joker(kind, cell)
        return Choice(move, float(seen.points(move)), f"a {kind} joker on {name(cell)}: jokers fill the last cells")
    if kinds and d:
        opening = []
        before = set(seen.docking())
        for z in empty:
            after = list(seen.cells)
            after[z] = GREY
            new = [c for c in docking_cells(after) if c not in before and fits(after, c, d)]
            found = sum(1 for c in new if _solve(_with(after, c, d), rng) is not None)
            if found:
                opening.append((found, _backed(seen.cells, z), rng.random(), z))
        if opening:
            cell = max(opening)[-1]
            kind = kinds[0]
            move = Joker(kind, cell)
            return Choice(move, float(seen.points(move)),
                          f"{d} keeps the puzzle solvable on no docking cell: a {kind} joker on {name(cell)} opens one")
    fitting = seen.fitting()
    if fitting:
        cell = max(fitting, key=lambda c: (seen.points(Placement(d, c)), rng.random()))
        move = Placement(d, cell)
        return Choice(move, float(seen.points(move)), f"lays {d} on {name(cell)}, where it keeps the Sudoku rule")
    if kinds:
        kind = kinds[0]
        cell = max(empty, key=lambda c: (_opens(seen.cells, c, d), rng.random()))
        move = Joker(kind, cell)
        return Choice(move, float(seen.points(move)), f"{d} fits no docking cell: a {kind} joker on {name(cell)}")
    move = rng.choice(view.legal)
    return Choice(move, 0.0, f"{d} fits no docking cell and no joker is left")
