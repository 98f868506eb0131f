"""Computer opponents for Sudoku War (docs/rules/war.md): `greedy` and `strong`.

War hides nothing, so both levels work on a copy of the whole position (`view.state`)
and make and take back moves on it in place: the moves themselves always come from the
game's own generator (`War.legal_moves`), so the bots follow the rules the engine
enforces. Making a move here only moves pieces; the endings of 3.1 and 3.2 are judged
when a side comes to move: an enemy number that stands on its first line must be taken
this turn (two such numbers cannot both be), and a side without a legal move has lost.

Piece values, in hundredths of a number (a number = 100):

- a number 100, whatever its digit: every number moves the same way, and a Corrector
  can change its digit (2.3); `strong` adds more for a side's last few numbers, since
  only numbers win (3.1) (SCARCITY);
- Corrector 200: changes digits but neither takes nor wins;
- Star 250: the defender of its first line, it trades itself for an attacking number (2.2);
- Knight 300: the one hired piece that takes and stays, though only hired pieces (2.5);
- Leap 350 and Immobilizer 350: a Leap carries numbers across the board (2.4), an
  Immobilizer stops every enemy number next to it (2.6).

`strong` adds to material how far each number has advanced towards the enemy's first
line (the way to win), a little for hired pieces near the centre, and the mobility of
numbers: the enemy numbers its Immobilizers hold still. Choice.expect is in numbers (the
evaluation divided by 100) from the bot's side; a won game is +1000, a lost one -1000.
"""

from __future__ import annotations

import random
import time
from typing import Any, Iterator, cast

from corr.games.base import BotView, Choice
from corr.games.search import from_table, to_table
from corr.errors import UsageError
from corr.games.war.rules import (
    BLACK, COLOUR_NAME, CORRECTOR, FIRST_LINE, IMMOBILIZER, KING, KNIGHT, KNIGHT_JUMPS, LEAP, PIECE_NAME, STAR, WHITE, War,
    position_text,
)
from corr.geometry import name
from corr.notation import Correction, Move, PieceMove

NUMBER = 100
VALUE = [0] + [NUMBER] * 9 + [0] * 5
VALUE[CORRECTOR], VALUE[STAR], VALUE[KNIGHT], VALUE[LEAP], VALUE[IMMOBILIZER] = 200, 250, 300, 350, 350
#: a won game, in the evaluation's units; a score beyond WIN - MATE_ZONE is a forced result
WIN = 100_000
MATE_ZONE = 1_000
#: what a side's numbers are worth beyond 100 each, by how many it has: only numbers win
#: (3.1), so the last few are dearer than any hired piece
SCARCITY = (0, 250, 400, 500, 550, 580, 600, 600, 600, 600) + (600,) * 72
#: a number's bonus by its distance in rows from the enemy's first line (0: standing on it)
ADVANCE = (90, 60, 38, 24, 14, 7, 3, 0, 0)
#: a hired piece's bonus per step nearer the centre than the edge (Knights gain most)
CENTRE = {STAR: 1, CORRECTOR: 1, LEAP: 3, KNIGHT: 5, IMMOBILIZER: 3}
#: mobility, cheaply: what each enemy number held by an Immobilizer (2.6) is worth
FROZEN = 15
#: an enemy Immobilizer that holds one's numbers still is a target a Knight can take
#: (2.5, 2.6): a bonus by the nearest own Knight's distance from it in jumps, so that a
#: side far ahead brings a Knight over instead of shuffling beyond the search's horizon
HUNT = (0, 40, 30, 21, 14, 9, 5, 2) + (0,) * 74
#: how many captures deep the quiescence search follows a line of play
QUIESCENCE_PLIES = 6
#: default thinking time in seconds: a hard deadline
BUDGET = 1.0
#: a deeper iteration starts while less than this share of the budget is spent, and the
#: deadline cuts it short: an iteration searches the best move so far first, so one cut
#: short still answers with a move searched deeper or the one before (predicting how long
#: the next ply takes stopped most moves after 1 or 2 plies, a tenth of the budget spent)
SOFT_SHARE = 0.6

