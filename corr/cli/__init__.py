"""The `corr` command line: thin Typer commands over the library.

Errors are mapped to exit codes in one place, `main`: 0 ok, 1 refused move or bad
usage, 2 corrupt or forged log; every error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:  # the typer the project pins (< 0.22) is built on click
    from click import exceptions as click_exc
else:
    try:  # typer >= 0.22 vendors click
        from typer._click import exceptions as click_exc
    except ImportError:  # pragma: no cover - older typer on top of click
        from click import exceptions as click_exc

from corr.cli.app import app
from corr.errors import CorrError

#: The module of `corr.cli` that defines each top-level command. `main` imports only
#: the one it runs: building every command costs more than checking the move itself.
COMMANDS: dict[str, str] = {
    "new": "play", "move": "play", "challenge": "play", "pass": "play", "match": "play", "repair": "play",
    "games": "inspect", "show": "inspect", "legal": "inspect", "log": "inspect",
    "replay": "inspect", "audit": "inspect", "schema": "inspect",
    "clock": "clock", "claim-timeout": "clock", "vacation": "clock",
    "resign": "endings", "draw": "endings",
    "host": "host", "key": "keys", "mail": "mail", "puzzle": "puzzle",
    "compare": "referee", "referee": "referee", "play": "terminal",
    "status": "status", "bot": "bots", "completion": "completion", "rules": "rules",
    "ratings": "ratings", "tournament": "tournament", "archive": "archive",
}

#: Set CORR_DEBUG=1 to get the traceback of an unexpected error instead of one line.
DEBUG_VAR = "CORR_DEBUG"


class _Done(Exception):
    """How `_run` hands `main` the exit code and the one line of an error."""

    def __init__(self, code: int, message: str | None = None, cells: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.cells = cells  # a refused move's cells: the one played, then those it clashes with


def one_line(text: str) -> str:
    """A message folded onto one line (an error is always exactly one line), with the
    control characters left in it shown as escapes: an error may quote a log (a name, a
    file name), and nothing it quotes reaches the terminal raw (`corr.names.visible`)."""
    from corr.names import visible

    return visible(" ".join(part.strip() for part in str(text).splitlines() if part.strip()))


def _clashes_shown(line: str, cells: tuple[int, ...]) -> str:
    """A refusal's line with the tiles the move clashes with highlighted, when stderr is
    a terminal that takes colour (corr.term); the line unchanged otherwise."""
    if not cells:
        return line
    from corr.term import paint, wanted

    if not wanted("auto", sys.stderr):
        return line
    from corr.geometry import name

    for cell in dict.fromkeys(cells[1:] or cells):  # only the cell played: the tile in the way
        line = line.replace(name(cell), paint(name(cell), "clash"))
    return line


def _usage_message(err: click_exc.UsageError) -> str:
    """Click's usage error as one line, with the command's help hint."""
    message = err.format_message().rstrip(".")
    message = message[:1].lower() + message[1:]
    ctx = err.ctx
    hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
    return f"{message}{hint}"


_commands: dict[str | None, object] = {}


def _name(info) -> str:  # type: ignore[no-untyped-def]
    """A registered command's name, as Typer derives it."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


def command(argv: list[str] | None = None):  # type: ignore[no-untyped-def]
    """The Click command Typer builds from `app`: only the command `argv` runs (all of
    them for `corr --help` or a name it does not know), built once each."""
    first = argv[0] if argv else None
    wanted = first if first in COMMANDS else None
    if wanted not in _commands:
        for module in sorted({COMMANDS[wanted]} if wanted else set(COMMANDS.values())):
            importlib.import_module(f"corr.cli.{module}")
        if wanted is None:
            _commands[None] = typer.main.get_command(app)
        else:
            whole = app.registered_commands, app.registered_groups
            app.registered_commands = [info for info in whole[0] if _name(info) == wanted]
            app.registered_groups = [info for info in whole[1] if info.name == wanted]
            try:
                _commands[wanted] = typer.main.get_group(app)
            finally:
                app.registered_commands, app.registered_groups = whole
    return _commands[wanted]


def _run(argv: list[str] | None) -> int:
    """Run the app; map every way it can end to an exit code (and an error line)."""
    try:
        code = command(sys.argv[1:] if argv is None else argv).main(args=argv, prog_name="corr", standalone_mode=False)
    except CorrError as err:
        raise _Done(err.exit_code, str(err), tuple(getattr(err, "cells", ()))) from None
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
    import warnings

    from corr.errors import CorrWarning

    said: set[str] = set()

    def warned(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
        if not issubclass(category, CorrWarning):
            return shown(message, category, filename, lineno, file, line)
        text = one_line(str(message))
        if text not in said:  # once per command, however often the file is read
            said.add(text)
            print(f"corr: warning: {text}", file=sys.stderr)
        return None

    try:
        with warnings.catch_warnings():
            shown = warnings.showwarning
            warnings.simplefilter("always", CorrWarning)
            warnings.showwarning = warned
            code = _run(argv)
    except _Done as done:
        if done.message is not None:
            print(f"corr: error: {_clashes_shown(one_line(done.message), done.cells)}", file=sys.stderr)
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
