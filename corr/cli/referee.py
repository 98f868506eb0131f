"""`corr referee`: read-only tools for a game's referee (DESIGN 5), and `corr compare`
for two players' diverging copies of one game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from corr.cli.app import Format, JsonFlag, LogFile, app, check_format, out

referee_app = typer.Typer(
    help="A referee's tools: examine any record of a game.\n\n"
    "\b\nExample:\n"
    "  corr referee examine game.corr 10 --format html > ruling.html",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(
    referee_app,
    name="referee",
    help="A referee's tools: examine any record (position before, rule, cells, challenge).\n\n"
    "\b\nExample:\n"
    "  corr referee examine game.corr 10",
)


@referee_app.command("examine")
def examine(
    file: LogFile,
    seq: Annotated[int, typer.Argument(metavar="SEQ", help="The record to examine.", show_default=False)],
    fmt: Format = "text",
) -> None:
    """Examine one record: the position before it, whether it was legal, the rule it
    broke and the cells, whether a challenge came in time, and what followed.

    outcome (JSON): legal, upheld, rejected, stood (illegal, never challenged in time)
    or open (illegal, the next move not recorded yet). The HTML is a whole document
    with inline styles, to mail to every player. A SEQ outside the log exits 1, a
    corrupt log 2.

    \b
    Example:
      corr referee examine game.corr 10
      corr referee examine game.corr 10 --format json
    """
    from corr import referee
    from corr.log import store

    check_format(fmt, referee.FORMATS)
    out(referee.render(referee.examine(store.read(file), seq), fmt))


@app.command()
def compare(
    a: Annotated[Path, typer.Argument(metavar="A.corr", help="One copy of the game.", show_default=False)],
    b: Annotated[Path, typer.Argument(metavar="B.corr", help="Another copy of the same game.", show_default=False)],
    as_json: JsonFlag = False,
) -> None:
    """Compare two copies of one game: common prefix, first divergent record, which
    copy verifies, and the position at each head.

    Exits 0 whenever both copies could be compared, identical or not (the output says
    how they differ); 1 for two different games or a file that is not a log.

    \b
    Example:
      corr compare anna.corr ben.corr --json
    """
    import json

    from corr import compare as cmp

    report = cmp.compare(a, b)
    out(json.dumps(report, indent=2) + "\n" if as_json else cmp.text(report))
