"""Colour on a terminal (corr.term): on only where it is wanted, and with it off the
boards are byte for byte the plain ones."""

from __future__ import annotations

import errno
import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from conftest import Run
from corr import term

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LOGS = sorted(EXAMPLES.glob("*.corr"))
ESC = "\x1b["


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal settings of whoever runs the tests must not decide what they see."""
    for var in ("NO_COLOR", "FORCE_COLOR", "CORR_ME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")


def sgr(*styles: str) -> str:
    return f"{ESC}{term.codes(*styles)}m"


def middle(log: Path) -> int:
    return len(log.read_text().splitlines()) // 2


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_colour_only_adds_codes_to_every_board(log: Path, corr: Callable[..., Run]) -> None:
    for at in ("0", str(middle(log)), None):
        args = ("show", log) if at is None else ("show", log, "--at", at)
        plain = corr(*args).out  # not a terminal: auto is off
        assert ESC not in plain
        assert corr(*args, "--color", "never").out == plain
        coloured = corr(*args, "--color", "always").out
        assert ESC in coloured
        assert term.strip(coloured) == plain


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_replay_in_colour_is_the_plain_replay_with_codes(log: Path, corr: Callable[..., Run]) -> None:
    plain = corr("replay", log).out
    coloured = corr("replay", log, "--color", "always").out
    assert ESC not in plain and ESC in coloured
    assert term.strip(coloured) == plain


def test_every_seat_has_its_own_colour() -> None:
    colours = [term.SEAT_COLOURS[s] for s in "ABCDEF"]
    assert len(set(colours)) == 6


def test_the_last_move_and_the_seats_are_marked(corr: Callable[..., Run]) -> None:
    log = EXAMPLES / "combat-4p.corr"
    shown = json.loads(corr("show", log, "--at", "20", "--format", "json").out)
    board = corr("show", log, "--at", "20", "--color", "always").out
    assert sgr("last") + "[" in board  # the last tile, bold and reversed
    for field, seat in shown["conquered"].items():
        assert f"{sgr(seat)}={field}=[{seat}]" in board  # a conquered field's border, in its owner's colour
    to_move = shown["to_move"]
    assert f"to move: {sgr(to_move)}{to_move} " in board


def test_moyo_shows_light_and_dark_areas(corr: Callable[..., Run]) -> None:
    board = corr("show", EXAMPLES / "moyo-standard.corr", "--at", "10", "--color", "always").out
    assert sgr("light") in board and sgr("dark") in board
    assert f"{sgr('light')}light{term.RESET}: " in board and f"{sgr('dark')}dark{term.RESET}: " in board


def test_a_move_prints_its_board_in_colour(tmp_path: Path, corr: Callable[..., Run]) -> None:
    game = tmp_path / "game.corr"
    assert corr("new", "combat", game, "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    coloured = corr("move", game, "7 (5,4)", "--color", "always").out
    assert sgr("last") + "[7]" + term.RESET in coloured
    plain = corr("move", game, "8 (4,6)", "--color", "never").out
    assert ESC not in plain
    assert term.strip(corr("show", game, "--at", "1", "--color", "always").out) == corr("show", game, "--at", "1").out
    assert corr("move", game, "6 (8,4)", "--color", "always", "--format", "json").out.startswith("{")


def test_a_bad_color_is_refused_before_the_move(tmp_path: Path, corr: Callable[..., Run]) -> None:
    game = tmp_path / "game.corr"
    assert corr("new", "combat", game, "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    before = game.read_bytes()
    result = corr("move", game, "7 (5,4)", "--color", "rainbow")
    assert result.code == 1 and result.out == ""
    assert result.err == "corr: error: --color 'rainbow': say auto, always or never\n"
    assert game.read_bytes() == before


def test_a_refusal_off_a_terminal_stays_plain(tmp_path: Path, corr: Callable[..., Run]) -> None:
    game = tmp_path / "game.corr"
    assert corr("new", "combat", game, "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    assert corr("move", game, "7 (5,4)", "--format", "none").code == 0
    result = corr("move", game, "7 (5,6)")
    assert result.code == 1 and ESC not in result.err
    assert result.err.startswith("corr: error: combat 2.2: 7 at (5,6) breaks the Sudoku rule")


@pytest.fixture
def tty() -> object:
    """A real pseudo-terminal's slave end as a text stream."""
    master, slave = os.openpty()
    stream = open(slave, "w")
    yield stream
    stream.close()
    os.close(master)


