"""`corr referee`: read-only tools for a game's referee (DESIGN 5), and `corr compare`
for two players' diverging copies of one game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import Format, JsonFlag, LogFile, app, check_format, file_callback, out, seat_of

referee_app = typer.Typer(
    help="A referee's tools: examine any record of a game, and rule on it.\n\n"
    "\b\nExample:\n"
    "  corr referee examine game.corr 10 --format html > report.html\n"
    "  corr referee rule game.corr --seq 10 --uphold --reason 'challenge mailed in time' --sign rita.key",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(
    referee_app,
    name="referee",
    help="A referee's tools: examine any record (position before, rule, cells, challenge); "
    "append signed rulings.\n\n"
    "\b\nExample:\n"
    "  corr referee examine game.corr 10\n"
    "  corr referee rule game.corr --seq 10 --void --reason 'entered by mistake' --sign rita.key",
)


@referee_app.command("examine")
def examine(
    file: LogFile,
    seq: Annotated[int, typer.Argument(metavar="SEQ", help="The record to examine.", show_default=False)],
    fmt: Format = "text",
) -> None:
    """Examine one record: the position before it, whether it was legal, the rule it
    broke and the cells, whether a challenge came in time, and what followed.

    outcome (JSON): legal, upheld, rejected, stood (illegal, never challenged in time)
    or open (illegal, the next move not recorded yet). The HTML is a whole document
    with inline styles, to mail to every player. A SEQ outside the log exits 1, a
    corrupt log 2.

    \b
    Example:
      corr referee examine game.corr 10
      corr referee examine game.corr 10 --format json
    """
    from corr import referee
    from corr.log import store

    check_format(fmt, referee.FORMATS)
    out(referee.render(referee.examine(store.read(file), seq), fmt))


@referee_app.command("rule")
def rule(
    file: LogFile,
    seq: Annotated[int, typer.Option("--seq", metavar="N", help="The record ruled on.", show_default=False)],
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why: every player reads it.",
                                        show_default=False)],
    sign: Annotated[Path, typer.Option("--sign", metavar="KEY", help="The referee's (or host's) private key.",
                                       show_default=False)],
    uphold: Annotated[bool, typer.Option("--uphold", help="Uphold a challenge of move N the log could not take.")] = False,
    reject: Annotated[bool, typer.Option("--reject", help="Dismiss the dispute: record N stands.")] = False,
    void: Annotated[bool, typer.Option("--void", help="Go on as if record N had never been made.")] = False,
    forfeit: Annotated[Optional[str], typer.Option("--forfeit", metavar="SEAT", help="SEAT loses the game.")] = None,
    adjust_clock: Annotated[
        Optional[str], typer.Option("--adjust-clock", metavar="SEAT=±DAYS", help="Give or take days, e.g. B=+3.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="Board after: text, html, json or none.")]
    = "text",
) -> None:
    """Append a signed ruling on record N; replay, show, audit and every later move
    honour it, and the records before it stay as they are.

    Exactly one decision: --uphold (move N broke the rule and a challenge the log
    could not take is upheld now: the as-written penalty, the seat after the offender
    being the challenger), --reject (the dispute is dismissed), --void (the game goes on
    as if N had never been recorded; every later record must still hold), --forfeit SEAT
    or --adjust-clock SEAT=±DAYS. Only the key of the referee or host named in the
    header can rule; anyone else's is refused and nothing is written.

    \b
    Example:
      corr referee rule game.corr --seq 12 --uphold --reason "B's challenge was mailed before seq 13" --sign rita.key
      corr referee rule game.corr --seq 20 --void --reason "timeout claimed during a mail outage" --sign rita.key
      corr referee rule game.corr --seq 20 --adjust-clock A=+2 --reason "mail outage" --sign rita.key
    """
    from corr import engine
    from corr.cli.play import _after
    from corr.decisions import parse_decision
    from corr.errors import UsageError
    from corr.identity import load_private

    check_format(fmt, ("text", "html", "json", "none"))
    chosen = [d for d, on in (("uphold", uphold), ("reject", reject), ("void", void)) if on]
    if forfeit is not None:
        chosen.append(f"forfeit {seat_of(file, forfeit, '--forfeit')}")
    if adjust_clock is not None:
        seat, _, days = adjust_clock.partition("=")
        days = days.strip()
        if days[:1] not in ("+", "-"):
            days = "+" + days
        chosen.append(f"adjust-clock {seat_of(file, seat, '--adjust-clock')}={days}")
    if len(chosen) != 1:
        raise UsageError("give exactly one of --uphold, --reject, --void, --forfeit SEAT, --adjust-clock SEAT=±DAYS")
    decision = parse_decision(chosen[0])
    signer = load_private(sign)
    if not reason.strip():
        raise UsageError("give the ruling's reason with --reason")
    with engine.writing(file) as rep:
        rep.hold(signer)
        rep.rule(seq, decision, reason, str(sign))
    for event in rep.steps[-1].outcome.events:
        typer.echo(event, err=True)
    _after(rep, fmt)


@app.command()
def compare(
    a: Annotated[Path, typer.Argument(metavar="COPY1.corr", help="One copy of the game (the first copy).",
                                      show_default=False, callback=file_callback)],
    b: Annotated[Path, typer.Argument(metavar="COPY2.corr", help="Another copy of the same game (the second copy).",
                                      show_default=False, callback=file_callback)],
    as_json: JsonFlag = False,
) -> None:
    """Compare two copies of one game: common prefix, the first divergence with each
    copy's record there, which copy verifies, and the position at each head.

    Exits 0 whenever both copies could be compared, identical or not (the output says
    how they differ); 1 for two different games or a file that is not a log. The text
    names the copies "first copy FILE" and "second copy FILE"; the JSON has them as `a`
    and `b` (`relation` "a-prefix": the first copy is a prefix of the second).

    \b
    Example:
      corr compare anna.corr ben.corr --json
    """
    import json

    from corr import compare as cmp

    report = cmp.compare(a, b)
    out(json.dumps(report, indent=2) + "\n" if as_json else cmp.text(report))
