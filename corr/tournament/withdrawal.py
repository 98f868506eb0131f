"""What a withdrawal scores, as ICCF scores it: a player who leaves loses every game of
theirs not finished. The game being played when they leave is lost at once (their
place last, the others sharing the first: `event`), and in a round robin each game the
schedule still held for them is a win for the opponents, who have a bye in that round
instead of the game. A knockout or a Swiss simply pairs the others."""

from __future__ import annotations

from corr.tournament import pairing
from corr.tournament.event import Event


def forfeit_wins(event: Event) -> list[tuple[int, int, int]]:
    """(round, winner, leaver) for each game of a round robin's schedule that a
    withdrawal left unplayed, in the rounds paired so far."""
    system = event.header["system"]
    if system not in ("round-robin", "double-round-robin"):
        return []
    count, seats = len(event.players), event.header["table"]
    wins = []
    for number in range(1, len(event.rounds) + 1):
        gone = {p.number for p in event.players.values() if p.withdrawn is not None and p.withdrawn < number}
        if not gone:
            continue
        for table in pairing.round_robin(count, seats, event.planned, system == "double-round-robin", number):
            left = [p for p in table if p not in gone]
            wins += [(number, winner, leaver) for leaver in table if leaver in gone for winner in left]
    return wins
