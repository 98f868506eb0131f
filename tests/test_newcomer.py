"""What a new player trips on first: folders that do not exist yet, output scripts must
parse, files that are not what the command expects, and the words of the messages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from conftest import Run, parse_message

#: Combat without claims, after which `3 (4,1)` conquers fields 4 and 6 (combat 3.4).
TWO_FIELD_OPENING = (
    "2 (3,2)", "5 (6,7)", "1 (6,4)", "9 (2,2)", "9 (5,1)", "3 (8,2)", "1 (7,1)", "4 (9,1)",
    "4 (8,7)", "7 (1,7)", "5 (1,2)", "9 (8,3)", "8 (4,9)", "6 (5,2)", "1 (2,8)", "5 (7,9)",
    "3 (5,7)", "7 (6,9)", "2 (7,7)", "8 (6,6)", "4 (5,8)", "6 (2,6)",
)
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def one_error(r: Run, code: int, *words: str) -> None:
    """Exit `code` with exactly one stderr line `corr: error: ...` holding every word."""
    assert r.code == code, (r.code, r.err)
    assert r.err.startswith("corr: error: ") and r.err.count("\n") == 1, r.err
    for word in words:
        assert word in r.err, (word, r.err)


@pytest.fixture
def combat(corr: Callable[..., Run], tmp_path: Path) -> Path:
    path = tmp_path / "game.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    for move in ("7 (8,7)", "8 (4,6)"):
        assert corr("move", path, move, "-f", "none").code == 0
    return path


# --- 1 folders that do not exist yet ----------------------------------------------------


def test_new_makes_the_missing_folders_of_its_log(corr, tmp_path: Path) -> None:
    path = tmp_path / "games" / "club" / "club.corr"
    r = corr("new", "combat", path, "--player", "A", "--player", "B", "-f", "none")
    assert r.code == 0 and r.err == "", r.err
    assert path.is_file() and json.loads(path.read_text().splitlines()[0])["game"] == "combat"
    assert corr("move", path, "7 (8,7)", "-f", "none").code == 0


def test_new_refused_leaves_no_folder_behind(corr, tmp_path: Path) -> None:
    path = tmp_path / "games" / "club.corr"
    one_error(corr("new", "combat", path, "-p", "Anna"), 1, "2-4 players")
    one_error(corr("new", "nonesuch", path, "-p", "Anna", "-p", "Ben"), 1, "unknown game")
    assert not (tmp_path / "games").exists()


def test_schema_out_makes_its_folder(corr, tmp_path: Path) -> None:
    out = tmp_path / "docs" / "schemas"
    r = corr("schema", "--out", out)
    assert r.code == 0, r.err
    assert sorted(p.name for p in out.iterdir()) == ["header.schema.json", "record.schema.json"]
    printed = json.loads(corr("schema").out)
    assert json.loads((out / "header.schema.json").read_text()) == printed["header"]


def _invitation(corr, tmp_path: Path) -> Path:
    """A real first message of a game by mail, from Anna to Ben."""
    path = tmp_path / "anna" / "match.corr"
    assert corr("new", "combat", path, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>",
                "-f", "none").code == 0
    assert corr("move", path, "7 (8,7)", "-f", "none").code == 0
    msg = tmp_path / "move1.eml"
    assert corr("mail", "compose", path, "--to", "Ben", "--out", msg).code == 0
    assert parse_message(msg.read_bytes())["To"] == "Ben <ben@example.org>"
    return msg


def test_mail_ingest_new_makes_the_games_folder(corr, tmp_path: Path) -> None:
    msg = _invitation(corr, tmp_path)
    games = tmp_path / "ben" / "games"
    r = corr("mail", "ingest", msg, "--games", games, "--new")
    assert r.code == 0, r.err
    [copy] = list(games.glob("*.corr"))
    assert corr("show", copy, "-f", "json").code == 0


def test_mail_ingest_without_new_refuses_a_missing_games_folder(corr, tmp_path: Path) -> None:
    msg = _invitation(corr, tmp_path)
    games = tmp_path / "ben" / "games"
    one_error(corr("mail", "ingest", msg, "--games", games), 1, f"--games {games}: no such folder", "--new")
    assert not games.exists()


def test_host_run_makes_a_missing_maildir(corr, tmp_path: Path, smtp_server) -> None:
    _, port = smtp_server
    config = tmp_path / "smtp.toml"
    config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Hal <hal@example.org>"\n')
    games, maildir = tmp_path / "games", tmp_path / "Maildir"
    assert corr("new", "combat", games / "club.corr", "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>",
                "-f", "none").code == 0
    r = corr("host", "run", "--maildir", maildir, "--games", games, "--smtp", config, "--once")
    assert r.code == 0, r.err
    assert all((maildir / sub).is_dir() for sub in ("new", "cur", "tmp"))


def test_host_run_refuses_a_missing_games_folder(corr, tmp_path: Path) -> None:
    config = tmp_path / "smtp.toml"
    config.write_text('[smtp]\nhost = "127.0.0.1"\nport = 2525\n')
    games = tmp_path / "games"
    one_error(corr("host", "run", "--maildir", tmp_path / "Maildir", "--games", games, "--smtp", config, "--once"),
              1, f"--games {games}: no such folder")
    assert not games.exists() and not (tmp_path / "Maildir").exists()


# --- 2 output scripts can read ------------------------------------------------------------


def test_replay_json_is_one_document_of_every_position(corr) -> None:
    example = EXAMPLES / "combat-disputed.corr"
    r = corr("replay", example, "--format", "json")
    assert r.code == 0, r.err
    positions = json.loads(r.out)
    shown = [json.loads(corr("show", example, "--at", str(n), "--format", "json").out) for n in range(len(positions))]
    assert positions == shown
    assert [p["seq"] for p in positions] == list(range(len(positions))) and len(positions) > 10


def test_replay_jsonl_is_one_compact_position_per_line(corr, combat: Path) -> None:
    r = corr("replay", combat, "--jsonl")
    assert r.code == 0, r.err
    rows = r.out.splitlines()
    assert [json.loads(row)["seq"] for row in rows] == [0, 1, 2]
    assert json.loads(rows[-1]) == json.loads(corr("show", combat, "-f", "json").out)
    assert all(": " not in row for row in rows)


def test_schema_prints_one_object_of_header_and_record(corr) -> None:
    r = corr("schema")
    assert r.code == 0, r.err
    printed = json.loads(r.out)
    assert sorted(printed) == ["header", "record"]
    assert printed["record"]["title"] == "Record" and printed["header"]["title"] == "Header"


# --- 3 an mbox that is none ----------------------------------------------------------------


def test_ingest_refuses_a_text_file_given_as_mbox(corr, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("notes.txt").write_text("shopping: eggs, milk\nFrom the kitchen\n")
    one_error(corr("mail", "ingest", "--mbox", "notes.txt", "--games", "."), 1,
              'notes.txt: not an mbox (no "From " line starts a message)')


def test_ingest_takes_an_empty_mbox_as_no_mail(corr, tmp_path: Path) -> None:
    box = tmp_path / "empty.mbox"
    box.write_bytes(b"")
    r = corr("mail", "ingest", "--mbox", box, "--games", tmp_path)
    assert r.code == 0 and r.err == "", r.err


# --- 4 files that are not regular -----------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("args", [
    ("show", "{f}"), ("move", "{f}", "7 (8,7)"), ("log", "{f}"), ("audit", "{f}"), ("replay", "{f}"),
    ("repair", "{f}"), ("compare", "{f}", "{f}"), ("mail", "ingest", "{f}", "--games", "."),
    ("mail", "ingest", "--mbox", "{f}", "--games", "."),
], ids=lambda args: " ".join(a for a in args if a != "{f}"))
def test_a_fifo_is_refused_without_waiting(tmp_path: Path, args: tuple[str, ...]) -> None:
    fifo = tmp_path / "pipe.corr"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "corr", *(a.format(f=fifo) for a in args)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"corr: error: {fifo}: not a regular file\n"


# --- 5 logs an editor changed, and files that are no log -------------------------------------


CRLF_HINT = "(the file has Windows line endings (CRLF): convert it back with `corr repair`, or dos2unix)"


def test_a_log_with_windows_line_endings_says_so_and_repair_mends_it(corr, combat: Path) -> None:
    good = combat.read_bytes()
    combat.write_bytes(good.replace(b"\n", b"\r\n"))
    for args in (("show", combat), ("move", combat, "2 (5,3)"), ("log", combat)):
        one_error(corr(*args), 2, "line 1", "it was edited", CRLF_HINT)
    audit = corr("audit", combat, "--json")
    assert audit.code == 2 and CRLF_HINT in json.loads(audit.out)["findings"][-1]["detail"]
    r = corr("repair", combat)
    assert r.code == 0 and "Windows line endings (CRLF) turned back into LF" in r.out, r.err
    assert combat.read_bytes() == good
    assert corr("audit", combat).code == 0


def test_a_log_with_a_byte_order_mark_says_so_and_repair_removes_it(corr, combat: Path) -> None:
    good = combat.read_bytes()
    combat.write_bytes(b"\xef\xbb\xbf" + good)
    one_error(corr("show", combat), 2, "line 1", "the file starts with a byte order mark")
    assert "the file starts with a byte order mark" in corr("audit", combat).out
    assert corr("repair", combat).code == 0
    assert combat.read_bytes() == good


def test_repair_leaves_a_log_that_still_does_not_verify(corr, combat: Path) -> None:
    edited = combat.read_bytes().replace(b'"7 (8,7)"', b'"6 (8,7)"').replace(b"\n", b"\r\n")
    combat.write_bytes(edited)
    r = corr("repair", combat)
    assert r.code == 2 and "does not chain" in r.err, r.err
    assert combat.read_bytes() == edited


def test_a_text_file_is_not_a_corr_game_log(corr, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Anna's moves so far:\n7 (8,7)\n")
    expected = f"{notes}: not a corr game log (the first line is not a corr header)"
    for args in (("show", notes), ("move", notes, "2 (5,3)"), ("repair", notes)):
        one_error(corr(*args), 2, expected)
    assert expected in corr("audit", notes).out
    assert notes.read_text() == "Anna's moves so far:\n7 (8,7)\n"


# --- 6 words --------------------------------------------------------------------------------


def test_games_says_how_many_players_plainly(corr) -> None:
    out = corr("games").out
    assert "Sudoku Moyo, 2 players" in out and "Sudoku War, 2 players" in out and "2-4 players" in out
    assert "2-2" not in out
    puzzle = next(line for line in out.splitlines() if "-o puzzle=..." in line and "(required)" in line)
    assert "(required):" not in puzzle and "required: " not in puzzle


def test_a_move_that_conquers_two_fields_says_fields_4_and_6(corr, tmp_path: Path) -> None:
    path = tmp_path / "two.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    for move in TWO_FIELD_OPENING:
        assert corr("move", path, move, "-f", "none").code == 0, move
    shown = json.loads(corr("move", path, "3 (4,1) !", "-f", "json").out)
    assert shown["last"]["told"] == ["conquers fields 4 and 6"]
    assert "23. A  3 (4,1) !  {conquers fields 4 and 6}" in corr("log", path).out


def test_a_long_move_is_quoted_back_cut_to_40_characters(corr, combat: Path) -> None:
    before = combat.read_bytes()
    r = corr("move", combat, "x" * 100_000, "-f", "none")
    one_error(r, 1, "'" + "x" * 37 + "...'")
    assert len(r.err) < 300 and combat.read_bytes() == before


def test_by_and_for_take_a_players_name(corr, combat: Path) -> None:
    assert corr("move", combat, "2 (5,3)", "--by", "ANNA", "-f", "none").code == 0
    one_error(corr("move", combat, "1 (3,9)", "--by", "Anna", "-f", "none"), 1, "A")
    assert corr("move", combat, "1 (3,9)", "--by", "ben", "-f", "none").code == 0
    assert json.loads(corr("show", combat, "--for", "Ben", "-f", "json").out)["viewer"] == "B"
    one_error(corr("move", combat, "4 (1,1)", "--by", "Cleo"), 1, "--by 'Cleo': no such seat or player",
              "A Anna, B Ben")


def test_a_bad_player_name_says_the_rule(corr, tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    one_error(corr("new", "combat", path, "-p", "", "-p", "Ben"), 1, 'player name "": must be 1 to 200 characters')
    one_error(corr("new", "combat", path, "-p", "Anna", "-p", "B" * 201), 1,
              f'player name "{"B" * 37}...": must be 1 to 200 characters')
    assert not path.exists()


def test_key_new_says_where_each_roles_key_goes(corr, tmp_path: Path) -> None:
    player = corr("key", "new", "--out", tmp_path / "anna")
    assert player.code == 0 and "--key SEAT=" in player.out and "opponents" not in player.out
    referee = corr("key", "new", "--out", tmp_path / "rita", "--role", "referee")
    assert referee.code == 0 and "give it to the players" in referee.out and "--referee-key" in referee.out
    one_error(corr("key", "new", "--out", tmp_path / "x", "--role", "umpire"), 1, "--role 'umpire'")
    assert not (tmp_path / "x.key").exists()


def test_compare_names_the_copies_by_file(corr, combat: Path, tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.corr"
    theirs.write_bytes(combat.read_bytes())
    assert corr("move", theirs, "2 (5,3)", "-f", "none").code == 0
    out = corr("compare", combat, theirs).out
    assert f"first copy {combat}: verifies" in out and f"second copy {theirs}: verifies" in out
    assert "the first copy is a prefix of the second" in out
    assert "\nA " not in out and "\nB " not in out


# --- 7 Moyo's JSON -----------------------------------------------------------------------------


def test_moyo_json_has_victory_points_from_the_start(corr) -> None:
    example = EXAMPLES / "moyo-standard.corr"
    start = json.loads(corr("show", example, "--at", "0", "-f", "json").out)
    assert "victory_points" in start and start["victory_points"] is None
    end = json.loads(corr("show", example, "-f", "json").out)
    assert end["over"] and end["victory_points"] == end["scores"]
    assert set(end["victory_points"]) == {"A", "B"}


# --- 8 habits of command lines -----------------------------------------------------------------


def test_version_prints_the_version(corr) -> None:
    from corr import __version__

    r = corr("--version")
    assert r.code == 0 and r.out == f"corr {__version__}\n" and r.err == ""


def test_move_help_lists_file_and_move_with_their_help(corr) -> None:
    out = corr("move", "--help").out
    assert "FILE  The game log (.corr file)." in out
    assert "MOVE  The move, e.g. '7 (5,4)'" in out
    assert out.count("FILE  The game log") == 1  # once: not again under click's own heading


def test_a_move_still_runs_after_the_version_option_exists(corr, combat: Path) -> None:
    r = corr("move", combat, "2 (5,3)", "-f", "json")
    assert r.code == 0 and json.loads(r.out)["seq"] == 3


def test_a_refusal_says_an_8(corr, tmp_path: Path) -> None:
    from corr.geometry import with_article

    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "--player", "Anna", "--player", "Ben", "--format", "none").code == 0
    r = corr("move", path, "8 (2,2)")  # the start's 8 in field 8 stands in column 5
    assert r.code == 1 and "an 8 already stands" in r.err and "a 8" not in r.err
    assert [with_article(w) for w in (7, 8, 11, 18, 80, 12, "Immobilizer", "Star")] == [
        "a 7", "an 8", "an 11", "an 18", "an 80", "a 12", "an Immobilizer", "a Star"]
