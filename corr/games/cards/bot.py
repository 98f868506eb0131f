"""Computer opponents for СуДоку, the card game (docs/rules/cards.md).

A seat sees the board, every score, who holds a card, how many cards the pile has
left, and its own card (6.1); the other hands and the pile's order it does not. It
knows what is unseen, though: the deck less every card laid so far and its own.
`greedy` lays its card where the turn scores most now (3.1). `strong` looks one ply
further over the unseen cards: the turn's score less half of what the next seat's card
may score after it, and, where that card may fit nowhere and so end the game (5.1), the
end is sought while ahead and shunned while behind. Near the end it deals the unseen
cards at random to the other hands and the pile, consistently with what it sees (a
determinization), plays the game out with every seat greedy, many times within its time
budget, and lays its card where it ended ahead most often (Monte Carlo).

`Choice.expect` is in points (3.2): for `greedy` the turn's score; for `strong` near the
end the final lead over the best other seat it expects (negative when behind), before
that the turn's score less half of what it leaves the next seat.
"""

from __future__ import annotations

import random
import time
from typing import Sequence

from corr.errors import UsageError
from corr.games.base import BotView, Choice
from corr.geometry import PEERS, name
from corr.notation import Placement

#: Seconds a `strong` move may think by default; a move stays well under 2 s.
BUDGET = 1.0
#: The cells a laid card scores for (3.1): every cell of its block, row and column.
_PEERS: list[tuple[int, ...]] = [tuple(p for p in PEERS[c] if p != c) for c in range(81)]
_ROW = [c // 9 for c in range(81)]
_COL = [c % 9 for c in range(81)]
_BOX = [(c // 27) * 3 + (c % 9) // 3 for c in range(81)]


def turn_score(cells: Sequence[int], cell: int) -> int:
    """3.1: the cards already in the cell's block, row and column (peers, each once)."""
    return sum(1 for p in _PEERS[cell] if cells[p])


def read_board(text: str) -> list[int]:
    return [0 if ch == "." else int(ch) for ch in text]


def _laid_digit(text: str) -> int | None:
    """The card of a move's canonical text, `7 (5,4)`; None for anything else."""
    head = text.split(" ", 1)[0]
    return int(head) if head.isdigit() and len(head) == 1 else None


class Table:
    """The seat's view of the game, and what is unseen by it."""

    def __init__(self, view: BotView) -> None:
        pos = view.position
        game = view.rules
        if view.seat is None:  # the public's view: no seat to play, so no legal move
            raise UsageError(f"seat {view.seat} has no legal move")
        self.seats: list[str] = list(game.seats)
        self.me = self.seats.index(view.seat)
        self.cells = read_board(pos["board"])
        scores = pos.get("scores", {})
        self.points = [int(scores.get(s, 0)) for s in self.seats]
        holding = pos.get("holding", {})
        self.holding = [bool(holding.get(s, False)) for s in self.seats]
        hand = pos.get("hand") or []
        self.card = hand[0] if hand else next((m.digit for m in view.legal if isinstance(m, Placement)), 0)
        self.pile = int(pos.get("pile", 0))
        self.end = game.opts.get("end", "pile")
        unseen = list(getattr(game, "deck", []))
        for _, _, text in view.history:
            digit = _laid_digit(text)
            if digit is not None and digit in unseen:
                unseen.remove(digit)
        if self.card in unseen:
            unseen.remove(self.card)
        self.unseen = unseen
        self.moves = [m for m in view.legal if isinstance(m, Placement)]

    def deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """A determinization: the other hands and the pile from the unseen cards."""
        cards = self.unseen[:]
        rng.shuffle(cards)
        hands = [0] * len(self.seats)
        for i, holds in enumerate(self.holding):
            if i == self.me:
                hands[i] = self.card
            elif holds:
                hands[i] = cards.pop() if cards else 0
        pile = cards[: self.pile]
        while len(pile) < self.pile:  # fewer unseen than the pile shows: cards of any digit
            pile.append(rng.randint(1, 9))
        return hands, pile


class _Game:
    """The rest of a game played out fast: per cell its score (3.1) and the digits that
    still keep the Sudoku rule there, both kept up to date as cards are laid."""

    __slots__ = ("cells", "score", "cand", "empty", "points", "holding", "hands", "pile", "drawn", "turn",
                 "end_pile", "over")

    def __init__(self, table: Table, hands: list[int], pile: list[int], order: list[int]) -> None:
        cells = table.cells[:]
        self.cells = cells
        self.score = [turn_score(cells, c) for c in range(81)]
        rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
        for c, d in enumerate(cells):
            if d:
                rows[_ROW[c]] |= 1 << d
                cols[_COL[c]] |= 1 << d
                boxes[_BOX[c]] |= 1 << d
        self.cand = [0 if cells[c] else 0x3FE & ~(rows[_ROW[c]] | cols[_COL[c]] | boxes[_BOX[c]]) for c in range(81)]
        self.empty = [c for c in order if not cells[c]]
        self.points = table.points[:]
        self.holding = table.holding[:]
        self.hands = hands
        self.pile = pile
        self.drawn = 0
        self.turn = table.me
        self.end_pile = table.end == "pile"
        self.over = False

    def fork(self) -> _Game:
        """A copy to play on: the same sample dealt once serves every candidate move,
        without working out each cell's score and candidates again."""
        twin = _Game.__new__(_Game)
        twin.cells, twin.score, twin.cand, twin.empty = self.cells[:], self.score[:], self.cand[:], self.empty[:]
        twin.points, twin.holding, twin.hands = self.points[:], self.holding[:], self.hands[:]
        twin.pile, twin.drawn, twin.turn, twin.end_pile, twin.over = (
            self.pile, self.drawn, self.turn, self.end_pile, self.over)
        return twin

    def best(self, card: int) -> int:
        """The cell where `card` scores most (the first such in this play-out's order)."""
        bit = 1 << card
        best, top = -1, -1
        score, cand = self.score, self.cand
        for c in self.empty:
            if cand[c] & bit and score[c] > top:
                best, top = c, score[c]
        return best

    def lay(self, cell: int) -> None:
        """2.1-2.3: lay the card in hand on `cell`, score, draw, pass the turn."""
        turn = self.turn
        card = self.hands[turn]
        self.points[turn] += self.score[cell]
        self.cells[cell] = card
        self.cand[cell] = 0
        self.empty.remove(cell)
        off = ~(1 << card)
        score, cand = self.score, self.cand
        for p in _PEERS[cell]:
            score[p] += 1
            cand[p] &= off
        if self.drawn < len(self.pile):
            self.hands[turn] = self.pile[self.drawn]
            self.drawn += 1
        else:
            self.hands[turn] = 0
            if self.end_pile:  # 5.2
                self.over = True
                return
            self.holding[turn] = False
        n = len(self.hands)
        for step in range(1, n + 1):
            nxt = (turn + step) % n
            if self.holding[nxt]:
                self.turn = nxt
                return
        self.over = True  # 5.1: every card laid

    def play_out(self, plies: int = 10_000) -> None:
        """Every seat greedy, for `plies` turns or to the end: 5.1 ends the game when the
        card on turn fits nowhere."""
        while not self.over and plies > 0:
            cell = self.best(self.hands[self.turn])
            if cell < 0:
                self.over = True
                return
            self.lay(cell)
            plies -= 1


def greedy(view: BotView, rng: random.Random) -> Choice:
    """Lays the card where the turn scores most now (3.1); ties at random."""
    table = Table(view)
    if not table.moves:
        return Choice(rng.choice(view.legal), 0.0, "no card to lay")
    points, _, move = max((turn_score(table.cells, m.cell), rng.random(), m) for m in table.moves)
    return Choice(move, float(points), f"lays {move.digit} on {name(move.cell)}: scores {points}")


def _lead(points: list[int], me: int) -> int:
    return points[me] - max(p for i, p in enumerate(points) if i != me)


def _outlook(table: Table, cell: int) -> tuple[float, float]:
    """After the card lands on `cell`: what the next seat's card scores at best, on
    average over the unseen cards, and the chance that it fits nowhere, which ends the
    game (5.1)."""
    cells = table.cells
    card = table.card
    after = cells[:]
    after[cell] = card
    peers = set(_PEERS[cell])
    counts = [0] * 10
    for d in table.unseen:
        counts[d] += 1
    total = sum(counts) or 1
    free = [c for c in range(81) if not after[c]]
    used = [0] * 81  # the digits each free cell can no longer take
    for c in free:
        for p in _PEERS[c]:
            if after[p]:
                used[c] |= 1 << after[p]
    expected = blocked = 0.0
    for d in range(1, 10):
        if not counts[d]:
            continue
        bit = 1 << d
        best = -1
        for c in free:
            if not used[c] & bit:
                score = turn_score(cells, c) + (c in peers)
                if score > best:
                    best = score
        if best < 0:
            blocked += counts[d]
        else:
            expected += counts[d] * best
    return expected / total, blocked / total


def _judge(table: Table, move: Placement) -> float:
    """One ply further than greedy: the turn's score, less half of what it leaves the
    next seat; and where the next card is likely to fit nowhere, the end of the game is
    worth having while ahead and worth avoiding while behind (5.1, 5.3)."""
    now = turn_score(table.cells, move.cell)
    expected, blocked = _outlook(table, move.cell)
    ahead = _lead([p + (now if i == table.me else 0) for i, p in enumerate(table.points)], table.me) > 0
    return now - 0.5 * expected + (10 if ahead else -10) * blocked


def decide(table: Table, rng: random.Random, deadline: float, *, playouts: int = 2000, width: int = 8,
           endgame: int = 24) -> tuple[Placement, float, str]:
    """The move of `strong` for a table: judged one ply ahead while the end is far;
    within `endgame` free cells, the best `width` by that judgement played out to the end
    on the same sampled deals, ranked by how often they end the game ahead."""
    judged = sorted(((_judge(table, m), rng.random(), m) for m in table.moves), reverse=True)
    free = table.cells.count(0)
    if len(judged) == 1 or free > endgame:
        value, _, move = judged[0]
        return move, value, f"scores {turn_score(table.cells, move.cell)}, leaving the next seat little"
    moves = [m for _, _, m in judged[:width]]
    total = [0.0] * len(moves)
    wins = [0.0] * len(moves)
    runs = 0
    while runs < playouts and (runs < 2 or time.perf_counter() < deadline):
        hands, pile = table.deal(rng)
        order = list(range(81))
        rng.shuffle(order)
        dealt = _Game(table, hands, pile, order)
        for i, move in enumerate(moves):
            sim = dealt.fork()
            sim.lay(move.cell)
            sim.play_out()
            lead = _lead(sim.points, table.me)
            total[i] += lead
            wins[i] += 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        runs += 1
    best = max(range(len(moves)), key=lambda i: (wins[i], total[i], -i))
    mean = total[best] / runs
    return moves[best], mean, (f"scores {turn_score(table.cells, moves[best].cell)}; ends ahead in "
                               f"{wins[best] / runs:.0%} of {runs} play-outs, {mean:+.1f} against the best other seat")


def strong(view: BotView, rng: random.Random, *, budget: float = BUDGET, playouts: int = 2000,
           width: int = 8, endgame: int = 24) -> Choice:
    """Judges each cell one ply ahead over the unseen cards, and near the end plays the
    best few out to the end on sampled deals (Monte Carlo); see `decide`."""
    deadline = time.perf_counter() + budget
    table = Table(view)
    if not table.moves:
        return Choice(rng.choice(view.legal), 0.0, "no card to lay")
    move, value, why = decide(table, rng, deadline, playouts=playouts, width=width, endgame=endgame)
    return Choice(move, value, f"lays {move.digit} on {name(move.cell)}: {why}")
