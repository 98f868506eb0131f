"""`corr host run --imap`: the host reads a real IMAP mailbox (Dovecot on 127.0.0.1,
started by the tests) and mails through a real SMTP server (aiosmtpd). Replies are
APPENDed to the mailbox as a mail server would deliver them; nothing is mocked."""

from __future__ import annotations

import email
import email.policy
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from dovecot import PASSWORD, PLAIN_CAPABILITY, USER, Dovecot, dovecot
from test_host import EMAILS, HOST, PLAYERS, legal, reply

from corr import engine
from corr.mail import imap


@pytest.fixture
def server() -> Iterator[Dovecot]:
    with dovecot() as running:
        yield running


class Setup:
    """A games folder, an SMTP config, an IMAP config and a hosted 3-player Combat game."""

    def __init__(self, tmp_path: Path, corr: Any, smtp: tuple[Any, int], server: Dovecot) -> None:
        self.corr, self.server = corr, server
        self.outbox, port = smtp
        self.games = tmp_path / "games"
        self.games.mkdir()
        self.smtp = tmp_path / "smtp.toml"
        self.smtp.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\ntimeout = 10\n')
        (tmp_path / "imap-pass").write_text(PASSWORD + "\n")
        self.imap = tmp_path / "imap.toml"
        self.imap.write_text(
            f'[imap]\nhost = "127.0.0.1"\nport = {server.port}\ntls = "none"\nusername = "{USER}"\n'
            f'password_file = "{tmp_path / "imap-pass"}"\ntimeout = 10\n')
        self.path = self.games / "game.corr"
        args: list[Any] = ["new", "combat", self.path, "--format", "none"]
        for player in PLAYERS:
            args += ["-p", player]
        assert corr(*args).code == 0
        self.id = engine.load(self.path).header.id

    def run(self, *extra: Any) -> Any:
        return self.corr("host", "run", "--imap", self.imap, "--games", self.games, "--smtp", self.smtp, "--once",
                         *extra)

    def argv(self, *extra: str) -> list[str]:
        return [sys.executable, "-m", "corr", "host", "run", "--imap", str(self.imap), "--games", str(self.games),
                "--smtp", str(self.smtp), *extra]

    def move_reply(self, message_id: str) -> tuple[str, bytes]:
        """The seat on turn's reply with its first legal move, as bytes to APPEND."""
        seat, moves = legal(self.corr, self.path)
        msg = reply(self.id, engine.load(self.path).seq, PLAYERS["ABC".index(seat)], moves[0] + "\n", message_id)
        return moves[0], msg.as_bytes()


@pytest.fixture
def hosted(tmp_path: Path, corr: Any, smtp_server: Any, server: Dovecot) -> Setup:
    return Setup(tmp_path, corr, smtp_server, server)


def subjects(raw: list[bytes]) -> list[str]:
    return [str(email.message_from_bytes(m, policy=email.policy.default)["Subject"]) for m in raw]


def test_a_reply_appended_to_the_mailbox_is_played_by_one_pass_and_moved_to_done(hosted: Setup) -> None:
    r = hosted.run()
    assert r.code == 0, r.err
    assert r.out.count("mailed seat") == 3  # the new game announced
    hosted.outbox.take()
    move, data = hosted.move_reply("<imap-1@example.org>")
    hosted.server.append(data)
    r = hosted.run()
    assert r.code == 0, r.err
    assert f"played seq 1 A {move}" in r.out and "INBOX/" in r.out
    assert engine.load(hosted.path).seq == 1
    assert hosted.server.messages("INBOX") == []
    (done,) = hosted.server.messages("corr.done")  # "corr/done" in the server's own spelling
    assert b"<imap-1@example.org>" in done
    got = hosted.outbox.take()
    assert sorted(rcpt[0] for rcpt, _ in got) == sorted(EMAILS.values())
    # The message is taken once: the next pass finds nothing to do.
    r = hosted.run()
    assert r.code == 0 and r.out == "" and engine.load(hosted.path).seq == 1


