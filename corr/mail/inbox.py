"""Where the host's mail comes from: one interface for a Maildir and an IMAP mailbox.

A pass asks its inbox for the waiting messages, ingests each, and only then tells the
inbox it is `done` with it (a Maildir moves it to `cur/`, an IMAP mailbox to its done
folder) or `set_aside` (a message that cannot be handled at all, kept with its reason).
A host killed between the two finds the message waiting again on its next pass, and
ingesting a message twice changes nothing: every message is taken exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any, Callable, Protocol


@dataclass
class Incoming:
    """One waiting message: `key` names it in the host's lines (a Maildir key, an IMAP
    UID), `data` its bytes (at most MAX_MESSAGE + 1 of them, None when they cannot be
    read), `parsed` what `message.read_message` made of them, `handle` the inbox's own."""

    key: str
    data: bytes | None
    parsed: EmailMessage | BaseException
    handle: Any = None


class Inbox(Protocol):
    """A source of mail for `host.run_pass`."""

    #: How the host's lines name a message of this inbox: `f"{label}/{key}"`.
    label: str

    def messages(self) -> list[Incoming]:
        """The waiting messages, in the order to take them: by the Subject's seq, then
        as they were delivered."""
        ...

    def done(self, item: Incoming) -> None:
        """The message is taken (or refused): it is not offered again."""
        ...

    def set_aside(self, item: Incoming, reason: str) -> str:
        """Keep a message that cannot be handled apart, with `reason`; says where."""
        ...

    def settle(self) -> None:
        """Make what `done` did to the messages of a pass durable, once for them all (a
        crash before finds them waiting again, which changes nothing)."""
        ...

    def close(self) -> None:
        """End the pass's hold on the mailbox."""
        ...

    def wait(self, seconds: float, stopped: Callable[[], bool]) -> None:
        """Wait for the next pass: `seconds` at most, less when `stopped()` or new mail
        says so."""
        ...


def in_order(items: list[Incoming], delivered: Any) -> list[Incoming]:
    """Messages by the Subject's seq, then by `delivered(item)`: the reply to an earlier
    move is taken before the reply to a later one whatever order they arrived in."""
    from corr.mail.message import seq_key

    return sorted(items, key=lambda item: (seq_key(item.parsed), delivered(item)))
