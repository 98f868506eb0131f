"""Games by email (DESIGN.md 8), with real parts: real .eml bytes, a real SMTP server
(aiosmtpd on 127.0.0.1), real mbox and Maildir folders, and two players' separate copies
of one Combat game kept in step by mail alone."""

from __future__ import annotations

import email
import email.policy
import mailbox
import shutil
from email.message import EmailMessage
import json
from pathlib import Path
from typing import Callable

import pytest

from conftest import free_port

from corr import engine
from corr.log import lines, store
from corr.log.panels import sidecar_path
from corr.mail import compose as mail_out
from corr.seatview import observe

ANNA = "anna@example.org"
BEN = "ben@example.net"
MOVES = ("7 (5,4)", "3 (1,1)", "2 (3,3)", "4 (9,9)", "1 (2,1)", "3 (2,9)")


def parse(data: bytes) -> EmailMessage:
    return email.message_from_bytes(data, policy=email.policy.default)  # type: ignore[return-value]


def new_log(path: Path, emails: bool = True) -> Path:
    """A new Combat game between Anna (A) and Ben (B), with their addresses in the header."""
    header = engine.make_header("combat", ["Anna", "Ben"], {})
    if emails:
        data = lines.header_dict(header)
        data["seats"][0]["email"] = ANNA
        data["seats"][1]["email"] = BEN
        header = lines.header_from(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    store.create(path, header)
    return path


@pytest.fixture
def two_copies(tmp_path: Path) -> tuple[Path, Path]:
    """Anna's copy in a/, Ben's in b/: one game, two files."""
    a = new_log(tmp_path / "a" / "game.corr")
    b = tmp_path / "b" / "game.corr"
    b.parent.mkdir()
    shutil.copyfile(a, b)
    return a, b


def play(path: Path, *moves: str) -> None:
    for m in moves:
        engine.act(path, "move", text=m)


def eml(corr, log: Path, to: str, out: Path) -> bytes:  # type: ignore[no-untyped-def]
    r = corr("mail", "compose", log, "--to", to, "--out", out)
    assert r.code == 0, r.err
    return out.read_bytes()


def unchanged(path: Path) -> Callable[[], None]:
    before = path.read_bytes()

    def check() -> None:
        assert path.read_bytes() == before

    return check


# ---------------------------------------------------------------------------------
# Mail out


def test_compose_parses_back_with_headers_alternatives_attachment_and_threading(tmp_path, corr):  # type: ignore[no-untyped-def]
    log = new_log(tmp_path / "game.corr")
    game_id = engine.load(log).header.id
    play(log, "7 (5,4)")
    first = parse(eml(corr, log, "B", tmp_path / "1.eml"))
    assert first["Subject"] == f"[corr {game_id}] 1. 7 (5,4)"
    assert first["From"] == f"Anna <{ANNA}>"
    assert first["To"] == f"Ben <{BEN}>"
    assert first["Message-ID"] and first["Date"]
    assert first["In-Reply-To"] is None
    assert first.get_content_type() == "multipart/mixed"
    plain = first.get_body(preferencelist=("plain",))
    html = first.get_body(preferencelist=("html",))
    assert plain is not None and html is not None
    text = plain.get_content()
    record_line = store.read(log).raw[0].decode()
    assert record_line in text  # the new record as a JSON line
    assert "1. A  7 (5,4)" in text  # the move list
    assert "<table" in html.get_content()
    (attachment,) = list(first.iter_attachments())
    assert attachment.get_filename() == f"{game_id}.corr"
    assert attachment.get_content_type() == "application/octet-stream"
    assert attachment.get_payload(decode=True) == log.read_bytes()

    play(log, "3 (1,1)")
    second = parse(eml(corr, log, "A", tmp_path / "2.eml"))
    assert second["Subject"] == f"[corr {game_id}] 2. 3 (1,1)"
    assert second["From"] == f"Ben <{BEN}>"
    assert second["In-Reply-To"] == first["Message-ID"]
    assert second["References"] == first["Message-ID"]
    third = parse(eml(corr, log, "A", tmp_path / "3.eml"))
    assert third["In-Reply-To"] == second["Message-ID"]
    assert third["References"].split() == [first["Message-ID"], second["Message-ID"]]


def test_compose_since_and_from(tmp_path):  # type: ignore[no-untyped-def]
    log = new_log(tmp_path / "game.corr")
    play(log, *MOVES[:3])
    rep = engine.load(log)
    msg = mail_out.compose(rep, "b", since_seq=0, sender="Referee <ref@example.com>")
    text = msg.get_body(preferencelist=("plain",)).get_content()
    assert "New records (JSON lines):" in text
    for raw in store.read(log).raw:
        assert raw.decode() in text
    assert msg["From"] == "Referee <ref@example.com>"


def test_compose_refuses_a_seat_without_email(tmp_path, corr):  # type: ignore[no-untyped-def]
    log = new_log(tmp_path / "game.corr", emails=False)
    play(log, "7 (5,4)")
    r = corr("mail", "compose", log, "--to", "B", "--out", tmp_path / "x.eml")
    assert r.code == 1 and "no email address" in r.err and r.err.count("\n") == 1
    assert not (tmp_path / "x.eml").exists()
    r = corr("mail", "compose", log, "--to", "Z", "--out", tmp_path / "x.eml")
    assert r.code == 1 and "unknown seat" in r.err


# ---------------------------------------------------------------------------------
# SMTP, against a real server




def test_send_over_smtp(tmp_path, corr, smtp_server):  # type: ignore[no-untyped-def]
    inbox, port = smtp_server
    log = new_log(tmp_path / "game.corr")
    play(log, "7 (5,4)")
    config = tmp_path / "smtp.toml"
    config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Anna <{ANNA}>"\n')
    r = corr("mail", "send", log, "--to", "B", "--config", config)
    assert r.code == 0, r.err
    (envelope,) = inbox.envelopes
    assert envelope.mail_from == ANNA and envelope.rcpt_tos == [BEN]
    msg = parse(envelope.original_content)
    (attachment,) = list(msg.iter_attachments())
    assert attachment.get_payload(decode=True) == log.read_bytes()
    # The sidecar threads the next message to this one.
    play(log, "3 (1,1)")
    r = corr("mail", "send", log, "--to", "A", "--smtp-host", "127.0.0.1", "--smtp-port", str(port))
    assert r.code == 0, r.err
    second = parse(inbox.envelopes[1].original_content)
    assert second["In-Reply-To"] == msg["Message-ID"]


def test_send_refuses_an_unreachable_server_and_passwords_in_config(tmp_path, corr):  # type: ignore[no-untyped-def]
    log = new_log(tmp_path / "game.corr")
    play(log, "7 (5,4)")
    r = corr("mail", "send", log, "--to", "B", "--smtp-host", "127.0.0.1", "--smtp-port", str(free_port()))
    assert r.code == 1 and "cannot reach the SMTP server" in r.err and r.err.count("\n") == 1
    assert not sidecar_path(log).exists()
    config = tmp_path / "smtp.toml"
    config.write_text('host = "127.0.0.1"\npassword = "hunter2"\n')
    r = corr("mail", "send", log, "--to", "B", "--config", config)
    assert r.code == 1 and "password_env or password_file" in r.err
    r = corr("mail", "send", log, "--to", "B")
    assert r.code == 1 and "no SMTP server" in r.err


# ---------------------------------------------------------------------------------
# Mail in


def test_two_players_play_by_eml_only(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    copies = {"A": a, "B": b}
    for i, move in enumerate(MOVES, start=1):
        me, other = ("A", "B") if i % 2 else ("B", "A")
        r = corr("move", copies[me], move, "--format", "none")
        assert r.code == 0, r.err
        msg = tmp_path / f"{i}.eml"
        eml(corr, copies[me], other, msg)
        r = corr("mail", "ingest", msg, "--games", copies[other].parent)
        assert r.code == 0, r.err
        assert f"took seq {i}" in r.out
        assert a.read_bytes() == b.read_bytes()
    assert len(store.read(a).records) == len(MOVES)
    # Threading carried across: B's reply answers A's message.
    m1, m2 = parse((tmp_path / "1.eml").read_bytes()), parse((tmp_path / "2.eml").read_bytes())
    assert m2["In-Reply-To"] == m1["Message-ID"]


def test_ingesting_twice_changes_nothing(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    play(a, "7 (5,4)")
    msg = tmp_path / "1.eml"
    eml(corr, a, "B", msg)
    assert corr("mail", "ingest", msg, "--games", b.parent).code == 0
    check = unchanged(b)
    r = corr("mail", "ingest", msg, "--games", b.parent)
    assert r.code == 0 and "nothing new" in r.out
    check()


def reply_eml(game_id: str, seq: int, body: str, html: bool = False, message_id: str = "<r1@example.net>") -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Ben <{BEN}>"
    msg["To"] = f"Anna <{ANNA}>"
    msg["Subject"] = f"Re: [corr {game_id}] {seq}. 7 (5,4)"
    msg["Message-ID"] = message_id
    if html:
        msg.set_content(body, subtype="html")
    else:
        msg.set_content(body)
    return msg.as_bytes()


def test_a_move_in_the_plain_text_body(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")
    msg = tmp_path / "r.eml"
    msg.write_bytes(reply_eml(game_id, 1, "Hello Anna,\n\n3 (1,1)\n\n> 1. A  7 (5,4)\n"))
    r = corr("mail", "ingest", msg, "--games", a.parent)
    assert r.code == 0, r.err
    log = store.read(a)
    assert [(rec.seq, rec.by, rec.move) for rec in log.records] == [(1, "A", "7 (5,4)"), (2, "B", "3 (1,1)")]
    check = unchanged(a)
    r = corr("mail", "ingest", msg, "--games", a.parent)
    assert r.code == 0 and "already ingested" in r.out
    check()
    # The next message A composes threads to B's reply.
    out = parse(eml(corr, a, "B", tmp_path / "next.eml"))
    assert out["In-Reply-To"] == "<r1@example.net>"


# Refusals: each exits with its code, one line, and leaves the log as it was.


def refused(corr, msg: Path, games: Path, code: int, *words: str) -> None:  # type: ignore[no-untyped-def]
    logs = {p: p.read_bytes() for p in games.glob("*.corr")}
    r = corr("mail", "ingest", msg, "--games", games)
    assert r.code == code, (r.code, r.err)
    assert r.err.startswith("corr: error:") and r.err.count("\n") == 1, r.err
    for word in words:
        assert word in r.err, r.err
    assert "Traceback" not in r.err
    for p, data in logs.items():
        assert p.read_bytes() == data


def test_refuses_an_unknown_game(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    other = new_log(tmp_path / "c" / "other.corr")
    play(other, "7 (5,4)")
    msg = tmp_path / "x.eml"
    eml(corr, other, "B", msg)
    refused(corr, msg, a.parent, 1, "unknown game", engine.load(other).header.id)


def test_refuses_a_future_seq(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    play(a, "7 (5,4)", "3 (1,1)")
    msg = tmp_path / "x.eml"
    eml(corr, a, "B", msg)
    data = parse(msg.read_bytes())
    # An attachment holding only seq 2 (seq 1 left out): a gap in B's copy.
    rows = a.read_bytes().split(b"\n")
    gap = rows[0] + b"\n" + rows[2] + b"\n"
    (part,) = list(data.iter_attachments())
    part.set_content(gap, maintype="application", subtype="octet-stream", filename=part.get_filename())
    msg.write_bytes(data.as_bytes())
    refused(corr, msg, b.parent, 1, "does not follow")
    # A body move answering a seq the copy has not reached.
    game_id = engine.load(a).header.id
    msg.write_bytes(reply_eml(game_id, 5, "2 (3,3)\n"))
    refused(corr, msg, b.parent, 1, "future")


def test_refuses_a_stale_body_move(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    play(a, "7 (5,4)", "3 (1,1)")
    msg = tmp_path / "x.eml"
    msg.write_bytes(reply_eml(engine.load(a).header.id, 1, "2 (3,3)\n", message_id="<old@example.net>"))
    refused(corr, msg, a.parent, 1, "stale")


def test_a_reply_taken_before_a_crash_is_not_refused_as_stale(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    """Killed after Ben's move was written and before his message was noted as seen, a
    host (or `corr mail ingest`) finds the message again on its next run. It was taken:
    the run says so and changes nothing, where it used to refuse it as stale and tell
    Ben his move was refused. Another move answering the same seq is still stale."""
    a, _ = two_copies
    play(a, "7 (5,4)")
    game_id = engine.load(a).header.id
    sidecar = sidecar_path(a)
    before = sidecar.read_bytes() if sidecar.exists() else None
    msg = tmp_path / "r.eml"
    msg.write_bytes(reply_eml(game_id, 1, "3 (1,1)\n", message_id="<taken@example.net>"))
    assert corr("mail", "ingest", msg, "--games", a.parent).code == 0
    if before is None:  # the files as the crash left them: the record written, the message not noted
        sidecar.unlink()
    else:
        sidecar.write_bytes(before)
    log = a.read_bytes()
    again = corr("mail", "ingest", msg, "--games", a.parent)
    assert again.code == 0, again.err
    assert "message already ingested (seq 2); nothing changed" in again.out + again.err
    assert a.read_bytes() == log and [r.move for r in store.read(a).records] == ["7 (5,4)", "3 (1,1)"]
    twice = corr("mail", "ingest", msg, "--games", a.parent)  # noted now, as any message taken
    assert twice.code == 0 and "already ingested; nothing changed" in twice.out + twice.err
    other = tmp_path / "o.eml"
    other.write_bytes(reply_eml(game_id, 1, "2 (3,3)\n", message_id="<other@example.net>"))
    refused(corr, other, a.parent, 1, "stale")


def edited(msg_path: Path, change: Callable[[bytes], bytes]) -> None:
    data = parse(msg_path.read_bytes())
    (part,) = list(data.iter_attachments())
    part.set_content(change(part.get_payload(decode=True)), maintype="application", subtype="octet-stream",
                     filename=part.get_filename())
    msg_path.write_bytes(data.as_bytes())


def test_refuses_an_edited_attachment(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    play(a, "7 (5,4)")
    msg = tmp_path / "1.eml"
    eml(corr, a, "B", msg)
    assert corr("mail", "ingest", msg, "--games", b.parent).code == 0
    play(b, "3 (1,1)")
    msg2 = tmp_path / "2.eml"
    eml(corr, b, "A", msg2)
    # Diverged: seq 1, which A has, rewritten (a different time stamp).
    diverged = tmp_path / "d.eml"
    shutil.copyfile(msg2, diverged)
    at = store.read(a).records[0].at
    edited(diverged, lambda d: d.replace(at.encode(), b"2001-01-01T00:00:00Z", 1))
    refused(corr, diverged, a.parent, 2, "diverged")
    # Bad chain / state: the new seq 2 rewritten to another move.
    forged = tmp_path / "f.eml"
    shutil.copyfile(msg2, forged)
    edited(forged, lambda d: d.replace(b'"move":"3 (1,1)"', b'"move":"4 (1,1)"'))
    refused(corr, forged, a.parent, 2)
    # The honest message still goes in.
    assert corr("mail", "ingest", msg2, "--games", a.parent).code == 0
    assert a.read_bytes() == b.read_bytes()


def test_refuses_html_only_garbage_and_oversized(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")
    msg = tmp_path / "x.eml"
    msg.write_bytes(reply_eml(game_id, 1, "<p>3 (1,1)</p>", html=True))
    refused(corr, msg, a.parent, 1, "HTML-only")
    msg.write_bytes(b"\x00\xff garbage \x89PNG\r\n\r\n not a mail at all")
    refused(corr, msg, a.parent, 1, "not a corr message")
    msg.write_bytes(reply_eml(game_id, 1, "Good move!\n"))
    refused(corr, msg, a.parent, 1, "no move found")
    big = tmp_path / "big.eml"
    eml(corr, a, "B", big)
    edited(big, lambda d: d + b"x" * (1 << 20))
    refused(corr, big, a.parent, 1, "size limit")


def test_reply_to_a_refused_message(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")
    msg = tmp_path / "x.eml"
    msg.write_bytes(reply_eml(game_id, 1, "<p>3 (1,1)</p>", html=True))
    outbox = tmp_path / "outbox"
    r = corr("mail", "ingest", msg, "--games", a.parent, "--reply", "--reply-dir", outbox)
    assert r.code == 1 and "HTML-only" in r.err
    (reply_path,) = outbox.glob("*.eml")
    reply = parse(reply_path.read_bytes())
    assert reply["To"] == f"Ben <{BEN}>"
    assert reply["In-Reply-To"] == "<r1@example.net>"
    assert reply["Subject"].startswith("Re: [corr ")
    assert "HTML-only" in reply.get_content()



def test_a_body_move_is_taken_only_from_its_seats_address(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")  # B to move
    msg = tmp_path / "x.eml"
    for sender in (f"Anna <{ANNA}>", "Eve <eve@example.com>", f"Ben <{BEN}>, Eve <eve@example.com>", "", "<>"):
        data = parse(reply_eml(game_id, 1, "3 (1,1)\n"))
        del data["From"]
        if sender:
            data["From"] = sender
        msg.write_bytes(data.as_bytes())
        # Anna is a seat: she hears it is not her turn; anyone else, whose address counts
        refused(corr, msg, a.parent, 1, "not seat A's turn" if "Anna" in sender else "not from B's address")
    data = parse(reply_eml(game_id, 1, "3 (1,1)\n"))
    data.replace_header("From", f"Ben <{BEN.upper()}>")  # addresses compare without case
    msg.write_bytes(data.as_bytes())
    assert corr("mail", "ingest", msg, "--games", a.parent).code == 0
    assert [r.by for r in store.read(a).records] == ["A", "B"]


def test_a_refusal_goes_to_the_from_address_only_and_survives_hostile_headers(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    from corr.mail.ingest import ingest_bytes
    from corr.mail.reply import refusal_reply

    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")
    raw = reply_eml(game_id, 1, "<p>3 (1,1)</p>", html=True)
    raw = (b"Reply-To: Eve <eve@example.com>\r\nSubject: =?utf-8?q?Re=3A_[corr_x]=0ABcc=3A_eve=40example.com?=\r\n"
           + b"\r\n".join(line for line in raw.split(b"\n") if not line.startswith(b"Subject:")))
    result = ingest_bytes(raw, a.parent, "hostile.eml")
    assert not result.ok
    reply = parse(refusal_reply(result, sender="Host <host@example.org>").as_bytes())
    assert reply["To"] == f"Ben <{BEN}>"
    assert reply["Bcc"] is None and "\n" not in reply["Subject"]
    assert reply["Subject"] == "Re: [corr x] Bcc: eve@example.com"


# ---------------------------------------------------------------------------------
# Mailboxes


def test_mbox_with_several_messages(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    box = mailbox.mbox(tmp_path / "in.mbox")
    for i, move in enumerate(("7 (5,4)", "3 (1,1)", "2 (3,3)"), start=1):
        play(a, move)
        box.add(eml(corr, a, "B", tmp_path / f"{i}.eml"))
    box.add(b"From: x@example.org\nSubject: hello\n\nnot a game\n")
    box.add(eml(corr, a, "B", tmp_path / "again.eml"))  # the last one again: nothing new
    box.flush()
    box.close()
    r = corr("mail", "ingest", "--mbox", tmp_path / "in.mbox", "--games", b.parent)
    assert r.code == 1, r.err
    assert "1 of 5 messages refused" in r.err and "not a corr message" in r.err
    assert r.out.count(": ok:") == 4
    assert a.read_bytes() == b.read_bytes()


def test_maildir_with_several_messages(two_copies, tmp_path, corr):  # type: ignore[no-untyped-def]
    a, b = two_copies
    box = mailbox.Maildir(tmp_path / "Maildir")
    messages = []
    for i, move in enumerate(("7 (5,4)", "3 (1,1)", "2 (3,3)", "4 (9,9)"), start=1):
        play(a, move)
        messages.append(eml(corr, a, "B", tmp_path / f"{i}.eml"))
    for data in reversed(messages):  # arrival order does not matter: seq order is used
        box.add(data)
    r = corr("mail", "ingest", "--maildir", tmp_path / "Maildir", "--games", b.parent)
    assert r.code == 0, r.err
    assert r.out.count(": ok:") == 4
    assert a.read_bytes() == b.read_bytes()
    assert len(list((tmp_path / "Maildir" / "new").iterdir())) == 4  # left in place
    r = corr("mail", "ingest", "--maildir", tmp_path / "Maildir", "--games", b.parent)
    assert r.code == 0 and r.out.count("nothing new") == 4
    assert a.read_bytes() == b.read_bytes()


def test_ingest_usage(tmp_path, corr):  # type: ignore[no-untyped-def]
    r = corr("mail", "ingest", "--games", tmp_path)
    assert r.code == 1 and "exactly one of" in r.err
    r = corr("mail", "ingest", tmp_path / "nope.eml", "--games", tmp_path)
    assert r.code == 1 and "nope.eml" in r.err


@pytest.mark.parametrize("sub", ["compose", "send", "ingest"])
def test_help_has_an_example(corr, sub):  # type: ignore[no-untyped-def]
    r = corr("mail", sub, "--help")
    assert r.code == 0 and "Example:" in r.out and "corr mail " + sub in r.out


def test_mbox_replies_to_refusals_over_smtp(two_copies, tmp_path, corr, smtp_server):  # type: ignore[no-untyped-def]
    inbox, port = smtp_server
    a, _ = two_copies
    game_id = engine.load(a).header.id
    play(a, "7 (5,4)")
    box = mailbox.mbox(tmp_path / "in.mbox")
    box.add(reply_eml(game_id, 1, "<p>3 (1,1)</p>", html=True))
    box.add(reply_eml(game_id, 1, "3 (1,1)\n", message_id="<r2@example.net>"))
    box.flush()
    box.close()
    config = tmp_path / "smtp.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {port}\n')
    r = corr("mail", "ingest", "--mbox", tmp_path / "in.mbox", "--games", a.parent, "--reply", "--config", config,
             "--reply-dir", tmp_path / "outbox")
    assert r.code == 1 and "1 of 2 messages refused" in r.err
    (envelope,) = inbox.envelopes
    assert envelope.rcpt_tos == [BEN]
    assert "HTML-only" in parse(envelope.original_content).get_content()
    assert len(store.read(a).records) == 2  # the plain-text move went in


def test_ingest_new_starts_a_copy_from_a_games_first_message(tmp_path: Path, corr) -> None:
    """An invited player has no copy yet: `--new` takes the attached, verified log as theirs."""
    anna, ben = tmp_path / "anna", tmp_path / "ben"
    anna.mkdir()
    ben.mkdir()
    game = anna / "match.corr"
    assert corr("new", "combat", game, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>",
                "-f", "none").code == 0
    assert corr("move", game, "7 (8,7)", "-f", "none").code == 0
    assert corr("mail", "compose", game, "--to", "B", "--out", tmp_path / "m1.eml").code == 0
    refused = corr("mail", "ingest", tmp_path / "m1.eml", "--games", ben)
    assert refused.code == 1 and "unknown game" in refused.err
    taken = corr("mail", "ingest", tmp_path / "m1.eml", "--games", ben, "--new")
    assert taken.code == 0, taken.err
    copies = list(ben.glob("*.corr"))
    assert len(copies) == 1 and copies[0].read_bytes() == game.read_bytes()
    again = corr("mail", "ingest", tmp_path / "m1.eml", "--games", ben, "--new")
    assert again.code == 0 and copies[0].read_bytes() == game.read_bytes()


def test_ingest_new_refuses_a_forged_first_log(tmp_path: Path, corr) -> None:
    from corr import engine
    from corr.mail.compose import compose

    anna, ben = tmp_path / "anna", tmp_path / "ben"
    anna.mkdir()
    ben.mkdir()
    game = anna / "match.corr"
    corr("new", "combat", game, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>", "-f", "none")
    corr("move", game, "7 (8,7)", "-f", "none")
    msg = compose(engine.load(game), "B")
    forged = game.read_bytes().replace(b'"7 (8,7)"', b'"7 (8,8)"')
    for part in msg.iter_attachments():
        name = part.get_filename()
        part.set_content(forged, maintype="application", subtype="octet-stream", filename=name)
    (tmp_path / "forged.eml").write_bytes(msg.as_bytes())
    result = corr("mail", "ingest", tmp_path / "forged.eml", "--games", ben, "--new")
    assert result.code == 2, result.err
    assert not list(ben.glob("*.corr"))


def test_two_players_with_their_own_keys_play_a_whole_game_by_eml_only(tmp_path, corr):  # type: ignore[no-untyped-def]
    """Separate keys, separate copies, nothing but .eml files between them: the game runs
    to its end and both copies finish byte-identical."""
    import random

    from corr import engine
    from corr.mail.compose import compose_file

    anna_dir, ben_dir = tmp_path / "anna", tmp_path / "ben"
    anna_dir.mkdir()
    ben_dir.mkdir()
    assert corr("key", "new", "--out", anna_dir / "anna").code == 0
    assert corr("key", "new", "--out", ben_dir / "ben").code == 0
    anna_log = anna_dir / "match.corr"
    assert corr("new", "combat", anna_log, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>",
                "--key", f"A={anna_dir / 'anna.pub'}", "--key", f"B={ben_dir / 'ben.pub'}", "-f", "none").code == 0
    players = {"A": (anna_log, anna_dir, anna_dir / "anna.key", "B"), "B": (None, ben_dir, ben_dir / "ben.key", "A")}
    rng = random.Random(3)
    seat, messages = "A", 0
    while True:
        log, folder, key, other = players[seat]
        rep = engine.load(log)
        if rep.to_move() is None:
            break
        assert rep.to_move() == seat
        move = rng.choice(rep.game.legal_moves(rep.state))
        engine.act(log, "move", text=str(move), key=key)
        msg_path = tmp_path / f"m{messages}.eml"
        msg_path.write_bytes(compose_file(log, other).as_bytes())
        messages += 1
        other_log, other_dir = players[other][0], players[other][1]
        result = corr("mail", "ingest", msg_path, "--games", other_dir, "--new")
        assert result.code == 0, result.err
        if other_log is None:
            players[other] = (next(other_dir.glob("*.corr")),) + players[other][1:]
        seat = engine.load(players[other][0]).to_move() or other
    ben_log = players["B"][0]
    assert anna_log.read_bytes() == ben_log.read_bytes()
    assert engine.load(anna_log).result().over and messages > 20
    assert corr("audit", ben_log).code == 0


# ---------------------------------------------------------------------------------
# Each message is built from its seat's view; the move list is the public one.

# A real Combat opening played without claims; then `7 (1,4)` conquers fields 1 and 4
# unclaimed (the position of test_combat's MISSED_FIELD_1).
MISSED_FIELD_1 = (
    "7 (2,2)", "7 (6,6)", "6 (9,4)", "5 (9,2)", "1 (9,1)", "2 (1,7)", "8 (4,1)", "6 (2,6)",
    "1 (7,7)", "9 (7,1)", "5 (7,8)", "3 (6,3)", "9 (4,2)", "3 (2,7)", "7 (5,3)", "3 (1,3)",
    "3 (9,7)", "5 (4,9)", "2 (5,7)", "6 (8,2)", "4 (1,1)", "1 (6,8)", "1 (4,3)", "9 (3,7)",
    "1 (2,9)", "2 (9,3)", "7 (3,8)", "7 (1,4)",
)


def decoded(msg: EmailMessage) -> str:
    """Every header and every leaf part of a message, decoded."""
    out: list[str] = []
    for part in msg.walk():
        out += [f"{name}: {value}" for name, value in part.items()]
        if not part.is_multipart():
            data = part.get_payload(decode=True) or b""
            out.append(data.decode(part.get_content_charset() or "utf-8"))
    return "\n".join(out)


def test_a_missed_conquest_is_not_told_by_mail_until_the_game_ends(tmp_path):  # type: ignore[no-untyped-def]
    from corr.errors import IllegalMove
    from corr.notation import Placement
    from corr.record_text import game_text

    log = new_log(tmp_path / "game.corr")
    play(log, *MISSED_FIELD_1)
    rep = engine.load(log)
    (missed,) = rep.steps[-1].outcome.untold()  # a real missed conquest: fields 1 and 4
    assert missed.startswith("misses") and "1" in missed and "4" in missed
    for seat in "AB":
        sent = parse(mail_out.compose(rep, seat).as_bytes())
        text = decoded(sent)
        assert "7 (1,4)" in text and "misses" not in text
    # Played on to its end (claiming whatever a move conquers), the log text tells it.
    while rep.to_move() is not None:
        move = rep.game.legal_moves(rep.state)[0]
        try:
            rep, _ = engine.act(log, "move", text=str(Placement(move.digit, move.cell, ())))
        except IllegalMove:
            rep, _ = engine.act(log, "move", text=str(move))
    rep = engine.load(log)
    assert rep.result().over
    assert f" 28. B  7 (1,4)  {{{missed}}}" in game_text(observe(rep), rep.header)
    final = decoded(parse(mail_out.compose(rep, "A").as_bytes()))
    assert f"28. B  7 (1,4)  {{{missed}}}" in final


@pytest.mark.parametrize("game, options", [("combat", {}), ("moyo", {"puzzle": "1"})])
def test_games_without_hidden_information_mail_the_public_boards(tmp_path, game, options):  # type: ignore[no-untyped-def]
    from corr.games import game_class
    from corr.render import render_position

    cls = game_class(game)
    assert not cls.hidden
    players = [f"P{i} <p{i}@example.org>" for i in range(cls.min_seats)]
    rep = engine.new_game(tmp_path / "g.corr", game, players, options)
    for seat in rep.game.seats:
        msg = mail_out.compose(rep, seat)
        assert msg["X-Corr-For"] is None and msg["X-Corr-Private"] is None
        text = msg.get_body(preferencelist=("plain",)).get_content()
        html = msg.get_body(preferencelist=("html",)).get_content()
        assert "\n" + render_position(rep, "text").rstrip("\n") + "\n\n" in text
        board = render_position(rep, "html")
        body = board[board.index("<body"):board.index("</body>")]
        assert body[body.index(">") + 1:].strip() in html and html.count("<body") == 1
        assert "alone" not in text + html


def test_a_game_is_found_by_its_id_through_a_renamed_added_or_edited_folder(tmp_path: Path) -> None:
    """find_game: `<id>.corr` first, then the folder's index, which follows every change
    to the folder and never returns a log whose header is another game's."""
    import os

    from corr.errors import UsageError
    from corr.mail.ingest import find_game

    games = tmp_path / "games"
    games.mkdir()

    def log(file: str, game_id: str) -> Path:
        path = games / file
        path.write_text(json.dumps({"id": game_id}) + "\n")
        return path

    named = log("combat-aaaa1111.corr", "combat-aaaa1111")
    other = log("club.corr", "combat-bbbb2222")
    assert find_game(games, "combat-aaaa1111") == named
    assert find_game(games, "combat-bbbb2222") == other
    moved = games / "renamed.corr"
    os.replace(other, moved)
    assert find_game(games, "combat-bbbb2222") == moved
    log("late.corr", "combat-cccc3333")
    assert find_game(games, "combat-cccc3333") == games / "late.corr"
    moved.write_text(json.dumps({"id": "combat-dddd4444"}) + "\n")  # edited in place: the index is stale
    assert find_game(games, "combat-dddd4444") == moved
    with pytest.raises(UsageError, match="unknown game combat-bbbb2222"):
        find_game(games, "combat-bbbb2222")


def test_the_index_of_games_survives_the_sidecars_written_beside_the_logs(tmp_path: Path, monkeypatch) -> None:
    """Each ingested message writes a sidecar beside its log; that must not make the next
    message read every header of the folder again."""
    from corr.mail import ingest

    games = tmp_path / "games"
    games.mkdir()
    for i in range(30):
        (games / f"g{i}.corr").write_text(json.dumps({"id": f"combat-{i:08d}"}) + "\n")
    assert ingest.find_game(games, "combat-00000007") == games / "g7.corr"
    read: list[Path] = []
    real = ingest._header_id
    monkeypatch.setattr(ingest, "_header_id", lambda path: read.append(path) or real(path))
    (games / "g7.corr.mail.json").write_text("{}")  # the folder changes, its logs do not
    assert ingest.find_game(games, "combat-00000012") == games / "g12.corr"
    assert len(read) == 2  # `<id>.corr` tried, then the indexed hit checked
