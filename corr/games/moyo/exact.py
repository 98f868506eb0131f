"""Moyo solved exactly: who wins a position with best play on both sides (4.1).

The seat on turn that cannot place a stone loses, so a position is won when some move
leaves the other seat a lost one. Only the candidate masks matter (which digit still
fits which empty place), so the solver plays on a plain list of them rather than on the
game's state, with a transposition table and no depth limit.

Once the opening is over (3.1) the search stops where the stones each seat can place
at least and at most already decide the game (bounds.py): for one, when the seats can
no longer block each other, the seat on turn wins exactly when it has more stones left.
This cut-off is what makes positions some twenty stones from the end solvable.

Handicap stones (2.4), the draft (2.3) and Horikomi (5) are not solved.
"""

from __future__ import annotations

from typing import Any

from corr.errors import UsageError
from corr.games.base import Action
from corr.games.moyo.bounds import Places, opening, places, stones, verdict
from corr.games.moyo.rules import Moyo, other
from corr.games.moyo.victory import MASK_DIGITS, POP
from corr.geometry import PEERS
from corr.notation import Move, Placement


class TooLarge(Exception):
    """The solver tried more positions than it was allowed."""


class Solver:
    """Negamax to the end of the game over candidate masks; `limit`: the most positions
    it may try before giving up (TooLarge)."""

    def __init__(self, where: Places, limit: int | None = None) -> None:
        self.where = where
        self.limit = limit
        self.nodes = 0
        self.table: dict[tuple[tuple[int, ...], str], bool] = {}

    def moves(self, cand: list[int], seat: str) -> list[tuple[int, int]]:
        """The (place, digit) pairs the seat may play: the Azumaya's while it is open (3.1),
        then its own Shima's (3.2); the ones that take the most digits from the other seat
        and the fewest from its own places first."""
        where = self.where
        open_places = [c for c in where.azumaya if cand[c]] or [c for c in where.shima.get(seat, ()) if cand[c]]
        theirs = set(where.shima.get(other(seat), ()))
        scored = []
        for c in open_places:
            for d in MASK_DIGITS[cand[c]]:
                bit = 1 << d
                gain = 0
                for p in PEERS[c]:
                    if cand[p] & bit:
                        gain += 1 if p in theirs else -1
                scored.append((-gain - POP[cand[c]], c, d))
        scored.sort()
        return [(c, d) for _, c, d in scored]

    def wins(self, cand: list[int], seat: str) -> bool:
        """Whether `seat`, on turn, wins from these candidates with best play."""
        key = (tuple(cand), seat)
        got = self.table.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise TooLarge
        known = None
        if not opening(self.where, cand):
            known = verdict(stones(self.where, cand, seat), stones(self.where, cand, other(seat)))
        if known is None:
            known = any(not self.wins(play(cand, c, d), other(seat)) for c, d in self.moves(cand, seat))
        self.table[key] = known
        return known


def play(cand: list[int], cell: int, digit: int) -> list[int]:
    """The candidates after `digit` goes on `cell` (3.3: it leaves its row, column and field)."""
    after = list(cand)
    after[cell] = 0
    keep = ~(1 << digit)
    for p in PEERS[cell]:
        after[p] &= keep
    return after


def _check(game: Moyo, state: Any) -> str:
    """The seat on turn; refuses what the solver does not play."""
    if game.opts["variant"] != "standard" or state.picks < 8 or state.handicap_left:
        raise UsageError("the exact solver plays standard Moyo after the draft and the handicap stones")
    seat = game.to_move(state)
    if seat is None:
        raise UsageError("the game is over")
    return seat


def solve(game: Moyo, state: Any, limit: int | None = None) -> bool:
    """Whether the seat on turn wins this position with best play (4.1)."""
    seat = _check(game, state)
    return Solver(places(game, state), limit).wins(list(state.grid.cand), seat)


def winning_moves(game: Moyo, state: Any, limit: int | None = None) -> list[Move]:
    """Every legal move after which the seat on turn wins with best play (none: the
    position is lost). One table serves all of them: they share most positions."""
    seat = _check(game, state)
    solver = Solver(places(game, state), limit)
    out: list[Move] = []
    for move in game.legal_moves(state):
        if not isinstance(move, Placement):
            raise UsageError(f"{move} is no placement")
        after = game.clone(state)
        game.apply(after, Action(0, "move", seat, move))
        if after.over or not solver.wins(list(after.grid.cand), other(seat)):
            out.append(move)
    return out
