"""A Sudoku Domino duel by mail through the host (domino 1.2, 7.2; DESIGN 6 and 8), with
real parts: `run_pass` over a real Maildir and a real SMTP server on 127.0.0.1. Each
seat plays its own board at its own pace; what is checked is the bytes that leave:
a seat is mailed its own board and digit, and nothing of the other board until the
duel is over."""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from corr import engine
from corr.audit import audit
from corr.engine.dealer import secret_path
from corr.mail.compose import PRIVATE_HEADER
from corr.notation import Placement
from conftest import MailHost, decoded, parse_message

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]
EMAILS = {"A": "anna@example.org", "B": "ben@example.org"}
SEAT_OF = {address: seat for seat, address in EMAILS.items()}
HOST = "Host <host@example.org>"


parse = parse_message
everything = decoded


class Host(MailHost):
    def __init__(self, root: Path, port: int, inbox: Any) -> None:
        super().__init__(root, port, inbox, "duel.corr", SEAT_OF, HOST)

    def new(self, options: dict[str, str] | None = None) -> engine.Position:
        return engine.new_game(self.path, "domino", PLAYERS, {"time_limit": "none", **(options or {})})

    def reply(self, seat: str, answering: bytes, body: str, message_id: str) -> None:
        """`seat` answers the message it was sent (`answering`) with a plain-text body."""
        msg = EmailMessage()
        msg["From"] = PLAYERS["AB".index(seat)]
        msg["To"] = HOST
        msg["Subject"] = f"Re: {parse(answering)['Subject']}"
        msg["Message-ID"] = message_id
        msg.set_content(body)
        mailbox.Maildir(self.maildir, create=False).add(msg)


@pytest.fixture
def host(tmp_path: Path, smtp_server: tuple[Any, int]) -> Host:
    inbox, port = smtp_server
    return Host(tmp_path, port, inbox)


def first_move(rep: engine.Position, seat: str) -> str:
    """The seat's placement of its given digit on its own cell of the solution, else
    its first legal move."""
    moves = rep.game.legal_for(rep.state, seat)
    solution = rep.game.deal.solution
    placements = [m for m in moves if isinstance(m, Placement) and solution[m.cell] == m.digit]
    return str((placements or moves)[0])


def misplacements(rep: engine.Position, seat: str) -> list[str]:
    """The docking cells the seat's given digit breaks the Sudoku rule on (3.1): none
    where the digit fits every docking cell, as a random deal may give it."""
    moves = rep.game.legal_for(rep.state, seat)
    return [str(m) for m in moves if rep.game.check(rep.state, m, seat) is not None]


def misplacement(rep: engine.Position, seat: str) -> str:
    """A docking cell the seat's given digit breaks the Sudoku rule on (3.1)."""
    return misplacements(rep, seat)[0]


def records_by(rep: engine.Position, seat: str) -> list[bytes]:
    return [raw for record, raw in zip(rep.log.records, rep.log.raw) if record.by == seat]


def test_domino_1_2_each_seat_is_mailed_its_own_board_and_digit_alone(host: Host) -> None:
    host.new()
    first = sent = host.run()
    assert sorted(sent) == ["A", "B"]
    dealer = host.dealer()
    for seat, raw in sent.items():
        msg = parse(raw)
        panel = json.loads(msg[PRIVATE_HEADER])
        assert panel == {"given": dealer.game.given(dealer.state, seat)}
        assert msg["Subject"] == f"[corr {dealer.header.id}] 0. new game"

    # A moves twice while B waits: B is mailed nothing, A each time
    for turn in range(2):
        host.reply("A", sent["A"], first_move(host.dealer(), "A") + "\n", f"<a{turn}@example.org>")
        sent = host.run()
        assert sorted(sent) == ["A"], host.said
    dealer = host.dealer()
    a_records = [r for r in dealer.log.records if r.by == "A"]
    assert len(a_records) == 2
    msg = parse(sent["A"])
    assert msg["X-Corr-Seq"] == "2" and json.loads(msg[PRIVATE_HEADER]) == {"given": dealer.game.given(dealer.state, "A")}

    # B answers its first message (seq 0) although the log is at seq 2: its own board has not moved
    host.reply("B", first["B"], first_move(dealer, "B") + "\n", "<b0@example.org>")
    sent = host.run()
    assert sorted(sent) == ["B"], host.said
    msg = parse(sent["B"])
    assert msg["X-Corr-Seq"] == "3" and msg["Subject"].endswith(f"3. {host.dealer().log.records[-1].move}")
    assert not list(msg.iter_attachments()), "no log while it holds A's records"
    text = everything(sent["B"])
    for line in records_by(host.dealer(), "A"):
        assert line.decode() not in text, "B reads none of A's records"
    for record in a_records:
        assert f"{record.seq}. A" not in text


