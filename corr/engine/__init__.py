"""The engine: a game's log replayed through its rules, and the one table every record
is added at (DESIGN 2, 4, 5, 6).

`load` opens a log for reading and `writing` under its lock for adding records; both
give a `Table`, replayed once. The engine owns what every game shares: seats and
turns, seq numbers, hashes, seals and signatures, timestamps, rulings and the dealer's
secret, and the rule that a refused action appends nothing. Games only judge moves;
what a seat may see of a table is the seat view's (`corr.seatview`).
"""

from corr.engine.hashes import state_hash
from corr.engine.header import SEAT_LETTERS, make_game, make_header, seat_entry
from corr.engine.judge import apply
from corr.engine.position import Position, Step
from corr.engine.opening import accept, act, adopt, load, new_game, replay, start, writing
from corr.engine.table import Table

__all__ = [
    "SEAT_LETTERS", "Position", "Step", "Table", "accept", "act", "adopt", "apply", "load", "make_game", "make_header", "new_game",
    "replay", "seat_entry", "start", "state_hash", "writing",
]
