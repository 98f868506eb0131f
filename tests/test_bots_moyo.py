"""The Moyo bots: every level legal in every phase, greedy's immediate gains (1.5, 4.1)
and draft picks (2.3), strong's endgame tactics, its time budget, and strong beating
greedy."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from corr import engine, randomplay
from corr.games.moyo import bot as moyo
from corr.games.moyo import bounds, exact
from corr.bots.base import choose, random_choice, seat_view
from corr.games.base import Choice
from corr.games.base import Action
from corr.games.moyo.rules import Moyo
from corr.games.moyo.victory import most_stones
from corr.log import store
from corr.notation import Move, parse as parse_move

PUZZLE = {"puzzle": "1"}


def positions(options: dict[str, str], seeds: range, step: int = 5) -> list[engine.Position]:
    reps = [randomplay.play("moyo", ["Anna", "Ben"], options, seed=s, max_records=2 + step * s) for s in seeds]
    return [rep for rep in reps if rep.to_move() is not None]


def after(rep: engine.Position, seat: str, move: Move) -> Any:
    state = rep.game.clone(rep.state)
    rep.game.apply(state, Action(rep.seq + 1, "move", seat, move))
    return state


def wins(game: Moyo, state: Any) -> bool:
    """Whether the seat on turn wins with best play (4.1), by trying every line."""
    seat = game.to_move(state)
    for move in game.legal_moves(state):
        nxt = game.clone(state)
        game.apply(nxt, Action(0, "move", seat, move))
        if nxt.over or not wins(game, nxt):
            return True
    return False


def stones(game: Moyo, state: Any, seat: str) -> int:
    """1.5: the stones of the seat's Shima not turned face down."""
    return sum(len(game.lacks(state, a)) - len(game.turned(state, a)) for a in game.shima(state, seat))


CASES = [
    ({**PUZZLE}, range(8), 5),
    ({**PUZZLE, "division": "draft"}, range(4), 3),
    ({**PUZZLE, "handicap": "2", "handicap_by": "B"}, range(3), 1),
    ({"puzzle": "3", "variant": "horikomi"}, range(5), 9),
    ({"puzzle": "2", "units": "rows", "division": "corners"}, range(5), 7),
]