def test_domino_1_2_a_seat_is_sent_the_log_only_while_every_record_in_it_is_its_own(host: Host) -> None:
    """The header is public and a seat's own records are its own to read, so a message
    attaches the log while it holds nothing else - as the README's duel section says."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("### A Domino duel by mail", 1)[1].split("\n## ", 1)[0]
    assert "only while every record in it is that seat's own" in " ".join(section.split())

    host.new()
    header = host.path.read_bytes()
    first = host.run()
    for raw in first.values():  # the first messages: the header alone, the start and the commitment
        (attachment,) = parse(raw).iter_attachments()
        assert attachment.get_payload(decode=True) == header

    host.reply("A", first["A"], first_move(host.dealer(), "A") + "\n", "<a1@example.org>")
    to_a = host.run()["A"]
    (attachment,) = parse(to_a).iter_attachments()  # A's own record and nothing else
    assert attachment.get_payload(decode=True) == host.path.read_bytes()
    assert [r.by for r in host.dealer().log.records] == ["A"]

    host.reply("B", first["B"], first_move(host.dealer(), "B") + "\n", "<b1@example.org>")
    to_b = host.run()["B"]
    assert not list(parse(to_b).iter_attachments()), "the log holds A's record: not B's to read"
    host.reply("A", to_a, first_move(host.dealer(), "A") + "\n", "<a2@example.org>")
    to_a = host.run()["A"]
    assert not list(parse(to_a).iter_attachments()), "the log holds B's record: not A's to read"


def test_domino_1_3_a_seat_whose_board_is_over_is_told_so_not_about_addresses(host: Host) -> None:
    host.new()
    to_b = host.run()["B"]
    placed = 0
    while not misplacements(host.dealer(), "B"):  # the digit fits every docking cell: B places it
        host.reply("B", to_b, first_move(host.dealer(), "B") + "\n", f"<b-placed-{placed}@example.org>")
        to_b = host.run()["B"]
        placed += 1
    for n in range(3):  # three misplacements end B's game (1.3)
        host.reply("B", to_b, misplacement(host.dealer(), "B") + "\n", f"<b{n}@example.org>")
        to_b = host.run()["B"]
    dealer = host.dealer()
    assert dealer.on_turn() == ("A",) and dealer.game.board_of(dealer.state, "B").ended
    before = host.path.read_bytes()
    host.reply("B", to_b, first_move(dealer, "A") + "\n", "<b-after@example.org>")
    assert host.run() == {} and host.path.read_bytes() == before
    ((rcpt, answer),) = host.replies
    text = answer.get_content()
    assert rcpt == EMAILS["B"] and "address" not in text
    assert "it is not seat B's turn: its game on its own board is over, and only seat A's goes on" in text


def test_domino_1_2_a_reply_from_the_other_seat_plays_its_own_board(host: Host) -> None:
    host.new()
    sent = host.run()
    dealer = host.dealer()
    host.reply("B", sent["B"], first_move(dealer, "B") + "\n", "<b@example.org>")
    host.run()
    after = host.dealer()
    assert [r.by for r in after.log.records] == ["B"]
    assert after.game.board_of(after.state, "A").moves == 0


def test_domino_1_2_a_reply_taken_before_a_crash_is_known_among_the_other_boards_records(host: Host) -> None:
    """A duel's reply answers its seat's own board: Anna's record may come between the
    position Ben answered and his record. Stopped after Ben's record was written and
    before his message was noted as seen, the host takes the message again as the one
    it took, not as stale."""
    from corr.log.panels import sidecar_path
    from corr.mail.ingest import ingest_bytes

    host.new()
    sent = host.run()
    dealer = host.dealer()
    replies = {}
    for seat, name in (("A", "<a@example.org>"), ("B", "<b@example.org>")):
        msg = EmailMessage()
        msg["From"] = PLAYERS["AB".index(seat)]
        msg["To"] = HOST
        msg["Subject"] = f"Re: {parse(sent[seat])['Subject']}"
        msg["Message-ID"] = name
        msg.set_content(first_move(dealer, seat) + "\n")
        replies[seat] = msg.as_bytes()
    assert ingest_bytes(replies["A"], host.games).ok
    sidecar = sidecar_path(host.path)
    noted = sidecar.read_bytes()
    assert ingest_bytes(replies["B"], host.games).ok
    sidecar.write_bytes(noted)  # as a crash left it: Ben's record written, his message not noted
    log = host.path.read_bytes()
    again = ingest_bytes(replies["B"], host.games)
    assert again.ok and again.message.endswith("message already ingested (seq 2); nothing changed"), again.message
    assert host.path.read_bytes() == log
    assert [r.by for r in host.dealer().log.records] == ["A", "B"]


def test_domino_1_2_a_whole_duel_by_mail_ends_with_the_reveal_and_everything_shown(host: Host) -> None:
    host.new({"givens": "70"})
    sent = host.run()
    for turn in range(60):
        dealer = host.dealer()
        if dealer.result().over:
            break
        for seat in dealer.on_turn():
            assert seat in sent, (turn, seat, host.said)
            host.reply(seat, sent[seat], first_move(host.dealer(), seat) + "\n", f"<{seat}{turn}@example.org>")
        sent = host.run()
        for seat, raw in sent.items():
            other = "B" if seat == "A" else "A"
            if not host.dealer().result().over:
                text = everything(raw)
                assert not any(line.decode() in text for line in records_by(host.dealer(), other))
    else:
        pytest.fail("the duel did not end")
    final = host.dealer()
    seed = json.loads(secret_path(host.path).read_text())["seed"]
    assert final.log.records[-1].type == "reveal" and final.log.records[-1].seed == seed
    assert sorted(sent) == ["A", "B"]
    for seat, raw in sent.items():
        msg = parse(raw)
        (attachment,) = msg.iter_attachments()
        assert attachment.get_payload(decode=True) == host.path.read_bytes()
        text = everything(raw)
        for line in records_by(final, "A") + records_by(final, "B"):
            assert line.decode() in text
    assert audit(host.path)["intact"]


def test_domino_6_1_the_host_reveals_the_seed_when_the_time_has_run_out(host: Host) -> None:
    with freeze_time("2026-03-01 12:00:00"):
        engine.new_game(host.path, "domino", PLAYERS, {"time_limit": "60"})
        sent = host.run()
        host.reply("A", sent["A"], first_move(host.dealer(), "A") + "\n", "<a@example.org>")
        host.run()
    with freeze_time("2026-03-01 12:01:00"):  # at the limit: the game still runs
        host.run()
        assert host.dealer().log.records[-1].type == "move"
    with freeze_time("2026-03-01 12:01:01"):
        sent = host.run()
        final = host.dealer()
        assert final.log.records[-1].type == "reveal" and final.result().over
        assert sorted(sent) == ["A", "B"]
        host.reply("B", sent["B"], "5 (5,5)\n", "<late@example.org>")
        host.run()
        assert host.dealer().seq == final.seq, "nothing after the limit"
