"""`corr host run`, with real parts: a real SMTP server (aiosmtpd on 127.0.0.1), a real
Maildir, a hosted 3-player Combat game played by plain-text replies alone."""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
import os
import signal
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from conftest import free_port

from corr import engine
from corr.mail import host as mail_host

PLAYERS = ("Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>")
EMAILS = {"A": "anna@example.org", "B": "ben@example.org", "C": "cleo@example.org"}
HOST = "Host <host@example.org>"


def parse(data: bytes) -> EmailMessage:
    return email.message_from_bytes(data, policy=email.policy.default)  # type: ignore[return-value]




@pytest.fixture
def hosted(tmp_path, corr, smtp_server):  # type: ignore[no-untyped-def]
    """A games dir, a Maildir, an SMTP config; `make(time=None)` starts the 3-player game."""
    inbox, port = smtp_server
    games = tmp_path / "games"
    games.mkdir()
    maildir = tmp_path / "Maildir"
    mailbox.Maildir(maildir, create=True)
    config = tmp_path / "smtp.toml"
    config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\ntimeout = 10\n')

    class Hosted:
        pass

    h = Hosted()
    h.inbox, h.games, h.maildir, h.config, h.inbox_port = inbox, games, maildir, config, port

    def make(time_spec: str | None = None) -> Path:
        path = games / "game.corr"
        args: list = ["new", "combat", path]
        for p in PLAYERS:
            args += ["-p", p]
        if time_spec:
            args += ["--time", time_spec]
        r = corr(*args, "--format", "none")
        assert r.code == 0, r.err
        return path

    def run(*extra: str):  # type: ignore[no-untyped-def]
        return corr("host", "run", "--maildir", maildir, "--games", games, "--smtp", config, "--once", *extra)

    h.make, h.run = make, run
    return h


def drop(maildir: Path, msg: EmailMessage) -> str:
    """Deliver a message into the Maildir's new/; its key."""
    return mailbox.Maildir(maildir, create=False).add(msg)


