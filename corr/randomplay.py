"""Whole games played at random, in memory: for conformance tests and benchmarks."""

from __future__ import annotations

import hashlib
import random

from corr import engine
from corr.engine import dealer
from corr.errors import IllegalMove
from corr.notation import Move, Placement


def play(
    game_name: str,
    players: list[str],
    options: dict[str, str] | None = None,
    seed: int = 0,
    max_records: int = 10_000,
    *,
    mischief: float = 0.0,
    game_id: str | None = None,
) -> engine.Table:
    """Play legal moves chosen at random until the game is over; claims every conquest.
    A game with hidden information is dealt from a seed made from `seed`. With
    `mischief` > 0, that share of turns instead tries a move that breaks the main rule or
    a challenge of the newest move (see `play_on`). `game_id` replaces the header's
    random id, for output that must not change from run to run."""
    rng = random.Random(seed)
    rep = start(game_name, players, options or {}, seed, game_id=game_id)
    return play_on(rep, rng, max_records, mischief=mischief)


def play_on(
    rep: engine.Table, rng: random.Random, max_records: int = 10_000, *, mischief: float = 0.0
) -> engine.Table:
    """Go on playing `rep` at random until the game is over (or has `max_records`).

    `mischief` is the chance per turn of trying what only as-written play keeps: a move
    that breaks the main rule (it stands until challenged) or a challenge of the newest
    move by another seat. Strict games refuse both, and play goes on with a legal move."""
    while rep.to_move() is not None and len(rep.log.records) < max_records:
        if mischief and rng.random() < mischief and _mischief(rep, rng):
            continue
        legal = rep.game.legal_moves(rep.state)
        if not legal:  # a card that fits nowhere, the card before it still open to a challenge (cards 4.1)
            rep.add("pass", rep.to_move())
            continue
        move = rng.choice(legal)
        if isinstance(move, Placement):
            claimed = Placement(move.digit, move.cell, ())
            try:
                rep.add("move", rep.to_move(), move=claimed)
                continue
            except IllegalMove:
                pass  # conquers nothing: play it unclaimed
        rep.add("move", rep.to_move(), move=move)
    return rep


def _mischief(rep: engine.Table, rng: random.Random) -> bool:
    """Try a challenge of the newest move (always, when it broke the rule) or a placement
    the legal moves lack; True when the game took it (a record was made)."""
    game = rep.game
    if "challenge" not in game.record_types:
        return False
    moves = [step for step in rep.steps if step.record.type == "move"]
    action: tuple[str, str | None, Move | None, int | None]  # record type, by, move, target
    # a watchful table: a move that broke the rule is always challenged, others at times
    if moves and (moves[-1].outcome.illegal is not None or rng.random() < 0.5):
        newest = moves[-1].record
        challenger = rng.choice([s for s in game.seats if s != newest.by])
        action = ("challenge", challenger, None, newest.seq)
    else:
        legal = game.legal_moves(rep.state)
        known = set(legal)
        digits = sorted({m.digit for m in legal if isinstance(m, Placement)})
        board = game.board(rep.state)
        wrong = [Placement(d, c) for c in range(81) if not board[c] for d in digits if Placement(d, c) not in known]
        if not wrong:
            return False
        action = ("move", None, rng.choice(wrong), None)
    record_type, by, move, target = action
    try:
        rep.add(record_type, by, move, target)
    except IllegalMove:
        return False
    return True


def deal_seed(seed: int) -> str:
    """The dealer's seed of random game number `seed` (reproducible, unlike a real deal)."""
    return hashlib.sha256(f"corr random deal {seed}".encode()).hexdigest()[:32]


def start(
    game_name: str, players: list[str], options: dict[str, str], seed: int = 0, *, game_id: str | None = None
) -> engine.Table:
    """A new game in memory, dealt from `deal_seed(seed)` when it hides information;
    `game_id` replaces the header's random id."""
    from corr.games import game_class

    cls = game_class(game_name)
    hidden = cls.is_hidden(cls.resolve_options(options))
    secret = deal_seed(seed) if hidden else None
    commitment = dealer.commitment(secret) if secret is not None else None
    options = cls.dealt_options(options, secret)
    header = engine.make_header(game_name, players, options, commitment=commitment)
    if game_id is not None:
        header = header._replace(id=game_id)
    return engine.start(header, secret)
