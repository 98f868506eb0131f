"""The host's outbox (corr.mail.outbox), with real parts: a real SMTP server (aiosmtpd on
127.0.0.1) that accepts, refuses (4xx, 5xx) or drops the connection as a test tells it,
and counts its connections; real games, a real Maildir, a real killed process. What is
held: every message is written before it is sent, one connection a pass, nothing lost,
nothing sent twice, each refused message waits longer after each try, and is given up
into failed/ after three days."""

from __future__ import annotations

import json
import mailbox
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import free_port, parse_message
from corr import clock
from corr.mail import host as mail_host
from corr.mail import outbox, smtp

PLAYERS = ("Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>")
ANNA, BEN, CLEO = "anna@example.org", "ben@example.org", "cleo@example.org"


class Server:
    """An aiosmtpd handler: refuses the recipients in `refuse` with their reply, drops the
    connection at the recipients in `drop` (once each), accepts the rest; counts EHLOs,
    one a connection."""

    def __init__(self) -> None:
        self.connections = 0
        self.accepted: list[tuple[str, EmailMessage]] = []
        self.refuse: dict[str, str] = {}
        self.drop: set[str] = set()

    async def handle_EHLO(self, server, session, envelope, hostname, responses):  # type: ignore[no-untyped-def]
        self.connections += 1
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # type: ignore[no-untyped-def]
        if address in self.drop:
            self.drop.discard(address)
            server.transport.close()
            return "421 4.3.2 going away"
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        for rcpt in envelope.rcpt_tos:
            self.accepted.append((rcpt, parse_message(envelope.original_content)))
        return "250 OK"

    def take(self) -> list[str]:
        """The recipients of what was accepted since the last take, sorted."""
        got = sorted(rcpt for rcpt, _ in self.accepted)
        self.accepted.clear()
        return got


class Host:
    """A games folder, a Maildir and SMTP settings for the server on `port`."""

    def __init__(self, root: Path, port: int, corr: Any) -> None:
        self.root, self.corr = root, corr
        self.games = root / "games"
        self.games.mkdir()
        self.maildir = root / "Maildir"
        mailbox.Maildir(self.maildir, create=True)
        self.config_file = root / "smtp.toml"
        self.config_file.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Host <host@example.org>"\n'
                                    "timeout = 10\n")
        self.said: list[str] = []

    def game(self, name: str = "game") -> Path:
        path = self.games / f"{name}.corr"
        args: list[Any] = ["new", "combat", path]
        for p in PLAYERS:
            args += ["-p", p]
        r = self.corr(*args, "--format", "none")
        assert r.code == 0, r.err
        return path

    def run(self, now: datetime | None = None, port: int | None = None) -> mail_host.PassReport:
        """One pass at `now` (to the server on `port`, when given); its lines in `said`."""
        config = smtp.load_config(self.config_file, port=port)
        self.said = []
        return mail_host.run_pass(self.maildir, self.games, config, echo=self.said.append, now=now)

    def box(self) -> Path:
        return self.games / outbox.OUTBOX

    def waiting(self) -> list[str]:
        return sorted(os.listdir(self.box() / outbox.NEW))

    def tries(self, name: str) -> dict[str, Any]:
        return json.loads((self.box() / outbox.TRIES / f"{name}.json").read_text())


@pytest.fixture
def server() -> Iterator[tuple[Server, int]]:
    from aiosmtpd.controller import Controller

    handler = Server()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


@pytest.fixture
def host(tmp_path: Path, corr: Any, server: tuple[Server, int]) -> Host:
    return Host(tmp_path, server[1], corr)


def test_a_pass_sends_all_its_mail_over_one_connection_and_none_when_nothing_is_due(host, server):  # type: ignore[no-untyped-def]
    smtpd, _ = server
    for n in range(4):
        host.game(f"g{n}")
    report = host.run()
    assert (report.mailed, report.sent, report.queued, report.failures) == (12, 12, 0, [])
    assert smtpd.connections == 1
    assert smtpd.take() == sorted([ANNA, BEN, CLEO] * 4)
    assert host.waiting() == []
    again = host.run()
    assert (again.sent, again.queued, smtpd.connections) == (0, 0, 1)  # nothing due: no connection


