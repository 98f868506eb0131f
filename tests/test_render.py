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
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from freezegun import freeze_time

from corr.names import SHORT_NAME, short_name
from conftest import GOLDEN, assert_golden

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
    game: str = "combat"


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
        args: list[str] = ["new", case.game, str(path), "--format", "json"]
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
    assert_golden(f"combat-{case}.{EXT[fmt]}", output)


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
    """Fields are numbered in their top borders and the key beside the board tells how
    `(F,P)` names a cell; rows and columns carry no numbers that would read as `(F,P)`."""
    text = show(build(CASES["opening"]), "text")
    lines = text.splitlines()
    assert lines[0] == "SUDOKU-Combat   combat-00000000   seq 0"
    board = lines[lines.index("+-1-------+-2-------+-3-------+"):][:13]
    assert board == [
        "+-1-------+-2-------+-3-------+",
        "| .  .  . | .  .  . | .  .  . |",
        "| .  1  . | .  2  . | .  3  . |",
        "| .  .  . | .  .  . | .  .  . |",
        "+-4-------+-5-------+-6-------+   fields  places",
        "| .  .  . | .  .  . | .  .  . |   1 2 3   1 2 3",
        "| .  4  . | .  5  . | .  6  . |   4 5 6   4 5 6",
        "| .  .  . | .  .  . | .  .  . |   7 8 9   7 8 9",
        "+-7-------+-8-------+-9-------+   (5,4) is field 5, place 4",
        "| .  .  . | .  .  . | .  .  . |",
        "| .  7  . | .  8  . | .  9  . |",
        "| .  .  . | .  .  . | .  .  . |",
        "+---------+---------+---------+",
    ]
    assert "fields: none conquered" in lines
    assert lines[-1] == "to move: A Anna"


def test_text_marks_last_move(build, show) -> None:
    text = show(build(Case(("Anna", "Ben"), moves("7 (5,4)"))), "text")
    assert "| .  4  . |[7] 5  . | .  6  . |   4 5 6   4 5 6" in text.splitlines()
    assert "last:   1. A 7 (5,4)" in text
    assert text.count("[") == 1


def test_text_shows_conquests(build, show) -> None:
    text = show(build(CASES["midgame"]), "text")
    lines = text.splitlines()
    assert "+-1-------+=2=[B]===+-3-------+" in lines  # claimed by the last move
    assert "+-7-------+=8=[A]===+-9-------+   (5,4) is field 5, place 4" in lines
    assert "fields: 2 B, 8 A" in lines
    assert "last:   26. B 4 (1,6) !, conquers field 2" in lines
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
    return {m.group(1): m.group(0) for m in re.finditer(r'<td title="(\(\d,\d\))[^"]*"(?: aria-label="[^"]*")? style="[^"]*">', html)}


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
        assert "field 8: A" in board[f"(8,{place})"]
        if place != 6:  # the last move's own highlight wins over the tint
            assert f"background:{tints['B']}" in board[f"(2,{place})"]
    assert "background:" not in board["(5,1)"]  # open field
    assert "To move: A Anna" in html
    assert "Last move: <span" in html and "26. B 4 (1,6) !</span>, conquers field 2" in html


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
    assert data["last"]["move"] == "4 (1,6) !" and data["last"]["told"] == ["conquers field 2"]
    finished = json.loads(show(build(CASES["finished"], "won"), "json"))
    assert finished["over"] is True and finished["winners"] == ["B"] and finished["to_move"] is None


# ---------------------------------------------------------------------------------
# Sudoku Moyo (docs/rules/moyo.md): the same golden infrastructure, with `case.game = "moyo"`.
# The games were found by playing `corr legal --json` moves through the CLI on puzzle 1
# (standard division DLDDNLLDL: A light in fields 2, 6, 7, 9; B dark in 1, 3, 4, 8).

