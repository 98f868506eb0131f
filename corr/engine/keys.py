"""Who signs which records of a game, by the keys its header names (DESIGN 6).

A seat with a key signs its own records. The referee and the host sign their rulings.
The dealer's records are signed with the host's key when a game with hidden
information names a host. From format 2 on, a game that names a host is vouched for
by it: every record its seat does not sign itself (a keyless seat's move, the dealer's
reveal, a timeout, a comment) carries the host's signature, so a player's copy takes
no record that neither its seat nor the host signed.
"""

from __future__ import annotations

from corr.games.dealing import DEALER
from corr.log.lines import Header

#: The format from which a host vouches for every record of its games.
VOUCHED_FROM = 2


def seat_keys(header: Header) -> dict[str, str]:
    """Seat -> public key, for the seats whose records must be signed."""
    return {s.seat: s.key for s in header.seats if s.key}


def official_keys(header: Header) -> dict[str, str]:
    """"referee" / "host" -> public key, for the officials the header names: their
    rulings are always signed."""
    keys = {}
    if header.referee is not None:
        keys["referee"] = header.referee.key
    if header.host is not None:
        keys["host"] = header.host.key
    return keys


def dealer_keys(header: Header) -> dict[str, str]:
    """"dealer" -> the host's public key, when a game with hidden information names a
    host: the dealer's records are then signed with it."""
    if header.commitment is None or header.host is None:
        return {}
    return {DEALER: header.host.key}


def vouched(header: Header) -> bool:
    """Whether the host signs every record its seat does not sign itself."""
    return header.host is not None and header.corr >= VOUCHED_FROM


def signer_of(header: Header, by: str) -> tuple[str, str] | None:
    """(who, public key) that must sign a record made by `by`: the seat itself, the
    official, the host for the dealer; in a vouched game the host for everyone else.
    None when the record goes unsigned."""
    return _signer(header, by, seat_keys(header), official_keys(header), dealer_keys(header))


def _signer(header: Header, by: str, seats: dict[str, str], officials: dict[str, str],
            dealer: dict[str, str]) -> tuple[str, str] | None:
    """`signer_of`, given the header's keys by role."""
    own = seats.get(by) or officials.get(by) or dealer.get(by)
    if own is not None:
        return (by if by != DEALER else "host", own)
    if vouched(header):
        return ("host", header.host.key)  # type: ignore[union-attr]  # vouched() checked it
    return None


def signers(header: Header) -> dict[str, tuple[str, str] | None]:
    """`signer_of` for everyone who can make a record of this game, looked up once: the
    keys by role read once for all of them (every log read asks)."""
    actors = [s.seat for s in header.seats] + ["referee", "host", DEALER]
    seats, officials, dealer = seat_keys(header), official_keys(header), dealer_keys(header)
    return {by: _signer(header, by, seats, officials, dealer) for by in actors}


def authors(header: Header) -> frozenset[str]:
    """Who can make a record of this game: its seats, and the referee, the host and the
    dealer where the header names them (a dealer: where something is hidden)."""
    roles = [role for role, named in (("referee", header.referee), ("host", header.host),
                                      (DEALER, header.commitment)) if named is not None]
    return frozenset([s.seat for s in header.seats] + roles)
