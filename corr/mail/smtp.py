"""Sending mail over SMTP, configured by a TOML file (never a password on the command line).

The config file (all keys optional but `host`; a `[smtp]` table or top-level keys):

    [smtp]
    host = "smtp.example.org"
    port = 587                 # default 587 with starttls, 465 with ssl, else 25
    starttls = true            # upgrade the connection with STARTTLS
    ssl = false                # connect with implicit TLS (SMTPS, port 465)
    username = "anna"
    password_env = "CORR_SMTP_PASSWORD"           # the password from this variable,
    # password_file = "~/.config/corr/smtp-pass"  # or from the first line of this file
    from = "Anna <anna@example.org>"             # default sender of `corr mail send`
    timeout = 30
"""

from __future__ import annotations

import smtplib
import ssl as _ssl
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from corr.errors import UsageError

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer


@dataclass
class SmtpConfig:
    host: str
    port: int = 0
    starttls: bool = False
    ssl: bool = False
    username: str | None = None
    password_env: str | None = None
    password_file: str | None = None
    sender: str | None = None
    timeout: float = 30.0

    @property
    def effective_port(self) -> int:
        return self.port or (465 if self.ssl else 587 if self.starttls else 25)

    def password(self) -> str | None:
        from corr.mail.settings import password

        return password(self.password_env, self.password_file, "SMTP")


_KEYS = {"host", "port", "starttls", "ssl", "username", "password_env", "password_file", "from", "timeout"}


def load_config(path: Path | str | None, host: str | None = None, port: int | None = None) -> SmtpConfig:
    """The SMTP settings from a TOML file, with --smtp-host / --smtp-port over it."""
    data: dict = {}
    if path is not None:
        from corr.mail.settings import read_toml

        data = read_toml(path, "SMTP config", "smtp")
        extra = set(data) - _KEYS
        if extra:
            raise UsageError(f"SMTP config {path}: unknown key {sorted(extra)[0]!r} (keys: {', '.join(sorted(_KEYS))})")
    host = host or data.get("host")
    if not host:
        raise UsageError("no SMTP server: give --config CONFIG (with host) or --smtp-host HOST")
    try:
        return SmtpConfig(
            host=str(host),
            port=int(port if port is not None else data.get("port", 0)),
            starttls=bool(data.get("starttls", False)),
            ssl=bool(data.get("ssl", False)),
            username=data.get("username"),
            password_env=data.get("password_env"),
            password_file=data.get("password_file"),
            sender=data.get("from"),
            timeout=float(data.get("timeout", 30)),
        )
    except (TypeError, ValueError) as err:
        raise UsageError(f"SMTP config {path}: {err}") from None


class _SMTP(smtplib.SMTP):
    """smtplib.SMTP whose DATA, for a message given as bytes, does the dot-stuffing by
    searching for the lines that need it: smtplib runs a multiline regex over every
    message, a tenth of a host pass's own CPU time where its boards are a few hundred
    lines each. The bytes on the wire are the ones smtplib sends: a line that starts
    with a period (after a line feed, or the message's first) gets a second one."""

    def data(self, msg: ReadableBuffer | str) -> tuple[int, bytes]:
        if not isinstance(msg, bytes):
            return super().data(msg)
        self.putcmd("data")
        code, reply = self.getreply()
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        if b"\n." in msg:
            msg = msg.replace(b"\n.", b"\n..")
        if msg[:1] == b".":
            msg = b"." + msg
        if msg[-2:] != b"\r\n":
            msg += b"\r\n"
        self.send(msg + b".\r\n")
        return self.getreply()


class _SMTP_SSL(_SMTP, smtplib.SMTP_SSL):
    """smtplib.SMTP_SSL with `_SMTP`'s DATA."""


class NotSent(UsageError):
    """The server did not take one message. `dropped`: the connection went with it, so
    the messages after it wait for another connection."""

    def __init__(self, message: str, dropped: bool = False) -> None:
        super().__init__(message)
        self.dropped = dropped