@pytest.mark.parametrize("refusal", ["451 4.3.0 try again later", "550 5.1.1 no such mailbox"])
def test_a_refused_message_waits_a_minute_then_twice_as_long_and_goes_once(host, server, corr, refusal):  # type: ignore[no-untyped-def]
    smtpd, _ = server
    host.game()
    smtpd.refuse[BEN] = refusal
    t0 = clock.now()
    first = host.run(t0)
    assert (first.sent, first.queued) == (2, 1) and smtpd.take() == [ANNA, CLEO]
    (line,) = [s for s in host.said if s.startswith("outbox:")]
    assert "could not send the message to Ben <ben@example.org>" in line and refusal.split()[0] in line
    assert "(try 1, next at" in line and first.failures == [line]
    (name,) = host.waiting()
    assert host.tries(name)["tries"] == 1 and host.tries(name)["next"] == clock.stamp(t0 + timedelta(minutes=1))

    early = host.run(t0 + timedelta(seconds=59))  # not due: not even a connection
    assert (early.sent, early.queued, early.failures, smtpd.connections) == (0, 1, [], 1)
    second = host.run(t0 + timedelta(minutes=1))
    assert (second.sent, smtpd.connections) == (0, 2)
    assert host.tries(name)["next"] == clock.stamp(t0 + timedelta(minutes=3))  # 2 minutes after the second

    listed = corr("host", "outbox", "--games", host.games)
    assert listed.code == 0 and "1 waiting in" in listed.out and "To: Ben <ben@example.org>" in listed.out
    assert "2 tries, next " in listed.out and refusal.split()[0] in listed.out and "0 given up" in listed.out
    data = json.loads(corr("host", "outbox", "--games", host.games, "--json").out)
    assert [(w["to"], w["tries"], w["next_try"]) for w in data["waiting"]] == [
        ("Ben <ben@example.org>", 2, clock.stamp(t0 + timedelta(minutes=3)))]
    assert data["failed"] == []

    del smtpd.refuse[BEN]
    assert host.run(t0 + timedelta(minutes=2)).sent == 0  # still waiting its turn
    third = host.run(t0 + timedelta(minutes=3))
    assert (third.sent, third.queued, third.failures) == (1, 0, [])
    assert smtpd.take() == [BEN]
    assert host.waiting() == [] and os.listdir(host.box() / outbox.TRIES) == []
    for later in (5, 60, 600):
        assert host.run(t0 + timedelta(minutes=later)).sent == 0
    assert smtpd.take() == [] and smtpd.connections == 3


def test_the_wait_doubles_up_to_four_hours() -> None:
    assert [outbox.wait_after(n) for n in (1, 2, 3, 8)] == [timedelta(minutes=m) for m in (1, 2, 4, 128)]
    assert outbox.wait_after(9) == outbox.wait_after(500) == timedelta(hours=4)


def test_a_message_refused_for_three_days_is_given_up_into_failed(host, server, corr):  # type: ignore[no-untyped-def]
    smtpd, _ = server
    host.game()
    smtpd.refuse[BEN] = "550 5.1.1 no such mailbox"
    t0 = clock.now()
    when, passes = t0, 0
    while True:
        report = host.run(when)
        passes += 1
        if report.failed:
            break
        (name,) = host.waiting()
        when = datetime.strptime(host.tries(name)["next"], outbox.STAMP).replace(tzinfo=t0.tzinfo)
        assert passes < 60
    assert when - t0 >= outbox.GIVE_UP and when - t0 < outbox.GIVE_UP + outbox.MAX_WAIT
    assert smtpd.connections == passes  # one connection each try, none between
    (line,) = [s for s in host.said if s.startswith("outbox:")]
    assert line.startswith("outbox: gave up the message to Ben <ben@example.org>") and "550" in line
    assert report.failures == [line] and report.queued == 0 and host.waiting() == []
    failed = sorted(os.listdir(host.box() / outbox.FAILED))
    assert failed == [name, f"{name}{outbox.REASON_SUFFIX}"]
    reason = (host.box() / outbox.FAILED / f"{name}{outbox.REASON_SUFFIX}").read_text()
    assert reason.startswith(f"not sent after {passes} tries since {clock.stamp(t0)}") and reason.count("\n") == 1
    assert parse_message((host.box() / outbox.FAILED / name).read_bytes())["To"] == "Ben <ben@example.org>"
    listed = corr("host", "outbox", "--games", host.games)
    assert "0 waiting" in listed.out and "1 given up" in listed.out and "not sent after" in listed.out
    assert host.run(when + timedelta(days=1)).sent == 0 and smtpd.connections == passes
    assert smtpd.take() == [ANNA, CLEO]  # Ben's never went


