"""Hostile mail (issue "Hardening", DESIGN.md 8: everything in a message is hostile until
checked). Real parts only: real .eml bytes written by hand as an attacker would, real
Maildirs, the real SMTP server of conftest, separate processes for the races, and
strace (where it runs) to see the directory fsyncs the kernel really gets.

Each class of message is refused with a one-line reason, or - when it cannot be handled
at all - set aside in the Maildir's bad/ with a reason; nothing stops the host or the
other messages."""

from __future__ import annotations

import json
import mailbox
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from conftest import free_port
from test_host import EMAILS, HOST, PLAYERS, drop, hosted, in_cur, in_new, legal, parse, reply  # noqa: F401
from test_mail import ANNA, BEN, eml, new_log, play, reply_eml, two_copies  # noqa: F401

from corr import engine
from corr.log import store
from corr.mail import ingest as mail_in
from corr.mail import message as mail_msg
from corr.mail import reply as mail_reply
from corr.mail import smtp
from corr.mail.compose import compose

EVE = "eve@example.com"
#: A header value whose encoded word decodes to a CR/LF and a second header.
INJECT = "=?utf-8?q?x=0D=0ABcc=3A_eve=40example.com?="


def raw_message(headers: list[tuple[str, str]], body: bytes = b"hello\r\n") -> bytes:
    """A message's bytes exactly as given: headers written as raw lines (doubled or
    encoded as an attacker likes), CRLF line ends."""
    head = b"".join(f"{name}: {value}\r\n".encode("utf-8", "surrogateescape") for name, value in headers)
    return head + b"\r\n" + body


def nested(depth: int, headers: list[tuple[str, str]], text: bytes = b"7 (5,4)\r\n") -> bytes:
    """A message of multiparts nested `depth` deep, a text part at the bottom."""
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    head = b"".join(f"{name}: {value}\r\n".encode() for name, value in headers) + b"MIME-Version: 1.0\r\n"
    return head + opening + b"Content-Type: text/plain\r\n\r\n" + text + closing


def with_attachments(headers: list[tuple[str, str]], attachments: list[tuple[str, bytes]], body: str = "hi\n") -> bytes:
    msg = EmailMessage()
    for name, value in headers:
        msg[name] = value
    msg.set_content(body)
    for filename, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=filename)
    return msg.as_bytes()


def one_line_refusal(r, code: int = 1, *words: str) -> None:  # type: ignore[no-untyped-def]
    assert r.code == code, (r.code, r.err)
    assert r.err.startswith("corr: error:") and r.err.count("\n") == 1, r.err
    assert "Traceback" not in r.err
    for word in words:
        assert word in r.err, r.err


LONG_SEQ = "1" * 4301


# ---------------------------------------------------------------------------------
# 1. A Subject seq of thousands of digits


