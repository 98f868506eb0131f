"""`corr host run --digest HH:MM`: a player in several games gets one message a day
listing every game of theirs on turn, instead of a reminder per game. Real parts: a
real SMTP server (aiosmtpd on 127.0.0.1), a real Maildir, real logs; the time is the
pass's `now`."""

from __future__ import annotations

import mailbox
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from conftest import parse_message

from corr import engine
from corr.errors import UsageError
from corr.mail import digest as mail_digest
from corr.mail import host as mail_host
from corr.mail import smtp

ANNA, BEN, CLEO, DORA = ("Anna\x1b[31m <anna@example.org>", "Ben <ben@example.org>", "Cleo\u202e <cleo@example.org>",
                         "Dora <dora@example.org>")
START = datetime(2026, 11, 29, 5, 0, tzinfo=timezone.utc)  # before the digest's time
SEVEN = (7, 0)


def at(hours: float) -> datetime:
    return START + timedelta(hours=hours)


class Host:
    """A games folder, a Maildir and an SMTP config; `run(now)` is one pass at `now`
    with the digest at 07:00, and returns (recipient, message) of everything sent."""

    def __init__(self, root: Path, inbox: Any, port: int) -> None:
        self.inbox = inbox
        self.games = root / "games"
        self.games.mkdir()
        self.maildir = root / "Maildir"
        mailbox.Maildir(self.maildir, create=True)
        config = root / "smtp.toml"
        config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Hal <hal@example.org>"\ntimeout = 10\n')
        self.config = smtp.load_config(config)
        self.said: list[str] = []

    def game(self, name: str, players: list[str], days: int, remind: int = 24) -> str:
        time_control: dict[str, int | str] = {"kind": "per-move", "days": days, "remind_hours": remind}
        return engine.new_game(self.games / name, "combat", players, {}, time_control=time_control, now=START).header.id

    def run(self, now: datetime, digest: tuple[int, int] | None = SEVEN) -> list[tuple[str, EmailMessage]]:
        self.said = []
        mail_host.run_pass(self.maildir, self.games, self.config, echo=self.said.append, now=now, digest=digest)
        return [(e.rcpt_tos[0], parse_message(e.original_content)) for e in self.inbox.take_envelopes()]

    def digests(self, now: datetime) -> dict[str, EmailMessage]:
        got = {rcpt: msg for rcpt, msg in self.run(now) if msg["Subject"].startswith("corr: your move")}
        return got


@pytest.fixture
def host(tmp_path: Path, smtp_server: tuple[Any, int]) -> Host:
    inbox, port = smtp_server
    return Host(tmp_path, inbox, port)


@pytest.fixture
def club(host: Host) -> dict[str, str]:
    """Anna plays three games (on turn in two), Cleo two (on turn in one), Ben one of
    Anna's and Dora one of her own, each on turn where they sit first; reminders 24 h
    before the deadline, in g2 6 h."""
    return {
        "g1": host.game("g1.corr", [ANNA, BEN], 2),
        "g2": host.game("g2.corr", [ANNA, CLEO], 3, remind=6),
        "g3": host.game("g3.corr", [CLEO, ANNA], 4),
        "g4": host.game("g4.corr", [DORA, "Eve"], 1),
    }


