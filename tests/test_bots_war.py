"""The Sudoku War computer opponents (corr/bots/war.py), against docs/rules/war.md.

Positions are position strings (1.4 ruling) built by `setup()` from (row, column) squares,
row 1 at the top (Black's first line) and row 9 at the bottom (White's). Games are real
replays: every move a bot chooses goes through the engine, which refuses an illegal one.
"""

from __future__ import annotations

import random
import time

from corr import engine, randomplay
from corr.games.war import bot as war
from corr.bots.base import choose, seat_view
from corr.geometry import cell_at, name
from corr.log import store
from corr.games.war.rules import KNIGHT, WHITE
from corr.notation import PieceMove

Square = tuple[int, int]  # (row, column), both 1..9


def setup(pieces: dict[Square, str], turn: str = "w") -> str:
    """A position string with `pieces` (`"5"` White's 5, `"bL"` Black's Leap) on their squares."""
    rows = []
    for r in range(1, 10):
        rows.append("".join(pieces.get((r, c), ".") for c in range(1, 10)))
    return "/".join(rows) + " " + turn


def game_from(pieces: dict[Square, str], turn: str = "w") -> engine.Position:
    return randomplay.start("war", ["Anna", "Ben"], {"setup": setup(pieces, turn)})


def at(r: int, c: int) -> str:
    return name(cell_at(r, c))


def play(rep: engine.Position, move: PieceMove) -> None:
    rep.add("move", rep.to_move(), move=move)


# --- every level plays legal moves --------------------------------------------------------
def test_bot_war_every_level_plays_a_legal_move_in_random_positions() -> None:
    for seed in range(12):
        options = {"repetition": "3"} if seed % 3 == 0 else {}
        rep = randomplay.play("war", ["Anna", "Ben"], options, seed=seed, max_records=seed * 23 + 1)
        seat = rep.to_move()
        if seat is None:
            continue
        legal = rep.game.legal_for(rep.state, seat)
        before = rep.game.state_key(rep.state)
        for level in ("random", "greedy"):
            assert choose(rep, seat, level, random.Random(seed)).move in legal
        view = seat_view(rep, seat)
        choice = war.strong(view, random.Random(seed), budget=0.05)
        assert choice.move in legal and choice.why
        assert rep.game.state_key(view.state) == rep.game.state_key(rep.state) == before


def test_bot_war_strong_through_choose_moves_within_two_seconds() -> None:
    rep = randomplay.play("war", ["Anna", "Ben"], {}, seed=5, max_records=30)
    seat = rep.to_move()
    began = time.perf_counter()
    choice = choose(rep, seat, "strong", random.Random(1))
    assert time.perf_counter() - began < 2.0
    assert choice.move in rep.game.legal_for(rep.state, seat)
    play(rep, choice.move)  # the engine takes it


#: White to move; Black threatens 8 (9,1)-(9,5) and a number on White's first line after
#: it (3.1): the Leap's move to (5,5) loses in two, which a search of one ply cannot see.
THREATENED = "bSbC..bI..bC./........./....5..N./........./........bS/.....L.../L..bL..b8../2......../SC.....C. w"


def test_bot_war_strong_searches_until_most_of_its_budget_is_spent() -> None:
    """Deepening goes on while less than SOFT_SHARE of the budget is spent (the deadline
    cuts the last iteration short): no move ends after a ply or two with the budget
    unspent, whatever the machine's speed."""
    rep = randomplay.start("war", ["Anna", "Ben"], {"setup": THREATENED})
    view = seat_view(rep, rep.to_move())
    began = time.perf_counter()
    choice = war.strong(view, random.Random(0), budget=0.3)
    assert time.perf_counter() - began >= 0.3 * war.SOFT_SHARE
    assert choice.move in view.legal


def test_bot_war_strong_does_not_let_a_number_through_to_its_first_line_3_1() -> None:
    for seed in range(3):
        rep = randomplay.start("war", ["Anna", "Ben"], {"setup": THREATENED})
        choice = war.strong(seat_view(rep, rep.to_move()), random.Random(seed), budget=0.5)
        assert str(choice.move) != "L (5,9)-(5,5)"
        play(rep, choice.move)
        answer = war.strong(seat_view(rep, rep.to_move()), random.Random(seed), budget=5, depth=4)
        assert "wins in" not in answer.why, (choice.move, answer.why)


