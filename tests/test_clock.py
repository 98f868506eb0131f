"""Time control (DESIGN.md 6): every boundary pinned, time frozen with freezegun.

The pure functions of `corr.timecontrol` are tested on headers and records built
directly; the commands (`corr clock`, `corr claim-timeout`, `corr vacation`) on real
Combat games whose moves are made at frozen times.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time

from corr import clock, timecontrol
from corr.errors import CorruptLog, UsageError
from corr.log import lines

H = "0" * 64
START = "2026-03-01T12:00:00Z"
DAY = 86400
HOUR = 3600


def t(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def at(days: float = 0, seconds: int = 0, start: str = START) -> str:
    return clock.stamp(t(start) + timedelta(days=days, seconds=seconds))


def header(tc: dict[str, Any] | None, created: str = START, seats: str = "AB") -> lines.Header:
    return lines.header_from({
        "id": "combat-0000test", "game": "combat", "options": {}, "created": created,
        "seats": [{"seat": s, "name": f"Player {s}"} for s in seats], "time_control": tc,
    })


def rec(seq: int, by: str, when: str, kind: str = "move", note: str | None = None) -> lines.Record:
    return lines.Record(seq=seq, type=kind, by=by, at=when, prev=H, state=H,
                        move="1 (1,1)" if kind == "move" else None, note=note)


def alternate(times: list[str], first: str = "A", seats: str = "AB") -> list[lines.Record]:
    """Moves at the given times by the seats in turn, starting with `first`."""
    i = seats.index(first)
    return [rec(n + 1, seats[(i + n) % len(seats)], when) for n, when in enumerate(times)]


def seat_clocks(tc, records, to_move, now, **kw):  # type: ignore[no-untyped-def]
    return timecontrol.clocks(header(tc, **kw), records, to_move, t(now) if isinstance(now, str) else now)


# ---------------------------------------------------------------------------------
# parse


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("per-move:3", {"kind": "per-move", "days": 3}),
        (" Per-Move:3 ", {"kind": "per-move", "days": 3}),
        ("period:10/30", {"kind": "period", "moves": 10, "days": 30}),
        ("bank:10+1/30", {"kind": "bank", "days": 10, "increment": 1, "cap": 30}),
        ("bank:10", {"kind": "bank", "days": 10, "increment": 0, "cap": 10}),
        ("bank:10/20", {"kind": "bank", "days": 10, "increment": 0, "cap": 20}),
        ("bank:10+2", {"kind": "bank", "days": 10, "increment": 2, "cap": 10}),
        ("per-move:3,remind=12", {"kind": "per-move", "days": 3, "remind_hours": 12}),
        ("period:10/30,remind=12,vacation=14",
         {"kind": "period", "moves": 10, "days": 30, "remind_hours": 12, "vacation_days": 14}),
        ("bank:10+1/30, vacation=14", {"kind": "bank", "days": 10, "increment": 1, "cap": 30, "vacation_days": 14}),
        ("per-move:1,remind=0,vacation=0", {"kind": "per-move", "days": 1, "remind_hours": 0, "vacation_days": 0}),
        # a schedule: several times, written largest first in one string; one time stays remind_hours
        ("per-move:5,remind=72,24", {"kind": "per-move", "days": 5, "remind": "72,24"}),
        ("per-move:5,remind=6,72,24,vacation=3", {"kind": "per-move", "days": 5, "remind": "72,24,6", "vacation_days": 3}),
        ("bank:10,vacation=3, remind=1, 87600", {"kind": "bank", "days": 10, "increment": 0, "cap": 10,
                                                 "remind": "87600,1", "vacation_days": 3}),
    ],
)
def test_parse_forms(spec: str, expected: dict[str, Any]) -> None:
    tc = timecontrol.parse(spec)
    assert tc == expected
    # The parsed form is valid header data.
    assert header(tc).time_control == expected
    assert timecontrol.validate(dict(tc)) == expected


@pytest.mark.parametrize(
    "spec, words",
    [
        ("", "per-move:DAYS"),
        ("3", "per-move:DAYS"),
        ("blitz:3", "per-move:DAYS"),
        ("per-move", "per-move:DAYS"),
        ("per-move:", "whole number"),
        ("per-move:three", "whole number"),
        ("per-move:-3", "whole number"),
        ("per-move:2.5", "whole number"),
        ("per-move:0", "from 1"),
        ("per-move:٣", "whole number"),
        ("period:10", "MOVES/DAYS"),
        ("period:10/", "whole number"),
        ("period:/30", "whole number"),
        ("period:0/30", "moves"),
        ("bank:10+1/5", "cap"),
        ("bank:+1/30", "whole number"),
        ("bank:10+x/30", "whole number"),
        ("per-move:3,remind", "remind=HOURS"),
        ("per-move:3,holiday=3", "remind=HOURS"),
        ("per-move:3,remind=12,remind=6", "twice"),
        ("per-move:3,vacation=400", "vacation_days"),
        ("per-move:3,vacation=-1", "whole number"),
        ("per-move:3,", "remind=HOURS"),
        ("per-move:3,remind=24,", "remind=HOURS"),
        ("per-move:3,remind=24,x", "remind=HOURS"),
        ("per-move:3,vacation=2,3", "remind=HOURS"),
        ("per-move:3,remind=72,0", "from 1 to 87600"),
        ("per-move:3,remind=72,87601", "from 1 to 87600"),
        ("per-move:3,remind=24,72,24", "24 hours twice"),
        ("per-move:3,remind=72,24,remind=6", "twice"),
        ("per-move:3,remind=" + ",".join(str(h) for h in range(1, 26)), "at most 24"),
    ],
)
def test_parse_errors(spec: str, words: str) -> None:
    with pytest.raises(UsageError) as err:
        timecontrol.parse(spec)
    message = str(err.value)
    assert "\n" not in message
    assert words in message, message
    assert repr(spec) in message


@pytest.mark.parametrize(
    "tc",
    [
        "per-move:3",
        {"kind": "blitz", "days": 3},
        {"kind": "per-move"},
        {"kind": "per-move", "days": "3"},
        {"kind": "per-move", "days": 3, "moves": 10},
        {"kind": "bank", "days": 10, "increment": 1},
        {"kind": "bank", "days": 10, "increment": 1, "cap": 5},
        {"kind": "period", "moves": 10, "days": 30, "remind_hours": True},
        # a schedule has one spelling: several hours, largest first, no spaces or zeros in front
        {"kind": "per-move", "days": 3, "remind": "24"},
        {"kind": "per-move", "days": 3, "remind": "24,72"},
        {"kind": "per-move", "days": 3, "remind": "72,72"},
        {"kind": "per-move", "days": 3, "remind": "72, 24"},
        {"kind": "per-move", "days": 3, "remind": "072,24"},
        {"kind": "per-move", "days": 3, "remind": "72,0"},
        {"kind": "per-move", "days": 3, "remind": "87601,1"},
        {"kind": "per-move", "days": 3, "remind": 72},
        {"kind": "per-move", "days": 3, "remind": "72,24", "remind_hours": 24},
    ],
)
def test_validate_refuses_malformed_header_data(tc: Any) -> None:
    with pytest.raises(UsageError, match="time control"):
        timecontrol.validate(tc)


def test_describe() -> None:
    assert timecontrol.describe({"kind": "per-move", "days": 1}) == (
        "1 day per move; reminder 24 h before the deadline; no vacation"
    )
    assert timecontrol.describe(timecontrol.parse("period:10/30,remind=0,vacation=14")) == (
        "10 moves in 30 days; no reminders; vacation 14 days a year"
    )
    assert timecontrol.describe(timecontrol.parse("per-move:5,remind=24,72")) == (
        "5 days per move; reminders 72 h and 24 h before the deadline; no vacation"
    )
    assert timecontrol.describe(timecontrol.parse("per-move:5,remind=1,72,24")) == (
        "5 days per move; reminders 72 h, 24 h and 1 h before the deadline; no vacation"
    )
    assert timecontrol.describe(timecontrol.parse("bank:10+1/30")).startswith(
        "bank of 10 days, +1 day per move, cap 30 days"
    )


# ---------------------------------------------------------------------------------
# no time control


def test_no_time_control() -> None:
    h = header(None)
    records = alternate([at(100), at(200)])
    assert timecontrol.clocks(h, records, "A", t(at(1000))) == {}
    assert timecontrol.overdue(h, records, "A", t(at(1000))) is None
    with pytest.raises(UsageError, match="no time control"):
        timecontrol.check_vacation(h, records, "A", 1, t(at(1)))


# ---------------------------------------------------------------------------------
# per-move


PER_MOVE = {"kind": "per-move", "days": 3}


def test_per_move_first_turn_counts_from_created() -> None:
    c = seat_clocks(PER_MOVE, [], "A", at(1))
    assert c["A"] == {"used": DAY, "left": 2 * DAY, "deadline": at(3), "vacation_until": None, "vacation_left": 0,
                      "remind": False}
    assert c["B"] == {"used": 0, "left": 3 * DAY, "deadline": None, "vacation_until": None, "vacation_left": 0,
                      "remind": False}


def test_per_move_deadline_exactly_vs_one_second_after() -> None:
    h = header(PER_MOVE)
    records = alternate([at(1)])  # A moves after a day; B's turn starts then
    deadline = at(4)
    assert timecontrol.clocks(h, records, "B", t(at(2)))["B"]["deadline"] == deadline
    assert timecontrol.overdue(h, records, "B", t(at(4, -1))) is None
    assert timecontrol.overdue(h, records, "B", t(deadline)) is None
    assert timecontrol.clocks(h, records, "B", t(deadline))["B"]["left"] == 0
    assert timecontrol.overdue(h, records, "B", t(at(4, 1))) == "B"
    assert timecontrol.clocks(h, records, "B", t(at(4, 1)))["B"]["left"] == -1
    # Only the seat on turn can be overdue; a finished game has none.
    assert timecontrol.overdue(h, records, None, t(at(100))) is None


def test_per_move_each_move_gets_a_fresh_allowance() -> None:
    # A took 2.5 days, B 2.9 days, A 0.5 days: no one ran out, the allowance is per move.
    records = alternate([at(2.5), at(5.4), at(5.9)])
    c = seat_clocks(PER_MOVE, records, "B", at(6.9))
    assert c["A"]["used"] == 3 * DAY and c["A"]["left"] == 3 * DAY and c["A"]["deadline"] is None
    assert c["B"]["used"] == int(3.9 * DAY)
    assert c["B"]["left"] == 2 * DAY and c["B"]["deadline"] == at(8.9)


def test_per_move_comments_do_not_reset_the_clock() -> None:
    records = [rec(1, "A", at(1)), rec(2, "B", at(3.5), kind="comment", note="thinking"),
               rec(3, "A", at(3.6), kind="draw-offer")]
    h = header(PER_MOVE)
    assert timecontrol.overdue(h, records, "B", t(at(4, 1))) == "B"
    assert timecontrol.clocks(h, records, "B", t(at(4)))["B"]["used"] == 3 * DAY


def test_per_move_with_freezegun_and_the_one_clock() -> None:
    h = header(PER_MOVE)
    with freeze_time(at(0)) as frozen:
        records = [rec(1, "A", clock.stamp())]
        frozen.move_to(at(3))
        assert timecontrol.overdue(h, records, "B", clock.now()) is None
        frozen.tick(timedelta(seconds=1))
        assert timecontrol.overdue(h, records, "B", clock.now()) == "B"


# ---------------------------------------------------------------------------------
# period


PERIOD = {"kind": "period", "moves": 2, "days": 10}


def test_period_block_accumulates_then_rolls_over() -> None:
    # A: 3 days (1st move of block 1); B: 1 day; A: 4 days (2nd move: block 1 over);
    # B: 1 day; A on turn: a fresh block of 10 days.
    times = [at(3), at(4), at(8), at(9)]
    records = alternate(times)
    c = seat_clocks(PERIOD, records[:1], "B", at(3.5))
    assert c["A"]["left"] == 7 * DAY and c["A"]["deadline"] is None
    c = seat_clocks(PERIOD, records[:2], "A", at(5))
    assert c["A"]["left"] == 6 * DAY and c["A"]["deadline"] == at(11)
    assert c["A"]["used"] == 4 * DAY
    c = seat_clocks(PERIOD, records, "A", at(9))
    assert c["A"]["used"] == 7 * DAY
    assert c["A"]["left"] == 10 * DAY and c["A"]["deadline"] == at(19)
    assert c["B"]["left"] == 10 * DAY  # B's 2 moves (a day each) ended its block too
    assert c["B"]["used"] == 2 * DAY


def test_period_overdue_at_the_block_boundary() -> None:
    h = header(PERIOD)
    records = alternate([at(3), at(4)])  # A used 3 days of its block; A on turn since day 4
    assert timecontrol.clocks(h, records, "A", t(at(5)))["A"]["deadline"] == at(11)
    assert timecontrol.overdue(h, records, "A", t(at(11))) is None
    assert timecontrol.overdue(h, records, "A", t(at(11, 1))) == "A"


def test_period_rollover_gives_a_fresh_block() -> None:
    h = header(PERIOD)
    # A's block 1 took 9 days 23:59:59 in all: fine. Its next move starts block 2.
    records = alternate([at(5), at(6), at(11, -1), at(12)])
    c = timecontrol.clocks(h, records, "A", t(at(12)))
    assert c["A"]["left"] == 10 * DAY
    assert timecontrol.overdue(h, records, "A", t(at(22))) is None
    assert timecontrol.overdue(h, records, "A", t(at(22, 1))) == "A"


# ---------------------------------------------------------------------------------
# bank


BANK = {"kind": "bank", "days": 10, "increment": 1, "cap": 12}


def test_bank_decreases_by_thinking_and_gains_the_increment() -> None:
    # A thinks 4 days: 10 - 4 + 1 = 7.
    records = alternate([at(4)])
    c = seat_clocks(BANK, records, "B", at(4.5))
    assert c["A"]["left"] == 7 * DAY and c["A"]["used"] == 4 * DAY
    assert c["B"]["left"] == int(9.5 * DAY) and c["B"]["deadline"] == at(14)


def test_bank_increment_is_capped() -> None:
    # A moves at once three times: 10 -> 11 -> 12 -> 12 (cap).
    records = alternate([at(0), at(0), at(0), at(0), at(0)])
    c = seat_clocks(BANK, records, "B", at(0))
    assert c["A"]["left"] == 12 * DAY
    assert c["B"]["left"] == 12 * DAY
    # A's two moves reach the cap; after one it has 11 days.
    assert seat_clocks(BANK, records[:3], "B", at(0))["A"]["left"] == 12 * DAY
    assert seat_clocks(BANK, records[:1], "B", at(0))["A"]["left"] == 11 * DAY


def test_bank_overdue_boundary() -> None:
    h = header(BANK)
    records = alternate([at(4)])  # B's bank: 10 days from day 4
    assert timecontrol.clocks(h, records, "B", t(at(5)))["B"]["deadline"] == at(14)
    assert timecontrol.overdue(h, records, "B", t(at(14))) is None
    assert timecontrol.overdue(h, records, "B", t(at(14, 1))) == "B"


def test_bank_without_increment_runs_down() -> None:
    tc = timecontrol.parse("bank:5")
    records = alternate([at(1), at(2), at(3)])  # A: 1 day + 1 day; B: 1 day
    c = seat_clocks(tc, records, "B", at(3.5))
    assert c["A"]["left"] == 3 * DAY
    assert c["B"]["left"] == int(3.5 * DAY) and c["B"]["used"] == int(1.5 * DAY)


# ---------------------------------------------------------------------------------
# reminders


def test_reminder_at_remind_hours() -> None:
    tc = {"kind": "per-move", "days": 3, "remind_hours": 12}
    records = alternate([at(0)])  # B on turn from day 0, deadline day 3
    assert seat_clocks(tc, records, "B", at(2.5, -1))["B"]["remind"] is False
    assert seat_clocks(tc, records, "B", at(2.5))["B"]["remind"] is True  # exactly 12 h left
    assert seat_clocks(tc, records, "B", at(3))["B"]["remind"] is True
    assert seat_clocks(tc, records, "B", at(3, 1))["B"]["remind"] is False  # overdue, not a reminder
    assert seat_clocks(tc, records, "B", at(2.9))["A"]["remind"] is False  # only the seat on turn


def test_reminder_default_is_24_hours_and_zero_disables() -> None:
    records = alternate([at(0)])
    assert seat_clocks(PER_MOVE, records, "B", at(2, -1))["B"]["remind"] is False
    assert seat_clocks(PER_MOVE, records, "B", at(2))["B"]["remind"] is True
    off = {"kind": "per-move", "days": 3, "remind_hours": 0}
    assert seat_clocks(off, records, "B", at(3))["B"]["remind"] is False


def test_a_schedule_reminds_from_its_first_time_on_and_names_each_time_passed() -> None:
    tc = timecontrol.parse("per-move:5,remind=72,24")
    records = alternate([at(0)])
    assert timecontrol.schedule(tc) == (72, 24)  # type: ignore[arg-type]
    assert seat_clocks(tc, records, "B", at(2, -1))["B"]["remind"] is False  # 72 h and a second left
    assert seat_clocks(tc, records, "B", at(2))["B"]["remind"] is True
    assert timecontrol.reminders_passed(tc, 72 * HOUR) == (72,)  # type: ignore[arg-type]
    assert timecontrol.reminders_passed(tc, 24 * HOUR) == (72, 24)  # type: ignore[arg-type]
    assert timecontrol.reminders_passed(tc, -1) == ()  # type: ignore[arg-type]
    assert timecontrol.schedule({"kind": "per-move", "days": 3}) == (24,)
    assert timecontrol.schedule({"kind": "per-move", "days": 3, "remind_hours": 0}) == ()


def test_one_reminder_time_is_written_as_logs_before_schedules_wrote_it(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    """A header written before schedules existed keeps its bytes and its hash: one time
    is still `remind_hours`; several are `remind`, in one spelling, and a log that
    writes them otherwise is corrupt."""
    one, several = tmp_path / "one.corr", tmp_path / "several.corr"
    assert corr("new", "combat", one, "-p", "Anna", "-p", "Ben", "--time", "per-move:3,remind=24").code == 0
    assert b'"time_control":{"kind":"per-move","days":3,"remind_hours":24}' in one.read_bytes()
    assert corr("new", "combat", several, "-p", "Anna", "-p", "Ben", "--time", "per-move:3,remind=24,72").code == 0
    assert b'"time_control":{"kind":"per-move","days":3,"remind":"72,24"}' in several.read_bytes()
    assert corr("audit", several).code == 0
    assert "reminders 72 h and 24 h before the deadline" in corr("clock", several).out
    several.write_bytes(several.read_bytes().replace(b'"remind":"72,24"', b'"remind":"24,72"'))
    assert corr("audit", several).code == 2
    result = corr("clock", several)
    assert result.code == 2 and "largest first" in result.err and result.err.count("\n") == 1


def test_reminder_in_a_bank() -> None:
    tc = {"kind": "bank", "days": 2, "increment": 0, "cap": 2, "remind_hours": 6}
    assert seat_clocks(tc, [], "A", at(2, -6 * HOUR - 1))["A"]["remind"] is False
    assert seat_clocks(tc, [], "A", at(2, -6 * HOUR))["A"]["remind"] is True


# ---------------------------------------------------------------------------------
# vacation


VAC = {"kind": "per-move", "days": 3, "vacation_days": 10}


def test_vacation_stops_the_clock() -> None:
    h = header(VAC)
    # A moves at day 0; B thinks a day, takes 5 days of vacation at day 1.
    records = [rec(1, "A", at(0)), rec(2, "B", at(1), kind="vacation", note="5")]
    during = timecontrol.clocks(h, records, "B", t(at(4)))["B"]
    assert during["used"] == DAY and during["left"] == 2 * DAY
    assert during["deadline"] == at(8)  # the vacation ends at day 6, then 2 days
    assert during["vacation_until"] == at(6)
    assert during["remind"] is False  # the clock is stopped
    assert during["vacation_left"] == 5
    assert timecontrol.overdue(h, records, "B", t(at(8))) is None
    assert timecontrol.overdue(h, records, "B", t(at(8, 1))) == "B"
    after = timecontrol.clocks(h, records, "B", t(at(7)))["B"]
    assert after["used"] == 2 * DAY and after["left"] == DAY and after["remind"] is True
    assert after["vacation_until"] is None
    # B moves during the vacation: the move costs no time past the vacation's start.
    moved = records + [rec(3, "B", at(3))]
    assert timecontrol.clocks(h, moved, "A", t(at(3)))["B"]["used"] == DAY


def test_vacation_in_a_bank_and_a_period() -> None:
    records = [rec(1, "A", at(1), kind="vacation", note="3"), rec(2, "A", at(5))]
    bank = {"kind": "bank", "days": 10, "increment": 0, "cap": 10, "vacation_days": 3}
    assert seat_clocks(bank, records, "B", at(5))["A"]["left"] == 8 * DAY
    period = {"kind": "period", "moves": 5, "days": 10, "vacation_days": 3}
    assert seat_clocks(period, records, "B", at(5))["A"]["left"] == 8 * DAY


def test_vacation_allowance_per_calendar_year() -> None:
    h = header(VAC, created="2026-12-01T00:00:00Z")
    now = t("2026-12-20T00:00:00Z")
    records = [rec(1, "A", "2026-12-02T00:00:00Z", kind="vacation", note="6"),
               rec(2, "A", "2026-12-10T00:00:00Z"),
               rec(3, "B", "2026-12-11T00:00:00Z"),
               rec(4, "A", "2026-12-12T00:00:00Z", kind="vacation", note="4")]
    # 10 days used in 2026: not one more.
    assert timecontrol.clocks(h, records, "A", now)["A"]["vacation_left"] == 0
    assert timecontrol.clocks(h, records, "A", now)["B"]["vacation_left"] == 10
    with pytest.raises(UsageError, match="0 of 10 vacation days left in 2026"):
        timecontrol.check_vacation(h, records, "A", 1, now)
    timecontrol.check_vacation(h, records, "B", 10, now)
    with pytest.raises(UsageError, match="10 of 10 vacation days left"):
        timecontrol.check_vacation(h, records, "B", 11, now)
    # A new calendar year: the allowance is back.
    new_year = t("2027-01-01T00:00:00Z")
    timecontrol.check_vacation(h, records, "A", 10, new_year)
    assert timecontrol.clocks(h, records, "A", new_year)["A"]["vacation_left"] == 10
    assert timecontrol.clocks(h, records, "A", t("2026-12-31T23:59:59Z"))["A"]["vacation_left"] == 0


def test_check_vacation_refusals() -> None:
    h = header(VAC)
    now = t(at(1))
    for days in (0, -1):
        with pytest.raises(UsageError, match="whole number of days"):
            timecontrol.check_vacation(h, [], "A", days, now)
    with pytest.raises(UsageError, match="unknown seat"):
        timecontrol.check_vacation(h, [], "C", 1, now)
    with pytest.raises(UsageError, match="A's turn, not B's"):
        timecontrol.check_vacation(h, [], "B", 1, now, to_move="A")
    with pytest.raises(UsageError, match="already run out"):
        timecontrol.check_vacation(h, [], "A", 1, t(at(3, 1)), to_move="A")
    timecontrol.check_vacation(h, [], "A", 1, t(at(3)), to_move="A")  # at the deadline: still in time
    with pytest.raises(UsageError, match="0 of 0"):
        timecontrol.check_vacation(header(PER_MOVE), [], "A", 1, now)


# ---------------------------------------------------------------------------------
# Stamps no reader would pass: timecontrol refuses them on its own (issue "Hardening")

BAD_STAMPS = ["2026-02-30T12:00:00Z", "2026-13-01T12:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T12:00:61Z",
              "2026-3-1T12:00:00Z", "0000-01-01T00:00:00Z", "2026-03-01 12:00:00", ""]


@pytest.mark.parametrize("stamp", BAD_STAMPS)
def test_a_bad_stamp_is_a_corr_error_never_a_raw_value_error(stamp: str) -> None:
    """Headers and records built without a reader reach these functions too."""
    bad_header = header(PER_MOVE)._replace(created=stamp)
    with pytest.raises(CorruptLog, match="not a real UTC time") as caught:
        timecontrol.clocks(bad_header, [], "A", t(START))
    assert caught.value.kind == "schema" and "\n" not in str(caught.value)
    records = [rec(1, "A", stamp)]
    with pytest.raises(CorruptLog, match="not a real UTC time"):
        timecontrol.clocks(header(PER_MOVE), records, "B", t(START))
    with pytest.raises(CorruptLog, match="not a real UTC time"):
        timecontrol.overdue(header(PER_MOVE), records, "B", t(START))
    vacation = [rec(1, "A", stamp, kind="vacation", note="2")]
    with pytest.raises(CorruptLog, match="not a real UTC time"):
        timecontrol.check_vacation(header(VAC), vacation, "A", 1, t(START))


def test_instant_reads_exactly_the_stored_form() -> None:
    assert timecontrol.instant("2024-02-29T23:59:59Z") == datetime(2024, 2, 29, 23, 59, 59, tzinfo=timezone.utc)
    assert timecontrol.instant("0001-01-01T00:00:00Z") == datetime(1, 1, 1, tzinfo=timezone.utc)
    with pytest.raises(CorruptLog):
        timecontrol.instant(None)


def test_clocks_at_the_end_of_the_calendar_do_not_overflow() -> None:
    """A vacation or a deadline past 9999-12-31 is held there, not an OverflowError."""
    end = "9999-12-20T00:00:00Z"
    h = header({"kind": "per-move", "days": 30, "vacation_days": 366}, created=end)
    vacation = [rec(1, "A", "9999-12-21T00:00:00Z", kind="vacation", note="300")]
    clocks = timecontrol.clocks(h, vacation, "A", t("9999-12-22T00:00:00Z"))
    assert clocks["A"]["deadline"] == "9999-12-31T23:59:59Z"
    clocks = timecontrol.clocks(h, [], "A", t("9999-12-22T00:00:00Z"))
    assert clocks["A"]["deadline"] == "9999-12-31T23:59:59Z" and clocks["A"]["left"] == 28 * DAY
    early = header(PER_MOVE, created="0001-01-01T00:00:00Z")
    assert timecontrol.clocks(early, [], "A", t("0001-01-02T00:00:00Z"))["A"]["deadline"] == "0001-01-04T00:00:00Z"


# ---------------------------------------------------------------------------------
# The commands, on real Combat games


def make_game(path: Path, spec: str | None) -> None:
    """A new Combat game (A, B) with the time control `spec`, created at the frozen time."""
    from corr import engine
    from corr.log import store

    head = engine.make_header("combat", ["Anna", "Ben"], {})
    store.create(path, head._replace(time_control=timecontrol.parse(spec) if spec else None))


def test_clock_command(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        make_game(path, "per-move:3,remind=12,vacation=7")
        frozen.move_to("2026-03-02T12:00:00Z")
        assert corr("move", path, "7 (5,4)").code == 0
        frozen.move_to("2026-03-04T00:00:00Z")
        r = corr("clock", path, "--json")
        assert r.code == 0, r.err
        report = json.loads(r.out)
        assert report["to_move"] == "B" and report["overdue"] is None
        assert report["time_control"] == {"kind": "per-move", "days": 3, "remind_hours": 12, "vacation_days": 7}
        assert report["seats"]["A"] == {"used": DAY, "left": 3 * DAY, "deadline": None, "vacation_until": None,
                                        "vacation_left": 7, "remind": False}
        assert report["seats"]["B"]["deadline"] == "2026-03-05T12:00:00Z"
        assert report["seats"]["B"]["remind"] is False
        frozen.move_to("2026-03-05T00:00:00Z")
        r = corr("clock", path)
        assert r.code == 0
        assert "3 days per move" in r.out
        line_b = [line for line in r.out.splitlines() if line.startswith("* B")][0]
        assert "left 0d 12:00:00" in line_b and "deadline 2026-03-05T12:00:00Z" in line_b
        assert "reminder due" in line_b
        frozen.move_to("2026-03-05T12:00:01Z")
        r = corr("clock", path)
        assert "OVERDUE" in r.out and "left -0d 00:00:01" in r.out


def test_clock_without_time_control(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    make_game(path, None)
    r = corr("clock", path)
    assert r.code == 0 and "no time control" in r.out
    report = json.loads(corr("clock", path, "--json").out)
    assert report["time_control"] is None and report["seats"] == {}


def test_clock_help_has_examples(corr) -> None:  # type: ignore[no-untyped-def]
    for command in ("clock", "claim-timeout", "vacation"):
        r = corr(command, "--help")
        assert r.code == 0 and "Example:" in r.out


def test_claim_timeout_boundary(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        make_game(path, "per-move:3")
        frozen.move_to("2026-03-02T12:00:00Z")
        assert corr("move", path, "7 (5,4)").code == 0  # B on turn until 2026-03-05T12:00:00Z
        frozen.move_to("2026-03-05T12:00:00Z")
        before = path.read_bytes()
        r = corr("claim-timeout", path, "--by", "A")
        assert r.code == 1 and r.err.startswith("corr: error:") and path.read_bytes() == before
        frozen.move_to("2026-03-05T12:00:01Z")
        r = corr("claim-timeout", path, "--by", "B")  # not against oneself
        assert r.code == 1 and path.read_bytes() == before
        r = corr("claim-timeout", path, "--by", "A")
        assert r.code == 0, r.err
        assert "timeout" in r.out
        last = json.loads(path.read_text().splitlines()[-1])
        assert last["type"] == "timeout" and last["by"] == "A" and last["at"] == "2026-03-05T12:00:01Z"
        # The game is over: no more moves, no one on turn.
        assert corr("move", path, "3 (1,1)").code == 1
        assert json.loads(corr("clock", path, "--json").out)["to_move"] is None
        assert corr("audit", path).code == 0


def test_vacation_command(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        make_game(path, "per-move:3,vacation=7")
        frozen.move_to("2026-03-02T12:00:00Z")
        before = path.read_bytes()
        r = corr("vacation", path, "--by", "A", "--days", "8")
        assert r.code == 1 and "7 of 7 vacation days" in r.err and path.read_bytes() == before
        r = corr("vacation", path, "--by", "B", "--days", "2")
        assert r.code == 1 and "A's turn" in r.err and path.read_bytes() == before
        r = corr("vacation", path, "--by", "A", "--days", "5")
        assert r.code == 0, r.err
        last = json.loads(path.read_text().splitlines()[-1])
        assert last["type"] == "vacation" and last["by"] == "A" and last["note"] == "5"
        # A used 1 day; the clock stops 5 days: the deadline moves from 03-04 to 03-09.
        report = json.loads(corr("clock", path, "--json").out)
        assert report["seats"]["A"]["deadline"] == "2026-03-09T12:00:00Z"
        assert report["seats"]["A"]["vacation_left"] == 2
        frozen.move_to("2026-03-09T12:00:01Z")
        assert corr("claim-timeout", path, "--by", "B").code == 0
        r = corr("vacation", path, "--by", "A", "--days", "3")
        assert r.code == 1


def test_corr_new_time_puts_the_time_control_into_the_header(tmp_path, corr) -> None:
    path = tmp_path / "timed.corr"
    with freeze_time("2026-03-01 12:00:00"):
        result = corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--time", "per-move:3,vacation=14", "-f", "none")
        assert result.code == 0, result.err
        header = json.loads(path.read_text().splitlines()[0])
        assert header["time_control"] == {"kind": "per-move", "days": 3, "vacation_days": 14}
    with freeze_time("2026-03-04 12:00:01"):
        assert corr("claim-timeout", path, "--by", "B").code == 0
        assert json.loads(corr("show", path, "-f", "json").out)["winners"] == ["B"]


def test_corr_new_refuses_a_malformed_time_control(tmp_path, corr) -> None:
    result = corr("new", "combat", tmp_path / "t.corr", "-p", "Anna", "-p", "Ben", "--time", "per-move:x")
    assert result.code == 1 and "per-move:x" in result.err
    assert not (tmp_path / "t.corr").exists()


def test_audit_lists_vacations_and_the_timeout(tmp_path, corr) -> None:
    path = tmp_path / "timed.corr"
    with freeze_time("2026-03-01 12:00:00") as frozen:
        corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--time", "per-move:3,vacation=14", "-f", "none")
        assert corr("vacation", path, "--by", "A", "--days", "2").code == 0
        frozen.move_to("2026-03-06 12:00:01")  # 3 days + 2 vacation days + 1 s
        assert corr("claim-timeout", path, "--by", "B").code == 0
    report = json.loads(corr("audit", path, "--json").out)
    kinds = {f["kind"]: f["detail"] for f in report["findings"]}
    assert kinds["vacation"] == "A took 2 days of vacation"
    assert kinds["timeout"] == "B claimed a timeout: A lost on time"
    assert report["result"]["winners"] == ["B"] and report["intact"]
