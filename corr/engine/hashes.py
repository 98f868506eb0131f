"""The two hashes a record carries of the position after it (DESIGN 2, 6).

`state` is the SHA-256 of the public view alone: any copy, a player's too, reaches the
same bytes, and nothing hidden goes in, so nobody can search a hidden card or board out
of it. What the public does not see yet but a seat has (a running Domino duel's board)
is sealed into `seal`: an HMAC-SHA-256 keyed by a salt drawn from the dealer's seed, so
it shows nothing until the reveal, when every copy can check it. Format 1 logs (read,
never written) hashed a duel's every board into `state` and carry no seal.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import Any

from corr.games.base import Game
from corr.log.lines import FORMAT_VERSION

#: What keys a seal: the seed's salt, so no two games' seals can be compared.
_SEAL_SALT = b"corr-seal-v1|"


def state_key(game: Game, state: Any, forfeit: str | None, version: int) -> bytes:
    """The bytes a record's `state` hashes: the public view (format 1: the game's
    `state_key`), and the seat that lost by a timeout or a ruling."""
    key = game.public_key(state) if version >= 2 else game.state_key(state)
    return key + b"|forfeit:" + forfeit.encode() if forfeit else key


def state_hash(game: Game, state: Any, forfeit: str | None = None, version: int = FORMAT_VERSION) -> str:
    return hashlib.sha256(state_key(game, state, forfeit, version)).hexdigest()


def seal(game: Game, state: Any, seat: str, version: int) -> str | None:
    """The seal of `seat`'s hidden part after its record, where the game has one (a
    running Domino duel, format 2); None where there is nothing to seal. Raises
    LookupError where a seal is due but this copy knows no seed to key it with (a
    player's copy before the reveal): such a copy cannot check it."""
    if version < 2:
        return None
    hidden = game.sealed_key(state, seat)
    if hidden is None:
        return None
    if game.seed is None:
        raise LookupError("no seed to key the seal with")
    return hmac.digest(_salt(game.seed), seat.encode() + b"|" + hidden, "sha256").hex()


@lru_cache(maxsize=16)
def _salt(seed: str) -> bytes:
    """The key of a game's seals, the same for every record of it: made once."""
    return hashlib.sha256(_SEAL_SALT + seed.encode()).digest()