#: War's moves: a piece's step or capture, or a Corrector's change of a digit (2.3)
WarMove = PieceMove | Correction


def _table() -> list[list[list[int]]]:
    """SIGNED[colour][kind][cell]: a piece's worth on a cell, positive for White."""
    signed: list[list[list[int]]] = [[[0] * 81 for _ in range(15)] for _ in range(3)]
    for colour, sign in ((WHITE, 1), (BLACK, -1)):
        for kind in range(1, 15):
            if 10 <= kind <= 14 and kind not in CENTRE:
                continue
            for cell in range(81):
                row, col = divmod(cell, 9)
                if kind < 10:
                    value = NUMBER + ADVANCE[row if colour == WHITE else 8 - row]
                else:
                    value = VALUE[kind] + CENTRE[kind] * (4 - max(abs(row - 4), abs(col - 4)))
                signed[colour][kind][cell] = sign * value
    return signed


SIGNED = _table()


def _war_moves(moves: list[Move]) -> list[WarMove]:
    """`moves` as War's own: the game makes nothing but piece moves and corrections."""
    return cast("list[WarMove]", moves)  # a string: no alias built at run time


class _OutOfTime(Exception):
    """The deadline passed in the middle of a search."""


class _Board:
    """A War position the bot moves pieces on and takes them back, keeping its
    evaluation (material and placement, White's view) up to date as it goes."""

    def __init__(self, game: War, state: Any) -> None:
        self.game = game
        self.pos = game.clone(state)
        self.pos.cells = None  # `make` moves pieces on the lists alone: state_key must read them
        #: how often each position has stood (repetition=3); the search copy keeps none
        self.seen: dict[str, int] = self.pos.seen
        self.pos.seen = {}
        piece, side = self.pos.piece, self.pos.side
        self.score = sum(SIGNED[side[c]][piece[c]][c] for c in range(81) if side[c])
        #: how many numbers each colour has, and where its Immobilizers stand (index WHITE, BLACK)
        self.numbers = [0, 0, 0]
        self.immobilizers: list[list[int]] = [[], [], []]
        self.knights: list[list[int]] = [[], [], []]
        for c in range(81):
            if side[c] and piece[c] < 10:
                self.numbers[side[c]] += 1
            elif side[c] and piece[c] == IMMOBILIZER:
                self.immobilizers[side[c]].append(c)
            elif side[c] and piece[c] == KNIGHT:
                self.knights[side[c]].append(c)

    def make(self, move: WarMove) -> tuple[Any, ...]:
        """Play `move` for the side to move; returns what `take_back` needs."""
        pos = self.pos
        piece, side = pos.piece, pos.side
        pos.turn = 3 - pos.turn
        if isinstance(move, Correction):
            cell = move.cell
            old = piece[cell]
            piece[cell] = move.digit  # every digit is worth the same: the score stands
            return (cell, old)
        src, dst = move.src, move.dst
        kind, own, victim, enemy = piece[src], side[src], piece[dst], side[dst]
        score = self.score - SIGNED[own][kind][src]
        if enemy:
            score -= SIGNED[enemy][victim][dst]
            if victim < 10:
                self.numbers[enemy] -= 1
            elif victim == IMMOBILIZER:
                self.immobilizers[enemy].remove(dst)
            elif victim == KNIGHT:
                self.knights[enemy].remove(dst)
        if kind == IMMOBILIZER:
            cells = self.immobilizers[own]
            cells[cells.index(src)] = dst
        elif kind == KNIGHT:
            cells = self.knights[own]
            cells[cells.index(src)] = dst
        if kind == STAR and enemy:  # 2.2: a suicide capture, both leave the board
            piece[dst] = side[dst] = 0
        else:
            piece[dst], side[dst] = kind, own
            score += SIGNED[own][kind][dst]
        piece[src] = side[src] = 0
        undo = (src, kind, own, dst, victim, enemy, self.score)
        self.score = score
        return undo

    def take_back(self, undo: tuple[Any, ...]) -> None:
        pos = self.pos
        pos.turn = 3 - pos.turn
        if len(undo) == 2:
            pos.piece[undo[0]] = undo[1]
            return
        src, kind, own, dst, victim, enemy, self.score = undo
        if enemy and victim < 10:
            self.numbers[enemy] += 1
        elif enemy and victim == IMMOBILIZER:
            self.immobilizers[enemy].append(dst)
        elif enemy and victim == KNIGHT:
            self.knights[enemy].append(dst)
        if kind == IMMOBILIZER:
            cells = self.immobilizers[own]
            cells[cells.index(dst)] = src
        elif kind == KNIGHT:
            cells = self.knights[own]
            cells[cells.index(dst)] = src
        piece, side = pos.piece, pos.side
        piece[src], side[src] = kind, own
        piece[dst], side[dst] = victim, enemy

    def threats(self) -> list[int]:
        """3.1: the enemy numbers on the first line of the side to move."""
        pos = self.pos
        own = pos.turn
        piece, side = pos.piece, pos.side
        return [c for c in FIRST_LINE[own] if side[c] and side[c] != own and piece[c] < 10]

    def moves(self) -> list[WarMove]:
        """The legal moves of the side to move that do not lose at once (3.1): all of
        them, or only those that take the one enemy number on its first line."""
        threats = self.threats()
        if len(threats) > 1:
            return []
        moves = _war_moves(self.game.legal_moves(self.pos))
        if threats:
            cell = threats[0]
            return [m for m in moves if m.__class__ is PieceMove and m.dst == cell]
        return moves

    def held(self, colour: int) -> set[int]:
        """2.6: the cells of `colour`'s numbers next to an enemy Immobilizer (the game's
        `War.frozen`, from the Immobilizers this board keeps track of)."""
        piece, side = self.pos.piece, self.pos.side
        out: set[int] = set()
        for imm in self.immobilizers[3 - colour]:
            for n in KING[imm]:
                if side[n] == colour and piece[n] < 10:
                    out.add(n)
        return out

    def tactical(self) -> list[WarMove]:
        """The side to move's captures and steps onto the enemy's first line: the moves
        that change the game at once, from the game's own generator, asked only for the
        pieces that may make one."""
        game, pos = self.game, self.pos
        piece, side, own = pos.piece, pos.side, pos.turn
        enemy_line = FIRST_LINE[3 - own]
        frozen = self.held(own)
        out: list[WarMove] = []
        for cell in range(81):
            if side[cell] != own:
                continue
            kind = piece[cell]
            if kind < 10:
                if cell in frozen or not any(
                        side[t] and side[t] != own or t in enemy_line and not side[t]
                        for t in game.number_targets(pos, cell)):
                    continue
            elif kind not in (STAR, KNIGHT):  # the other hired pieces never capture (2.3, 2.4, 2.6)
                continue
            # numbers, Stars and Knights only ever step or take: their moves are piece moves
            for move in cast("list[PieceMove]", game.piece_moves(pos, cell, frozen)):
                if move.capture or (kind < 10 and move.dst in enemy_line):
                    out.append(move)
        return out

    def evaluate(self) -> int:
        """Material and placement, the enemy numbers an Immobilizer holds, and how near
        a Knight stands to an Immobilizer that holds numbers, from the side to move's view."""
        numbers = self.numbers
        score = (self.score + SCARCITY[numbers[WHITE]] - SCARCITY[numbers[BLACK]]
                 + FROZEN * (len(self.held(BLACK)) - len(self.held(WHITE))))
        if self.immobilizers[WHITE] or self.immobilizers[BLACK]:
            score += self._hunt(WHITE) - self._hunt(BLACK)
        return score if self.pos.turn == WHITE else -score

    def _hunt(self, colour: int) -> int:
        """HUNT for `colour`'s nearest Knight to each enemy Immobilizer holding one of its
        numbers still (2.6)."""
        knights = self.knights[colour]
        if not knights:
            return 0
        piece, side = self.pos.piece, self.pos.side
        bonus = 0
        for imm in self.immobilizers[3 - colour]:
            if any(side[n] == colour and piece[n] < 10 for n in KING[imm]):
                bonus += HUNT[min(KNIGHT_DISTANCE[k][imm] for k in knights)]
        return bonus


