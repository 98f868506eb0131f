"""The host's mail from an IMAP mailbox (`corr host run --imap IMAP.toml`), through
imapclient.

`IMAP.toml` (a `[imap]` table or top-level keys; all optional but `host` and `username`):

    [imap]
    host = "imap.example.org"
    port = 993                    # default 993 with tls = "implicit", else 143
    tls = "implicit"              # or "starttls"; "none" only for a loopback address
    username = "games@example.org"
    password_env = "CORR_IMAP_PASSWORD"           # the password from this variable,
    # password_file = "~/.config/corr/imap-pass"  # or from the first line of this file
    # ca_file = "~/club-ca.pem"   # trust this CA too (a server with a certificate of its own)
    folder = "INBOX"              # where the replies arrive
    done_folder = "corr/done"     # taken messages go here
    bad_folder = "corr/bad"       # messages that cannot be handled, with a note each
    timeout = 30

Folder names are written with `/` between levels whatever the server's separator is;
the done and bad folders are created when missing. A message is fetched with PEEK (it
stays unseen until taken), at most MAX_MESSAGE + 1 bytes of it, and moved out of
`folder` only after what it asked for is on disk; one set aside goes to `bad_folder`
whole, with a short note message beside it saying why.
"""

from __future__ import annotations

import ipaddress
import ssl
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Callable

from corr.errors import UsageError
from corr.mail.inbox import Incoming, in_order
from corr.mail.settings import password, read_toml

#: How many messages one pass takes at most: a flood waits for the next passes
#: instead of being read into memory at once.
MAX_PER_PASS = 500
#: How many messages' sizes one FETCH asks for.
BATCH = 100
TLS_MODES = ("implicit", "starttls", "none")
_KEYS = {"host", "port", "tls", "username", "password_env", "password_file", "folder", "done_folder",
         "bad_folder", "timeout", "ca_file"}


@dataclass
class ImapConfig:
    host: str
    username: str
    port: int = 0
    tls: str = "implicit"
    password_env: str | None = None
    password_file: str | None = None
    folder: str = "INBOX"
    done_folder: str = "corr/done"
    bad_folder: str = "corr/bad"
    timeout: float = 30.0
    ca_file: str | None = None

    @property
    def effective_port(self) -> int:
        return self.port or (993 if self.tls == "implicit" else 143)

    @property
    def where(self) -> str:
        return f"IMAP server {self.host}:{self.effective_port}"


