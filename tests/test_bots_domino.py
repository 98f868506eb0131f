"""Computer opponents for Sudoku Domino: legal moves, points taken, the digits to come
unseen, and strong completing puzzles greedy leaves unfinished."""

from __future__ import annotations

import dataclasses
import random

import pytest

from corr import engine, randomplay
from corr.games.domino import bot as bots
from corr.bots.base import choose, seat_view
from corr.log import store
from corr.notation import Joker, Placement
from corr.games.domino.deal import docking_cells


def _play(rep: engine.Position, seat: str, level: str, rng: random.Random, **kw: float) -> bots.Choice:
    view = seat_view(rep, seat)
    choice = bots.strong(view, rng, **kw) if level == "strong" else choose(rep, seat, level, rng)
    assert choice.move in rep.game.legal_for(rep.state, seat), (level, choice)
    return choice


@pytest.mark.parametrize("options", [{}, {"seed": "daily-7"}, {"givens": "50"}])
def test_bot_domino_every_level_plays_a_legal_move(options: dict[str, str]) -> None:
    for seed in range(6):
        rep = randomplay.play("domino", ["Anna", "Ben"], options, seed=seed, max_records=seed * 3)
        for seat in rep.on_turn():
            if seat not in rep.game.seats:
                continue
            for level in ("random", "greedy", "strong"):
                _play(rep, seat, level, random.Random(seed), budget=0.05, playouts=20)


def test_bot_domino_greedy_takes_a_completed_unit_5() -> None:
    """Rule 5: a stone that completes a row, column or field scores 10 x its stones'
    sum; greedy lays the given digit there rather than on another docking cell it fits."""
    found = 0
    for seed in range(40):
        rep = randomplay.start("domino", ["Anna"], {"seed": f"unit-{seed}", "givens": "60"}, seed)
        order = rep.game.deal.order
        for cell, digit in order[:-3]:
            view = seat_view(rep, "A")
            seen = bots.Seen(view)
            gains = {c: bots.gain(seen.cells, c, digit) for c in seen.fitting()}
            if len(gains) > 1 and max(gains.values()) >= 100 and len(set(gains.values())) > 1:
                choice = bots.greedy(view, random.Random(seed))
                assert gains[choice.move.cell] == max(gains.values())
                scored = rep.game.board_of(rep.state, "A").points
                rep.add("move", "A", move=choice.move)
                assert rep.game.board_of(rep.state, "A").points - scored == choice.expect  # the engine agrees
                found += 1
                break
            rep.add("move", "A", move=Placement(digit, cell))
        if found >= 3:
            break
    assert found >= 3


def test_bot_domino_strong_keeps_the_puzzle_solvable() -> None:
    """A digit that keeps the Sudoku rule may still leave no solution (3.2); strong only
    lays it where the solver still finds one."""
    from corr.puzzles.solver import solve

    for seed in range(4):
        rep = randomplay.start("domino", ["Anna"], {"givens": "40"}, seed)
        for cell, digit in rep.game.deal.order[: 3 * seed]:
            rep.add("move", "A", move=Placement(digit, cell))
        choice = _play(rep, "A", "strong", random.Random(seed), budget=0.1, playouts=20)
        assert isinstance(choice.move, Placement)
        cells = bots.stones(bots.read_board(seat_view(rep, "A").position["board"]))
        cells[choice.move.cell] = choice.move.digit
        assert solve(cells) is not None


def test_bot_domino_play_outs_dock_like_the_game() -> None:
    """The fast play-out board keeps the same docking cells as the game's rule (2.2, 2.3)."""
    rng = random.Random(5)
    for seed in range(5):
        cells = list(randomplay.start("domino", ["Anna"], {"seed": f"dock-{seed}"}, seed).game.start)
        board = bots._Playout(cells[:])
        while board.docking():
            assert board.docking() == set(docking_cells(board.cells))
            board.put(rng.choice(sorted(board.docking())), 1)
            if rng.random() < 0.2:  # a stone taken back, as `_dealt` does
                board.put(rng.choice([c for c in range(81) if board.cells[c]]), 0)


