"""A real IMAP server for the tests: Debian's Dovecot, started in a temporary folder on
127.0.0.1 (a passwd-file user, Maildir storage there, no system service), stopped after.

The tests skip without Dovecot, except under CI (where `.ci/run` installs
`dovecot-imapd`): there a missing server fails them.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import free_port

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
DOVEADM = shutil.which("doveadm") or "/usr/bin/doveadm"
USER = "host@example.org"
PASSWORD = "secret"

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/run
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
mail_uid = {uid}
mail_gid = {gid}
first_valid_uid = 1
{capability}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%u
}}
"""

#: What a server without IDLE and MOVE offers (a server of the kind the host must poll
#: and copy on).
PLAIN_CAPABILITY = "imap_capability = IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE UIDPLUS NAMESPACE"


def need_dovecot() -> None:
    """Skip (or, under CI, fail) when Dovecot is not installed."""
    if not os.access(DOVECOT, os.X_OK):
        message = "Dovecot is not installed (Debian's dovecot-imapd; .ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


class Dovecot:
    """A running server: its port, and a client of the test user for looking inside."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.config = root / "dovecot.conf"

    def client(self) -> Any:
        from imapclient import IMAPClient

        client = IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=10)
        client.login(USER, PASSWORD)
        return client

    def append(self, data: bytes, folder: str = "INBOX") -> None:
        with self.client() as client:
            client.append(folder, data)

    def messages(self, folder: str) -> list[bytes]:
        """The whole messages in `folder` (separator `.`), oldest first; [] when there is
        no such folder."""
        with self.client() as client:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            uids = sorted(client.search("ALL"))
            fetched = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
            return [bytes(fetched[uid][b"BODY[]"]) for uid in uids]

    def stop(self) -> None:
        """Stop the server at once: its master process killed, whose children leave as
        their pipe to it closes (`doveadm stop` would wait seconds for them)."""
        try:
            pid = int((self.root / "run" / "master.pid").read_text().split()[0])
            os.kill(pid, signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            subprocess.run([DOVEADM, "-c", str(self.config), "stop"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def log(self) -> str:
        try:
            return (self.root / "dovecot.log").read_text(errors="replace")
        except OSError:
            return ""


@contextmanager
def dovecot(capability: str = "") -> Iterator[Dovecot]:
    """Start a Dovecot for the block. Dovecot refuses uid 0 for mail, so a root test run
    has the mail owned by `nobody`, and the folders it must reach open to it."""
    need_dovecot()
    root = Path(tempfile.mkdtemp(prefix="corr-dovecot-"))
    os.chmod(root, 0o755)
    (root / "mail").mkdir(mode=0o777)
    os.chmod(root / "mail", 0o777)
    (root / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    os.chmod(root / "users", 0o644)
    if os.getuid() == 0:
        uid, gid = "nobody", "nogroup"
    else:
        uid, gid = str(os.getuid()), str(os.getgid())
    port = free_port()
    server = Dovecot(root, port)
    server.config.write_text(CONFIG.format(root=root, port=port, uid=uid, gid=gid, capability=capability))
    # The daemon keeps the streams it was given: a file, never a pipe run() would wait on.
    with open(root / "start.err", "w+b") as err:
        started = subprocess.run([DOVECOT, "-c", str(server.config)], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=err)
        err.seek(0)
        said = err.read().decode(errors="replace").strip()
    if started.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"dovecot did not start: {said}")
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"dovecot does not answer on port {port}: {server.log()}")
                time.sleep(0.02)
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
