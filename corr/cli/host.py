"""`corr host run`: run games for players who only send mail (DESIGN.md 8)."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import app

host_app = typer.Typer(
    help="Host games for players who only send mail: ingest a Maildir, mail every seat its "
    "view, answer refusals, send clock reminders.\n\n"
    "\b\nExample:\n"
    "  corr host run --maildir ~/Maildir --games ~/games --smtp ~/.config/corr/smtp.toml",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(
    host_app,
    name="host",
    help="Host games by email: ingest a Maildir, mail the seats, send reminders.\n\n"
    "\b\nExample:\n"
    "  corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --once",
)

#: How long one sleep step of the loop is at most (seconds): a signal is seen this soon.
STEP = 0.1


def _echo(line: str) -> None:
    typer.echo(line)
    sys.stdout.flush()


@host_app.command()
def run(
    maildir: Annotated[Path, typer.Option("--maildir", metavar="DIR", help="The host's incoming Maildir.",
                                          show_default=False)],
    games: Annotated[Path, typer.Option("--games", metavar="DIR", help="Directory of the hosted game logs (*.corr).",
                                        show_default=False)],
    smtp_config: Annotated[Path, typer.Option("--smtp", metavar="CONFIG", help="SMTP settings, TOML (see `corr mail "
                                              "send --help`); its `from` should be the host's address.",
                                              show_default=False)],
    once: Annotated[bool, typer.Option("--once", help="Do one pass and exit (1 if any message was refused or not sent).")] = False,
    interval: Annotated[float, typer.Option("--interval", metavar="SECONDS", help="Seconds between passes.")] = 60.0,
    key: Annotated[Optional[Path], typer.Option("--key", metavar="KEY", help="The host's private key: it signs every "
                                                "record of the games that name it host (`corr new --host`).")] = None,
) -> None:
    """Run the hosted games: each pass ingests the Maildir's new messages into the games
    (then moves them to cur/), mails every seat with an address the position of each game
    that moved (a game not mailed before is announced), answers each refused message
    saying why (unless it comes from an address none of the games names: a From can be
    forged, and the host sends no mail to strangers), and reminds the seat on turn when
    its clock says so (once per turn).
    A message that cannot be handled at all (unreadable, too big, nested too deep) is
    set aside in the Maildir's bad/ folder, with NAME.reason beside it saying why.

    A game that names a host (`corr new --host NAME --host-key PUB`) has the host vouch
    for every record its seat does not sign itself: give the host's private key with
    --key (a game with a dealer started with --dealer-key names it already).

    One line per action. With --once: one pass, exit 0, or 1 if a message was refused
    or set aside or a message could not be sent (what was not mailed is tried again next pass).
    Without: a pass every --interval seconds until SIGINT or SIGTERM, which finish the
    current pass and exit 0. What was mailed and reminded is kept in FILE.host.json.
    One pass at a time per games folder: a pass that finds another at work (a cron
    job still running) says so and leaves at once, exit 0.

    \b
    Example:
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --once
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --interval 30
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --key hal.key
    """
    from corr.errors import CorrError, UsageError
    from corr.mail import smtp
    from corr.mail.host import new_messages, run_pass

    if interval < 0:
        raise UsageError(f"--interval should be 0 or more seconds, not {interval}")
    config = smtp.load_config(smtp_config)
    keys: tuple[object, ...] = ()
    if key is not None:
        from corr.identity import load_private

        keys = (load_private(key),)
    if not games.exists():
        raise UsageError(f"--games {games}: no such folder (the hosted games live there: "
                         f"`corr new GAME {games / 'NAME.corr'} ...` makes it)")
    if not games.is_dir():
        raise UsageError(f"--games {games} is not a directory")
    if not maildir.exists():  # the mail system delivers there; until then it is empty
        import mailbox

        mailbox.Maildir(maildir, create=True)
    new_messages(maildir)  # refuse a path that is not a Maildir before anything else

    if once:
        report = run_pass(maildir, games, config, echo=_echo, keys=keys)
        faults = []
        if report.refused:
            faults.append(f"{report.refused} message{'s' if report.refused > 1 else ''} refused")
        if report.set_aside:
            faults.append(f"{report.set_aside} message{'s' if report.set_aside > 1 else ''} set aside in "
                          f"{maildir / 'bad'} (each with its .reason)")
        if report.failures:
            faults.append(f"{len(report.failures)} not sent (tried again on the next pass)")
        if faults:
            raise UsageError("; ".join(faults))
        return

    stop: list[int] = []

    def on_signal(signum: int, frame: object) -> None:  # noqa: ARG001
        stop.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    passes = 0
    try:
        _echo(f"hosting {games} from {maildir} every {interval:g}s (stop with SIGINT or SIGTERM)")
        while not stop:
            try:
                run_pass(maildir, games, config, echo=_echo, keys=keys)
            except CorrError as err:  # a bad pass (e.g. the Maildir went away) is reported, not fatal
                _echo(f"pass failed: {err}")
            except Exception as err:  # noqa: BLE001 - nor is a bug: the host survives every pass
                _echo(f"pass failed: internal error, a bug in corr: {type(err).__name__}: {err}")
            passes += 1
            deadline = time.monotonic() + interval
            while not stop:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                time.sleep(min(STEP, left))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if stop:
        _echo(f"stopped by {signal.Signals(stop[0]).name} after {passes} pass{'es' if passes != 1 else ''}")
