"""`corr mail ...`: compose a move's message, send it over SMTP, ingest messages."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import LogFile, app, folder_for, input_callback, seat_of

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
    (kept in FILE.mail.json). In a game with a dealer composed on the dealer's copy
    (FILE.secret beside it), the message shows SEAT its own card and no one else's (in a
    Domino duel its own board and digit, and no log while another board's moves are in
    it), and carries it in the X-Corr-For / X-Corr-Private headers; FILE.secret is never
    attached.

    \b
    Example:
      corr mail compose game.corr --to B --out move.eml
      corr mail compose cards.corr --to C --out to-cleo.eml   # Cleo's card only
    """
    from corr.errors import UsageError
    from corr.mail.compose import compose_file, remember
    from corr.log.sidecars import write_bytes
    from corr.names import visible

    msg = compose_file(file, seat_of(file, to, "--to"), sender=sender, since_seq=since)
    try:
        write_bytes(out_path, msg.as_bytes())
    except OSError as err:
        raise UsageError(f"{out_path}: {err.strerror or err}") from None
    remember(file, msg)
    typer.echo(visible(f"{out_path}: {msg['Subject']} to {msg['To']}"))  # To: a player's name


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
    from corr.names import visible

    settings = smtp.load_config(config, smtp_host, smtp_port)
    msg = compose_file(file, seat_of(file, to, "--to"), sender=sender or settings.sender, since_seq=since)
    smtp.send(msg, settings)
    remember(file, msg)
    typer.echo(visible(f"sent {msg['Subject']} to {msg['To']} via {settings.host}:{settings.effective_port}"))


@mail_app.command()
def ingest(
    message: Annotated[Optional[Path], typer.Argument(metavar="[MSG.eml]", help="One message file.",
                                                      show_default=False, callback=input_callback)] = None,
    games: Annotated[Path, typer.Option("--games", metavar="DIR", help="Directory of your game logs (*.corr).",
                                        show_default=False)] = Path("."),
    mbox: Annotated[Optional[Path], typer.Option("--mbox", metavar="PATH", help="Ingest every message of an mbox.",
                                                 callback=input_callback)] = None,
    maildir: Annotated[Optional[Path], typer.Option("--maildir", metavar="DIR",
                                                    help="Ingest every message of a Maildir (left in place).")] = None,
    reply: Annotated[bool, typer.Option("--reply", help="Answer each refused message saying why.")] = False,
    new: Annotated[bool, typer.Option(
        "--new", help="Accept a game you are invited to: its attached log becomes your copy in --games.")] = False,
    reply_dir: Annotated[Optional[Path], typer.Option(
        "--reply-dir", metavar="DIR", help="Where --reply writes its .eml replies; default: DIR/outbox.")] = None,
    config: Config = None,
    key: Annotated[Optional[Path], typer.Option(
        "--key", metavar="KEY", help="A host's private key, when you host the games by hand: it signs the moves "
        "of the games that name you host.")] = None,
) -> None:
    """Take messages' moves into your copies of the games.

    The game is found by `[corr ID]` in the Subject or the attached log's header; the
    moves come from the attached log (records after your copy's tail) or, without one,
    from the first line of the plain-text body that is a move. Ingesting a message
    twice changes nothing. In a game without keys, a move in the body, and a seat's new
    record in the attached log, is taken only from a message whose From is that seat's
    one address (a weak guard: From can be forged; signed records are taken from anyone).
    A dealer's message telling your seat its card (X-Corr-Private) is kept in
    FILE.mail.json for `show --for SEAT`. One line per message; exit 1 if any was
    refused, 2 if any carried a diverged or forged log. Maildir messages are read, never moved or marked.
    Every message is hostile until checked: one too big, nested too deep or with a
    Subject seq of more than 9 digits is refused with its reason, and the others go on.
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
    from corr.mail.message import MAX_MESSAGE

    given = [x for x in (message, mbox, maildir) if x is not None]
    if len(given) != 1:
        raise UsageError("give exactly one of MSG.eml, --mbox PATH or --maildir DIR")
    if not games.exists() and not new:
        raise UsageError(f"--games {games}: no such folder (your copies of the games live there; "
                         "--new starts one there from an invitation)")
    if message is not None:
        try:
            with open(message, "rb") as f:
                data = f.read(MAX_MESSAGE + 1)  # enough to refuse it by size
        except OSError as err:
            raise UsageError(f"{message}: {err.strerror or err}") from None
        items: list = [(str(message), data, mail_in.read_message(data))]
    else:
        items = mail_in.mailbox_messages(mbox=mbox, maildir=maildir)
    settings = None
    if reply and config is not None:
        from corr.mail import smtp

        settings = smtp.load_config(config)
    keys: tuple[object, ...] = ()
    if key is not None:
        from corr.identity import load_private

        keys = (load_private(key),)
    if new:  # the games folder is where invitations become copies: made when missing
        with folder_for(games):
            _ingest_all(items, games, new, message is not None, reply, reply_dir, settings, keys)
    else:
        _ingest_all(items, games, new, message is not None, reply, reply_dir, settings, keys)


def _ingest_all(items: list, games: Path, new: bool, single: bool, reply: bool,  # type: ignore[type-arg]
                reply_dir: Optional[Path], settings, keys: tuple[object, ...] = ()) -> None:  # type: ignore[no-untyped-def]
    """Ingest each message, one line each; a single message's refusal is the error."""
    from corr.counts import counted
    from corr.mail import ingest as mail_in

    worst = 0
    errors: list[str] = []
    for result in mail_in.iter_ingest(items, games, new, keys):
        worst = max(worst, result.code)
        if result.ok:
            typer.echo(result.line())
        elif single:
            if reply:
                _reply(result, reply_dir or games / "outbox", settings)
            raise _error(result)
        else:
            errors.append(result.line())
            typer.echo(result.line(), err=True)
            if reply:
                _reply(result, reply_dir or games / "outbox", settings)
    if worst:
        raise _summary(worst, f"{len(errors)} of {counted(len(items), 'message')} refused")


