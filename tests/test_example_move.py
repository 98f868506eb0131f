"""The move a message shows the notation by (`Game.example_for`, asked with
`observe(..., example=True)`) is the one listing every legal move would pick: the first
that keeps the game's main rule, else the first. Checked over positions played at random
in every game, and against a copy that cannot know the moves."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from corr import engine, randomplay
from corr.errors import UsageError
from corr.games.base import Game
from corr.seatview import observe
from test_mail_parts import KINDS, PLAYERS, new_game


def positions(game: str, options: dict[str, str], seats: int, seed: int) -> list[tuple[Game, object]]:
    """A game played at random: its rules, and a copy of its state before each of its first moves."""
    rep = randomplay.start(game, list(PLAYERS[:seats]), dict(options), seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(30):
        if rep.to_move() is None:
            break
        seen.append(rep.game.clone(rep.state))
        randomplay.play_on(rep, rng, len(rep.log.records) + 1)
    return [(rep.game, state) for state in seen]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_example_is_the_first_legal_move_that_keeps_the_rule(kind: str) -> None:
    game_name, options, seats, _ = KINDS[kind]
    checked = 0
    for seed in range(4):
        for game, state in positions(game_name, options, seats, seed):
            for seat in game.seats:
                legal = game.legal_for(state, seat)
                safe = [m for m in legal if game.check(state, m, seat) is None]
                expected = (safe or legal or [None])[0]
                assert game.example_for(state, seat) == expected, (kind, seat)
                assert Game.example_for(game, state, seat) == expected, (kind, seat)
                checked += expected is not None
    assert checked


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_view_asked_for_its_example_shows_what_one_listing_the_moves_shows(tmp_path: Path, kind: str) -> None:
    rep = engine.load(new_game(tmp_path, kind))
    for seat in rep.game.seats:
        listed, asked = observe(rep, seat, moves=True), observe(rep, seat, example=True)
        assert asked.example() == listed.example(), seat
        assert asked.legal == [] and asked.state is None  # nothing more than the example
        assert asked.position == listed.position and asked.rows == listed.rows


def test_a_copy_without_the_dealers_secret_is_refused_the_example_as_the_moves(tmp_path: Path) -> None:
    path = new_game(tmp_path / "dealer", "cards")
    copy = tmp_path / "player" / path.name
    copy.parent.mkdir()
    shutil.copy(path, copy)
    rep = engine.load(copy)
    seat = rep.on_turn()[0]
    for asked in ({"moves": True}, {"example": True}):
        with pytest.raises(UsageError, match="dealer's secret"):
            observe(rep, seat, **asked)