@pytest.mark.parametrize("level", ["random", "greedy", "strong"])
def test_every_level_plays_a_move_the_engine_takes(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(moyo, "BUDGET", 0.05)
    played = 0
    for options, seeds, step in CASES:
        for i, rep in enumerate(positions(options, seeds, step)):
            seat = rep.to_move()
            choice = choose(rep, seat, level, random.Random(i))
            assert choice.move in rep.game.legal_moves(rep.state)
            assert isinstance(choice.why, str) and choice.why
            rep.add("move", seat, move=choice.move)
            played += 1
    assert played >= 20


def test_bot_moyo_greedy_wins_at_once_when_the_other_seat_cannot_place_4_1() -> None:
    rep = randomplay.play("moyo", ["Anna", "Ben"], PUZZLE, seed=6, max_records=32)
    seat = rep.to_move()
    legal = rep.game.legal_moves(rep.state)
    winning = [m for m in legal if after(rep, seat, m).over]
    assert winning and len(winning) < len(legal)  # one move ends the game, the others do not
    for s in range(5):
        choice = moyo.greedy(seat_view(rep, seat), random.Random(s))
        assert choice.move in winning
        assert choice.expect >= moyo.WIN and "cannot place a stone" in choice.why


def test_bot_moyo_greedy_takes_the_most_placeable_stones_1_5() -> None:
    checked = 0
    for rep in positions(PUZZLE, range(2, 8), 4):
        seat = rep.to_move()
        game = rep.game
        leads = {}
        for move in game.legal_moves(rep.state):
            state = after(rep, seat, move)
            if state.over:
                break  # a win at once comes first (4.1): another test
            leads[move] = stones(game, state, seat) - stones(game, state, moyo.other(seat))
        else:
            choice = moyo.greedy(seat_view(rep, seat), random.Random(0))
            assert leads[choice.move] == max(leads.values()) == choice.expect
            assert "placeable stones" in choice.why
            checked += 1
    assert checked >= 3


def test_bot_moyo_greedy_drafts_the_shima_with_the_most_placeable_stones_2_3() -> None:
    rep = randomplay.start("moyo", ["Anna", "Ben"], {**PUZZLE, "division": "draft"}, 0)
    game, state = rep.game, rep.state
    free = {a: len(game.lacks(state, a)) - len(game.turned(state, a)) for a in range(1, 10) if a != 5}
    choice = moyo.greedy(seat_view(rep, "A"), random.Random(0))
    assert free[choice.move.field] == max(free.values())
    rep.add("move", "A", move=choice.move)
    assert rep.state.owner[choice.move.field] == "A"


def test_bot_moyo_strong_finds_a_forced_win_greedy_misses_4_1() -> None:
    rep = randomplay.play("moyo", ["Anna", "Ben"], PUZZLE, seed=3, max_records=28)
    seat = rep.to_move()
    game = rep.game
    assert wins(game, rep.state)  # the seat on turn can force the other to run out of places
    greedy = moyo.greedy(seat_view(rep, seat), random.Random(0))
    assert wins(game, after(rep, seat, greedy.move))  # greedy's move lets the other seat win
    choice = moyo.strong(seat_view(rep, seat), random.Random(0), budget=1.8, depth=16)
    state = after(rep, seat, choice.move)
    assert state.over or not wins(game, state)
    assert choice.expect > moyo.WIN - moyo.MATE_ZONE and "runs out of places first" in choice.why


def test_bot_moyo_strong_keeps_to_its_time_budget() -> None:
    rep = randomplay.play("moyo", ["Anna", "Ben"], PUZZLE, seed=3, max_records=4)
    view = seat_view(rep, rep.to_move())
    began = time.perf_counter()
    choice = moyo.strong(view, random.Random(0), budget=0.1)
    assert time.perf_counter() - began < 0.6
    assert choice.move in view.legal
    shallow = moyo.strong(view, random.Random(0), budget=5.0, depth=1)
    assert "looks 1 ply ahead" in shallow.why


def test_bot_moyo_strong_looks_at_its_clock_before_each_position_it_tries() -> None:
    """A node of the search tries every move on a copy of the board; past the deadline
    it stops before the next copy, not after the whole node (or 32 of them)."""
    rep = randomplay.play("moyo", ["Anna", "Ben"], PUZZLE, seed=3, max_records=12)
    game, state = rep.game, rep.state
    assert len(game.legal_moves(state)) > 10
    search = moyo._Search(game, deadline=time.perf_counter() + 3600)
    search.children(state, rep.to_move(), None, 0)
    assert search.nodes == len(game.legal_moves(state))  # one look at the clock per position tried
    late = moyo._Search(game, deadline=time.perf_counter() - 1)
    with pytest.raises(moyo._OutOfTime):
        late.children(state, rep.to_move(), None, 0)
    assert late.nodes == 1
    with pytest.raises(moyo._OutOfTime):
        late.negamax(state, 3, -2 * moyo.WIN, 2 * moyo.WIN, 0)
    assert late.nodes == 2


def match(levels: dict[str, str], seed: int) -> tuple[str, ...]:
    rep = randomplay.start("moyo", ["A", "B"], PUZZLE, seed)
    rng = random.Random(seed)
    while rep.to_move() is not None:
        seat = rep.to_move()
        view = seat_view(rep, seat)
        level = levels[seat]
        if level == "strong":
            choice = moyo.strong(view, rng, budget=0.08)
        elif level == "greedy":
            choice = moyo.greedy(view, rng)
        else:
            choice = random_choice(view, rng)
        rep.add("move", seat, move=choice.move)
    return rep.game.result(rep.state).winners


def test_bot_moyo_strong_beats_greedy_more_often_than_not() -> None:
    won = 0
    for seed in range(4):
        strong_seat = "AB"[seed % 2]
        levels = {strong_seat: "strong", moyo.other(strong_seat): "greedy"}
        won += strong_seat in match(levels, seed)
    assert won >= 3


def late_positions(seeds: range, back: int) -> list[engine.Position]:
    """Random games of the standard division, `back` records before their end (or
    fewer, when that is still the opening)."""
    out = []
    for seed in seeds:
        length = len(randomplay.play("moyo", ["Anna", "Ben"], PUZZLE, seed=seed).log.records)
        rep = randomplay.play("moyo", ["Anna", "Ben"], PUZZLE, seed=seed, max_records=length - back)
        if rep.to_move() is not None:
            out.append(rep)
    return out


def test_moyo_exact_solver_agrees_with_trying_every_line_4_1() -> None:
    checked = won = 0
    for back in (3, 6, 8):
        for rep in late_positions(range(6), back):
            game, state = rep.game, rep.state
            truth = wins(game, state)
            assert exact.solve(game, state) == truth
            winning = exact.winning_moves(game, state)
            assert bool(winning) == truth
            for move in game.legal_moves(state):
                nxt = after(rep, rep.to_move(), move)
                assert (move in winning) == (nxt.over or not wins(game, nxt))
            checked += 1
            won += truth
    assert checked >= 15 and 0 < won < checked


def test_moyo_exact_solver_gives_up_past_its_node_limit() -> None:
    rep = late_positions(range(1), 24)[0]
    with pytest.raises(exact.TooLarge):
        exact.solve(rep.game, rep.state, limit=10)


def test_moyo_4_1_seats_that_cannot_block_each_other_decide_by_their_stones() -> None:
    """With no digit left to take from the other seat, each seat places the most stones
    its Shima takes together; the seat on turn wins exactly when it has more (4.1)."""
    seen = 0
    for rep in late_positions(range(12), 6):
        game, state = rep.game, rep.state
        where = bounds.places(game, state)
        seat = rep.to_move()
        mine = bounds.stones(where, state.grid.cand, seat)
        theirs = bounds.stones(where, state.grid.cand, moyo.other(seat))
        if mine[0] == mine[1] and theirs[0] == theirs[1]:
            assert bounds.verdict(mine, theirs) == (mine[0] > theirs[0]) == wins(game, state)
            seen += 1
        else:
            assert bounds.verdict(mine, theirs) in (None, wins(game, state))
    assert seen >= 3


#: a game on appendix puzzle 1, A first, the standard division (1.2), as played by
#: greedy with a random move now and then (benchmarks/moyo_exact.py); A lays the last
#: of its 34 stones and B cannot place (4.1).
GAME_1 = (
    "9 (5,5); 7 (5,4); 5 (5,2); 8 (5,8); 2 (5,6); 3 (5,9); 1 (6,8); 8 (3,5); 8 (7,4); 6 (4,3); 7 (7,8); "
    "9 (4,8); 1 (9,7); 2 (8,1); 7 (2,9); 2 (1,2); 5 (2,4); 8 (4,5); 3 (7,3); 7 (3,6); 5 (7,1); 4 (8,5); "
    "3 (2,5); 3 (3,9); 6 (9,4); 3 (8,7); 3 (6,2); 4 (1,7); 2 (9,9); 4 (3,1); 4 (9,8); 7 (1,3); 6 (2,3); 5 (3,2)"
)


#: the same on appendix puzzle 6, A first: A lays the last of 34 stones.
GAME_6 = (
    "5 (5,2); 7 (5,5); 4 (5,9); 7 (1,8); 9 (7,8); 2 (8,1); 2 (9,9); 2 (3,2); 4 (9,5); 9 (4,9); 2 (6,7); "
    "3 (4,6); 6 (2,9); 9 (3,9); 5 (6,6); 9 (1,4); 1 (2,2); 5 (1,9); 6 (6,4); 4 (1,1); 4 (7,2); 4 (3,7); "
    "1 (9,2); 5 (8,4); 6 (7,1); 9 (8,2); 8 (2,7); 6 (4,3); 1 (6,9); 8 (8,8); 5 (9,1); 7 (8,6); 5 (7,7); 2 (4,5)"
)


def replayed(moves: str, count: int, puzzle: str = "1") -> engine.Position:
    """An appendix puzzle after the first `count` of `moves`."""
    rep = randomplay.start("moyo", ["Anna", "Ben"], {"puzzle": puzzle}, 0)
    for text in moves.split("; ")[:count]:
        rep.add("move", rep.to_move(), move=parse_move(text))
    return rep


def searched(rep: engine.Position, depth: int, monkeypatch: pytest.MonkeyPatch) -> Choice:
    """strong's choice searching `depth` plies whatever the clock says."""
    monkeypatch.setattr(moyo, "HARD_CAP", 3600.0)
    return moyo.strong(seat_view(rep, rep.to_move()), random.Random(0), budget=3600.0, depth=depth)


def test_moyo_strong_sees_a_middle_game_won_twelve_plies_before_the_end_4_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact solver wins it for A; strong looking two plies ahead used to expect a
    lead of one stone, and now sees B run out of places first."""
    rep = replayed(GAME_1, 22)
    assert rep.to_move() == "A" and rep.game.phase(rep.state) == "shima"
    winning = exact.winning_moves(rep.game, rep.state)
    assert winning
    choice = searched(rep, 2, monkeypatch)
    assert choice.move in winning
    assert choice.expect > moyo.WIN - moyo.MATE_ZONE and "B runs out of places first" in choice.why


def test_moyo_strong_sees_a_middle_game_lost_eleven_plies_before_the_end_4_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact solver finds no move that saves B; strong looking two plies ahead used
    to expect a level game (a lead of 0), and now knows every line loses."""
    rep = replayed(GAME_1, 23)
    assert rep.to_move() == "B"
    assert not exact.solve(rep.game, rep.state)
    choice = searched(rep, 2, monkeypatch)
    assert choice.expect < -moyo.WIN + moyo.MATE_ZONE and "every line loses" in choice.why


def test_moyo_strong_counts_the_tempo_4_1() -> None:
    """With the seats unable to block each other and equal stones left, the seat on
    turn runs out first (4.1): its judgement says lost, the other seat's won."""
    for rep in late_positions(range(12), 6):
        game, state = rep.game, rep.state
        seat = rep.to_move()
        where = bounds.places(game, state)
        mine = bounds.stones(where, state.grid.cand, seat)
        theirs = bounds.stones(where, state.grid.cand, moyo.other(seat))
        if mine[0] == mine[1] == theirs[0] == theirs[1]:
            assert moyo._judge(game, state, seat) < -moyo.WIN + moyo.MATE_ZONE
            assert moyo._judge(game, state, moyo.other(seat)) > moyo.WIN - moyo.MATE_ZONE
            return
    pytest.fail("no position with equal stones and no blocks left")


def test_moyo_loose_counts_of_a_large_shima_still_bound_its_stones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Early after the opening the stones are bounded, not counted (bounds.EXACT_UP_TO):
    at least no more than the most that fit together, at most no fewer."""
    monkeypatch.setattr(bounds, "EXACT_UP_TO", 0)
    checked = 0
    for rep in late_positions(range(6), 12):
        game, state = rep.game, rep.state
        where = bounds.places(game, state)
        for seat in game.seats:
            open_places = [c for c in where.shima[seat] if state.grid.cand[c]]
            most = most_stones(state.grid.cand, (), open_places)
            low, high = bounds.stones(where, state.grid.cand, seat)
            assert low <= most <= high
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize(("count", "only"), [(23, 2), (24, 1)])
def test_moyo_strong_plays_the_move_that_wins_ten_plies_before_the_end_4_1(
    count: int, only: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of a dozen moves only one or two keep A's win (the exact solver); strong looking
    one to three plies ahead used to play another, and now finds a winning one."""
    rep = replayed(GAME_6, count, puzzle="6")
    winning = exact.winning_moves(rep.game, rep.state)
    assert len(winning) == only and len(rep.game.legal_moves(rep.state)) >= 10
    for depth in (1, 2, 3):
        choice = searched(rep, depth, monkeypatch)
        assert choice.move in winning and choice.expect > moyo.WIN - moyo.MATE_ZONE
