"""The host claims a timeout itself: a seat on turn whose time has run out loses on
time, the record goes through the engine as a player's claim does (signed by the host
where the game names it), and every seat is mailed the result. Real parts: a real SMTP
server (aiosmtpd on 127.0.0.1), a real Maildir, real logs; the time is the pass's `now`."""

from __future__ import annotations

import json
import mailbox
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from conftest import decoded, parse_message

from corr import engine
from corr.identity import load_private, public_text, verify
from corr.log import store
from corr.mail import host as mail_host
from corr.mail import smtp

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>"]
EMAILS = {"A": "anna@example.org", "B": "ben@example.org", "C": "cleo@example.org"}
SEAT_OF = {address: seat for seat, address in EMAILS.items()}
HAL = "Hal <hal@example.org>"
START = datetime(2026, 11, 29, 10, 0, tzinfo=timezone.utc)
#: One day a move, no reminders: a pass sends mail only when a game moves or ends.
ONE_DAY = {"kind": "per-move", "days": 1, "remind_hours": 0}
DEADLINE = START + timedelta(days=1)  # A's first move is due by then


def later(**delta: float) -> datetime:
    return START + timedelta(**delta)


class Host:
    """A games folder, a Maildir and an SMTP config for the real server; `run(now)` is
    one host pass at `now`, and returns the messages sent, by seat, and what it said."""

    def __init__(self, root: Path, inbox: Any, port: int) -> None:
        self.root = root
        self.inbox = inbox
        self.games = root / "games"
        self.games.mkdir()
        self.maildir = root / "Maildir"
        mailbox.Maildir(self.maildir, create=True)
        config = root / "smtp.toml"
        config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HAL}"\ntimeout = 10\n')
        self.config = smtp.load_config(config)
        self.path = self.games / "game.corr"
        self.keys: tuple[Any, ...] = ()

    def run(self, now: datetime) -> tuple[dict[str, EmailMessage], list[str]]:
        said: list[str] = []
        mail_host.run_pass(self.maildir, self.games, self.config, echo=said.append, now=now, keys=self.keys)
        sent: dict[str, EmailMessage] = {}
        for envelope in self.inbox.take_envelopes():
            (rcpt,) = envelope.rcpt_tos
            assert SEAT_OF[rcpt] not in sent, "one message per seat and pass"
            sent[SEAT_OF[rcpt]] = parse_message(envelope.original_content)
        return sent, said

    def records(self) -> list[Any]:
        return store.read(self.path).records


@pytest.fixture
def host(tmp_path: Path, smtp_server: tuple[Any, int]) -> Host:
    inbox, port = smtp_server
    return Host(tmp_path, inbox, port)


def key_pair(corr: Any, where: Path, name: str, role: str = "player") -> Path:
    assert corr("key", "new", "--out", where / name, "--role", role).code == 0
    return where / name


def assert_lost_on_time(sent: dict[str, EmailMessage], seats: str, result: str) -> None:
    """Every seat got the result, and it says the game ended on time."""
    assert sorted(sent) == list(seats)
    for msg in sent.values():
        for part in ("plain", "html"):
            text = msg.get_body((part,)).get_content()  # type: ignore[union-attr]
            assert result in text, part


def test_an_overdue_seat_loses_on_time_by_the_hosts_claim_and_every_seat_is_told(host: Host, corr) -> None:  # type: ignore[no-untyped-def]
    engine.new_game(host.path, "combat", PLAYERS, {}, time_control=dict(ONE_DAY), now=START)
    sent, _ = host.run(START)
    assert sorted(sent) == ["A", "B", "C"]  # the game announced

    sent, said = host.run(DEADLINE)  # at the deadline itself A still has time
    assert sent == {} and host.records() == []

    sent, said = host.run(DEADLINE + timedelta(seconds=1))
    (timeout,) = host.records()
    assert (timeout.type, timeout.by, timeout.at) == ("timeout", "B", "2026-11-30T10:00:01Z")
    assert "game.corr: seq 1: the host claims A's timeout (for B): B and C win" in said
    assert_lost_on_time(sent, "ABC", "Anna (A) lost on time. Game over: a draw between Ben (B) and Cleo (C).")
    assert all(m["Subject"].endswith("1. timeout") for m in sent.values())

    audit = corr("audit", host.path, "--json")
    assert audit.code == 0, audit.out
    findings = json.loads(audit.out)["findings"]
    assert any(f["kind"] == "timeout" and f["detail"] == "B claimed a timeout: A lost on time" for f in findings)

    sent, said = host.run(later(days=5))  # over: nothing more to claim or to send
    assert sent == {} and said == [] and len(host.records()) == 1


