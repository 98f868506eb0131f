"""Per-seat mail of a game with hidden cards (DESIGN 6 and 8, cards 6), with real parts:
a dealt 3-player СуДоку hosted by `run_pass` with a real Maildir and a real SMTP server
(aiosmtpd on 127.0.0.1), players' copies kept from the messages alone. What is checked
is the bytes that leave: every header and every part, decoded."""

from __future__ import annotations

import json
import mailbox
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from corr import engine
from corr.audit import audit
from corr.engine.dealer import secret_path
from corr.log.panels import private_views, read_sidecar, write_sidecar
from corr.mail.compose import compose_file, subject
from corr.mail.ingest import ingest_bytes
from corr.render import render_position
from corr.seatview import position
from conftest import MailHost, decoded, parse_message

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>"]
EMAILS = {"A": "anna@example.org", "B": "ben@example.org", "C": "cleo@example.org"}
SEAT_OF = {address: seat for seat, address in EMAILS.items()}
HOST = "Host <host@example.org>"
#: nine different cards: every seat's card is a different digit
DECK = {"deck": "1x1-9"}


parse = parse_message
everything = decoded


class Host(MailHost):
    """The dealer's games dir, a Maildir, an SMTP config; `run()` is one host pass."""

    def __init__(self, root: Path, port: int, inbox: Any) -> None:
        super().__init__(root, port, inbox, "cards.corr", SEAT_OF, HOST)

    def new(self, options: dict[str, str] | None = None) -> engine.Position:
        return engine.new_game(self.path, "cards", PLAYERS, dict(options or DECK))

    def hands(self) -> dict[str, int]:
        rep = self.dealer()
        assert rep.game.dealt
        return dict(zip(rep.game.seats, rep.state.hands))

    def seed(self) -> str:
        return json.loads(secret_path(self.path).read_text())["seed"]

    def reply(self, seat: str, body: str, message_id: str, **headers: str) -> None:
        """Seat `seat` answers the game's latest message with a plain-text body."""
        rep = self.dealer()
        msg = EmailMessage()
        msg["From"] = PLAYERS["ABC".index(seat)]
        msg["To"] = HOST
        msg["Subject"] = f"Re: {subject(rep)}"  # `Re: [corr <id>] <seq>. <move>`
        msg["Message-ID"] = message_id
        for name, value in headers.items():
            msg[name.replace("_", "-")] = value
        msg.set_content(body)
        mailbox.Maildir(self.maildir, create=False).add(msg)


@pytest.fixture
def host(tmp_path: Path, smtp_server: tuple[Any, int]) -> Host:
    inbox, port = smtp_server
    return Host(tmp_path, port, inbox)


def holds_lines(text: str) -> list[tuple[str, str]]:
    """Every `hand:   X holds N` of a text board."""
    return re.findall(r"hand:[ \t]+([A-F]) holds ([^\r\n]*)", text)


def assert_only_own_card(raw: bytes, seat: str, hands: dict[str, int], log: bytes, seed: str, over: bool) -> None:
    """The message to `seat` shows its card and nobody else's, in every part and header;
    the attachment is the public log; before the reveal nothing holds the seed."""
    msg = parse(raw)
    card = hands[seat]
    assert msg["X-Corr-For"] == seat
    assert json.loads(msg["X-Corr-Private"]) == {"hand": [card] if card else []}
    assert len(msg.get_all("X-Corr-Private")) == 1 and len(msg.get_all("X-Corr-For")) == 1
    text = msg.get_body(preferencelist=("plain",)).get_content()
    html = msg.get_body(preferencelist=("html",)).get_content()
    assert holds_lines(text) == [(seat, str(card) if card else "no card")]
    assert f"for seat {seat} (" in text and "alone" in text
    assert html.count("Your card (") == 1
    assert re.search(r"Your card \(" + seat + r" [^)]*\): <b[^>]*>" + (str(card) if card else "none") + "</b>", html)
    every = everything(raw)
    assert holds_lines(every) == holds_lines(text)  # the text part's line, and no other
    for other in hands:
        if other != seat:
            assert f"for seat {other}" not in every
            assert f"Your card ({other} " not in every
            if not over:  # at the end the reason may say who holds what: public then
                assert f"{other} holds" not in every
    panels = [line for line in every.splitlines() if line.startswith(("X-Corr-Private:", "X-Corr-For:"))]
    assert panels == [f"X-Corr-For: {seat}", f"X-Corr-Private: {msg['X-Corr-Private']}"]
    # the pile's count is public, its order is not
    public = render_position(_public(log), "text")
    assert re.findall(r"pile:[^\r\n]*", text) == re.findall(r"pile:[^\r\n]*", public)
    (attachment,) = list(msg.iter_attachments())
    assert attachment.get_payload(decode=True) == log
    if not over:
        assert b"seed" not in log
        assert seed not in every and seed.encode() not in raw


