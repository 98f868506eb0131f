"""Computer opponents for Sudoku Moyo (docs/rules/moyo.md): `greedy` and `strong`.

Moyo hides nothing, so both levels try moves on a copy of the whole position
(`view.state`) with the game's own `apply`, and the moves always come from the game's
own generator. The seat on turn that cannot place a stone loses (4.1), so what a seat
has is the stones it can still place: an area's stones that can go somewhere in it
(the ones not turned face down, 1.5). Greedy counts those ("placeable stones") in each
seat's Shima and plays the move that leaves it the most ahead; it wins at once when a
move leaves the other seat without a place. In the draft (2.3) it picks the Shima with
the most placeable stones.

`strong` searches: alpha-beta (negamax) over the placements, deepened one ply at a time
until its time budget is spent, with a transposition table. After the opening a position
is judged by the stones each seat can still place in its whole Shima, at least (the
digits the other seat can never take away) and at most (bounds.py), halfway between
the two, and by the tempo: the seat on turn that has no more stones than the other runs
out first (4.1), so it counts half a stone less. Where the bounds already decide the
game the position is scored as won or lost, and the search looks no further there: in
the middle game it sees a lost position long before the last stones. During the opening
the judgement is the stones each area of a Shima could take (a matching of places to
digits). In Horikomi (5) it is the Moyo stones each seat has in its own Shima (5.3).

Choice.expect is in stones, to a quarter of a stone: the lead in placeable stones of the
bot's seat over the other seat, tempo included (in Horikomi: the other seat's Moyo stones
in its Shima minus one's own); a won game is +1000, a lost one -1000.
"""

from __future__ import annotations

import random
import time
from typing import Any

from corr.games.base import BotView, Choice
from corr.counts import counted
from corr.games.search import from_table, to_table
from corr.errors import UsageError
from corr.games.base import Action
from corr.games.moyo.bounds import opening, places, stones, verdict
from corr.games.moyo.rules import AREA_CELLS, Moyo, other
from corr.games.moyo.victory import POP, matching
from corr.notation import Move, Placement, ShimaPick

#: a won game; a score beyond WIN - MATE_ZONE is a forced result
WIN = 1000
MATE_ZONE = 200
#: the search's scores below a forced result are in quarters of a stone: the judgement
#: is halfway between two counts, and the tempo is worth half a stone
SCALE = 4
#: default thinking time of `strong` in seconds: a hard deadline for the search
BUDGET = 1.0
#: no search runs longer than this, whatever budget it is given (a move takes at most 2 s)
HARD_CAP = 1.8
#: a deeper iteration starts only when it should end within this share of the budget
SOFT_SHARE = 1.0
#: how many times longer than the one before a deeper iteration is assumed to take
GROWTH = 4


class _OutOfTime(Exception):
    """The deadline passed in the middle of a search."""


def _check_view(view: BotView) -> str:
    """The seat the bot plays for; refuses a view without the whole position or a legal
    move (the public's view has neither)."""
    if view.seat is None or view.state is None or not view.legal:
        raise UsageError(f"seat {view.seat} has no legal move")
    return view.seat


def _rules(view: BotView) -> Moyo:
    """The view's rules, Moyo's own: what the bots try moves with."""
    game = view.rules
    if not isinstance(game, Moyo):
        raise UsageError(f"the {Moyo.title} computer opponent cannot play {game.title}")
    return game


def placeable_stones(game: Moyo, state: Any, seat: str) -> int:
    """1.5: the stones in the seat's Shima that can still go somewhere in their area."""
    return sum(POP[game.placeable(state, a)] for a in game.shima(state, seat))


#: an area's open places' masks -> how many can take distinct digits (the same areas come
#: up again and again in a search: a move changes only its own row, column and area)
_AREA_MEMO: dict[tuple[int, ...], int] = {}


