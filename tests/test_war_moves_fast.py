"""Sudoku War's move generator (`War.legal_moves`, `piece_moves`, `frozen`, `has_move`)
against a plain one written here from docs/rules/war.md 2.1-2.6.

The reference walks the rules' words: every target a piece's kind of move reaches, the
whole board's Sudoku rule checked after each number's move or replacement. It knows
nothing of the engine's tables, bit masks or byte searches, so a shortcut there that
loses or adds a move fails here. The engine lists a side's moves piece by piece in cell
order; the order within one piece is its own, so each piece's moves are compared as a
set, in the engine's order of pieces.
"""

from __future__ import annotations

import random

import pytest

from corr import engine, randomplay
from corr.games.war.rules import BLACK, WHITE, War, WarState
from corr.notation import Correction, Move, PieceMove

STAR, CORRECTOR, LEAP, KNIGHT, IMMOBILIZER = 10, 11, 12, 13, 14
LETTERS = {STAR: "S", CORRECTOR: "C", LEAP: "L", KNIGHT: "N", IMMOBILIZER: "I"}
ROOK = ((-1, 0), (1, 0), (0, -1), (0, 1))
QUEEN = ROOK + ((-1, -1), (-1, 1), (1, -1), (1, 1))
JUMPS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
         + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)])


# --- the reference, from the rules' words -------------------------------------------------
def rc(cell: int) -> tuple[int, int]:
    return divmod(cell, 9)


