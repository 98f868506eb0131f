"""Tests for the boards `corr show` renders: text, HTML and JSON (DESIGN 7).

Golden files pin every byte of what players receive by mail, so a template change shows
up as a reviewable diff. After an intended change, regenerate them with

    CORR_UPDATE_GOLDEN=1 pytest tests/test_render.py

and read the diff of tests/golden/ before committing. Without that variable any
difference fails. Games are built through the CLI with time frozen and the game id
pinned, so the logs, and so the boards, are the same on every run.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from freezegun import freeze_time

from corr.view import SHORT_NAME, short_name

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CORR_UPDATE_GOLDEN") == "1"
EXT = {"text": "txt", "html": "html", "json": "json"}

# A random two-player game (corr.randomplay, seed 0), kept as text so that the goldens do
# not move when random play changes. Claimed conquests: 7 (field 8), 26 (2), 29 (9),
# 39 (1), 40 (7), 44 (4 and 6), 48 (3); B wins 5-3.
TWO = (
    "7 (8,7) | 8 (4,6) | 6 (8,4) | 2 (5,3) | 9 (1,3) | 1 (3,9) | 2 (7,3) ! | 6 (7,1) | "
    "8 (6,3) | 4 (5,1) | 4 (8,2) | 1 (6,4) | 7 (3,8) | 6 (9,9) | 5 (2,1) | 9 (3,4) | "
    "1 (2,3) | 3 (9,3) | 5 (1,8) | 9 (8,3) | 3 (4,3) | 3 (8,6) | 8 (9,8) | 8 (2,9) | "
    "7 (5,8) | 4 (1,6) ! | 1 (7,9) | 8 (1,4) | 5 (9,1) ! | 9 (4,7) | 2 (6,9) | 4 (9,7) | "
    "7 (2,6) | 5 (3,6) | 6 (4,2) | 4 (3,3) | 3 (6,7) | 8 (7,2) | 6 (2,8) ! | 5 (7,4) ! | "
    "9 (6,6) | 4 (6,8) | 1 (9,2) | 7 (4,1) ! | 3 (1,1) | 5 (6,2) | 2 (1,2) | 6 (3,1) !"
).split(" | ")
# A random four-player game (seed 7) that ends in a draw: B and D 3 fields each.
FOUR = (
    "7 (3,9) | 5 (2,4) | 9 (5,2) | 9 (7,9) | 8 (1,4) | 1 (2,1) | 3 (7,8) | 9 (2,6) | "
    "2 (6,3) | 2 (9,4) | 9 (1,8) | 5 (8,9) | 6 (4,8) | 4 (1,7) | 4 (3,3) ! | 7 (5,8) | "
    "4 (6,1) | 6 (1,9) | 3 (4,7) | 8 (3,1) ! | 1 (8,8) | 1 (7,6) | 3 (2,7) | 1 (4,4) ! | "
    "8 (6,2) | 7 (8,1) ! | 2 (8,3) | 6 (8,2) | 5 (1,3) ! | 8 (9,3) ! | 7 (9,8) | 9 (6,9) | "
    "8 (2,9) | 8 (5,4) | 2 (1,2) | 5 (7,1) | 1 (3,8) | 3 (5,6) ! | 6 (7,4) | 7 (4,3) | "
    "2 (4,6) | 5 (6,8) | 1 (5,3) | 4 (8,6) | 6 (9,9) | 5 (4,2) | 6 (3,4) | 2 (5,7) ! | "
    "6 (5,1) | 6 (2,3) | 3 (9,1) !"
).split(" | ")


def moves(*notation: str) -> tuple[tuple[str, ...], ...]:
    """CLI steps that play the given moves in turn."""
    return tuple(("move", m) for m in notation)


@dataclass(frozen=True)
class Case:
    """A fixed game: who plays, with which options, and the CLI steps after `new`."""

    players: tuple[str, ...]
    steps: tuple[tuple[str, ...], ...] = ()
    options: tuple[str, ...] = ()


CASES: dict[str, Case] = {
    "opening": Case(("Anna", "Ben")),
    # Field 8 conquered long ago; the last move claims field 2.
    "midgame": Case(("Anna", "Ben"), moves(*TWO[:26])),
    "finished": Case(("Anna", "Ben"), moves(*TWO)),
    "four-draw": Case(("Anna", "Ben", "Cleo", "Dara"), moves(*FOUR)),
    # mode=as-written: A's 1 breaks the Sudoku rule, B's challenge is upheld, so B now
    # places two tiles (4.1) and the place the tile went back from is still marked.
    "challenge": Case(
        ("Anna", "Ben"), (("move", "1 (1,1)"), ("challenge", "--by", "B")), ("mode=as-written",)
    ),
}

#: Logs already played, by case: each game is played through the CLI once per session
#: and copied for every test that shows it.
_LOGS: dict[Case, bytes] = {}


@pytest.fixture
def build(tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """Play a Case into a log with a fixed id and frozen time; returns the log's path."""
    monkeypatch.setattr("secrets.token_hex", lambda n: "0" * (2 * n))

    def make(case: Case, name: str = "game") -> Path:
        path = tmp_path / f"{name}.corr"
        if case in _LOGS:
            path.write_bytes(_LOGS[case])
            return path
        args: list[str] = ["new", "combat", str(path), "--format", "json"]
        for player in case.players:
            args += ["--player", player]
        for option in case.options:
            args += ["--option", option]
        with freeze_time("2026-01-02 03:04:05"):
            result = corr(*args)
            assert result.code == 0, result.err
            for step in case.steps:
                result = corr(step[0], path, *step[1:], "--format", "none")
                assert result.code == 0, f"{step}: {result.err}"
        _LOGS[case] = path.read_bytes()
        return path

    return make


