"""Time control (DESIGN.md 6): pure functions over a header and its records.

No I/O and no clock: the caller passes `now` (from `corr.clock.now()`), so tests pin
every boundary. A time control is header data, a flat dict of strings and integers:

    {"kind": "per-move", "days": 3}                       3 days for every move
    {"kind": "period", "moves": 10, "days": 30}           each seat's blocks of 10 moves
                                                          take at most 30 days in total
    {"kind": "bank", "days": 10, "increment": 1, "cap": 30}
                                                          a bank of 10 days, minus each
                                                          turn's thinking time, plus 1 day
                                                          after each move, at most 30

with the optional keys `remind_hours` (remind when this little time is left, default 24;
0: never) or `remind` (several such times, e.g. "72,24"), and `vacation_days` (per
player per calendar year, default 0). A schedule has one spelling in a header: one time
is `remind_hours` (as logs before schedules wrote it, so their hashes stand), several
are `remind`, a string of distinct hours from the largest down, without spaces or
leading zeros.

Thinking time: a seat's turn starts at the `at` of the previous record (the header's
`created` for the first) and ends at the `at` of the record the seat makes on it.
Comments, draw offers and the dealer's reveal are talk, not turns: they neither start nor end a turn, so a
comment never resets anyone's clock. A `vacation` record (note = whole days) stops its
seat's clock for that many days from its `at`. Rulings are not turns either; one that
adjusts a clock (`adjust-clock A=+2`) gives the seat that much more time from where it
stands in the log: on the current turn (per-move), in the current block (period) or in
the bank.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, TypedDict, cast

from corr.counts import counted
from corr.decisions import clock_adjustment
from corr.errors import CorruptLog, UsageError
from corr.log.lines import STAMP_PATTERN

_STAMP = re.compile(STAMP_PATTERN)

DAY = 86400
HOUR = 3600
KINDS = ("per-move", "period", "bank")
DEFAULT_REMIND_HOURS = 24
DEFAULT_VACATION_DAYS = 0
#: Records that are a seat's own act on its turn: their thinking time is that seat's.
THEIR_TYPES = frozenset({"move", "challenge", "pass", "vacation"})
#: Of those, the ones that count as a move (period blocks, bank increments).
MOVE_TYPES = frozenset({"move", "challenge", "pass"})
#: Records that are talk, not play: they do not start or end a turn.
TALK_TYPES = frozenset({"comment", "draw-offer", "draw-decline", "ruling", "reveal"})

_REQUIRED = {"per-move": ("days",), "period": ("moves", "days"), "bank": ("days", "increment", "cap")}
_OPTIONAL = ("remind_hours", "remind", "vacation_days")
_LIMITS = {"days": (1, 3650), "moves": (1, 10000), "increment": (0, 3650), "cap": (1, 3650),
           "remind_hours": (0, 24 * 3650), "vacation_days": (0, 366)}
_SUFFIX_KEYS = {"remind": "remind_hours", "vacation": "vacation_days"}
#: The most reminders one schedule holds.
MAX_REMINDERS = 24
#: A schedule of several reminders as a header writes it: "72,24".
_SCHEDULE = re.compile(r"[1-9][0-9]{0,4}(?:,[1-9][0-9]{0,4}){1,%d}" % (MAX_REMINDERS - 1))


class _Needed(TypedDict):
    """The keys every time control has."""

    kind: str
    days: int


class TimeControl(_Needed, total=False):
    """A time control `validate` accepted: its kind, and whole numbers for the rest."""

    moves: int
    increment: int
    cap: int
    remind_hours: int
    remind: str
    vacation_days: int


# ---------------------------------------------------------------------------------
# The time control itself


def validate(tc: Any) -> TimeControl:
    """The time control if it is well formed; UsageError naming the fault otherwise."""
    if type(tc) is not dict:
        raise UsageError("time control: should be an object")
    kind = tc.get("kind")
    if kind not in KINDS:
        raise UsageError(f"time control: unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
    allowed = {"kind", *_REQUIRED[kind], *_OPTIONAL}
    for key in tc:
        if key not in allowed:
            raise UsageError(f"time control: {kind} has no {key!r}")
    for key in _REQUIRED[kind]:
        if key not in tc:
            raise UsageError(f"time control: {kind} needs {key!r}")
    if "remind" in tc and "remind_hours" in tc:
        raise UsageError("time control: remind and remind_hours both given (one schedule, one spelling)")
    for key, value in tc.items():
        if key == "kind":
            continue
        if key == "remind":
            _check_schedule(value)
            continue
        low, high = _LIMITS[key]
        if type(value) is not int or not low <= value <= high:
            raise UsageError(f"time control: {key} should be a whole number from {low} to {high}, not {value!r}")
    if kind == "bank" and tc["cap"] < tc["days"]:
        raise UsageError(f"time control: the bank's cap ({counted(tc['cap'], 'day')}) is below its start "
                         f"({counted(tc['days'], 'day')})")
    # the checks above are the TimeControl's keys and types, one by one
    return cast(TimeControl, tc)


def _check_schedule(value: Any) -> None:
    """A header's `remind`: several distinct hours, largest first, in its one spelling."""
    low, high = _LIMITS["remind_hours"]
    form = f"several whole hours from {high} down to 1, largest first, e.g. \"72,24\""
    if type(value) is not str or not _SCHEDULE.fullmatch(value):
        raise UsageError(f"time control: remind should be {form}, not {str(value)[:60]!r}")
    hours = [int(part) for part in value.split(",")]
    if hours[0] > high or any(a <= b for a, b in zip(hours, hours[1:])):
        raise UsageError(f"time control: remind should be {form}, not {value[:60]!r}")