#: Always the first listed legal move; the opening (3.1) fills the Azumaya in 5 moves,
#: and after 42 moves of Horikomi no stone fits anywhere (5.2): B wins with 3 Moyo stones
#: in own Shima against A's 4 (5.3).
MOYO_FIRST = (
    "2 (5,1) | 3 (5,2) | 4 (5,4) | 7 (5,5) | 5 (5,8) | 4 (1,1) | 2 (1,2) | 3 (1,3) | "
    "7 (1,6) | 8 (1,7) | 5 (2,3) | 3 (2,4) | 4 (2,5) | 7 (2,7) | 2 (2,9) | 1 (3,1) | "
    "5 (3,5) | 8 (3,6) | 3 (3,7) | 5 (4,1) | 8 (4,2) | 6 (4,3) | 9 (4,5) | 7 (4,8) | "
    "2 (6,5) | 9 (6,7) | 1 (6,8) | 3 (6,9) | 7 (7,1) | 5 (7,3) | 6 (7,4) | 3 (7,5) | "
    "4 (7,8) | 3 (8,3) | 9 (8,5) | 4 (8,6) | 5 (8,7) | 2 (8,8) | 2 (9,3) | 6 (9,7) | "
    "3 (9,8) | 1 (9,9)"
).split(" | ")
#: Standard rules, the first listed move for the opening and four Shima moves.
MOYO_SHIMA = ("2 (5,1)", "3 (5,2)", "4 (5,4)", "7 (5,5)", "5 (5,8)", "4 (1,1)", "2 (2,2)", "3 (1,2)", "5 (2,3)")
#: Standard rules, A always the first listed move and B the last: after 36 moves A cannot
#: place (4.1) and B wins with 2 victory points: before B's last stone, 8 (1,6), B alone
#: could place it and the 4 that still fits at (1,2) (4.2, revised ruling).
MOYO_FINISHED = (
    "2 (5,1) | 7 (5,9) | 3 (5,2) | 9 (5,8) | 4 (5,4) | 8 (5,5) | 2 (2,2) | 7 (8,8) | "
    "3 (2,3) | 5 (8,7) | 7 (2,4) | 4 (8,6) | 4 (2,5) | 2 (8,3) | 8 (6,2) | 3 (8,1) | "
    "2 (6,5) | 8 (4,8) | 1 (6,7) | 9 (4,5) | 3 (6,8) | 6 (4,3) | 4 (7,1) | 5 (4,1) | "
    "5 (7,3) | 8 (3,9) | 6 (7,4) | 4 (3,7) | 3 (7,5) | 3 (3,6) | 3 (9,7) | 5 (3,5) | "
    "1 (9,8) | 7 (1,7) | 2 (9,9) | 8 (1,6)"
).split(" | ")

MOYO_CASES: dict[str, Case] = {
    "opening": Case(("Anna", "Ben"), (), ("puzzle=1",), "moyo"),
    "shima": Case(("Anna", "Ben"), moves(*MOYO_SHIMA), ("puzzle=1",), "moyo"),
    "finished": Case(("Anna", "Ben"), moves(*MOYO_FINISHED), ("puzzle=1",), "moyo"),
    "horikomi": Case(("Anna", "Ben"), moves(*MOYO_FIRST), ("puzzle=1", "variant=horikomi"), "moyo"),
}


@pytest.mark.parametrize("fmt", list(EXT))
@pytest.mark.parametrize("case", list(MOYO_CASES))
def test_moyo_golden(case: str, fmt: str, build, show) -> None:
    """`corr show` prints exactly the stored Moyo board for each fixed game and format."""
    output = show(build(MOYO_CASES[case]), fmt)
    assert_golden(f"moyo-{case}.{EXT[fmt]}", output)


def test_moyo_goldens_have_no_strays() -> None:
    wanted = {f"moyo-{c}.{e}" for c in MOYO_CASES for e in EXT.values()}
    stray = {p.name for p in GOLDEN.glob("moyo-*")} - wanted
    assert not stray


def moyo_json(build, show, case: str) -> dict:  # type: ignore[type-arg]
    return json.loads(show(build(MOYO_CASES[case]), "json"))


def row_col(place: str) -> tuple[int, int]:
    """"(F,P)" -> (row, column), both 1-9."""
    f, p = int(place[1]), int(place[3])
    return (f - 1) // 3 * 3 + (p - 1) // 3 + 1, (f - 1) % 3 * 3 + (p - 1) % 3 + 1