def test_bot_war_strong_with_a_fixed_depth_is_repeatable() -> None:
    rep = randomplay.play("war", ["Anna", "Ben"], {}, seed=8, max_records=12)
    view = seat_view(rep, rep.to_move())
    first = war.strong(view, random.Random(4), budget=30, depth=2)
    again = war.strong(seat_view(rep, rep.to_move()), random.Random(4), budget=30, depth=2)
    assert (first.move, first.expect) == (again.move, again.expect)
    assert "2 plies ahead" in first.why


# --- greedy: the best immediate gain ------------------------------------------------------
def test_bot_war_greedy_takes_the_leap_before_the_number_2_1() -> None:
    # 2.1: a number captures any enemy piece; White's 5 may take a Leap (350) or a 7 (100)
    rep = game_from({(4, 4): "bL", (4, 5): "5", (4, 6): "b7", (9, 9): "N", (1, 9): "bN"})
    for seed in range(5):
        choice = choose(rep, "A", "greedy", random.Random(seed))
        assert str(choice.move) == f"5 {at(4, 5)}x{at(4, 4)}"
        assert choice.expect == 3.5 and "takes Black's Leap" in choice.why


def test_bot_war_greedy_takes_the_number_on_its_first_line_3_1() -> None:
    # 3.1: Black's 3 stands on White's first line; taking the Leap instead would lose at once
    rep = game_from({(9, 5): "b3", (8, 5): "4", (4, 4): "bL", (4, 5): "6", (9, 9): "N", (1, 9): "bN"})
    choice = choose(rep, "A", "greedy", random.Random(0))
    assert str(choice.move) == f"4 {at(8, 5)}x{at(9, 5)}"
    play(rep, choice.move)
    assert not rep.state.over


def test_bot_war_greedy_wins_at_once_leaving_black_no_move_3_2() -> None:
    # Black's 5 in its corner may step only to row 2 (column 2 holds White's 5): a White 5
    # arriving on row 2 leaves it no square (2.1), and Black's boxed Corrector has no move:
    # greedy prefers that to taking the Corrector (2 numbers' worth)
    rep = game_from({(1, 1): "b5", (5, 2): "5", (3, 5): "5", (9, 9): "bC", (8, 9): "6", (9, 8): "S"})
    for seed in range(4):
        choice = choose(rep, "A", "greedy", random.Random(seed))
        assert choice.move.piece == "5" and choice.move.dst // 9 == 1, choice
        assert choice.expect == war.WIN / war.NUMBER and "without a legal move" in choice.why
    play(rep, choice.move)
    assert rep.state.over and rep.state.winners == ("A",)


# --- strong: tactics greedy misses ---------------------------------------------------------
def test_bot_war_strong_reaches_an_undefended_first_line_where_greedy_takes_a_knight_3_1() -> None:
    # White's 3 on row 2 may step onto Black's first line, where nothing of Black's can take
    # it (a Knight never takes a number, 2.5): Black then loses (3.1). Greedy takes the Knight.
    pieces = {(2, 5): "3", (5, 1): "bN", (5, 2): "7", (9, 9): "N", (1, 9): "bN"}
    rep = game_from(pieces)
    greedy = choose(rep, "A", "greedy", random.Random(0))
    assert str(greedy.move) == f"7 {at(5, 2)}x{at(5, 1)}"
    strong = war.strong(seat_view(rep, "A"), random.Random(0), budget=5, depth=2)
    assert strong.move.piece == "3" and strong.move.dst < 9, strong
    assert strong.expect > 900 and "wins" in strong.why
    play(rep, strong.move)
    reply = war.strong(seat_view(rep, "B"), random.Random(0), budget=5, depth=2)
    play(rep, reply.move)
    assert rep.state.winners == ("A",)


def test_bot_war_strong_keeps_the_guard_of_its_first_line_where_greedy_takes_a_leap_3_1() -> None:
    # White's 3 guards row 9 against Black's 8. Taking the Leap lets the 8 step onto White's
    # first line, where nothing can take it (3.1); strong takes the 8 instead.
    pieces = {(8, 1): "b8", (8, 2): "3", (7, 3): "bL", (9, 9): "N", (1, 9): "bN"}
    rep = game_from(pieces)
    greedy = choose(rep, "A", "greedy", random.Random(0))
    assert str(greedy.move) == f"3 {at(8, 2)}x{at(7, 3)}"
    strong = war.strong(seat_view(rep, "A"), random.Random(0), budget=5, depth=2)
    assert str(strong.move) == f"3 {at(8, 2)}x{at(8, 1)}", strong
    # and the line greedy chose does lose: Black's best reply reaches the first line
    play(rep, greedy.move)
    reply = war.strong(seat_view(rep, "B"), random.Random(0), budget=5, depth=2)
    assert reply.move.piece == "8" and reply.move.dst >= 72 and reply.expect > 900