def schedule(tc: TimeControl) -> tuple[int, ...]:
    """The hours before the deadline at which the seat on turn is reminded, largest
    first; () when it never is."""
    if "remind" in tc:
        return tuple(int(part) for part in tc["remind"].split(","))
    hours = tc.get("remind_hours", DEFAULT_REMIND_HOURS)
    return (hours,) if hours else ()


def _schedule_spelling(spec: str, values: list[str]) -> dict[str, int | str]:
    """The header keys of `remind=H[,H...]` as given: one time as `remind_hours`, several
    as `remind` (largest first); 0 alone means no reminders."""
    low, high = _LIMITS["remind_hours"]
    hours = []
    for value in values:
        value = value.strip()
        if not value.isdigit() or not value.isascii():
            raise UsageError(f"time control {spec!r}: remind should be whole hours, not {value!r}")
        hours.append(int(value))
    if len(hours) == 1:
        return {"remind_hours": hours[0]}
    if len(hours) > MAX_REMINDERS:
        raise UsageError(f"time control {spec!r}: at most {MAX_REMINDERS} reminders, not {len(hours)}")
    for hour in hours:
        if not 1 <= hour <= high:
            raise UsageError(f"time control {spec!r}: each reminder should be from 1 to {high} hours before the "
                             f"deadline, not {hour} (remind=0 alone: no reminders)")
    if len(set(hours)) != len(hours):
        twice = next(h for h in hours if hours.count(h) > 1)
        raise UsageError(f"time control {spec!r}: remind names {twice} hours twice")
    return {"remind": ",".join(str(h) for h in sorted(hours, reverse=True))}