class Connection:
    """One SMTP session for any number of messages: `with Connection(config) as server:
    server.send(msg)`. A host's pass sends everything it has over one connection instead of
    one connection a message; `send` below is the same for a single message."""

    def __init__(self, config: SmtpConfig) -> None:
        self.config = config
        self.where = f"{config.host}:{config.effective_port}"
        self._server: smtplib.SMTP | None = None

    def __enter__(self) -> Connection:
        """Connect (STARTTLS, login): one clear UsageError when that fails."""
        config = self.config
        password = config.password() if config.username else None
        try:
            if config.ssl:
                server: smtplib.SMTP = _SMTP_SSL(
                    config.host, config.effective_port, timeout=config.timeout, context=_ssl.create_default_context()
                )
            else:
                server = _SMTP(config.host, config.effective_port, timeout=config.timeout)
        except (OSError, smtplib.SMTPException) as err:
            raise UsageError(
                f"cannot reach the SMTP server {self.where}: {getattr(err, 'strerror', None) or err}") from None
        self._server = server
        try:
            if config.starttls:
                server.starttls(context=_ssl.create_default_context())
            if config.username:
                server.login(config.username, password or "")
        except Exception as err:
            self.close()
            raise self._error(err) from None
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Say QUIT and hang up; what the server says then changes nothing (every message
        it took was taken before)."""
        server, self._server = self._server, None
        if server is None:
            return
        try:
            if server.sock is not None:
                server.quit()
        except (OSError, smtplib.SMTPException):
            pass
        finally:
            server.close()

    def send(self, msg: EmailMessage) -> dict[str, tuple[int, bytes]]:
        """Hand one message to the server; the recipients it refused while taking the
        message for the others (none for a message to one address). NotSent when it did
        not take the message, with `dropped` when the connection is lost (it is closed)."""
        return self._hand(lambda server: server.send_message(msg))

    def send_bytes(self, sender: str, recipients: list[str], data: bytes) -> dict[str, tuple[int, bytes]]:
        """`send` for a message already written out as smtplib's `send_message` would
        write it (CRLF line ends): the envelope given, the bytes as they are."""
        return self._hand(lambda server: server.sendmail(sender, recipients, data))

    def _hand(self, deliver: Callable[[smtplib.SMTP], dict[str, tuple[int, bytes]]]) -> dict[str, tuple[int, bytes]]:
        server = self._server
        if server is None or server.sock is None:
            raise NotSent(f"lost the SMTP server {self.where}: the connection is closed", dropped=True)
        try:
            return deliver(server)
        except Exception as err:
            dropped = (server.sock is None or isinstance(err, smtplib.SMTPServerDisconnected)
                       or (isinstance(err, OSError) and not isinstance(err, smtplib.SMTPException)))
            why = self._error(err)
            if dropped:
                self.close()
            else:
                try:  # a refusal leaves the session mid-transaction only if the client did
                    server.rset()
                except (OSError, smtplib.SMTPException):
                    self.close()
            raise NotSent(str(why), dropped=dropped) from None

    def _error(self, err: Exception) -> UsageError:
        """What went wrong, in one line; an error that is no SMTP trouble is raised on."""
        where = self.where
        if isinstance(err, UsageError):
            return err
        if isinstance(err, smtplib.SMTPAuthenticationError):
            return UsageError(f"SMTP server {where} refused the login of {self.config.username}: {err.smtp_code}")
        if isinstance(err, smtplib.SMTPRecipientsRefused):
            return UsageError(f"SMTP server {where} refused every recipient: {_refused(err.recipients)}")
        if isinstance(err, smtplib.SMTPNotSupportedError):
            return UsageError(f"SMTP server {where}: {err}")
        if isinstance(err, smtplib.SMTPServerDisconnected):
            return UsageError(f"lost the SMTP server {where}: {err}")
        if isinstance(err, smtplib.SMTPException):
            return UsageError(f"SMTP server {where} refused the message: {err}")
        if isinstance(err, OSError):
            return UsageError(f"lost the SMTP server {where}: {err.strerror or err}")
        if isinstance(err, (ValueError, TypeError, LookupError)):
            # the message could not be turned into bytes or envelope (a header that will not go)
            return UsageError(f"the message cannot be sent to {where}: {type(err).__name__}: {err}")
        raise err


def _refused(recipients: dict[str, tuple[int, bytes]]) -> str:
    """The refused recipients with the server's reply to each, on one line."""
    return ", ".join(f"{rcpt} ({code} {_text(reply)})" for rcpt, (code, reply) in recipients.items())


def _text(reply: bytes | str) -> str:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
    return " ".join(text.split())[:300]


def send(msg: EmailMessage, config: SmtpConfig) -> None:
    """Hand the message to the SMTP server over a connection of its own; one clear
    UsageError when that fails."""
    with Connection(config) as server:
        refused = server.send(msg)
    if refused:
        raise UsageError(f"SMTP server {server.where} refused some recipients: {', '.join(refused)}")