def reserve(game: Moyo, state: Any, seat: str) -> int:
    """The stones `seat` could still place in its Shima, area by area (the row and column
    ties between its areas are left out: an upper bound that is seldom off by much)."""
    cand = state.grid.cand
    areas = AREA_CELLS[game.units]
    total = 0
    for a in game.shima(state, seat):
        masks = tuple([cand[c] for c in areas[a] if cand[c]])
        got = _AREA_MEMO.get(masks)
        if got is None:
            if len(_AREA_MEMO) > 100_000:
                _AREA_MEMO.clear()
            got = _AREA_MEMO[masks] = matching(masks)
        total += got
    return total


def _judge(game: Moyo, state: Any, seat: str, ply: int = 0) -> int:
    """The position from `seat`'s side, in quarters of a stone (SCALE), or won or lost
    `ply` plies below the root: see the module's docstring. Horikomi: the other seat's
    Moyo stones in its Shima less one's own (5.3)."""
    if game.opts["variant"] == "horikomi":
        return SCALE * (game.own_moyo(state, other(seat)) - game.own_moyo(state, seat))
    cand = state.grid.cand
    if state.picks < 8 or state.handicap_left or opening(where := places(game, state), cand):
        return SCALE * (reserve(game, state, seat) - reserve(game, state, other(seat)))
    mine, theirs = stones(where, cand, seat), stones(where, cand, other(seat))
    if game.to_move(state) == seat:
        won = verdict(mine, theirs)
        if won is not None:  # the loser places at most its most stones, one a turn each
            return WIN - ply - 2 * theirs[1] - 1 if won else -WIN + ply + 2 * mine[1]
        tempo = -SCALE // 2
    else:
        lost = verdict(theirs, mine)
        if lost is not None:
            return -WIN + ply + 2 * mine[1] + 1 if lost else WIN - ply - 2 * theirs[1]
        tempo = SCALE // 2
    return SCALE // 2 * (sum(mine) - sum(theirs)) + tempo


def _forced(value: int) -> bool:
    """Whether a score is a won or lost game, not a judgement."""
    return abs(value) > WIN - MATE_ZONE


def _ended(game: Moyo, state: Any, seat: str, ply: int) -> int:
    """A finished game's score from `seat`'s side: won, lost, or a draw (5.3)."""
    if len(state.winners) != 1:
        return 0
    return WIN - ply if state.winners[0] == seat else -WIN + ply


def _play(game: Moyo, state: Any, seat: str, move: Move) -> Any:
    after = game.clone(state)
    game.apply(after, Action(0, "move", seat, move))
    return after


def _describe(game: Moyo, move: Move) -> str:
    if isinstance(move, ShimaPick):
        return f"picks {game.area_name(move.field)} as a Shima (2.3)"
    if not isinstance(move, Placement):
        raise UsageError(f"{move} is no move of {game.title}")
    area = game.area_of(move.cell)
    return f"places {move} into {game.area_name(area)}"


def _draft(view: BotView, rng: random.Random) -> Choice:
    """2.3: the free area with the most placeable stones (ties by `rng`)."""
    game, state = _rules(view), view.state
    # the draft's moves are all Shima picks (2.3)
    scored = [(POP[game.placeable(state, m.field)], m) for m in view.legal if isinstance(m, ShimaPick)]
    top = max(s for s, _ in scored)
    move = rng.choice([m for s, m in scored if s == top])
    return Choice(move, float(top), f"{_describe(game, move)}: {top} placeable stones there")


