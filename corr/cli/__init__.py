"""The `corr` command line: thin Typer commands over the library.

Errors are mapped to exit codes in one place, `main`: 0 ok, 1 refused move or bad
usage, 2 corrupt or forged log; every error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import sys

from corr.cli.app import app
from corr.errors import CorrError

# Importing the command modules registers their commands on `app`.
from corr.cli import inspect as _inspect  # noqa: E402,F401
from corr.cli import play as _play  # noqa: E402,F401


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `corr` console script and `python -m corr`."""
    try:
        app(args=argv, prog_name="corr")
    except CorrError as err:
        print(f"corr: error: {err}", file=sys.stderr)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        print("corr: interrupted", file=sys.stderr)
        sys.exit(130)