def king_step(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = rc(a), rc(b)
    return a != b and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def around(cell: int) -> list[int]:
    return [t for t in range(81) if king_step(cell, t)]


def field(cell: int) -> int:
    r, c = rc(cell)
    return r // 3 * 3 + c // 3


def keeps_sudoku(piece: list[int]) -> bool:
    """2.1, 2.7: no digit twice in a row, column or field, hired pieces not counting."""
    for unit in UNITS:
        digits = [piece[c] for c in unit if 0 < piece[c] < 10]
        if len(digits) != len(set(digits)):
            return False
    return True


def slides(piece: list[int], cell: int, directions: tuple[tuple[int, int], ...]) -> list[tuple[int, int | None]]:
    """Per direction: the empty cells a slide crosses, then the first piece in the way (or None)."""
    out: list[tuple[int, int | None]] = []
    for dr, dc in directions:
        r, c = rc(cell)
        r, c = r + dr, c + dc
        while 0 <= r < 9 and 0 <= c < 9:
            if piece[r * 9 + c]:
                out.append((-1, r * 9 + c))
                break
            out.append((r * 9 + c, None))
            r, c = r + dr, c + dc
    return out


def frozen_numbers(piece: list[int], side: list[int], own: int) -> set[int]:
    """2.6: `own`'s numbers a King's step from an enemy Immobilizer."""
    return {c for c in range(81) if side[c] == own and 0 < piece[c] < 10
            and any(piece[i] == IMMOBILIZER and side[i] == 3 - own for i in around(c))}


def number_moves(piece: list[int], side: list[int], own: int, cell: int) -> set[Move]:
    """2.1, 2.4: a King's step from the number, from a friendly Leap beside it or from a
    second Leap beside that one (two Leaps at most), onto an empty cell or an enemy
    piece, never back onto its own cell, the Sudoku rule holding after the move."""
    leaps = [c for c in range(81) if piece[c] == LEAP and side[c] == own]
    starts = {cell}
    for first in leaps:
        if king_step(cell, first):
            starts.add(first)
            starts.update(second for second in leaps if king_step(first, second))
    out: set[Move] = set()
    for t in range(81):
        if t == cell or side[t] == own or not any(king_step(s, t) for s in starts):
            continue
        after = list(piece)
        after[t], after[cell] = piece[cell], 0
        if keeps_sudoku(after):
            out.add(PieceMove(str(piece[cell]), cell, t, bool(side[t])))
    return out


def hired_moves(piece: list[int], side: list[int], own: int, cell: int) -> set[Move]:
    """2.2-2.6: the moves of the hired piece on `cell`."""
    kind, letter = piece[cell], LETTERS[piece[cell]]
    out: set[Move] = set()

    def enemy_number(t: int) -> bool:
        return side[t] == 3 - own and piece[t] < 10

    if kind in (STAR, CORRECTOR, LEAP):  # 2.2-2.4: Rook (Queen for a Leap) slides, no capture
        for t, blocker in slides(piece, cell, QUEEN if kind == LEAP else ROOK):
            if blocker is None:
                out.add(PieceMove(letter, cell, t, False))
            elif kind == STAR and enemy_number(blocker):  # 2.2: a suicide capture it could slide onto
                out.add(PieceMove(letter, cell, blocker, True))
    if kind == STAR:  # 2.2: a jump to an empty cell of its own field, or a suicide capture there
        for t in range(81):
            if t != cell and field(t) == field(cell) and (not piece[t] or enemy_number(t)):
                out.add(PieceMove(letter, cell, t, bool(piece[t])))
    if kind == CORRECTOR:  # 2.3: another number in place of a friendly one orthogonally beside it
        for t in range(81):
            if abs(rc(t)[0] - rc(cell)[0]) + abs(rc(t)[1] - rc(cell)[1]) == 1 and side[t] == own and piece[t] < 10:
                for d in range(1, 10):
                    after = list(piece)
                    after[t] = d
                    if d != piece[t] and keeps_sudoku(after):
                        out.add(Correction(t, d))
    if kind == KNIGHT:  # 2.5: a chess Knight's jump; it takes enemy hired pieces only
        r, c = rc(cell)
        for dr, dc in JUMPS:
            t = (r + dr) * 9 + c + dc
            if 0 <= r + dr < 9 and 0 <= c + dc < 9 and (not piece[t] or side[t] == 3 - own and piece[t] >= 10):
                out.add(PieceMove(letter, cell, t, bool(piece[t])))
    if kind == IMMOBILIZER:  # 2.6: a King's step to an empty cell
        out.update(PieceMove(letter, cell, t, False) for t in around(cell) if not piece[t])
    return out


def reference(piece: list[int], side: list[int], own: int) -> list[tuple[int, set[Move]]]:
    """`own`'s pieces that can move, in cell order, each with its moves."""
    frozen = frozen_numbers(piece, side, own)
    out = []
    for cell in range(81):
        if side[cell] != own or cell in frozen:
            continue
        moves = number_moves(piece, side, own, cell) if piece[cell] < 10 else hired_moves(piece, side, own, cell)
        if moves:
            out.append((cell, moves))
    return out


# --- positions ------------------------------------------------------------------------------
def thrown(rng: random.Random, many_leaps: bool = False) -> WarState:
    """Pieces of both colours thrown on the board, the Sudoku rule kept; with
    `many_leaps`, clusters of Leaps and Immobilizers beyond a setup's two and one."""
    piece, side = [0] * 81, [0] * 81
    for colour in (WHITE, BLACK):
        hired = [STAR, STAR, CORRECTOR, CORRECTOR, LEAP, LEAP, KNIGHT, KNIGHT, IMMOBILIZER]
        if many_leaps:
            hired += [LEAP] * 4 + [IMMOBILIZER] * 2
        for kind in rng.sample(hired, rng.randint(1, len(hired))):
            cell = rng.choice([c for c in range(81) if not piece[c]])
            if many_leaps and kind == LEAP and rng.random() < 0.7:  # most Leaps beside another piece
                taken = [c for c in range(81) if piece[c]]
                near = [t for c in taken for t in around(c) if not piece[t]] if taken else []
                cell = rng.choice(near) if near else cell
            piece[cell], side[cell] = kind, colour
        for _ in range(rng.randint(2, 14)):
            digit = rng.randint(1, 9)
            free = [c for c in range(81) if not piece[c]
                    and not any(piece[p] == digit for u in UNITS if c in u for p in u)]
            if free:
                cell = rng.choice(free)
                piece[cell], side[cell] = digit, colour
    state = WarState(piece, side, rng.choice((WHITE, BLACK)))
    if rng.random() < 0.5:  # a replayed state keeps its board as bytes; one built by hand does not
        state.cells = bytearray(piece) + bytearray(side)
    return state


def played(seed: int) -> list[WarState]:
    """Every running position of a random game from the default setup."""
    rep = randomplay.play("war", ["White", "Black"], {}, seed=seed, max_records=300)
    states: list[WarState] = []
    engine.replay(rep.log, each=lambda r: states.append(r.game.clone(r.state)) if not r.state.over else None)
    return states


GAME = War(War.resolve_options({}), ["A", "B"])


def assert_as_reference(state: WarState) -> None:
    """The engine's moves for the side to move are the reference's, piece by piece in
    cell order, each piece's moves once; `has_move`, `frozen` and `piece_moves` agree."""
    piece, side, own = state.piece, state.side, state.turn
    want = reference(piece, side, own)
    got = GAME.legal_moves(state)
    at = 0
    for cell, moves in want:
        run = got[at:at + len(moves)]
        assert len(run) == len(set(run)) and set(run) == moves, (cell, state)
        assert GAME.piece_moves(state, cell) == run
        at += len(moves)
    assert at == len(got), (got[at:], state)
    assert GAME.has_move(state) == bool(want)
    assert GAME.frozen(state, own) == frozen_numbers(piece, side, own)
    assert GAME.frozen(state, 3 - own) == frozen_numbers(piece, side, 3 - own)


# --- the tests ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_war_2_1_to_2_6_every_position_of_random_games_has_the_reference_s_moves(seed: int) -> None:
    states = played(seed)
    assert len(states) > 100
    for state in states[::3]:
        assert_as_reference(state)


@pytest.mark.parametrize("seed", range(4))
def test_war_2_1_to_2_6_random_positions_have_the_reference_s_moves(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        assert_as_reference(thrown(rng))


@pytest.mark.parametrize("seed", range(3))
def test_war_2_4_2_6_leap_chains_and_several_immobilizers_give_the_reference_s_moves(seed: int) -> None:
    """2.4 ruling: a number uses at most two Leaps, even beside a chain of more; 2.6:
    each enemy Immobilizer holds the numbers beside it."""
    rng = random.Random(100 + seed)
    for _ in range(60):
        assert_as_reference(thrown(rng, many_leaps=True))


def test_war_2_4_a_number_beside_a_chain_of_three_leaps_uses_two() -> None:
    """White's 5 on row 9 column 1 has a Leap beside it, a second beside that and a
    third beyond: it reaches the second Leap's steps but not the third's."""
    piece, side = [0] * 81, [0] * 81
    for cell, kind in ((72, 5), (64, LEAP), (56, LEAP), (48, LEAP)):
        piece[cell], side[cell] = kind, WHITE
    moves = {m.dst for m in GAME.legal_moves(WarState(piece, side, WHITE)) if isinstance(m, PieceMove) and m.src == 72}
    assert 46 in moves and 38 not in moves  # a step from the Leap at 56, none from the one at 48
    assert_as_reference(WarState(piece, side, WHITE))


def test_war_2_3_the_same_replacement_from_two_correctors_is_listed_once_for_each() -> None:
    """2.3: a number between two friendly Correctors can be replaced by either: each
    Corrector lists the replacements in its turn of the sweep."""
    piece, side = [0] * 81, [0] * 81
    for cell, kind in ((39, CORRECTOR), (40, 4), (41, CORRECTOR)):
        piece[cell], side[cell] = kind, WHITE
    moves = GAME.legal_moves(WarState(piece, side, WHITE))
    assert moves.count(Correction(40, 7)) == 2
    assert_as_reference(WarState(piece, side, WHITE))
