"""What a host pass mails each seat is, byte for byte, what composing that seat's
message alone gives: a pass draws a position's public board once and shares it among
the seats that see it (`compose.SharedParts`), and that must change nothing a player
receives. Only what belongs to one message - its Message-ID, its Date, the threading
headers naming earlier ids - differs between two composings, so those are taken from
the message received. Checked over a real SMTP server (aiosmtpd on 127.0.0.1), for
every kind of game a message can be about, on the first pass and after a move."""

from __future__ import annotations

import io
import re
import mailbox
from email.generator import BytesGenerator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from conftest import parse_message
from test_mail_parts import KINDS, new_game

from corr import engine
from corr.log.panels import read_sidecar
from corr.mail import host as mail_host
from corr.mail import smtp
from corr.mail.compose import SharedParts, compose, sidecar_references
from corr.seatview import observe, shows_public_board

HOST = "Host <host@example.org>"
#: What two composings of one message may differ in: these headers, and the multipart
#: boundaries (drawn at random when a message is written out, always of one length).
PER_MESSAGE = ("Message-ID", "Date", "In-Reply-To", "References")
BOUNDARY = re.compile(rb"={15}[0-9]{19}==")


def boundaries_named(data: bytes) -> bytes:
    """The message's bytes with each multipart boundary named by its order of appearance."""
    names: dict[bytes, bytes] = {}
    return BOUNDARY.sub(lambda m: names.setdefault(m.group(), b"=%033d=" % len(names)), data)


def wire(msg: EmailMessage) -> bytes:
    """The bytes an SMTP server receives for a composed message: written out as the
    outbox keeps it, read back, and put on the wire by smtplib's send_message."""
    kept = parse_message(msg.as_bytes())
    out = io.BytesIO()
    BytesGenerator(out, policy=kept.policy.clone(linesep="\r\n")).flatten(kept, linesep="\r\n")
    return out.getvalue()


def alone(path: Path, seat: str, since: int | None, thread: dict[str, Any], received: EmailMessage) -> bytes:
    """The message to `seat` composed for it alone, with the received one's per-message headers."""
    rep = engine.load(path)
    msg = compose(rep, seat, since_seq=since, previous_message_id=thread.get("last_message_id"), sender=HOST,
                  references=sidecar_references(thread))
    for name in PER_MESSAGE:
        assert (msg[name] is None) == (received[name] is None), name
        if msg[name] is not None:
            msg.replace_header(name, str(received[name]))
    return boundaries_named(wire(msg))


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """A games folder holding one game of every kind, its first moves played."""
    folder = tmp_path / "games"
    for kind in sorted(KINDS):
        new_game(folder, kind)
    return folder


def run_pass(games: Path, maildir: Path, config: Any, inbox: Any) -> list[Any]:
    mailbox.Maildir(maildir, create=True)
    report = mail_host.run_pass(maildir, games, config, echo=lambda line: None)
    assert not report.failures, report.failures
    return inbox.take_envelopes()


def test_a_pass_mails_each_seat_what_composing_its_message_alone_gives(
        games: Path, tmp_path: Path, smtp_server: tuple[Any, int]) -> None:
    inbox, port = smtp_server
    (tmp_path / "smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\n')
    config = smtp.load_config(tmp_path / "smtp.toml")
    paths = {engine.load(path).header.id: path for path in games.glob("*.corr")}
    before: dict[str, dict[str, Any]] = {game: {} for game in paths}  # each game's thread before the pass
    since: dict[tuple[str, str], int] = {}
    for round_ in range(2):
        envelopes = run_pass(games, tmp_path / "Maildir", config, inbox)
        assert envelopes
        for envelope in envelopes:
            received = parse_message(envelope.original_content)
            game = str(received["X-Corr-Game"])
            seats = {s.email: s.seat for s in engine.load(paths[game]).header.seats}
            assert envelope.rcpt_tos[0] in seats, (game, envelope.rcpt_tos, str(received["Subject"]))  # a seat's mail
            seat = seats[envelope.rcpt_tos[0]]
            expected = alone(paths[game], seat, since.get((game, seat)), before[game], received)
            assert boundaries_named(envelope.original_content) == expected, (game, seat, round_)
        for game, path in paths.items():
            rep = engine.load(path)
            before[game] = read_sidecar(path)
            since.update({(game, s.seat): rep.seen_seq(s.seat) for s in rep.header.seats})
            seat = rep.on_turn()[0] if rep.on_turn() else None
            if round_ == 0 and seat in rep.game.seats:  # a move, for the second pass to mail
                engine.act(path, "move", by=seat, text=str(rep.game.legal_for(rep.state, seat)[0]))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_seat_shares_the_public_board_only_where_it_sees_nothing_more(tmp_path: Path, kind: str) -> None:
    rep = engine.load(new_game(tmp_path, kind))
    public = observe(rep)
    shared = {seat: shows_public_board(observe(rep, seat), public) for seat in rep.game.seats}
    hidden, duel = rep.game.is_hidden(rep.game.opts), rep.game.own_boards and len(rep.game.seats) > 1
    assert all(shared.values()) == (not hidden and not duel), shared
    boards = SharedParts(rep)
    for seat in rep.game.seats:
        view = observe(rep, seat)
        from corr.render import render

        for fmt in ("text", "html"):
            assert boards.draw(view, fmt) == render(view, fmt), (seat, fmt)


def test_a_pass_lists_the_games_folder_once_and_reads_a_replied_log_once(
        games: Path, tmp_path: Path, smtp_server: tuple[Any, int], monkeypatch: pytest.MonkeyPatch) -> None:
    from email.utils import formatdate

    from corr.mail import ingest
    from corr.mail.compose import subject

    inbox, port = smtp_server
    (tmp_path / "smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\n')
    config = smtp.load_config(tmp_path / "smtp.toml")
    run_pass(games, tmp_path / "Maildir", config, inbox)  # the announcements
    box = mailbox.Maildir(tmp_path / "Maildir", create=False)
    for i, kind in enumerate(["combat", "moyo", "war"]):
        rep = engine.load(games / f"{kind}.corr")
        seat = rep.on_turn()[0]
        msg = EmailMessage()
        msg["From"] = next(s.email for s in rep.header.seats if s.seat == seat)
        msg["To"], msg["Subject"] = HOST, f"Re: {subject(rep, seat)}"
        msg["Message-ID"], msg["Date"] = f"<r{i}@example.org>", formatdate()
        msg.set_content(f"{rep.game.legal_for(rep.state, seat)[0]}\n")
        box.add(msg)
    listed: list[Path] = []
    real = ingest.log_names
    monkeypatch.setattr(ingest, "log_names", lambda folder: listed.append(folder) or real(folder))
    loaded: list[Path] = []
    load = engine.load
    monkeypatch.setattr(engine, "load", lambda path, *args, **kw: loaded.append(path) or load(path, *args, **kw))
    report = mail_host.run_pass(tmp_path / "Maildir", games, config, echo=lambda line: None)
    assert report.ingested == 3 and report.mailed == 6, report
    assert listed == [games]
    assert loaded == []  # each replied game mailed from the table its message left, not read again