def loopback(host: str) -> bool:
    """Whether `host` names this machine (only there may IMAP go without TLS)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_config(path: Path | str) -> ImapConfig:
    """The IMAP settings of `path`, checked: one clear error for what is wrong."""
    data = read_toml(path, "IMAP config", "imap")
    what = f"IMAP config {path}"
    extra = set(data) - _KEYS
    if extra:
        raise UsageError(f"{what}: unknown key {sorted(extra)[0]!r} (keys: {', '.join(sorted(_KEYS))})")
    for key in ("host", "username"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise UsageError(f"{what}: {key} is missing")
    for key in ("password_env", "password_file", "folder", "done_folder", "bad_folder", "tls", "ca_file"):
        if key in data and (not isinstance(data[key], str) or not data[key].strip()):
            raise UsageError(f"{what}: {key} should be a non-empty string")
    tls = data.get("tls", "implicit")
    if tls not in TLS_MODES:
        raise UsageError(f"{what}: tls should be one of {', '.join(TLS_MODES)}, not {tls!r}")
    if tls == "none" and not loopback(data["host"]):
        raise UsageError(f"{what}: tls = \"none\" sends the password in the clear; it is allowed only for a "
                         f"loopback address, not {data['host']!r}")
    port, timeout = data.get("port", 0), data.get("timeout", 30)
    if type(port) is not int or not 0 <= port <= 65535:
        raise UsageError(f"{what}: port should be a number from 1 to 65535")
    if type(timeout) not in (int, float) or not 0 < timeout <= 3600:
        raise UsageError(f"{what}: timeout should be a number of seconds from 1 to 3600")
    folders = [data.get(k, d) for k, d in (("folder", "INBOX"), ("done_folder", "corr/done"),
                                           ("bad_folder", "corr/bad"))]
    if len({f.strip("/").upper() if f.upper() == "INBOX" else f.strip("/") for f in folders}) < 3:
        raise UsageError(f"{what}: folder, done_folder and bad_folder should be three different folders")
    return ImapConfig(host=data["host"].strip(), username=data["username"], port=port, tls=tls,
                      password_env=data.get("password_env"), password_file=data.get("password_file"),
                      folder=folders[0].strip("/"), done_folder=folders[1].strip("/"),
                      bad_folder=folders[2].strip("/"), timeout=float(timeout), ca_file=data.get("ca_file"))


def connect(config: ImapConfig) -> Any:
    """A logged-in IMAPClient; one UsageError naming the server when that fails."""
    from imapclient import IMAPClient  # type: ignore[import-untyped]
    from imapclient.exceptions import IMAPClientError, LoginError  # type: ignore[import-untyped]

    secret = password(config.password_env, config.password_file, "IMAP")
    try:
        context = ssl.create_default_context()
        if config.ca_file:
            context.load_verify_locations(cafile=str(Path(config.ca_file).expanduser()))
    except (OSError, ssl.SSLError) as err:
        raise UsageError(f"IMAP ca_file {config.ca_file}: {_said(err)}") from None
    try:
        client = IMAPClient(config.host, port=config.effective_port, ssl=config.tls == "implicit",
                            ssl_context=context, timeout=config.timeout)
    except (OSError, IMAPClientError) as err:
        raise UsageError(f"cannot reach the {config.where}: {_said(err)}") from None
    try:
        if config.tls == "starttls":
            client.starttls(context)
        client.login(config.username, secret or "")
    except LoginError:
        _drop(client)
        raise UsageError(f"the {config.where} refused the login of {config.username}") from None
    except (OSError, IMAPClientError) as err:
        _drop(client)
        raise UsageError(f"the {config.where}: {_said(err)}") from None
    return client


def _said(err: BaseException) -> str:
    """What went wrong, in one short line (a server's words are hostile: flattened)."""
    from corr.mail.message import flat

    text = getattr(err, "strerror", None) or str(err) or type(err).__name__
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return flat(str(text), 300)


def _drop(client: Any) -> None:
    """Leave a connection that failed; whatever the server says then no longer matters."""
    try:
        client.shutdown()
    except Exception:  # noqa: BLE001 - already gone
        pass


class ImapInbox:
    """One IMAP folder as the host's inbox; a connection per pass (`close` ends it)."""

    def __init__(self, config: ImapConfig) -> None:
        self.config = config
        self.label = config.folder
        self.client: Any = None
        self.folders: dict[str, str] = {}

    # -- the connection

    def _open(self) -> Any:
        if self.client is None:
            client = connect(self.config)
            try:
                self.folders = self._folders(client)
                client.select_folder(self.folders["folder"])
            except UsageError:
                _drop(client)
                raise
            except Exception as err:  # noqa: BLE001 - imapclient's errors, the socket's
                _drop(client)
                raise UsageError(f"the {self.config.where}: folder {self.config.folder}: {_said(err)}") from None
            self.client = client
        return self.client

    def _folders(self, client: Any) -> dict[str, str]:
        """The three folders in the server's own spelling (its separator between levels),
        the done and bad folders created when missing."""
        delimiter = "/"
        listed = client.list_folders("", "INBOX") or client.list_folders("", "%")
        if listed and listed[0][1]:
            raw = listed[0][1]
            delimiter = raw.decode("ascii", "replace") if isinstance(raw, bytes) else str(raw)
        names = {"folder": self.config.folder, "done": self.config.done_folder, "bad": self.config.bad_folder}
        spelt = {role: name.replace("/", delimiter) for role, name in names.items()}
        if not client.folder_exists(spelt["folder"]):
            raise UsageError(f"the {self.config.where} has no folder {self.config.folder!r}")
        for role in ("done", "bad"):
            if not client.folder_exists(spelt[role]):
                client.create_folder(spelt[role])
                try:
                    client.subscribe_folder(spelt[role])
                except Exception:  # noqa: BLE001 - a folder not subscribed is still a folder
                    pass
        return spelt

    def close(self) -> None:
        if self.client is not None:
            client, self.client = self.client, None
            try:
                client.logout()
            except Exception:  # noqa: BLE001 - the pass is over either way
                _drop(client)

    # -- the inbox

    def messages(self) -> list[Incoming]:
        """The folder's messages, oldest first, at most MAX_PER_PASS of them, each with at
        most MAX_MESSAGE + 1 of its bytes (enough to refuse it by size), read with PEEK."""
        from corr.mail.message import MAX_MESSAGE, read_message

        client = self._open()
        try:
            client.noop()  # a connection kept from an earlier pass learns of the new mail
            uids = sorted(int(uid) for uid in client.search("ALL"))[:MAX_PER_PASS]
        except Exception as err:  # noqa: BLE001 - imapclient's errors, the socket's
            self._lost()
            raise UsageError(f"the {self.config.where}: cannot list folder {self.config.folder}: {_said(err)}") from None
        part = f"BODY.PEEK[]<0.{MAX_MESSAGE + 1}>"
        items: list[Incoming] = []
        for start in range(0, len(uids), BATCH):
            batch = uids[start:start + BATCH]
            try:
                fetched = client.fetch(batch, [part])
            except Exception as err:  # noqa: BLE001 - what was read so far is taken; the rest next pass
                self._lost()
                if not items:
                    raise UsageError(f"the {self.config.where}: cannot fetch messages: {_said(err)}") from None
                break
            for uid in batch:
                got = fetched.get(uid)
                if got is None:
                    continue  # gone meanwhile (another client took it)
                data = next((value for key, value in got.items() if bytes(key).startswith(b"BODY[]")), None)
                data = bytes(data) if isinstance(data, (bytes, bytearray)) else None
                items.append(Incoming(str(uid), data, read_message(data), handle=uid))
        return in_order(items, lambda item: item.handle)

    def done(self, item: Incoming) -> None:
        """Move the message to the done folder."""
        self._move(item.handle, self.folders["done"])

    def settle(self) -> None:
        """Nothing: the server keeps each move as it makes it."""

    def set_aside(self, item: Incoming, reason: str) -> str:
        """Put a note saying why into the bad folder, then move the message there whole.
        A host stopped between the two leaves a second note next time, never a message
        lost."""
        client = self._open()
        try:
            client.append(self.folders["bad"], note(item, reason, self.label).as_bytes())
        except Exception:
            self._lost()
            raise
        self._move(item.handle, self.folders["bad"])
        return f"in the folder {self.config.bad_folder}, with a note saying why"

    def _move(self, uid: int, folder: str) -> None:
        """MOVE where the server has it (atomic); else COPY, flag deleted and expunge."""
        client = self._open()
        try:
            if client.has_capability("MOVE"):
                client.move([uid], folder)
                return
            client.copy([uid], folder)
            client.delete_messages([uid])
            if client.has_capability("UIDPLUS"):
                client.uid_expunge([uid])
            else:
                client.expunge()
        except Exception:
            self._lost()
            raise

    def _lost(self) -> None:
        """Forget a connection that failed: the next use opens a new one."""
        if self.client is not None:
            client, self.client = self.client, None
            _drop(client)

    # -- between passes

    def wait(self, seconds: float, stopped: Callable[[], bool]) -> None:
        """Wait up to `seconds` for new mail: with IDLE where the server has it (a reply
        starts the next pass at once), else just the time (the next pass polls)."""
        deadline = time.monotonic() + seconds
        try:
            client = self._open()
            if not client.has_capability("IDLE"):
                raise _NoIdle
            client.idle()
            try:
                while not stopped():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    if any(b"EXISTS" in bytes(part) for response in client.idle_check(timeout=min(1.0, left))
                           for part in response if isinstance(part, (bytes, bytearray))):
                        break
            finally:
                client.idle_done()
        except Exception:  # noqa: BLE001 - no IDLE, or no server now: then the time alone
            self.close()
            while not stopped() and time.monotonic() < deadline:
                time.sleep(min(0.1, deadline - time.monotonic()))
        finally:
            self.close()


class _NoIdle(Exception):
    """The server has no IDLE: the host polls."""


def note(item: Incoming, reason: str, folder: str) -> EmailMessage:
    """The note that goes into the bad folder beside a message set aside: why, and which
    message (its Subject and Message-ID, flattened: they are the sender's words)."""
    from corr.mail.message import flat

    subject = message_id = ""
    if isinstance(item.parsed, EmailMessage):
        subject = flat(str(item.parsed.get("Subject", "") or ""), 200)
        message_id = flat(str(item.parsed.get("Message-ID", "") or ""), 200)
    msg = EmailMessage()
    msg["From"] = "corr host <corr@localhost>"
    msg["To"] = "corr host <corr@localhost>"
    msg["Subject"] = f"corr: set aside: {subject or '(no subject)'}"
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = make_msgid("corr-aside")
    msg["Auto-Submitted"] = "auto-generated"
    msg["X-Corr-Reason"] = flat(reason, 500)
    msg.set_content(f"corr set this message aside ({folder}/{item.key}, Message-ID {message_id or 'none'}):\n\n"
                    f"{flat(reason, 2000)}\n")
    return msg