def test_a_seq_of_thousands_of_digits_is_refused_and_the_rest_of_the_maildir_goes_in(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")  # B to move
    box = mailbox.Maildir(tmp_path / "Maildir")
    hostile = raw_message([("From", f"Ben <{BEN}>"), ("Subject", f"Re: [corr {game_id}] {LONG_SEQ}. x"),
                           ("Message-ID", "<long@example.net>")], b"3 (1,1)\r\n")
    box.add(hostile)
    box.add(reply_eml(game_id, 1, "3 (1,1)\n", message_id="<good@example.net>"))
    r = corr("mail", "ingest", "--maildir", tmp_path / "Maildir", "--games", a.parent)
    assert r.code == 1, r.err
    assert "Traceback" not in r.err and "1 of 2 messages refused" in r.err
    assert "the Subject's seq has 4301 digits, at most 9" in r.err
    assert [(rec.seq, rec.by, rec.move) for rec in store.read(a).records][-1] == (2, "B", "3 (1,1)")
    # Alone, one line; and the seq key of a mailbox never raises.
    msg = tmp_path / "long.eml"
    msg.write_bytes(hostile)
    before = a.read_bytes()
    one_line_refusal(corr("mail", "ingest", msg, "--games", a.parent), 1, "4301 digits")
    assert a.read_bytes() == before
    assert mail_msg.seq_key(hostile) == 0


def test_a_seq_of_ten_digits_is_no_seq_and_other_scripts_digits_are_none(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")
    msg = tmp_path / "x.eml"
    msg.write_bytes(raw_message([("From", f"Ben <{BEN}>"), ("Subject", f"Re: [corr {game_id}] 1234567890. x")],
                                b"3 (1,1)\r\n"))
    one_line_refusal(corr("mail", "ingest", msg, "--games", a.parent), 1, "10 digits")
    # Arabic-Indic digit one: `\d` would read it as 1; it is no seq at all.
    msg.write_bytes(raw_message([("From", f"Ben <{BEN}>"), ("Subject", f"=?utf-8?q?Re=3A_[corr_{game_id}]_=D9=A1.?=")],
                                b"3 (1,1)\r\n"))
    one_line_refusal(corr("mail", "ingest", msg, "--games", a.parent), 1, "no seq in the Subject")
    assert len(store.read(a).records) == 1


# ---------------------------------------------------------------------------------
# 2. Multiparts nested deep


@pytest.mark.parametrize("depth", [1000, 25])
def test_deeply_nested_multiparts_are_refused_unread(two_copies, tmp_path, corr, depth):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")
    data = nested(depth, [("From", f"Ben <{BEN}>"), ("Subject", f"Re: [corr {game_id}] 1. x")], b"3 (1,1)\r\n")
    assert len(data) < 100_000
    result = mail_in.ingest_bytes(data, a.parent, "deep.eml")
    assert not result.ok and result.aside and "nested" in result.message and "\n" not in result.message
    msg = tmp_path / "deep.eml"
    msg.write_bytes(data)
    one_line_refusal(corr("mail", "ingest", msg, "--games", a.parent), 1, "nested")
    r = corr("mail", "ingest", msg, "--games", a.parent, "--reply", "--reply-dir", tmp_path / "out")
    assert r.code == 1 and "no sender to reply to" in r.err and "Traceback" not in r.err
    # In a Maildir, the messages beside it go in.
    box = mailbox.Maildir(tmp_path / "Maildir")
    box.add(data)
    box.add(reply_eml(game_id, 1, "3 (1,1)\n"))
    r = corr("mail", "ingest", "--maildir", tmp_path / "Maildir", "--games", a.parent)
    assert r.code == 1 and "1 of 2 messages refused" in r.err and "nested" in r.err, r.err
    assert [rec.by for rec in store.read(a).records] == ["A", "B"]


def test_a_big_body_under_deep_nesting_is_refused_before_the_parser_spends_minutes_on_it(two_copies):  # type: ignore[no-untyped-def]
    """The parser's work is every line times the nesting above it: a megabyte under 400
    levels took it about ten seconds, a full-size message over a minute."""
    a, _ = two_copies
    data = nested(400, [("From", f"Ben <{BEN}>"), ("Subject", "x")], b"x\r\n" * 300_000)
    started = time.monotonic()
    result = mail_in.ingest_bytes(data, a.parent, "deep.eml")
    assert time.monotonic() - started < 5
    assert not result.ok and result.aside and "nested too deep" in result.message


def test_a_related_multipart_without_parts_is_no_body_and_no_crash(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    """An inner multipart/related reusing the outer boundary has text, not parts, for
    its payload: the standard library's get_body indexes that text and raises."""
    a, _ = two_copies
    game_id = engine.load(a).header.id
    data = (f"From: Ben <{BEN}>\r\nSubject: Re: [corr {game_id}] 0. x\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\n'
            'Content-Type: multipart/related; boundary="b1"\r\n\r\n\r\n').encode()
    msg = tmp_path / "related.eml"
    msg.write_bytes(data)
    one_line_refusal(corr("mail", "ingest", msg, "--games", a.parent), 1, "HTML-only")
    assert store.read(a).records == []


def test_nesting_within_the_limit_is_read(two_copies):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    game_id = engine.load(a).header.id
    data = nested(mail_msg.MAX_DEPTH, [("From", f"Ben <{BEN}>"), ("Subject", f"Re: [corr {game_id}] 0. x")])
    result = mail_in.ingest_bytes(data, a.parent, "deep.eml")
    assert not result.aside and "nested" not in result.message  # refused for what it says, not for its shape


# ---------------------------------------------------------------------------------
# 3. CR/LF in the headers a reply copies


HOSTILE_HEADERS = {
    "From": ("From", f"{INJECT} <{BEN}>"),
    "Subject": ("Subject", INJECT),
    "Message-ID": ("Message-ID", "=?utf-8?q?<m1=0D=0ABcc=3A_eve=40example.com@example.net>?="),
    "References": ("References", "<r0@example.net> =?utf-8?q?<r1=0D=0ABcc=3A_eve=40example.com@x>?="),
    "Reply-To": ("Reply-To", f"{INJECT} <{EVE}>"),
}


@pytest.mark.parametrize("which", sorted(HOSTILE_HEADERS))
def test_an_encoded_newline_in_a_copied_header_cannot_break_the_reply(two_copies, tmp_path, corr, smtp_server, which):  # type: ignore[no-untyped-def]
    inbox, port = smtp_server
    a, _ = two_copies
    game_id = engine.load(a).header.id
    headers = {"From": ("From", f"Ben <{BEN}>"), "Subject": ("Subject", f"Re: [corr {game_id}] 7. x"),
               "Message-ID": ("Message-ID", "<m1@example.net>"), "References": ("References", "<r0@example.net>")}
    headers[which] = HOSTILE_HEADERS[which]
    if which == "Subject":  # still naming the game, so the refusal is the same one
        headers[which] = ("Subject", f"Re: [corr {game_id}] 7. {INJECT}")
    data = raw_message(list(headers.values()), b"3 (1,1)\r\n")
    result = mail_in.ingest_bytes(data, a.parent, "hostile.eml")
    assert not result.ok and "from the future" in result.message, result.message
    answer = mail_reply.refusal_reply(result, sender=HOST)
    assert answer is not None
    sent = parse(answer.as_bytes())
    assert sent["To"].addresses[0].addr_spec == BEN  # the From address, never the Reply-To
    assert sent["Bcc"] is None and "\n" not in sent["Subject"] and "\r" not in sent["Subject"]
    for name in ("In-Reply-To", "References"):
        for ref in str(sent[name] or "").split():
            assert re.fullmatch(r"<[^\s<>]+@[^\s<>]+>", ref), (name, ref)
    assert "Bcc" not in str(sent["In-Reply-To"] or "") + str(sent["References"] or "")
    # ... and it goes out over SMTP, to Ben alone.
    smtp.send(answer, smtp.load_config(None, "127.0.0.1", port))
    ((envelope),) = inbox.take()
    assert envelope[0] == [BEN]
    # The command line answers it the same way.
    msg = tmp_path / "hostile.eml"
    msg.write_bytes(data)
    config = tmp_path / "smtp.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\n')
    r = corr("mail", "ingest", msg, "--games", a.parent, "--reply", "--config", config, "--reply-dir", tmp_path / "out")
    assert r.code == 1 and "Traceback" not in r.err and f"replied to" in r.err, r.err
    ((rcpt, got),) = inbox.take()
    assert rcpt == [BEN] and got["Bcc"] is None


def test_a_move_whose_message_id_carries_a_newline_is_played_and_threading_stays_clean(hosted, corr):  # type: ignore[no-untyped-def]
    """The Message-ID of a message that is taken goes into the sidecar and from there into
    the next message's In-Reply-To: an encoded newline in it once broke every later pass."""
    path = hosted.make()
    game_id = engine.load(path).header.id
    assert hosted.run().code == 0
    hosted.inbox.take()
    seat, moves = legal(corr, path)
    data = raw_message([("From", PLAYERS[0]), ("To", HOST), ("Subject", f"Re: [corr {game_id}] 0. new game"),
                        HOSTILE_HEADERS["Message-ID"], HOSTILE_HEADERS["References"]], f"{moves[0]}\r\n".encode())
    mailbox.Maildir(hosted.maildir, create=False).add(data)
    r = hosted.run()
    assert r.code == 0, r.err
    assert f"played seq 1 A {moves[0]}" in r.out
    got = hosted.inbox.take()
    assert len(got) == 3
    for _, msg in got:
        assert msg["Bcc"] is None
        assert all(re.fullmatch(r"<[^\s<>]+@[^\s<>]+>", ref) for ref in str(msg["References"] or "").split())
    assert hosted.run().code == 0  # and the next pass too


# ---------------------------------------------------------------------------------
# 4. The host never dies on one message


def hostile_messages(game_id: str) -> dict[str, tuple[bytes, str, str]]:
    """For the hosted game `game_id`: name -> (bytes, "refused" or "aside", words of the reason)."""
    ben = PLAYERS[1]
    subject = f"Re: [corr {game_id}] 0. new game"
    base = [("From", ben), ("To", HOST), ("Subject", subject)]
    log_head = json.dumps({"id": game_id}).encode()
    return {
        "long-seq": (raw_message([("From", ben), ("Subject", f"Re: [corr {game_id}] {LONG_SEQ}. x"),
                                  ("Message-ID", "<long@example.org>")], b"7 (5,4)\r\n"), "refused", "4301 digits"),
        "nested": (nested(1000, base), "aside", "nested"),
        "newlines": (raw_message([("From", f"{INJECT} <{EMAILS['B']}>"), ("Subject", f"{INJECT} [corr {game_id}] 9. x"),
                                  HOSTILE_HEADERS["Message-ID"], HOSTILE_HEADERS["References"]], b"7 (5,4)\r\n"),
                     "refused", "from the future"),
        "five-mb": (raw_message(base + [("Message-ID", "<big@example.org>")], b"x" * (5 << 20)), "aside",
                    "over the size limit"),
        "charset": (raw_message(base + [("Content-Type", 'text/plain; charset="x-no-such-charset"'),
                                        ("Content-Transfer-Encoding", "8bit")], b"7 (5,4)\xff\r\n"),
                    "refused", "cannot be decoded"),
        "bad-utf8": (raw_message(base + [("Content-Type", 'text/plain; charset="utf-8"'),
                                         ("Content-Transfer-Encoding", "8bit")], b"\xff\xfe\xc3(\xa0\r\n"),
                     "refused", "no move found"),
        "no-subject": (raw_message([("From", ben)], b"7 (5,4)\r\n"), "refused", "not a corr message"),
        "garbage": (bytes(range(256)) * 40, "refused", "not a corr message"),
        "empty": (b"", "refused", "not a corr message"),
        "not-json-log": (with_attachments(base, [(f"{game_id}.corr", b"this is no log\n")]), "refused",
                         "is not a corr log"),
        "deep-json-log": (with_attachments(base, [(f"{game_id}.corr", b"[" * 200_000 + b"\n")]), "refused",
                          "is not a corr log"),
        "huge-log": (with_attachments(base, [(f"{game_id}.corr", log_head + b"\n" + b"y" * (2 << 20))]),
                     "refused", "over the size limit"),
        "fifty": (with_attachments(base, [(f"{game_id}.corr", log_head + b"\n")] * 50), "refused",
                  "50 corr logs attached"),
        "many-parts": (with_attachments(base, [(f"n{i}.txt", b"x") for i in range(150)]), "aside",
                       "more than 100 parts"),
        "doubled": (raw_message([("From", ben), ("From", PLAYERS[0]), ("Subject", subject), ("Subject", "other")],
                                b"7 (5,4)\r\n"), "refused", "2 From headers"),
        "control": (raw_message([("From", PLAYERS[2]), ("Subject", f"Re: [corr {game_id}] 0. \x1b[2J\x07\x00 hi")],
                                b"7 (5,4)\r\n"), "refused", "not seat C's turn"),
    }


def test_the_host_refuses_or_sets_aside_every_hostile_message_and_plays_the_good_one(hosted, corr, tmp_path):  # type: ignore[no-untyped-def]
    path = hosted.make()
    game_id = engine.load(path).header.id
    assert hosted.run().code == 0
    hosted.inbox.take()
    box = mailbox.Maildir(hosted.maildir, create=False)
    expected = {}
    for name, (data, fate, words) in hostile_messages(game_id).items():
        expected[box.add(data)] = (name, fate, words)
    fifo = f"{int(time.time())}.fifo.host"  # a file in new/ that is no message: reading it would block
    os.mkfifo(hosted.maildir / "new" / fifo)
    expected[fifo] = ("fifo", "aside", "cannot be read")
    seat, moves = legal(corr, path)
    drop(hosted.maildir, reply(game_id, 0, PLAYERS[0], f"{moves[0]}\n", "<good@example.org>"))

    r = hosted.run()
    assert r.code == 1, r.err
    assert "Traceback" not in r.err + r.out
    assert f"played seq 1 A {moves[0]}" in r.out  # the healthy game moved in the same pass
    assert engine.load(path).seq == 1
    assert in_new(hosted.maildir) == []
    cur = {n.split(":")[0] for n in in_cur(hosted.maildir)}
    bad = set(os.listdir(hosted.maildir / "bad"))
    lines = r.out.splitlines()
    for key, (name, fate, words) in expected.items():
        if fate == "refused":
            assert key in cur and key not in bad, name
            (line,) = [x for x in lines if x.startswith(f"refused Maildir/{key}:")]
        else:
            assert key in bad and f"{key}.reason" in bad and key not in cur, name
            (line,) = [x for x in lines if x.startswith(f"set aside Maildir/{key}:")]
            reason = (hosted.maildir / "bad" / f"{key}.reason").read_text()
            assert words in reason and reason.count("\n") == 1, (name, reason)
        assert words in line, (name, line)
    refused = sum(1 for _, fate, _ in expected.values() if fate == "refused")
    aside = len(expected) - refused
    assert f"{refused} messages refused" in r.err and f"{aside} messages set aside" in r.err

    got = hosted.inbox.take()
    mailed = [(rcpt, m) for rcpt, m in got if m["Auto-Submitted"] != "auto-replied"]
    answers = [(rcpt, m) for rcpt, m in got if m["Auto-Submitted"] == "auto-replied"]
    assert sorted(rcpt[0] for rcpt, _ in mailed) == sorted(EMAILS.values())
    assert all(m["Subject"] == f"[corr {game_id}] 1. {moves[0]}" for _, m in mailed)
    assert answers and all(rcpt in ([EMAILS["B"]], [EMAILS["C"]]) for rcpt, _ in answers)
    for _, m in answers:
        assert m["Bcc"] is None and "\n" not in m["Subject"] and "\x1b" not in m["Subject"]
    # The next pass has nothing left to trip over.
    r = hosted.run()
    assert r.code == 0 and r.out == "", r.out


def test_a_looping_host_survives_every_pass(hosted, corr):  # type: ignore[no-untyped-def]
    path = hosted.make()
    game_id = engine.load(path).header.id
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "corr", "host", "run", "--maildir", str(hosted.maildir), "--games", str(hosted.games),
         "--smtp", str(hosted.config), "--interval", "0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )

    def settle() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and in_new(hosted.maildir):
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        time.sleep(0.3)  # a pass or two more
        assert proc.poll() is None, proc.communicate()

    try:
        box = mailbox.Maildir(hosted.maildir, create=False)
        hostile = list(hostile_messages(game_id).values())
        for seq in range(3):  # three passes, each with a third of the hostile messages and a good move
            for data, _, _ in hostile[seq::3]:
                box.add(data)
            seat, moves = legal(corr, path)
            drop(hosted.maildir, reply(game_id, seq, PLAYERS["ABC".index(seat)], f"{moves[0]}\n", f"<g{seq}@x.org>"))
            settle()
            assert engine.load(path).seq == seq + 1
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "pass failed" not in out and "Traceback" not in err, (out, err)
    assert "stopped by SIGTERM" in out


# ---------------------------------------------------------------------------------
# 5. Who may add records by mail


def forged_by(copy: Path, seat_move: str, sender: str, out: Path) -> Path:
    """A message carrying `copy`'s log after `seat_move` was played on it, from `sender`."""
    engine.act(copy, "move", text=seat_move)
    msg = compose(engine.load(copy), "A", sender=sender)
    out.write_bytes(msg.as_bytes())
    return out


def test_an_attached_log_in_a_game_without_keys_takes_a_seats_records_only_from_its_address(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    # Ben plays A's move on his own copy and mails it: Anna's copy refuses it.
    forged_by(b, "7 (5,4)", f"Ben <{BEN}>", tmp_path / "ben.eml")
    before = a.read_bytes()
    one_line_refusal(corr("mail", "ingest", tmp_path / "ben.eml", "--games", a.parent), 1,
                     "seq 1 is seat A's record", "not from A's address")
    assert a.read_bytes() == before
    # ... and answers Ben (the From) saying why.
    r = corr("mail", "ingest", tmp_path / "ben.eml", "--games", a.parent, "--reply", "--reply-dir", tmp_path / "out")
    (answer,) = (tmp_path / "out").glob("*.eml")
    got = parse(answer.read_bytes())
    assert got["To"] == f"Ben <{BEN}>" and "not from A's address" in got.get_content()
    # The same record from Eve, or from Anna and Eve at once: refused too.
    msg = parse((tmp_path / "ben.eml").read_bytes())
    for sender in (f"Eve <{EVE}>", f"Anna <{ANNA}>, Eve <{EVE}>", ""):
        del msg["From"]
        if sender:
            msg["From"] = sender
        (tmp_path / "x.eml").write_bytes(msg.as_bytes())
        one_line_refusal(corr("mail", "ingest", tmp_path / "x.eml", "--games", a.parent), 1, "not from A's address")
    assert a.read_bytes() == before
    # From Anna's own address (in any case) it is taken.
    del msg["From"]
    msg["From"] = f"Anna <{ANNA.upper()}>"
    (tmp_path / "x.eml").write_bytes(msg.as_bytes())
    r = corr("mail", "ingest", tmp_path / "x.eml", "--games", a.parent)
    assert r.code == 0 and "took seq 1" in r.out, r.err


def test_a_seat_without_an_address_takes_no_records_by_mail_in_a_game_without_keys(tmp_path, corr):  # type: ignore[no-untyped-def]
    a = new_log(tmp_path / "a" / "game.corr", emails=False)
    b = tmp_path / "b" / "game.corr"
    b.parent.mkdir()
    shutil.copyfile(a, b)
    engine.act(b, "move", text="7 (5,4)")
    game_id = engine.load(a).header.id
    (tmp_path / "eve.eml").write_bytes(with_attachments([("From", f"Eve <{EVE}>"), ("Subject", f"[corr {game_id}] 1. x")],
                                                        [(f"{game_id}.corr", b.read_bytes())]))
    one_line_refusal(corr("mail", "ingest", tmp_path / "eve.eml", "--games", a.parent), 1, "has no address")
    assert store.read(a).records == []
    # A body move for it neither.
    (tmp_path / "body.eml").write_bytes(reply_eml(game_id, 0, "7 (5,4)\n"))
    one_line_refusal(corr("mail", "ingest", tmp_path / "body.eml", "--games", a.parent), 1, "has no address")


def test_signed_records_are_taken_from_anyone(tmp_path, corr):  # type: ignore[no-untyped-def]
    for who in ("anna", "ben"):
        assert corr("key", "new", "--out", tmp_path / who).code == 0
    a = tmp_path / "a" / "match.corr"
    a.parent.mkdir()
    assert corr("new", "combat", a, "-p", f"Anna <{ANNA}>", "-p", f"Ben <{BEN}>", "--key", f"A={tmp_path / 'anna.pub'}",
                "--key", f"B={tmp_path / 'ben.pub'}", "-f", "none").code == 0
    b = tmp_path / "b" / "match.corr"
    b.parent.mkdir()
    shutil.copyfile(a, b)
    engine.act(a, "move", text="7 (5,4)", key=tmp_path / "anna.key")
    (tmp_path / "eve.eml").write_bytes(compose(engine.load(a), "B", sender=f"Eve <{EVE}>").as_bytes())
    r = corr("mail", "ingest", tmp_path / "eve.eml", "--games", b.parent)
    assert r.code == 0 and "took seq 1" in r.out, r.err  # the signature decides


def test_the_host_refuses_an_attached_log_that_moves_for_another_seat(hosted, corr, tmp_path):  # type: ignore[no-untyped-def]
    path = hosted.make()
    assert hosted.run().code == 0
    hosted.inbox.take()
    ben_copy = tmp_path / "ben.corr"
    shutil.copyfile(path, ben_copy)
    seat, moves = legal(corr, path)
    assert seat == "A"
    forged_by(ben_copy, moves[0], PLAYERS[1], tmp_path / "forged.eml")
    msg = parse((tmp_path / "forged.eml").read_bytes())
    msg.replace_header("To", HOST)
    drop(hosted.maildir, msg)
    before = path.read_bytes()
    r = hosted.run()
    assert r.code == 1 and "seq 1 is seat A's record" in r.out, r.out
    assert path.read_bytes() == before
    ((rcpt, answer),) = hosted.inbox.take()
    assert rcpt == [EMAILS["B"]] and "not from A's address" in answer.get_content()


# ---------------------------------------------------------------------------------
# 6. Replies racing to answer one seq


def test_replies_racing_for_one_seq_land_exactly_once(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    path = games / "g.corr"
    emails = {"A": "anna@example.org", "B": "ben@example.org"}
    engine.new_game(path, "combat", [f"Anna <{emails['A']}>", f"Ben <{emails['B']}>"], {})
    for round_no in range(3):
        rep = engine.load(path)
        seat, seq = rep.to_move(), rep.seq
        moves = [str(m) for m in rep.game.legal_moves(rep.state)][:6]
        assert len(moves) == 6
        files = []
        for i, move in enumerate(moves):
            msg = EmailMessage()
            msg["From"] = emails[seat]
            msg["Subject"] = f"Re: [corr {rep.header.id}] {seq}. x"
            msg["Message-ID"] = f"<race{round_no}-{i}@example.org>"
            msg.set_content(f"{move}\n")
            files.append(tmp_path / f"r{round_no}-{i}.eml")
            files[-1].write_bytes(msg.as_bytes())
        procs = [subprocess.Popen([sys.executable, "-m", "corr", "mail", "ingest", str(f), "--games", str(games)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for f in files]
        results = [(*p.communicate(timeout=120), p.returncode) for p in procs]
        won = [out for out, _, code in results if code == 0]
        assert len(won) == 1, results
        for _, err, code in results:
            if code:
                assert code == 1 and "stale" in err and err.count("\n") == 1, err
        log = store.read(path)
        assert len(log.records) == seq + 1 and log.records[-1].by == seat and log.records[-1].move in moves
    audit = subprocess.run([sys.executable, "-m", "corr", "audit", str(path), "--json"], capture_output=True, text=True)
    assert json.loads(audit.stdout)["intact"], audit.stdout


# ---------------------------------------------------------------------------------
# 7. Directory fsync, as the kernel sees it (strace)


def traced(tmp_path: Path, code: str) -> list[str]:
    """Run Python `code` under strace; the fsync and openat calls it made, as lines."""
    tracer = shutil.which("strace")
    if tracer is None:
        pytest.skip("strace is not installed")
    out = tmp_path / "strace.txt"
    run = subprocess.run([tracer, "-f", "-y", "-qq", "-e", "trace=fsync,openat", "-o", str(out), sys.executable, "-c",
                          code], capture_output=True, text=True, timeout=120)
    if not out.exists() or "PTRACE" in run.stderr.upper():
        pytest.skip(f"strace cannot trace here: {run.stderr.strip()[:200]}")
    assert run.returncode == 0, run.stderr
    return out.read_text().splitlines()


def dir_fsyncs(trace: list[str]) -> list[str]:
    return [m.group(1) for line in trace if (m := re.search(r"fsync\(\d+<([^>]*)>\)", line))]


def test_the_sidecar_write_fsyncs_its_directory(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    trace = traced(tmp_path, "from pathlib import Path; from corr.log.sidecars import write_json; "
                             f"write_json(Path({str(folder)!r}) / 'g.corr.mail.json', {{'a': 1}})")
    assert os.path.realpath(folder) in dir_fsyncs(trace)


def test_adopting_a_new_game_fsyncs_the_games_directory(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    anna, ben = tmp_path / "anna", tmp_path / "ben"
    anna.mkdir()
    ben.mkdir()
    game = new_log(anna / "match.corr")
    play(game, "7 (5,4)")
    eml(corr, game, "B", tmp_path / "m1.eml")
    game_id = engine.load(game).header.id
    trace = traced(tmp_path, "from corr.cli import main\nimport sys\n"
                             f"try:\n    main(['mail', 'ingest', {str(tmp_path / 'm1.eml')!r}, '--games', "
                             f"{str(ben)!r}, '--new'])\nexcept SystemExit as e:\n    sys.exit(e.code)\n")
    made = next(i for i, line in enumerate(trace) if f"{game_id}.corr\"" in line and "O_CREAT" in line)
    sidecar = next(i for i, line in enumerate(trace) if i > made and ".mail.json" in line and "openat" in line)
    between = dir_fsyncs(trace[made:sidecar])
    assert os.path.realpath(ben) in between, trace[made:sidecar]  # the new copy's name is durable by itself
    assert (ben / f"{game_id}.corr").read_bytes() == game.read_bytes()


def test_the_hosts_maildir_moves_fsync_both_directories(tmp_path: Path) -> None:
    maildir = tmp_path / "Maildir"
    box = mailbox.Maildir(maildir, create=True)
    box.add(b"From: x@example.org\r\nSubject: hello\r\n\r\nno game\r\n")  # refused: to cur/
    box.add(b"From: x@example.org\r\nSubject: big\r\n\r\n" + b"x" * (5 << 20))  # set aside: to bad/
    games = tmp_path / "games"
    games.mkdir()
    config = tmp_path / "smtp.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {free_port()}\ntimeout = 2\n')
    trace = traced(tmp_path, "from pathlib import Path; from corr.mail import host, smtp\n"
                             f"host.run_pass(Path({str(maildir)!r}), Path({str(games)!r}), "
                             f"smtp.load_config({str(config)!r}), echo=lambda line: None)\n")
    synced = dir_fsyncs(trace)
    for sub in ("new", "cur", "bad"):
        assert os.path.realpath(maildir / sub) in synced, (sub, synced)
    assert len(os.listdir(maildir / "cur")) == 1 and len(os.listdir(maildir / "bad")) == 2


# ---------------------------------------------------------------------------------
# Bounded reads elsewhere


def test_a_long_x_corr_seq_is_no_seq(two_copies, tmp_path):  # type: ignore[no-untyped-def]
    a, b = two_copies
    play(a, "7 (5,4)")
    msg = compose(engine.load(a), "B")
    msg["X-Corr-For"] = "B"
    msg["X-Corr-Private"] = '{"hand":[1]}'
    msg.replace_header("X-Corr-Seq", LONG_SEQ)
    result = mail_in.ingest_bytes(msg.as_bytes(), b.parent, "m.eml")
    assert result.ok and "private panel ignored: X-Corr-Game or X-Corr-Seq is too long" in result.message
    assert b.read_bytes() == a.read_bytes()


# ---------------------------------------------------------------------------------
# Headers read once per message


def test_a_message_parses_each_header_once_and_reads_as_the_standard_library_does() -> None:
    import email.parser
    import email.policy

    data = with_attachments([("From", "Anna <anna@example.org>"), ("To", "host@example.org"),
                             ("Subject", "Re: [corr abcd-1234] 3. move"), ("Message-ID", "<r1@example.org>"),
                             ("X-Odd", INJECT)], [("game.corr", b"{}\n")])
    msg = mail_msg.parse_message(data)
    plain = email.parser.BytesParser(policy=email.policy.default).parsebytes(data)
    assert msg["From"] is msg["From"] and msg["Subject"] is msg.get("subject")
    for ours, theirs in zip(msg.walk(), plain.walk()):
        assert ours.get("Content-Type") is ours.get("content-type")
        assert ours.get_content_type() == theirs.get_content_type()
        assert ours.get_filename() == theirs.get_filename()
        for name, _ in theirs.raw_items():
            assert str(ours[name]) == str(theirs[name]) and ours[name].defects == theirs[name].defects
    assert [a.addr_spec for a in msg["From"].addresses] == ["anna@example.org"]
    assert mail_msg.plain_text(msg) == plain.get_body(preferencelist=("plain",)).get_content()
    other = mail_msg.parse_message(data)
    assert other["From"] is not msg["From"]  # each message keeps what it parsed to itself
