"""`corr puzzle ...`: the Moyo appendix puzzles, a solver, the Moyo 6 suitability check and
the Sudoku Domino generator."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from corr.cli.app import JsonFlag, app, out

puzzle_app = typer.Typer(
    help="Sudoku puzzles for the games: list the Moyo appendix, show, solve, count solutions, "
    "check a puzzle against Moyo rule 6 and generate a Sudoku Domino game.\n\n"
    "\b\nExample:\n"
    "  corr puzzle check 3",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(
    puzzle_app,
    name="puzzle",
    help="Sudoku puzzles: list the Moyo appendix, show, solve, count solutions, check (moyo 6), "
    "domino (a Sudoku Domino game from a seed).\n\n"
    "\b\nExample:\n"
    "  corr puzzle check 3",
)

Puzzle = Annotated[
    str,
    typer.Argument(
        metavar="PUZZLE",
        help="An appendix puzzle 1-6 or an 81-character string, row by row, '.' or '0' for empty.",
        show_default=False,
    ),
]


def grid_text(cells: list[int]) -> str:
    """The board as text with the nine fields bordered (25 columns wide)."""
    rule = "+-------+-------+-------+"
    lines = [rule]
    for r in range(9):
        row = cells[r * 9 : r * 9 + 9]
        parts = [" ".join(str(d) if d else "." for d in row[i : i + 3]) for i in (0, 3, 6)]
        lines.append("| " + " | ".join(parts) + " |")
        if r % 3 == 2:
            lines.append(rule)
    return "\n".join(lines) + "\n"


@puzzle_app.command("list")
def list_cmd(as_json: JsonFlag = False) -> None:
    """The six appendix puzzles of the Moyo rulebook, with givens and solutions (moyo 7).

    \b
    Example:
      corr puzzle list --json
    """
    from corr.puzzles.appendix import APPENDIX, parse_puzzle
    from corr.puzzles.solver import count_solutions, grade

    rows = []
    for number, text in APPENDIX.items():
        cells = parse_puzzle(text)
        rows.append(
            {
                "puzzle": number,
                "givens": sum(1 for d in cells if d),
                "solutions": count_solutions(cells, 10_000),
                "grade": grade(cells),
                "string": text,
            }
        )
    if as_json:
        out(json.dumps(rows, indent=2) + "\n")
        return
    typer.echo("puzzle  givens  solutions  grade")
    for row in rows:
        typer.echo(f"{row['puzzle']:>6}  {row['givens']:>6}  {row['solutions']:>9}  {row['grade']}")


@puzzle_app.command()
def show(puzzle: Puzzle) -> None:
    """Print a puzzle as a grid with the fields bordered.

    \b
    Example:
      corr puzzle show 1
    """
    from corr.puzzles.appendix import parse_puzzle

    out(grid_text(parse_puzzle(puzzle)))


@puzzle_app.command()
def solve(
    puzzle: Puzzle,
    count: Annotated[bool, typer.Option("--count", help="Print the number of solutions instead.")] = False,
    limit: Annotated[
        int, typer.Option("--limit", metavar="N", help="With --count: stop counting at N (exact below it).")
    ] = 10_000,
) -> None:
    """Print a solution of a puzzle, or with --count how many it has (up to --limit).

    A count equal to the limit means "at least that many".

    \b
    Example:
      corr puzzle solve 3 --count --limit 10000
    """
    from corr.errors import UsageError
    from corr.puzzles.appendix import parse_puzzle
    from corr.puzzles.solver import count_solutions, solve as solve_cells

    cells = parse_puzzle(puzzle)
    if count:
        if limit < 1:
            raise UsageError(f"--limit must be at least 1, not {limit}")
        n = count_solutions(cells, limit)
        typer.echo(f"{n}+" if n >= limit else str(n))
        return
    solution = solve_cells(cells)
    if solution is None:
        raise UsageError("the puzzle has no solution")
    out(grid_text(solution))


@puzzle_app.command()
def check(
    puzzle: Puzzle,
    units: Annotated[
        str,
        typer.Option("--units", metavar="UNITS", help="What the game's areas are made of, as Moyo's option units "
                     "(moyo 1.3): fields, rows or columns; the advice is checked on those areas."),
    ] = "fields",
    as_json: JsonFlag = False,
) -> None:
    """Check a puzzle against the advice of Moyo rule 6 and give a verdict.

    Reports the number of solutions (exact up to 10,000), givens, givens in the Azumaya,
    areas without a given, three givens next to each other inside one area, the
    difficulty grade and starting points. The areas are the game's (moyo 6 ruling): the
    nine fields and field 5 as the Azumaya, or with --units rows|columns the nine rows
    or columns and the middle one as the Azumaya. A clash or no solution is refused
    (exit 1).

    \b
    Example:
      corr puzzle check 6 --json
      corr puzzle check 5 --units rows
    """
    from corr.games import tool
    from corr.puzzles.appendix import parse_puzzle

    advice = tool("check")  # the game whose rule 6 this is (Moyo)
    report = advice.check(parse_puzzle(puzzle), units=units)
    out(json.dumps(report, indent=2) + "\n" if as_json else advice.report_text(report))


@puzzle_app.command()
def domino(
    seed: Annotated[str, typer.Option("--seed", metavar="SEED", help="The seed the game is dealt from.")],
    givens: Annotated[
        int, typer.Option("--givens", metavar="N", help="Stones on the board at the start, 17-80.")
    ] = 30,
    as_json: JsonFlag = False,
) -> None:
    """Generate a Sudoku Domino game from a seed: the start and the digit order (domino 7.1).

    The start is 81 characters row by row, '.' for empty; the order lists each given
    digit with the cell it docks on, `D (F,P)`. The same seed always deals the same game.

    \b
    Example:
      corr puzzle domino --seed 5f2c9e --givens 30
    """
    from corr.games import tool

    generator = tool("domino")  # the game dealt from a seed (Sudoku Domino, 7.1)
    deal = generator.generate(seed, givens)
    if as_json:
        out(json.dumps(generator.deal_json(seed, givens, deal), indent=2) + "\n")
        return
    out(generator.deal_text(deal))