def parse(spec: str) -> dict[str, int | str]:
    """The time control a `--time` SPEC names.

    `per-move:3`, `period:10/30` (10 moves in 30 days), `bank:10+1/30` (10 days, +1 a
    move, cap 30; `bank:10` alone is a bank of 10 days without increment), each with
    optional `,remind=HOURS` (or a schedule, `,remind=72,24`: the hours after it up to
    the next KEY=VALUE are its own) and `,vacation=DAYS`.
    """
    text = spec.strip()
    head, *suffixes = text.split(",")
    kind, sep, body = head.partition(":")
    kind = kind.strip().lower()
    forms = "per-move:DAYS, period:MOVES/DAYS or bank:DAYS+INCREMENT/CAP"
    if not sep or kind not in KINDS:
        raise UsageError(f"time control {spec!r} is not {forms}, e.g. per-move:3")
    body = body.strip()

    def number(part: str, what: str) -> int:
        part = part.strip()
        if not part.isdigit() or not part.isascii():
            raise UsageError(f"time control {spec!r}: {what} should be a whole number, not {part!r}")
        return int(part)

    tc: dict[str, int | str] = {"kind": kind}
    if kind == "per-move":
        tc["days"] = number(body, "the days per move")
    elif kind == "period":
        moves, slash, days = body.partition("/")
        if not slash:
            raise UsageError(f"time control {spec!r}: a period is MOVES/DAYS, e.g. period:10/30")
        tc["moves"] = number(moves, "the moves per period")
        tc["days"] = number(days, "the days per period")
    else:
        start, slash, cap = body.partition("/")
        days, plus, increment = start.partition("+")
        tc["days"] = number(days, "the bank's days")
        tc["increment"] = number(increment, "the increment") if plus else 0
        tc["cap"] = number(cap, "the cap") if slash else tc["days"]
    given: dict[str, list[str]] = {}
    last = None
    for suffix in suffixes:
        key, eq, value = suffix.partition("=")
        key = key.strip().lower()
        if not eq and last == "remind" and key.isdigit():  # remind=72,24: the schedule goes on
            given["remind"].append(key)
            continue
        if not eq or key not in _SUFFIX_KEYS:
            raise UsageError(f"time control {spec!r}: {suffix.strip()!r} is not remind=HOURS[,HOURS...] or "
                             "vacation=DAYS")
        if key in given:
            raise UsageError(f"time control {spec!r}: {key} given twice")
        given[key] = [value]
        last = key
    if "remind" in given:
        tc.update(_schedule_spelling(spec, given["remind"]))
    if "vacation" in given:
        tc["vacation_days"] = number(given["vacation"][0], "vacation")
    try:
        validate(tc)
    except UsageError as err:
        raise UsageError(f"time control {spec!r}: {str(err).removeprefix('time control: ')}") from None
    return tc


def describe(tc: dict[str, Any]) -> str:
    """The time control in words, e.g. `3 days per move; reminder 24 h before; no vacation`."""
    valid = validate(tc)

    def days(n: int) -> str:
        return counted(n, "day")

    if valid["kind"] == "per-move":
        text = f"{days(valid['days'])} per move"
    elif valid["kind"] == "period":
        text = f"{counted(valid['moves'], 'move')} in {days(valid['days'])}"
    else:
        text = f"bank of {days(valid['days'])}, +{days(valid['increment'])} per move, cap {days(valid['cap'])}"
    hours = [f"{h} h" for h in schedule(valid)]
    vacation = valid.get("vacation_days", DEFAULT_VACATION_DAYS)
    if len(hours) > 1:
        text += f"; reminders {', '.join(hours[:-1])} and {hours[-1]} before the deadline"
    else:
        text += f"; reminder {hours[0]} before the deadline" if hours else "; no reminders"
    text += f"; vacation {days(vacation)} a year" if vacation else "; no vacation"
    return text


# ---------------------------------------------------------------------------------
# Clocks


def instant(stamp: Any) -> datetime:
    """The UTC time a log's stamp (`2026-11-29T19:23:00Z`) names. A stamp that is not one
    (the readers refuse them, but these functions take any header and records) is a
    CorruptLog naming it, never a raw ValueError."""
    if type(stamp) is not str or not _STAMP.fullmatch(stamp):
        raise CorruptLog(f"{str(stamp)[:40]!r} is not a real UTC time YYYY-MM-DDTHH:MM:SSZ", kind="schema")
    # the pattern admits only real times, so this cannot fail; ten times faster than
    # building the datetime from its parts (every timed move is read here)
    return datetime.fromisoformat(stamp[:-1] + "+00:00")


_MAX = datetime.max.replace(tzinfo=timezone.utc)
_MIN = datetime.min.replace(tzinfo=timezone.utc)


def _shift(when: datetime, seconds: float) -> datetime:
    """`when` plus `seconds`, held at the ends of the calendar (years 1 and 9999) rather
    than overflowing: a stamp near either end is valid, the deadline after it need not be."""
    try:
        return when + timedelta(seconds=seconds)
    except OverflowError:
        return _MAX if seconds > 0 else _MIN


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when.astimezone(timezone.utc)


def _stamp(when: datetime) -> str:
    # not strftime: its %Y drops the leading zeros of years before 1000 on some platforms
    return f"{when.year:04d}-{when.month:02d}-{when.day:02d}T{when.hour:02d}:{when.minute:02d}:{when.second:02d}Z"


