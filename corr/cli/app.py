"""The Typer application and the options several commands share."""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Iterator, Optional, overload

import typer


def _keep_argument_help() -> None:
    """Let `--help` show what FILE and MOVE are: click 8.2 and later set a parameter's
    `help` in its own constructor, after Typer's TyperArgument has set it, so the
    arguments' help text is lost unless it is put back."""
    from typer.core import TyperArgument

    original = TyperArgument.__init__
    if getattr(original, "keeps_help", False):
        return

    def init(self, *args, help: Optional[str] = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        original(self, *args, help=help, **kwargs)
        if self.help is None:
            self.help = help

    init.keeps_help = True  # type: ignore[attr-defined]
    TyperArgument.__init__ = init  # type: ignore[method-assign]
    # click 8.5 would list the arguments a second time ("Positional arguments") beside
    # Typer's own "Arguments" section
    from typer.core import TyperCommand, TyperGroup

    for command in (TyperCommand, TyperGroup):
        if hasattr(command, "format_arguments"):
            command.format_arguments = lambda self, ctx, formatter: None  # type: ignore[method-assign]


_keep_argument_help()

app = typer.Typer(
    name="corr",
    help="Correspondence engine for competitive Sudoku games: keep the move log, check "
    "every move, render the board to send on.\n\n"
    "Exit codes: 0 ok, 1 refused move or bad usage, 2 corrupt or tampered log.\n\n"
    "\b\nExample:\n"
    "  corr new combat game.corr --player Anna --player Ben\n"
    "  corr move game.corr '7 (5,4)'",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: The first bytes of a log's header read to name a seat (`seat_of`).
PEEK = 65536


def regular_file(path: Path) -> Path:
    """Refuse a FIFO, device or socket before anything opens it: reading one would hang
    or never end. A missing file or a folder is left to the command, which words it."""
    from corr.errors import UsageError

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return path
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise UsageError(f"{path}: not a regular file")
    return path


def log_callback(path: Path) -> Path:
    """Every command reading a log checks it here first: a FIFO would hang, and a log
    with CRLF endings or a BOM, or a text file, deserves a hint rather than parser words."""
    from corr.errors import CorruptLog
    from corr.log.repair import TROUBLE_KINDS, trouble

    regular_file(path)
    found = trouble(path)
    if found is not None:
        what, message = found
        raise CorruptLog(message, kind=TROUBLE_KINDS[what])
    return path


def file_callback(path: Path) -> Path:
    """A file argument that must not be a FIFO (Typer passes a one-parameter callback
    the value alone)."""
    return regular_file(path)


def input_callback(path: Optional[Path]) -> Optional[Path]:
    """A file a command reads that is not a log (a message, an mbox): no FIFOs."""
    return None if path is None else regular_file(path)


def optional_log_callback(path: Optional[Path]) -> Optional[Path]:
    """An optional log (`--revenge-of OLD`), checked as every log is."""
    return None if path is None else log_callback(path)


LogFile = Annotated[
    Path, typer.Argument(metavar="FILE", help="The game log (.corr file).", show_default=False, callback=log_callback)
]
#: The log `corr new` writes (it must not exist yet; missing folders are made).
NewLogFile = Annotated[
    Path, typer.Argument(metavar="FILE", help="The new game log (.corr file).", show_default=False)
]
#: `--color`: colour on a terminal (corr.term decides what auto means).
Color = Annotated[
    str,
    typer.Option("--color", metavar="WHEN", help="Colour the text board: auto (on a terminal, unless NO_COLOR is set "
                 "or TERM=dumb; FORCE_COLOR forces it), always or never."),
]
Format = Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html or json.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
ForSeat = Annotated[
    Optional[str],
    typer.Option("--for", metavar="SEAT", help="Show what this seat may see (its own card; in a Domino duel its "
                 "own board and digit); default: the public view."),
]
SignKey = Annotated[
    Optional[Path], typer.Option("--sign", metavar="KEY", help="Sign with this private key; it decides the seat.")
]


def out(text: str) -> None:
    """Write text to stdout exactly as given."""
    typer.echo(text, nl=False)


def board(table, fmt: str, viewer: Optional[str] = None, colour: bool = False) -> None:  # type: ignore[no-untyped-def]
    """A position printed as `viewer` (a seat, or None: the public) may see it
    (`corr.seatview`), in FORMAT or not at all (`none`); `colour`: a text board coloured
    for a terminal, which keeps its codes even when piped."""
    if fmt == "none":
        return
    from corr.render import render
    from corr.seatview import observe

    text = render(observe(table, viewer), fmt, colour)
    if colour:
        typer.echo(text, nl=False, color=True)  # click would strip the codes from a pipe
    else:
        out(text)


def check_format(fmt: str, allowed: tuple[str, ...]) -> str:
    from corr.errors import UsageError

    if fmt not in allowed:
        raise UsageError(f"unknown format {fmt!r} (formats: {', '.join(allowed)})")
    return fmt


@overload
def seat_of(file: Path, given: str, option: str = ...) -> str: ...
@overload
def seat_of(file: Path, given: Optional[str], option: str = ...) -> Optional[str]: ...
def seat_of(file: Path, given: Optional[str], option: str = "--by") -> Optional[str]:
    """The seat letter `--by`/`--for` names: the letter itself, or a player's name in any
    case (`--by Ben`). The header is read only for a name; a letter costs nothing."""
    if given is None:
        return None
    text = given.strip()
    if len(text) == 1:
        return text.upper()
    from corr.log import lines
    from corr.names import seat_named

    try:
        with open(file, "rb") as f:
            header = lines.read_header(f.readline(PEEK).rstrip(b"\n"))
    except (OSError, lines.LineError):
        return text.upper()  # the command reads the log next and says what is wrong with it
    return seat_named(header.seats, given, option)


#: How much of what a user typed a refusal quotes back.
ECHO = 40


def cut(text: str, width: int = ECHO) -> str:
    """`text` cut to `width` characters, ending in `...` when it was longer."""
    return text if len(text) <= width else text[: width - 3] + "..."


@contextmanager
def echoing(given: str) -> Iterator[None]:
    """Refusals quote at most ECHO characters of what the user typed: a move pasted
    with a whole mail after it is not worth a screenful of error."""
    from corr.errors import CorrError

    try:
        yield
    except CorrError as err:
        if len(given) > ECHO:
            message = str(err).replace(repr(given), repr(cut(given))).replace(given, cut(given))
            err.args = (message,)
        raise


@contextmanager
def folder_for(path: Path) -> Iterator[None]:
    """Make the missing folders `path` needs, the usual way (mode from the umask); if
    the command then fails, the folders it made are removed again: a refused command
    changes nothing on disk."""
    made: list[Path] = []
    for parent in reversed([path, *path.parents]):
        if not parent.exists():
            made.append(parent)
    path.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        for folder in reversed(made):
            try:
                folder.rmdir()  # only when still empty
            except OSError:
                break
        raise


def version_option(value: bool) -> None:
    """`corr --version`: the version, and nothing else."""
    if value:
        from corr import __version__

        typer.echo(f"corr {__version__}")
        raise typer.Exit(0)


@app.callback()
def corr_options(
    version: Annotated[
        bool, typer.Option("--version", help="Print corr's version and exit.", is_eager=True, callback=version_option)
    ] = False,
) -> None:
    """Options of `corr` itself, before the command."""
