"""How a dealer deals: every hidden order a game has is a pure function of a seed.

The dealer (the game's creator, `DEALER` in records) keeps the seed secret until the
reveal (`corr.engine.dealer`); games deal from it with `shuffle` and `draw`, so anyone holding
the revealed seed deals the same cards in the same order.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Sequence, TypeVar

#: The one seat-like name the dealer acts under in records (`by`).
DEALER = "dealer"
T = TypeVar("T")


def shuffle(seed: str, items: Sequence[T], label: str) -> list[T]:
    """`items` in the order the seed deals them (Fisher-Yates).

    Draw k (counting from 0) is the first 8 bytes, big-endian, of
    SHA-256(`seed|label|k`), taken modulo the range; draws that would bias the modulo
    are rejected and the next k is used. Anyone holding the revealed seed can deal the
    same way; `label` keeps different shuffles of one game apart ("deck", "digits").
    """
    out = list(items)
    k = 0
    for i in range(len(out) - 1, 0, -1):
        j, k = draw(seed, label, i + 1, k)
        out[i], out[j] = out[j], out[i]
    return out


def draw(seed: str, label: str, span: int, k: int = 0) -> tuple[int, int]:
    """A number in `range(span)` from the seed's draws k, k+1, ..., and the k to go on from.

    The draws are `shuffle`'s (the first 8 bytes, big-endian, of SHA-256(`seed|label|k`),
    modulo `span`, biased draws rejected), so a caller that needs numbers one at a time,
    each range known only after the last choice, deals as reproducibly as a shuffle.
    Threading k through the calls keeps every number of one `label` a fresh draw.
    """
    return _pick(f"{seed}|{label}|".encode(), span, k)


#: 2**64: a draw is 64 bits
_TOP = 1 << 64


def _pick(prefix: bytes, span: int, k: int) -> tuple[int, int]:
    """`draw` from the label's bytes `prefix` (`seed|label|`): the number and the next k."""
    if span < 1:
        raise ValueError(f"cannot draw from an empty range (span {span})")
    limit = _TOP - _TOP % span
    sha256, from_bytes = hashlib.sha256, int.from_bytes
    while True:
        value = from_bytes(sha256(prefix + b"%d" % k).digest()[:8], "big")
        k += 1
        if value < limit:  # else biased: rejected
            return value % span, k


def draws(seed: str, label: str) -> Callable[[int], int]:
    """`draw` one number after another: each call takes a span and returns the next
    number in `range(span)`, as threading k through `draw` from 0 would.
    A Domino deal's peel draws some fifty and is dealt again on every load: the
    label's bytes are made once and k counts inside."""
    prefix = f"{seed}|{label}|".encode()
    k = 0

    def number(span: int) -> int:
        nonlocal k
        value, k = _pick(prefix, span, k)
        return value

    return number
