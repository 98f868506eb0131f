"""Computer opponents for SUDOKU-Combat (docs/rules/combat.md): `greedy` and `strong`.

Combat hides nothing, so both levels work on a copy of the board (`view.state`). Which
placements conquer which fields is worked out from the grid's candidates alone, without
trying every placement (rule 3.1-3.2, see `conquering`): a field falls when a digit it
lacks loses its last place - a tile put on that place (inner conquest), or the digit put
on the place's row or column outside the field (outer conquest, all of its places must
lie on that line) - or when a placement takes the last tile that could go into it.

A placement is *safe* when afterwards the next seat has no conquest at all. Greedy takes
the most fields now; among equal gains it prefers the placement that hands the next seat
the fewest fields at once (none, when it can). When nothing safe is left, someone has to
open a field: that fight over who runs out of safe placements first decides most games,
and it is what `strong` plays for. It plays games to the end from each promising
placement (Monte Carlo playouts), with every seat playing greedy-like from there, and
keeps the placement whose games went best, until its time budget runs out.

Every bot move that conquers carries the claim mark `!` (rule 3.5), so the conquest
counts with `conquest=claim` too. Choice.expect is in fields: greedy's is the fields the
placement conquers now; strong's the average final lead in fields (own fields minus the
best other seat's) over its playouts from that placement (the fields it conquers now,
when there was nothing to play out: a single sensible move, or too many safe ones).
"""

from __future__ import annotations

import random
import time

from corr.games.base import BotView, Choice
from corr.counts import counted
from corr.errors import UsageError
from corr.games.combat.rules import fields_text
from corr.games.grid import Grid
from corr.geometry import ALL_DIGITS_MASK, COL_CELLS, DIGITS, FIELD_CELLS, FIELD_OF, PEERS, ROW_CELLS
from corr.notation import Placement

#: default thinking time of `strong`, in seconds: a hard deadline for the playouts
BUDGET = 1.0
#: how many placements `strong` plays out; the rest are judged like greedy judges them
WIDTH = 10
#: playouts per candidate after which `strong` stops early, its mind made up
ENOUGH = 200
#: playouts per candidate after which `strong` stops when they all ended alike
SURE = 12
#: more safe placements than this, and nothing to conquer: any safe one will do
CROWD = 40
#: a playout stops here: the fields left are not worth the time (it counts as it stands)
PLAYOUT_PLIES = 120

Move = tuple[int, int]  # (digit, cell)