def test_bot_domino_play_outs_see_cells_shut_in_like_the_game_3_3() -> None:
    """3.3: the play-out board counts the cells a stone would shut in along its row and
    column as the game marks them unreachable, and the stones next to a cell as they lie."""
    from corr.games.domino.deal import unreachable_cells

    rng = random.Random(7)
    checked = 0
    for seed in range(4):
        cells = list(randomplay.start("domino", ["Anna"], {"seed": f"shut-in-{seed}"}, seed).game.start)
        board = bots._Playout(cells[:])
        while board.docking():
            for c in range(81):
                if board.cells[c]:
                    continue
                after = list(board.cells)
                after[c] = 1
                lines = [x for x in unreachable_cells(after) if x // 9 == c // 9 or x % 9 == c % 9]
                assert board.shuts_in(c) == len(lines), (seed, c)
                assert board.backed(c) == bots._backed(board.cells, c)
                checked += len(lines)
            board.put(rng.choice(sorted(board.docking())), rng.choice((1, bots.GREY)))
    assert checked > 20


def test_bot_domino_does_not_see_the_digits_to_come() -> None:
    """7.2: two games that differ only in the order of the digits still to come give the
    same view, and strong the same choice with the same random seed."""
    rep = randomplay.play("domino", ["Anna"], {"time_limit": "none"}, seed=11, max_records=3)
    view = seat_view(rep, "A")
    game = rep.game
    placed = game.board_of(rep.state, "A").placed
    order = list(game.deal.order)
    future = order[placed + 1:]
    random.Random(1).shuffle(future)
    first = bots.strong(view, random.Random(9), budget=60, playouts=30)
    game.deal = dataclasses.replace(game.deal, order=tuple(order[: placed + 1] + future))
    other = seat_view(rep, "A")
    assert other.position == view.position and other.legal == view.legal
    assert bots.strong(other, random.Random(9), budget=60, playouts=30) == first


def _solo(level: str, seed: int) -> tuple[bool, int]:
    rep = randomplay.start("domino", ["Anna"], {"time_limit": "none"}, seed)
    rng = random.Random(seed)
    while "A" in rep.on_turn():
        choice = _play(rep, "A", level, rng, budget=60, playouts=40)
        rep.add("move", "A", move=choice.move)
    board = rep.state.boards[0]
    return all(board.cells), board.points


def test_bot_domino_strong_outscores_greedy_on_the_same_deals() -> None:
    """The same deals played alone (no clock, so no time bonus): strong completes puzzles
    (500, 5) that greedy, laying digits where they score now, shuts itself out of."""
    strong = [_solo("strong", seed) for seed in (101, 102, 103)]
    greedy = [_solo("greedy", seed) for seed in (101, 102, 103)]
    assert sum(done for done, _ in strong) > sum(done for done, _ in greedy)
    assert sum(p for _, p in strong) > sum(p for _, p in greedy)


def test_bot_domino_fills_the_last_cells_with_jokers_4_1() -> None:
    """4.1: a joker goes on any empty cell, docking or not; with the last cell beyond
    reach of every digit, strong completes the puzzle with a gold joker (it scores, 4.2)."""
    rep = randomplay.start("domino", ["Anna"], {"seed": "jokers-1", "givens": "76"}, 1)
    view = seat_view(rep, "A")
    seen = bots.Seen(view)
    last = next(c for c in range(81) if not seen.cells[c])
    seen.cells = [d or (0 if c == last else bots.GREY) for c, d in enumerate(seen.cells)]
    seen.given = next(d for d in range(1, 10) if not bots.fits(seen.cells, last, d))
    choice = bots._joker_or_fit(seen, view, random.Random(1))
    assert choice.move == Joker("gold", last)
    assert choice.expect >= 505  # 5 for the gold joker, 500 for the complete puzzle


def test_bot_domino_strong_shuts_in_no_cell_where_another_docking_cell_takes_the_digit_3_3() -> None:
    """3.3: a stone that leaves an empty cell a stone on each of its four paths to the
    edge shuts it in: only a joker can fill it, and the digit a solution puts there finds
    no place when it comes. Where another docking cell takes the given digit, strong lays
    it there. (Play-outs of one fixed solution on shuffled orders had laid the first 3
    of deal shut-4 on (4,2), shutting a cell in.)"""
    from corr.games.domino.deal import unreachable_cells
    from corr.puzzles.solver import solve

    checked = 0
    for seed in (4, 5):
        rep = randomplay.start("domino", ["Anna"], {"seed": f"shut-{seed}", "time_limit": "none"}, seed)
        for cell, digit in rep.game.deal.order[:24]:
            cells = list(rep.game.board_of(rep.state, "A").cells)
            before = len(unreachable_cells(cells))
            keeps_all = []
            for c in docking_cells(cells):
                trial = bots._with(cells, c, digit)
                after = list(cells)
                after[c] = digit
                if bots.fits(cells, c, digit) and solve(trial) is not None and len(unreachable_cells(after)) == before:
                    keeps_all.append(c)
            if keeps_all:
                choice = _play(rep, "A", "strong", random.Random(1), budget=600, playouts=5)
                assert choice.move.cell in keeps_all, (seed, choice)
                checked += 1
            rep.add("move", "A", move=Placement(digit, cell))
    assert checked >= 30


def test_bot_domino_orders_sampled_as_a_deal_gives_them_7_1() -> None:
    """7.1: a deal's digits come in an order in which each, in turn, docks on its cell of
    the solution. Strong plays out orders made that way, not any shuffle of the digits to
    come: each digit of a fill docks on its cell (the game's own docking rule, 2.2) when
    it comes, and the order is the multiset of the digits still to come."""
    from corr.games.domino.deal import docking_cells as game_docking

    for seed in range(3):
        rep = randomplay.start("domino", ["Anna"], {"seed": f"order-{seed}", "time_limit": "none"}, seed)
        for cell, digit in rep.game.deal.order[: 10 * seed]:
            rep.add("move", "A", move=Placement(digit, cell))
        view = seat_view(rep, "A")
        seen = bots.Seen(view)
        rng = random.Random(seed)
        known = bots._Solutions(seen.cells, rng)
        solution = [known.back[d] for d in known.found[0]]
        board = list(seen.cells)
        for c, d in bots._fill(board, solution, rng):
            assert c in game_docking(board) and d == solution[c]
            board[c] = d
        assert not game_docking(board)  # it goes on while a docking cell is left
        starts = [(c, known.masks[10 * c + seen.given]) for c in seen.docking() if known.masks[10 * c + seen.given]]
        sources = list(range(known.count))
        for _ in range(5):
            boards = bots._deal_boards(seen, known, sources, rng)
            order = bots._order(seen, known, sources, starts, boards, bots.left_to_come(seen.cells, seen.given), rng)
            assert sorted(order) == sorted(bots.left_to_come(seen.cells, seen.given))


def test_bot_domino_digits_given_so_far_dock_on_the_deals_board_7_1() -> None:
    """7.1: the digits come as the deal peeled them, so the digits given so far, laid in
    turn from the start on the cells the solution has them on, each dock when they come;
    the seat reads them from its own records (a misplacement's digit came again, 3.1),
    and the board the deal may have reached, not the seat's, is where the next ones dock."""
    from corr.games.domino.deal import docking_cells as game_docking

    for seed in range(3):
        rep = randomplay.start("domino", ["Anna"], {"seed": f"dealt-{seed}", "time_limit": "none"}, seed)
        order = rep.game.deal.order
        for n, (cell, digit) in enumerate(order[: 12 + 5 * seed]):
            if n == 3:  # a misplacement first: the same digit is given again (3.1)
                bad = next(c for c in docking_cells(rep.game.board_of(rep.state, "A").cells)
                           if not bots.fits(rep.game.board_of(rep.state, "A").cells, c, digit))
                rep.add("move", "A", move=Placement(digit, bad))
            rep.add("move", "A", move=Placement(digit, cell))
        seen = bots.Seen(seat_view(rep, "A"))
        placed = 12 + 5 * seed
        assert seen.laid == [d for _, d in order[:placed]]
        assert seen.start == list(rep.game.start)
        tries = [bots._dealt(seen.start, rep.game.deal.solution, seen.laid + [seen.given], random.Random(i))
                 for i in range(10)]
        dealt = next(d for d in tries if d is not None)  # random ways can run into dead ends
        assert [d for _, d in dealt] == seen.laid + [seen.given]
        board = list(seen.start)
        for c, d in dealt:
            assert c in game_docking(board) and d == rep.game.deal.solution[c]
            board[c] = d


def test_bot_domino_sampled_orders_shut_no_cell_in_3_3_7_1() -> None:
    """7.1 and 3.3: a deal gives every empty cell its digit in turn, each docking when it
    comes, so its stones never shut a cell in. Strong's boards the deal may have reached
    shut none in, and the orders it fills in from them give every empty cell a digit,
    none left out to come at a place no deal gives it."""
    from corr.games.domino.deal import docking_cells as game_docking, unreachable_cells

    rng = random.Random(3)
    filled = 0
    for seed in range(6):
        rep = randomplay.start("domino", ["Anna"], {"seed": f"sealed-{seed}", "time_limit": "none"}, seed)
        deal = rep.game.deal
        for placed in (0, 15, 35):
            laid = [d for _, d in deal.order[: placed + 1]]
            dealt = next(d for d in (bots._dealt(deal.start, deal.solution, laid, rng) for _ in range(20)) if d)
            board = list(deal.start)
            for c, d in dealt:
                board[c] = d
            assert unreachable_cells(board) == []
            for _ in range(3):
                order = bots._fill(board, deal.solution, rng)
                assert sorted(c for c, _ in order) == [c for c in range(81) if not board[c]]
                after = list(board)
                for c, d in order:
                    assert c in game_docking(after)
                    after[c] = d
                filled += 1
    assert filled == 54



def _depth_drop(cells: list[int]) -> float:
    """How much deeper (bots._DEPTH) the first tenth of an order's cells lies than its last."""
    tenth = len(cells) // 10
    first, last = cells[:tenth], cells[-tenth:]
    return (sum(bots._DEPTH[c] for c in first) - sum(bots._DEPTH[c] for c in last)) / tenth


def test_bot_domino_sampled_orders_come_from_the_middle_outwards_like_a_deal_7_1() -> None:
    """7.1: a deal is peeled from the full grid, each stone docking once empty, so the
    peel eats in from the edge and the digits, given in reverse, come from the middle
    outwards. Strong's sampled orders do the same, about as strongly as real deals
    (a fill drawing each docking cell alike came out nearly flat)."""
    rng = random.Random(2)
    real, sampled = [], []
    for seed in range(20):
        deal = randomplay.start("domino", ["Anna"], {"seed": f"depth-{seed}"}, seed).game.deal
        real.append(_depth_drop([c for c, _ in deal.order]))
        sampled.append(_depth_drop([c for c, _ in bots._fill(deal.start, deal.solution, rng)]))
    assert sum(real) / 20 > 0.8
    assert sum(sampled) / 20 > 0.8


def test_bot_domino_play_outs_complete_most_deals_told_the_order_7_1() -> None:
    """7.1 and 3.3: told a deal's real order, a play-out from the start completes most
    puzzles, laying each digit deep first as the deal gave them and shutting no cell in
    (one laying each where the most solutions stand completed about a third)."""
    rng = random.Random(4)
    done = runs = 0
    for seed in range(20):
        deal = randomplay.start("domino", ["Anna"], {"seed": f"told-{seed}"}, seed).game.deal
        known = bots._Solutions(list(deal.start), rng)
        for _ in range(3):
            complete, _ = bots._play_out(list(deal.start), known.masks, known.all, [d for _, d in deal.order], 6, rng)
            done += complete
            runs += 1
    assert done / runs > 0.6
