"""The host's part in the time control: the reminders of a schedule, each sent once a
turn, and the timeouts it claims itself, so a game whose player went silent ends on
time without the other players having to notice and run `corr claim-timeout`.

What was reminded is kept in `FILE.host.json` as `{"seq": 3, "seat": "B", "hours":
[72, 24]}`: the turn (the seq it began at, the seat on turn) and the schedule's times
already sent in it. A note without `hours` (written before schedules) stands for the
whole schedule: that turn's one reminder went out.

A timeout goes through the engine as a player's claim does (`Table.claim_timeout`,
judged against `timecontrol.overdue` under the log's lock). Who makes it: the host,
in a game it vouches for (format 2: the host's key signs it, and a game whose seats sign
their own records could take no other); else the first other seat whose records go
unsigned. Where nobody could make it - a seat's key would have to sign, or the host's
key is not given - the host leaves the timeout to the players.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from corr import timecontrol


def _clock(rep: Any, now: datetime) -> tuple[str, dict[str, Any], timecontrol.TimeControl] | None:
    """The seat on turn, its clock and the time control; None without either."""
    to_move = rep.to_move()
    if to_move is None or rep.header.time_control is None:
        return None
    clock = timecontrol.clocks(rep.header, rep.standing(), to_move, now).get(to_move)
    if clock is None:
        return None
    return to_move, clock, timecontrol.validate(dict(rep.header.time_control))


def reminders_sent(state: dict[str, Any], seq: int, seat: str, tc: timecontrol.TimeControl) -> set[int]:
    """The schedule's times (hours) already sent to `seat` in the turn at `seq`."""
    done = state.get("reminded")
    if not isinstance(done, dict) or (done.get("seq"), done.get("seat")) != (seq, seat):
        return set()
    hours = done.get("hours")
    if hours is None:  # a note from before schedules: the turn's one reminder went out
        return set(timecontrol.schedule(tc))
    return {h for h in hours if type(h) is int} if isinstance(hours, list) else set()


def reminder_due(rep: Any, state: dict[str, Any], now: datetime) -> tuple[str, dict[str, Any], list[int]] | None:
    """(seat on turn, its clock, every time of the schedule passed in this turn) when a
    time has come that was not sent yet; None otherwise (and while its clock stands
    still on a vacation)."""
    found = _clock(rep, now)
    if found is None:
        return None
    seat, clock, tc = found
    if not clock["remind"]:
        return None
    passed = timecontrol.reminders_passed(tc, clock["left"])
    if set(passed) <= reminders_sent(state, rep.seq, seat, tc):
        return None
    return seat, clock, sorted(set(passed) | reminders_sent(state, rep.seq, seat, tc), reverse=True)


def note_reminded(state: dict[str, Any], rep: Any, seat: str, hours: list[int]) -> None:
    """Keep in the host's state that `hours` of the schedule were sent in this turn."""
    state["reminded"] = {"seq": rep.seq, "seat": seat, "hours": hours}


def wake_times(rep: Any, state: dict[str, Any], now: datetime) -> list[datetime]:
    """When time alone gives the seat on turn's clock something for the host to do: the
    next time of its schedule not yet sent (to a seat with an address), and the second
    its time runs out, when the host can claim that (in a game it vouches for, even
    when its key is not given yet)."""
    from corr.engine.keys import vouched

    found = _clock(rep, now)
    if found is None or found[1]["deadline"] is None:
        return []
    seat, clock, tc = found
    deadline = timecontrol.instant(clock["deadline"])
    running = timecontrol.instant(clock["vacation_until"]) if clock["vacation_until"] else now
    times = []
    entry = next((s for s in rep.header.seats if s.seat == seat), None)
    if entry is not None and entry.email:
        sent = reminders_sent(state, rep.seq, seat, tc)
        times += [max(deadline - timedelta(hours=h), running) for h in timecontrol.schedule(tc) if h not in sent]
    if claimant(rep, seat) is not None or vouched(rep.header):  # the host's key may be given to a later pass
        times.append(deadline + timedelta(seconds=1))  # overdue one second after the deadline
    return times


def claimant(rep: Any, late: str) -> str | None:
    """Who the host's timeout claim against `late` is made by, or None when the host
    can make none (see the module's docstring)."""
    from corr.engine.keys import vouched

    if vouched(rep.header):
        return "host" if rep.can_sign("host") else None
    return next((s.seat for s in rep.header.seats if s.seat != late and rep.can_sign(s.seat)), None)


def claim(path: Path, rep: Any, now: datetime, keys: tuple[Any, ...] = ()) -> tuple[Any, str, list[Any]] | None:
    """Claim the timeout of the seat on turn when its time has run out at `now` and the
    host can: (the table after it, the seat that lost, the records made - the timeout,
    and the dealer's reveal where something was hidden); None when there is nothing to
    claim."""
    from corr import engine

    late = timecontrol.overdue(rep.header, rep.standing(), rep.to_move(), now)
    if late is None:
        return None
    by = claimant(rep, late)
    if by is None:
        return None
    with engine.writing(path, now, resume=rep, keys=keys) as table:
        if timecontrol.overdue(table.header, table.standing(), table.to_move(), now) != late:
            return None  # the log moved on under the lock
        records = table.claim_timeout(by)
    return table, late, records


def claim_lines(name: str, table: Any, late: str, records: list[Any]) -> list[str]:
    """What the host says of its claim: `FILE: seq 7: the host claims B's timeout: A
    wins`, and a line for the reveal that followed it."""
    winners = list(table.result().winners)
    if not winners:
        result = "nobody wins"
    else:
        result = f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"
    timeout = records[0]
    claimed = "" if timeout.by == "host" else f" (for {timeout.by})"
    lines = [f"{name}: seq {timeout.seq}: the host claims {late}'s timeout{claimed}: {result}"]
    lines += [f"{name}: seq {r.seq}: the dealer reveals the deal" for r in records[1:] if r.type == "reveal"]
    return lines
