"""`corr mail ...`: compose a move's message, send it over SMTP, ingest messages."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import LogFile, app

mail_app = typer.Typer(
    help="Play by email: compose a message with the board and the log attached, send it over "
    "SMTP, ingest replies (.eml, mbox or Maildir) into your copy of the game.\n\n"
    "\b\nExample:\n"
    "  corr mail send game.corr --to B --config ~/.config/corr/smtp.toml\n"
    "  corr mail ingest reply.eml --games ~/games",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(
    mail_app,
    name="mail",
    help="Play by email: compose, send (SMTP) and ingest messages (.eml, mbox, Maildir).\n\n"
    "\b\nExample:\n"
    "  corr mail compose game.corr --to B --out move.eml",
)

Seat = Annotated[str, typer.Option("--to", metavar="SEAT", help="The seat to write to (its email is in the header).",
                                   show_default=False)]
Sender = Annotated[Optional[str], typer.Option(
    "--from", metavar="ADDR", help="Sender address; default: the config's `from`, else the seat of the last record.")]
Since = Annotated[Optional[int], typer.Option(
    "--since", metavar="SEQ", help="Show the records after SEQ as new; default: only the last one.")]
Config = Annotated[Optional[Path], typer.Option(
    "--config", metavar="CONFIG", help="SMTP settings, TOML: host, port, starttls, username, password_env or "
    "password_file, from.")]


@mail_app.command()
def compose(
    file: LogFile,
    to: Seat,
    out_path: Annotated[Path, typer.Option("--out", "-o", metavar="MSG.eml", help="Where to write the message.",
                                           show_default=False)],
    sender: Sender = None,
    since: Since = None,
) -> None:
    """Write the message for the game's latest move to a .eml file (RFC 5322).

    Text and HTML board as seat SEAT sees them, the new records and the move list in the
    body, the public log attached as GAME-ID.corr; threads to the game's previous message
    (kept in FILE.mail.json). In a game with hidden cards composed on the dealer's copy
    (FILE.secret beside it), the message shows SEAT its own card and no one else's, and
    carries it in the X-Corr-For / X-Corr-Private headers; FILE.secret is never attached.

    \b
    Example:
      corr mail compose game.corr --to B --out move.eml
      corr mail compose cards.corr --to C --out to-cleo.eml   # Cleo's card only
    """
    from corr.mail.compose import compose_file, remember

    msg = compose_file(file, to, sender=sender, since_seq=since)
    out_path.write_bytes(msg.as_bytes())
    remember(file, msg)
    typer.echo(f"{out_path}: {msg['Subject']} to {msg['To']}")


@mail_app.command()
def send(
    file: LogFile,
    to: Seat,
    config: Config = None,
    smtp_host: Annotated[Optional[str], typer.Option("--smtp-host", metavar="HOST", help="SMTP server (over the config).")] = None,
    smtp_port: Annotated[Optional[int], typer.Option("--smtp-port", metavar="PORT", help="SMTP port (over the config).")] = None,
    sender: Sender = None,
    since: Since = None,
) -> None:
    """Send the message for the game's latest move over SMTP.

    Passwords come only from the config (password_env or password_file). An unreachable
    server is refused with one line, exit 1.

    \b
    Example:
      corr mail send game.corr --to B --config smtp.toml
      corr mail send game.corr --to B --smtp-host 127.0.0.1 --smtp-port 2525
    """
    from corr.mail import smtp
    from corr.mail.compose import compose_file, remember

    settings = smtp.load_config(config, smtp_host, smtp_port)
    msg = compose_file(file, to, sender=sender or settings.sender, since_seq=since)
    smtp.send(msg, settings)
    remember(file, msg)
    typer.echo(f"sent {msg['Subject']} to {msg['To']} via {settings.host}:{settings.effective_port}")


@mail_app.command()
def ingest(
    message: Annotated[Optional[Path], typer.Argument(metavar="[MSG.eml]", help="One message file.",
                                                      show_default=False)] = None,
    games: Annotated[Path, typer.Option("--games", metavar="DIR", help="Directory of your game logs (*.corr).",
                                        show_default=False)] = Path("."),
    mbox: Annotated[Optional[Path], typer.Option("--mbox", metavar="PATH", help="Ingest every message of an mbox.")] = None,
    maildir: Annotated[Optional[Path], typer.Option("--maildir", metavar="DIR",
                                                    help="Ingest every message of a Maildir (left in place).")] = None,
    reply: Annotated[bool, typer.Option("--reply", help="Answer each refused message saying why.")] = False,
    new: Annotated[bool, typer.Option(
        "--new", help="Accept a game you are invited to: its attached log becomes your copy in --games.")] = False,
    reply_dir: Annotated[Optional[Path], typer.Option(
        "--reply-dir", metavar="DIR", help="Where --reply writes its .eml replies; default: DIR/outbox.")] = None,
    config: Config = None,
) -> None:
    """Take messages' moves into your copies of the games.

    The game is found by `[corr ID]` in the Subject or the attached log's header; the
    moves come from the attached log (records after your copy's tail) or, without one,
    from the first line of the plain-text body that is a move. Ingesting a message
    twice changes nothing. A move in the body is taken only from its seat's address.
    A dealer's message telling your seat its card (X-Corr-Private) is kept in
    FILE.mail.json for `show --for SEAT`. One line per message; exit 1 if any was
    refused, 2 if any carried a diverged or forged log. Maildir messages are read, never moved or marked.
    With --reply, each refusal is answered (written to --reply-dir, and sent when
    --config is given).

    \b
    Example:
      corr mail ingest reply.eml --games ~/games
      corr mail ingest first-move.eml --games ~/games --new
      corr mail ingest --maildir ~/Maildir --games ~/games --reply
    """
    from corr.errors import UsageError
    from corr.mail import ingest as mail_in

    given = [x for x in (message, mbox, maildir) if x is not None]
    if len(given) != 1:
        raise UsageError("give exactly one of MSG.eml, --mbox PATH or --maildir DIR")
    if message is not None:
        try:
            data = message.read_bytes()
        except OSError as err:
            raise UsageError(f"{message}: {err.strerror or err}") from None
        items = [(str(message), data)]
    else:
        items = mail_in.mailbox_messages(mbox=mbox, maildir=maildir)
    settings = None
    if reply and config is not None:
        from corr.mail import smtp

        settings = smtp.load_config(config)
    worst = 0
    errors: list[str] = []
    for result in mail_in.iter_ingest(items, games, new):
        worst = max(worst, result.code)
        if result.ok:
            typer.echo(result.line())
        elif message is not None:
            if reply:
                _reply(result, reply_dir or games / "outbox", settings)
            raise _error(result)
        else:
            errors.append(result.line())
            typer.echo(result.line(), err=True)
            if reply:
                _reply(result, reply_dir or games / "outbox", settings)
    if worst:
        raise _summary(worst, f"{len(errors)} of {len(items)} messages refused")


def _error(result):  # type: ignore[no-untyped-def]
    from corr.errors import CorruptLog, UsageError

    return (CorruptLog if result.code == 2 else UsageError)(result.message)


def _summary(code: int, text: str):  # type: ignore[no-untyped-def]
    from corr.errors import CorruptLog, UsageError

    return (CorruptLog if code == 2 else UsageError)(text)


def _reply(result, out_dir: Path, settings) -> None:  # type: ignore[no-untyped-def]
    from corr.mail.ingest import refusal_reply

    msg = refusal_reply(result)
    if msg is None:
        typer.echo(f"{result.source}: no sender to reply to", err=True)
        return
    out_dir.mkdir(parents=True, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(result.source).name)
    target = out_dir / f"reply-{safe}.eml"
    target.write_bytes(msg.as_bytes())
    if settings is not None:
        from corr.mail import smtp

        smtp.send(msg, settings)
        typer.echo(f"{result.source}: replied to {msg['To']} ({target})", err=True)
    else:
        typer.echo(f"{result.source}: reply written to {target}", err=True)
