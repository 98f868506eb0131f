"""What the mail config files share: TOML read with one clear error, and a password
taken from an environment variable or a file, never from the command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from corr.errors import UsageError


def read_toml(path: Path | str, what: str, table: str) -> dict[str, Any]:
    """The `[table]` of a TOML file, or its top level when it has no such table; `what`
    names the file in errors ("IMAP config")."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the same parser as the package tomli
        import tomli as tomllib

    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise UsageError(f"{what} {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{what} {path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise UsageError(f"{what} {path}: not valid TOML ({err})") from None
    data = raw.get(table, raw)
    if not isinstance(data, dict):
        raise UsageError(f"{what} {path}: [{table}] should be a table")
    if "password" in raw or "password" in data:
        raise UsageError(f"{what} {path}: use password_env or password_file, not password")
    return data


def password(env: str | None, file: str | None, what: str) -> str | None:
    """The password named by `env` (a variable) or `file` (its first line); None when
    the config names neither."""
    if env:
        value = os.environ.get(env)
        if value is None:
            raise UsageError(f"{what} password: environment variable {env} is not set")
        return value
    if file:
        path = Path(file).expanduser()
        try:
            return path.read_text(encoding="utf-8").splitlines()[0] if path.stat().st_size else ""
        except (OSError, UnicodeDecodeError) as err:
            raise UsageError(f"{what} password file {path}: {getattr(err, 'strerror', None) or err}") from None
    return None
