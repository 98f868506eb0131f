"""The rating systems, from well-kept libraries rather than written here: Glicko-2
(Glickman) through `glicko2` for games of two seats, and OpenSkill's Plackett-Luce model
(Weng and Lin) through `openskill` for three to six, where a game ends in an order of
places rather than a win and a loss.

A rating period is one game: the game's players are rated on the ratings they had just
before it, and nobody else's rating changes (a player's deviation does not grow while
they do not play). Each game (and each of its sizes: two seats, more) keeps its own
list: a Combat duel says nothing of a Moyo game, nor one place in four of a duel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from corr.ratings.finished import Finished

GLICKO2, PLACKETT_LUCE = "glicko-2", "plackett-luce"
#: What each system calls its two numbers, and how it starts a new player.
SYSTEMS: dict[str, dict[str, Any]] = {
    GLICKO2: {"title": "Glicko-2", "rating": "rating", "deviation": "RD", "start": (1500.0, 350.0)},
    PLACKETT_LUCE: {"title": "Plackett-Luce (OpenSkill)", "rating": "mu", "deviation": "sigma",
                    "start": (25.0, 25.0 / 3)},
}


@dataclass
class Standing:
    """A player's rating in one list, and their record in the games it rated."""

    key: str
    name: str
    address: str | None
    rating: float
    deviation: float
    volatility: float | None = None  # Glicko-2's sigma; Plackett-Luce has none
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"player": self.key, "name": self.name, "address": self.address, "rating": round(self.rating, 2),
                "deviation": round(self.deviation, 2), "volatility": None if self.volatility is None
                else round(self.volatility, 6), "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses}


@dataclass
class Table:
    """The ratings of one game at one size: `system` is GLICKO2 or PLACKETT_LUCE."""

    game: str
    system: str
    players: dict[str, Standing] = field(default_factory=dict)
    games: int = 0

    def ranked(self) -> list[Standing]:
        """Highest rating first; equal ratings by the smaller deviation, then by key."""
        return sorted(self.players.values(), key=lambda s: (-round(s.rating, 6), round(s.deviation, 6), s.key))


def system_of(game: Finished) -> str:
    return GLICKO2 if len(game.players) == 2 else PLACKETT_LUCE


def _standing(table: Table, game: Finished, i: int) -> Standing:
    """The player in seat `i` of `game` in `table`, new at the system's start if need be;
    their name and address as the newest game has them."""
    p = game.players[i]
    known = table.players.get(p.key)
    if known is None:
        rating, deviation = SYSTEMS[table.system]["start"]
        known = table.players[p.key] = Standing(
            p.key, p.name, p.address, rating, deviation, 0.06 if table.system == GLICKO2 else None)
    known.name, known.address = p.name, p.address
    return known


def _count(standing: Standing, game: Finished, i: int) -> None:
    standing.games += 1
    if not game.winners[i]:
        standing.losses += 1
    elif sum(game.winners) == 1:
        standing.wins += 1
    else:
        standing.draws += 1


def _glicko2(table: Table, game: Finished) -> None:
    """One game of two as a Glicko-2 rating period for both players."""
    import glicko2  # type: ignore[import-untyped]

    a, b = (_standing(table, game, i) for i in range(2))
    before = [(a.rating, a.deviation), (b.rating, b.deviation)]
    draw = game.winners[0] and game.winners[1]
    for i, me in enumerate((a, b)):
        rating, deviation = before[1 - i]
        score = 0.5 if draw else (1.0 if game.winners[i] else 0.0)
        one = glicko2.Player(rating=me.rating, rd=me.deviation, vol=me.volatility)
        one.update_player([rating], [deviation], [score])
        me.rating, me.deviation, me.volatility = one.rating, one.rd, one.vol


def _plackett_luce(table: Table, game: Finished, model: Any) -> None:
    """One game of three or more as one update of the Plackett-Luce model, by places."""
    standings = [_standing(table, game, i) for i in range(len(game.players))]
    teams = [[model.rating(mu=s.rating, sigma=s.deviation, name=s.key)] for s in standings]
    rated = model.rate(teams, ranks=[float(p) for p in game.places])
    for s, (r,) in zip(standings, rated):
        s.rating, s.deviation = r.mu, r.sigma


def rate(games: list[Finished]) -> list[Table]:
    """The rating lists of `games`, taken in the order given (the order they ended), by
    game and then system (two seats first)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    tables: dict[tuple[str, str], Table] = {}
    for game in games:
        system = system_of(game)
        table = tables.setdefault((game.game, system), Table(game.game, system))
        if system == GLICKO2:
            _glicko2(table, game)
        else:
            _plackett_luce(table, game, model)
        table.games += 1
        for i in range(len(game.players)):
            _count(table.players[game.players[i].key], game, i)
    order = [GLICKO2, PLACKETT_LUCE]
    return sorted(tables.values(), key=lambda t: (t.game, order.index(t.system)))