def test_garbage_goes_to_the_bad_folder_whole_with_a_note_and_the_pass_goes_on(hosted: Setup) -> None:
    hosted.run()
    hosted.outbox.take()
    nested = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (n, n) for n in range(40))
    garbage = b"From: x@example.org\r\nSubject: deep\r\n" + nested
    huge = (b"From: y@example.org\r\nSubject: big\r\nMessage-ID: <huge@example.org>\r\n\r\n"
            + b"x" * (4 * 1024 * 1024 + 10) + b"\r\n")
    hosted.server.append(garbage)
    hosted.server.append(huge)
    move, data = hosted.move_reply("<imap-after@example.org>")
    hosted.server.append(data)
    r = hosted.run()
    assert r.code == 1
    assert "set aside in the folder corr/bad" in r.err
    assert f"played seq 1 A {move}" in r.out  # the good message after them is taken
    assert hosted.server.messages("INBOX") == []
    bad = hosted.server.messages("corr.bad")
    notes = [m for m in bad if m.startswith(b"From: corr host") or b"X-Corr-Reason:" in m[:2000]]
    kept = [m for m in bad if m not in notes]
    assert len(notes) == 2 and len(kept) == 2
    assert max(len(m) for m in kept) > 4 * 1024 * 1024  # the big one whole, never cut
    assert all(subject.startswith("corr: set aside") for subject in subjects(notes))
    assert any(b"too big" in m or b"over" in m for m in notes)


def test_config_mistakes_are_one_line_errors_that_touch_nothing(hosted: Setup, tmp_path: Path) -> None:
    cases = {
        'host = "imap.example.org"\nusername = "u"\ntls = "none"\npassword_env = "X"\n': "loopback",
        'host = "127.0.0.1"\nusername = "u"\ntls = "sometimes"\n': "tls should be one of",
        'host = "127.0.0.1"\nusername = "u"\npassword = "p"\n': "password_env or password_file",
        'host = "127.0.0.1"\nusername = "u"\nfolders = "x"\n': "unknown key 'folders'",
        'host = "127.0.0.1"\n': "username is missing",
        'host = "127.0.0.1"\nusername = "u"\ndone_folder = "INBOX"\n': "three different folders",
        "host = [": "not valid TOML",
    }
    before = hosted.path.read_bytes()
    for text, said in cases.items():
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        r = hosted.corr("host", "run", "--imap", bad, "--games", hosted.games, "--smtp", hosted.smtp, "--once")
        assert r.code == 1 and said in r.err and len(r.err.strip().splitlines()) == 1, (text, r.err)
    r = hosted.corr("host", "run", "--games", hosted.games, "--smtp", hosted.smtp, "--once")
    assert r.code == 1 and "--maildir DIR or --imap CONFIG" in r.err
    assert hosted.path.read_bytes() == before


def test_a_wrong_password_or_a_dead_server_is_said_and_the_games_still_get_their_mail(
        hosted: Setup, tmp_path: Path) -> None:
    (tmp_path / "imap-pass").write_text("wrong\n")
    r = hosted.run()
    assert r.code == 1
    assert "refused the login of host@example.org" in r.out  # said on the pass's line
    assert r.out.count("mailed seat") == 3  # the new game was announced all the same
    dead = tmp_path / "dead.toml"
    from conftest import free_port

    dead.write_text(f'host = "127.0.0.1"\nport = {free_port()}\ntls = "none"\nusername = "u"\n'
                    'password_env = "HOME"\ntimeout = 2\n')
    r = hosted.corr("host", "run", "--imap", dead, "--games", hosted.games, "--smtp", hosted.smtp, "--once")
    assert r.code == 1 and "cannot reach the IMAP server 127.0.0.1" in r.out


def test_a_server_without_move_gets_copy_and_expunge(tmp_path: Path, corr: Any, smtp_server: Any) -> None:
    with dovecot(PLAIN_CAPABILITY) as plain:
        hosted = Setup(tmp_path, corr, smtp_server, plain)
        with plain.client() as client:
            assert not client.has_capability("MOVE") and not client.has_capability("IDLE")
        move, data = hosted.move_reply("<copy@example.org>")
        plain.append(data)
        r = hosted.run()
        assert r.code == 0, r.err
        assert f"played seq 1 A {move}" in r.out
        assert plain.messages("INBOX") == [] and len(plain.messages("corr.done")) == 1


