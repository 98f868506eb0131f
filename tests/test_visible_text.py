"""Text from a player, a referee or a log reaches the terminal with its control
characters made visible (`corr.names.visible`): a name's OSC 52 (a clipboard write) and
BEL, a ruling's reason with an escape and a newline that would print a fake
`result: B wins` line. `visible` itself, then black-box through the CLI on real games."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

from corr.names import visible

Corr = Callable[..., Run]

# ---------------------------------------------------------------------------------
# visible itself


@pytest.mark.parametrize("text, shown", [
    ("Anna\x1b]52;c;aGk=\x07", "Anna\\x1b]52;c;aGk=\\x07"),  # OSC 52: a clipboard write, ended by BEL
    ("fine\nresult: B wins", "fine\\nresult: B wins"),
    ("a\tb\rc\x00d\x7fe", "a\\tb\\rc\\x00d\\x7fe"),
    ("C1 \x85 \x9b", "C1 \\x85 \\x9b"),  # NEL and the one-byte CSI
    ("line\u2028para\u2029", "line\\u2028para\\u2029"),  # Zl, Zp
    ("\u202eevil \u200b\ufeff", "\\u202eevil \\u200b\\ufeff"),  # Cf: a bidi override, zero-width ones
    ("tag \U000e0041", "tag \\U000e0041"),  # Cf beyond the BMP
    ("lone \ud800", "lone \\ud800"),  # Cs: a lone surrogate, which no terminal could even be sent
])
def test_visible_writes_each_control_character_as_its_escape(text: str, shown: str) -> None:
    assert visible(text) == shown
    assert not [ch for ch in visible(text) if unicodedata.category(ch)[0] == "C"]


@pytest.mark.parametrize("text", ["Anna", "Юлия Смирнова", "山田太郎", "Zoë Ågren", "😀 Dara", "a\\x1b b", "", " ",
                                  "\u00a0no-break", "e\u0301"])
def test_visible_leaves_printable_text_of_any_script_as_it_is(text: str) -> None:
    assert visible(text) == text


# ---------------------------------------------------------------------------------
# Real games: a hostile player's name, a referee's reason, a move written by hand

#: A player's name with OSC 52 (set the clipboard to "hi") and a BEL of its own.
NAME = "Anna\x1b]52;c;aGk=\x07\x07"
#: A referee's name with OSC 0 (set the window title).
REFEREE = "Ri\x1b]0;pwned\x07ta"
#: A ruling's reason with RIS (`ESC c`, a terminal reset) and a line break before a fake result.
REASON = "mailed in time\x1bc\nresult: B wins"
FAKE = "result: B wins"
#: What must not reach the terminal raw: category C, and Zl, Zp.
CONTROLS = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def raw_controls(text: str) -> list[str]:
    """The control characters (any category C) and line or paragraph separators of an
    output, but for the newlines that end its lines."""
    return [ch for ch in text if ch != "\n" and unicodedata.category(ch) in CONTROLS]


def ok(result: Run) -> str:
    assert result.code == 0, result.err
    return result.out


def assert_shown(output: str) -> None:
    """Nothing raw reaches the terminal, and nothing starts a line of its own."""
    assert raw_controls(output) == []
    assert not [line for line in output.splitlines() if line.lstrip().startswith(FAKE)]


@pytest.fixture
def ruled(tmp_path: Path, corr: Corr) -> Path:
    """A Combat game of a player named NAME and Ben, with a ruling on move 1 by the
    referee REFEREE whose reason is REASON."""
    ok(corr("key", "new", "--out", tmp_path / "rita"))
    path = tmp_path / "game.corr"
    ok(corr("new", "combat", path, "-p", NAME, "-p", "Ben", "--referee", f"{REFEREE} <rita@example.org>",
            "--referee-key", tmp_path / "rita.pub", "--format", "none"))
    ok(corr("move", path, "2 (1,1)", "--format", "none"))
    ok(corr("referee", "rule", path, "--seq", "1", "--reject", "--reason", REASON, "--sign", tmp_path / "rita.key",
            "--format", "none"))
    return path


def hand_written(path: Path, move: str) -> None:
    """The log's last record with its move as a forger may write it (the position and
    every hash unchanged: the move reads the same)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[-1])
    record["move"] = move
    lines[-1] = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_log_tag_shows_escape_visibly(ruled: Path, corr: Corr) -> None:
    out = ok(corr("log", ruled))
    assert '[A "Anna\\x1b]52;c;aGk=\\x07\\x07"]' in out.splitlines()
    assert_shown(out)


def test_log_ruling_reason_starts_no_line(ruled: Path, corr: Corr) -> None:
    out = ok(corr("log", ruled))
    assert "ruling on 1: reject (mailed in time\\x1bc\\nresult: B wins)" in out
    assert_shown(out)