@pytest.fixture
def show(corr) -> Callable[..., str]:
    """`corr show FILE -f FMT`, which must succeed; returns its stdout."""

    def run(path: Path, fmt: str) -> str:
        result = corr("show", path, "--format", fmt)
        assert result.code == 0, result.err
        return result.out

    return run


# ---------------------------------------------------------------------------------
# Golden files


@pytest.mark.parametrize("fmt", list(EXT))
@pytest.mark.parametrize("case", list(CASES))
def test_golden(case: str, fmt: str, build, show) -> None:
    """`corr show` prints exactly the stored board for each fixed game and format."""
    output = show(build(CASES[case]), fmt)
    golden = GOLDEN / f"combat-{case}.{EXT[fmt]}"
    if UPDATE:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(output, encoding="utf-8")
    assert golden.exists(), f"{golden.name} is missing: run CORR_UPDATE_GOLDEN=1 pytest {__file__}"
    expected = golden.read_text(encoding="utf-8")
    assert output == expected, f"{golden.name} differs; if intended, regenerate with CORR_UPDATE_GOLDEN=1"


def test_goldens_have_no_strays() -> None:
    """Every combat golden belongs to a case, so a renamed case leaves no dead file behind."""
    wanted = {f"combat-{c}.{e}" for c in CASES for e in EXT.values()}
    stray = {p.name for p in GOLDEN.glob("combat-*")} - wanted
    assert not stray


# ---------------------------------------------------------------------------------
# Text board


LONG = "Maximiliane Wilhelmine von und zu Hohenzollern-Sigmaringen " * 3  # 180 characters


@pytest.mark.parametrize("case", list(CASES))
def test_text_fits_80_columns_in_ascii(case: str, build, show) -> None:
    """Mail clients wrap past 80 columns and mangle non-ASCII grids."""
    text = show(build(CASES[case]), "text")
    for line in text.splitlines():
        assert len(line) <= 80, line
        assert line.isascii(), line


def test_text_fits_80_columns_with_long_names(build, show) -> None:
    """Names may be 200 characters long (and hold newlines): the board still fits."""
    names = (LONG, "Zo\u00eb\nNewline", "\u5c71\u7530\u592a\u90ce" * 10, "Dara\x1b[31m")
    text = show(build(Case(names, moves(*FOUR[:15]))), "text")
    for line in text.splitlines():
        width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)
        assert width <= 80, line
        assert "\x1b" not in line
    assert "> D  Dara [31m" in text  # the escape character is gone, the rest stays readable
    assert "  B  Zo\u00eb Newline " in text


def test_short_name() -> None:
    assert short_name("Anna") == "Anna"
    assert short_name("a\nb\tc\x00d") == "a b c d"
    cut = short_name(LONG)
    assert len(cut) == SHORT_NAME and cut.endswith("...")
    wide = short_name("\u5c71" * 30)
    assert wide.endswith("...") and 2 * (len(wide) - 3) + 3 <= SHORT_NAME


