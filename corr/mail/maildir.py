"""The host's mail from a local Maildir (`corr host run --maildir DIR`).

Waiting messages are those in `new/`; a message taken moves to `cur/` (flag `S`), one
that cannot be handled to `bad/NAME` with `bad/NAME.reason` (one line: why). `bad/` is a
plain folder next to `new/` and `cur/`, not a Maildir++ folder (`.bad`): mail servers and
clients leave it alone, so the reason files are never taken for mail. Every move is a
rename followed by an fsync of the folders involved: at once for a message set aside,
once for all the messages of a pass taken to `cur/` (`settle`).
"""

from __future__ import annotations

import mailbox
import os
import time
from pathlib import Path
from typing import Callable

from corr.errors import UsageError
from corr.log.sidecars import write_bytes
from corr.log.store import sync_dir
from corr.mail.inbox import Incoming, in_order

#: The folder messages that cannot be handled are set aside in, and the suffix of the
#: file beside each that says why.
BAD = "bad"
REASON_SUFFIX = ".reason"


class MaildirInbox:
    """A Maildir's `new/` as the host's inbox."""

    def __init__(self, path: Path) -> None:
        if not (path / "new").is_dir() or not (path / "cur").is_dir():
            raise UsageError(f"{path} is not a Maildir (it needs new/ and cur/)")
        self.path = path
        self.label = path.name
        self._moved = False  # a message moved to cur/ since the folders were last fsynced

    def messages(self) -> list[Incoming]:
        """The messages in `new/`, each read (bounded, `read_bounded`) and parsed once.
        A file that cannot be read, or is no regular file, has None for its bytes."""
        from corr.mail.message import delivery_order, read_bounded, read_message

        colon = mailbox.Maildir.colon
        items = []
        for name in sorted(os.listdir(self.path / "new")):
            if name.startswith("."):
                continue
            path = self.path / "new" / name
            if not os.path.lexists(path):
                continue  # gone meanwhile (another reader took it)
            data = read_bounded(path)
            items.append(Incoming(name.split(colon)[0], data, read_message(data), handle=name))
        return in_order(items, lambda item: delivery_order(item.key))

    def done(self, item: Incoming) -> None:
        """Mark the message seen: `cur/NAME:2,S` (a rename, atomic, made durable by `settle`)."""
        colon = mailbox.Maildir.colon
        os.replace(self.path / "new" / item.handle, self.path / "cur" / f"{item.key}{colon}2,S")
        self._moved = True

    def settle(self) -> None:
        """fsync `cur/` and `new/` once for every message `done` moved since the last time."""
        if self._moved:
            sync_dir(self.path / "cur")
            sync_dir(self.path / "new")
            self._moved = False

    def set_aside(self, item: Incoming, reason: str) -> str:
        """Move the message to `bad/NAME`, the reason in `bad/NAME.reason`; the folder is
        made when first needed."""
        from corr.mail.message import flat

        if not os.path.lexists(self.path / "new" / item.handle):
            raise FileNotFoundError(f"{item.handle} is no longer in new/")
        bad = self.path / BAD
        if not bad.is_dir():
            bad.mkdir(exist_ok=True)
            sync_dir(self.path)
        write_bytes(bad / f"{item.key}{REASON_SUFFIX}", (flat(reason, 2000) + "\n").encode("utf-8"))
        os.replace(self.path / "new" / item.handle, bad / item.key)
        sync_dir(bad)
        sync_dir(self.path / "new")
        return f"in {BAD}/{item.key}, reason in {item.key}{REASON_SUFFIX}"

    def close(self) -> None:
        pass

    def wait(self, seconds: float, stopped: Callable[[], bool]) -> None:
        """Sleep until the next pass, looking every tenth of a second whether to stop."""
        deadline = time.monotonic() + seconds
        while not stopped():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(0.1, left))


def open_maildir(path: Path) -> MaildirInbox:
    """The Maildir at `path`, made when it is not there yet (the mail system delivers
    there; until then it is empty)."""
    if not path.exists():
        mailbox.Maildir(path, create=True)
    return MaildirInbox(path)
