"""Every registered game, played at random: replay, views and serialisation agree."""

from __future__ import annotations

import json

import pytest

from corr import engine, games, randomplay
from corr.log import store
from corr.render import render_position

PLAYERS = ["Anna", "Ben", "Cleo", "Dara", "Emil", "Fay"]
#: Options a game cannot start without.
REQUIRED_OPTIONS: dict[str, dict[str, str]] = {"moyo": {"puzzle": "1"}}  # moyo 2.1


def seat_counts(name: str) -> list[int]:
    cls = games.game_class(name)
    return sorted({cls.min_seats, cls.max_seats})


CASES = [(name, n, seed) for name in games.names() for n in seat_counts(name) for seed in (1, 2)]


@pytest.mark.parametrize("name, players, seed", CASES)
def test_random_game_replays_renders_and_serialises(name: str, players: int, seed: int) -> None:
    rep = randomplay.play(name, PLAYERS[:players], REQUIRED_OPTIONS.get(name), seed=seed)
    result = rep.game.result(rep.state)
    assert result.over, "a random game runs to its end"
    # serialise, parse and replay: the same records, the same final position
    again = engine.replay(store.parse(store.text(rep.log), rep.log.path))
    assert again.game.state_key(again.state) == rep.game.state_key(rep.state)
    assert again.game.result(again.state) == result
    # every position renders in every format; JSON is valid and consistent
    for seq in range(0, rep.seq + 1, max(1, rep.seq // 5)):
        at = engine.replay(rep.log, upto=seq)
        data = json.loads(render_position(at, "json"))
        assert data["seq"] == seq and len(data["board"]) == 81
        assert render_position(at, "text") and render_position(at, "html")
    # the legal moves of a mid-game position are all accepted
    mid = engine.replay(rep.log, upto=rep.seq // 2)
    for move in mid.game.legal_moves(mid.state)[:25]:
        trial = engine.replay(rep.log, upto=rep.seq // 2)
        engine.extend(trial, "move", move=move)
