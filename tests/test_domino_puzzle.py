"""Sudoku Domino (docs/rules/domino.md): docking cells (2.2, 2.3), unreachable cells (3.3) and
the seeded generator (7.1) in corr/puzzles/domino.py, with the dealer's `draw`."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import example, given, settings, strategies as st

from corr.engine import dealer
from corr.games import dealing
from corr.errors import UsageError
from corr.geometry import UNITS, cell_at, name
from corr.puzzles.appendix import puzzle_text
from corr.games.domino.deal import Deal, docking_cells, generate, peel, solution_grid, unreachable_cells

SEED = "d1ce" * 8


def diagram(*rows: str) -> tuple[list[int], list[int]]:
    """A board from nine rows of nine: `#` a stone, `.` empty, `o` or `x` an empty cell
    the test expects to be marked; returns the board and the marked cells."""
    assert len(rows) == 9 and all(len(r) == 9 for r in rows), rows
    text = "".join(rows)
    return [1 if ch == "#" else 0 for ch in text], [c for c, ch in enumerate(text) if ch in "ox"]


EMPTY = ["........."] * 9


def full_but(*cells: int) -> list[int]:
    return [0 if c in cells else 1 for c in range(81)]


# --- docking cells (2.2, 2.3) ------------------------------------------------------------
DOCKING = {
    "2_3_an_empty_board_offers_nothing": EMPTY,
    "2_2_a_lone_stone_is_docked_at_from_four_sides": [
        ".........",
        ".........",
        ".........",
        "....o....",
        "...o#o...",
        "....o....",
        ".........",
        ".........",
        ".........",
    ],
    "2_3_a_corner_stone_blocks_its_two_ends": [
        "#o.......",
        "o........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ],
    "2_3_an_edge_stone_blocks_pushing_in_along_its_column_from_that_edge": [
        "...o#o...",
        "....o....",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ],
    "2_2_a_stone_next_to_the_edge_is_docked_at_on_the_edge": [
        ".........",
        ".........",
        ".........",
        ".o.......",
        "o#o......",
        ".o.......",
        ".........",
        ".........",
        ".........",
    ],
    "2_3_a_line_offers_at_most_two_cells_the_gap_between_stones_is_not_one": [
        ".........",
        ".........",
        ".........",
        "..o...o..",
        ".o#...#o.",
        "..o...o..",
        ".........",
        ".........",
        ".........",
    ],
    "2_2_a_stone_slides_past_empty_cells_to_the_stone_nearest_its_edge": [
        "..o......",
        ".o#o.....",
        ".........",
        ".........",
        ".........",
        ".o#o.....",
        "..o......",
        ".........",
        ".........",
    ],
    "2_3_a_full_line_offers_nothing_along_itself": [
        ".........",
        ".........",
        ".........",
        "ooooooooo",
        "#########",
        "ooooooooo",
        ".........",
        ".........",
        ".........",
    ],
    "2_2_a_cell_two_lines_offer_is_listed_once": [
        "o#o......",
        "#o.......",
        "o........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ],
}


@pytest.mark.parametrize("rows", DOCKING.values(), ids=list(DOCKING))
def test_domino_2_2_and_2_3_docking_cells(rows: list[str]) -> None:
    board, expected = diagram(*rows)
    assert docking_cells(board) == expected  # sorted by cell index, each once


def test_domino_2_3_a_full_board_offers_nothing() -> None:
    assert docking_cells(full_but()) == []


def test_domino_2_3_a_hole_in_a_full_board_is_docking_only_on_the_edge() -> None:
    """A hole in the middle: every line through it starts at an occupied edge cell. A hole
    on the edge: a stone pushed in there stops at once against its neighbour."""
    assert docking_cells(full_but(cell_at(5, 5))) == []
    assert docking_cells(full_but(cell_at(1, 5))) == [cell_at(1, 5)]
    assert docking_cells(full_but(cell_at(1, 1), cell_at(1, 2))) == [cell_at(1, 1), cell_at(1, 2)]


def test_domino_2_2_docking_cells_ignore_which_digits_the_stones_are() -> None:
    board, expected = diagram(*DOCKING["2_2_a_cell_two_lines_offer_is_listed_once"])
    assert docking_cells([d * 7 for d in board]) == expected


# --- unreachable cells (3.3) --------------------------------------------------------------
UNREACHABLE = {
    "3_3_an_empty_board_has_none": EMPTY,
    "3_3_a_cell_boxed_in_on_four_sides": [
        ".........",
        ".........",
        ".........",
        "....#....",
        "...#x#...",
        "....#....",
        ".........",
        ".........",
        ".........",
    ],
    "3_3_one_open_path_keeps_a_cell_reachable": [
        ".........",
        ".........",
        ".........",
        "....#....",
        "...#.....",
        "....#....",
        ".........",
        ".........",
        ".........",
    ],
    "3_3_a_stone_anywhere_on_each_path_seals_the_cell": [
        "....#....",
        ".........",
        ".........",
        ".........",
        "#...x...#",
        ".........",
        ".........",
        ".........",
        "....#....",
    ],
    "3_3_a_sealed_pocket_of_two_cells": [
        ".........",
        ".........",
        "..##.....",
        ".#xx#....",
        "..##.....",
        ".........",
        ".........",
        ".........",
        ".........",
    ],
    "3_3_a_cell_on_the_edge_is_never_sealed": [
        "#.#......",
        ".#.......",
        "#........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ],
}


@pytest.mark.parametrize("rows", UNREACHABLE.values(), ids=list(UNREACHABLE))
def test_domino_3_3_unreachable_cells(rows: list[str]) -> None:
    board, marked = diagram(*rows)
    assert unreachable_cells(board) == marked


def test_domino_2_2_an_edge_cell_boxed_in_on_three_sides_is_docked_at_from_its_open_side() -> None:
    """Row 1 column 2 and row 2 column 1 have stones on three sides and the edge on the
    fourth: a path of no cells, so no stone on it (3.3); a stone pushed in there stops at
    once against the stone behind it (2.2)."""
    board, _ = diagram(*UNREACHABLE["3_3_a_cell_on_the_edge_is_never_sealed"])
    assert {cell_at(1, 2), cell_at(2, 1)} <= set(docking_cells(board))


def test_domino_3_3_a_hole_in_a_full_board() -> None:
    assert unreachable_cells(full_but(cell_at(5, 5))) == [cell_at(5, 5)]
    assert unreachable_cells(full_but(cell_at(1, 5))) == []
    assert unreachable_cells(full_but()) == []


@pytest.mark.parametrize("function", [docking_cells, unreachable_cells])
def test_domino_a_board_is_81_cells(function) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="81 cells, not 80"):
        function([0] * 80)


# --- the dealer's draw --------------------------------------------------------------------
def reference_shuffle(seed: str, items: range, label: str, sha256=hashlib.sha256) -> list[int]:  # type: ignore
    """Fisher-Yates over `reference_draw`: `shuffle` as its docstring specifies it."""
    out, k = list(items), 0
    for i in range(len(out) - 1, 0, -1):
        j, k = reference_draw(seed, label, i + 1, k, sha256)
        out[i], out[j] = out[j], out[i]
    return out


def reference_draw(seed: str, label: str, span: int, k: int, sha256=hashlib.sha256) -> tuple[int, int]:  # type: ignore
    """`draw` as its docstring specifies it, written out independently."""
    while True:
        value = int.from_bytes(sha256(f"{seed}|{label}|{k}".encode()).digest()[:8], "big")
        k += 1
        if value < (2**64 // span) * span:
            return value % span, k


def test_dealer_draw_pinned_output() -> None:
    """Pinned: a change would re-deal every Domino game. The last span rejects about
    half the draws (2**63 + 1 fits into 2**64 once), and here the first draw."""
    seed = "00" * 16
    assert [dealing.draw(seed, "domino-peel", s) for s in (1, 2, 9, 81)] == [(0, 1), (0, 1), (2, 1), (29, 1)]
    assert dealing.draw(seed, "domino-peel", 2**63 + 1) == (1373642971376991101, 2)
    assert dealing.draw(seed, "domino-peel", 81, 5) == (49, 6)


@pytest.mark.parametrize("span", [1, 2, 3, 7, 81, 2**62 + 3, 2**64 - 1])
def test_dealer_draw_follows_its_documented_algorithm(span: int) -> None:
    k = 0
    for _ in range(5):
        got = dealing.draw(SEED, "domino-peel", span, k)
        assert got == reference_draw(SEED, "domino-peel", span, k)
        assert 0 <= got[0] < span and got[1] > k
        k = got[1]


def test_dealer_draws_are_draw_with_k_threaded() -> None:
    """`draws` deals what threading k through `draw` deals, rejected draws included
    (2**63 + 1 rejects about half), so a deal made with it is the same deal."""
    spans = [81, 2, 2**63 + 1, 9, 2**63 + 1, 1, 2**64 - 1, 30] * 4
    number, k, expected = dealing.draws(SEED, "domino-peel"), 0, []
    for span in spans:
        j, k = dealing.draw(SEED, "domino-peel", span, k)
        expected.append(j)
    assert [number(span) for span in spans] == expected
    with pytest.raises(ValueError, match="empty range"):
        number(0)


@pytest.mark.parametrize("expected", [0, 1, 5, 31, 40])
def test_dealer_draws_hashed_ahead_are_draw_with_k_threaded(expected: int) -> None:
    """Draws hashed up front deal what `draw` deals, through a rejected draw (2**63 + 1
    rejects about half), a draw the quick test cannot take (2**64 - 1: below 2**64 -
    span is none) and past the draws hashed ahead (a peel that backtracks)."""
    spans = [81, 2, 2**63 + 1, 9, 2**64 - 1, 1, 30, 2**63 + 1] * 4
    number, k, want = dealing.draws(SEED, "domino-peel", expected), 0, []
    for span in spans:
        j, k = dealing.draw(SEED, "domino-peel", span, k)
        want.append(j)
    assert [number(span) for span in spans] == want
    for span in (0, -3):
        with pytest.raises(ValueError, match="empty range"):
            dealing.draws(SEED, "domino-peel", expected)(span)


def test_dealer_shuffles_are_shuffle_of_each() -> None:
    sizes = [9, 3, 1, 0, 3, 81, 2]
    for n in range(60):
        seed = f"s{n}" if n % 2 else "ü" * (n % 4) + f"{n}"
        orders = [(f"label-{i}", range(size)) for i, size in enumerate(sizes)]
        assert dealing.shuffles(seed, orders) == [dealing.shuffle(seed, items, label) for label, items in orders]
    assert dealing.shuffles(SEED, []) == []


def test_dealer_shuffles_deal_one_by_one_where_a_draw_may_be_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw at the top of the 64-bit range (forced: draw 0 of "x") is rejected by the
    shuffle it belongs to, so the shuffles are dealt one by one, as `shuffle` deals them;
    and so is a Domino grid (7.1) whose draw is forced so."""
    real = hashlib.sha256

    class Forced:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def digest(self) -> bytes:
            if self.data.endswith((b"|x|0", b"|domino-rows-1|0")):
                return b"\xff" * 32
            return real(self.data).digest()

    class FakeHashlib:
        sha256 = Forced

    orders = [("a", range(9)), ("x", range(3)), ("c", range(5))]
    plain = dealing.shuffles(SEED, orders)
    seeds = [f"{n:032x}" for n in range(8)]
    grids = [solution_grid(s) for s in seeds]
    monkeypatch.setattr(dealing, "hashlib", FakeHashlib)
    forced = dealing.shuffles(SEED, orders)
    assert forced == [reference_shuffle(SEED, items, label, Forced) for label, items in orders]
    assert forced[1] != plain[1] and forced[::2] == plain[::2]
    assert [solution_grid(s) for s in seeds] == [tuple(reference_grid(s)) for s in seeds] != grids