def greedy(view: BotView, rng: random.Random) -> Choice:
    """The move that leaves the seat the most placeable stones ahead of the other seat
    (1.5), or that wins at once, leaving the other seat no place (4.1); in the draft the
    Shima with the most placeable stones. Ties are broken by `rng`."""
    seat = _check_view(view)
    game, state = _rules(view), view.state
    if isinstance(view.legal[0], ShimaPick):
        return _draft(view, rng)
    horikomi = game.opts["variant"] == "horikomi"
    best: list[Move] = []
    best_value = -2 * WIN
    for move in view.legal:
        after = _play(game, state, seat, move)
        if after.over:
            value = _ended(game, after, seat, 0)
        elif horikomi:
            value = game.own_moyo(after, other(seat)) - game.own_moyo(after, seat)
        else:
            value = placeable_stones(game, after, seat) - placeable_stones(game, after, other(seat))
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    move = rng.choice(best)
    what = _describe(game, move)
    if best_value >= WIN and horikomi:
        why = f"{what}: no stone fits anywhere any more, and {seat} wins (5.2, 5.3)"
    elif best_value >= WIN:
        why = f"{what}: {other(seat)} cannot place a stone and loses (4.1)"
    elif best_value <= -WIN:
        why = f"{what}: every move loses ({'5.3' if horikomi else '4.1'})"
    elif horikomi:
        why = f"{what}: Moyo stones in the Shima, lead {best_value:+d} (5.3)"
    else:
        why = f"{what}: placeable stones, lead {best_value:+d} (1.5)"
    return Choice(move, float(best_value), why)


