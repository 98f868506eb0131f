"""A real IMAP server for the tests: Debian's Dovecot, started in a temporary folder on
127.0.0.1 (a passwd-file user, Maildir storage there, no system service), stopped after.

The tests skip without Dovecot, except under CI (where `.ci/run` installs
`dovecot-imapd`): there a missing server fails them. `running` starts one outside
pytest too (benchmarks/bench_host.py).
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
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
mail_uid = {uid}
mail_gid = {gid}
first_valid_uid = 1
{capability}
{ssl}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  {imaps}
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
    import pytest

    if not os.access(DOVECOT, os.X_OK):
        message = "Dovecot is not installed (Debian's dovecot-imapd; .ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Dovecot:
    """A running server: its port (and with TLS, the port of implicit TLS and the CA that
    signed its certificate), and a client of the test user for looking inside."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.config = root / "dovecot.conf"
        self.tls_port: int | None = None
        self.ca: Path | None = None

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
def dovecot(capability: str = "", tls: bool = False) -> Iterator[Dovecot]:
    """A Dovecot for a test's block: skipped (failed under CI) without the server, a
    server that will not start a failed test."""
    import pytest

    need_dovecot()
    try:
        with running(capability, tls) as server:
            yield server
    except DovecotError as err:
        pytest.fail(str(err))


class DovecotError(Exception):
    """The server would not start or answer."""


@contextmanager
def running(capability: str = "", tls: bool = False) -> Iterator[Dovecot]:
    """Start a Dovecot for the block. Dovecot refuses uid 0 for mail, so a root test run
    has the mail owned by `nobody`, and the folders it must reach open to it."""
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
    ssl_lines, imaps = "ssl = no", ""
    if tls:
        server.tls_port = free_port()
        server.ca = certificate(root)
        ssl_lines = f"ssl = yes\nssl_cert = <{root}/cert.pem\nssl_key = <{root}/key.pem"
        imaps = f"inet_listener imaps {{\n    address = 127.0.0.1\n    port = {server.tls_port}\n    ssl = yes\n  }}"
    server.config.write_text(CONFIG.format(root=root, port=port, uid=uid, gid=gid, capability=capability,
                                           ssl=ssl_lines, imaps=imaps))
    # The daemon keeps the streams it was given: a file, never a pipe run() would wait on.
    with open(root / "start.err", "w+b") as err:
        started = subprocess.run([DOVECOT, "-c", str(server.config)], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=err)
        err.seek(0)
        said = err.read().decode(errors="replace").strip()
    if started.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise DovecotError(f"dovecot did not start: {said}")
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise DovecotError(f"dovecot does not answer on port {port}: {server.log()}")
                time.sleep(0.02)
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


def certificate(root: Path) -> Path:
    """A CA and a certificate it signed for 127.0.0.1 and localhost (cert.pem, key.pem
    in `root`); the CA's file."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "corr test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    (root / "ca.pem").write_bytes(ca.public_bytes(pem))
    (root / "cert.pem").write_bytes(cert.public_bytes(pem))
    (root / "key.pem").write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                     serialization.NoEncryption()))
    return root / "ca.pem"