def _vacation_days(record: Any) -> int:
    note = (record.note or "").strip()
    return int(note) if note.isdigit() and note.isascii() else 0


def _thinking(start: datetime, end: datetime, windows: list[tuple[datetime, datetime]]) -> int:
    """Seconds from start to end outside the vacation windows."""
    total = max(0, int((end - start).total_seconds()))
    for w_start, w_end in windows:
        lo, hi = max(start, w_start), min(end, w_end)
        if hi > lo:
            total -= int((hi - lo).total_seconds())
    return max(0, total)


def vacation_taken(records: Iterable[Any], seat: str, year: int) -> int:
    """Vacation days the seat has taken in a calendar year (by the year each began)."""
    return sum(_vacation_days(r) for r in records if r.type == "vacation" and r.by == seat and instant(r.at).year == year)


class Clocks:
    """Every seat's clock, advanced one record at a time: what `clocks` computes from a
    list of records, kept up to date in one pass, so an audit judges each move against
    the clock as it stood without going back to the first record (`add`, then `at`)."""

    def __init__(self, header: Any) -> None:
        self.tc = validate(dict(header.time_control))
        tc = self.tc
        self.seats = [s.seat for s in header.seats]
        self.start = instant(header.created)  # when the current turn began
        bank = tc["days"] * DAY if tc["kind"] == "bank" else 0
        # per seat: used, moves, block (period), turn (per-move), bank
        self.used = dict.fromkeys(self.seats, 0)
        self.moves = dict.fromkeys(self.seats, 0)
        self.block = dict.fromkeys(self.seats, 0)
        self.turn = dict.fromkeys(self.seats, 0)
        self.bank = dict.fromkeys(self.seats, bank)
        self.windows: dict[str, list[tuple[datetime, datetime]]] = {seat: [] for seat in self.seats}
        self.vacations: dict[str, dict[int, int]] = {seat: {} for seat in self.seats}  # year -> days taken
        self._last: tuple[tuple[str, datetime, datetime], int] | None = None

    def add(self, record: Any, at: datetime | None = None) -> None:
        """Advance past one record of the log (`at`: its time, where the caller has it)."""
        if record.type in TALK_TYPES:
            if record.type == "ruling" and (record.move or "").startswith("adjust-clock"):
                adjustment = clock_adjustment(record)  # (seat, days): the record is such a ruling
                if adjustment is not None and adjustment[0] in self.turn:
                    whom, days = adjustment
                    self.turn[whom] -= days * DAY
                    self.block[whom] -= days * DAY
                    self.bank[whom] += days * DAY
            return
        if at is None:
            at = instant(record.at)
        seat = record.by
        if seat in self.used and record.type in THEIR_TYPES:
            spent = self._running(seat, at)
            self.used[seat] += spent
            self.block[seat] += spent
            self.bank[seat] -= spent
            self.turn[seat] += spent
            if record.type in MOVE_TYPES:
                tc = self.tc
                self.turn[seat] = 0
                self.moves[seat] += 1
                if tc["kind"] == "period" and self.moves[seat] % tc["moves"] == 0:
                    self.block[seat] = 0
                if tc["kind"] == "bank":
                    self.bank[seat] = min(self.bank[seat] + tc["increment"] * DAY, tc["cap"] * DAY)
        if record.type == "vacation" and seat in self.windows and _vacation_days(record) > 0:
            days = _vacation_days(record)
            self.windows[seat] = _merged([*self.windows[seat], (at, _shift(at, days * DAY))])
            self._last = None  # the span's thinking time changed with the window
            self.vacations[seat][at.year] = self.vacations[seat].get(at.year, 0) + days
        self.start = at

    def _running(self, seat: str, now: datetime) -> int:
        """Seconds of `seat`'s thinking since the last record, up to `now`; an audit asks
        for the same span twice (`left`, then `add`), so the last answer is kept."""
        key = (seat, self.start, now)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        running = _thinking(self.start, now, self.windows[seat])
        self._last = (key, running)
        return running

    def left(self, seat: str, now: datetime) -> int:
        """Seconds `seat` has left at `now` were it on turn since the last record."""
        running = self._running(seat, _utc(now))
        kind = self.tc["kind"]
        if kind == "per-move":
            return self.tc["days"] * DAY - self.turn[seat] - running
        if kind == "period":
            return self.tc["days"] * DAY - self.block[seat] - running
        return self.bank[seat] - running

    def report(self, to_move: str | None, now: datetime) -> dict[str, dict[str, Any]]:
        """Each seat's clock at `now`, as `clocks` documents it."""
        tc = self.tc
        now = _utc(now)
        result: dict[str, dict[str, Any]] = {}
        for seat in self.seats:
            windows = self.windows[seat]
            on_turn = seat == to_move
            running = _thinking(self.start, now, windows) if on_turn else 0
            left = self.left(seat, now) if on_turn else self.left(seat, self.start)
            deadline = None
            remind = False
            resume = now  # when the clock runs again: later only on a vacation
            if on_turn:
                for w_start, w_end in windows:
                    if w_start <= now < w_end:
                        resume = w_end
                deadline = _stamp(_shift(resume, left))
                remind = resume == now and bool(reminders_passed(tc, left))
            allowance = tc.get("vacation_days", DEFAULT_VACATION_DAYS)
            result[seat] = {
                "used": self.used[seat] + running,
                "left": left,
                "deadline": deadline,
                "vacation_until": _stamp(resume) if on_turn and resume > now else None,
                "vacation_left": max(0, allowance - self.vacations[seat].get(now.year, 0)),
                "remind": remind,
            }
        return result