def _public(log: bytes) -> engine.Position:
    """A log's bytes replayed as a player's copy sees them (no secret beside it)."""
    from corr.log import store

    return engine.replay(store.parse(log, Path("<mailed>")))


# ---------------------------------------------------------------------------------


def test_each_seat_is_mailed_its_own_card_and_nobody_elses(host: Host) -> None:
    host.new()
    hands = host.hands()
    assert len(set(hands.values())) == 3  # three different cards: a leak would show
    sent = host.run()
    assert sorted(sent) == ["A", "B", "C"]
    for seat, raw in sent.items():
        assert parse(raw)["To"] == PLAYERS["ABC".index(seat)]
        assert_only_own_card(raw, seat, hands, host.path.read_bytes(), host.seed(), over=False)
    # A player's copy, which cannot deal, composes no private panel for anyone; Ben's
    # own message shows him the card the host told him, and nobody else's.
    player = host.games.parent / "player"
    player.mkdir()
    assert ingest_bytes(sent["B"], player, "m", new=True).ok
    copy = next(player.glob("*.corr"))
    for seat in "ABC":
        out = compose_file(copy, seat).as_bytes()
        assert b"X-Corr-Private" not in out and b"X-Corr-For" not in out
        assert set(holds_lines(everything(out))) <= ({("B", str(hands["B"]))} if seat == "B" else set())