def test_dealer_shuffle_is_fisher_yates_over_draw() -> None:
    """One source of draws: a shuffle deals what the draws of its label give."""
    items, k = list(range(12)), 0
    for i in range(11, 0, -1):
        j, k = dealing.draw(SEED, "deck", i + 1, k)
        items[i], items[j] = items[j], items[i]
    assert dealing.shuffle(SEED, range(12), "deck") == items


def test_dealer_draw_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="empty range"):
        dealing.draw(SEED, "x", 0)


# --- the solution grid (7.1) --------------------------------------------------------------
def valid_sudoku(grid: tuple[int, ...] | list[int]) -> bool:
    return len(grid) == 81 and all(sorted(grid[c] for c in cells) == list(range(1, 10)) for _, _, cells in UNITS)


def reference_grid(seed: str) -> list[int]:
    """`solution_grid` as its docstring specifies it, step by step on a 9x9 list."""
    grid = [[(3 * (r % 3) + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]
    digits = dealing.shuffle(seed, range(1, 10), "domino-digits")
    grid = [[digits[d - 1] for d in row] for row in grid]

    def lines(label: str) -> list[int]:  # the bands, then the lines within each band
        bands = dealing.shuffle(seed, range(3), label)
        return [3 * b + i for b in bands for i in dealing.shuffle(seed, range(3), f"{label}-{b}")]

    rows, cols = lines("domino-rows"), lines("domino-cols")
    grid = [[grid[rows[r]][cols[c]] for c in range(9)] for r in range(9)]
    if dealing.draw(seed, "domino-transpose", 2)[0]:
        grid = [list(col) for col in zip(*grid)]
    return [d for row in grid for d in row]


@pytest.mark.parametrize("seed", [SEED, "a", "ünïcode seed", "x" * 500])
def test_domino_7_1_solution_grid_follows_its_documented_algorithm(seed: str) -> None:
    grid = solution_grid(seed)
    assert list(grid) == reference_grid(seed)
    assert valid_sudoku(grid)


def test_domino_7_1_solution_grids_vary_with_the_seed() -> None:
    grids = [solution_grid(f"{n:032x}") for n in range(200)]
    assert len(set(grids)) == 200
    transposed = sum(dealing.draw(f"{n:032x}", "domino-transpose", 2)[0] for n in range(200))
    assert 60 < transposed < 140  # both shapes occur


# --- the peel (7.1) -----------------------------------------------------------------------
def test_domino_7_1_peel_chooses_differently_at_a_dead_end() -> None:
    """Stones A (1,1), B (1,2), F (2,1) and a lone E (5,5). A, B and F would each dock
    once empty; emptying A first leaves B, F, E with none that would (a dead end), B or F
    first leave a way on. So every seed's peel of two stones starts with B or F, also
    the seeds whose first draw picks A."""
    a, b, f, e = cell_at(1, 1), cell_at(1, 2), cell_at(2, 1), cell_at(5, 5)
    board = [1 if c in (a, b, f, e) else 0 for c in range(81)]
    seeds = [f"s{n}" for n in range(12)]
    assert any(dealing.draw(s, "domino-peel", 3)[0] == 0 for s in seeds)  # [a, b, f][0] is A
    for s in seeds:
        removed = peel(s, board, 2)
        assert len(removed) == 2 and removed[0] in (b, f), (s, removed)
        left = list(board)
        for cell in removed:  # each removal docks once its cell is empty
            left[cell] = 0
            assert cell in docking_cells(left)


def test_domino_7_1_peel_refuses_a_board_with_no_peel() -> None:
    """From A, B, F, E no order of removals leaves a single stone: the search tries them
    all and then says so."""
    board = [1 if c in (cell_at(1, 1), cell_at(1, 2), cell_at(2, 1), cell_at(5, 5)) else 0 for c in range(81)]
    with pytest.raises(ValueError, match="no peel leaves 1 stone on"):
        peel(SEED, board, 1)


def test_domino_7_1_peel_in_reading_order_always_docks() -> None:
    """The docstring's argument that a full grid always has a peel, checked."""
    board = full_but()
    for cell in range(80):
        board[cell] = 0
        assert cell in docking_cells(board)


# --- generate (7.1) -----------------------------------------------------------------------
def replay(deal: Deal) -> None:
    """Place the order on the start one by one: each stone docks (2.2) and keeps the
    Sudoku rule (3.1), no empty cell is ever sealed off (3.2, 3.3), and the end is the
    solution, a valid complete grid."""
    board = list(deal.start)
    assert sorted(c for c, _ in deal.order) == [c for c in range(81) if not board[c]]
    assert all(board[c] == deal.solution[c] for c in range(81) if board[c])
    for cell, digit in deal.order:
        assert unreachable_cells(board) == []
        assert cell in docking_cells(board), name(cell)
        assert all(digit not in (board[p] for p in cells) for _, _, cells in UNITS if cell in cells), name(cell)
        board[cell] = digit
    assert board == list(deal.solution)
    assert valid_sudoku(deal.solution)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(seed=st.text(min_size=1, max_size=24), givens=st.integers(17, 80))
@example(seed="96", givens=17)  # these seeds' first choices run into dead ends
@example(seed="1093", givens=17)
@example(seed="a", givens=80)
def test_domino_7_1_placing_the_order_on_the_start_solves_the_game(seed: str, givens: int) -> None:
    deal = generate(seed, givens)
    assert sum(1 for d in deal.start if d) == givens and len(deal.order) == 81 - givens
    replay(deal)


def test_domino_7_1_the_same_seed_deals_the_same_game() -> None:
    assert generate(SEED) == generate(SEED)
    assert generate(SEED).start != generate(SEED + "0").start
    assert generate(SEED, 40).solution == generate(SEED).solution  # the grid is the seed's alone


def test_domino_7_1_givens_default_to_30() -> None:
    assert sum(1 for d in generate(SEED).start if d) == 30


def test_domino_7_1_golden_deal() -> None:
    """Pinned: a change to the grid, the peel or the draws would re-deal every game."""
    deal = generate(SEED)
    assert puzzle_text(list(deal.start)) == (
        "........6.3.........6.....7612.9.7...5312648...9.376..345..29..968..3..........4."
    )
    assert puzzle_text(list(deal.solution)) == (
        "594371826137268594826945137612894753753126489489537612345712968968453271271689345"
    )
    assert [(name(c), d) for c, d in deal.order[:5]] == [
        ("(1,8)", 2), ("(9,9)", 5), ("(1,7)", 8), ("(4,8)", 8), ("(6,8)", 1)
    ]
    whole = " ".join(f"{d}{name(c)}" for c, d in deal.order)
    assert hashlib.sha256(whole.encode()).hexdigest() == "916204a6d97f5d2a3b3fbd3dfb89d8786394613d6d75dd17af39d37cbf4850fd"


def test_domino_7_1_golden_deal_of_a_peel_that_backtracks() -> None:
    """Pinned: seed "801" runs into dead ends on the way down to 17 givens, and meets
    boards it already knows lead nowhere; the deal depends on how the search goes on."""
    deal = generate("801", 17)
    assert puzzle_text(list(deal.start)) == (
        "4.......8.8.9.............9.....2.1...........6.75.2......4...3.3.8.........6...7"
    )
    replay(deal)


@pytest.mark.parametrize("givens", [-1, 0, 16, 81, 200])
def test_domino_7_1_givens_outside_17_to_80_are_refused(givens: int) -> None:
    with pytest.raises(UsageError, match=f"givens must be from 17 to 80, not {givens}"):
        generate(SEED, givens)


def test_domino_7_1_an_empty_seed_is_refused() -> None:
    with pytest.raises(UsageError, match="seed is empty"):
        generate("")


def test_domino_7_1_deal_is_frozen() -> None:
    deal = generate(SEED, 79)
    with pytest.raises(AttributeError):
        deal.start = deal.solution  # type: ignore[misc]
    assert isinstance(deal.order, tuple) and isinstance(deal.start, tuple)


def _peel_by_recounting(seed: str, cells: list[int], givens: int) -> list[int]:
    """7.1's peel as first written: every docking stone recounted after each removal."""
    from corr.games.dealing import draw
    from corr.geometry import CELLS
    from corr.games.domino.deal import _docks_when_empty

    board = list(cells)
    stones = sum(1 << c for c in CELLS if board[c])
    to_remove = stones.bit_count() - givens
    removed: list[int] = []
    options = [[c for c in CELLS if board[c] and _docks_when_empty(board, c)]]
    dead: set[int] = set()
    k = 0
    while len(removed) < to_remove:
        if not options[-1]:
            dead.add(stones)
            options.pop()
            back = removed.pop()
            board[back] = cells[back]
            stones |= 1 << back
            continue
        j, k = draw(seed, "domino-peel", len(options[-1]), k)
        cell = options[-1].pop(j)
        if (stones & ~(1 << cell)) in dead:
            continue
        board[cell] = 0
        stones &= ~(1 << cell)
        removed.append(cell)
        options.append([c for c in CELLS if board[c] and _docks_when_empty(board, c)])
    return removed


@pytest.mark.parametrize("givens", [17, 30, 45])
def test_domino_7_1_the_peel_kept_up_to_date_deals_what_recounting_deals(givens: int) -> None:
    """The peel updates only the stones on the emptied cell's row and column; every
    seed must still deal exactly the game it dealt when all were recounted."""
    from corr.games.domino.deal import peel, solution_grid

    for i in range(40):
        grid = list(solution_grid(f"seed-{i}"))
        assert peel(f"seed-{i}", grid, givens) == _peel_by_recounting(f"seed-{i}", grid, givens)


def test_domino_7_1_the_peel_on_bit_masks_deals_what_recounting_deals_on_any_board() -> None:
    """Boards with holes too (down to dead ends and boards with no peel at all): the peel
    on bit masks removes the same stones, in the same order, as the rule recounted."""
    import random

    from corr.games.domino.deal import peel, solution_grid

    rng = random.Random(7)
    peeled = refused = 0
    for i in range(300):
        grid = list(solution_grid(f"holes-{i}"))
        density = rng.choice([0.25, 0.4, 0.6, 0.9])
        board = [d if rng.random() < density else 0 for d in grid]
        givens = max(0, sum(1 for d in board if d) - rng.randint(1, 8))
        try:
            expected = _peel_by_recounting(f"holes-{i}", board, givens)
        except IndexError:  # the recount runs out of stones to put back: there is no peel
            with pytest.raises(ValueError, match="no peel leaves"):
                peel(f"holes-{i}", board, givens)
            refused += 1
        else:
            assert peel(f"holes-{i}", board, givens) == expected
            peeled += 1
    assert peeled > 100 and refused > 10  # both kinds of board were dealt
