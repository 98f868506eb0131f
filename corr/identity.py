"""Players' Ed25519 keys and the signatures on their records (DESIGN 6).

A public key is one line, `ed25519:<base64 of 32 bytes>`, the same in a `.pub` file and
in the log's header. A private key is a PKCS#8 PEM file readable only by its owner. A
record's signature covers the game id and the record's canonical line without `sig`
(which holds its seq, prev and content), so it cannot be moved to another game, seq or
position. `cryptography` reads and writes the key files and signs; libsodium (PyNaCl)
checks signatures, in half the time OpenSSL takes, and refuses the keys of small order
that accept one signature for every record. Each is imported only when a key is used:
most moves need none.
"""

from __future__ import annotations

import base64
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from corr.errors import CorruptLog, UsageError
from corr.log import lines
from corr.log.store import write_new

PREFIX = "ed25519:"
SIGNATURE_BYTES = 64  # Ed25519
DOMAIN = b"corr-record-signature-v1\n"


def _ed25519() -> Any:
    from cryptography.hazmat.primitives.asymmetric import ed25519

    return ed25519


def new_key(out: Path | str) -> tuple[Path, Path]:
    """Write `OUT.key` (mode 0600) and `OUT.pub`; refuses to overwrite either."""
    from cryptography.hazmat.primitives import serialization

    out = Path(out)
    key_path, pub_path = Path(f"{out}.key"), Path(f"{out}.pub")
    for path in (key_path, pub_path):
        if path.exists():
            raise UsageError(f"{path} already exists; choose another name")
    if not out.parent.is_dir():
        raise UsageError(f"no such folder: {out.parent}")
    private = _ed25519().Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    try:  # each file and the folder fsynced: a key announced to others must survive a crash
        write_new(key_path, pem, 0o600)
        write_new(pub_path, (public_text(private) + "\n").encode(), 0o644)
    except FileExistsError as err:
        raise UsageError(f"{err.filename} already exists; choose another name") from None
    except OSError as err:
        raise UsageError(f"cannot write {err.filename}: {err.strerror}") from None
    return key_path, pub_path


def public_text(private: Any) -> str:
    from cryptography.hazmat.primitives import serialization

    raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PREFIX + base64.b64encode(raw).decode()


def load_private(path: Path | str) -> Any:
    """A private key from its PEM file, with a one-line error for anything else."""
    from cryptography.hazmat.primitives import serialization

    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise UsageError(f"cannot read key {path}: {err.strerror}") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise UsageError(f"{path} is not a corr private key (make one with `corr key new`)") from None
    if not isinstance(key, _ed25519().Ed25519PrivateKey):
        raise UsageError(f"{path} is not an Ed25519 key")
    return key


def read_public(text_or_path: str) -> str:
    """A public key line, given as the line itself or as a `.pub` file holding it."""
    text = text_or_path.strip()
    if not text.startswith(PREFIX):
        try:
            text = Path(text_or_path).read_text().strip()
        except OSError as err:
            raise UsageError(f"cannot read public key {text_or_path}: {err.strerror}") from None
    raw = _canonical_b64(text[len(PREFIX):], 32) if text.startswith(PREFIX) else None
    if raw is None:
        raise UsageError(f"{text_or_path} is not a corr public key (ed25519:<base64>)")
    if not _a_point_that_signs(raw):
        raise UsageError(f"{text_or_path} is not a public key anyone can sign with (a point of small order or off "
                         "the curve, which libsodium refuses in every check): make a key pair with `corr key new`")
    return text


def _a_point_that_signs(key: bytes) -> bool:
    """Whether `key` is a point of Ed25519's main group, as every key `corr key new` makes
    is: a key of small order would be taken into the header, then refuse every signature
    made for it (`_checks`), so the seat could never sign a move."""
    from nacl.bindings import crypto_core_ed25519_is_valid_point

    return bool(crypto_core_ed25519_is_valid_point(key))