def _knight_distances() -> list[list[int]]:
    """KNIGHT_DISTANCE[a][b]: the fewest Knight's jumps from a to b on an empty board."""
    table = []
    for start in range(81):
        far = [99] * 81
        far[start], ring = 0, [start]
        while ring:
            nxt = []
            for c in ring:
                for n in KNIGHT_JUMPS[c]:
                    if far[n] == 99:
                        far[n] = far[c] + 1
                        nxt.append(n)
            ring = nxt
        table.append(far)
    return table


KNIGHT_DISTANCE = _knight_distances()


def _describe(state: Any, move: WarMove) -> str:
    """What `move` does, in the game's words, in `state` (the position before it)."""
    piece, side = state.piece, state.side
    if isinstance(move, Correction):
        article = "an" if move.digit == 8 else "a"
        return f"turns the {piece[move.cell]} at {name(move.cell)} into {article} {move.digit} (2.3)"
    src, dst = move.src, move.dst
    kind, victim = piece[src], piece[dst]
    if side[dst]:
        what = f"{COLOUR_NAME[side[dst]]}'s {victim if victim < 10 else PIECE_NAME[victim]} at {name(dst)}"
        if kind == STAR:
            return f"gives its Star for {what} (2.2)"
        mover = kind if kind < 10 else PIECE_NAME[kind]
        return f"its {mover} takes {what}"
    enemy = 3 - side[src]
    if kind < 10 and dst in FIRST_LINE[enemy]:
        return f"its {kind} reaches {COLOUR_NAME[enemy]}'s first line at {name(dst)} (3.1)"
    return f"plays {move}"


