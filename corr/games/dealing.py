"""How a dealer deals: every hidden order a game has is a pure function of a seed.

The dealer (the game's creator, `DEALER` in records) keeps the seed secret until the
reveal (`corr.engine.dealer`); games deal from it with `shuffle` and `draw`, so anyone holding
the revealed seed deals the same cards in the same order.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Iterable, Sequence, TypeVar

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


def shuffles(seed: str, orders: Iterable[tuple[str, Sequence[T]]]) -> list[list[T]]:
    """`shuffle(seed, items, label)` of each (label, items), their draws hashed in one go.

    A shuffle of n items takes draws 0..n-2 of its label unless one is rejected; a draw
    below 2**64 - n is below the biased top of every range up to n, so when every draw
    is, they are the shuffles' draws as they stand. Otherwise each shuffle deals on its
    own. A Domino deal is dealt again on every load, and its grid is seven shuffles."""
    outs = [(label, list(items)) for label, items in orders]
    head = seed.encode()
    sha256, from_bytes = hashlib.sha256, int.from_bytes
    values = []
    for label, out in outs:  # each draw's text: the label's bytes, then k spelt once for all
        prefix = b"%b|%b|" % (head, label.encode())
        values += [from_bytes(sha256(prefix + k).digest()[:8], "big") for k in _counters(len(out) - 1)]
    if values and max(values) >= _TOP - max(len(out) for _, out in outs):
        return [shuffle(seed, out, label) for label, out in outs]
    dealt = iter(values)
    for _, out in outs:
        for i, value in zip(range(len(out) - 1, 0, -1), dealt):
            j = value % (i + 1)
            out[i], out[j] = out[j], out[i]
    return [out for _, out in outs]


#: b"0", b"1", ...: the numbers of the draws as their texts end, spelt once.
_COUNTERS = [b"%d" % k for k in range(128)]


def _counters(n: int) -> list[bytes]:
    """The texts of k = 0 .. n-1, as `b"%d" % k` spells them."""
    return _COUNTERS[:n] if 0 <= n <= len(_COUNTERS) else [b"%d" % k for k in range(n)]


def draws(seed: str, label: str, expected: int = 0) -> Callable[[int], int]:
    """`draw` one number after another: each call takes a span and returns the next
    number in `range(span)`, as threading k through `draw` from 0 would.

    A Domino deal's peel draws some fifty and is dealt again on every load: the label's
    bytes are made once, and the first `expected` draws are hashed up front in one go.
    A draw below 2**64 - span is below the biased top of its range, so it is taken as
    it stands; any other goes through `_pick` from its k, rejection and all."""
    prefix = f"{seed}|{label}|".encode()
    label_hashed, from_bytes = hashlib.sha256(prefix), int.from_bytes
    ahead = []
    for k in range(expected):  # each from a copy of the label's bytes hashed: a quarter quicker
        drawn = label_hashed.copy()
        drawn.update(b"%d" % k)
        ahead.append(from_bytes(drawn.digest()[:8], "big"))
    k = 0

    def number(span: int) -> int:
        nonlocal k
        if k < expected and span > 0:
            value = ahead[k]
            if value < _TOP - span:
                k += 1
                return value % span
        value, k = _pick(prefix, span, k)
        return value

    return number
