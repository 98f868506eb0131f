"""Computer opponents for the card game: legal cards, the best turn score, nothing of
the hidden hands or pile, and play-outs that follow the rules."""

from __future__ import annotations

import random

import pytest

from corr import engine, randomplay
from corr.games.cards import bot as bots
from corr.bots.base import choose, seat_view
from corr.games.cards.rules import Cards
from corr.log import store


def _choose(rep: engine.Position, seat: str, level: str, rng: random.Random, **kw: float) -> bots.Choice:
    view = seat_view(rep, seat)
    choice = bots.strong(view, rng, **kw) if level == "strong" else choose(rep, seat, level, rng)
    assert choice.move in rep.game.legal_for(rep.state, seat), (level, choice)
    return choice


@pytest.mark.parametrize(
    "options", [{}, {"mode": "as-written"}, {"end": "hands"}, {"puzzle": "1", "deck": "3x1-9"}]
)
def test_bot_cards_every_level_lays_a_legal_card(options: dict[str, str]) -> None:
    for seed in range(8):
        players = ["Anna", "Ben", "Cleo"][: 2 + seed % 2]
        rep = randomplay.play("cards", players, options, seed=seed, max_records=seed * 9)
        seat = rep.to_move()
        if seat not in rep.game.seats or not rep.game.legal_moves(rep.state):  # no card to lay: a pass (5.1)
            continue
        for level in ("random", "greedy", "strong"):
            _choose(rep, seat, level, random.Random(seed), budget=0.05, playouts=10)


def test_bot_cards_greedy_takes_the_best_turn_score_3_1() -> None:
    """3.1: a card scores the cards in its block, row and column; with row 1 holding
    1-8 and a 9 in hand, the free end of row 1 scores 8 and more."""
    rep = randomplay.start("cards", ["Anna", "Ben"], {"puzzle": "12345678." + "." * 72}, 3)
    rep.state.hands[0] = 9  # the dealer's copy: Anna holds the 9
    choice = _choose(rep, "A", "greedy", random.Random(1))
    assert choice.move.digit == 9 and choice.move.cell == 8
    assert choice.expect == Cards.score(rep.state.grid.cells, 8) == 8
    for seed in range(6):  # and in random positions: the best the rules give
        rep = randomplay.play("cards", ["Anna", "Ben", "Cleo"], {}, seed=seed, max_records=12 + seed * 7)
        seat = rep.to_move()
        if seat not in rep.game.seats:
            continue
        best = max(Cards.score(rep.state.grid.cells, m.cell) for m in rep.game.legal_for(rep.state, seat))
        assert _choose(rep, seat, "greedy", random.Random(seed)).expect == best


def test_bot_cards_play_outs_score_as_the_game_does() -> None:
    """The fast play-out of `strong`, dealt the real hands and pile, scores every turn
    and ends the game (5.1, 5.2) exactly as the game does."""
    for seed in range(3):
        rep = randomplay.play("cards", ["Anna", "Ben", "Cleo"], {}, seed=seed, max_records=10)
        table = bots.Table(seat_view(rep, rep.to_move()))
        sim = bots._Game(table, list(rep.state.hands), rep.game.pile[rep.state.drawn:], list(range(81)))
        rng = random.Random(seed)
        while rep.to_move() in rep.game.seats:
            choice = choose(rep, rep.to_move(), "greedy", rng)
            assert sim.hands[sim.turn] == choice.move.digit
            sim.lay(choice.move.cell)
            rep.add("move", rep.to_move(), move=choice.move)
        assert sim.points == rep.state.points
        assert sim.over or sim.best(sim.hands[sim.turn]) < 0  # 5.2 the pile, or 5.1 a card that fits nowhere


def _near_the_end(seed: int) -> engine.Position:
    """A game played greedily to within 24 free cells, with a choice of cells left."""
    for deal in range(seed, seed + 20):
        rep = randomplay.start("cards", ["Anna", "Ben", "Cleo"], {}, deal)
        rng = random.Random(deal)
        while rep.to_move() in rep.game.seats:
            if rep.state.grid.cells.count(0) <= 24 and len(rep.game.legal_moves(rep.state)) > 1:
                return rep
            move = choose(rep, rep.to_move(), "greedy", rng).move
            rep.add("move", rep.to_move(), move=move)
    raise AssertionError("no game lasted to 24 free cells")


def test_bot_cards_does_not_see_other_hands_or_the_pile() -> None:
    """6.1: two deals that differ only in the other seats' cards and the pile's order
    give the same view, and strong the same choice with the same random seed."""
    rep = _near_the_end(4)
    seat = rep.to_move()
    view = seat_view(rep, seat)
    first = bots.strong(view, random.Random(7), budget=60, playouts=25)
    assert "play-outs" in first.why
    me = rep.game.seats.index(seat)
    drawn = rep.state.drawn
    hidden = [h for i, h in enumerate(rep.state.hands) if i != me] + rep.game.pile[drawn:]
    random.Random(2).shuffle(hidden)
    for i in range(len(rep.state.hands)):
        if i != me:
            rep.state.hands[i] = hidden.pop()
    rep.game.pile[drawn:] = hidden
    other = seat_view(rep, seat)
    assert other.position == view.position and other.legal == view.legal
    assert bots.strong(other, random.Random(7), budget=60, playouts=25) == first



def test_bot_cards_a_forked_play_out_plays_as_a_fresh_one() -> None:
    """`strong` deals a sample once and forks it for every candidate move: each fork
    scores and ends (5.1, 5.2) exactly as a play-out built afresh from the table, and
    leaves the sample it came from as dealt."""
    for seed in range(4):
        rep = _near_the_end(seed)
        table = bots.Table(seat_view(rep, rep.to_move()))
        rng = random.Random(seed)
        hands, pile = table.deal(rng)
        order = list(range(81))
        rng.shuffle(order)
        dealt = bots._Game(table, hands[:], pile, order)
        for move in table.moves:
            fresh = bots._Game(table, hands[:], pile, order)
            twin = dealt.fork()
            for sim in (fresh, twin):
                sim.lay(move.cell)
                sim.play_out()
            assert (twin.points, twin.cells, twin.over, twin.drawn) == (fresh.points, fresh.cells, fresh.over,
                                                                       fresh.drawn)
        assert (dealt.cells, dealt.hands, dealt.drawn, dealt.turn) == (table.cells, hands, 0, table.me)