def test_the_host_wakes_an_idle_game_at_the_second_its_time_runs_out(host: Host) -> None:
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, time_control=dict(ONE_DAY), now=START)
    host.run(START)
    idle = json.loads(Path(f"{host.path}{mail_host.IDLE_SUFFIX}").read_text())
    assert idle["wake"] == "2026-11-30T10:00:01Z"
    sent, said = host.run(later(hours=12))
    assert sent == {} and said == []  # skipped, still idle
    sent, _ = host.run(later(days=3))
    assert [r.type for r in host.records()] == ["timeout"] and sorted(sent) == ["A", "B"]


def test_a_hosted_game_whose_seats_sign_gets_the_timeout_signed_by_the_host(host: Host, corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A seat's key signs its own records, and the host holds none: its claim is its own
    record, `by` "host", signed with the host's key, which every copy checks."""
    anna, ben, hal = (key_pair(corr, tmp_path, n, r) for n, r in (("anna", "player"), ("ben", "player"),
                                                                    ("hal", "host")))
    made = corr("new", "combat", host.path, "-p", PLAYERS[0], "-p", PLAYERS[1], "--key", f"A={anna}.pub",
                "--key", f"B={ben}.pub", "--host", HAL, "--host-key", f"{hal}.pub", "--time", "per-move:1,remind=0",
                "-f", "none")
    assert made.code == 0, made.err
    created = datetime.fromisoformat(store.read(host.path).header.created.replace("Z", "+00:00"))

    host.run(created)  # without the host's key: the host cannot sign, so it claims nothing
    sent, said = host.run(created + timedelta(days=2))
    assert host.records() == [] and sent == {}

    host.keys = (load_private(Path(f"{hal}.key")),)
    sent, said = host.run(created + timedelta(days=2))
    (timeout,) = host.records()
    assert (timeout.type, timeout.by) == ("timeout", "host")
    log = store.read(host.path)
    verify(public_text(host.keys[0]), log.header.id, timeout, "host")
    assert any("the host claims A's timeout: B wins" in line for line in said)
    assert_lost_on_time(sent, "AB", "Anna (A) lost on time. Game over: Ben (B) wins.")
    assert corr("audit", host.path).code == 0

    # Ben's copy takes the host's message, the signed timeout with it, and audits.
    message = tmp_path / "ben.eml"
    message.write_bytes(bytes(sent["B"]))
    mine = tmp_path / "ben-games"
    taken = corr("mail", "ingest", message, "--games", mine, "--new")
    assert taken.code == 0, taken.err
    (copy,) = mine.glob("*.corr")
    assert copy.read_bytes() == host.path.read_bytes()
    assert corr("audit", copy).code == 0


def test_an_unhosted_game_whose_other_seats_sign_is_left_to_its_players(host: Host, corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    anna, ben = key_pair(corr, tmp_path, "anna"), key_pair(corr, tmp_path, "ben")
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, keys_={"A": Path(f"{anna}.pub").read_text().strip(),
                                                                  "B": Path(f"{ben}.pub").read_text().strip()},
                    time_control=dict(ONE_DAY), now=START)
    host.run(START)
    sent, said = host.run(later(days=3))
    assert host.records() == [] and sent == {} and said == []
    idle = json.loads(Path(f"{host.path}{mail_host.IDLE_SUFFIX}").read_text())
    assert idle["wake"] is None  # nothing time alone brings: the game stays idle
    claimed = corr("claim-timeout", host.path, "--sign", f"{ben}.key")  # Ben can
    assert claimed.code == 0, claimed.err


def test_a_card_games_timeout_by_the_host_reveals_the_deal(host: Host, corr) -> None:  # type: ignore[no-untyped-def]
    """cards 6.2: a game a timeout ended is over, and the dealer reveals the deal so every
    card played can be checked; the host's claim reveals as a player's does."""
    hal = key_pair(corr, host.root, "hal", "host")
    made = corr("new", "cards", host.path, *[a for p in PLAYERS for a in ("-p", p)], "--host", HAL,
                "--host-key", f"{hal}.pub", "--dealer-key", f"{hal}.key", "--time", "per-move:1,remind=0",
                "-o", "deck=1x1-9", "-f", "none")
    assert made.code == 0, made.err
    created = datetime.fromisoformat(store.read(host.path).header.created.replace("Z", "+00:00"))
    host.run(created)
    sent, said = host.run(created + timedelta(days=1, seconds=1))
    timeout, reveal = host.records()
    assert (timeout.type, timeout.by) == ("timeout", "host")
    assert (reveal.type, reveal.by) == ("reveal", "dealer") and reveal.seed
    assert "game.corr: seq 2: the dealer reveals the deal" in said
    winners = engine.load(host.path).result().winners
    assert len(sent) == 3 and all("lost on time" in decoded(bytes(m)) for m in sent.values())
    assert all(m.get_content_type() == "multipart/mixed" for m in sent.values())
    assert winners and "A" not in winners
    audit = corr("audit", host.path, "--json")
    assert audit.code == 0, audit.out


def test_a_game_without_time_control_is_never_claimed(host: Host) -> None:
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, now=START)
    host.run(START)
    sent, said = host.run(later(days=400))
    assert host.records() == [] and sent == {} and said == []


