"""Shared fixtures: run the CLI in-process, make games, freeze time."""

from __future__ import annotations

import email
import email.policy
import os
import socket
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from corr.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def corr(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run `corr ARGS...` in-process; returns exit code, stdout and stderr."""

    def run(*args: str | Path) -> Run:
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def game_file(tmp_path: Path, corr: Callable[..., Run]) -> Callable[..., Path]:
    """Make a new game log and play the given moves into it (each must be accepted)."""

    def make(*moves: str, game: str = "combat", players: int = 2, options: tuple[str, ...] = ()) -> Path:
        path = tmp_path / f"{game}.corr"
        args: list[str] = ["new", game, str(path)]
        for i in range(players):
            args += ["--player", "Anna Ben Cleo Dara".split()[i]]
        for opt in options:
            args += ["-o", opt]
        result = corr(*args, "--format", "json")
        assert result.code == 0, result.err
        for m in moves:
            result = corr("move", path, m, "--format", "none")
            assert result.code == 0, f"{m}: {result.err}"
        return path

    return make


class Inbox:
    """An aiosmtpd handler that keeps every envelope it receives."""

    def __init__(self) -> None:
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        self.envelopes.append(envelope)
        return "250 OK"

    def messages(self) -> list[tuple[list[str], EmailMessage]]:
        """(recipients, parsed message) of everything received so far."""
        return [
            (list(e.rcpt_tos), email.message_from_bytes(e.original_content, policy=email.policy.default))
            for e in self.envelopes
        ]

    def take_envelopes(self) -> list[Any]:
        """The envelopes received so far, as they came, forgetting them."""
        got = list(self.envelopes)
        self.envelopes.clear()
        return got

    def take(self) -> list[tuple[list[str], EmailMessage]]:
        """The messages received so far, forgetting them."""
        got = self.messages()
        self.envelopes.clear()
        return got


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server (aiosmtpd) on 127.0.0.1; yields its inbox and port."""
    with smtp_on_loopback() as served:
        yield served


@contextmanager
def smtp_on_loopback() -> Iterator[tuple[Inbox, int]]:
    """Run a real SMTP server (aiosmtpd) on 127.0.0.1 for the block: its inbox and port."""
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


#: Stored outputs the golden tests compare with; `CORR_UPDATE_GOLDEN=1 pytest` rewrites them.
GOLDEN = Path(__file__).parent / "golden"


def assert_golden(name: str, output: str) -> None:
    """`output` is exactly the stored golden file `name` (written anew with CORR_UPDATE_GOLDEN=1)."""
    golden = GOLDEN / name
    if os.environ.get("CORR_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(output, encoding="utf-8")
    assert golden.exists(), f"{golden.name} is missing: run CORR_UPDATE_GOLDEN=1 pytest"
    expected = golden.read_text(encoding="utf-8")
    assert output == expected, f"{golden.name} differs; if intended, regenerate with CORR_UPDATE_GOLDEN=1"
