"""Swiss pairings for games of two seats by the FIDE Dutch system (Handbook C.04.3),
through `caissify-pairings`, a library cross-checked against bbpPairings, a
FIDE-endorsed pairing program: players meet others of their score, nobody meets anyone
twice, nobody has the bye (a pairing-allocated bye) twice, and colours - here who sits
first - alternate and stay balanced as the rules allow.

The library is handed only what the rules look at, derived here from the rounds
played: each player's score before each round (for the floats), colours and byes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from corr.errors import UsageError


class Game(NamedTuple):
    """One pairing of a round played: `first` sat first (White), `second` second; a
    bye has no `second`. `points` are what each scored (a bye: the bye's points, 0)."""

    first: str
    second: str | None
    points: tuple[float, float] = (0.0, 0.0)


def _check(players: list[str], history: Sequence[Sequence[Game]]) -> None:
    if len(players) < 2:
        raise UsageError("a Swiss pairing needs two players or more")
    if len(set(players)) < len(players):
        raise UsageError("a player is named twice in a Swiss pairing")
    known = set(players)
    for number, games in enumerate(history, 1):
        seen: list[str] = []
        for game in games:
            seen += [game.first] + ([game.second] if game.second is not None else [])
        if len(set(seen)) < len(seen):
            raise UsageError(f"round {number} pairs a player twice")
        if not set(seen) <= known:
            raise UsageError(f"round {number} pairs {sorted(set(seen) - known)[0]!r}, who is not a player")


def _engine_players(players: list[str], scores: dict[str, float],
                    history: Sequence[Sequence[Game]]) -> list[dict[str, object]]:
    """Each player as the library takes them: score now, colours of the games played,
    floats (up or down against an opponent of another score before that round; a bye is
    a float down, C.04.3 A.4) and byes had."""
    before = {p: 0.0 for p in players}  # each player's score before the round in hand
    colours: dict[str, list[str]] = {p: [] for p in players}
    floats: dict[str, list[str]] = {p: [] for p in players}
    byes = {p: 0 for p in players}
    for games in history:
        after = dict(before)
        for game in games:
            after[game.first] += game.points[0]
            if game.second is None:
                byes[game.first] += 1
                floats[game.first].append("down")
                continue
            after[game.second] += game.points[1]
            colours[game.first].append("white")
            colours[game.second].append("black")
            a, b = before[game.first], before[game.second]
            floats[game.first].append("down" if a > b else "up" if a < b else "none")
            floats[game.second].append("down" if b > a else "up" if b < a else "none")
        before = after
    return [{"id": number, "name": p, "score": float(scores.get(p, 0.0)), "rating": 0,
             "starting_number": number, "color_hist": colours[p], "float_history": floats[p],
             "bye_count": byes[p]} for number, p in enumerate(players, 1)]


def pair_swiss(players: list[str], scores: dict[str, float], history: Sequence[Sequence[Game]], *,
               rounds: int | None = None, bye_points: float = 1.0,
               top_seed_first: bool = True) -> tuple[list[tuple[str, str]], str | None]:
    """The next round's pairs, each (first seat, second seat), and the player with the
    bye (None for an even number).

    `players` are in their initial order (the first is the top seed, C.04.3's pairing
    numbers), `scores` their points now, `history` the rounds played, each a list of
    its games. `rounds` is how many the event has: the last round relaxes the colour
    rules (None: not the last). `top_seed_first`: the top seed sits first in round 1
    (C.04.3's initial colour, which FIDE draws by lot). UsageError when the players cannot all be paired
    without a rematch or a second bye."""
    import logging

    from caissify_pairings import generate_pairings  # type: ignore[import-untyped]

    _check(players, history)
    quiet = logging.getLogger("caissify_pairings")  # what it warns of, the refusal below says
    if not quiet.handlers:
        quiet.addHandler(logging.NullHandler())
    number = len(history) + 1
    met = {frozenset((g.first, g.second)) for games in history for g in games if g.second is not None}
    ids = {p: i for i, p in enumerate(players, 1)}
    previous = {(min(ids[a], ids[b]), max(ids[a], ids[b])) for a, b in (sorted(pair) for pair in met)}
    made = generate_pairings(system="dutch", players=_engine_players(players, scores, history),
                             previous_pairings=previous, round_number=number,
                             total_rounds=max(rounds or number + 1, number), bye_value=bye_points,
                             initial_color="white" if top_seed_first else "black")
    name = {i: p for p, i in ids.items()}
    pairs = [(name[m["white_id"]], name[m["black_id"]]) for m in made if m.get("black_id") is not None]
    bye = [name[m["white_id"]] for m in made if m.get("black_id") is None]
    paired = [p for pair in pairs for p in pair] + bye
    had_bye = {g.first for games in history for g in games if g.second is None}
    if (sorted(paired) != sorted(players) or len(bye) > len(players) % 2
            or any(frozenset(pair) in met for pair in pairs) or set(bye) & had_bye):
        raise UsageError(f"round {number} cannot be paired by the Swiss rules: "
                         "every pairing left would repeat a game or give a second bye")
    return pairs, (bye[0] if bye else None)
