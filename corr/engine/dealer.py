"""The dealer of games with hidden information (DESIGN 6, cards 6.2).

The game's creator is the dealer. It draws a random seed, keeps it in `FILE.secret`
beside the log (mode 0600; never attached, mailed or printed) and writes
`commitment` = SHA-256 hex of the seed's UTF-8 text into the header. Everything hidden
(the order of a pile, the hands, a secret digit order) is a pure function of the seed
and the public records, through `shuffle`, so:

- the dealer's copy knows every hidden card and checks each move against it;
- a player's copy replays and verifies everything public (state hashes cover only the
  public position);
- when the game ends the dealer appends a `reveal` record holding the seed, and any
  copy re-deals and checks every card; a seed that does not match the commitment makes
  the log corrupt.

Dealer records are signed with the host's key when the header names a host; the secret
file then also names the private key the dealer signs with.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corr.errors import CorruptLog, CorrWarning, UsageError
from corr.games.dealing import DEALER

if TYPE_CHECKING:
    from corr.log.store import GameLog

SECRET_SUFFIX = ".secret"
#: The largest secret file read: one `write_secret` makes holds a seed and a key's path.
MAX_SECRET = 8192


@dataclass(frozen=True, slots=True)
class Secret:
    """What the dealer keeps beside the log."""

    seed: str
    key: str | None = None  # path of the private key dealer records are signed with


def new_seed() -> str:
    """A fresh random seed: 128 bits as 32 hex digits."""
    import secrets  # only new games need it: keep it off every move's start-up

    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """SHA-256 hex of the seed's UTF-8 text: what the header publishes before play."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def secret_path(log_path: Path | str) -> Path:
    return Path(f"{log_path}{SECRET_SUFFIX}")


def write_secret(log_path: Path | str, secret: Secret) -> Path:
    """Create `FILE.secret` readable by its owner only; refuses to overwrite one."""
    path = secret_path(log_path)
    data: dict[str, Any] = {"seed": secret.seed}
    if secret.key is not None:
        data["key"] = secret.key
    from corr.log.store import write_new

    try:
        write_new(path, json.dumps(data, indent=2).encode() + b"\n", 0o600)
    except FileExistsError:
        raise UsageError(f"{path} already exists; a new game needs a new secret (move the old one away)") from None
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror}") from None
    return path


def read_secret(log_path: Path | str, committed: str) -> Secret | None:
    """The dealer's secret beside a log, checked against the header's commitment; None
    where there is none (a player's copy)."""
    path = secret_path(log_path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SECRET + 1)
            mode = os.fstat(f.fileno()).st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        raise UsageError(f"cannot read {path}: {err.strerror}") from None
    if len(raw) > MAX_SECRET:
        raise CorruptLog(f"{path} is not a corr secret file: over {MAX_SECRET} bytes", kind="secret")
    try:
        data = json.loads(raw)
        seed, key = data["seed"], data.get("key")
        if type(seed) is not str or (key is not None and type(key) is not str):
            raise TypeError
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise CorruptLog(f"{path} is not a corr secret file (JSON with a seed)", kind="secret") from None
    if os.name != "nt" and mode & 0o077:
        import warnings

        warnings.warn(f"{path} can be read by others (mode {mode & 0o777:o}): it deals all the game hides; "
                      f"`chmod 600 {path}`", CorrWarning, stacklevel=2)
    if commitment(seed) != committed:
        raise CorruptLog(f"{path} was altered: its seed does not match the header's commitment", kind="secret")
    return Secret(seed, key)


def revealed(log: GameLog) -> str | None:
    """The seed of the log's reveal, checked against the commitment; None before the
    reveal. Only records by the dealer count (replay refuses a reveal by anyone else)."""
    committed = log.header.commitment
    for record in log.records:
        if record.type == "reveal" and record.by == DEALER:
            if committed is None or record.seed is None or commitment(record.seed) != committed:
                raise CorruptLog(
                    f"{log.path}: seq {record.seq}: the revealed seed does not match the header's commitment",
                    seq=record.seq,
                    kind="reveal",
                )
            return record.seed
    return None


def seed_for(log: GameLog) -> str | None:
    """The seed this copy can deal from: the log's reveal, else the dealer's secret."""
    if log.header.commitment is None:
        return None
    seed = revealed(log)
    if seed is not None:
        return seed
    return log.secret.seed if log.secret is not None else None


def attach(log: GameLog) -> GameLog:
    """Read the dealer's secret beside a log on disk, if this copy has one."""
    if log.header.commitment is not None:
        log.secret = read_secret(log.path, log.header.commitment)
    return log


def signer(log: GameLog) -> Any:
    """The private key dealer records are signed with: the host's, named in the secret
    file; None when the header names no host (dealer records are then unsigned)."""
    host = log.header.host
    if host is None:
        return None
    from corr.identity import load_private, public_text

    if log.secret is None or log.secret.key is None:
        raise UsageError(
            f"the dealer signs with the host's key, and {secret_path(log.path)} names none "
            "(start the game with --dealer-key)"
        )
    private = load_private(log.secret.key)
    if public_text(private) != host.key:
        raise UsageError(f"{log.secret.key} is not the host's key named in the header of {log.path}")
    return private
