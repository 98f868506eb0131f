"""The seat view bots play from, and the shared random level."""

from __future__ import annotations

import random

import pytest

from corr import randomplay
from corr.bots.base import LEVELS, chooser, choose, seat_view
from corr.errors import UsageError


def test_a_bot_of_a_perfect_information_game_gets_a_copy_of_the_position() -> None:
    rep = randomplay.play("combat", ["Anna", "Ben"], {}, seed=4, max_records=6)
    seat = rep.to_move()
    view = seat_view(rep, seat)
    assert view.state is not rep.state and view.rules.state_key(view.state) == rep.game.state_key(rep.state)
    assert view.legal == rep.game.legal_for(rep.state, seat)
    assert [seq for seq, _, _ in view.history] == [s.record.seq for s in rep.steps if s.record.type == "move"]


def test_a_bot_of_the_card_game_sees_its_own_card_and_nothing_else_hidden() -> None:
    rep = randomplay.play("cards", ["Anna", "Ben", "Cleo"], {}, seed=2, max_records=4)
    seat = rep.to_move()
    view = seat_view(rep, seat)
    assert view.state is None and view.rules.seed is None and rep.game.seed is not None
    own = rep.state.hands[rep.game.seats.index(seat)]
    assert view.position["viewer"] == seat and view.position["hand"] == [own]
    # the view holds no other hand: it is the same whatever the other seats hold
    for i, other in enumerate(rep.game.seats):
        if other != seat:
            rep.state.hands[i] = 9 - rep.state.hands[i] % 9
    assert seat_view(rep, seat).position == view.position


def test_random_plays_a_legal_move_and_refuses_a_seat_not_on_turn() -> None:
    rep = randomplay.play("war", ["Anna", "Ben"], {}, seed=1, max_records=3)
    seat = rep.to_move()
    choice = choose(rep, seat, "random", random.Random(3))
    assert choice.move in rep.game.legal_for(rep.state, seat)
    other = next(s for s in rep.game.seats if s != seat)
    with pytest.raises(UsageError, match="not on turn"):
        choose(rep, other, "random")
    with pytest.raises(UsageError, match="unknown level"):
        chooser("war", "expert")
    assert LEVELS == ("random", "greedy", "strong")
