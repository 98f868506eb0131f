"""`corr rules`: a game's rules, one section or one rule of them, by the numbers every
refusal cites (`corr.rulebook`)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from corr.cli.app import app, out


@app.command("rules")
def rules_cmd(
    game: Annotated[
        str,
        typer.Argument(metavar="GAME", show_default=False,
                       help="A game, as `corr new` takes it: combat, moyo, cards, domino or war; or a game and a "
                       "rule together, as a refusal cites them: \"combat 2.2\"."),
    ],
    rule: Annotated[
        Optional[str],
        typer.Argument(metavar="[RULE]", show_default=False,
                       help="A rule (3.5) or a whole section (3); without it, all of the game's rules."),
    ] = None,
) -> None:
    """Print a game's rules, or one rule or section of them: the numbers a refused move
    cites (`corr: error: combat 2.2: ...`) are these. Rulings mark what the project
    decided where the original rules are silent.

    \b
    Example:
      corr rules combat                  # all of SUDOKU-Combat's rules
      corr rules combat 3.5              # one rule: claiming a conquest
      corr rules combat 3                # a section: conquering a field
      corr rules "combat 2.2"            # the citation as a refusal prints it
      corr rules war | less
    """
    from corr.rulebook import lookup

    out(lookup(game, rule))
