"""The `corr` command line: thin Typer commands over the library.

Errors are mapped to exit codes in one place, `main`: 0 ok, 1 refused move or bad
usage, 2 corrupt or forged log; every error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import errno
import os
import sys

import typer

try:  # typer >= 0.22 vendors click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older typer on top of click
    from click import exceptions as click_exc  # type: ignore[no-redef]

from corr.cli.app import app
from corr.errors import CorrError

# Importing the command modules registers their commands on `app`.
from corr.cli import inspect as _inspect  # noqa: E402,F401
from corr.cli import keys as _keys  # noqa: E402,F401
from corr.cli import play as _play  # noqa: E402,F401
from corr.cli import puzzle as _puzzle  # noqa: E402,F401
from corr.cli import mail as _mail  # noqa: E402,F401
from corr.cli import clock as _clock  # noqa: E402,F401
from corr.cli import host as _host  # noqa: E402,F401
from corr.cli import referee as _referee  # noqa: E402,F401
from corr.cli import endings as _endings  # noqa: E402,F401

#: Set CORR_DEBUG=1 to get the traceback of an unexpected error instead of one line.
DEBUG_VAR = "CORR_DEBUG"


class _Done(Exception):
    """How `_run` hands `main` the exit code and the one line of an error."""

    def __init__(self, code: int, message: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def one_line(text: str) -> str:
    """A message folded onto one line (an error is always exactly one line)."""
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def _usage_message(err: click_exc.UsageError) -> str:
    """Click's usage error as one line, with the command's help hint."""
    message = err.format_message().rstrip(".")
    message = message[:1].lower() + message[1:]
    ctx = err.ctx
    hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
    return f"{message}{hint}"


_command = None


def command():  # type: ignore[no-untyped-def]
    """The Click command Typer builds from `app`, built once (it takes tens of ms)."""
    global _command
    if _command is None:
        _command = typer.main.get_command(app)
    return _command


def _run(argv: list[str] | None) -> int:
    """Run the app; map every way it can end to an exit code (and an error line)."""
    try:
        code = command().main(args=argv, prog_name="corr", standalone_mode=False)
    except CorrError as err:
        raise _Done(err.exit_code, str(err)) from None
    except click_exc.NoArgsIsHelpError as err:
        # A bare `corr`: the overview is what the user needs, not an error.
        typer.echo(err.format_message())
        return 0
    except click_exc.UsageError as err:
        raise _Done(1, _usage_message(err)) from None
    except click_exc.ClickException as err:
        raise _Done(1, err.format_message()) from None
    except typer.Abort:
        raise _Done(1, "aborted") from None
    except OSError as err:
        if err.errno == errno.EPIPE:
            raise
        where = f"{err.filename}: " if err.filename else ""
        raise _Done(1, f"{where}{err.strerror or err}") from None
    except Exception as err:  # noqa: BLE001 - the contract is: never a traceback
        if os.environ.get(DEBUG_VAR):
            raise
        raise _Done(
            1, f"internal error, a bug in corr: {type(err).__name__}: {err} (set {DEBUG_VAR}=1 for the traceback)"
        ) from None
    return code if isinstance(code, int) else 0


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `corr` console script and `python -m corr`."""
    try:
        code = _run(argv)
    except _Done as done:
        if done.message is not None:
            print(f"corr: error: {one_line(done.message)}", file=sys.stderr)
        sys.exit(done.code)
    except KeyboardInterrupt:
        print("corr: interrupted", file=sys.stderr)
        sys.exit(130)
    except OSError as err:
        if err.errno != errno.EPIPE:
            raise
        # `corr replay game.corr | head`: the reader left; nothing more to say.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        sys.exit(0)
    if code:
        sys.exit(code)