class _Search:
    """Negamax with alpha-beta, iterative deepening and a transposition table on the
    game's state_key. The seat on turn need not alternate (handicap stones, 2.4)."""

    def __init__(self, game: Moyo, deadline: float) -> None:
        self.game = game
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[bytes, tuple[int, int, int, Move | None]] = {}

    def _tick(self) -> None:
        """Count a position tried and stop once the deadline has passed. Called for
        every child a node makes: one child costs a copy of the board and a matching
        per area, far more than the clock, and a node of fifty children checked only
        now and then let a move run 70% past its budget."""
        self.nodes += 1
        if time.perf_counter() > self.deadline:
            raise _OutOfTime

    def children(self, state: Any, seat: str, first: Move | None, ply: int) -> list[tuple[int, Move, Any]]:
        """Each legal move, its value one ply deep (the judgement of the position after
        it, from `seat`'s side) and that position; the table's move first, then the
        moves that leave the seat best off."""
        game = self.game
        out: list[tuple[int, Move, Any]] = []
        tick = self._tick
        for move in game.legal_moves(state):
            tick()
            after = _play(game, state, seat, move)
            value = _ended(game, after, seat, ply + 1) if after.over else _judge(game, after, seat, ply + 1)
            out.append((value, move, after))
        out.sort(key=lambda t: 10 * WIN if t[1] == first else t[0], reverse=True)
        return out

    def negamax(self, state: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of `state` for the seat on turn."""
        game = self.game
        seat = game.to_move(state)
        if seat is None:  # never: child_value looks further only while the game goes on
            raise UsageError("the game is over")
        if depth <= 0:
            return _judge(game, state, seat, ply)
        key = game.state_key(state)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, e_bound, first = entry
            if e_depth >= depth:
                value = from_table(e_value, ply, WIN, MATE_ZONE)
                if e_bound == 0 or (e_bound > 0 and value >= beta) or (e_bound < 0 and value <= alpha):
                    return value
        children = self.children(state, seat, first, ply)
        if depth == 1:  # a child's judgement is the same from either side: no need to look again
            return max(value for value, _, _ in children)
        start_alpha = alpha
        best, best_move = -2 * WIN, None
        for look, move, after in children:
            # a child already won or lost (4.1, by its bounds) needs no search below it
            value = look if _forced(look) else self.child_value(after, seat, depth - 1, alpha, beta, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        bound = 1 if best >= beta else (-1 if best <= start_alpha else 0)
        self.table[key] = (depth, to_table(best, ply, WIN, MATE_ZONE), bound, best_move)
        return best

    def child_value(self, after: Any, seat: str, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value for `seat` of the position after its move."""
        if after.over:
            return _ended(self.game, after, seat, ply)
        if self.game.to_move(after) == seat:  # a handicap stone: the same seat again
            return self.negamax(after, depth, alpha, beta, ply)
        return -self.negamax(after, depth, -beta, -alpha, ply)

    def root(self, state: Any, seat: str, moves: list[tuple[Move, Any, int]], depth: int,
             found: list[tuple[Move, int]]) -> None:
        """Search every root move (with the position after it and its first look) to
        `depth`; appends (move, value) to `found` each time a move beats the best so far,
        so a search cut short still has an answer."""
        alpha, beta = -2 * WIN, 2 * WIN
        for move, after, look in moves:
            self._tick()
            value = look if _forced(look) else self.child_value(after, seat, depth - 1, alpha, beta, 1)
            if value > alpha:
                alpha = value
                found.append((move, value))


def strong(view: BotView, rng: random.Random, *, budget: float | None = None, depth: int | None = None) -> Choice:
    """Alpha-beta search, deepened one ply at a time while time is left: `budget` seconds
    at most (default BUDGET; a deeper search starts only when it should end well within
    them), `depth` plies at most. The draft is played like greedy. Ties are broken by `rng`."""
    seat = _check_view(view)
    started = time.perf_counter()
    budget = BUDGET if budget is None else min(budget, HARD_CAP)
    game, state = _rules(view), view.state
    if isinstance(view.legal[0], ShimaPick):
        return _draft(view, rng)
    search = _Search(game, started + budget)
    legal = list(view.legal)
    rng.shuffle(legal)
    # shuffled, then sorted (a stable sort) by the first look: ties are broken at random
    tried = [(m, after) for m in legal for after in [_play(game, state, seat, m)]]
    moves = sorted(((m, after, _first_look(game, after, seat, 1)) for m, after in tried), key=lambda t: -t[2])
    best, _, best_value = moves[0]
    reached = 0
    if len(moves) == 1:
        return Choice(best, _expect(best_value), f"{_describe(game, best)}: the only move")
    last = 0.0
    for d in range(1, (depth or 64) + 1):
        found: list[tuple[Move, int]] = []
        began = time.perf_counter()
        try:
            search.root(state, seat, moves, d, found)
        except _OutOfTime:
            if found:  # the best so far was searched first: anything found beat it
                best, best_value = found[-1]
            break
        best, best_value = found[-1]
        reached = d
        moves = [t for t in moves if t[0] is best] + [t for t in moves if t[0] is not best]
        if _forced(best_value):
            break
        now = time.perf_counter()
        took = now - began
        growth = max(GROWTH, took / last) if last > 0.005 else GROWTH
        last = took
        if depth is None and now - started + took * growth > budget * SOFT_SHARE:
            break  # with a set depth only the deadline stops it: repeatable where time allows
    return Choice(best, _expect(best_value), _why(game, seat, best, best_value, reached))


def _expect(value: int) -> float:
    """A search score as Choice.expect: a forced result as it is, a judgement in stones."""
    return float(value) if _forced(value) else value / SCALE


def _first_look(game: Moyo, after: Any, seat: str, ply: int) -> int:
    """A position after a root move, `ply` plies below the root, judged from `seat`'s
    side without looking further."""
    return _ended(game, after, seat, ply) if after.over else _judge(game, after, seat, ply)


def _why(game: Moyo, seat: str, move: Move, value: int, depth: int) -> str:
    """The strong level's reason: the move, and what the search expects of it."""
    what = _describe(game, move)
    horikomi = game.opts["variant"] == "horikomi"
    if value > WIN - MATE_ZONE:
        plies = WIN - value
        moves = counted((plies + 1) // 2, "move")
        if horikomi:
            return f"{what}: wins in {moves} (5.3)"
        # a win the bounds prove counts the loser's most stones: the line may be shorter
        return f"{what}: {other(seat)} runs out of places first, within {moves} (4.1)"
    if value < -WIN + MATE_ZONE:
        return f"{what}: every line loses ({'5.3' if horikomi else '4.1'}); this one lasts longest"
    lead = value / SCALE
    if horikomi:
        return f"{what}; looks {counted(depth, 'ply', 'plies')} ahead, expects a Moyo-stone lead of {lead:+g}"
    unit = "stone" if abs(lead) == 1 else "stones"
    return f"{what}; looks {counted(depth, 'ply', 'plies')} ahead, expects a lead of {lead:+g} {unit} (tempo included)"
