"""Shared fixtures: run the CLI in-process, make games, freeze time."""

from __future__ import annotations

import email
import email.policy
import os
import socket
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

# Every run keeps its compiled templates and replayed positions apart from the user's
# (`corr.cache`), and every corr it starts inherits the folder.
os.environ.setdefault("CORR_CACHE_DIR", tempfile.mkdtemp(prefix="corr-test-cache-"))

from corr.cli import main  # noqa: E402

# A frozen clock is the tests' own: pytest's timer keeps the real one, so `--durations`
# and the run's total time stay true while a test freezes time.
import freezegun  # noqa: E402

freezegun.configure(extend_ignore_list=["_pytest.timing"])


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


def parse_message(data: bytes) -> EmailMessage:
    return email.message_from_bytes(data, policy=email.policy.default)  # type: ignore[return-value]


def decoded(raw: bytes) -> str:
    """A message as a reader could see it: every header decoded, every leaf part decoded
    (text by its charset, an attachment's bytes as UTF-8)."""
    out: list[str] = []
    for part in parse_message(raw).walk():  # the message itself first
        out += [f"{name}: {value}" for name, value in part.items()]
        if not part.is_multipart():
            data = part.get_payload(decode=True) or b""
            out.append(data.decode(part.get_content_charset() or "utf-8"))
    return "\n".join(out)


class MailHost:
    """A host's games folder, a Maildir and an SMTP config for the server on `port`;
    `run()` is one host pass and returns the messages it sent, by seat."""

    def __init__(self, root: Path, port: int, inbox: Inbox, log_name: str, seat_of: dict[str, str],
                 sender: str = "Host <host@example.org>") -> None:
        import mailbox

        from corr.mail import smtp

        self.games = root / "host"
        self.games.mkdir()
        self.maildir = root / "Maildir"
        mailbox.Maildir(self.maildir, create=True)
        config = root / "smtp.toml"
        config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{sender}"\ntimeout = 10\n')
        self.config = smtp.load_config(config)
        self.inbox = inbox
        self.path = self.games / log_name
        self.seat_of = seat_of
        self.said: list[str] = []
        self.replies: list[tuple[str, EmailMessage]] = []

    def dealer(self) -> Any:
        """The host's copy of the game, replayed (with the dealer's secret beside it)."""
        from corr import engine

        return engine.load(self.path)

    def run(self) -> dict[str, bytes]:
        """One pass; the messages it sent, by seat, as the bytes that left (refusal
        replies are kept in `self.replies`)."""
        from corr.mail import host as mail_host

        self.said.clear()
        self.replies = []
        mail_host.run_pass(self.maildir, self.games, self.config, echo=self.said.append)
        by_seat: dict[str, bytes] = {}
        for envelope in self.inbox.take_envelopes():
            (rcpt,) = envelope.rcpt_tos
            msg = parse_message(envelope.original_content)
            if msg["Auto-Submitted"] == "auto-replied":
                self.replies.append((rcpt, msg))
                continue
            assert self.seat_of[rcpt] not in by_seat, "one message per seat and pass"
            by_seat[self.seat_of[rcpt]] = envelope.original_content
        return by_seat


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


@pytest.fixture
def finished_games(tmp_path: Path) -> Path:
    """The finished example games, all five kinds, in a folder of their own."""
    import shutil

    folder = tmp_path / "games"
    folder.mkdir()
    for log in (Path(__file__).resolve().parent.parent / "examples").glob("*.corr"):
        shutil.copy(log, folder / log.name)
    return folder
