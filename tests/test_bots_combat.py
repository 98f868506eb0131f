"""The Combat bots: conquests found from the candidates alone, every level legal,
greedy's conquests and caution, and strong beating greedy."""

from __future__ import annotations

import random

import pytest

from corr import engine, randomplay
from corr.games.combat import bot as combat
from corr.bots.base import choose, seat_view
from corr.games.base import Action
from corr.log import store
from corr.notation import Placement, parse

#: the README's opening: afterwards field 8's 2 has one place left, (8,1), and a 2 at
#: (7,3) blocks it from outside (rule 3.1, outer conquest)
OPENING = ["7 (8,7)", "8 (4,6)", "6 (8,4)", "2 (5,3)", "9 (1,3)", "1 (3,9)"]


def played(moves: list[str], options: dict[str, str] | None = None) -> engine.Position:
    rep = randomplay.start("combat", ["Anna", "Ben"], options or {}, 0)
    for text in moves:
        rep.add("move", rep.to_move(), move=parse(text))
    return rep


def unclaimed(seed: int, plies: int) -> engine.Position:
    """A random game in which nobody claims anything (conquest=claim): fields fall
    unclaimed and stay open (3.5), which the bots must still judge right."""
    rng = random.Random(seed)
    rep = randomplay.start("combat", ["Anna", "Ben"], {}, seed)
    for _ in range(plies):
        if rep.to_move() is None:
            break
        rep.add("move", rep.to_move(), move=rng.choice(rep.game.legal_moves(rep.state)))
    return rep


def positions() -> list[engine.Position]:
    reps = [randomplay.play("combat", ["Anna", "Ben"], {}, seed=s, max_records=8 + 7 * s) for s in range(8)]
    reps += [unclaimed(s, 25 + 5 * s) for s in range(4)]
    return [rep for rep in reps if rep.to_move() is not None]


def conquered_by(rep: engine.Position, seat: str, digit: int, cell: int) -> int:
    """The fields the rules say a placement conquers (credited or missed), as a mask."""
    state = rep.game.clone(rep.state)
    outcome = rep.game.apply(state, Action(rep.seq + 1, "move", seat, Placement(digit, cell)))
    mask = 0
    for f in outcome.conquered + outcome.missed:
        mask |= 1 << f
    return mask


def test_conquering_finds_exactly_the_conquests_the_rules_give_3_1_3_2() -> None:
    checked = 0
    for rep in positions():
        seat = rep.to_move()
        table = combat.Table.from_view(seat_view(rep, seat))
        found = combat.conquering(table.grid, table.closed)
        for move in rep.game.legal_moves(rep.state):
            assert found.get((move.digit, move.cell), 0) == conquered_by(rep, seat, move.digit, move.cell), str(move)
            checked += 1
        assert set(combat.legal(table.grid)) == {(m.digit, m.cell) for m in rep.game.legal_moves(rep.state)}
    assert checked > 500


@pytest.mark.parametrize("level", ["random", "greedy", "strong"])
def test_every_level_plays_a_move_the_engine_takes(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combat, "BUDGET", 0.05)
    for i, rep in enumerate(positions()):
        seat = rep.to_move()
        choice = choose(rep, seat, level, random.Random(i))
        assert Placement(choice.move.digit, choice.move.cell) in rep.game.legal_moves(rep.state)
        records = rep.add("move", seat, move=choice.move)  # a claim it makes must hold (3.5)
        assert records[0].by == seat and isinstance(choice.why, str) and choice.why


def test_bot_combat_greedy_takes_a_conquest_3_1() -> None:
    rep = played(OPENING)
    assert rep.to_move() == "A" and not rep.state.conquered
    choice = choose(rep, "A", "greedy", random.Random(1))
    assert choice.move.claim == ()  # claimed, so it counts with conquest=claim (3.5)
    assert choice.expect >= 1 and "conquers field" in choice.why
    rep.add("move", "A", move=choice.move)
    assert list(rep.state.conquered.values()) == ["A"] * len(rep.state.conquered) and rep.state.conquered


def test_greedy_hands_the_next_seat_no_conquest_when_it_can_avoid_it() -> None:
    for i, rep in enumerate(positions()[:6]):
        seat = rep.to_move()
        view = seat_view(rep, seat)
        table = combat.Table.from_view(view)
        if not any(given == 0 for _, given, _, _ in combat.judged(table)):
            continue
        choice = choose(rep, seat, "greedy", random.Random(i))
        rep.add("move", seat, move=choice.move)
        nxt = rep.to_move()
        if nxt is None:
            continue
        assert not any(conquered_by(rep, nxt, m.digit, m.cell) for m in rep.game.legal_moves(rep.state)), i


def test_handed_counts_what_the_next_seat_could_conquer() -> None:
    for rep in positions()[:5]:
        table = combat.Table.from_view(seat_view(rep, rep.to_move()))
        now = combat.conquering(table.grid, table.closed)
        for move in combat.legal(table.grid)[::7]:
            after = table.grid.copy()
            after.place(move[1], move[0])
            truth = max((bin(m).count("1") for m in combat.conquering(after, table.closed | now.get(move, 0)).values()),
                        default=0)
            assert combat.handed(table.grid, table.closed, move, now.get(move, 0), not now) == truth


def test_strong_takes_the_conquest_too_and_explains_it() -> None:
    rep = played(OPENING)
    choice = combat.strong(seat_view(rep, "A"), random.Random(2), budget=0.3)
    assert choice.move.claim == () and "conquers field" in choice.why


def test_a_strong_move_keeps_to_its_budget() -> None:
    import time

    rep = randomplay.play("combat", ["Anna", "Ben"], {}, seed=3, max_records=30)
    view = seat_view(rep, rep.to_move())
    start = time.perf_counter()
    combat.strong(view, random.Random(0), budget=0.2)
    assert time.perf_counter() - start < 1.5


def match(strong_seat: int, seed: int) -> float:
    """One game strong against greedy; strong's points (a win 1, a shared win 1/2)."""
    rng = random.Random(seed)
    rep = randomplay.start("combat", ["Anna", "Ben"], {}, seed)
    seats = rep.game.seats
    while rep.to_move() is not None:
        seat = rep.to_move()
        view = seat_view(rep, seat)
        if seats.index(seat) == strong_seat:
            choice = combat.strong(view, rng, budget=100.0)  # bounded by ENOUGH: the same games on any machine
        else:
            choice = combat.greedy(view, rng)
        rep.add("move", seat, move=choice.move)
    winners = rep.result().winners
    return 1 / len(winners) if seats[strong_seat] in winners else 0.0


def test_strong_beats_greedy_more_often_than_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combat, "ENOUGH", 3)  # 3 games a candidate: a small, seeded, machine-independent match
    points = sum(match(i % 2, 700 + i) for i in range(4))
    assert points >= 3
