"""Moyo rule 6: is a puzzle from another source suitable for a game of Moyo?

The rulebook gives advice, not hard limits, so every point is reported with its numbers
and the verdict lists the reasons a puzzle falls short. Where the rulebook gives no
number, these are our rulings (documented here and in the report's `advice`):

- "not too many givens": at most MAX_GIVENS (32, the most any appendix puzzle has);
- "not too difficult": at least MIN_STARTING_POINTS cells that a naked or hidden single
  fills at the start, and, for a puzzle with one solution, a grade other than "search"
  (a puzzle with several solutions always needs a choice, which is the game's point);
- "about 1-4 givens in the Azumaya": 1 to 4 givens in field 5.

**Ruling (revised):** the check follows the game's areas (Moyo option `units`, 1.3):
with `units=rows` or `units=columns` the Azumaya and the Shima are rows or columns -
row or column 5 is the Azumaya - and the advice is checked on those: givens in the
Azumaya, areas without a given, and three givens directly next to each other inside one
area (in a row area: three neighbouring columns of that row; in a column area: three
neighbouring rows).
"""

from __future__ import annotations

from typing import Any

from corr.errors import UsageError
from corr.counts import counted
from corr.games.moyo.rules import AREA_CELLS, AREA_WORD
from corr.geometry import DIGITS, FIELD_CELLS, name
from corr.puzzles import solver

MAX_GIVENS = 32
MIN_STARTING_POINTS = 2
AZUMAYA = 5
AZUMAYA_GIVENS = (1, 4)
#: what the areas are made of, as Moyo's option `units` names it (moyo 1.3)
UNITS = tuple(AREA_CELLS)
#: Places of a field that stand in one line: its three rows, then its three columns.
_FIELD_LINES: tuple[tuple[int, int, int], ...] = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9))


def three_in_line(cells: list[int], units: str = "fields") -> list[dict[str, Any]]:
    """Every place where three givens stand directly next to each other in a row or a
    column inside one area; each entry names its area (`{"field": 3, ...}`, or `row`,
    `column`) and the cells.

    A field is three cells wide, so inside one field that is exactly a full line of the
    field. A row or column area is one line of nine: there it is a run of three or more
    neighbouring givens, reported once, with all its cells.
    """
    found: list[dict[str, Any]] = []
    if units == "fields":
        for field in DIGITS:
            for line in _FIELD_LINES:
                line_cells = [FIELD_CELLS[field][p - 1] for p in line]
                if all(cells[c] for c in line_cells):
                    found.append({"field": field, "cells": [name(c) for c in line_cells]})
        return found
    word = AREA_WORD[units]
    for area in DIGITS:
        run: list[int] = []
        for c in (*AREA_CELLS[units][area], None):  # None ends the last run
            if c is not None and cells[c]:
                run.append(c)
                continue
            if len(run) >= 3:
                found.append({word: area, "cells": [name(r) for r in run]})
            run = []
    return found


def check(cells: list[int], cap: int = 10_000, units: str = "fields") -> dict[str, Any]:
    """Report each point of Moyo rule 6 and a verdict with its reasons, on the areas
    `units` makes (fields, rows or columns; the ruling above).

    Refuses (UsageError) a puzzle whose givens clash or that has no solution, since
    there is nothing to play then, and units other than fields, rows or columns.
    """
    if units not in UNITS:
        raise UsageError(f"units must be one of {', '.join(UNITS)}, not {units!r}")
    if cap < 1:
        raise UsageError(f"the solution cap must be at least 1, not {cap}")
    solutions = solver.count_solutions(cells, cap)  # refuses a clash
    if solutions == 0:
        raise UsageError("the puzzle has no solution (moyo 6: a puzzle with none is refused)")
    areas = AREA_CELLS[units]
    word = AREA_WORD[units]
    givens = sum(1 for d in cells if d)
    azumaya = sum(1 for c in areas[AZUMAYA] if cells[c])
    empty_areas = [a for a in DIGITS if not any(cells[c] for c in areas[a])]
    empty_fields = [f for f in DIGITS if not any(cells[c] for c in FIELD_CELLS[f])]
    lines = three_in_line(cells, units)
    grade = solver.grade(cells)
    points = solver.starting_points(cells)

    reasons = []
    if points < MIN_STARTING_POINTS:
        reasons.append(f"too difficult: {points} starting point(s), fewer than {MIN_STARTING_POINTS}")
    if solutions == 1 and grade == "search":
        reasons.append("too difficult: the only solution needs guessing")
    if givens > MAX_GIVENS:
        reasons.append(f"too many givens: {givens}, more than {MAX_GIVENS}")
    if empty_areas:
        reasons.append(f"no given in {word}(s) {', '.join(map(str, empty_areas))}")
    low, high = AZUMAYA_GIVENS
    if not low <= azumaya <= high:
        reasons.append(f"{counted(azumaya, 'given')} in the Azumaya ({word} {AZUMAYA}), advice is {low}-{high}")
    for line in lines:
        reasons.append(f"three givens next to each other in {word} {line[word]}: {' '.join(line['cells'])}")

    return {
        "units": units,
        "solutions": solutions,
        "solutions_capped": solutions >= cap,
        "cap": cap,
        "givens": givens,
        "azumaya_givens": azumaya,
        "empty_areas": empty_areas,
        "empty_fields": empty_fields,
        "three_in_line": lines,
        "grade": grade,
        "starting_points": points,
        "verdict": "unsuitable" if reasons else "suitable",
        "reasons": reasons,
        "advice": {
            "max_givens": MAX_GIVENS,
            "azumaya_givens": list(AZUMAYA_GIVENS),
            "min_starting_points": MIN_STARTING_POINTS,
        },
    }


def report_text(report: dict[str, Any]) -> str:
    """The report as `corr puzzle check` prints it: one line per point, the verdict and
    its reasons."""
    word = AREA_WORD[report["units"]]
    sols = f"{report['solutions']}+" if report["solutions_capped"] else str(report["solutions"])
    lines = [
        f"solutions: {sols}",
        f"givens: {report['givens']} (advice: at most {report['advice']['max_givens']})",
        f"givens in the Azumaya: {report['azumaya_givens']} (advice: 1-4)",
        f"{word}s without a given: {', '.join(map(str, report['empty_areas'])) or 'none'}",
        "three givens in a line: "
        + ("; ".join(f"{word} {t[word]} {' '.join(t['cells'])}" for t in report["three_in_line"]) or "none"),
        f"grade: {report['grade']} ({report['starting_points']} starting points)",
        f"verdict: {report['verdict']}",
    ]
    if report["units"] != "fields":
        lines.insert(2, f"areas: {word}s, {word} 5 is the Azumaya (units={report['units']})")
    lines += [f"  - {reason}" for reason in report["reasons"]]
    return "\n".join(lines) + "\n"