def test_compose_cli_writes_the_seats_own_view(host: Host, corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    host.new()
    hands = host.hands()
    r = corr("mail", "compose", host.path, "--to", "c", "--out", tmp_path / "to-cleo.eml")
    assert r.code == 0, r.err
    raw = (tmp_path / "to-cleo.eml").read_bytes()
    assert_only_own_card(raw, "C", hands, host.path.read_bytes(), host.seed(), over=False)
    assert b".secret" not in raw


def test_a_players_copy_adopts_the_message_and_shows_its_card(host: Host) -> None:
    host.new()
    hands = host.hands()
    sent = host.run()
    ben = host.games.parent / "ben"
    ben.mkdir()
    result = ingest_bytes(sent["B"], ben, "to-ben.eml", new=True)
    assert result.ok, result.message
    assert "kept seat B's private panel of seq 0" in result.message
    (copy,) = ben.glob("*.corr")
    assert copy.read_bytes() == host.path.read_bytes()
    assert not secret_path(copy).exists()
    rep = engine.load(copy)
    assert not rep.game.dealt  # the player's copy verifies, it does not deal
    assert private_views(copy) == {"B": {"seq": 0, "view": {"hand": [hands["B"]]}}}
    rep.private = private_views(copy)
    assert holds_lines(render_position(rep, "text", "B")) == [("B", str(hands["B"]))]
    assert "hand" not in position(rep, "A") and "hand" not in position(rep)
    assert holds_lines(render_position(rep, "text")) == []

    # The same message again changes nothing; Anna's message, taken in too, adds
    # Anna's panel beside Ben's (one copy may keep several seats' panels).
    again = ingest_bytes(sent["B"], ben, "to-ben.eml", new=True)
    assert again.ok and private_views(copy) == {"B": {"seq": 0, "view": {"hand": [hands["B"]]}}}
    assert ingest_bytes(sent["A"], ben, "to-anna.eml").ok
    assert private_views(copy) == {"A": {"seq": 0, "view": {"hand": [hands["A"]]}},
                                   "B": {"seq": 0, "view": {"hand": [hands["B"]]}}}


def test_the_host_takes_the_card_held_and_refuses_another(host: Host) -> None:
    host.new()
    hands = host.hands()
    host.run()
    rep = host.dealer()
    assert rep.to_move() == "A"
    before = host.path.read_bytes()

    # A card Anna does not hold: refused, answered, nothing appended.
    wrong = next(d for d in range(1, 10) if d != hands["A"])
    host.reply("A", f"{wrong} (1,1)\n\n> the last message\n", "<wrong@example.org>")
    sent = host.run()
    assert sent == {} and host.path.read_bytes() == before
    ((rcpt, answer),) = host.replies
    assert rcpt == EMAILS["A"]
    assert f"A does not hold a {wrong}" in answer.get_content()
    assert answer["In-Reply-To"] == "<wrong@example.org>"

    # Someone else writing Anna's move (from Cleo's address, or with a Reply-To that
    # would carry the answer away) gets no answer about Anna's card: Cleo hears it is
    # not her turn.
    host.reply("C", f"{wrong} (1,1)\n", "<impostor@example.org>")
    host.reply("A", f"{wrong} (1,1)\n", "<redirect@example.org>", Reply_To="Cleo <cleo@example.org>")
    sent = host.run()
    assert sent == {} and host.path.read_bytes() == before
    answers = {msg["In-Reply-To"]: (rcpt, msg.get_content()) for rcpt, msg in host.replies}
    assert answers["<impostor@example.org>"][0] == EMAILS["C"]
    assert "it is not seat C's turn: the move is seat A's to make" in answers["<impostor@example.org>"][1]
    assert "hold" not in answers["<impostor@example.org>"][1]
    assert answers["<redirect@example.org>"][0] == EMAILS["A"]  # never to the Reply-To

    # The card Anna holds: played, and every seat hears of it with its own card.
    move = next(m for m in rep.game.legal_moves(rep.state))
    assert move.digit == hands["A"]
    host.reply("A", f"Here goes:\n{move}\n\n> 0. new game\n", "<right@example.org>")
    sent = host.run()
    assert any(f"played seq 1 A {move}" in line for line in host.said)
    rep = host.dealer()
    assert rep.seq == 1 and rep.log.records[0].move == str(move) and rep.log.records[0].by == "A"
    assert sorted(sent) == ["A", "B", "C"]
    hands = host.hands()
    for seat, raw in sent.items():
        assert parse(raw)["Subject"] == f"[corr {rep.header.id}] 1. {move}"
        assert_only_own_card(raw, seat, hands, host.path.read_bytes(), host.seed(), over=False)


def test_a_whole_game_through_the_host_ends_with_the_reveal(host: Host) -> None:
    host.new()
    players: dict[str, Path] = {}
    sent = host.run()
    for turn in range(40):
        dealer = host.dealer()
        hands = host.hands()
        log = host.path.read_bytes()
        over = dealer.result().over
        assert sorted(sent) == ["A", "B", "C"]
        for seat, raw in sent.items():
            assert_only_own_card(raw, seat, hands, log, host.seed(), over)
            # each player keeps a copy from the messages alone, and sees their own card
            folder = host.games.parent / f"player-{seat}"
            folder.mkdir(exist_ok=True)
            result = ingest_bytes(raw, folder, f"{turn}-{seat}", new=True)
            assert result.ok, result.message
            players[seat] = next(folder.glob("*.corr"))
            assert players[seat].read_bytes() == log
            copy = engine.load(players[seat])
            copy.private = private_views(players[seat])
            shown = holds_lines(render_position(copy, "text", seat))
            assert shown == [(seat, str(hands[seat]) if hands[seat] else "no card")]
        if over:
            break
        seat = dealer.to_move()
        move = dealer.game.legal_moves(dealer.state)[0]
        host.reply(seat, f"{move}\n", f"<t{turn}@example.org>")
        sent = host.run()
        assert host.dealer().seq > dealer.seq, host.said
    else:
        pytest.fail("the game did not end")

    final = host.dealer()
    assert final.result().over and final.log.records[-1].type == "reveal"
    assert final.log.records[-1].seed == host.seed()
    for seat, raw in sent.items():
        msg = parse(raw)
        assert msg["Subject"] == f"[corr {final.header.id}] {final.seq}. reveal of the deal"
        assert host.seed() in everything(raw)  # public now: anyone can re-deal
    for seat, copy in players.items():
        report = audit(copy)
        assert report["intact"], report
        assert engine.load(copy).game.dealt  # dealt from the revealed seed
        assert copy.read_bytes() == host.path.read_bytes()


def test_an_older_message_does_not_replace_a_newer_panel(host: Host) -> None:
    host.new()
    first = host.run()
    ben = host.games.parent / "ben"
    ben.mkdir()
    assert ingest_bytes(first["B"], ben, "m0", new=True).ok
    rep = host.dealer()
    host.reply("A", f"{rep.game.legal_moves(rep.state)[0]}\n", "<a1@example.org>")
    second = host.run()
    card = host.hands()["B"]
    (copy,) = ben.glob("*.corr")
    assert ingest_bytes(second["B"], ben, "m1").ok
    assert private_views(copy)["B"] == {"seq": 1, "view": {"hand": [card]}}
    late = ingest_bytes(first["B"], ben, "m0-again")
    assert late.ok and "not kept: a later one is" in late.message
    assert private_views(copy)["B"] == {"seq": 1, "view": {"hand": [card]}}


def test_the_dealers_copy_keeps_no_panel_from_mail(host: Host) -> None:
    host.new()
    sent = host.run()
    result = ingest_bytes(sent["B"], host.games, "echo")
    assert result.ok and "private panel ignored: this copy is the dealer's: it knows what every seat was dealt" in result.message
    assert "private" not in read_sidecar(host.path)


# ---------------------------------------------------------------------------------
# The panel arrives by mail: hostile until checked. A bad one is ignored with a note;
# the message is taken all the same.

LONG_LIST = "[" + ",".join(["1"] * 101) + "]"


def with_headers(raw: bytes, headers: dict[str, str | None]) -> bytes:
    """The message's bytes with these top-level headers replaced (None: removed), written
    as raw header lines, as a hostile sender could."""
    head, body = raw.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    names = {name.lower().encode() for name in headers}
    kept = [line for line in lines if line.split(b":", 1)[0].lower() not in names]
    assert len(kept) == len(lines) - len(headers)  # each was there once, unfolded
    added = [f"{name}: {value}".encode() for name, value in headers.items() if value is not None]
    return b"\r\n".join(added + kept) + b"\r\n\r\n" + body


@pytest.mark.parametrize(
    "headers, why",
    [
        ({"X-Corr-Private": '{"hand":[' + ",".join(["1"] * 600) + "]}"}, "over 1000 characters"),
        ({"X-Corr-Private": "hand=7"}, "not JSON"),
        ({"X-Corr-Private": "[7]"}, "not a JSON object"),
        ({"X-Corr-Private": "[" * 400 + "]" * 400}, "not a JSON object"),
        ({"X-Corr-Private": json.dumps({f"k{i}": i for i in range(9)})}, "9 keys"),
        ({"X-Corr-Private": json.dumps({"k" * 40: 1})}, "not a short lower-case name"),
        ({"X-Corr-Private": '{"hand":[7.5]}'}, "other than whole numbers"),
        ({"X-Corr-Private": '{"hand":[true]}'}, "other than whole numbers"),
        ({"X-Corr-Private": '{"hand":["7"]}'}, "other than whole numbers"),
        ({"X-Corr-Private": '{"hand":[1e400]}'}, "other than whole numbers"),
        ({"X-Corr-Private": '{"hand":[' + "9" * 30 + "]}"}, "other than whole numbers"),
        ({"X-Corr-Private": '{"hand":' + LONG_LIST + "}"}, "101 items"),
        ({"X-Corr-Private": '{"hand":{"card":7}}'}, "a dict"),
        ({"X-Corr-Private": '{"hand":null}'}, "a NoneType"),
        ({"X-Corr-Private": '{"note":"\\u001b[2J"}'}, "control characters"),
        ({"X-Corr-Private": '{"board":"' + "9" * 81 + '"}'}, "overwrite the public position's 'board'"),
        ({"X-Corr-Private": '{"to_move":"B"}'}, "overwrite the public position's 'to_move'"),
        ({"X-Corr-Private": '{"viewer":"A"}'}, "overwrite the public position's 'viewer'"),
        ({"X-Corr-For": "D"}, "names no seat"),
        ({"X-Corr-For": "dealer"}, "names no seat"),
        ({"X-Corr-For": "=?utf-8?q?B=0AX-Evil=3A_1?="}, "names no seat"),
        ({"X-Corr-For": None}, "X-Corr-For given 0 times"),
        ({"X-Corr-Seq": "7"}, "X-Corr-Seq is not the attached log's seq 0"),
        ({"X-Corr-Game": "cards-00000000"}, "another game"),
    ],
)
def test_a_hostile_private_panel_is_ignored_and_the_message_taken(host: Host, tmp_path: Path, headers, why) -> None:  # type: ignore[no-untyped-def]
    host.new()
    data = with_headers(host.run()["B"], headers)
    player = tmp_path / "player"
    player.mkdir()
    result = ingest_bytes(data, player, "hostile.eml", new=True)
    assert result.ok, result.message
    assert "new game" in result.message and "private panel ignored" in result.message
    assert why in result.message, result.message
    (copy,) = player.glob("*.corr")
    assert copy.read_bytes() == host.path.read_bytes()
    assert private_views(copy) == {}
    assert result.message.count("\n") == 0


def test_a_doubled_panel_header_is_ignored(host: Host, tmp_path: Path) -> None:
    host.new()
    msg = parse(host.run()["B"])
    msg["X-Corr-Private"] = '{"hand":[1]}'
    player = tmp_path / "player"
    player.mkdir()
    result = ingest_bytes(msg.as_bytes(), player, "double.eml", new=True)
    assert result.ok and "X-Corr-Private given 2 times" in result.message
    assert private_views(next(player.glob("*.corr"))) == {}


def test_a_panel_on_a_refused_message_is_not_kept(host: Host, tmp_path: Path) -> None:
    host.new()
    rep = host.dealer()
    host.reply("A", f"{rep.game.legal_moves(rep.state)[0]}\n", "<a1@example.org>")
    msg = parse(host.run()["B"])
    (part,) = list(msg.iter_attachments())
    head, record = host.path.read_bytes().splitlines(keepends=True)
    edited = record.replace(b'"by":"A"', b'"by":"B"')
    assert edited != record
    part.set_content(head + edited, maintype="application", subtype="octet-stream", filename=part.get_filename())
    player = tmp_path / "player"
    player.mkdir()
    result = ingest_bytes(msg.as_bytes(), player, "forged.eml", new=True)
    assert not result.ok and result.code == 2, result.message
    assert list(player.iterdir()) == []


def test_private_views_skips_what_is_not_well_formed(tmp_path: Path) -> None:
    log = tmp_path / "g.corr"
    log.write_bytes(b"")
    assert private_views(log) == {}
    write_sidecar(log, {"private": {"B": {"seq": 3, "view": {"hand": [4]}}, "C": {"seq": "x", "view": {}},
                                    "A": {"seq": 1, "view": {"hand": [1.5]}}, "D": [1]}})
    assert private_views(log) == {"B": {"seq": 3, "view": {"hand": [4]}}}
    write_sidecar(log, {"private": ["B"]})
    assert private_views(log) == {}



def test_cards_5_1_a_seat_whose_card_fits_nowhere_passes_by_mail(host: Host) -> None:
    """As written, A's 5 on (1,3) breaks the rule and leaves B's 5 no cell: the dealer
    waits (4.1 ruling) and B, choosing not to challenge, answers `pass`; the end stands
    and the host reveals the deal."""
    puzzle = "42.8761.916853924775921436869.321784381947526274685931517462893842193675936758412"
    for _ in range(60):  # the deck left is a 3 and two 5s: deal until both seats hold a 5
        rep = engine.new_game(host.path, "cards", PLAYERS[:2], {"puzzle": puzzle, "mode": "as-written"})
        if list(rep.state.hands) == [5, 5]:
            break
        host.path.unlink()
        secret_path(host.path).unlink()
    assert list(host.dealer().state.hands) == [5, 5]
    host.run()
    host.reply("A", "5 (1,3)\n", "<a1@example.org>")
    host.run()
    assert [r.type for r in host.dealer().log.records] == ["move"] and not host.dealer().state.over
    host.reply("B", "pass\n\n> 1. A 5 (1,3)\n", "<b1@example.org>")
    host.run()
    rep = host.dealer()
    assert [r.type for r in rep.log.records] == ["move", "pass", "reveal"] and rep.state.over
    assert audit(host.path)["intact"]