def test_a_move_written_by_hand_breaks_no_line_in_what_refuses_it(tmp_path: Path, corr: Corr) -> None:
    """A move spelt with line breaks is not the move's one spelling: the log is refused
    as edited, and the refusal quotes it with its breaks as escapes."""
    path = tmp_path / "game.corr"
    ok(corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--format", "none"))
    ok(corr("move", path, "2 (1,1)", "--format", "none"))
    hand_written(path, "2\r\n(1,1)\u2028\x85")  # notation reads past the line breaks
    audit = corr("audit", path)
    assert audit.code == 2 and "2\\r\\n(1,1)\\u2028\\x85" in audit.out
    assert_shown(audit.out)
    for command in ("show", "log"):
        r = corr(command, path)
        assert r.code == 2 and r.err.count("\n") == 1, r.err
        assert_shown(r.err)


def test_audit_shows_the_referee_and_the_reason_visibly(ruled: Path, corr: Corr) -> None:
    out = ok(corr("audit", ruled))
    assert ("  ruling at seq 2: referee Ri\\x1b]0;pwned\\x07ta on seq 1: reject, "
            "because: mailed in time\\x1bc\\nresult: B wins") in out.splitlines()
    assert_shown(out)


def test_examine_ruling_reason_starts_no_line(ruled: Path, corr: Corr) -> None:
    out = ok(corr("referee", "examine", ruled, "1"))
    assert "            because: mailed in time\\x1bc\\nresult: B wins" in out.splitlines()
    assert_shown(out)


def test_status_shows_escapes_in_a_file_name_visibly(ruled: Path, corr: Corr) -> None:
    """A log saved under the name its attachment had, and one that is no log: both
    file names are shown with their escapes, the player's name as spaces on one line."""
    ruled.rename(ruled.with_name("from Anna\x1b]52;c;aGk=\x07.corr"))
    (ruled.parent / "bad\x1bc.corr").write_text("junk\n")
    out = ok(corr("status", ruled.parent))
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("  bad\\x1bc.corr ") and "error: " in lines[0]
    assert lines[1].startswith("  from Anna\\x1b]52;c;aGk=\\x07.corr  combat  A Anna ]52;c;aGk=, B Ben  ")
    assert_shown(out)


def test_error_line_shows_a_name_it_quotes_visibly(tmp_path: Path, corr: Corr) -> None:
    """`corr match` refuses two games of different players, quoting both headers."""
    first, second = tmp_path / "first.corr", tmp_path / "second.corr"
    ok(corr("new", "moyo", first, "-p", NAME, "-p", "Ben", "-o", "puzzle=3", "--format", "none"))
    ok(corr("new", "moyo", second, "-p", "Anna", "-p", "Ben", "-o", "puzzle=3", "--format", "none"))
    result = corr("match", first, second)
    assert result.code == 1 and result.out == ""
    assert result.err.startswith("corr: error: the two games do not have the same players in the same seats "
                                 "(A Anna\\x1b]52;c;aGk=\\x07\\x07, B Ben; A Anna, B Ben)")
    assert result.err.count("\n") == 1
    assert_shown(result.err)


def test_compare_and_clock_show_escapes_in_file_names_visibly(ruled: Path, corr: Corr) -> None:
    mine = ruled.with_name("mine\x1b]52;c;aGk=\x07.corr")
    theirs = ruled.with_name("theirs\x1bc.corr")
    mine.write_bytes(ruled.read_bytes())
    theirs.write_bytes(ruled.read_bytes())
    out = ok(corr("compare", mine, theirs))
    assert f"first copy {ruled.parent}/mine\\x1b]52;c;aGk=\\x07.corr: verifies, 2 records; head seq 2, B to move" \
        in out.splitlines()
    assert f"second copy {ruled.parent}/theirs\\x1bc.corr: verifies, 2 records; head seq 2, B to move" \
        in out.splitlines()
    assert_shown(out)
    out = ok(corr("clock", mine))
    assert out.startswith(f"{ruled.parent}/mine\\x1b]52;c;aGk=\\x07.corr: no time control")
    assert_shown(out)


def test_mail_compose_names_the_player_it_wrote_to_visibly(tmp_path: Path, corr: Corr) -> None:
    path = tmp_path / "game.corr"
    ok(corr("new", "combat", path, "-p", f"{NAME} <anna@example.org>", "-p", "Ben <ben@example.org>",
            "--format", "none"))
    ok(corr("move", path, "2 (1,1)", "--format", "none"))
    out = ok(corr("mail", "compose", path, "--to", "A", "--out", tmp_path / "to-anna.eml"))
    assert out.rstrip("\n").endswith(' to "Anna ]52;c;aGk=" <anna@example.org>')
    assert_shown(out)
    # the message itself: a mail reader may print its To: to a terminal too
    to = [line for line in (tmp_path / "to-anna.eml").read_text().splitlines() if line.startswith("To: ")]
    assert to == ['To: "Anna ]52;c;aGk=" <anna@example.org>']


def test_html_pages_show_names_and_reasons_visibly(ruled: Path, corr: Corr) -> None:
    """HTML is escaped for the browser; a control character is shown there too, for
    whoever reads the page as text."""
    audit = ok(corr("audit", ruled, "--format", "html"))
    assert "because: mailed in time\\x1bc\\nresult: B wins" in audit
    board = ok(corr("show", ruled, "--format", "html"))
    assert "Anna\\x1b]52;c;aGk=\\x07\\x07" in board
    examine = ok(corr("referee", "examine", ruled, "1", "--format", "html"))
    assert "A Anna\\x1b]52;c;aGk=\\x07\\x07" in examine
    for page in (audit, board, examine):
        assert raw_controls(page) == []