def test_a_seat_on_vacation_is_not_claimed_until_its_clock_has_run_again(host: Host, corr) -> None:  # type: ignore[no-untyped-def]
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, time_control={**ONE_DAY, "vacation_days": 5}, now=START)
    with engine.writing(host.path, later(hours=12)) as table:
        table.add("vacation", "A", note="3")
    host.run(later(hours=12))
    sent, said = host.run(later(days=3))  # past the day, but A's clock stood still for three of them
    assert [r.type for r in host.records()] == ["vacation"] and said == []
    sent, said = host.run(later(days=4, seconds=1))
    assert [r.type for r in host.records()] == ["vacation", "timeout"]


def test_a_finished_game_is_never_claimed(host: Host, corr) -> None:  # type: ignore[no-untyped-def]
    """Over by a player's own claim: the host claims nothing after it."""
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, time_control=dict(ONE_DAY), now=START)
    with engine.writing(host.path, later(days=2)) as table:
        table.claim_timeout("B")
    host.run(later(days=2))
    sent, said = host.run(later(days=9))
    assert [r.by for r in host.records()] == ["B"] and sent == {} and said == []


def test_a_seat_with_time_left_is_never_claimed(host: Host, corr) -> None:  # type: ignore[no-untyped-def]
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, time_control=dict(ONE_DAY), now=START)
    host.run(START)
    move = json.loads(corr("legal", host.path, "--json").out)["moves"][0]
    with engine.writing(host.path, later(hours=20)) as table:
        table.add("move", "A", move)  # B's day begins
    host.run(later(hours=20))
    for hours in (21, 43, 44):
        sent, said = host.run(later(hours=hours))
        assert [r.type for r in host.records()] == ["move"] and sent == {} and said == []
    sent, said = host.run(later(hours=44, seconds=1))
    assert [r.by for r in host.records()] == ["A", "A"] and "A wins" in said[0]