def test_a_player_in_several_games_gets_one_digest_a_day_listing_every_game_on_turn(host: Host, club) -> None:  # type: ignore[no-untyped-def]
    sent = host.run(START)  # the games announced; Dora, in one game, is reminded as ever
    assert not any(m["Subject"].startswith("corr: your move") for _, m in sent)
    reminded = [rcpt for rcpt, m in sent if "reminder" in m["Subject"]]
    assert reminded == ["dora@example.org"]
    assert host.digests(at(1.99)) == {}  # 06:59

    got = host.digests(at(2))  # 07:00: one message per address in several games
    assert sorted(got) == ["anna@example.org", "cleo@example.org"]
    anna = got["anna@example.org"]
    assert anna["Auto-Submitted"] == "auto-generated" and anna.get_content_type() == "text/plain"
    assert anna["Subject"] == "corr: your move in 2 games (2026-11-29)"
    text = anna.get_content()
    assert f"[corr {club['g1']}] 0. new game" in text and f"[corr {club['g2']}] 0. new game" in text
    assert club["g3"] not in text and club["g4"] not in text  # not on turn there, not hers
    assert "deadline 2026-12-01 05:00:00 UTC, 46 hours left" in text  # g1, the nearest, first
    assert text.index(club["g1"]) < text.index(club["g2"])
    cleo = got["cleo@example.org"].get_content()
    assert club["g3"] in cleo and club["g2"] not in cleo and "in 1 game " in cleo
    for msg in got.values():  # names from headers are hostile: shown without their controls
        assert "\x1b" not in msg.as_string() and "\u202e" not in msg.get_content()

    assert host.digests(at(3)) == {}  # once a day
    assert host.digests(at(25.99)) == {}  # next day, 06:59
    assert sorted(host.digests(at(26))) == ["anna@example.org", "cleo@example.org"]


def test_a_reminder_to_a_player_in_several_games_goes_into_the_next_digest(host: Host, club) -> None:  # type: ignore[no-untyped-def]
    host.run(START)
    sent = host.run(at(24))  # g1: 24 h left, Anna's reminder is due; the digest comes at 07:00
    assert not any("reminder" in m["Subject"] for _, m in sent)
    assert "g1.corr: seat A's reminder goes into the daily digest" in host.said
    got = host.digests(at(26))
    assert "22 hours left" in got["anna@example.org"].get_content()


def test_a_reminder_whose_deadline_comes_before_the_next_digest_is_sent_on_its_own(host: Host, club) -> None:  # type: ignore[no-untyped-def]
    host.run(START)
    assert sorted(host.digests(at(50))) == ["anna@example.org", "cleo@example.org"]  # 1 December's are out
    sent = host.run(at(66))  # g2: 6 h left at 23:00, and the next digest comes after its deadline (05:00)
    (reminder,) = [m for rcpt, m in sent if "reminder" in m["Subject"] and rcpt == "anna@example.org"]
    assert club["g2"] in reminder["Subject"]


def test_without_digest_every_game_reminds_on_its_own(host: Host, club) -> None:  # type: ignore[no-untyped-def]
    host.run(START, digest=None)
    sent = host.run(at(24), digest=None)
    assert [rcpt for rcpt, m in sent if "reminder" in m["Subject"]] == ["anna@example.org"]
    assert not (host.games / mail_digest.DIGEST_FILE).exists()


def test_a_garbled_digest_note_only_sends_the_digest_once_more(host: Host, club) -> None:  # type: ignore[no-untyped-def]
    host.run(START)
    assert len(host.digests(at(2))) == 2
    (host.games / mail_digest.DIGEST_FILE).write_text("{not json")
    assert len(host.digests(at(3))) == 2
    assert host.digests(at(4)) == {}


def test_digest_takes_a_time_of_day(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert mail_digest.parse_time("07:30") == (7, 30) and mail_digest.parse_time("23:59") == (23, 59)
    for wrong in ("7:30", "24:00", "07:60", "0730", "٠٧:٣٠", ""):
        with pytest.raises(UsageError, match="HH:MM"):
            mail_digest.parse_time(wrong)
    (tmp_path / "games").mkdir()
    (tmp_path / "smtp.toml").write_text('[smtp]\nhost = "127.0.0.1"\nport = 25\n')
    result = corr("host", "run", "--maildir", tmp_path / "Maildir", "--games", tmp_path / "games", "--smtp",
                  tmp_path / "smtp.toml", "--once", "--digest", "25:00")
    assert result.code == 1 and "HH:MM" in result.err and result.err.count("\n") == 1
