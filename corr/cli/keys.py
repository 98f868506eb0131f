"""`corr key`: players' signing keys."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from corr.cli.app import app

key_app = typer.Typer(
    help="Players' Ed25519 signing keys.\n\nExample: corr key new --out keys/anna",
    no_args_is_help=True,
)
app.add_typer(key_app, name="key")


@key_app.command("new")
def new_key(
    out: Annotated[Path, typer.Option("--out", metavar="DIR/NAME", help="Writes NAME.key (private, mode 0600) and NAME.pub.")],
) -> None:
    """Make a key pair: NAME.key to sign your moves, NAME.pub for the game's header.

    \b
    Example:
      corr key new --out keys/anna
      corr new combat game.corr -p "Anna <anna@example.org>" -p Ben --key A=keys/anna.pub
    """
    from corr.identity import new_key as make

    key_path, pub_path = make(out)
    typer.echo(f"wrote {key_path} (keep it secret) and {pub_path} (give it to your opponents)")
    typer.echo(pub_path.read_text().strip())