def test_auto_follows_the_terminal_and_no_color(tty, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert term.wanted("auto", tty) is True
    with open(tmp_path / "file", "w") as not_a_tty:
        assert term.wanted("auto", not_a_tty) is False
        assert term.wanted("always", not_a_tty) is True
    monkeypatch.setenv("NO_COLOR", "")  # empty: no effect (no-color.org)
    assert term.wanted("auto", tty) is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert term.wanted("auto", tty) is False
    assert term.wanted("always", tty) is True
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert term.wanted("auto", tty) is False
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert term.wanted("auto", tty) is True
    with open(tmp_path / "file", "w") as not_a_tty:
        assert term.wanted("auto", not_a_tty) is True
        assert term.wanted("never", not_a_tty) is False
    monkeypatch.setenv("FORCE_COLOR", "0")
    assert term.wanted("auto", tty) is False  # TERM is still dumb


def run_in_pty(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """`corr ARGS` with stdout and stderr on a real pseudo-terminal: its exit code and
    everything it wrote there (the terminal turns newlines into CR LF)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "corr", *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, env=env, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError as err:  # EIO: the child closed the terminal
            if err.errno != errno.EIO:
                raise
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    code = proc.wait(timeout=60)
    return code, b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.fixture
def pty_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CORR_ME")}
    env.update(TERM="xterm-256color", CORR_CACHE_DIR=str(tmp_path / "cache"))
    return env


def test_show_on_a_real_terminal_is_coloured(tmp_path: Path, pty_env: dict[str, str],
                                              corr: Callable[..., Run]) -> None:
    log = shutil.copy(EXAMPLES / "moyo-standard.corr", tmp_path / "game.corr")
    code, shown = run_in_pty(["show", str(log), "--at", "12"], pty_env)
    assert code == 0
    assert ESC in shown and sgr("last") in shown
    plain = corr("show", log, "--at", "12").out
    assert term.strip(shown) == plain
    code, shown = run_in_pty(["show", str(log), "--at", "12"], {**pty_env, "NO_COLOR": "1"})
    assert code == 0 and shown == plain
    code, shown = run_in_pty(["show", str(log), "--at", "12", "--color", "never"], pty_env)
    assert code == 0 and shown == plain


def test_status_on_a_real_terminal_colours_your_turn(tmp_path: Path, pty_env: dict[str, str],
                                                     corr: Callable[..., Run]) -> None:
    assert corr("new", "combat", tmp_path / "mine.corr", "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    shutil.copy(EXAMPLES / "war-pieces.corr", tmp_path)
    code, out = run_in_pty(["status", str(tmp_path), "--me", "anna"], pty_env)
    assert code == 0
    first, second = out.splitlines()
    assert first.startswith(sgr("you", "A") + "* mine.corr") and first.endswith(term.RESET)
    assert ESC not in second
    assert term.strip(out) == corr("status", tmp_path, "--me", "anna").out


def test_a_refusal_on_a_terminal_shows_the_clashing_tile(tmp_path: Path, pty_env: dict[str, str],
                                                         corr: Callable[..., Run]) -> None:
    game = tmp_path / "game.corr"
    assert corr("new", "combat", game, "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    assert corr("move", game, "7 (5,4)", "--format", "none").code == 0
    before = game.read_bytes()
    code, err = run_in_pty(["move", str(game), "7 (5,6)"], pty_env)
    assert code == 1 and game.read_bytes() == before
    assert err == ("corr: error: combat 2.2: 7 at (5,6) breaks the Sudoku rule: a 7 already stands at "
                   f"{sgr('clash')}(5,4){term.RESET} in row 5 and field 5\n")
    code, err = run_in_pty(["move", str(game), "7 (5,6)"], {**pty_env, "NO_COLOR": "1"})
    assert code == 1 and ESC not in err