def _error(result):  # type: ignore[no-untyped-def]
    from corr.errors import CorruptLog, UsageError

    return (CorruptLog if result.code == 2 else UsageError)(result.message)


def _summary(code: int, text: str):  # type: ignore[no-untyped-def]
    from corr.errors import CorruptLog, UsageError

    return (CorruptLog if code == 2 else UsageError)(text)


def _reply(result, out_dir: Path, settings) -> None:  # type: ignore[no-untyped-def]
    """Write (and with settings, send) the refusal's answer; a reply that cannot be built,
    written or sent is said on one line, never raised: the refusal is what counts."""
    from corr.errors import UsageError
    from corr.mail.message import flat
    from corr.mail.reply import refusal_reply
    from corr.log.sidecars import write_bytes

    source = flat(result.source, 300)
    try:
        msg = refusal_reply(result)
    except Exception as err:  # noqa: BLE001 - refusal_reply does not raise; if it does, say so
        typer.echo(f"{source}: no reply: it cannot be built ({type(err).__name__})", err=True)
        return
    if msg is None:
        typer.echo(f"{source}: no sender to reply to", err=True)
        return
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in Path(result.source).name)[:100]
    target = out_dir / f"reply-{safe}.eml"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_bytes(target, msg.as_bytes())
    except OSError as err:
        typer.echo(f"{source}: reply not written to {target}: {err.strerror or err}", err=True)
        return
    if settings is not None:
        from corr.mail import smtp

        try:
            smtp.send(msg, settings)
        except UsageError as err:
            typer.echo(f"{source}: reply written to {target}, not sent: {err}", err=True)
            return
        from corr.names import visible

        typer.echo(visible(f"{source}: replied to {msg['To']} ({target})"), err=True)
    else:
        typer.echo(f"{source}: reply written to {target}", err=True)
