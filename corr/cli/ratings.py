"""`corr ratings`: rating lists over the finished games in some folders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import JsonFlag, app, out


@app.command()
def ratings(
    folders: Annotated[list[Path], typer.Argument(metavar="DIR...", help="Folders of game logs, subfolders too.",
                                                  show_default=False)],
    game: Annotated[Optional[str], typer.Option("--game", metavar="GAME", help="Only this game's list.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Say each skipped log and why.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Rate the players of every finished game (*.corr) under the folders.

    Each log is audited first (`corr audit`); a corrupt or unfinished log, a game alone
    or a player in two seats is skipped, and counted in the last line (--verbose says
    each with its reason). Games of two seats are rated by Glicko-2, of three to six by
    OpenSkill's Plackett-Luce model, one game at a time in the order the games ended
    (the time of their last record), a list per game and system; --game keeps one game
    (and the logs skipped that are of it or of no game that could be read). A player is known by
    the seat's address when it has one, else by the name. A resignation, a timeout or a
    forfeit counts as the game's result says; several winners are a draw. With --json:
    {ratings: [{game, system, games, players: [{player, name, address, rating,
    deviation, volatility, games, wins, draws, losses}]}], rated: [...], skipped:
    [{file, reason, detail}]}.

    \b
    Example:
      corr ratings ~/games
      corr ratings club/ league/ --game combat --json
    """
    import json

    from corr.ratings.finished import collect
    from corr.ratings.report import as_json as report_json, text
    from corr.ratings.systems import rate

    wanted = None
    if game is not None:
        from corr.games import canonical

        wanted = canonical(game)
    games, skipped = collect(folders)
    if wanted is not None:  # a log of unknown game (unreadable) still counts as skipped
        games = [g for g in games if g.game == wanted]
        skipped = [s for s in skipped if s.game in (None, wanted)]
    tables = rate(games)
    if as_json:
        out(json.dumps(report_json(tables, games, skipped), indent=2, ensure_ascii=False) + "\n")
    else:
        out(text(tables, games, skipped, verbose))