def reply(game_id: str, seq: int, sender: str, body: str, message_id: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = HOST
    msg["Subject"] = f"Re: [corr {game_id}] {seq}. something"
    msg["Message-ID"] = message_id
    msg.set_content(body)
    return msg


def legal(corr, path: Path) -> tuple[str, list[str]]:  # type: ignore[no-untyped-def]
    r = corr("legal", path, "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    return data["seat"], data["moves"]


def in_new(maildir: Path) -> list[str]:
    return [n for n in os.listdir(maildir / "new") if not n.startswith(".")]


def in_cur(maildir: Path) -> list[str]:
    return [n for n in os.listdir(maildir / "cur") if not n.startswith(".")]


def test_hosted_three_player_game_by_plain_text_replies(hosted, corr):  # type: ignore[no-untyped-def]
    path = hosted.make()
    game_id = engine.load(path).header.id
    # The first pass announces the new game to all three seats.
    r = hosted.run()
    assert r.code == 0, r.err
    got = hosted.inbox.take()
    assert sorted(rcpt[0] for rcpt, _ in got) == sorted(EMAILS.values())
    assert all(m["Subject"] == f"[corr {game_id}] 0. new game" for _, m in got)
    assert r.out.count("mailed seat") == 3
    # Nothing new: a second pass mails nobody.
    r = hosted.run()
    assert r.code == 0 and hosted.inbox.take() == [] and r.out == ""

    for round_no in range(6):  # two full rounds of three players
        seq = engine.load(path).seq
        seat, moves = legal(corr, path)
        assert moves, "the game should still be on"
        body = f"{moves[0]}\n\n> quoted text of the last message\n"
        drop(hosted.maildir, reply(game_id, seq, PLAYERS["ABC".index(seat)], body, f"<m{round_no}@example.org>"))
        r = hosted.run()
        assert r.code == 0, r.err
        assert f"played seq {seq + 1} {seat} {moves[0]}" in r.out
        rep = engine.load(path)
        assert rep.seq == seq + 1  # the log advanced
        assert in_new(hosted.maildir) == [] and len(in_cur(hosted.maildir)) == round_no + 1
        got = hosted.inbox.take()
        assert sorted(rcpt[0] for rcpt, _ in got) == sorted(EMAILS.values())  # one message per seat
        for rcpt, msg in got:
            assert msg["Subject"] == f"[corr {game_id}] {seq + 1}. {moves[0]}"
            assert msg["From"] == HOST
            (attachment,) = list(msg.iter_attachments())
            assert attachment.get_payload(decode=True) == path.read_bytes()
            assert msg["In-Reply-To"]  # threaded
        assert r.out.count("mailed seat") == 3

    # What the host mailed is kept beside the log; a pass without mail does nothing.
    state = json.loads(mail_host.host_path(path).read_text())
    assert state["mailed"] == {"A": 6, "B": 6, "C": 6}
    r = hosted.run()
    assert r.code == 0 and hosted.inbox.take() == []


def test_garbage_and_stale_messages_get_a_refusal_reply(hosted, corr):  # type: ignore[no-untyped-def]
    path = hosted.make()
    game_id = engine.load(path).header.id
    assert hosted.run().code == 0
    hosted.inbox.take()
    before = path.read_bytes()

    junk = EmailMessage()
    junk["From"] = "Ben <ben@example.org>"
    junk["To"] = HOST
    junk["Subject"] = "hello there"
    junk["Message-ID"] = "<junk@example.org>"
    junk.set_content("what is this game?\n")
    drop(hosted.maildir, junk)
    r = hosted.run()
    assert r.code == 1
    assert "refused" in r.out and "not a corr message" in r.out
    assert "1 message refused" in r.err
    assert path.read_bytes() == before
    assert in_new(hosted.maildir) == [] and len(in_cur(hosted.maildir)) == 1
    ((rcpt, answer),) = hosted.inbox.take()
    assert rcpt == ["ben@example.org"]
    assert answer["Subject"] == "Re: hello there" and answer["In-Reply-To"] == "<junk@example.org>"
    assert answer["From"] == HOST and answer["Auto-Submitted"] == "auto-replied"
    assert "not a corr message" in answer.get_content()

    # The next pass does not see it again.
    r = hosted.run()
    assert r.code == 0 and hosted.inbox.take() == []

    # A move answering a seq from the future, and an automatic message (never answered).
    drop(hosted.maildir, reply(game_id, 5, "Anna <anna@example.org>", "7 (5,4)\n", "<future@example.org>"))
    bounce = reply(game_id, 5, "MAILER-DAEMON <daemon@example.org>", "undeliverable\n", "<bounce@example.org>")
    bounce["Auto-Submitted"] = "auto-replied"
    drop(hosted.maildir, bounce)
    r = hosted.run()
    assert r.code == 1 and r.out.count("refused") >= 2
    assert "not answered (an automatic message)" in r.out
    ((rcpt, answer),) = hosted.inbox.take()
    assert rcpt == ["anna@example.org"] and "from the future" in answer.get_content()
    assert path.read_bytes() == before and in_new(hosted.maildir) == []


def test_combat_1_3_a_seat_writing_out_of_turn_is_told_whose_turn_it_is(hosted, corr):  # type: ignore[no-untyped-def]
    """Ben answers the first message although Anna begins: he hears it is not his
    turn, not which address a move is taken from."""
    path = hosted.make()
    game_id = engine.load(path).header.id
    assert hosted.run().code == 0
    hosted.inbox.take()
    before = path.read_bytes()
    drop(hosted.maildir, reply(game_id, 0, PLAYERS[1], "8 (4,6)\n", "<early@example.org>"))
    r = hosted.run()
    assert r.code == 1 and "it is not seat B's turn: the move is seat A's to make" in r.out, r.out
    ((rcpt, answer),) = hosted.inbox.take()
    text = answer.get_content()
    assert rcpt == [EMAILS["B"]] and "it is not seat B's turn" in text and "address" not in text
    assert path.read_bytes() == before


def test_a_refused_message_from_a_stranger_gets_no_reply(hosted, corr):  # type: ignore[no-untyped-def]
    """A From is easily forged: answering strangers would mail the host's refusals to
    whoever spam put there (backscatter). The host refuses, answers nobody and says so."""
    path = hosted.make()
    game_id = engine.load(path).header.id
    assert hosted.run().code == 0
    hosted.inbox.take()
    before = path.read_bytes()
    drop(hosted.maildir, reply(game_id, 0, "Eve <eve@example.com>", "7 (8,7)\n", "<eve1@example.com>"))
    junk = EmailMessage()
    junk["From"] = "Spam <offer@example.net>"
    junk["To"] = HOST
    junk["Subject"] = "a great offer"
    junk["Message-ID"] = "<spam@example.net>"
    junk.set_content("buy now\n")
    drop(hosted.maildir, junk)
    r = hosted.run()
    assert r.code == 1 and r.out.count("refused Maildir/") == 2
    assert f"not answered: eve@example.com is not an address game {game_id} names" in r.out
    assert "not answered: offer@example.net is not an address any game here names" in r.out
    assert "replied to" not in r.out and hosted.inbox.take() == []
    assert path.read_bytes() == before and in_new(hosted.maildir) == []

    # A seat's refused message is answered, also when it names no game.
    drop(hosted.maildir, reply(game_id, 0, PLAYERS[1], "8 (4,6)\n", "<ben-early@example.org>"))
    del junk["From"]
    junk["From"] = "Cleo <CLEO@example.org>"
    drop(hosted.maildir, junk)
    r = hosted.run()
    assert r.code == 1 and "not answered" not in r.out
    assert sorted(rcpt for (rcpt,), _ in hosted.inbox.take()) == sorted([EMAILS["B"], "CLEO@example.org"])


def test_a_reminder_is_sent_once_when_due(hosted, corr):  # type: ignore[no-untyped-def]
    import freezegun
    with freezegun.freeze_time("2026-11-29 10:00:00") as frozen:
        path = hosted.make("per-move:1,remind=12")
        game_id = engine.load(path).header.id
        r = hosted.run()  # announces the game; A has 24 h left: no reminder yet
        assert r.code == 0, r.err
        assert len(hosted.inbox.take()) == 3 and "reminded" not in r.out

        frozen.move_to("2026-11-29 21:00:00")  # 13 h left: still not due
        r = hosted.run()
        assert r.code == 0 and hosted.inbox.take() == []

        frozen.move_to("2026-11-29 23:00:00")  # 11 h left: due
        r = hosted.run()
        assert r.code == 0, r.err
        ((rcpt, msg),) = hosted.inbox.take()
        assert rcpt == ["anna@example.org"]
        assert msg["Subject"] == f"[corr {game_id}] 0. reminder: your move, 11 hours left"
        assert msg.get_content_type() == "text/plain"
        assert "reminded seat A" in r.out

        frozen.move_to("2026-11-30 01:00:00")  # still A's turn: not a second time
        r = hosted.run()
        assert r.code == 0 and hosted.inbox.take() == [] and "reminded" not in r.out

        # A moves by mail; B's turn gets its own reminder when due, once.
        seat, moves = legal(corr, path)
        assert seat == "A"
        drop(hosted.maildir, reply(game_id, 0, PLAYERS[0], moves[0] + "\n", "<a1@example.org>"))
        r = hosted.run()
        assert r.code == 0, r.err
        assert len(hosted.inbox.take()) == 3 and "reminded" not in r.out
        frozen.move_to("2026-11-30 14:00:00")  # B: 11 h left
        r = hosted.run()
        ((rcpt, msg),) = hosted.inbox.take()
        assert rcpt == ["ben@example.org"] and "reminder: your move, 11 hours left" in msg["Subject"]
        r = hosted.run()
        assert hosted.inbox.take() == []
        assert json.loads(mail_host.host_path(path).read_text())["reminded"] == {"seq": 1, "seat": "B", "hours": [12]}


def test_refuses_a_path_that_is_not_a_maildir(hosted, tmp_path, corr):  # type: ignore[no-untyped-def]
    (tmp_path / "nope").write_text("a file, not a folder\n")  # a missing Maildir is made; a file is refused
    r = corr("host", "run", "--maildir", tmp_path / "nope", "--games", hosted.games, "--smtp", hosted.config, "--once")
    assert r.code == 1 and "not a Maildir" in r.err and r.err.count("\n") == 1


def test_mail_that_could_not_be_sent_is_sent_on_the_next_pass(hosted, tmp_path, corr):  # type: ignore[no-untyped-def]
    path = hosted.make()
    good = hosted.config.read_text()
    dead = tmp_path / "dead.toml"
    dead.write_text(good.replace(f"port = {hosted.inbox_port}", f"port = {free_port()}"))
    r = corr("host", "run", "--maildir", hosted.maildir, "--games", hosted.games, "--smtp", dead, "--once")
    assert r.code == 1 and r.out.count("mailed seat") == 3  # into the outbox
    assert "outbox: cannot send 3 messages now, they wait for the next pass: cannot reach the SMTP server" in r.out
    assert "3 messages not sent yet, waiting in" in r.err and r.err.count("\n") == 1
    r = hosted.run()
    assert r.code == 0, r.err
    assert sorted(rcpt[0] for rcpt, _ in hosted.inbox.take()) == sorted(EMAILS.values())
    assert engine.load(path).seq == 0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_loop_stops_cleanly_on_a_signal(hosted, corr, sig):  # type: ignore[no-untyped-def]
    path = hosted.make()
    game_id = engine.load(path).header.id
    seat, moves = legal(corr, path)
    drop(hosted.maildir, reply(game_id, 0, PLAYERS[0], moves[0] + "\n", "<loop@example.org>"))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "corr", "host", "run", "--maildir", str(hosted.maildir), "--games", str(hosted.games),
         "--smtp", str(hosted.config), "--interval", "0.2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (in_new(hosted.maildir) or len(hosted.inbox.envelopes) < 3):
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        assert in_cur(hosted.maildir) and len(hosted.inbox.envelopes) == 3  # a pass was done
        assert engine.load(path).seq == 1
        time.sleep(0.5)  # a few idle passes
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert f"stopped by {sig.name}" in out and err == ""
    assert out.count("mailed seat") == 3  # idle passes mail nobody again


def test_host_takes_a_referees_ruling_and_mails_it_to_every_seat(hosted, corr, tmp_path):  # type: ignore[no-untyped-def]
    assert corr("key", "new", "--out", tmp_path / "rita").code == 0
    path = hosted.games / "game.corr"
    args: list = ["new", "combat", path, "--referee", "Rita <rita@example.org>", "--referee-key", tmp_path / "rita.pub"]
    for p in PLAYERS:
        args += ["-p", p]
    assert corr(*args, "--format", "none").code == 0
    for move in ("2 (1,1)", "3 (1,2)"):
        assert corr("move", path, move, "--format", "none").code == 0
    assert hosted.run().code == 0
    hosted.inbox.take()
    # The referee rules on her own copy and mails the log to the host.
    rita = tmp_path / "rita.corr"
    rita.write_bytes(path.read_bytes())
    r = corr("referee", "rule", rita, "--seq", "2", "--void", "--reason", "B's move was sent twice",
             "--sign", tmp_path / "rita.key", "--format", "none")
    assert r.code == 0, r.err
    assert corr("mail", "compose", rita, "--to", "A", "--out", tmp_path / "ruling.eml").code == 0
    msg = parse((tmp_path / "ruling.eml").read_bytes())
    msg.replace_header("To", HOST)
    msg.replace_header("From", "Rita <rita@example.org>")
    drop(hosted.maildir, msg)
    r = hosted.run()
    assert r.code == 0, r.err
    assert "took seq 3" in r.out
    assert path.read_bytes() == rita.read_bytes()
    game_id = engine.load(path).header.id
    got = hosted.inbox.take()
    assert sorted(rcpt[0] for rcpt, _ in got) == sorted(EMAILS.values())
    assert all(m["Subject"] == f"[corr {game_id}] 3. ruling on 2: void" for _, m in got)


def test_a_hostile_subject_is_answered_on_one_line_and_the_pass_goes_on(hosted, corr):  # type: ignore[no-untyped-def]
    """A Subject whose encoded words decode to a newline (a header injection into the
    refusal) is flattened in the reply, and the moves after it are still taken."""
    path = hosted.make()
    game_id = engine.load(path).header.id
    assert hosted.run().code == 0
    hosted.inbox.take()
    hostile = (
        b"From: Ben <ben@example.org>\r\nTo: host@example.org\r\nReply-To: eve@example.com\r\n"
        b"Subject: =?utf-8?q?hello=0D=0ABcc=3A_eve=40example.com?=\r\nMessage-ID: <evil@example.org>\r\n\r\nhi\r\n"
    )
    mailbox.Maildir(hosted.maildir, create=False).add(hostile)
    seat, moves = legal(corr, path)
    drop(hosted.maildir, reply(game_id, 0, PLAYERS[0], moves[0] + "\n", "<a1@example.org>"))
    r = hosted.run()
    assert r.code == 1 and "not a corr message" in r.out
    assert f"played seq 1 A {moves[0]}" in r.out
    got = hosted.inbox.take()
    answers = [(rcpt, m) for rcpt, m in got if m["Auto-Submitted"] == "auto-replied"]
    ((rcpt, answer),) = answers
    assert rcpt == ["ben@example.org"]  # the From address, never the Reply-To
    assert answer["Subject"] == "Re: hello Bcc: eve@example.com" and answer["Bcc"] is None
    assert len(got) == 4  # the refusal and the move mailed to the three seats


def _pass(hosted):  # type: ignore[no-untyped-def]
    from corr.mail import smtp

    return mail_host.run_pass(hosted.maildir, hosted.games, smtp.load_config(hosted.config), echo=lambda line: None)


def test_an_idle_game_is_skipped_until_its_log_changes(hosted, corr):  # type: ignore[no-untyped-def]
    """A pass that found nothing to do notes the log's fingerprint; the next pass skips
    the game without replaying it, and any append or replacement of the log ends that."""
    path = hosted.make()
    first = _pass(hosted)
    assert first.mailed == 3 and first.skipped == 0
    hosted.inbox.take()
    assert _pass(hosted).skipped == 1 and hosted.inbox.take() == []

    seat, moves = legal(corr, path)
    assert corr("move", path, moves[0], "--format", "none").code == 0
    moved = _pass(hosted)
    assert moved.skipped == 0 and moved.mailed == 3
    hosted.inbox.take()
    assert _pass(hosted).skipped == 1

    copy = path.with_name("copy.tmp")  # the same bytes under a new inode: not the file the note saw
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)
    assert _pass(hosted).skipped == 0
    assert _pass(hosted).skipped == 1
    mail_host.Path(f"{path}{mail_host.IDLE_SUFFIX}").write_text("{not json")  # a bad note: replay
    assert _pass(hosted).skipped == 0


def test_a_game_whose_mail_failed_is_left_idle_while_the_outbox_sends_it(hosted, tmp_path, corr):  # type: ignore[no-untyped-def]
    """Once its messages are in the outbox the game has nothing left to do: the next pass
    skips it and sends them from the outbox."""
    path = hosted.make()
    good = hosted.config.read_text()
    hosted.config.write_text(good.replace(f"port = {hosted.inbox_port}", f"port = {free_port()}"))
    down = _pass(hosted)
    assert (down.mailed, down.sent, down.queued) == (3, 0, 3)
    assert os.path.exists(f"{path}{mail_host.IDLE_SUFFIX}")
    hosted.config.write_text(good)
    again = _pass(hosted)
    assert (again.skipped, again.mailed, again.sent, again.queued) == (1, 0, 3, 0)
    assert sorted(rcpt[0] for rcpt, _ in hosted.inbox.take()) == sorted(EMAILS.values())


def test_messages_of_one_seq_are_taken_in_the_order_they_were_delivered() -> None:
    """Maildir keys carry the delivery time; sorted as text, M99999 would come after
    M100000 and a later reply could be taken first."""
    from corr.mail.message import delivery_order

    keys = ["1764537001.M5P1Q1.h", "1764537000.M100000P1Q2.h", "1764537000.M99999P1Q3.h", "odd-name", "1764537000.x"]
    assert sorted(keys, key=delivery_order) == [
        "odd-name", "1764537000.x", "1764537000.M99999P1Q3.h", "1764537000.M100000P1Q2.h", "1764537001.M5P1Q1.h"]


def test_a_reminder_tells_a_seat_with_a_key_to_answer_as_the_game_s_message_says(tmp_path: Path) -> None:
    """A move written in a reply is refused where moves are signed: the reminder must
    not ask for one (the plain reminder does)."""
    from types import SimpleNamespace

    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", list(PLAYERS[:2]), {})
    rep = engine.load(path)
    plain = SimpleNamespace(name="Anna", seat="A", email="anna@example.org", key=None)
    keyed = SimpleNamespace(name="Anna", seat="A", email="anna@example.org", key="ed25519:x")
    said = mail_host.reminder(rep, plain, 7200, None, None).get_content()
    assert "Reply with your move on a line of its own" in said
    said = mail_host.reminder(rep, keyed, 7200, None, None).get_content()
    assert "signed moves only" in said and "Reply with your move" not in said


def test_a_second_host_pass_on_the_same_games_folder_leaves_at_once_and_says_so(hosted, corr):  # type: ignore[no-untyped-def]
    import fcntl

    path = hosted.make()
    game_id = engine.load(path).header.id
    assert hosted.run().code == 0
    hosted.inbox.take()
    seat, moves = legal(corr, path)
    drop(hosted.maildir, reply(game_id, 0, PLAYERS["ABC".index(seat)], f"{moves[0]}\n", "<overlap@example.org>"))
    before = path.read_bytes()
    with open(hosted.games / mail_host.PASS_LOCK, "a+b") as running:  # a pass from cron still at work
        fcntl.flock(running.fileno(), fcntl.LOCK_EX)
        running.truncate(0)
        running.write(b"4242\n")
        running.flush()
        r = hosted.run()
        assert r.code == 0, r.err
        assert r.out == f"another host pass is running on {hosted.games} (process 4242): this one leaves\n"
        assert path.read_bytes() == before and len(in_new(hosted.maildir)) == 1 and hosted.inbox.take() == []
    r = hosted.run()  # the first pass is over: the next takes the reply, once
    assert r.code == 0, r.err
    assert "another host pass" not in r.out and engine.load(path).seq == 1 and in_new(hosted.maildir) == []
