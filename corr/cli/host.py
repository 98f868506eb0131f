"""`corr host run`: run games for players who only send mail (DESIGN.md 8)."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from corr.cli.app import app

host_app = typer.Typer(
    help="Host games for players who only send mail: ingest a Maildir, mail every seat its "
    "view, answer refusals, send clock reminders, claim timeouts; list what waits in the outbox.\n\n"
    "\b\nExample:\n"
    "  corr host run --maildir ~/Maildir --games ~/games --smtp ~/.config/corr/smtp.toml\n"
    "  corr host outbox --games ~/games",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(
    host_app,
    name="host",
    help="Host games by email: ingest a Maildir, mail the seats, send reminders, claim timeouts.\n\n"
    "\b\nExample:\n"
    "  corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --once",
)

def _echo(line: str) -> None:
    typer.echo(line)
    sys.stdout.flush()


@host_app.command()
def run(
    games: Annotated[Path, typer.Option("--games", metavar="DIR", help="Directory of the hosted game logs (*.corr).",
                                        show_default=False)],
    smtp_config: Annotated[Path, typer.Option("--smtp", metavar="CONFIG", help="SMTP settings, TOML (see `corr mail "
                                              "send --help`); its `from` should be the host's address.",
                                              show_default=False)],
    maildir: Annotated[Optional[Path], typer.Option("--maildir", metavar="DIR", help="The host's incoming Maildir "
                                                    "(or --imap).", show_default=False)] = None,
    imap_config: Annotated[Optional[Path], typer.Option("--imap", metavar="CONFIG", help="Read the host's mail from an "
                                                        "IMAP mailbox instead: its settings, TOML (host, port, tls, "
                                                        "username, password_env or password_file, folder, "
                                                        "done_folder, bad_folder).", show_default=False)] = None,
    once: Annotated[bool, typer.Option("--once", help="Do one pass and exit (1 if any message was refused or not sent).")] = False,
    interval: Annotated[float, typer.Option("--interval", metavar="SECONDS", help="Seconds between passes.")] = 60.0,
    key: Annotated[Optional[Path], typer.Option("--key", metavar="KEY", help="The host's private key: it signs every "
                                                "record of the games that name it host (`corr new --host`).")] = None,
    tournaments: Annotated[Optional[Path], typer.Option("--tournaments", metavar="DIR", help="Run the events "
                                                         "(*.tour) in DIR: take their games' results, pair each next "
                                                         "round into --games, mail the players the standings.",
                                                         show_default=False)] = None,
    digest: Annotated[Optional[str], typer.Option("--digest", metavar="HH:MM", help="Once a day from this time "
                                                  "(UTC), send a player in several games one message listing every "
                                                  "game of theirs on turn, instead of a reminder per game.")] = None,
) -> None:
    """Run the hosted games: each pass ingests the new messages into the games (then
    moves them to the Maildir's cur/, or the IMAP done_folder), mails every seat with an
    address the position of each game that moved (a game not mailed before is
    announced), answers each refused message
    saying why (unless it comes from an address none of the games names: a From can be
    forged, and the host sends no mail to strangers), reminds the seat on turn at each
    time of its clock's schedule (once per turn), and claims the timeout of a seat whose
    time has run out (every seat is then mailed the result). With --digest, a player in
    several games gets one message a day instead of a reminder per game. With
    --tournaments, the events there are run too: each finished game's result taken,
    each next round paired into --games (its games announced by the same pass), the
    standings mailed to every player after each round.
    A message that cannot be handled at all (unreadable, too big, nested too deep) is
    set aside in the Maildir's bad/ folder, with NAME.reason beside it saying why (over
    IMAP: in bad_folder, with a note message saying why).

    A game that names a host (`corr new --host NAME --host-key PUB`) has the host vouch
    for every record its seat does not sign itself: give the host's private key with
    --key (a game with a dealer started with --dealer-key names it already).

    Every message the host sends is first written into the outbox, GAMES/.outbox, and
    each pass ends by sending what is due there over one SMTP connection; what the
    server does not take waits for a later pass (a wait doubling from a minute to four
    hours), and after three days of refusals goes to .outbox/failed/ with its reason
    (`corr host outbox` lists both). A message the server took is never sent again.

    One line per action, and one for the pass when it did anything. With --once: one
    pass, exit 0, or 1 if a message was refused or set aside, or something could not be
    sent (it waits in the outbox for the next pass).
    Without: a pass every --interval seconds until SIGINT or SIGTERM, which finish the
    current pass and exit 0. What was mailed and reminded is kept in FILE.host.json.
    One pass at a time per games folder: a pass that finds another at work (a cron
    job still running) says so and leaves at once, exit 0.

    \b
    Example:
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --once
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --interval 30
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --key hal.key
      corr host run --imap imap.toml --games ~/games --smtp smtp.toml --once
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --tournaments ~/events
      corr host run --maildir ~/Maildir --games ~/games --smtp smtp.toml --digest 07:00
    """
    from corr.errors import CorrError, UsageError
    from corr.mail import smtp
    from corr.mail.host import run_pass
    from corr.mail.outbox import OUTBOX

    if interval < 0:
        raise UsageError(f"--interval should be 0 or more seconds, not {interval}")
    daily = None
    if digest is not None:
        from corr.mail.digest import parse_time

        daily = parse_time(digest)
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
    if tournaments is not None and not tournaments.is_dir():
        raise UsageError(f"--tournaments {tournaments}: no such folder (the event logs, *.tour, live there)")
    inbox = _inbox(maildir, imap_config)
    source = maildir if maildir is not None else f"{inbox.label} on {getattr(inbox, 'config').where}"

    if once:
        try:
            report = run_pass(inbox, games, config, echo=_echo, keys=keys, digest=daily, tournaments=tournaments)
        finally:
            inbox.close()
        if report.summary():
            _echo(str(report.summary()))
        faults = []
        if report.refused:
            faults.append(f"{report.refused} message{'s' if report.refused > 1 else ''} refused")
        if report.set_aside:
            faults.append(f"{report.set_aside} message{'s' if report.set_aside > 1 else ''} set aside in "
                          + (f"{maildir / 'bad'} (each with its .reason)" if maildir is not None
                           else f"the folder {getattr(inbox, 'config').bad_folder} (each with a note)"))
        if report.failures:
            faults.append(f"{len(report.failures)} failure{'s' if len(report.failures) > 1 else ''} (each said above)")
        if report.queued:
            faults.append(f"{report.queued} message{'s' if report.queued > 1 else ''} not sent yet, waiting in "
                          f"{games / OUTBOX} for a later pass (`corr host outbox --games {games}` lists them)")
        if faults:
            raise UsageError("; ".join(faults))
        return

    stop: list[int] = []

    def on_signal(signum: int, frame: object) -> None:  # noqa: ARG001
        stop.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    passes = 0
    try:
        _echo(f"hosting {games} from {source} every {interval:g}s (stop with SIGINT or SIGTERM)")
        while not stop:
            try:
                summary = run_pass(inbox, games, config, echo=_echo, keys=keys, digest=daily,
                                   tournaments=tournaments).summary()
                if summary:
                    _echo(summary)
            except CorrError as err:  # a bad pass (e.g. the Maildir went away) is reported, not fatal
                _echo(f"pass failed: {err}")
            except Exception as err:  # noqa: BLE001 - nor is a bug: the host survives every pass
                _echo(f"pass failed: internal error, a bug in corr: {type(err).__name__}: {err}")
            passes += 1
            inbox.close()
            if not stop:
                inbox.wait(interval, lambda: bool(stop))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if stop:
        _echo(f"stopped by {signal.Signals(stop[0]).name} after {passes} pass{'es' if passes != 1 else ''}")


@host_app.command()
def outbox(
    games: Annotated[Path, typer.Option("--games", metavar="DIR", help="Directory of the hosted game logs (*.corr).",
                                        show_default=False)],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object: {\"waiting\": [...], \"failed\": [...]}.")]
    = False,
) -> None:
    """What the host has still to send, and what it gave up: the messages waiting in
    GAMES/.outbox (To, Subject, how many tries failed, the next try, the last error) and
    those in .outbox/failed/ (refused for three days, or a file that is no message),
    each with its reason. `corr host run` sends what waits at the end of each pass.

    \b
    Example:
      corr host outbox --games ~/games
      corr host outbox --games ~/games --json
    """
    from corr.errors import UsageError
    from corr.mail.outbox import Outbox, listing_text

    if not games.exists():
        raise UsageError(f"--games {games}: no such folder")
    if not games.is_dir():
        raise UsageError(f"--games {games} is not a directory")
    box = Outbox(games)
    if json_out:
        import json

        typer.echo(json.dumps(box.listing(), indent=2))
    else:
        typer.echo(listing_text(box), nl=False)


def _inbox(maildir: Optional[Path], imap_config: Optional[Path]) -> Any:
    """Where the host's mail comes from: exactly one of --maildir and --imap. The IMAP
    settings are checked now; the server is reached by each pass."""
    from corr.errors import UsageError

    if (maildir is None) == (imap_config is None):
        raise UsageError("give the host's mail as --maildir DIR or --imap CONFIG (one of them)")
    if imap_config is not None:
        from corr.mail import imap

        return imap.ImapInbox(imap.load_config(imap_config))
    from corr.mail.maildir import open_maildir

    assert maildir is not None
    return open_maildir(maildir)