@contextmanager
def looping(hosted: Setup, interval: str) -> Iterator[subprocess.Popen[str]]:
    """`corr host run` in a loop for the block, stopped by SIGTERM after it (killed if it
    does not stop); its output in `proc.said` = (out, err)."""
    proc = subprocess.Popen(hosted.argv("--interval", interval), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        yield proc
        proc.send_signal(signal.SIGTERM)
        proc.said = proc.communicate(timeout=10)  # type: ignore[attr-defined]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def until_played(hosted: Setup, proc: subprocess.Popen[str], seq: int) -> float:
    """Wait (20 s at most) until the log reaches `seq`; how long that took."""
    started = time.monotonic()
    while time.monotonic() < started + 20 and engine.load(hosted.path).seq < seq:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    assert engine.load(hosted.path).seq == seq
    return time.monotonic() - started


def test_the_loop_wakes_on_new_mail_with_idle(hosted: Setup) -> None:
    """With IDLE a reply is taken as it arrives, long before the next timed pass."""
    with looping(hosted, "600") as proc:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(hosted.outbox.envelopes) < 3:
            time.sleep(0.05)
        assert len(hosted.outbox.envelopes) == 3  # the first pass announced the game
        time.sleep(0.5)  # the host is now waiting in IDLE
        move, data = hosted.move_reply("<idle@example.org>")
        hosted.server.append(data)
        assert until_played(hosted, proc, 1) < 15  # not the 600 s interval
    out, err = proc.said  # type: ignore[attr-defined]
    assert proc.returncode == 0, err
    assert f"played seq 1 A {move}" in out and "stopped by SIGTERM" in out


def test_the_loop_polls_a_server_without_idle(tmp_path: Path, corr: Any, smtp_server: Any) -> None:
    with dovecot(PLAIN_CAPABILITY) as plain:
        hosted = Setup(tmp_path, corr, smtp_server, plain)
        with looping(hosted, "0.3") as proc:
            time.sleep(0.5)
            move, data = hosted.move_reply("<poll@example.org>")
            plain.append(data)
            until_played(hosted, proc, 1)
        out, err = proc.said  # type: ignore[attr-defined]
        assert proc.returncode == 0, err
        assert f"played seq 1 A {move}" in out


def test_a_host_killed_at_any_moment_takes_every_message_exactly_once(hosted: Setup) -> None:
    """kill -9 at a random moment of a pass, again and again; then one whole pass. Every
    reply is played once, every message ends in the done folder once, nobody is told a
    move was refused."""
    import random

    rng = random.Random(2026)
    assert hosted.run().code == 0
    hosted.outbox.take()
    played = []
    for round_no in range(6):
        move, data = hosted.move_reply(f"<kill-{round_no}@example.org>")
        hosted.server.append(data)
        played.append(move)
        for _ in range(3):
            proc = subprocess.Popen(hosted.argv("--once"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.05, 0.6))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        r = hosted.run()
        assert r.code == 0, r.err
        assert engine.load(hosted.path).seq == round_no + 1
    assert hosted.server.messages("INBOX") == []
    done = hosted.server.messages("corr.done")
    ids = sorted(m.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode() for m in done)
    assert ids == sorted(f"<kill-{n}@example.org>" for n in range(6))
    rep = engine.load(hosted.path)
    assert [r.move for r in rep.log.records if r.type == "move"] == played
    refused = [m for _, m in hosted.outbox.take() if "refused" in str(m["Subject"]).lower()]
    assert refused == []


def test_folder_names_are_spelt_with_the_servers_separator(hosted: Setup) -> None:
    config = imap.load_config(hosted.imap)
    config.done_folder, config.bad_folder = "games/taken", "games/refused"
    inbox = imap.ImapInbox(config)
    try:
        assert inbox.messages() == []
        assert inbox.folders == {"folder": "INBOX", "done": "games.taken", "bad": "games.refused"}
    finally:
        inbox.close()
    with hosted.server.client() as client:
        assert client.folder_exists("games.taken") and client.folder_exists("games.refused")


@pytest.mark.parametrize("tls", ["implicit", "starttls"])
def test_tls_implicit_and_starttls_with_the_server_s_own_ca(tmp_path: Path, corr: Any, smtp_server: Any,
                                                           tls: str) -> None:
    """The host talks TLS as a provider wants it: implicit (port 993's way) or STARTTLS,
    the certificate checked against `ca_file`; without that CA the connection is refused
    on one line, and nothing is read."""
    with dovecot(tls=True) as secure:
        hosted = Setup(tmp_path, corr, smtp_server, secure)
        port = secure.tls_port if tls == "implicit" else secure.port
        settings = (f'[imap]\nhost = "127.0.0.1"\nport = {port}\ntls = "{tls}"\nusername = "{USER}"\n'
                    f'password_file = "{tmp_path / "imap-pass"}"\ntimeout = 10\n')
        hosted.imap.write_text(settings)
        move, data = hosted.move_reply("<tls@example.org>")
        secure.append(data)
        r = hosted.run()
        assert r.code == 1 and "CERTIFICATE_VERIFY_FAILED" in r.out  # a CA nobody trusts
        assert engine.load(hosted.path).seq == 0
        hosted.imap.write_text(settings + f'ca_file = "{secure.ca}"\n')
        r = hosted.run()
        assert r.code == 0, r.err
        assert f"played seq 1 A {move}" in r.out and secure.messages("INBOX") == []