def _gain(board: _Board, move: WarMove) -> int:
    """The material `move` wins at once (a Star's suicide capture costs the Star)."""
    if isinstance(move, Correction):
        return 0
    piece, side = board.pos.piece, board.pos.side
    if not side[move.dst]:
        return 0
    return VALUE[piece[move.dst]] - (VALUE[STAR] if piece[move.src] == STAR else 0)


def _check_view(view: BotView) -> None:
    if view.state is None or not view.legal:
        raise UsageError(f"seat {view.seat} has no legal move")


def _rules(view: BotView) -> War:
    """The view's rules, War's own: what the bots make and take back moves with."""
    game = view.rules
    if not isinstance(game, War):
        raise UsageError(f"the {War.title} computer opponent cannot play {game.title}")
    return game


def greedy(view: BotView, rng: random.Random) -> Choice:
    """The move with the best immediate result: a win at once (the other side left
    without a legal move, 3.2), else the most material taken, never a move that loses
    at once by leaving an enemy number on the first line (3.1); ties broken by `rng`."""
    _check_view(view)
    board = _Board(_rules(view), view.state)
    saving = set(board.moves())
    best: list[WarMove] = []
    best_value = -2 * WIN
    for move in _war_moves(view.legal):
        if move not in saving:
            value = -WIN
        else:
            value = _gain(board, move)
            undo = board.make(move)
            if not board.game.has_move(board.pos):
                value = WIN
            board.take_back(undo)
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    move = rng.choice(best)
    opponent = COLOUR_NAME[3 - board.pos.turn]
    if best_value >= WIN:
        why = f"{_describe(view.state, move)}: {opponent} is left without a legal move (3.2)"
    elif best_value <= -WIN:
        why = f"{_describe(view.state, move)}: every move loses (3.1)"
    elif best_value:
        why = f"{_describe(view.state, move)}; material {best_value / NUMBER:+g}"
    else:
        why = f"{_describe(view.state, move)}: nothing to take"
    return Choice(move, best_value / NUMBER, why)


