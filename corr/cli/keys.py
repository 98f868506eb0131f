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


#: Where each role's public key goes: into the game's header, by `corr new`.
WHERE = {
    "player": "give it to whoever starts the game, for `corr new ... --key SEAT={pub}`",
    "referee": "give it to the players: the game's header names it, `corr new ... --referee-key {pub}`",
    "host": "the hosted games' headers name it: `corr new ... --host-key {pub}`",
}


@key_app.command("new")
def new_key(
    out: Annotated[Path, typer.Option("--out", metavar="DIR/NAME", help="Writes NAME.key (private, mode 0600) and NAME.pub.")],
    role: Annotated[str, typer.Option("--role", metavar="ROLE", help="Whose key: player, referee or host; says "
                                      "where NAME.pub goes.")] = "player",
) -> None:
    """Make a key pair: NAME.key to sign your moves, NAME.pub for the game's header.

    \b
    Example:
      corr key new --out keys/anna
      corr new combat game.corr -p "Anna <anna@example.org>" -p Ben --key A=keys/anna.pub
      corr key new --out keys/rita --role referee
    """
    from corr.errors import UsageError
    from corr.identity import new_key as make

    if role not in WHERE:
        raise UsageError(f"--role {role!r}: say player, referee or host")
    key_path, pub_path = make(out)
    typer.echo(f"wrote {key_path} (keep it secret) and {pub_path} ({WHERE[role].format(pub=pub_path)})")
    typer.echo(pub_path.read_text().strip())