def _merged(spans: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    merged: list[tuple[datetime, datetime]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def clocks(header: Any, records: list[Any], to_move: str | None, now: datetime) -> dict[str, dict[str, Any]]:
    """Each seat's clock at `now`: `used` (thinking seconds in all), `left` (seconds left
    of its current allowance), `deadline` (ISO time the seat on turn runs out; None for
    the others; a vacation the seat is on moves it on by the days the clock stands
    still), `vacation_until` (when that vacation ends, None when the seat's clock runs),
    `vacation_left` (days this calendar year), `remind` (the seat on turn is within the
    first reminder's hours of its deadline, and its clock runs). Empty without time
    control."""
    if header.time_control is None:
        return {}
    running = Clocks(header)
    for record in records:
        running.add(record)
    return running.report(to_move, now)


def reminders_passed(tc: TimeControl, left: int) -> tuple[int, ...]:
    """The reminders of the schedule (hours) whose time has come with `left` seconds to
    go: none once the time has run out (that is a timeout, not a reminder)."""
    if left < 0:
        return ()
    return tuple(hours for hours in schedule(tc) if left <= hours * HOUR)


def overdue(header: Any, records: list[Any], to_move: str | None, now: datetime) -> str | None:
    """The seat on turn if its time ran out before `now` (at the deadline itself it has
    not yet: one second later it has); None otherwise, or without time control."""
    if to_move is None or header.time_control is None:
        return None
    clock = clocks(header, records, to_move, now).get(to_move)
    return to_move if clock is not None and clock["left"] < 0 else None


def check_vacation(header: Any, records: list[Any], seat: str, days: int, now: datetime,
                   to_move: str | None = None) -> None:
    """Refuse (UsageError) a vacation of `days` for `seat` at `now` that is not allowed:
    no time control, an unknown seat, not whole days, over this calendar year's
    allowance; and, when `to_move` is given, a seat not on turn or already out of time."""
    if header.time_control is None:
        raise UsageError("the game has no time control, so no vacation")
    tc = validate(dict(header.time_control))
    seats = [s.seat for s in header.seats]
    if seat not in seats:
        raise UsageError(f"unknown seat {seat!r} (seats: {', '.join(seats)})")
    if type(days) is not int or days < 1:
        raise UsageError(f"a vacation is a whole number of days, at least 1, not {days!r}")
    if to_move is not None and seat != to_move:
        raise UsageError(f"a vacation is taken on one's own turn: it is {to_move}'s turn, not {seat}'s")
    now = _utc(now)
    allowance = tc.get("vacation_days", DEFAULT_VACATION_DAYS)
    left = allowance - vacation_taken(records, seat, now.year)
    if days > left:
        raise UsageError(
            f"{seat} has {max(left, 0)} of {allowance} vacation days left in {now.year}; {days} asked"
        )
    if to_move is not None and overdue(header, records, to_move, now) == seat:
        raise UsageError(f"{seat}'s time has already run out: too late for a vacation")
