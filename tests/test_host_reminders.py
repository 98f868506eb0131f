"""The host reminds the seat on turn at each time of its clock's schedule
(`--time per-move:5,remind=72,24`), each once per turn. Real parts: a real SMTP server
(aiosmtpd on 127.0.0.1), a real Maildir, real logs; the time is the pass's `now`."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from test_host_timeouts import PLAYERS, Host

from corr import engine
from corr.mail import host as mail_host

START = datetime(2026, 11, 29, 10, 0, tzinfo=timezone.utc)
FIVE_DAYS = {"kind": "per-move", "days": 5, "remind": "72,24"}


def at(hours: float) -> datetime:
    return START + timedelta(hours=hours)


@pytest.fixture
def host(tmp_path: Path, smtp_server: tuple[Any, int]) -> Host:
    inbox, port = smtp_server
    return Host(tmp_path, inbox, port)


def reminders(host: Host, hours: float) -> list[str]:
    """One pass at START + hours: the Subjects of the reminders it sent."""
    sent, _ = host.run(at(hours))
    return [m["Subject"].split(". ", 1)[1] for m in sent.values() if "reminder" in m["Subject"]]


def test_each_time_of_the_schedule_is_sent_once_per_turn(host: Host, corr) -> None:  # type: ignore[no-untyped-def]
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, time_control=dict(FIVE_DAYS), now=START)
    assert reminders(host, 0) == []  # the game announced; 120 h left
    idle = json.loads(Path(f"{host.path}{mail_host.IDLE_SUFFIX}").read_text())
    assert idle["wake"] == "2026-12-01T10:00:00Z"  # the first time: 72 h before the deadline
    assert reminders(host, 47) == []
    assert reminders(host, 48) == ["reminder: your move, 72 hours left"]
    assert reminders(host, 60) == []
    assert reminders(host, 96) == ["reminder: your move, 24 hours left"]
    assert reminders(host, 100) == []
    state = json.loads(mail_host.host_path(host.path).read_text())
    assert state["reminded"] == {"seq": 0, "seat": "A", "hours": [72, 24]}

    # B's turn; the host was away while both times passed: one reminder, then none.
    move = json.loads(corr("legal", host.path, "--json").out)["moves"][0]
    with engine.writing(host.path, at(101)) as table:
        table.add("move", "A", move)
    host.run(at(101))
    assert reminders(host, 101 + 100) == ["reminder: your move, 20 hours left"]
    assert reminders(host, 101 + 110) == []


def test_a_host_note_from_before_schedules_still_means_the_turn_was_reminded(host: Host) -> None:
    engine.new_game(host.path, "combat", PLAYERS[:2], {}, time_control={"kind": "per-move", "days": 1,
                                                                         "remind_hours": 12}, now=START)
    host.run(START)
    state = json.loads(mail_host.host_path(host.path).read_text())
    state["reminded"] = {"seq": 0, "seat": "A"}  # as the host wrote it before
    mail_host.write_state(host.path, state)
    assert reminders(host, 13) == []
    state["reminded"] = {"seq": 0, "seat": "B"}  # another turn's note: this turn is reminded
    mail_host.write_state(host.path, state)
    Path(f"{host.path}{mail_host.IDLE_SUFFIX}").unlink()  # the state was edited by hand: replay
    assert reminders(host, 14) == ["reminder: your move, 10 hours left"]
