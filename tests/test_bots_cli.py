"""`corr bot`, computer seats (`corr new --bot`, FILE.bots.json) answering `corr move`,
and the host answering for them by mail, over real SMTP on loopback."""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest

from conftest import MailHost

from corr import engine
from corr.bots import seats
from corr.games.combat import bot as combat


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strong thinks a tenth of a second here (its default is a second)."""
    monkeypatch.setattr(combat, "BUDGET", 0.1)


def records(path: Path) -> list[tuple[str, str]]:
    return [(r.by, r.move or r.type) for r in engine.load(path).log.records]


def new(corr, path: Path, *extra: str):  # type: ignore[no-untyped-def]
    return corr("new", "combat", path, "-p", "Anna", "-p", "Ben", *extra, "--format", "none")


def test_bot_dry_run_says_the_move_and_appends_nothing(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    assert new(corr, path).code == 0
    before = path.read_bytes()
    r = corr("bot", path, "--dry-run", "--level", "greedy", "--seed", "4")
    assert r.code == 0, r.err
    assert r.out.startswith("A (greedy): ") and "conquers nothing" in r.out and "(expects 0)" in r.out
    assert path.read_bytes() == before
    assert corr("bot", path, "--dry-run", "--level", "greedy", "--seed", "4").out == r.out  # --seed: the same move


def test_bot_plays_one_move_for_the_seat_on_turn_and_prints_the_board(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    new(corr, path)
    assert corr("move", path, "7 (8,7)", "--format", "none").code == 0
    r = corr("bot", path, "--level", "strong", "--seed", "1")
    assert r.code == 0, r.err
    assert "to move: A" in r.out and r.err.startswith("B (strong): ")
    assert [by for by, _ in records(path)] == ["A", "B"]
    assert corr("audit", path).code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "expert"], "unknown level 'expert'"),
        (["--seat", "B"], "seat B is not on turn"),
        (["--seat", "Q"], "no seat 'Q'"),
        (["--format", "svg"], "unknown format 'svg'"),
    ],
)
def test_bot_refuses_bad_requests_in_one_line_and_writes_nothing(tmp_path: Path, corr, args, message) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    new(corr, path)
    before = path.read_bytes()
    r = corr("bot", path, *args)
    assert r.code == 1 and r.err.startswith("corr: error: ") and message in r.err and r.err.count("\n") == 1
    assert path.read_bytes() == before


def test_bot_in_a_domino_duel_needs_the_seat(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "duel.corr"
    assert corr("new", "domino", path, "-p", "Anna", "-p", "Ben", "-o", "seed=s1", "--format", "none").code == 0
    r = corr("bot", path, "--dry-run")
    assert r.code == 1 and "may all move now: say which with --seat SEAT" in r.err


def test_computer_seat_answers_every_move(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    r = new(corr, path, "--bot", "B=strong")
    assert r.code == 0, r.err
    assert json.loads(seats.path_for(path).read_text()) == {"seats": {"B": "strong"}}
    assert b"strong" not in path.read_bytes()  # the header is the same as a game between people
    r = corr("move", path, "7 (8,7)")
    assert r.code == 0, r.err
    assert "seq 2: B (computer, strong) " in r.out
    assert r.out.count("to move:") == 2 and r.out.rstrip().endswith("to move: A Anna")
    anna = json.loads(corr("legal", path, "--json").out)["moves"][0]  # B's answer depends on its time
    r = corr("move", path, anna, "--format", "json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["seq"] == 4 and "seq 4: B (computer, strong)" in r.err  # the position after the answer
    assert [by for by, _ in records(path)] == ["A", "B", "A", "B"]
    assert corr("audit", path).code == 0


def test_a_computer_seat_on_turn_at_the_start_moves_at_once(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    r = corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--bot", "A=greedy")
    assert r.code == 0, r.err
    assert "seq 1: A (computer, greedy) " in r.out
    assert [by for by, _ in records(path)] == ["A"]
    r = corr("bot", path, "--dry-run", "--seat", "B")
    assert r.code == 0 and r.out.startswith("B (strong): ")  # a person's seat: strong unless told
    seats.write(path, {"A": "random"})
    move = json.loads(corr("legal", path, "--json").out)["moves"][0]
    assert corr("move", path, move, "--format", "none").code == 0
    r = corr("bot", path, "--dry-run", "--seat", "B", "--level", "greedy")
    assert r.code == 0 and r.out.startswith("B (greedy): ")
    assert len(records(path)) == 3


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (["--bot", "B=expert"], "unknown level 'expert'"),
        (["--bot", "C=strong"], "no seat C"),
        (["--bot", "B:strong"], "is not SEAT=LEVEL"),
        (["--bot", "A", "--bot", "B"], "every seat would be the computer's"),
    ],
)
def test_new_refuses_bad_computer_seats_and_makes_nothing(tmp_path: Path, corr, bots, message) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "sub" / "g.corr"
    r = new(corr, path, *bots)
    assert r.code == 1 and message in r.err and r.err.count("\n") == 1
    assert not (tmp_path / "sub").exists()


def test_a_seat_with_a_key_cannot_be_the_computers(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    assert corr("key", "new", "--out", tmp_path / "ben").code == 0
    path = tmp_path / "g.corr"
    r = new(corr, path, "--key", f"B={tmp_path / 'ben.pub'}", "--bot", "B=strong")
    assert r.code == 1 and "seat B signs its records" in r.err
    assert not path.exists()


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"not json", "not JSON"),
        (b'["B"]', 'it must be {"seats"'),
        (b'{"seats": {"Q": "strong"}}', "is not a seat of this game"),
        (b'{"seats": {"B": "godlike"}}', "the level must be one of"),
        (b'{"seats": {"B": "strong"}}' + b" " * 5000, "more than 4096"),
    ],
)
def test_a_damaged_computer_seats_file_is_refused_before_the_move(tmp_path: Path, corr, content, why) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    new(corr, path)
    seats.path_for(path).write_bytes(content)
    before = path.read_bytes()
    r = corr("move", path, "7 (8,7)")
    assert r.code == 1 and r.err.startswith(f"corr: error: {seats.path_for(path)}: not a computer seats file")
    assert why in r.err and r.err.count("\n") == 1
    assert path.read_bytes() == before


def reply(game_id: str, seq: int, sender: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "Host <host@example.org>"
    msg["Subject"] = f"Re: [corr {game_id}] {seq}. your move"
    msg["Message-ID"] = f"<r{seq}@example.org>"
    msg.set_content(f"{body}\n")
    return msg


def test_the_host_plays_the_computer_by_mail(tmp_path: Path, corr, smtp_server) -> None:  # type: ignore[no-untyped-def]
    inbox, port = smtp_server
    host = MailHost(tmp_path, port, inbox, "g.corr", {"anna@example.org": "A"})
    r = corr("new", "combat", host.path, "-p", "Anna <anna@example.org>", "-p", "Computer", "--bot", "B=greedy",
             "--format", "none")
    assert r.code == 0, r.err
    game_id = engine.load(host.path).header.id
    sent = host.run()
    assert list(sent) == ["A"]  # the computer has no address: only Anna is mailed
    mailbox.Maildir(host.maildir, create=False).add(reply(game_id, 0, "Anna <anna@example.org>", "7 (8,7)"))
    sent = host.run()
    assert [by for by, _ in records(host.path)] == ["A", "B"]
    assert any("B (computer, greedy)" in line for line in host.said)
    from conftest import parse_message

    msg = parse_message(sent["A"])
    assert msg["Subject"].startswith(f"[corr {game_id}] 2. ")  # the position after the computer's answer
    assert host.run() == {}  # nothing new: nobody mailed, the computer does not move out of turn
    assert len(records(host.path)) == 2


def test_computer_seats_answer_after_corr_bot_as_after_corr_move(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    assert new(corr, path, "--bot", "B=greedy").code == 0
    r = corr("bot", path, "--seat", "A", "--level", "greedy", "--seed", "3")
    assert r.code == 0, r.err
    assert [by for by, _ in records(path)] == ["A", "B"]  # Anna's move by the computer, then its own seat's
    assert r.err.startswith("A (greedy): ") and "seq 2: B (computer, greedy)" in r.out + r.err
    assert "to move: A" in r.out
    assert corr("audit", path).code == 0
