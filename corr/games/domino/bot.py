"""Computer opponents for Sudoku Domino (docs/rules/domino.md).

A seat sees its own board, its lives and jokers and the digit it is given, never the
digits to come (2.1, 7.2); what it does know is their multiset: every digit of the
order is a stone of the solution, so digit d still comes 9 - (the stones of d on the
board) times. `greedy` lays the given digit where it scores most now (5), on a docking
cell where it keeps the Sudoku rule (3.1 costs a life otherwise), preferring a cell the
digit is sure of (the only candidate of the cell, or the only place of the digit in a
row, column or field). `strong` knows every solution of its board (up to POOL of them,
jokers counted as free cells) and lays the digit only where one still puts it, so the
puzzle stays solvable (3.2). Where several cells take it, it plays out the rest of the
game on sampled orders of the digits to come and lays the digit where the puzzle was
completed most often. An order is sampled as the dealer makes one (7.1): the digits
given so far (the seat's own records) laid from the start on a docking cell each, as
the deal may have laid them, then a solution filled in along docking cells from there,
deep cells first and never shutting a cell in (3.3), as a deal peeled from the edge
inwards gives them; so the play-outs meet the orders a deal gives, docking on the
deal's board, which is not the seat's once it laid a digit elsewhere. A play-out lays
each digit where a solution still standing puts it, never shutting a cell in where it
can help it, on the deepest cell, then the one most shut in; jokers are kept for a
digit no docking cell takes (then on the cell whose play-outs complete most often) and
for the last cells (4.1).

`Choice.expect` is in points (5): what the move scores now, plus for `strong` the
complete puzzle's 500 times the share of play-outs that completed it.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Sequence

from corr.games.base import BotView, Choice
from corr.games.domino.rules import GOLD, GREY, UNITS
from corr.geometry import name
from corr.notation import Joker, Move, Placement, parse
from corr.games.domino.deal import ENTRIES, docking_cells, unreachable_cells

#: Seconds a `strong` move may think by default; a move stays well under 2 s.
BUDGET = 1.0
_BITS = [0] + [1 << d for d in range(1, 10)]
#: For each cell, the cells next to it along its row and column.
_NEIGHBOURS: list[tuple[int, ...]] = [
    tuple(n for n, ok in ((c - 9, c >= 9), (c + 9, c < 72), (c - 1, c % 9), (c + 1, c % 9 < 8)) if ok)
    for c in range(81)
]
#: For each cell, how far it lies from the board's edge (0 on the edge, 4 in the middle).
#: A deal is peeled from the edge inwards (7.1), so its digits come from the middle
#: outwards: the deepest cells first, the edge's last.
_DEPTH = [min(c // 9, c % 9, 8 - c // 9, 8 - c % 9) for c in range(81)]
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
        start = pos.get("start")
        self.start = read_board(start) if start else None
        self.laid = _laid(self.cells, view)

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


def _laid(cells: Sequence[int], view: BotView) -> list[int]:
    """The digits given so far, in the order they came, as the seat's own records show
    them: each placement whose stone lies on its cell (a misplacement vanished, 3.1, and
    its digit came again)."""
    laid = []
    for _, seat, text in view.history:
        if seat != view.seat:
            continue
        move = parse(text)
        if isinstance(move, Placement) and cells[move.cell] == move.digit:
            laid.append(move.digit)
    return laid


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

#: Solutions of the board a strong move enumerates at most: a deal of 30 givens has from
#: some tens to a few thousand, and fewer with every stone, so most moves know them all.
POOL = 2000
#: By a relabelled digit r: the byte table that spells r as "1" and any other digit "0".
_SPELL = [bytes(49 if b == r else 48 for b in range(256)) for r in range(10)]
#: For each cell, its four straight paths to the edge (the cell left out, from the edge
#: inwards) and the cell beyond it on the other side, if any: a stone pushed in along the
#: path docks on the cell when that cell beyond holds a stone or joker (2.2).
_PATHS: list[tuple[tuple[tuple[int, ...], int], ...]] = [
    tuple((e[: e.index(c)], e[e.index(c) + 1]) for e in ENTRIES if c in e and e.index(c) < 8) for c in range(81)
]


def _relabelling(rng: random.Random) -> tuple[list[int], list[int]]:
    """The digits 1-9 relabelled at random, and back: `back[there[d]] == d` (0 stays 0)."""
    label = list(range(1, 10))
    rng.shuffle(label)
    there = [0] + label
    back = [0] * 10
    for d in range(1, 10):
        back[there[d]] = d
    return there, back


def _solve(cells: list[int], rng: random.Random) -> list[int] | None:
    """One solution of the stones, chosen at random: the solver finds the first in its
    own order, so the digits are relabelled at random before and back after."""
    from corr.puzzles.solver import solve

    there, back = _relabelling(rng)
    found = solve([there[d] for d in cells])
    return None if found is None else [back[d] for d in found]


class _Playout:
    """A board played out fast: the docking cell of each of the 36 entries is kept up to
    date as stones land, instead of sliding along every line after each stone, and so
    are the occupied cells of each row and column as 9-bit masks (bit i: the line's
    i-th cell), to see at a glance which cells a stone shuts in (3.3)."""

    __slots__ = ("cells", "dock", "count", "rows", "cols")

    def __init__(self, cells: list[int]) -> None:
        self.cells = cells
        self.dock = [self._entry_dock(e) for e in ENTRIES]
        self.count = [0] * 81
        for c in self.dock:
            if c >= 0:
                self.count[c] += 1
        self.rows = [sum(1 << i for i in range(9) if cells[9 * r + i]) for r in range(9)]
        self.cols = [sum(1 << i for i in range(9) if cells[9 * i + c]) for c in range(9)]

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
        r, c = divmod(cell, 9)
        if piece:
            self.rows[r] |= 1 << c
            self.cols[c] |= 1 << r
        else:
            self.rows[r] &= ~(1 << c)
            self.cols[c] &= ~(1 << r)
        row, col = self.rows[r], self.cols[c]
        for i, new in ((2 * r, _DOCK_AT[0][row]), (2 * r + 1, _DOCK_AT[1][row]),
                       (18 + 2 * c, _DOCK_AT[0][col]), (19 + 2 * c, _DOCK_AT[1][col])):
            if new >= 0:
                new = 9 * r + new if i < 18 else 9 * new + c
            old = self.dock[i]
            if old != new:
                if old >= 0:
                    self.count[old] -= 1
                if new >= 0:
                    self.count[new] += 1
                self.dock[i] = new

    def backed(self, cell: int) -> int:
        """`_backed` read off the line masks."""
        r, c = divmod(cell, 9)
        return (self.rows[r] & _SIDES[c]).bit_count() + (self.cols[c] & _SIDES[r]).bit_count()

    def docking(self) -> set[int]:
        return {c for c in self.dock if c >= 0}

    def shuts_in(self, cell: int) -> int:
        """How many empty cells along its row and column a stone on the empty `cell`
        would leave shut in (3.3): their every path to the edge then holds a stone, so
        only a joker can fill them, and the digit a solution puts there finds no place
        when it comes."""
        r, c = divmod(cell, 9)
        row, col = self.rows[r] | 1 << c, self.cols[c] | 1 << r
        shut = 0
        for i in _ONES[_WALLED[row] & ~row]:  # along the row, walled on both sides
            shut += _WALLED[self.cols[i]] >> r & 1  # and along its column
        for i in _ONES[_WALLED[col] & ~col]:
            shut += _WALLED[self.rows[i]] >> c & 1
        return shut


#: By a line's 9-bit mask of occupied cells: the cells with a stone on either side
#: along the line (none at the ends, which have no cells to the edge on one side).
_WALLED = [sum(1 << i for i in range(1, 8) if line & (1 << i) - 1 and line >> i + 1) for line in range(512)]
#: By a 9-bit mask: its bits, lowest first.
_ONES = [tuple(i for i in range(9) if m >> i & 1) for m in range(512)]
#: By the end a stone is pushed in from (0: a line's first cell, 1: its last) and a
#: line's 9-bit mask: where along the line it docks (2.2), -1 where it cannot (2.3).
_DOCK_AT = (
    [m.bit_length() - 2 if m and not m & 1 else -1 for m in (line & -line for line in range(512))],
    [line.bit_length() if line and not line & 256 else -1 for line in range(512)],
)
#: By a place along a line: the mask of the places next to it.
_SIDES = [(1 << i + 1 | 1 << i >> 1) & 511 & ~(1 << i) for i in range(9)]


class _Solutions:
    """Every solution of the stones (jokers stand for any digit), up to POOL of them, as
    bit masks: bit i of `masks[10 * cell + digit]` says solution i puts the digit there.
    A digit may go where some solution still standing puts it: then the puzzle stays
    solvable (3.2), and the stones it lays keep only the solutions that agree."""

    def __init__(self, cells: Sequence[int], rng: random.Random, limit: int = POOL) -> None:
        from corr.puzzles.cover import solutions

        # the search lists solutions in its own order: relabel the digits at random, so
        # that a pool cut short at the limit favours no digit
        there, back = _relabelling(rng)
        found = solutions([there[d] for d in stones(cells)], limit)
        self.count = len(found)
        self.all = (1 << self.count) - 1
        self.found, self.back = found, back
        self.masks = [0] * 810
        for c in range(81):
            if cells[c]:
                continue
            column = bytes(s[c] for s in reversed(found))  # solution 0 the lowest bit
            for r in set(column):
                self.masks[10 * c + back[r]] = int(column.translate(_SPELL[r]), 2)


def _opening(cells: Sequence[int], masks: list[int], alive: int, digit: int) -> tuple[int, int, int] | None:
    """A joker that opens a docking cell for `digit` (4.1): on the cell beyond an empty
    cell whose path to the edge is empty, where some standing solution puts the digit.
    (joker cell, docking cell, the solutions kept), keeping the most solutions."""
    best: tuple[int, int, int] | None = None
    kept = 0
    for c in range(81):
        m = alive & masks[10 * c + digit]
        if not m or cells[c]:
            continue
        n = m.bit_count()
        if n <= kept:
            continue
        for path, beyond in _PATHS[c]:
            if not cells[beyond] and not any(cells[p] for p in path):
                best, kept = (beyond, c, m), n
                break
    return best


def _backed(cells: Sequence[int], cell: int) -> int:
    """How many stones or jokers stand next to a cell along its row and column: a cell
    deep among stones is the one later stones would shut in, so it is filled first."""
    return sum(1 for n in _NEIGHBOURS[cell] if cells[n])


def _play_out(cells: list[int], masks: list[int], alive: int, order: list[int], jokers: int,
              rng: random.Random) -> tuple[bool, int]:
    """Plays `order`, one digit at a time as the game gives it: each on a docking cell
    where a solution still standing puts it, one that shuts no cell in (3.3) where it
    can, the deepest (a deal's digits come from the middle outwards, `_DEPTH`) and the
    most shut in by stones among those (ties at random); a joker to open one where none
    takes it, jokers on the last cells once they suffice. (complete, digits laid)"""
    board = _Playout(cells)
    empty = cells.count(0)
    laid = 0
    for e in order:
        if empty <= jokers:
            return True, laid
        best, best_key, kept = -1, -1000.0, 0
        for c in board.docking():
            m = alive & masks[10 * c + e]
            if m:
                key = 2 * _DEPTH[c] + board.backed(c) + rng.random() - 100 * board.shuts_in(c)
                if key > best_key:
                    best, best_key, kept = c, key, m
        if best < 0:
            opening = _opening(board.cells, masks, alive, e) if jokers else None
            if opening is None:
                return False, laid
            joker, best, kept = opening
            board.put(joker, GREY)
            jokers -= 1
            empty -= 1
        board.put(best, e)
        alive = kept
        empty -= 1
        laid += 1
    return empty <= jokers, laid


class _Plan:
    """A move of the root and the board it leads to: the given digit laid (after a joker
    where the move is one), the solutions still standing, the jokers left."""

    __slots__ = ("move", "cells", "alive", "jokers", "complete", "laid", "runs")

    def __init__(self, move: Placement | Joker, cells: list[int], alive: int, jokers: int) -> None:
        self.move, self.cells, self.alive, self.jokers = move, cells, alive, jokers
        self.complete = self.laid = self.runs = 0


def strong(view: BotView, rng: random.Random, *, budget: float = BUDGET, playouts: int = 2000) -> Choice:
    """Lays the given digit where the puzzle stays solvable and play-outs of the digits
    to come complete it most often; a joker only when the digit fits no such cell, on the
    cell whose play-outs complete most often."""
    return strong_with(_order, view, rng, budget=budget, playouts=playouts)


#: How a strong move draws an order of the digits to come for a play-out: `_order`'s
#: arguments, an order of `to_come` back.
Sampler = Callable[
    [Seen, _Solutions, list[int], list[tuple[int, int]], list[tuple[list[int], list[int]]], list[int], random.Random],
    list[int],
]


def strong_with(sample: Sampler, view: BotView, rng: random.Random, *, budget: float = BUDGET,
                playouts: int = 2000) -> Choice:
    """`strong`, its play-outs on the orders `sample` draws: a benchmark can measure what
    strong would reach if it knew the order, which no seat does (7.2)."""
    deadline = time.perf_counter() + budget * 0.9
    seen = Seen(view)
    d = seen.given
    jokers = sum(seen.jokers.values())
    empty = seen.empty()
    if not d or (jokers and len(empty) <= jokers):
        return _joker_or_fit(seen, view, rng)
    known = _Solutions(seen.cells, rng)
    plans = []
    for c in seen.docking():
        if known.masks[10 * c + d]:
            after = list(seen.cells)
            after[c] = d
            plans.append(_Plan(Placement(d, c), after, known.masks[10 * c + d], jokers))
    plans = _shutting_nothing_in(seen.cells, plans)
    if len(plans) == 1:
        (plan,) = plans
        points = seen.points(plan.move)
        return Choice(plan.move, float(points), f"lays {d} on {name(plan.move.cell)}, the one docking cell it "
                      "keeps the puzzle solvable on")
    if not plans and jokers:
        plans = _shutting_nothing_in(seen.cells, _joker_plans(seen, known))
    if not plans:
        return _joker_or_fit(seen, view, rng)
    return _best_of(seen, plans, known, rng, deadline, playouts, sample)


def _shutting_nothing_in(cells: Sequence[int], plans: list[_Plan]) -> list[_Plan]:
    """The plans that shut in no empty cell (3.3), where there are such: a cell shut in
    takes only a joker, and the digit a solution puts there then finds no place when it
    comes (1.3 ends the game once no joker is left for it)."""
    before = len(unreachable_cells(cells))
    fine = [p for p in plans if len(unreachable_cells(p.cells)) == before]
    return fine or plans


def _joker_plans(seen: Seen, known: _Solutions) -> list[_Plan]:
    """The given digit keeps the puzzle solvable on no docking cell: a joker (gold first,
    it scores, 4.2) on each cell that opens one where it does, and the digit laid there."""
    d = seen.given
    kind = "gold" if seen.jokers.get("gold") else "grey"
    before = set(seen.docking())
    plans = []
    for z in seen.empty():
        after = list(seen.cells)
        after[z] = GREY
        for c in docking_cells(after):
            if c not in before and known.masks[10 * c + d]:
                after_d = list(after)
                after_d[c] = d
                plans.append(_Plan(Joker(kind, z), after_d, known.masks[10 * c + d], sum(seen.jokers.values()) - 1))
    return plans


def _fill(cells: Sequence[int], solution: Sequence[int], rng: random.Random) -> list[tuple[int, int]]:
    """A solution filled in from this board as a deal orders its digits (7.1): each
    stone on a docking cell of the board as it then stands, chosen at random among those
    that shut no cell in (3.3), until no docking cell is left. (cell, digit) in turn.
    A deal gives every empty cell a digit in turn, so its stones never shut one in: a
    fill that did would leave digits out, to come at places no deal gives them."""
    board = _Playout(list(cells))
    filled: list[tuple[int, int]] = []
    while True:
        dock = board.docking()
        if not dock:
            return filled
        c = _open_cell(board, sorted(dock), rng)
        board.put(c, solution[c])
        filled.append((c, solution[c]))


def _open_cell(board: _Playout, cells: list[int], rng: random.Random) -> int:
    """One of `cells` at random among those a stone on which shuts no cell in (3.3),
    else any of them, each drawn by its weight in `_deep_first`. Drawn until one shuts
    none in, as most do."""
    cells = list(cells)
    while len(cells) > 1:
        i = rng.choices(range(len(cells)), [_WEIGHT[_DEPTH[c]] for c in cells])[0]
        if not board.shuts_in(cells[i]):
            return cells[i]
        cells[i] = cells[-1]
        cells.pop()
    return cells[0]


#: By a cell's depth (`_DEPTH`): how likely a deal is to give it next among the docking
#: cells, relative to one on the edge. Peeled from the edge inwards, a deal gives the
#: deeper cells first: twice the weight a step deeper matches how deep its cells lie in
#: each tenth of the order (7.1), where drawing all alike gives them nearly flat.
_WEIGHT = [2.0 ** depth for depth in range(5)]


def _deep_first(cells: list[int], rng: random.Random) -> list[int]:
    """`cells` in a random order, each the sooner the heavier its `_WEIGHT`: sorted by a
    uniform draw raised to 1 / weight (each next one drawn by weight among the rest)."""
    return sorted(cells, key=lambda c: rng.random() ** (1 / _WEIGHT[_DEPTH[c]]), reverse=True)


#: Stones `_dealt` may lay, backtracking included, before it gives up on a solution.
_DEALT_STEPS = 400


def _dealt(start: Sequence[int], solution: Sequence[int], laid: list[int], rng: random.Random) -> list[tuple[int, int]] | None:
    """The board as the deal may have filled it (7.1): from the start, each digit given
    so far, in turn, on a docking cell the solution has it on that shuts no cell in,
    chosen at random, taking back the last stones where a digit finds none. The seat's
    own stones may lie elsewhere; the digits to come dock on the deal's board, not on
    the seat's. None where the solution gives no such way within _DEALT_STEPS stones."""
    board = _Playout(list(start))
    choices: list[list[int]] = []  # at each depth, the cells not yet tried
    path: list[int] = []
    steps = 0
    while len(path) < len(laid):
        depth = len(path)
        if len(choices) == depth:
            cells = _deep_first(sorted(c for c in board.docking() if solution[c] == laid[depth]), rng)
            cells.reverse()  # popped from the end
            choices.append(cells)
        if choices[depth]:
            c = choices[depth].pop()
            if board.shuts_in(c):  # no deal does (see `_fill`)
                continue
            board.put(c, laid[depth])
            path.append(c)
            steps += 1
            if steps > _DEALT_STEPS:
                return None
        else:
            choices.pop()
            if not path:
                return None
            board.put(path.pop(), 0)
    return list(zip(path, laid))


#: Boards the deal may have reached (`_dealt`) a move looks for, each from a solution
#: drawn at random; each sampled order is filled in from one of those found.
_DEALT_TRIES = 8


def _deal_boards(seen: Seen, known: _Solutions, sources: list[int], rng: random.Random) -> list[tuple[list[int], list[int]]]:
    """Up to _DEALT_TRIES (solution, board the deal may have reached with the digits given
    so far and the given one), each for a solution among `sources`."""
    if seen.start is None or not sources:
        return []
    found = []
    for _ in range(_DEALT_TRIES):
        solution = [known.back[d] for d in known.found[rng.choice(sources)]]
        dealt = _dealt(seen.start, solution, seen.laid + [seen.given], rng)
        if dealt is not None:
            board = list(seen.start)
            for c, d in dealt:
                board[c] = d
            found.append((solution, board))
    return found


def _order(seen: Seen, known: _Solutions, sources: list[int], starts: list[tuple[int, int]],
           boards: list[tuple[list[int], list[int]]], to_come: list[int], rng: random.Random) -> list[int]:
    """A sampled order of the digits to come, made as the dealer makes one (7.1): a
    solution filled in by `_fill` from a board the deal may have reached (`boards`), else
    one of `sources` from the seat's own board after the given digit. Digits the fill
    leaves out (their cells shut in, 3.3, or under a joker) come at random places among
    the rest."""
    filled: list[tuple[int, int]] = []
    given = seen.given
    skip = False
    if boards:
        solution, board = rng.choice(boards)
        filled = _fill(board, solution, rng)
    elif sources:
        i = rng.choice(sources)
        solution = [known.back[d] for d in known.found[i]]
        board = list(seen.cells)
        first = [c for c, m in starts if m >> i & 1]
        if first:
            board[rng.choice(first)] = given
        skip = not first
        filled = _fill(board, solution, rng)
    left = [0] * 10
    for digit in to_come:
        left[digit] += 1
    order = []
    for _, digit in filled:
        if skip and digit == given:
            skip = False
        elif left[digit]:
            left[digit] -= 1
            order.append(digit)
    for digit in range(1, 10):
        for _ in range(left[digit]):
            order.insert(rng.randrange(len(order) + 1), digit)
    return order


def _best_of(seen: Seen, plans: list[_Plan], known: _Solutions, rng: random.Random, deadline: float,
             playouts: int, sample: Sampler) -> Choice:
    """Monte Carlo over the order of the digits to come: which digits come is known (each
    stone of the solution not on the board), their order is no seat's to know (2.1, a
    public seed's included), so each plan is played out on the same sampled orders and
    they differ by the move alone."""
    d = seen.given
    to_come = left_to_come(seen.cells, d)
    starts = [(c, known.masks[10 * c + d]) for c in seen.docking() if known.masks[10 * c + d]]
    union = 0 if starts else known.all  # a joker's plan: any solution may be the one dealt
    for _, m in starts:
        union |= m
    sources = [i for i in range(known.count) if union >> i & 1]
    boards = _deal_boards(seen, known, sources, rng)
    runs = 0
    while runs < playouts and (runs < 2 or time.perf_counter() < deadline):
        order = sample(seen, known, sources, starts, boards, to_come, rng)
        for plan in plans:
            if runs >= 2 and time.perf_counter() >= deadline:
                break
            done, laid = _play_out(list(plan.cells), known.masks, plan.alive, order, plan.jokers, rng)
            plan.complete += done
            plan.laid += laid
            plan.runs += 1
        runs += 1
    best = max(plans, key=lambda p: (p.complete / p.runs, p.laid / p.runs, seen.points(p.move), rng.random()))
    share = best.complete / best.runs
    points = seen.points(best.move)
    if isinstance(best.move, Joker):
        why = (f"{d} keeps the puzzle solvable on no docking cell: a {best.move.kind} joker on "
               f"{name(best.move.cell)} opens one; of {best.runs} play-outs {best.complete} complete the puzzle")
    else:
        why = (f"lays {d} on {name(best.move.cell)}: of {best.runs} play-outs of the digits to come "
               f"{best.complete} complete the puzzle from there")
    return Choice(best.move, points + 500 * share, why)


def _with(cells: Sequence[int], cell: int, digit: int) -> list[int]:
    """The stones with `digit` laid on `cell`."""
    trial = stones(cells)
    trial[cell] = digit
    return trial


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