class _Search:
    """Negamax with alpha-beta (principal variation search), iterative deepening, a
    transposition table on the game's state_key, killer moves and quiescence on
    captures and arrivals on the enemy's first line."""

    def __init__(self, board: _Board, deadline: float) -> None:
        self.board = board
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[bytes, tuple[int, int, int, WarMove | None]] = {}
        self.killers: list[list[WarMove | None]] = [[None, None] for _ in range(128)]
        self.history: dict[int, int] = {}  # id of a piece move -> how often it refuted a line
        self.key = board.game.state_key
        #: root moves that draw by repetition (3.2)
        self.draws: set[WarMove] = set()

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 15 and time.perf_counter() > self.deadline:
            raise _OutOfTime

    def ordered(self, moves: list[WarMove], first: WarMove | None, ply: int) -> list[WarMove]:
        """Best first: the table's move, captures by MVV-LVA, arrivals on the enemy's
        first line, killers, then by history. The game makes each piece move once
        (War keeps them), so moves are told apart by identity, which is cheap;
        Corrections are made afresh and only the table's move is looked for among them."""
        piece, side = self.board.pos.piece, self.board.pos.side
        enemy_line = FIRST_LINE[3 - self.board.pos.turn]
        killer1, killer2 = self.killers[ply] if ply < len(self.killers) else (None, None)
        history = self.history
        table_correction = first if first.__class__ is Correction else None

        def key(move: WarMove) -> int:
            if move is first:
                return 10_000_000
            if isinstance(move, Correction):
                return 10_000_000 if table_correction is not None and move == table_correction else 0
            dst = move.dst
            if side[dst]:
                return 1_000_000 + 10 * VALUE[piece[dst]] - VALUE[piece[move.src]]
            if piece[move.src] < 10 and dst in enemy_line:
                return 900_000
            if move is killer1 or move is killer2:
                return 800_000
            return history.get(id(move), 0)

        return sorted(moves, key=key, reverse=True)

    def staged(self, moves: list[WarMove], first: WarMove | None, ply: int) -> Iterator[WarMove]:
        """The table's move first, when it is among `moves`; the rest are ordered only
        when it does not cut the node short."""
        if first is not None:
            if first.__class__ is Correction:
                first = next((m for m in moves if m == first), None)
            elif not any(m is first for m in moves):
                first = None
        if first is not None:
            yield first
        for move in self.ordered(moves, first, ply):
            if move is not first:
                yield move

    def quiesce(self, alpha: int, beta: int, ply: int, depth: int) -> int:
        """Follow captures (and arrivals on the enemy's first line) until the position is
        quiet; the side to move may also stand pat, unless it must take (3.1)."""
        self._tick()
        board = self.board
        threats = board.threats()
        if threats:  # a forced capture: no standing pat
            candidates = board.moves()
            best = -WIN + ply
        else:
            best = board.evaluate()
            if best >= beta or depth >= QUIESCENCE_PLIES:
                return best
            alpha = max(alpha, best)
            candidates = self.ordered(board.tactical(), None, ply)
        for move in candidates:
            undo = board.make(move)
            value = -self.quiesce(-beta, -alpha, ply + 1, depth + 1)
            board.take_back(undo)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, 0)
        self._tick()
        board = self.board
        key = self.key(board.pos)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, e_bound, first = entry
            if e_depth >= depth:
                value = from_table(e_value, ply, WIN, MATE_ZONE)
                if e_bound == 0 or (e_bound > 0 and value >= beta) or (e_bound < 0 and value <= alpha):
                    return value
        moves = board.moves()
        if not moves:
            return -WIN + ply
        start_alpha = alpha
        best, best_move = -2 * WIN, None
        for i, move in enumerate(self.staged(moves, first, ply)):
            undo = board.make(move)
            if i == 0:
                value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            else:
                value = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            board.take_back(undo)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if isinstance(move, Correction) or not board.pos.side[move.dst]:
                            self._remember(move, depth, ply)
                        break
        bound = 1 if best >= beta else (-1 if best <= start_alpha else 0)
        self.table[key] = (depth, to_table(best, ply, WIN, MATE_ZONE), bound, best_move)
        return best

    def _remember(self, move: WarMove, depth: int, ply: int) -> None:
        """A quiet piece move that refuted a line: try it early in its sisters' lines too."""
        if move.__class__ is Correction:
            return
        if ply < len(self.killers):
            killers = self.killers[ply]
            if killers[0] is not move:
                killers[1], killers[0] = killers[0], move
        self.history[id(move)] = self.history.get(id(move), 0) + depth * depth

    def root(self, moves: list[WarMove], depth: int, found: list[tuple[WarMove, int]]) -> None:
        """Search every root move to `depth`; appends (move, score) to `found` as each
        is settled, the best so far last, so a search cut short still has an answer."""
        board = self.board
        alpha, beta = -2 * WIN, 2 * WIN
        for i, move in enumerate(moves):
            undo = board.make(move)
            if move in self.draws:
                value = 0
            elif i == 0:
                value = -self.negamax(depth - 1, -beta, -alpha, 1)
            else:
                value = -self.negamax(depth - 1, -alpha - 1, -alpha, 1)
                if value > alpha:
                    value = -self.negamax(depth - 1, -beta, -alpha, 1)
            board.take_back(undo)
            if value > alpha:
                alpha = value
                found.append((move, value))



