"""`corr play` in a real pseudo-terminal: prompts, moves, the computer, quitting, a clock."""

from __future__ import annotations

import json
import os
import re
import select
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a POSIX pseudo-terminal")


#: `python -m corr` in a Python without readline (an import of it fails, as on Windows).
NO_READLINE = "import runpy, sys; sys.modules['readline'] = None; runpy.run_module('corr', run_name='__main__')"


class Terminal:
    """`corr ARGS` running in a pseudo-terminal, read and typed into like a person would."""

    def __init__(self, *args: str | Path, cwd: Path, env: dict[str, str] | None = None, readline: bool = True) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the terminal's program
            os.chdir(cwd)
            environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
            environ.update({"TERM": "xterm-256color", **(env or {})})
            # without readline: as on Windows, where Python has none
            start = ["-m", "corr"] if readline else ["-c", NO_READLINE]
            os.execvpe(sys.executable, [sys.executable, *start, *map(str, args)], environ)
        self.seen = ""

    def expect(self, pattern: str, timeout: float = 20) -> re.Match[str]:
        """Read until `pattern` turns up in what the terminal shows (colour codes kept)."""
        end = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.seen)
            if found:
                self.seen = self.seen[found.end():]
                return found
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {pattern!r} within {timeout} s; the terminal shows:\n{self.seen[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the program ended and the terminal closed
                    chunk = b""
                if not chunk:
                    found = re.search(pattern, self.seen)
                    if found:
                        continue
                    raise AssertionError(f"the program ended before {pattern!r}:\n{self.seen[-2000:]}")
                self.seen += chunk.decode("utf-8", "replace")

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def exit_code(self, timeout: float = 20) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:  # keep draining, so the program never blocks on a full terminal
                if select.select([self.fd], [], [], 0.05)[0]:
                    self.seen += os.read(self.fd, 65536).decode("utf-8", "replace")
            except OSError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        raise AssertionError("the program did not end")


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


@pytest.fixture
def combat(tmp_path: Path, corr) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.corr"
    assert corr("new", "combat", path, "--player", "Anna", "--player", "Ben", "--format", "none").code == 0
    return path


def test_play_shows_the_board_takes_moves_and_the_computer_answers(combat: Path, tmp_path: Path) -> None:
    term = Terminal("play", combat, "--bot", "B=random", cwd=tmp_path)
    term.expect(r"A Anna> ")
    term.type("legal")
    term.expect(r"moves 1-64 of \d+:")
    term.type("7 (8,7)")
    term.expect(r"B Ben \(computer, random\) plays \d \(\d,\d\)")
    term.expect(r"A Anna> ")
    assert [r["by"] for r in records(combat)] == ["A", "B"]  # in the file at once
    term.type("quit")
    assert term.exit_code() == 0
    assert [r["by"] for r in records(combat)] == ["A", "B"]


def test_a_refused_move_says_why_and_the_prompt_comes_back(combat: Path, tmp_path: Path) -> None:
    term = Terminal("play", combat, "--bot", "B=random", cwd=tmp_path)
    term.expect(r"A Anna> ")
    term.type("xx")
    term.expect(r"refused: bad notation 'xx'")
    term.expect(r"A Anna> ")
    term.type("help")
    term.expect(r"hint\s+the strong computer's move")
    term.type("quit")
    assert term.exit_code() == 0
    assert records(combat) == []


def test_quitting_in_the_middle_loses_nothing_and_a_new_session_goes_on(combat: Path, tmp_path: Path) -> None:
    term = Terminal("play", combat, "--as", "A", cwd=tmp_path)
    term.expect(r"A Anna> ")
    term.type("7 (8,7)")
    term.expect(r"B Ben to move: send them")  # only A is played here: the session stops
    assert term.exit_code() == 0
    term = Terminal("play", combat, "--as", "B", cwd=tmp_path)
    term.expect(r"B Ben> ")
    os.kill(term.pid, 9)  # a crash at the prompt
    os.waitpid(term.pid, 0)
    assert [r["move"] for r in records(combat)] == ["7 (8,7)"]


def test_play_is_coloured_on_a_terminal_and_plain_with_no_color(combat: Path, tmp_path: Path) -> None:
    term = Terminal("play", combat, "--as", "A", cwd=tmp_path, env={})
    term.expect(r"\x1b\[")
    term.type("quit")
    assert term.exit_code() == 0
    term = Terminal("play", combat, "--as", "A", cwd=tmp_path, env={"NO_COLOR": "1"})
    term.expect(r"A Anna> ")
    assert "\x1b[" not in term.seen
    term.type("quit")
    assert term.exit_code() == 0


@pytest.mark.parametrize("readline", [True, False], ids=["readline", "no-readline"])
def test_domino_6_1_the_clock_runs_at_the_prompt_and_ends_the_game(tmp_path: Path, corr, readline: bool) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "domino.corr"
    r = corr("new", "domino", path, "--player", "Anna", "-o", "time_limit=3", "--format", "none")
    assert r.code == 0, r.err
    term = Terminal("play", path, cwd=tmp_path, readline=readline)
    term.expect(r"A Anna \[0:0\d left\]> ")
    term.expect(r"time is up \(domino 6\.1\)", timeout=10)  # nobody typed: the clock ended it
    term.expect(r"game over")
    assert term.exit_code() == 0
    assert [r["type"] for r in records(path)][-1] == "reveal"  # the dealer revealed the seed (7.2)


def test_play_answers_for_the_computer_seats_the_game_was_made_with(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "vs.corr"
    r = corr("new", "combat", path, "--player", "Anna", "--player", "Computer", "--bot", "B=greedy", "--format", "none")
    assert r.code == 0, r.err
    term = Terminal("play", path, cwd=tmp_path)
    term.expect(r"A Anna> ")
    term.type("7 (8,7)")
    term.expect(r"B Computer \(computer, greedy\) plays ")
    term.expect(r"A Anna> ")
    term.type("hint")
    term.expect(r"hint: \d \(\d,\d\)")
    term.type("quit")
    assert term.exit_code() == 0
    assert [r["by"] for r in records(path)] == ["A", "B"]


UP, LEFT = "\x1b[A", "\x1b[D"


def test_play_edits_a_line_and_recalls_the_last_with_the_arrows(combat: Path, tmp_path: Path) -> None:
    term = Terminal("play", combat, "--as", "A", cwd=tmp_path, env={"NO_COLOR": "1"})
    term.expect(r"A Anna> ")
    term.type("legal 5")
    term.expect(r"56 moves in field 5:")
    term.expect(r"A Anna> ")
    term.type(UP)  # the line before, again
    term.expect(r"56 moves in field 5:")
    term.expect(r"A Anna> ")
    term.type(f"3 (1,){LEFT}1")  # the place, typed in after the closing bracket
    term.expect(r"A Anna plays 3 \(1,1\)")
    assert "bad notation" not in term.seen and "ignored" not in term.seen
    term.expect(r"B Ben to move")
    assert term.exit_code() == 0
    assert [r["move"] for r in records(combat)] == ["3 (1,1)"]


def test_play_says_the_keys_where_lines_are_edited(combat: Path, tmp_path: Path) -> None:
    term = Terminal("play", combat, "--as", "A", cwd=tmp_path)
    term.expect(r"A Anna> ")
    term.type("help")
    term.expect(r"Up and Down recall earlier lines")
    term.type("quit")
    term.expect(r"game kept in \S*game\.corr; go on with: corr play \S*game\.corr --as A\r?\n")
    assert term.exit_code() == 0


def test_play_without_readline_calls_an_arrow_no_bad_notation(combat: Path, tmp_path: Path) -> None:
    """As on Windows: no line editing, the arrow's codes arrive as typed, and are ignored."""
    term = Terminal("play", combat, "--as", "A", cwd=tmp_path, readline=False)
    term.expect(r"A Anna> ")
    term.type(UP)
    term.expect(r"ignored a special key \(an arrow, Home, a function key\): lines are not edited or recalled here")
    assert "bad notation" not in term.seen
    term.expect(r"A Anna> ")
    term.type("help")
    term.expect(r"quit\s+leave")
    assert "Up and Down" not in term.seen
    term.type("7 (8,7)")
    term.expect(r"A Anna plays 7 \(8,7\)")
    assert term.exit_code() == 0
    assert [r["move"] for r in records(combat)] == ["7 (8,7)"]
