"""Whole games played at random, in memory: for conformance tests and benchmarks."""

from __future__ import annotations

import hashlib
import random

from corr import dealer, engine
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
    """Play legal moves chosen at random until the game is over; claims every conquest.
    A game with hidden information is dealt from a seed made from `seed`."""
    rng = random.Random(seed)
    rep = start(game_name, players, options or {}, seed)
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


def deal_seed(seed: int) -> str:
    """The dealer's seed of random game number `seed` (reproducible, unlike a real deal)."""
    return hashlib.sha256(f"corr random deal {seed}".encode()).hexdigest()[:32]


def start(game_name: str, players: list[str], options: dict[str, str], seed: int = 0) -> engine.Replay:
    """A new game in memory, dealt from `deal_seed(seed)` when it hides information."""
    from corr.games import game_class

    if not game_class(game_name).hidden:
        return engine.start(engine.make_header(game_name, players, options))
    secret = deal_seed(seed)
    header = engine.make_header(game_name, players, options, commitment=dealer.commitment(secret))
    return engine.start(header, secret)