def strong(view: BotView, rng: random.Random, *, budget: float = BUDGET, depth: int | None = None) -> Choice:
    """Alpha-beta search, deepened one ply at a time while time is left: `budget` seconds
    at most (a deeper search starts only when it should end well within them), `depth`
    plies at most. Ties between equally good moves are broken by `rng`."""
    _check_view(view)
    started = time.perf_counter()
    board = _Board(_rules(view), view.state)
    saving = board.moves()
    if not saving:
        move = rng.choice(_war_moves(view.legal))
        return Choice(move, -WIN / NUMBER, f"{_describe(view.state, move)}: every move loses (3.1, 3.2)")
    moves = list(saving)
    rng.shuffle(moves)
    search = _Search(board, started + budget)
    moves = search.ordered(moves, None, 0)
    if len(moves) == 1:
        return Choice(moves[0], board.evaluate() / NUMBER, f"{_describe(view.state, moves[0])}: the only move that "
                      "does not lose at once")
    search.draws = _repeating(board, moves) if board.game.repetition else set()
    best, best_value, reached = moves[0], -2 * WIN, 0
    for d in range(1, (depth or 64) + 1):
        found: list[tuple[WarMove, int]] = []
        try:
            search.root(moves, d, found)
        except _OutOfTime:
            if found:  # the first move searched was the best one so far: anything found beat it
                best, best_value = found[-1]
            break
        best, best_value = found[-1]
        reached = d
        moves = [best] + [m for m in moves if m is not best]
        if abs(best_value) > WIN - MATE_ZONE:
            break
        if time.perf_counter() - started > budget * SOFT_SHARE:
            break
    return Choice(best, best_value / NUMBER, _why(view.state, best, best_value, reached))


def _repeating(board: _Board, moves: list[WarMove]) -> set[WarMove]:
    """repetition=3: the moves after which a position stands a third time, a draw (3.2)."""
    pos = board.pos
    draws = set()
    for move in moves:
        undo = board.make(move)
        if board.seen.get(position_text(pos.piece, pos.side, pos.turn), 0) >= 2:
            draws.add(move)
        board.take_back(undo)
    return draws


def _why(state: Any, move: WarMove, value: int, depth: int) -> str:
    """The strong level's reason: the move, and what the search expects of it."""
    what = _describe(state, move)
    if value > WIN - MATE_ZONE:
        plies = WIN - value
        return f"{what}: wins in {(plies + 1) // 2} move{'s' if plies > 2 else ''}"
    if value < -WIN + MATE_ZONE:
        return f"{what}: every line loses; this one lasts longest"
    return f"{what}; looks {depth} pl{'ies' if depth != 1 else 'y'} ahead, expects {value / NUMBER:+.2f}"