# --- a small match ----------------------------------------------------------------------------
def match_game(strong_seat: str, seed: int, depth: int, max_records: int = 240) -> tuple[str, ...]:
    """A game of strong (searching `depth` plies, so that the machine's load cannot change
    the result) against greedy; the winners, none when it runs past `max_records`."""
    rep = randomplay.start("war", ["Anna", "Ben"], {})
    rng = random.Random(seed)
    while rep.to_move() is not None and len(rep.log.records) < max_records:
        seat = rep.to_move()
        view = seat_view(rep, seat)
        bot = war.strong(view, rng, budget=10, depth=depth) if seat == strong_seat else war.greedy(view, rng)
        play(rep, bot.move)
    return rep.state.winners


def test_bot_war_strong_beats_greedy_in_a_small_match() -> None:
    results = [match_game(seat, seed, depth=2) for seed, seat in enumerate(("A", "B", "A"))]
    wins = sum(1 for (seat, winners) in zip(("A", "B", "A"), results) if winners == (seat,))
    assert wins >= 2, results


# --- strong: converting a won position ------------------------------------------------------
#: White far ahead: its one number, a step from Black's first line, is held still by Black's
#: lone Immobilizer (2.6), which dances round it; only a Knight taking it (2.5) or a side
#: with no move left (3.2) ends the game.
LONE_IMMOBILIZER = "........./....bI..../....1..../...SLC.../....N..../...ICS.../........./........./......... w"


def test_bot_war_strong_converts_eight_pieces_against_a_lone_immobilizer_3_1() -> None:
    for seed in range(2):
        rep = randomplay.start("war", ["Anna", "Ben"], {"setup": LONE_IMMOBILIZER})
        rng = random.Random(seed)
        for _ in range(40):
            if rep.to_move() is None:
                break
            play(rep, war.strong(seat_view(rep, rep.to_move()), rng, budget=0.3).move)
        assert rep.result().winners == ("A",), f"seed {seed}: no result after 40 plies"


def test_bot_war_strong_values_a_knight_nearer_an_immobilizer_that_holds_a_number_2_6() -> None:
    """The hunt: a Knight one jump from Black's Immobilizer beside White's number counts
    for more than one three jumps away; with no number held there is nothing to hunt."""
    def value(pieces: dict[Square, str]) -> int:
        rep = game_from(pieces)
        return war._Board(rep.game, rep.state).evaluate()

    held = {(2, 5): "bI", (3, 5): "1", (9, 9): "bS", (9, 1): "2"}
    knight = war.SIGNED[WHITE][KNIGHT]
    placed = knight[cell_at(4, 6)] - knight[cell_at(8, 2)]  # the nearer square is nearer the centre too
    near, far = value({**held, (4, 6): "N"}), value({**held, (8, 2): "N"})
    hunt = war.HUNT[war.KNIGHT_DISTANCE[cell_at(4, 6)][cell_at(2, 5)]] - war.HUNT[war.KNIGHT_DISTANCE[cell_at(8, 2)][cell_at(2, 5)]]
    assert war.KNIGHT_DISTANCE[cell_at(4, 6)][cell_at(2, 5)] == 1 and hunt > 0
    assert near - far == hunt + placed
    free = {(2, 5): "bI", (5, 5): "1", (9, 9): "bS", (9, 1): "2"}
    assert value({**free, (4, 6): "N"}) - value({**free, (8, 2): "N"}) == placed


def test_bot_war_board_keeps_its_knights_and_immobilizers_through_make_and_take_back() -> None:
    for seed in range(6):
        rep = randomplay.play("war", ["Anna", "Ben"], {}, seed=seed, max_records=seed * 31 + 5)
        if rep.to_move() is None:
            continue
        board = war._Board(rep.game, rep.state)
        rng = random.Random(seed)
        undos = []
        for _ in range(12):
            moves = board.moves()
            if not moves:
                break
            undos.append(board.make(rng.choice(moves)))
            fresh = war._Board(rep.game, board.pos)
            assert sorted(board.knights[1]) == sorted(fresh.knights[1]) and sorted(board.knights[2]) == sorted(fresh.knights[2])
            assert sorted(board.immobilizers[1]) == sorted(fresh.immobilizers[1])
            assert board.evaluate() == fresh.evaluate()
        for undo in reversed(undos):
            board.take_back(undo)
        assert board.evaluate() == war._Board(rep.game, rep.state).evaluate()
