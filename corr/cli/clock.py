"""Commands of the time control (DESIGN.md 6): clock, claim-timeout, vacation."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from corr.cli.app import JsonFlag, LogFile, SignKey, app, out, seat_of


def duration(seconds: int) -> str:
    """Seconds as `2d 03:04:05` (negative: `-0d 00:00:01`)."""
    sign = "-" if seconds < 0 else ""
    days, rest = divmod(abs(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{days}d {hours:02}:{minutes:02}:{secs:02}"


def _to_move(rep: Any) -> str | None:
    """The seat on turn; None once the game is over (a timeout ends it too)."""
    return rep.to_move()


def clock_report(rep: Any, now: Any) -> dict[str, Any]:
    """The clock of a replayed game at `now`, as the JSON `corr clock --json` prints."""
    from corr import clock, timecontrol

    header = rep.header
    records = rep.standing()
    to_move = _to_move(rep)
    tc = header.time_control
    return {
        "file": str(rep.log.path),
        "now": clock.stamp(now),
        "time_control": tc,
        "description": timecontrol.describe(dict(tc)) if tc is not None else "no time control",
        "to_move": to_move,
        "overdue": timecontrol.overdue(header, records, to_move, now),
        "seats": timecontrol.clocks(header, records, to_move, now),
    }


@app.command("clock")
def clock_command(file: LogFile, as_json: JsonFlag = False) -> None:
    """Show each seat's time: used, left, the deadline of the seat on turn, vacation left.

    The seat on turn is marked `*`; `reminder due` when it is within the reminder time
    of its deadline, `OVERDUE` when its time has run out (another seat may then claim
    the game with `corr claim-timeout`).

    \b
    Example:
      corr clock game.corr
      corr clock game.corr --json
    """
    import json

    from corr import clock, engine
    from corr.names import visible

    report = clock_report(engine.load(file), clock.now())
    if as_json:
        out(json.dumps(report, indent=2) + "\n")
        return
    typer.echo(f"{visible(str(file))}: {report['description']} (now {report['now']})")
    if report["time_control"] is None:
        return
    if report["to_move"] is None:
        typer.echo("no seat is on turn: the game is over")
    for seat, c in report["seats"].items():
        on_turn = seat == report["to_move"]
        parts = [
            f"{'*' if on_turn else ' '} {seat}",
            f"used {duration(c['used'])}",
            f"left {duration(c['left'])}",
        ]
        if c["deadline"] is not None:
            parts.append(f"deadline {c['deadline']}")
        if c["vacation_until"] is not None:
            parts.append(f"on vacation until {c['vacation_until']}")
        parts.append(f"vacation left {c['vacation_left']} d")
        if report["overdue"] == seat:
            parts.append("OVERDUE")
        elif c["remind"]:
            parts.append("reminder due")
        typer.echo("  ".join(parts))


@app.command("claim-timeout")
def claim_timeout(
    file: LogFile,
    by: Annotated[Optional[str], typer.Option("--by", metavar="SEAT", help="The seat claiming the timeout.")] = None,
    sign: SignKey = None,
) -> None:
    """Claim the game because the seat on turn has run out of time: append a timeout
    record; that seat forfeits. Refused unless the seat on turn is overdue (see
    `corr clock`) and the claimant is another seat.

    \b
    Example:
      corr claim-timeout game.corr --by B
    """
    from corr import engine
    from corr.identity import load_private
    from corr.names import visible

    with engine.writing(file) as rep:
        seat = seat_of(file, by)
        if sign is not None:
            seat = rep.seat_of_key(load_private(sign), seat, str(sign))
        records = rep.claim_timeout(seat)
    if records[0].type != "timeout":  # the game's own clock ran out (Domino 6.1)
        typer.echo(f"{visible(str(file))}: seq {records[0].seq}: the time has run out; the dealer revealed the seed")
        return
    for step in rep.steps[-len(records):]:
        for event in step.outcome.events:
            typer.echo(event, err=True)
    record = records[0]
    typer.echo(f"{visible(str(file))}: seq {record.seq}: {record.by} claimed the timeout at {record.at}")


@app.command("vacation")
def vacation(
    file: LogFile,
    days: Annotated[int, typer.Option("--days", metavar="N", help="Whole days the seat's clock stops.")],
    by: Annotated[Optional[str], typer.Option("--by", metavar="SEAT", help="The seat taking the vacation.")] = None,
    sign: SignKey = None,
) -> None:
    """Stop your clock for N days, on your own turn: append a vacation record. Refused
    beyond the yearly allowance of the time control (see `corr clock`).

    \b
    Example:
      corr vacation game.corr --by A --days 7
    """
    from corr import engine, timecontrol
    from corr.counts import counted
    from corr.errors import UsageError
    from corr.identity import load_private
    from corr.names import visible

    if by is None and sign is None:
        raise UsageError("missing option --by: name the seat taking the vacation (or --sign with its key)")
    seat = seat_of(file, by)
    with engine.writing(file) as rep:
        if sign is not None:
            seat = rep.seat_of_key(load_private(sign), seat, str(sign))
        if seat is not None:  # the reason in the words of the time control, before the record is judged
            timecontrol.check_vacation(rep.header, rep.standing(), seat, days, rep.when(), to_move=_to_move(rep))
        records = rep.add("vacation", seat, note=str(days))
    record = records[0]
    typer.echo(f"{visible(str(file))}: seq {record.seq}: {record.by} is on vacation for {counted(days, 'day')} "
               f"from {record.at}")