_DIGITS_OF: list[tuple[int, ...]] = [tuple(d for d in DIGITS if m >> d & 1) for m in range(1 << 10)]
_POP = [bin(m).count("1") for m in range(1 << 10)]
#: _OUTSIDE[c]: the cells of c's row and column outside c's field (where an outer
#: conquest of c's field through c's line is placed)
_OUTSIDE: list[tuple[int, ...]] = [
    tuple(x for x in ROW_CELLS[c // 9] + COL_CELLS[c % 9] if FIELD_OF[x] != FIELD_OF[c]) for c in range(81)
]
_ROW_OUT: list[tuple[int, ...]] = [tuple(x for x in ROW_CELLS[c // 9] if FIELD_OF[x] != FIELD_OF[c]) for c in range(81)]
_PEER_FIELDS: list[tuple[tuple[int, int], ...]] = [tuple((p, FIELD_OF[p]) for p in PEERS[c]) for c in range(81)]
_COL_OUT: list[tuple[int, ...]] = [tuple(x for x in COL_CELLS[c % 9] if FIELD_OF[x] != FIELD_OF[c]) for c in range(81)]


def conquering(grid: Grid, closed: int) -> dict[Move, int]:
    """Every placement that conquers a field now, with the fields it conquers as a bit
    mask (bit f for field f); `closed`: the mask of fields conquered before (3.4).

    For an open field F and a digit x it lacks with places P (3.1): a tile on the one
    place of P; or x on a cell outside F whose row or column holds all of P. Rule 3.2:
    a tile e on a place c of F when every pair (digit, place) left in F is at c or is e.
    """
    cand = grid.cand
    found: dict[Move, int] = {}
    for f in DIGITS:
        bit = 1 << f
        if closed & bit:
            continue
        counter = grid.fcount[f]
        total = sum(counter)
        if not total:
            continue  # full, or nothing fits any more: it can never fall (5.4)
        cells = FIELD_CELLS[f]
        for x in DIGITS:  # a digit the field holds has no places in it: its count is 0
            k = counter[x]
            if not k or k > 3:
                continue  # more than 3 places never lie on one line of the field
            xbit = 1 << x
            places = [c for c in cells if cand[c] & xbit]
            if k == 1:
                p = places[0]
                for e in _DIGITS_OF[cand[p] & ~xbit]:
                    found[(e, p)] = found.get((e, p), 0) | bit
                line = _OUTSIDE[p]
            else:
                first = places[0]
                if all(c // 9 == first // 9 for c in places):
                    line = _ROW_OUT[first]
                elif all(c % 9 == first % 9 for c in places):
                    line = _COL_OUT[first]
                else:
                    continue
            for c in line:
                if cand[c] & xbit:
                    found[(x, c)] = found.get((x, c), 0) | bit
        if total > 17:
            continue  # 3.2 needs every pair left at one place (at most 9) or of one digit (at most 9)
        for c in cells:
            n = _POP[cand[c]]
            if not n or n + 8 < total:
                continue
            for e in _DIGITS_OF[cand[c]]:
                if n + counter[e] - 1 == total:
                    found[(e, c)] = found.get((e, c), 0) | bit
    return found


def _fields_of(mask: int) -> tuple[int, ...]:
    return tuple(f for f in DIGITS if mask >> f & 1)


def legal(grid: Grid) -> list[Move]:
    """Every placement that keeps the Sudoku rule (2.2)."""
    cand = grid.cand
    return [(d, c) for c in range(81) if cand[c] for d in _DIGITS_OF[cand[c]]]


class Table:
    """A position the bots play on: the grid, who conquered what, whose turn.

    Lighter than the game's own state: no challenge window and no log, only what a
    placement changes; one tile a turn (a challenger's extra tile, 4.1, is the engine's)."""

    __slots__ = ("grid", "closed", "scores", "turn", "seats")

    def __init__(self, grid: Grid, closed: int, scores: list[int], turn: int) -> None:
        self.grid = grid
        self.closed = closed
        self.scores = scores
        self.turn = turn
        self.seats = len(scores)

    @classmethod
    def from_view(cls, view: BotView) -> Table:
        game, state = view.rules, view.state
        if view.seat is None:  # the public's view: no seat to play, so no legal move
            raise UsageError(f"seat {view.seat} has no legal move")
        seats = list(game.seats)
        scores = [0] * len(seats)
        closed = 0
        for f, seat in state.conquered.items():
            closed |= 1 << f
            scores[seats.index(seat)] += 1
        return cls(state.grid.copy(), closed, scores, seats.index(view.seat))

    def copy(self) -> Table:
        return Table(self.grid.copy(), self.closed, self.scores[:], self.turn)

    def play(self, move: Move, gained: int) -> None:
        """Place a tile for the seat on turn, crediting the fields `gained` (a mask from
        `conquering`), and pass the turn."""
        self.grid.place(move[1], move[0])
        if gained:
            self.closed |= gained
            self.scores[self.turn] += _POP[gained]
        self.turn = (self.turn + 1) % self.seats

    def open_fields(self) -> int:
        """5.1/5.4: fields not conquered that still take a tile."""
        fcount = self.grid.fcount
        return sum(1 for f in DIGITS if not self.closed >> f & 1 and any(fcount[f]))

    def decided(self) -> bool:
        """5.1/5.2: nobody can catch the leader, or nothing fits any more."""
        if not self.grid.options or self.closed == ALL_DIGITS_MASK:
            return True
        ranked = sorted(self.scores)
        return ranked[-2] + self.open_fields() <= ranked[-1]

    def lead(self, seat: int) -> int:
        """`seat`'s fields minus the best other seat's."""
        scores = self.scores
        return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


def _hot(grid: Grid, f: int, x: int) -> bool:
    """Whether some placement now conquers field f by taking digit x's last place
    (3.1): its one place can take another tile, or its places lie on a line that takes
    x outside the field."""
    cand = grid.cand
    k = grid.fcount[f][x]
    if not k or k > 3:
        return False
    xbit = 1 << x
    places = [c for c in FIELD_CELLS[f] if cand[c] & xbit]
    first = places[0]
    if k == 1:
        if cand[first] & ~xbit:
            return True
        line = _OUTSIDE[first]
    elif all(c // 9 == first // 9 for c in places):
        line = _ROW_OUT[first]
    elif all(c % 9 == first % 9 for c in places):
        line = _COL_OUT[first]
    else:
        return False
    return any(cand[c] & xbit for c in line)


def _one_digit_left(grid: Grid, f: int) -> bool:
    """3.2: only one digit still fits field f, so placing it there takes the last tile."""
    return sum(1 for n in grid.fcount[f] if n) == 1


def opens(grid: Grid, closed: int, move: Move) -> bool:
    """Whether `move` hands the next seat a conquest, in a position where nobody can
    conquer anything (see `conquering`): only a field and digit that lose a place to
    the move can become conquerable, since a placement only ever takes candidates away."""
    e, c = move
    cand = grid.cand
    home = FIELD_OF[c]
    ebit = 1 << e
    changed = {(home, x) for x in _DIGITS_OF[cand[c]]}
    changed.update((f, e) for p, f in _PEER_FIELDS[c] if f != home and cand[p] & ebit)
    after = grid.copy()
    after.place(c, e)
    for f, x in changed:
        if not closed >> f & 1 and (_hot(after, f, x) or _one_digit_left(after, f)):
            return True
    return False


def handed(grid: Grid, closed: int, move: Move, gained: int, calm: bool) -> int:
    """How many fields the next seat could conquer at once after `move` (0: the move
    is safe); `calm`: nobody can conquer anything now."""
    if calm and not opens(grid, closed, move):
        return 0
    after = grid.copy()
    after.place(move[1], move[0])
    threats = conquering(after, closed | gained)
    return max(map(_POP.__getitem__, threats.values()), default=0)


def judged(table: Table) -> list[tuple[int, int, Move, int]]:
    """Every legal placement as (fields now, fields handed to the next seat, move,
    gained mask): what greedy weighs."""
    grid, closed = table.grid, table.closed
    now = conquering(grid, closed)
    calm = not now
    return [
        (_POP[gain], handed(grid, closed, move, gain, calm), move, gain)
        for move in legal(grid)
        for gain in (now.get(move, 0),)
    ]
def _placement(move: Move, gained: int) -> Placement:
    """The move as notation, with `!` when it conquers (3.5: else the conquest is missed)."""
    return Placement(move[0], move[1], () if gained else None)


def _check(view: BotView) -> None:
    if not view.legal:
        raise UsageError(f"seat {view.seat} has no legal move")
    if view.state is None:
        raise UsageError("a Combat bot needs the whole position")


def greedy(view: BotView, rng: random.Random) -> Choice:
    """The placement that conquers most now; among equals, the one that hands the next
    seat fewest fields at once; ties broken by `rng`."""
    _check(view)
    table = Table.from_view(view)
    scored = judged(table)
    best = max((now, -given) for now, given, _, _ in scored)
    now, given, move, gain = rng.choice([s for s in scored if (s[0], -s[1]) == best])
    return Choice(_placement(move, gain), float(now), _why(now, gain, given))


def _why(now: int, gain: int, given: int) -> str:
    if now:
        said = f"conquers {fields_text(_fields_of(gain))}"
    else:
        said = "conquers nothing"
    if given:
        return f"{said}; the next seat can then conquer {given} field{'s' if given > 1 else ''}"
    return f"{said}; the next seat can conquer nothing"


# ---------------------------------------------------------------------------------
# strong: Monte Carlo playouts


class Playout:
    """One game played on from a position, every seat greedy-like: the biggest
    conquest (handing least), else a safe placement, else the one handing least.

    Safe placements are looked for first among those that were safe before (`pool`):
    tiles only take candidates away, so a placement that opened a field once mostly
    stays so; the whole board is searched again only when the pool runs dry."""

    #: placements tried, when none is safe, before taking the one that hands least
    SAMPLE = 3

    def __init__(self, table: Table, pool: list[Move], rng: random.Random) -> None:
        self.table = table
        self.pool = pool
        self.rng = rng
        self.dry = False  # the pool ran dry and the board had no safe placement either

    def step(self) -> bool:
        """Play one placement; False when the game is over."""
        table, rng = self.table, self.rng
        if table.decided():
            return False
        grid, closed = table.grid, table.closed
        now = conquering(grid, closed)
        if now:
            top = max(map(_POP.__getitem__, now.values()))
            best = [m for m, g in now.items() if _POP[g] == top]
            rng.shuffle(best)
            conquest = min(best[: self.SAMPLE], key=lambda m: handed(grid, closed, m, now[m], False))
            table.play(conquest, now[conquest])
            self.dry = False  # a conquest closes a field: placements near it may be safe again
            return True
        move = None if self.dry else self._safe()
        if move is None:
            moves = legal(grid)
            if not moves:
                return False
            sample = rng.sample(moves, min(self.SAMPLE, len(moves)))
            move = min(sample, key=lambda m: handed(grid, closed, m, 0, True))
        table.play(move, 0)
        return True

    def _safe(self) -> Move | None:
        grid, closed, pool, rng = self.table.grid, self.table.closed, self.pool, self.rng
        for fresh in (False, True):
            if fresh:
                pool[:] = legal(grid)
            while pool:
                i = rng.randrange(len(pool))
                move = pool[i]
                pool[i] = pool[-1]
                pool.pop()
                if grid.cand[move[1]] >> move[0] & 1 and not opens(grid, closed, move):
                    return move
        self.dry = True
        return None


def playout(table: Table, pool: list[Move], seat: int, rng: random.Random) -> int:
    """Play `table` to the end with every seat greedy-like; `seat`'s final lead."""
    game = Playout(table, pool, rng)
    for _ in range(PLAYOUT_PLIES):
        if not game.step():
            break
    return table.lead(seat)


def strong(view: BotView, rng: random.Random, *, budget: float | None = None) -> Choice:
    """Plays games on from the most promising placements - every conquest, the safe
    placements (a sample when there are many), else those handing least - until
    `budget` seconds are spent, and keeps the one whose games ended best for it."""
    deadline = time.perf_counter() + (BUDGET if budget is None else budget)
    _check(view)
    table = Table.from_view(view)
    me = table.turn
    scored = judged(table)
    rng.shuffle(scored)
    scored.sort(key=lambda s: (s[0] - s[1], s[0]), reverse=True)
    safe = [s[2] for s in scored if not s[1]]
    candidates = scored[:WIDTH]
    if len(candidates) > 1 and not candidates[0][0] and len(safe) > CROWD:
        candidates = candidates[:1]  # too many safe placements to tell apart: any will do
    width = len(candidates)
    points = [0.0] * width
    leads = [0] * width
    runs = [0] * width
    played = 0
    slowest = 0.0  # the longest game played on so far: none starts that would end past the deadline
    while width > 1 and played < ENOUGH * width and (began := time.perf_counter()) + slowest < deadline:
        i = played % width
        _, _, move, gain = candidates[i]
        trial = table.copy()
        trial.play(move, gain)
        lead = playout(trial, [m for m in safe if m != move], me, rng)
        slowest = max(slowest, time.perf_counter() - began)
        leads[i] += lead
        points[i] += 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        runs[i] += 1
        played += 1
        if not played % width and runs[0] >= SURE and all(p in (0, runs[0]) for p in points) and len(set(points)) == 1:
            break  # every placement won (or lost) every game: the game is decided either way
    best = max(range(width), key=lambda i: (points[i] / max(runs[i], 1), leads[i] / max(runs[i], 1)))
    now, given, move, gain = candidates[best]
    why = _why(now, gain, given)
    n = runs[best]
    if not n:
        return Choice(_placement(move, gain), float(now), why)
    return Choice(_placement(move, gain), round(leads[best] / n, 2),
                  f"{why}; won {points[best] / n:.0%} of {counted(n, 'game')} played on from it")