def test_text_board_layout(build, show) -> None:
    """Rows, columns and fields are labelled so `(F,P)` and `r4c7` can be read off."""
    text = show(build(CASES["opening"]), "text")
    lines = text.splitlines()
    assert lines[0] == "SUDOKU-Combat   combat-00000000   seq 0"
    axis = next(line for line in lines if line.strip().startswith("1  2  3"))
    row5 = next(line for line in lines if line.startswith(" 5 "))
    assert row5 == " 5 | .  4  . | .  5  . | .  6  . |"
    for i in range(9):  # each column number stands over its cells
        assert axis[5 + 3 * i + i // 3] == str(i + 1)
    assert row5[5 + 3 * 4 + 4 // 3] == "5"
    assert "   +-1-------+-2-------+-3-------+" in lines
    assert "fields: none conquered" in lines
    assert lines[-1] == "to move: A Anna"


def test_text_marks_last_move(build, show) -> None:
    text = show(build(Case(("Anna", "Ben"), moves("7 (5,4)"))), "text")
    assert " 5 | .  4  . |[7] 5  . | .  6  . |" in text.splitlines()
    assert "last:   1. A 7 (5,4)" in text
    assert text.count("[") == 1


def test_text_shows_conquests(build, show) -> None:
    text = show(build(CASES["midgame"]), "text")
    lines = text.splitlines()
    assert "   +-1-------+=2=[B]===+-3-------+" in lines  # claimed by the last move
    assert "   +-7-------+=8=[A]===+-9-------+" in lines
    assert "fields: 2 B, 8 A" in lines
    assert "last:   26. B 4 (1,6) !, conquers 2" in lines
    assert "> A  Anna   1 field" in lines and "  B  Ben    1 field" in lines


def test_text_result_and_bonus_tiles(build, show) -> None:
    assert show(build(CASES["finished"], "won"), "text").endswith("game over: B Ben wins with 5 fields\n")
    draw = show(build(CASES["four-draw"], "draw"), "text")
    assert draw.endswith("game over: draw between B Ben and D Dara, 3 fields each\n")
    assert "* B  Ben " in draw and "* D  Dara " in draw and "  A  Anna " in draw
    bonus = show(build(CASES["challenge"], "bonus"), "text")
    assert bonus.endswith("to move: B Ben, 2 tiles this turn\n")
    assert "last:   2. B challenge: upheld" in bonus


# ---------------------------------------------------------------------------------
# HTML board


def cells(html: str) -> dict[str, str]:
    """The board's <td> tags by cell name, e.g. "(5,4)" -> the tag's attributes."""
    return {m.group(1): m.group(0) for m in re.finditer(r'<td title="(\(\d,\d\))[^"]*" style="[^"]*">', html)}


def test_html_escapes_names(build, show) -> None:
    html = show(build(Case(("<script>alert(1)</script>", 'Ben "&" Co'), moves("7 (5,4)"))), "html")
    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Ben &#34;&amp;&#34; Co" in html


def test_html_is_mail_safe(build, show) -> None:
    """One self-contained document; inline styles only, which mail clients keep."""
    html = show(build(CASES["midgame"]), "html")
    assert html.startswith("<!DOCTYPE html>\n<html") and html.endswith("</html>\n")
    for banned in ("<style", "<script", "<link", "class=", "javascript:", "src=", "url("):
        assert banned not in html
    assert len(cells(html)) == 81
    assert html.isascii()


def test_html_field_borders(build, show) -> None:
    board = cells(show(build(CASES["opening"]), "html"))
    thick, thin = "3px solid", "1px solid"
    assert f"border-left:{thick}" in board["(5,1)"] and f"border-top:{thick}" in board["(5,1)"]
    assert f"border-right:{thin}" in board["(5,1)"] and f"border-bottom:{thin}" in board["(5,1)"]
    assert f"border-right:{thick}" in board["(5,9)"] and f"border-bottom:{thick}" in board["(5,9)"]
    assert all(f"border-{side}:{thin}" in board["(5,5)"] for side in ("top", "bottom", "left", "right"))


def test_html_marks_last_move_and_owners(build, show) -> None:
    html = show(build(CASES["midgame"]), "html")
    board = cells(html)
    last = board["(1,6)"]
    assert "last move" in last and "font-weight:bold" in last
    tints = {}
    for seat in "AB":
        swatch = re.search(rf'background:(#[0-9a-f]{{6}});[^"]*"></td>\n<td[^>]*>{seat}</td>', html)
        assert swatch, seat
        tints[seat] = swatch.group(1)
    assert tints["A"] != tints["B"]
    for place in range(1, 10):
        assert f"background:{tints['A']}" in board[f"(8,{place})"]
        assert f"field 8: A" in board[f"(8,{place})"]
        if place != 6:  # the last move's own highlight wins over the tint
            assert f"background:{tints['B']}" in board[f"(2,{place})"]
    assert "background:" not in board["(5,1)"]  # open field
    assert "To move: A Anna" in html
    assert "Last move: <span" in html and "26. B 4 (1,6) !</span>, conquers 2" in html


def test_html_four_seats_have_distinct_colours(build, show) -> None:
    html = show(build(CASES["four-draw"]), "html")
    swatches = re.findall(r'<td style="width:14px;height:14px;background:(#[0-9a-f]{6});', html)
    assert len(swatches) == 4 and len(set(swatches)) == 4
    assert "Game over: draw between B Ben and D Dara, 3 fields each" in html


# ---------------------------------------------------------------------------------
# JSON


def test_json_keys(build, show) -> None:
    """The documented keys of `show --format json` (scripts depend on them)."""
    data = json.loads(show(build(CASES["midgame"]), "json"))
    for key in ("game", "title", "id", "seq", "to_move", "over", "winners", "scores", "board",
                "seats", "options", "last", "conquered", "supply", "tiles_this_turn"):
        assert key in data, key
    assert data["game"] == "combat" and data["id"] == "combat-00000000"
    assert data["seq"] == 26 and data["to_move"] == "A"
    assert data["over"] is False and data["winners"] == []
    assert data["scores"] == {"A": 1, "B": 1}
    assert len(data["board"]) == 81 and set(data["board"]) <= set(".123456789")
    assert data["conquered"] == {"2": "B", "8": "A"}
    assert data["last"]["move"] == "4 (1,6) !" and data["last"]["conquered"] == [2]
    finished = json.loads(show(build(CASES["finished"], "won"), "json"))
    assert finished["over"] is True and finished["winners"] == ["B"] and finished["to_move"] is None