def recount(board: str) -> tuple[set[tuple[int, int]], dict[int, set[int]], dict[int, set[int]]]:
    """From the 81-character board alone: the Moyo stones (empty, no digit fits) as
    (row, column), and per field the digits it lacks and those with a legal place."""
    grid = [[int(ch) if ch != "." else 0 for ch in board[r * 9 : r * 9 + 9]] for r in range(9)]

    def fits(r: int, c: int, d: int) -> bool:
        box = [grid[i][j] for i in range(r // 3 * 3, r // 3 * 3 + 3) for j in range(c // 3 * 3, c // 3 * 3 + 3)]
        return d not in grid[r] and d not in [grid[i][c] for i in range(9)] and d not in box

    moyo: set[tuple[int, int]] = set()
    lacks: dict[int, set[int]] = {f: set(range(1, 10)) for f in range(1, 10)}
    placeable: dict[int, set[int]] = {f: set() for f in range(1, 10)}
    for r in range(9):
        for c in range(9):
            f = r // 3 * 3 + c // 3 + 1
            lacks[f].discard(grid[r][c])
            if not grid[r][c]:
                ok = {d for d in range(1, 10) if fits(r, c, d)}
                placeable[f] |= ok
                if not ok:
                    moyo.add((r + 1, c + 1))
    return moyo, lacks, placeable


@pytest.mark.parametrize("case", list(MOYO_CASES))
def test_moyo_text_fits_80_columns_in_ascii(case: str, build, show) -> None:
    for line in show(build(MOYO_CASES[case]), "text").splitlines():
        assert len(line) <= 80, line
        assert line.isascii(), line


@pytest.mark.parametrize("case", list(MOYO_CASES))
def test_moyo_json_keys_and_markers_match_the_board(case: str, build, show) -> None:
    """phase, areas, moyo_stones, turned and stones_left agree with a recount from the board
    (1.4, 1.5); victory_points is there exactly when the game is over (4.2)."""
    data = moyo_json(build, show, case)
    for key in ("phase", "areas", "moyo_stones", "turned", "stones_left"):
        assert key in data, key
    assert data["game"] == "moyo" and data["id"] == "moyo-00000000"
    assert data["areas"] == {"1": "B", "2": "A", "3": "B", "4": "B", "5": None, "6": "A", "7": "A", "8": "B", "9": "A"}
    moyo, lacks, placeable = recount(data["board"])
    assert {row_col(p) for p in data["moyo_stones"]} == moyo
    assert len(data["moyo_stones"]) == len(moyo)
    for f in range(1, 10):
        assert set(data["stones_left"][str(f)]) == lacks[f], f
        assert set(data["turned"].get(str(f), [])) == lacks[f] - placeable[f], f
    assert (data["victory_points"] is not None) == data["over"]  # null while the game runs


def test_moyo_phases(build, show) -> None:
    opening = moyo_json(build, show, "opening")
    assert opening["phase"] == "opening" and opening["over"] is False and opening["moyo_stones"] == []
    shima = moyo_json(build, show, "shima")
    assert shima["phase"] == "shima" and shima["to_move"] == "B" and shima["seq"] == len(MOYO_SHIMA)
    assert "phase: shima   Moyo stones: 2" in show(build(MOYO_CASES["shima"]), "text")
    assert "Phase: opening" in show(build(MOYO_CASES["opening"]), "html")


def test_moyo_text_areas_and_owners(build, show) -> None:
    lines = show(build(MOYO_CASES["opening"]), "text").splitlines()
    assert lines[0] == "Sudoku Moyo   moyo-00000000   seq 0"
    assert "+-1-D[B]--+-2-L[A]--+-3-D[B]--+" in lines
    assert "+-4-D[B]--+-5-N-----+-6-L[A]--+   fields  places" in lines
    assert "+-7-L[A]--+-8-D[B]--+-9-L[A]--+   (5,4) is field 5, place 4" in lines
    assert "field 1  dark     B  needs 2 3 4 7 8" in lines
    assert "field 2  light    A  needs 2 3 4 5 6 7" in lines
    assert "field 5  neutral  -  needs 2 3 4 5 7 8 9" in lines
    assert "light: A Anna   dark: B Ben" in lines
    assert lines[-1] == "to move: A Anna"


def test_moyo_html_areas_and_owners(build, show) -> None:
    html = show(build(MOYO_CASES["shima"]), "html")
    assert html.startswith("<!DOCTYPE html>\n<html") and html.endswith("</html>\n") and html.isascii()
    for banned in ("<style", "<script", "<link", "class=", "javascript:", "src=", "url("):
        assert banned not in html
    board = cells(html)
    assert len(board) == 81
    colour = {1: "dark", 2: "light", 3: "dark", 4: "dark", 5: "neutral", 6: "light", 7: "light", 8: "dark", 9: "light"}
    tints: dict[str, set[str]] = {"light": set(), "dark": set(), "neutral": set()}
    last = "(2,3)"  # MOYO_SHIMA's last move has its own highlight
    for f in range(1, 10):
        for p in range(1, 10):
            tag = board[f"({f},{p})"]
            assert f"field {f}: {colour[f]}" in tag, tag
            if f"({f},{p})" != last:
                tints[colour[f]].add(re.search(r"background:(#[0-9a-f]{6})", tag).group(1))  # type: ignore[union-attr]
    assert all(len(t) == 1 for t in tints.values()), tints
    assert len(set().union(*tints.values())) == 3  # three different tints
    assert "light (A)" in html and "dark (B)" in html and ">neutral<" in html


def test_moyo_stones_are_marked(build, show) -> None:
    """Every Moyo stone is a `*` on the text board and a marked cell in HTML (1.5)."""
    path = build(MOYO_CASES["finished"])
    data = json.loads(show(path, "json"))
    text = show(path, "text").splitlines()
    html = show(path, "html")
    board = cells(html)
    assert len(data["moyo_stones"]) == 14
    grid_rows = [line for line in text if line.startswith("|")]
    assert len(grid_rows) == 9
    for place in data["moyo_stones"]:
        r, c = row_col(place)
        row = grid_rows[r - 1]
        assert row[2 + 3 * (c - 1) + (c - 1) // 3] == "*", (place, row)
        assert ", Moyo stone" in board[place]
    assert sum(line.count("*") for line in grid_rows) == 14
    assert html.count(", Moyo stone\"") == 14 and html.count("&#9679;") == 14
    assert "phase: shima   Moyo stones: 14" in text
    assert "field 1  dark     B  needs 2 3 4             turned 2 3" in text


def test_moyo_finished_shows_victory_points(build, show) -> None:
    path = build(MOYO_CASES["finished"])
    data = json.loads(show(path, "json"))
    assert data["over"] is True and data["winners"] == ["B"] and data["to_move"] is None
    assert data["victory_points"] == {"A": 0, "B": 2} and data["scores"] == {"A": 0, "B": 2}
    # 4.2 (revised ruling), recounted: after the last stone B's Shima has one stone left
    # to place, the 4 at (1,2); before it B had that one and its last stone, 8 (1,6)
    _, _, placeable = recount(data["board"])
    assert {f: placeable[f] for f in (1, 3, 4, 8) if placeable[f]} == {1: {4}}
    assert sum(len(placeable[f]) for f in (2, 6, 7, 9)) == 0  # A on turn cannot place (4.1)
    assert data["last"]["by"] == "B" and data["last"]["move"] == "8 (1,6)"
    text = show(path, "text")
    assert "* B  Ben    2 victory points" in text and "  A  Anna   0 victory points" in text
    assert text.endswith("game over: B Ben wins with 2 victory points\n")
    assert "end:   A cannot place a stone (4.1): B wins with 2 victory" in text
    html = show(path, "html")
    assert "Victory points: A 0, B 2" in html
    assert "Game over: B Ben wins with 2 victory points" in html


def test_moyo_end_text_names_the_victory_points(build, show) -> None:
    data = json.loads(show(build(MOYO_CASES["finished"]), "json"))
    assert data["end"].endswith("B wins with 2 victory points (4.2)")  # 1: "1 victory point", tests/test_moyo.py


def test_moyo_horikomi_counts_moyo_stones(build, show) -> None:
    """5.2 / 5.3: the game ends when no stone fits anywhere; fewest Moyo stones in one's
    own Shima wins - recounted here from the board and the areas."""
    path = build(MOYO_CASES["horikomi"])
    data = json.loads(show(path, "json"))
    assert data["over"] is True and data["variant"] == "horikomi"
    moyo, _, placeable = recount(data["board"])
    assert not any(placeable.values())  # 5.2: no stone can be placed anywhere
    own = {"A": 0, "B": 0}
    for r, c in moyo:
        owner = data["areas"][str((r - 1) // 3 * 3 + (c - 1) // 3 + 1)]
        if owner:
            own[owner] += 1
    assert own == {"A": 4, "B": 3} and data["scores"] == own
    assert data["winners"] == ["B"]
    assert data["end"] == "no stone fits anywhere (5.2); Moyo stones in own Shima A 4, B 3: B wins (5.3)"
    text = show(path, "text")
    assert "* B  Ben    3 Moyo stones" in text and "  A  Anna   4 Moyo stones" in text
    assert "phase: shima   variant: Horikomi   Moyo stones: 9" in text
    assert text.endswith("game over: B Ben wins with 3 Moyo stones\n")
    html = show(path, "html")
    assert "Horikomi" in html and "Moyo stones: 9, at " in html
    assert "Victory points:" not in html


# The card game, Domino (alone and a duel) and War: a few moves each, played through the
# CLI on the deal the pinned game id gives, with a name that HTML must escape. Each is
# pinned as the public sees it and as seat A does (its own card; its own duel board).
def by_seat(*moves: tuple[str, str]) -> tuple[tuple[str, ...], ...]:
    """CLI steps that play each (seat, move) in turn."""
    return tuple(("move", m, "--by", seat) for seat, m in moves)


HOSTILE = ("Anna", 'Ben <b>&</b> "Co"')
GAME_CASES: dict[str, Case] = {
    "cards": Case(HOSTILE, by_seat(
        ("A", "2 (5,1)"), ("B", "7 (5,4)"), ("A", "4 (2,5)"), ("B", "8 (6,9)"), ("A", "5 (7,6)"),
        ("B", "2 (1,5)"), ("A", "5 (3,1)"), ("B", "4 (3,3)"), ("A", "8 (1,2)")), game="cards"),
    "domino-solo": Case(HOSTILE[:1], by_seat(
        ("A", "grey (8,2)"), ("A", "grey (3,4)"), ("A", "1 (5,6)"), ("A", "gold (3,9)"), ("A", "grey (6,6)"),
        ("A", "grey (7,4)"), ("A", "1 (9,1)")), game="domino"),
    "domino-duel": Case(HOSTILE, by_seat(
        ("A", "grey (8,2)"), ("B", "gold (1,2)"), ("A", "1 (5,6)"), ("B", "gold (3,7)"), ("A", "grey (4,4)"),
        ("B", "grey (9,3)"), ("A", "1 (9,1)"), ("B", "1 (6,3)")), game="domino"),
    "war": Case(HOSTILE, by_seat(
        ("A", "3 (8,6)-(8,3)"), ("B", "7 (2,4)-(2,7)"), ("A", "2 (7,4)-(7,1)"), ("B", "7 (2,7)-(5,1)"),
        ("A", "7 (9,5)-(9,1)"), ("B", "9 (2,5)-(2,4)"), ("A", "7 (9,1)-(6,7)"), ("B", "N (2,1)-(2,8)"),
        ("A", "7 (6,7)-(9,2)"), ("B", "S (1,1)-(1,8)"), ("A", "1 (8,5)-(8,1)")), game="war"),
}
#: The views each game case is pinned in: the public's, and seat A's.
VIEWS = {"": (), "-A": ("--for", "A")}


@pytest.mark.parametrize("case", list(GAME_CASES))
def test_every_game_golden(case: str, build, corr) -> None:
    """`corr show` prints exactly the stored text and HTML boards of the card game,
    Domino and War, publicly and to seat A, at a frozen time (Domino's clock runs)."""
    path = build(GAME_CASES[case])  # one test a case: the dealer's secret beside its log is made here
    with freeze_time("2026-01-02 03:07:35"):
        for suffix, view in VIEWS.items():
            for fmt in ("text", "html"):
                result = corr("show", path, "--format", fmt, *view)
                assert result.code == 0, result.err
                assert_golden(f"{case}{suffix}.{EXT[fmt]}", result.out)


def test_every_game_html_escapes_names(build, corr) -> None:
    """A name from the log stays escaped on every game's HTML board, wherever it stands."""
    for name in ("cards", "domino-duel", "war"):
        html = corr("show", build(GAME_CASES[name]), "--format", "html").out
        assert "<b>&" not in html and '"Co"' not in html, name
        assert "Ben &lt;b&gt;&amp;&lt;/b&gt; &#34;Co&#34;" in html, name


def test_every_game_goldens_have_no_strays() -> None:
    wanted = {f"{c}{s}.{e}" for c in GAME_CASES for s in VIEWS for e in ("txt", "html")}
    stray = {p.name for game in ("cards", "domino", "war") for p in GOLDEN.glob(f"{game}*")} - wanted
    assert not stray
