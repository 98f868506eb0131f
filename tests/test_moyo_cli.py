"""Bad input for Sudoku Moyo through the command line (docs/rules/moyo.md; DESIGN.md 9).

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


# ---------------------------------------------------------------------------------
# Refusals name their rule


def test_moyo_2_3_a_draft_pick_out_of_turn(corr, moyo) -> None:
    """2.3: A picks one, then B two: A's second pick comes too early."""
    path = moyo("shima 1", options=("division=draft",), name="draft")
    before = path.read_bytes()
    assert_error(corr("move", path, "shima 2", "--by", "A"), "moyo 2.3", "B's turn")
    assert path.read_bytes() == before


def test_moyo_2_4_a_move_out_of_turn_during_the_handicap(corr, moyo) -> None:
    """2.4: the weaker seat (B) places its two handicap stones in a row."""
    path = moyo(options=("handicap=2", "handicap_by=B"), name="handicap")
    assert_error(corr("move", path, "2 (5,1)", "--by", "A"), "moyo 2.4", "B's turn")


def test_moyo_4_1_a_move_after_the_end(corr, tmp_path: Path) -> None:
    """4.1: the last empty place, in A's Shima, is filled: B cannot place and the game is over."""
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    path = tmp_path / "end.corr"
    puzzle = solved[:3] + "." + solved[4:]  # (2,1): r1c4, a 6
    assert corr("new", "moyo", path, "-p", "Anna", "-p", "Ben", "-o", f"puzzle={puzzle}", "-f", "none").code == 0
    assert corr("move", path, "6 (2,1)", "-f", "none").code == 0
    refused_move(corr, path, "1 (1,1)", "moyo 4.1", "game is over")


def test_moyo_5_2_a_move_after_the_horikomi_end(corr, tmp_path: Path) -> None:
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    path = tmp_path / "end.corr"
    puzzle = "." + solved[1:]  # (1,1), in B's Shima: in Horikomi A may fill it
    assert corr("new", "moyo", path, "-p", "Anna", "-p", "Ben", "-o", f"puzzle={puzzle}", "-o", "variant=horikomi",
                "-f", "none").code == 0
    assert corr("move", path, "5 (1,1)", "-f", "none").code == 0
    refused_move(corr, path, "1 (2,1)", "moyo 5.2", "game is over")


def test_moyo_3_3_a_challenge_is_refused_moyo_has_none(corr, moyo) -> None:
    path = moyo("2 (5,1)")
    before = path.read_bytes()
    assert_error(corr("challenge", path, "--by", "B"), "moyo 3.3", "no challenges")
    assert path.read_bytes() == before


# ---------------------------------------------------------------------------------
# A forfeited game shows like any other (4.3 rulings)


@pytest.fixture
def rita(tmp_path: Path, corr) -> Path:  # type: ignore[no-untyped-def]
    assert corr("key", "new", "--out", tmp_path / "rita").code == 0
    return tmp_path / "rita.key"


def test_moyo_4_3_a_game_lost_by_a_ruling_shows_the_board_the_winner_and_how(corr, tmp_path: Path, rita: Path) -> None:
    path = tmp_path / "ruled.corr"
    assert corr("new", "moyo", path, "-p", "Anna", "-p", "Ben", "-o", "puzzle=1", "--referee", "Rita <r@example.org>",
                "--referee-key", rita.with_suffix(".pub"), "-f", "none").code == 0
    for move in OPENING:
        assert corr("move", path, move, "-f", "none").code == 0
    ruled = corr("referee", "rule", path, "--seq", "5", "--forfeit", "B", "--reason", "B left", "--sign", rita)
    assert ruled.code == 0, ruled.err
    data = json.loads(corr("show", path, "--format", "json").out)
    assert data["over"] and data["winners"] == ["A"] and data["forfeit"] == {"seat": "B", "cause": "by a ruling"}
    from corr import engine

    rep = engine.load(path)
    points = rep.game.alone(rep.state, "A")
    text = corr("show", path).out
    assert ruled.out == text  # the ruling prints the board it leaves
    assert "B Ben lost by a ruling" in text and f"game over: A Anna wins with {points} victory points" in text
    assert f"* A  Anna  {points:2d} victory points" in text and "  B  Ben    0 victory points" in text
    assert "end:   B lost by a ruling: A wins with" in text and "|" in text  # and the board
    assert all(len(line) <= 80 for line in text.splitlines())
    html = corr("show", path, "--format", "html").out
    assert "B Ben lost by a ruling." in html and f"Victory points: A {points}, B 0" in html


def test_moyo_4_3_a_game_lost_on_time_shows_too(corr, tmp_path: Path) -> None:
    from freezegun import freeze_time

    path = tmp_path / "timed.corr"
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        assert corr("new", "moyo", path, "-p", "Anna", "-p", "Ben", "-o", "puzzle=1", "-o", "variant=horikomi",
                    "--time", "per-move:1", "-f", "none").code == 0
        assert corr("move", path, "2 (5,1)", "-f", "none").code == 0
        frozen.move_to("2026-03-03T12:00:00Z")  # B is a day late
        claimed = corr("claim-timeout", path, "--by", "A")
        assert claimed.code == 0, claimed.err
        text = corr("show", path).out
        html = corr("show", path, "--format", "html").out
    assert "B Ben lost on time" in text and "game over: A Anna wins with 0 Moyo stones" in text
    assert "end:   B lost on time: A wins; Moyo stones in own Shima A 0, B" in text
    assert "B Ben lost on time." in html