def _canonical_b64(text: str, size: int) -> bytes | None:
    """The `size` bytes `text` is the one base64 spelling of, else None. base64 has
    several spellings of the same bytes (the unused bits of the last character, padding);
    a signature or key must have one, or a relay could alter a line and keep it valid."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (ValueError, TypeError):
        return None
    if len(raw) != size or base64.b64encode(raw).decode() != text:
        return None
    return raw


def signed_bytes(game_id: str, record: lines.Record) -> bytes:
    """What a record's signature covers: the game id and the record's line without `sig`."""
    return DOMAIN + game_id.encode() + b"\n" + _line(record._replace(sig=None))


#: What JSON writes escaped inside a string: never in a field a log's reader accepts
#: but the free text (move, note, sig)
_ESCAPED = re.compile(r'["\\\x00-\x1f]')


def _line(record: lines.Record) -> bytes:
    """`lines.dump(record)`, written by `lines.canonical_record` (a third of the time:
    an audit writes the line of every signed record) where that gives the same bytes:
    seq and target ints, the text fields strings, and nothing JSON escapes in the fields
    it writes as they are, as in every record of a log read."""
    seq, kind, by, at, prev, state, move, target, note, _sig, seed, seal = record
    plain = (kind, by, at, prev, state, seed or "", seal or "")
    if (type(seq) is int and (target is None or type(target) is int) and (move is None or type(move) is str)
            and (note is None or type(note) is str) and all(type(text) is str for text in plain)
            and not _ESCAPED.search("".join(plain))):
        return lines.canonical_record(record)
    return lines.dump(record)


def sign(private: Any, game_id: str, record: lines.Record) -> lines.Record:
    """The record with its signature."""
    signature = private.sign(signed_bytes(game_id, record))
    return record._replace(sig=base64.b64encode(signature).decode())


def verify(public: str, game_id: str, record: lines.Record, who: str | None = None) -> None:
    """Raise CorruptLog unless the record carries a valid signature by `public`, the key
    of `who` (default: the record's maker; "host" where the host vouches for it)."""
    who = who or record.by
    if record.sig is None:
        if who != record.by:
            raise CorruptLog(f"seq {record.seq} by {record.by} is not signed, but the {who} signs every record of "
                             "this game its seat does not sign", seq=record.seq, kind="signature")
        raise CorruptLog(f"seq {record.seq} by {record.by} is not signed, but {record.by} signs with a key",
                         seq=record.seq, kind="signature")
    signature = _canonical_b64(record.sig, SIGNATURE_BYTES)
    if signature is None:
        raise CorruptLog(
            f"seq {record.seq}: the signature is not the canonical base64 of {SIGNATURE_BYTES} bytes "
            "(a signature has one spelling): the record was altered",
            seq=record.seq,
            kind="signature",
        )
    key_bytes = _key_bytes(public)
    if key_bytes is None:
        raise CorruptLog(f"seq {record.seq}: {who}'s key in the header is not a corr public key "
                         "(ed25519:<canonical base64 of 32 bytes>)", seq=record.seq, kind="signature")
    if not _checks(key_bytes, signature, signed_bytes(game_id, record)):
        raise CorruptLog(
            f"seq {record.seq}: the signature is not {who}'s (altered record or a stranger's key)",
            seq=record.seq,
            kind="signature",
        )


PANEL_DOMAIN = b"corr-private-panel-v1\n"


def panel_bytes(game_id: str, seat: str, seq: int, panel: str) -> bytes:
    """What the host's signature of a seat's private panel covers: the game, the seat,
    the seq the panel is of and the panel's JSON, so it cannot be moved to another."""
    return PANEL_DOMAIN + f"{game_id}\n{seat}\n{seq}\n".encode() + panel.encode()


def sign_bytes(private: Any, data: bytes) -> str:
    """A signature of `data`, as canonical base64."""
    return base64.b64encode(private.sign(data)).decode()


def verified(public: str, data: bytes, signature: str) -> bool:
    """Whether `signature` (canonical base64) is `public`'s signature of `data`."""
    raw = _canonical_b64(signature, SIGNATURE_BYTES)
    key_bytes = _key_bytes(public)
    return raw is not None and key_bytes is not None and _checks(key_bytes, raw, data)


@lru_cache(maxsize=64)
def _key_bytes(public: str) -> bytes | None:
    """The 32 bytes of a public key line, else None; decoded once per key, as a log
    names few keys and checks many records against them."""
    return _canonical_b64(public[len(PREFIX):], 32) if public.startswith(PREFIX) else None


def _checks(key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether `signature` is the Ed25519 signature of `data` by `key` (32 bytes), by
    libsodium's rules: S below the group order, the key and R canonical and not of
    small order."""
    from nacl.bindings import crypto_sign_open
    from nacl.exceptions import BadSignatureError

    try:
        crypto_sign_open(signature + data, key)
    except BadSignatureError:
        return False
    return True
