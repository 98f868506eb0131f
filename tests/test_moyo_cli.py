"""Bad input for Sudoku Moyo through the command line (rules/moyo.md; DESIGN.md 9).

Each refusal is exit 1 with one stderr line `corr: error: ...` naming the problem and the
rule, no traceback, and the log byte-for-byte unchanged (or, for `new`, no file at all).
Positions are real games on appendix puzzle 1, standard division DLDDNLLDL: A is light
in fields 2, 6, 7, 9, B dark in 1, 3, 4, 8; A moves first. The five moves of OPENING are
the first listed legal moves and fill the Azumaya as far as it goes (3.1); then B is on
turn in the Shima phase.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

OPENING = ("2 (5,1)", "3 (5,2)", "4 (5,4)", "7 (5,5)", "5 (5,8)")
PUZZLE_1 = "...8....916...92...59.1..6......17.43.1...5.62.46......1..6.89...21...759....8..."


def assert_error(r, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Exit 1, exactly one stderr line `corr: error: ...` holding every word."""
    assert r.code == 1, f"exit {r.code}, expected 1; stderr: {r.err!r}"
    assert "Traceback" not in r.err and "Traceback" not in r.out
    assert r.err.startswith("corr: error: "), r.err
    assert r.err.endswith("\n") and r.err.count("\n") == 1, f"not one line: {r.err!r}"
    for word in words:
        assert word in r.err, f"{word!r} not in {r.err!r}"


@pytest.fixture
def moyo(tmp_path: Path, corr) -> Callable[..., Path]:  # type: ignore[no-untyped-def]
    """A Moyo game on puzzle 1 with the given moves played (each must be accepted)."""

    def make(*moves: str, options: tuple[str, ...] = (), name: str = "moyo") -> Path:
        path = tmp_path / f"{name}.corr"
        args: list[str] = ["new", "moyo", str(path), "-p", "Anna", "-p", "Ben", "-o", "puzzle=1"]
        for opt in options:
            args += ["-o", opt]
        r = corr(*args, "--format", "none")
        assert r.code == 0, r.err
        for m in moves:
            r = corr("move", path, m, "--format", "none")
            assert r.code == 0, f"{m}: {r.err}"
        return path

    return make


def refused_move(corr, path: Path, move: str, *words: str) -> None:  # type: ignore[no-untyped-def]
    before = path.read_bytes()
    assert_error(corr("move", path, move), *words)
    assert path.read_bytes() == before, "the log changed"


def phase(corr, path: Path) -> str:  # type: ignore[no-untyped-def]
    r = corr("show", path, "--format", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)["phase"]


def new_refused(corr, tmp_path: Path, *options: str, words: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """`corr new moyo` with these options fails and creates no file."""
    path = tmp_path / "new.corr"
    args: list[str] = ["new", "moyo", str(path), "-p", "A", "-p", "B"]
    for opt in options:
        args += ["-o", opt]
    assert_error(corr(*args), *words)
    assert not path.exists(), "a log was created"
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------
# Moves


def test_digit_the_area_no_longer_lacks(corr, moyo) -> None:
    """3.3: field 1 (B's) already has its 6 at (1,5), so it has no 6 stone left."""
    path = moyo(*OPENING)
    assert phase(corr, path) == "shima"
    refused_move(corr, path, "6 (1,1)", "moyo 3.3", "field 1", "no longer has a 6", "(1,5)")


def test_digit_the_azumaya_no_longer_lacks(corr, moyo) -> None:
    """3.3 in the opening: the Azumaya's 1 is a given at (5,3)."""
    path = moyo()
    refused_move(corr, path, "1 (5,1)", "moyo 3.3", "Azumaya", "no longer has a 1", "(5,3)")


def test_own_shima_play_into_the_azumaya_after_the_opening(corr, moyo) -> None:
    """3.2: after the opening stones go into a Shima; the Azumaya still lacks an 8."""
    path = moyo(*OPENING)
    refused_move(corr, path, "8 (5,6)", "moyo 3.2", "opening is over", "Azumaya")


def test_place_outside_the_azumaya_during_the_opening(corr, moyo) -> None:
    """3.1: 4 (1,1) is B's first legal Shima move later, but not while the Azumaya has room."""
    path = moyo("2 (5,1)")
    assert phase(corr, path) == "opening"
    refused_move(corr, path, "4 (1,1)", "moyo 3.1", "Azumaya", "(1,1)", "field 1")


def test_opponents_shima_outside_horikomi(corr, moyo) -> None:
    """3.2: B may not place into A's field 2 in a standard game ..."""
    path = moyo(*OPENING)
    refused_move(corr, path, "2 (2,2)", "moyo 3.2", "A's Shima", "field 2", "Horikomi")


def test_opponents_shima_accepted_in_horikomi(corr, moyo) -> None:
    """... but may in Horikomi (5.1), using field 2's stones."""
    path = moyo(*OPENING, options=("variant=horikomi",), name="horikomi")
    before = path.read_bytes()
    r = corr("move", path, "2 (2,2)", "--format", "json")
    assert r.code == 0, r.err
    assert path.read_bytes() != before
    data = json.loads(corr("show", path, "--format", "json").out)
    assert data["last"]["by"] == "B" and data["last"]["move"] == "2 (2,2)"
    assert 2 not in data["stones_left"]["2"]


def test_shima_pick_during_the_opening(corr, moyo) -> None:
    """2.3: `shima F` is a draft pick, and this game's division is fixed."""
    path = moyo()
    refused_move(corr, path, "shima 1", "moyo 2.3", "draft")


# ---------------------------------------------------------------------------------
# New games and puzzles


def test_puzzle_too_short(corr, tmp_path: Path) -> None:
    new_refused(corr, tmp_path, "puzzle=123", words=("puzzle", "81 characters", "3"))


def test_puzzle_with_a_letter(corr, tmp_path: Path) -> None:
    bad = PUZZLE_1[:40] + "x" + PUZZLE_1[41:]
    new_refused(corr, tmp_path, f"puzzle={bad}", words=("puzzle", "41", "'x'"))


@pytest.mark.parametrize("division", ["LLLLNDDDX", "LLLLLDDDD"])
def test_division_with_the_wrong_letters(corr, tmp_path: Path, division: str) -> None:
    new_refused(corr, tmp_path, "puzzle=1", f"division={division}", words=("division", division))


def test_missing_puzzle(corr, tmp_path: Path) -> None:
    new_refused(corr, tmp_path, words=("puzzle", "2.1"))


def test_no_such_appendix_puzzle(corr, tmp_path: Path) -> None:
    new_refused(corr, tmp_path, "puzzle=7", words=("puzzle 7", "1-6"))


def test_puzzle_check_refuses_a_clash(corr) -> None:
    """Puzzle 1 with 1s at (1,1) and (1,2): two 1s in row 1 (and field 1)."""
    clash = "11" + PUZZLE_1[2:]
    assert_error(corr("puzzle", "check", clash), "clash", "(1,1)", "(1,2)")
    assert_error(corr("puzzle", "check", clash, "--json"), "clash")


def test_new_game_refuses_a_clash(corr, tmp_path: Path) -> None:
    new_refused(corr, tmp_path, "puzzle=11" + PUZZLE_1[2:], words=("clash", "(1,1)"))
