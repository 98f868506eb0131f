"""The Typer application and the options several commands share."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

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

LogFile = Annotated[Path, typer.Argument(metavar="FILE", help="The game log (.corr file).", show_default=False)]
Format = Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html or json.")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
ForSeat = Annotated[
    Optional[str],
    typer.Option("--for", metavar="SEAT", help="Show what this seat may see (its own hidden cards); default: the public view."),
]
SignKey = Annotated[
    Optional[Path], typer.Option("--sign", metavar="KEY", help="Sign with this private key; it decides the seat.")
]


def out(text: str) -> None:
    """Write text to stdout exactly as given."""
    typer.echo(text, nl=False)


def check_format(fmt: str, allowed: tuple[str, ...]) -> str:
    from corr.errors import UsageError

    if fmt not in allowed:
        raise UsageError(f"unknown format {fmt!r} (formats: {', '.join(allowed)})")
    return fmt
