"""Every board names its cells the way moves do, `(field,place)`, and nothing on it reads
as another numbering: the text board numbers the nine fields in their top borders, has
the key to `(F,P)` beside it and no row or column numbers, and fits 80 columns.

The boards are those of the games in examples/ (all five games), shown through the CLI
at the start, the middle and the end, as the public and as a seat sees them; how many
boards a page shows comes from the same command's JSON.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import Run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = {path.stem: path for path in sorted(EXAMPLES.glob("*.corr"))}
#: `corr show` arguments beyond the file: each example at its start, middle and end, and
#: the seats' own views of the games that hide something from the others.
VIEWS = [(stem, at) for stem in GAMES for at in (("--at", "0"), ("--at", "middle"), ())] + [
    ("cards-3p", ("--for", "A", "--at", "middle")),
    ("domino-duel", ("--for", "B", "--at", "middle")),
    ("domino-duel", ("--for", "A")),
    ("war-pieces", ("--at", "7")),  # a frozen number (2.6)
]
each_view = pytest.mark.parametrize("stem, extra", VIEWS, ids=[f"{s}{''.join(e)}" for s, e in VIEWS])


def cell_name(i: int) -> tuple[int, int]:
    """(field, place) of row-major cell index 0-80, counted here from rows and columns."""
    row, col = divmod(i, 9)
    return row // 3 * 3 + col // 3 + 1, row % 3 * 3 + col % 3 + 1


def show(corr: Callable[..., Run], stem: str, extra: tuple[str, ...], fmt: str) -> str:
    """`corr show EXAMPLE EXTRA... --format FMT`; "middle" as --at is half the records."""
    path = GAMES[stem]
    middle = str((len(path.read_bytes().splitlines()) - 1) // 2)
    result = corr("show", path, *(middle if a == "middle" else a for a in extra), "--format", fmt)
    assert result.code == 0, result.err
    return result.out


def shown_boards(p: dict[str, Any]) -> int:
    """How many boards a position shows: a Domino duel every board it may show (else
    the start), every other game one."""
    return (len(p["boards"]) or 1) if p["game"] == "domino" else 1


# ---------------------------------------------------------------------------------
# Text boards


def fields_in(text: str) -> list[list[int]]:
    """The field numbers in the top borders of each text board, in reading order; a
    border is `+` and nine characters three times, and a field's number is its third
    character (`+-5-------+`, Combat's `+=5=[B]===+`, Moyo's `+-5-N-----+`)."""
    found: list[list[int]] = []
    for line in text.splitlines():
        if re.match(r"\+[-=][1-9][-=]", line):
            labels = [int(line[2 + 10 * k]) for k in range(3)]
            if labels[0] == 1:
                found.append([])
            found[-1] += labels
    return found


@each_view
def test_text_board_numbers_the_nine_fields_and_no_rows_or_columns(corr, stem: str,
                                                                   extra: tuple[str, ...]) -> None:
    """Every text board numbers its fields 1-9 in their top borders, in keypad order,
    and has the key beside it; no line numbers the columns and every row of the board
    starts with its left edge, not a row number."""
    text = show(corr, stem, extra, "text")
    expected = shown_boards(json.loads(show(corr, stem, extra, "json")))
    found = fields_in(text)
    assert found == [list(range(1, 10))] * expected
    lines = text.splitlines()
    assert sum("(5,4) is field 5, place 4" in line for line in lines) == 1
    assert sum(line.endswith("   1 2 3   1 2 3") for line in lines) == 1
    assert not any(re.search(r"1  2  3   4  5  6   7  8  9", line) for line in lines)
    grid = [line for line in lines if re.match(r"[ 0-9]*\|", line)]
    assert len(grid) == 9 * expected and all(line.startswith("|") for line in grid)


@each_view
def test_text_board_fits_80_columns(corr, stem: str, extra: tuple[str, ...]) -> None:
    """Every line fits 80 columns but War's setup string, which must stay whole to be
    copied."""
    for line in show(corr, stem, extra, "text").splitlines():
        assert len(line) <= 80 or line.startswith("setup:  "), line


#: 200 characters, cut on the board by corr.names.short_name.
LONG = ("Maximiliane Wilhelmine von und zu Hohenzollern-Sigmaringen " * 4)[:200]
WIDE = "\u5c71\u7530\u592a\u90ce" * 50


@pytest.mark.parametrize("game, seats, options", [
    ("combat", 4, ()), ("cards", 3, ()), ("domino", 2, ("seed=7", "time_limit=none")), ("war", 2, ()),
    ("moyo", 2, ("puzzle=1", "units=rows")), ("moyo", 2, ("puzzle=1", "units=columns")), ("moyo", 2, ("puzzle=1",)),
])
def test_text_board_fits_80_columns_with_the_longest_names(corr, tmp_path: Path, game: str, seats: int,
                                                           options: tuple[str, ...]) -> None:
    """Names of 200 characters, wide ones too, after a few moves: every line, the key and
    the row numbers of Moyo by rows included, stays within 80 columns (War's setup
    string apart)."""
    path = tmp_path / f"{game}.corr"
    args: list[str] = ["new", game, str(path), "--format", "none"]
    for name in (LONG, WIDE, LONG[::-1], WIDE[:-1])[:seats]:
        args += ["--player", name]
    for option in options:
        args += ["-o", option]
    assert corr(*args).code == 0
    for _ in range(4):
        position = json.loads(corr("show", path, "--format", "json").out)
        seat = position["to_move"] or (position.get("playing") or [None])[0]
        legal = json.loads(corr("legal", path, "--for", seat, "--json").out) if seat else {"moves": []}
        if not legal["moves"]:
            break
        assert corr("move", path, legal["moves"][0], "--by", seat, "--format", "none").code == 0
    text = corr("show", path, "--format", "text").out
    assert "(5,4) is field 5, place 4" in text
    for line in text.splitlines():
        width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)
        assert width <= 80 or line.startswith("setup:  "), line
