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

import os
import smtplib
import ssl as _ssl
import sys
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from corr.errors import UsageError


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
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value is None:
                raise UsageError(f"SMTP password: environment variable {self.password_env} is not set")
            return value
        if self.password_file:
            path = Path(self.password_file).expanduser()
            try:
                return path.read_text(encoding="utf-8").splitlines()[0] if path.stat().st_size else ""
            except OSError as err:
                raise UsageError(f"SMTP password file {path}: {err.strerror or err}") from None
        return None


_KEYS = {"host", "port", "starttls", "ssl", "username", "password_env", "password_file", "from", "timeout"}


def load_config(path: Path | str | None, host: str | None = None, port: int | None = None) -> SmtpConfig:
    """The SMTP settings from a TOML file, with --smtp-host / --smtp-port over it."""
    data: dict = {}
    if path is not None:
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # Python 3.10: the same parser as the package tomli
            import tomli as tomllib

        try:
            raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as err:
            raise UsageError(f"SMTP config {path}: {err.strerror or err}") from None
        except tomllib.TOMLDecodeError as err:
            raise UsageError(f"SMTP config {path}: not valid TOML ({err})") from None
        data = raw.get("smtp", raw) if isinstance(raw.get("smtp", raw), dict) else {}
        if "password" in raw or "password" in data:
            raise UsageError(f"SMTP config {path}: use password_env or password_file, not password")
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


def send(msg: EmailMessage, config: SmtpConfig) -> None:
    """Hand the message to the SMTP server; one clear UsageError when that fails."""
    where = f"{config.host}:{config.effective_port}"
    password = config.password() if config.username else None
    try:
        if config.ssl:
            server: smtplib.SMTP = smtplib.SMTP_SSL(
                config.host, config.effective_port, timeout=config.timeout, context=_ssl.create_default_context()
            )
        else:
            server = smtplib.SMTP(config.host, config.effective_port, timeout=config.timeout)
    except (OSError, smtplib.SMTPException) as err:
        raise UsageError(f"cannot reach the SMTP server {where}: {getattr(err, 'strerror', None) or err}") from None
    try:
        with server:
            if config.starttls:
                server.starttls(context=_ssl.create_default_context())
            if config.username:
                server.login(config.username, password or "")
            refused = server.send_message(msg)
    except smtplib.SMTPAuthenticationError as err:
        raise UsageError(f"SMTP server {where} refused the login of {config.username}: {err.smtp_code}") from None
    except smtplib.SMTPRecipientsRefused as err:
        raise UsageError(f"SMTP server {where} refused every recipient: {', '.join(err.recipients)}") from None
    except smtplib.SMTPNotSupportedError as err:
        raise UsageError(f"SMTP server {where}: {err}") from None
    except smtplib.SMTPException as err:
        raise UsageError(f"SMTP server {where} refused the message: {err}") from None
    except OSError as err:
        raise UsageError(f"lost the SMTP server {where}: {err.strerror or err}") from None
    except (ValueError, TypeError, LookupError) as err:
        # the message could not be turned into bytes or envelope (a header that will not go)
        raise UsageError(f"the message cannot be sent to {where}: {type(err).__name__}: {err}") from None
    if refused:
        raise UsageError(f"SMTP server {where} refused some recipients: {', '.join(refused)}")
