"""Whole games played at random, in memory: for conformance tests and benchmarks."""

from __future__ import annotations

import random

from corr import engine
from corr.errors import IllegalMove
from corr.log import store
from corr.notation import Placement


def play(
    game_name: str,
    players: list[str],
    options: dict[str, str] | None = None,
    seed: int = 0,
    max_records: int = 10_000,
) -> engine.Replay:
    """Play legal moves chosen at random until the game is over; claims every conquest."""
    rng = random.Random(seed)
    rep = engine.start(engine.make_header(game_name, players, options or {}))
    while rep.to_move() is not None and len(rep.log.records) < max_records:
        move = rng.choice(rep.game.legal_moves(rep.state))
        if isinstance(move, Placement):
            claimed = Placement(move.digit, move.cell, ())
            try:
                store.add(rep.log, engine.extend(rep, "move", move=claimed))
                continue
            except IllegalMove:
                pass  # conquers nothing: play it unclaimed
        store.add(rep.log, engine.extend(rep, "move", move=move))
    return rep