def test_a_dropped_connection_stops_the_pass_and_nothing_is_lost_or_sent_twice(host, server):  # type: ignore[no-untyped-def]
    smtpd, _ = server
    host.game()
    smtpd.drop.add(BEN)  # the server hangs up at Ben's message, the second of three
    t0 = clock.now()
    first = host.run(t0)
    assert (first.sent, first.queued, smtpd.connections) == (1, 2, 1)
    assert smtpd.take() == [ANNA]
    (line,) = first.failures
    assert line.startswith("outbox: could not send the message to Ben") and "lost the SMTP server" in line
    assert [s for s in host.said if s.startswith("outbox:")] == [line]  # Cleo's was not tried: no line
    second = host.run(t0 + timedelta(seconds=1))  # Cleo's is due, Ben's waits its minute
    assert (second.sent, second.queued, smtpd.connections) == (1, 1, 2) and smtpd.take() == [CLEO]
    third = host.run(t0 + timedelta(minutes=1))
    assert (third.sent, third.queued, smtpd.connections) == (1, 0, 3) and smtpd.take() == [BEN]
    assert host.run(t0 + timedelta(hours=1)).sent == 0 and smtpd.take() == []


def test_a_message_written_to_the_outbox_by_a_pass_killed_before_sending_goes_with_the_next(host, server):  # type: ignore[no-untyped-def]
    """The pass is killed while it waits for a server that answers nothing: the game
    counts as mailed, its messages are in the outbox, and the next pass sends each once."""
    smtpd, port = server
    path = host.game()
    mute = socket.socket()
    mute.bind(("127.0.0.1", 0))
    mute.listen()
    reached = threading.Event()
    held: list[socket.socket] = []

    def hold() -> None:
        conn, _ = mute.accept()
        held.append(conn)
        reached.set()

    threading.Thread(target=hold, daemon=True).start()
    config = host.root / "mute.toml"
    config.write_text(host.config_file.read_text().replace(f"port = {port}", f"port = {mute.getsockname()[1]}"))
    proc = subprocess.Popen([sys.executable, "-m", "corr", "host", "run", "--maildir", str(host.maildir),
                             "--games", str(host.games), "--smtp", str(config), "--once"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert reached.wait(120), "the pass never reached the server"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(60)
        for conn in held:
            conn.close()
        mute.close()
    assert proc.returncode == -signal.SIGKILL
    assert len(host.waiting()) == 3 and smtpd.take() == []
    assert json.loads(mail_host.host_path(path).read_text())["mailed"] == {"A": 0, "B": 0, "C": 0}
    report = host.run()
    assert (report.mailed, report.sent, report.queued) == (0, 3, 0)
    assert smtpd.take() == [ANNA, BEN, CLEO] and host.run().sent == 0 and smtpd.take() == []
    assert os.listdir(host.box() / outbox.TMP) == []


def test_a_pass_killed_before_noting_what_it_mailed_puts_each_message_in_the_outbox_once(host, server):  # type: ignore[no-untyped-def]
    """Killed after writing to the outbox but before FILE.host.json: the next pass mails
    the game again, and finds each message waiting already."""
    smtpd, _ = server
    path = host.game()
    down = host.run(port=free_port())
    assert (down.mailed, down.queued) == (3, 3)
    mail_host.host_path(path).unlink()  # as if the pass had died before writing it
    Path(f"{path}{mail_host.IDLE_SUFFIX}").unlink()
    again = host.run()
    assert (again.mailed, again.sent, again.queued) == (3, 3, 0)
    assert smtpd.take() == [ANNA, BEN, CLEO]



def test_a_game_s_messages_are_kept_with_one_fsync_of_new_before_its_state_counts_them(host, server, monkeypatch):  # type: ignore[no-untyped-def]
    """The three seats' messages of a position are renamed into new/ and the folder
    fsynced once for them all, and that before FILE.host.json says they were mailed
    and before any of them is sent: a crash right after the state is written finds each
    of them in new/."""
    from corr.log import store

    events: list[tuple[str, Any]] = []
    real_replace, real_sync, real_state = os.replace, store.sync_dir, mail_host.write_state

    def replace(src: Any, dst: Any) -> None:
        real_replace(src, dst)
        if Path(dst).parent == host.box() / outbox.NEW:
            events.append(("rename", Path(dst).name))

    def sync_dir(folder: Any) -> None:
        real_sync(folder)
        if Path(folder) == host.box() / outbox.NEW:
            events.append(("fsync", None))

    def write_state(path: Any, data: Any, sync_folder: bool = True) -> None:
        events.append(("state", sorted(os.listdir(host.box() / outbox.NEW))))
        real_state(path, data, sync_folder)

    monkeypatch.setattr(outbox.os, "replace", replace)
    monkeypatch.setattr(outbox, "sync_dir", sync_dir)
    monkeypatch.setattr(mail_host, "write_state", write_state)
    for n in range(2):
        host.game(f"g{n}")
    report = host.run()
    assert (report.mailed, report.sent) == (6, 6)
    kinds = [kind for kind, _ in events]
    first = kinds.index("state")
    assert kinds[:first + 1] == ["rename"] * 3 + ["fsync", "state"]  # the first game's three, one fsync, counted
    assert kinds[first + 1:first + 6] == ["rename"] * 3 + ["fsync", "state"]  # then the second's
    renamed = {name for kind, name in events[:first] if kind == "rename"}
    assert renamed <= set(events[first][1])  # in new/ when counted (none sent yet)


def out_of_turn(host: Host, path: Path, message_id: str) -> None:
    """Deliver Ben's move at seq 0, when Anna is on turn: a message the host refuses and
    answers."""
    from corr import engine

    msg = EmailMessage()
    msg["From"] = PLAYERS[1]
    msg["To"] = "Host <host@example.org>"
    msg["Subject"] = f"Re: [corr {engine.load(path).header.id}] 0. new game"
    msg["Message-ID"] = message_id
    msg.set_content("7 (8,7)\n")
    mailbox.Maildir(host.maildir, create=False).add(msg)


def test_a_refusal_s_answer_that_cannot_go_now_goes_with_a_later_pass(host, server):  # type: ignore[no-untyped-def]
    smtpd, _ = server
    path = host.game()
    assert host.run().sent == 3
    smtpd.take()
    out_of_turn(host, path, "<out-of-turn@example.org>")
    down = host.run(port=free_port())
    assert (down.refused, down.sent, down.queued) == (1, 0, 1)
    up = host.run()
    assert (up.refused, up.sent, up.queued) == (0, 1, 0)
    ((rcpt, answer),) = smtpd.accepted
    assert rcpt == BEN and answer["Auto-Submitted"] == "auto-replied"
    assert answer["In-Reply-To"] == "<out-of-turn@example.org>"


def test_a_refused_message_taken_again_after_a_stop_is_answered_once(host, server):  # type: ignore[no-untyped-def]
    """A host stopped after answering a refused message but before letting the message go
    takes it again: the answer still waiting in the outbox is not queued a second time."""
    smtpd, _ = server
    path = host.game()
    assert host.run().sent == 3
    smtpd.take()
    out_of_turn(host, path, "<twice@example.org>")
    assert host.run(port=free_port()).queued == 1
    (taken,) = os.listdir(host.maildir / "cur")  # as if the pass had stopped before `done`
    os.replace(host.maildir / "cur" / taken, host.maildir / "new" / taken.split(":")[0])
    again = host.run(port=free_port())
    assert (again.refused, again.queued) == (1, 1)
    assert len(host.waiting()) == 1
    assert host.run().sent == 1 and smtpd.take() == [BEN]


def test_garbage_in_the_outbox_is_set_aside_and_the_pass_goes_on(host, server, corr):  # type: ignore[no-untyped-def]
    smtpd, _ = server
    host.game()
    new = host.box() / outbox.NEW
    new.mkdir(parents=True)
    (new / "00000000000000000001.junk.eml").write_bytes(b"\x00\xff not a message at all\n")
    (new / "00000000000000000002.folder.eml").mkdir()
    report = host.run()
    assert (report.sent, report.queued, report.failed) == (3, 0, 2)
    assert smtpd.take() == [ANNA, BEN, CLEO] and smtpd.connections == 1
    lines = [s for s in host.said if s.startswith("outbox:")]
    assert len(lines) == 2 and all("not a message the host wrote" in s for s in lines)
    assert sorted(os.listdir(host.box() / outbox.FAILED)) == [
        "00000000000000000001.junk.eml", f"00000000000000000001.junk.eml{outbox.REASON_SUFFIX}",
        "00000000000000000002.folder.eml", f"00000000000000000002.folder.eml{outbox.REASON_SUFFIX}"]
    listed = corr("host", "outbox", "--games", host.games)
    assert listed.code == 0 and "2 given up" in listed.out


@pytest.mark.parametrize("sidecar", [b"{not json", b"[]", b'{"tries": "many", "next": 7}',
                                     b'{"tries": 3, "next": "2999-01-01T00:00:00"}', b"{}" + b" " * 5000,
                                     b'{"tries": 3, "next": "2999-01-01T00:00:00Z"}'])
def test_a_garbled_tries_file_is_only_a_reason_to_try_now(host, server, sidecar):  # type: ignore[no-untyped-def]
    smtpd, _ = server
    host.game()
    smtpd.refuse[BEN] = "451 4.3.0 try again later"
    t0 = clock.now()
    host.run(t0)
    (name,) = host.waiting()
    (host.box() / outbox.TRIES / f"{name}.json").write_bytes(sidecar)
    del smtpd.refuse[BEN]
    report = host.run(t0 + timedelta(seconds=1))
    assert (report.sent, report.queued, smtpd.connections) == (1, 0, 2)
    assert smtpd.take() == [ANNA, BEN, CLEO]


def test_corr_host_outbox_refuses_a_missing_folder_on_one_line(tmp_path, corr):  # type: ignore[no-untyped-def]
    r = corr("host", "outbox", "--games", tmp_path / "nope")
    assert r.code == 1 and r.err.count("\n") == 1 and "no such folder" in r.err
    empty = corr("host", "outbox", "--games", tmp_path)
    assert empty.code == 0 and "nothing waits" in empty.out
    assert json.loads(corr("host", "outbox", "--games", tmp_path, "--json").out) == {"waiting": [], "failed": []}


def test_the_pass_summary_counts_what_was_sent_and_what_waits(host, corr, server):  # type: ignore[no-untyped-def]
    host.game()
    args = ["host", "run", "--maildir", host.maildir, "--games", host.games, "--smtp", host.config_file, "--once"]
    r = corr(*args)
    assert r.code == 0 and r.out.splitlines()[-1] == "pass: 3 mailed; outbox: 3 sent, 0 waiting"
    assert corr(*args).out == ""  # an idle pass says nothing


def _send_message_bytes(data: bytes) -> bytes:
    """What smtplib's send_message puts on the wire for the message kept as `data`."""
    import io
    from email.generator import BytesGenerator

    out = io.BytesIO()
    BytesGenerator(out).flatten(parse_message(data), linesep="\r\n")
    return out.getvalue()


def _kept(msg: EmailMessage) -> bytes:
    """A message as the outbox keeps it."""
    return outbox._as_bytes(msg)


def test_a_kept_message_goes_out_as_send_message_would_write_it_without_being_written_again(tmp_path):  # type: ignore[no-untyped-def]
    from test_mail_parts import KINDS, new_game

    from corr import engine
    from corr.mail.compose import compose
    from corr.mail.host import reminder

    messages = []
    for kind in sorted(KINDS):
        rep = engine.load(new_game(tmp_path, kind))
        messages += [compose(rep, seat.seat, sender="Host <host@example.org>") for seat in rep.header.seats]
    messages.append(reminder(rep, rep.header.seats[0], 7200, "2026-12-01T10:00:00Z", "Host <host@example.org>"))
    for msg in messages:
        data = _kept(msg)
        sent = outbox.as_sent(data)
        assert sent is not None, msg["Subject"]
        assert sent == ("host@example.org", [msg["To"].addresses[0].addr_spec], _send_message_bytes(data))


def test_a_kept_message_the_policy_would_write_otherwise_goes_through_send_message() -> None:
    plain = EmailMessage()
    plain["From"], plain["To"], plain["Subject"] = "host@example.org", ANNA, "[corr g-1] 1. 7 (8,7)"
    plain.set_content("a short line\n")
    assert outbox.as_sent(_kept(plain)) is not None
    for header, value in [("To", "Anna <anna@exämple.org>"), ("Bcc", BEN), ("Sender", "hal@example.org"),
                          ("Resent-Date", "Tue, 1 Dec 2026 10:00:00 +0000")]:
        msg = EmailMessage()
        for name, given in plain.items():
            msg[name] = value if name == header else given
        if header not in msg:
            msg[header] = value
        msg.set_content("a short line\n")
        assert outbox.as_sent(_kept(msg)) is None, header
    for data in [b"From: host@example.org\nTo: anna@example.org\nX-Long: " + b"x" * 100 + b"\n\nshort\n",
                 b"From: host@example.org\nTo: anna@example.org\n\n" + b"y" * 100 + b"\n",
                 b"From: host@example.org\r\nTo: anna@example.org\r\n\r\nshort\r\n"]:
        assert outbox.as_sent(data) is None, data[:60]
