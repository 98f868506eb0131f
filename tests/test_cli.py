"""The command line's contract (DESIGN.md 9, issue "bad input of every kind").

Every error is one line on stderr starting `corr: error:` that names what is wrong, never
a traceback; exit 1 for a refused move or bad usage, 2 for a corrupt or forged log; and a
refused command leaves the log byte-for-byte as it was. One test per kind of bad input,
on real Combat positions: seats A/B, A moves first, the centre of every field holds the
field's number (so `7 (5,5)` is occupied, and after `7 (5,4)` a 7 at `(4,6)` clashes in
row 5).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from corr import randomplay
from corr.log import store

COMMANDS = ["games", "show", "legal", "log", "replay", "audit", "schema", "new", "move", "challenge", "repair"]

#: A short game: A 7 (5,4), B 3 (1,1), A 2 (3,3), B 4 (9,9); A is on turn.
BASE_MOVES = ("7 (5,4)", "3 (1,1)", "2 (3,3)", "4 (9,9)")

#: A puts all eight 1s left in the supply on the board (one per row, column and field,
#: with the 1 at (1,5)); B plays elsewhere. Then B is on turn and no 1 is left (combat 1.1).
ONES_A = ("1 (2,1)", "1 (3,7)", "1 (4,1)", "1 (5,6)", "1 (6,8)", "1 (7,3)", "1 (8,8)", "1 (9,6)")
ONES_B = ("2 (1,1)", "3 (2,9)", "2 (4,9)", "3 (6,1)", "2 (9,9)", "3 (8,1)", "4 (1,9)")


# ---------------------------------------------------------------------------------
# Helpers


def assert_error(r, code: int, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Exit `code`, exactly one stderr line `corr: error: ...` holding every word."""
    assert r.code == code, f"exit {r.code}, expected {code}; stderr: {r.err!r}"
    assert "Traceback" not in r.err and "Traceback" not in r.out
    assert r.err.startswith("corr: error: "), r.err
    assert r.err.endswith("\n") and r.err.count("\n") == 1, f"not one line: {r.err!r}"
    for word in words:
        assert word in r.err, f"{word!r} not in {r.err!r}"


def refused(  # type: ignore[no-untyped-def]
    corr, path: Path, code: int, *args: str | Path, words: tuple[str, ...] = ()
):
    """Run `corr ARGS`, expect a one-line error, and check `path` did not change."""
    before = path.read_bytes()
    r = corr(*args)
    assert_error(r, code, *words)
    assert path.read_bytes() == before, "the log changed"
    return r


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def write_lines(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def edit_line(path: Path, index: int, old: bytes, new: bytes) -> None:
    """Replace `old` by `new` in line `index` (0 = header) of a log."""
    lines = lines_of(path)
    assert old in lines[index], (old, lines[index])
    lines[index] = lines[index].replace(old, new, 1)
    write_lines(path, lines)


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., bytes]:
    """The bytes of a game played through the CLI, built once per module and reused
    (every append fsyncs, which is what makes building a log slow)."""
    from corr.cli import main

    folder = tmp_path_factory.mktemp("logs")
    made: dict[tuple[tuple[str, ...], tuple[str, ...]], bytes] = {}

    def build(*moves: str, options: tuple[str, ...] = ()) -> bytes:
        key = (moves, options)
        if key not in made:
            path = folder / f"{len(made)}.corr"
            args = ["new", "combat", str(path), "-p", "Anna", "-p", "Ben", "-f", "json"]
            for opt in options:
                args += ["-o", opt]
            main(args)
            for move in moves:
                main(["move", str(path), move, "--format", "none"])  # returns only when accepted
            made[key] = path.read_bytes()
        return made[key]

    return build


@pytest.fixture
def game(logs: Callable[..., bytes], tmp_path: Path) -> Callable[..., Path]:
    """Like conftest's game_file (two players), from the module's cache of built logs."""

    def make(*moves: str, options: tuple[str, ...] = ()) -> Path:
        path = tmp_path / "combat.corr"
        path.write_bytes(logs(*moves, options=options))
        return path

    return make


@pytest.fixture
def base(game: Callable[..., Path]) -> Path:
    return game(*BASE_MOVES)


@pytest.fixture(scope="module")
def finished_bytes() -> bytes:
    """A whole Combat game played out at random (B wins 5-4)."""
    rep = randomplay.play("combat", ["Anna", "Ben"], seed=1)
    assert rep.game.result(rep.state).over
    return store.text(rep.log)


@pytest.fixture
def finished(tmp_path: Path, finished_bytes: bytes) -> Path:
    path = tmp_path / "finished.corr"
    path.write_bytes(finished_bytes)
    return path


@pytest.fixture
def no_ones(game: Callable[..., Path]) -> Path:
    moves = [m for pair in zip(ONES_A, ONES_B + ("",)) for m in pair if m]
    return game(*moves)


# ---------------------------------------------------------------------------------
# Help, games, python -m corr


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(corr, command: str) -> None:
    r = corr(command, "--help")
    assert r.code == 0, r.err
    assert "Example" in r.out
    assert f"corr {command}" in r.out.split("Example", 1)[1]


def test_top_level_help_lists_commands_and_an_example(corr) -> None:
    r = corr("--help")
    assert r.code == 0
    assert "Example" in r.out
    for command in COMMANDS:
        assert command in r.out


def test_bare_corr_shows_the_help(corr) -> None:
    r = corr()
    assert r.code == 0
    assert "Usage: corr" in r.out and "Commands" in r.out
    assert r.err == ""


def test_python_dash_m_corr_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "corr", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Usage: corr" in done.stdout and "Example" in done.stdout


def test_python_dash_m_corr_error_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "corr", "move", str(tmp_path / "nope.corr"), "7 (5,4)"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("corr: error: no such game log") and done.stderr.count("\n") == 1


def test_games_lists_combat_with_options_and_defaults(corr) -> None:
    r = corr("games")
    assert r.code == 0, r.err
    assert "combat" in r.out and "2-4 players" in r.out
    assert "conquest=claim|auto" in r.out and "(default claim)" in r.out
    assert "mode=strict|as-written" in r.out and "(default strict)" in r.out


def test_games_json(corr) -> None:
    r = corr("games", "--json")
    assert r.code == 0, r.err
    combat = {g["name"]: g for g in json.loads(r.out)}["combat"]
    assert combat["players"] == [2, 4]
    assert combat["options"]["conquest"]["default"] == "claim"
    assert combat["options"]["conquest"]["choices"] == ["claim", "auto"]
    assert combat["options"]["mode"]["default"] == "strict"
    assert combat["options"]["mode"]["choices"] == ["strict", "as-written"]


# ---------------------------------------------------------------------------------
# corr new


def test_new_writes_a_header_only(corr, tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    r = corr("new", "combat", path, "--player", "Anna", "--player", "Ben", "-o", "conquest=auto", "-f", "json")
    assert r.code == 0, r.err
    lines = lines_of(path)
    assert len(lines) == 1
    header = json.loads(lines[0])
    assert header["game"] == "combat"
    assert header["options"] == {"conquest": "auto", "mode": "strict"}
    assert [s["seat"] for s in header["seats"]] == ["A", "B"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("new", "chess", "{f}", "-p", "Anna", "-p", "Ben"), ("unknown game", "'chess'", "combat")),
        (("new", "combat", "{f}", "-p", "Anna", "-p", "Ben", "-o", "speed=fast"), ("no option", "'speed'", "conquest")),
        (
            ("new", "combat", "{f}", "-p", "Anna", "-p", "Ben", "-o", "mode=loose"),
            ("mode", "'loose'", "strict, as-written"),
        ),
        (("new", "combat", "{f}", "-p", "Anna", "-p", "Ben", "-o", "mode"), ("'mode'", "KEY=VALUE")),
        (("new", "combat", "{f}", "-p", "Anna"), ("2-4 players", "1 given")),
        (("new", "combat", "{f}", "-p", "A", "-p", "B", "-p", "C", "-p", "D", "-p", "E"), ("2-4 players", "5 given")),
        (("new", "combat", "{f}"), ("missing option", "--player")),
        (("new", "combat", "{f}", "-p", "Anna", "-p", "Ben", "-f", "pdf"), ("unknown format", "'pdf'")),
    ],
    ids=["unknown-game", "unknown-option", "bad-option-value", "option-not-key-value", "one-player",
         "five-players", "no-players", "bad-format"],
)
def test_new_refuses_bad_requests_and_writes_nothing(corr, tmp_path: Path, args, words) -> None:
    path = tmp_path / "g.corr"
    r = corr(*(str(path) if a == "{f}" else a for a in args))
    assert_error(r, 1, *words)
    assert not path.exists()


def test_new_refuses_an_existing_file_and_leaves_it_alone(corr, base: Path) -> None:
    refused(corr, base, 1, "new", "combat", base, "-p", "Cleo", "-p", "Dara", words=(str(base), "already exists"))


def test_new_refuses_an_existing_non_log_file(corr, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes\n")
    refused(corr, path, 1, "new", "combat", path, "-p", "Anna", "-p", "Ben", words=("already exists",))


def test_new_in_a_missing_folder_makes_it(corr, tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    assert path.is_file()


# ---------------------------------------------------------------------------------
# corr move: refused moves (exit 1, nothing appended)


def test_move_appends_one_line(corr, base: Path) -> None:
    before = base.read_bytes()
    r = corr("move", base, "6 (1,2)", "--format", "json")
    assert r.code == 0, r.err
    after = base.read_bytes()
    assert after.startswith(before)
    record = json.loads(after[len(before):])
    assert (record["seq"], record["by"], record["move"]) == (5, "A", "6 (1,2)")
    assert record["prev"] == sha(lines_of(base)[-2])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("7 (5,x)", ("bad notation", "'7 (5,x)'", "place 1-9", "column 6")),
        ("7 (5,4", ("bad notation", "expected ')'")),
        ("0 (5,4)", ("bad notation", "digit 0")),
        ("7 (10,4)", ("bad notation", "single field")),
        ("a (5,4)", ("bad notation", "'a (5,4)'", "column 1")),
        ("7 (5,4) ?", ("bad notation", "unexpected text", "column 9")),
        ("", ("bad notation", "empty move")),
        ("N (8,2)-(4,9)", ("combat 2.1", "places a tile")),
    ],
    ids=["bad-place", "unclosed", "digit-zero", "field-10", "word", "trailing-junk", "empty", "not-a-placement"],
)
def test_move_malformed_notation(corr, base: Path, text: str, words) -> None:
    refused(corr, base, 1, "move", base, text, words=words)


def test_move_unknown_seat(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "6 (1,2)", "--by", "Z", words=("unknown seat", "'Z'", "A, B"))


def test_move_seat_not_in_this_game(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "6 (1,2)", "--by", "C", words=("unknown seat", "'C'"))


def test_move_out_of_turn(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "6 (1,2)", "--by", "B", words=("A's turn", "not B's"))


def test_move_out_of_turn_first_move(corr, game) -> None:
    path = game()
    refused(corr, path, 1, "move", path, "7 (5,4)", "--by", "b", words=("A's turn", "not B's"))


def test_move_game_over(corr, finished: Path) -> None:
    refused(corr, finished, 1, "move", finished, "1 (1,1)", words=("game is over",))


def test_move_game_over_with_seat(corr, finished: Path) -> None:
    refused(corr, finished, 1, "move", finished, "1 (1,1)", "--by", "A", words=("game is over",))


def test_move_tile_no_longer_in_supply(corr, no_ones: Path) -> None:
    assert corr("legal", no_ones, "--json").out.count('"1 (') == 0
    refused(corr, no_ones, 1, "move", no_ones, "1 (5,1)", words=("combat 1.1", "no 1 is left", "supply"))


def test_move_occupied_place(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "7 (5,5)", words=("combat 2.1", "(5,5)", "occupied", "5"))


def test_move_onto_a_placed_tile(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "8 (5,4)", words=("combat 2.1", "(5,4)", "occupied by a 7"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("7 (4,6)", ("(4,6)", "(5,4)", "row 5")),
        ("7 (2,4)", ("(2,4)", "(5,4)", "column 4")),
        ("7 (5,3)", ("(5,3)", "(5,4)", "field 5")),
        ("5 (5,6)", ("(5,6)", "(5,5)", "field 5")),
    ],
    ids=["row", "column", "field", "setup-tile"],
)
def test_move_sudoku_clash(corr, game, text: str, words) -> None:
    path = game("7 (5,4)", "3 (1,1)")
    refused(corr, path, 1, "move", path, text, words=("combat 2.2", "breaks the Sudoku rule") + words)


def test_move_false_claim_of_any_conquest(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "6 (1,2) !", words=("combat 3.5", "6 (1,2) !", "conquers no field"))


def test_move_false_claim_of_a_named_field(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "6 (1,2) !4",
            words=("combat 3.5", "claims field 4", "does not conquer", "7 at (4,1)"))


def test_move_missing_file(corr, tmp_path: Path) -> None:
    path = tmp_path / "nope.corr"
    assert_error(corr("move", path, "7 (5,4)"), 1, "no such game log", str(path))
    assert not path.exists()


def test_move_directory(corr, tmp_path: Path) -> None:
    assert_error(corr("move", tmp_path, "7 (5,4)"), 1, "is a directory")


def test_move_bad_format(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "6 (1,2)", "--format", "pdf", words=("unknown format", "'pdf'"))


def test_move_missing_argument(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, words=("missing argument", "MOVE", "corr move --help"))


def test_move_unknown_option(corr, base: Path) -> None:
    refused(corr, base, 1, "move", base, "6 (1,2)", "--bogus", words=("no such option", "--bogus"))


def test_unknown_command(corr) -> None:
    assert_error(corr("moev", "g.corr"), 1, "no such command", "'moev'")


def test_challenge_in_a_strict_game(corr, base: Path) -> None:
    refused(corr, base, 1, "challenge", base, "--by", "A", words=("combat 4.1", "mode=as-written"))


def test_challenge_own_placement(corr, game) -> None:
    path = game("7 (5,4)", options=("mode=as-written",))
    refused(corr, path, 1, "challenge", path, "--by", "A", words=("combat 4.1", "own placement"))


def test_challenge_too_late(corr, game) -> None:
    path = game("7 (5,4)", "3 (1,1)", options=("mode=as-written",))
    refused(corr, path, 1, "challenge", path, "--by", "A", "--seq", "1", words=("combat 4.1", "too late", "seq 1"))


# ---------------------------------------------------------------------------------
# corr move on damaged logs (exit 2, nothing appended)


def _tamper_middle_move(path: Path) -> None:
    edit_line(path, 2, b'"3 (1,1)"', b'"3 (1,2)"')  # seq 2; seq 3 no longer chains


def _tamper_last_move(path: Path) -> None:
    edit_line(path, 4, b'"4 (9,9)"', b'"4 (9,8)"')  # seq 4, still legal: its state hash is wrong


def _delete_line(path: Path) -> None:
    lines = lines_of(path)
    del lines[2]
    write_lines(path, lines)


def _swap_lines(path: Path) -> None:
    lines = lines_of(path)
    lines[2], lines[3] = lines[3], lines[2]
    write_lines(path, lines)


def _truncate_mid_line(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-40])


def _state_hash_last(path: Path) -> None:
    record = json.loads(lines_of(path)[4])
    edit_line(path, 4, record["state"].encode(), b"0" * 64)


def _state_hash_middle(path: Path) -> None:
    record = json.loads(lines_of(path)[2])
    edit_line(path, 2, record["state"].encode(), b"0" * 64)


def _forged_wrong_prev(path: Path) -> None:
    """A legal-looking record for seq 5 (made by really playing it on a copy) whose prev
    is the hash of some other line."""
    copy = path.with_name("copy.corr")
    copy.write_bytes(path.read_bytes())
    from corr.cli import main

    main(["move", str(copy), "6 (1,2)", "--format", "none"])  # returns on success
    forged = lines_of(copy)[-1]
    record = json.loads(forged)
    assert record["prev"] == sha(lines_of(path)[-1])
    forged = forged.replace(record["prev"].encode(), sha(lines_of(path)[-2]).encode())
    copy.unlink()
    write_lines(path, lines_of(path) + [forged])


def _forged_illegal(path: Path) -> None:
    """A record that chains correctly but makes a move the rules refuse."""
    last = lines_of(path)[-1]
    record = {
        "seq": 5, "type": "move", "by": "A", "at": "2026-01-01T00:00:00Z", "move": "7 (5,5)",
        "prev": sha(last), "state": "0" * 64,
    }
    write_lines(path, lines_of(path) + [json.dumps(record, separators=(",", ":")).encode()])


def _forged_out_of_turn(path: Path) -> None:
    last = lines_of(path)[-1]
    record = {
        "seq": 5, "type": "move", "by": "B", "at": "2026-01-01T00:00:00Z", "move": "6 (1,2)",
        "prev": sha(last), "state": "0" * 64,
    }
    write_lines(path, lines_of(path) + [json.dumps(record, separators=(",", ":")).encode()])


#: (tamper, expected finding kind, its seq, words of the error)
DAMAGE = {
    "edited-middle-move": (_tamper_middle_move, "chain", 3, ("seq 3", "does not chain", "edited")),
    "edited-last-move": (_tamper_last_move, "state", 4, ("seq 4", "state hash", "edited")),
    "deleted-line": (_delete_line, "seq", 3, ("line 3", "expected 2", "removed or reordered")),
    "swapped-lines": (_swap_lines, "seq", 3, ("line 3", "removed or reordered")),
    "truncated-mid-line": (_truncate_mid_line, "torn", 4, ("torn", "corr repair")),
    "state-hash-last": (_state_hash_last, "state", 4, ("seq 4", "state hash")),
    "state-hash-middle": (_state_hash_middle, "chain", 3, ("seq 3", "does not chain")),
    "forged-wrong-prev": (_forged_wrong_prev, "chain", 5, ("seq 5", "does not chain")),
    "forged-illegal-move": (_forged_illegal, "illegal", 5, ("seq 5", "combat 2.1", "occupied")),
    "forged-out-of-turn": (_forged_out_of_turn, "illegal", 5, ("seq 5", "A's turn")),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_move_refuses_a_damaged_log(corr, base: Path, damage: str) -> None:
    tamper, _, _, words = DAMAGE[damage]
    tamper(base)
    refused(corr, base, 2, "move", base, "6 (1,2)", words=words)


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_audit_finds_the_damage(corr, base: Path, damage: str) -> None:
    tamper, kind, seq, _ = DAMAGE[damage]
    tamper(base)
    before = base.read_bytes()
    r = corr("audit", base, "--json")
    assert r.code == 2, r.err
    assert base.read_bytes() == before
    report = json.loads(r.out)
    assert report["intact"] is False
    assert report["findings"], report
    for finding in report["findings"]:
        assert set(finding) == {"seq", "kind", "detail"}
    assert (report["findings"][0]["kind"], report["findings"][0]["seq"]) == (kind, seq)


def test_audit_text_says_corrupt(corr, base: Path) -> None:
    _tamper_middle_move(base)
    r = corr("audit", base)
    assert r.code == 2
    assert "CORRUPT" in r.out and "chain at seq 3" in r.out


def test_audit_intact(corr, base: Path) -> None:
    r = corr("audit", base, "--json")
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["intact"] is True and report["findings"] == []
    assert report["records"] == 4
    r = corr("audit", base)
    assert r.code == 0 and "intact" in r.out


def test_audit_finished_game(corr, finished: Path) -> None:
    r = corr("audit", finished, "--json")
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["result"]["over"] is True
    assert report["result"]["winners"] == ["B"]


def test_audit_missing_file(corr, tmp_path: Path) -> None:
    assert_error(corr("audit", tmp_path / "nope.corr"), 1, "no such game log")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", ("empty",)),
        (b"\xff\xfe not json\n", ("line 1", "not a valid corr header")),
        (b'{"seq":1}\n', ("line 1", "not a valid corr header")),
        (b'{"corr":1,"type":"head', ("no complete header line",)),
    ],
    ids=["empty", "binary", "record-as-header", "torn-header"],
)
def test_move_refuses_a_file_that_is_no_log(corr, tmp_path: Path, content: bytes, words) -> None:
    path = tmp_path / "bad.corr"
    path.write_bytes(content)
    refused(corr, path, 2, "move", path, "7 (5,4)", words=words)
    assert corr("audit", path).code == 2
    assert_error(corr("show", path), 2, *words)


def test_damaged_record_line(corr, base: Path) -> None:
    edit_line(base, 2, b'"type":"move"', b'"type":"Move"')
    refused(corr, base, 2, "move", base, "6 (1,2)", words=("line 3", "seq 2", "not a valid record"))


def test_a_record_type_the_game_lacks(corr, base: Path) -> None:
    """A record type is a game's own: the log takes any short word, the game refuses one
    it has not (the last line, so no later line's chain speaks first)."""
    last = len(lines_of(base)) - 1
    edit_line(base, last, b'"type":"move"', b'"type":"moove"')
    refused(corr, base, 2, "move", base, "6 (1,2)", words=(f"seq {last}", "has no 'moove' records"))


# ---------------------------------------------------------------------------------
# Torn last line and repair


def test_torn_line_refused_then_repaired(corr, base: Path) -> None:
    whole = base.read_bytes()
    _truncate_mid_line(base)
    torn = base.read_bytes()
    refused(corr, base, 2, "move", base, "6 (1,2)", words=("torn", f"corr repair {base}"))

    r = corr("repair", base)
    assert r.code == 0, r.err
    assert "cut" in r.out
    last_line_start = whole.rstrip(b"\n").rfind(b"\n") + 1
    cut = whole[last_line_start:-40]
    assert base.read_bytes() == whole[:last_line_start]
    assert base.read_bytes() + cut == torn
    assert Path(f"{base}.torn").read_bytes() == cut
    assert corr("audit", base).code == 0
    assert corr("move", base, "4 (9,9)", "--format", "none").code == 0  # the torn move, made again
    assert corr("audit", base).code == 0


def test_repair_intact_log_changes_nothing(corr, base: Path) -> None:
    before = base.read_bytes()
    r = corr("repair", base)
    assert r.code == 0 and "nothing changed" in r.out
    assert base.read_bytes() == before
    assert not Path(f"{base}.torn").exists()


def test_repair_says_a_whole_garbage_last_line_is_no_torn_write(corr, base: Path) -> None:
    """A last line that ends in its newline was written whole: repair, which cuts off
    only a write that never finished, leaves it, says so and what to do instead."""
    base.write_bytes(base.read_bytes() + b"this is not a record\n")
    lines = base.read_bytes().count(b"\n")
    refused(corr, base, 2, "repair", base, words=(f"line {lines} (seq {lines - 1}) is not a valid record",
                                                   "ends in a newline, so it is no torn write",
                                                   "nothing was changed", f"move line {lines} out of the file",
                                                   "restore a good copy"))
    assert not Path(f"{base}.torn").exists()


def test_repair_says_a_damaged_line_before_others_is_no_torn_write(corr, base: Path) -> None:
    rows = base.read_bytes().split(b"\n")
    rows[2] = b'{"seq":2}'
    base.write_bytes(b"\n".join(rows))
    r = refused(corr, base, 2, "repair", base, words=("line 3 (seq 2) is not a valid record", "lines follow it",
                                                       "no torn write", "restore a good copy"))
    assert "move line" not in r.err and not Path(f"{base}.torn").exists()


def test_repair_missing_file(corr, tmp_path: Path) -> None:
    assert_error(corr("repair", tmp_path / "nope.corr"), 1, "no such game log")


def test_show_warns_about_a_torn_line(corr, base: Path) -> None:
    _truncate_mid_line(base)
    before = base.read_bytes()
    r = corr("show", base, "--format", "json")
    assert r.code == 0
    assert r.err.startswith("corr: warning:") and "torn" in r.err and r.err.count("\n") == 1
    assert base.read_bytes() == before


# ---------------------------------------------------------------------------------
# corr legal, show, log, replay


def test_legal_json_at_the_start(corr, game) -> None:
    path = game()
    r = corr("legal", path, "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert set(data) == {"seat", "moves"}
    assert data["seat"] == "A"
    assert "7 (5,4)" in data["moves"]
    assert "7 (5,5)" not in data["moves"]  # occupied
    assert "5 (5,4)" not in data["moves"]  # field 5 holds a 5
    assert len(data["moves"]) == len(set(data["moves"]))


def test_legal_json_follows_the_moves(corr, base: Path) -> None:
    data = json.loads(corr("legal", base, "--json").out)
    assert data["seat"] == "A"
    assert "6 (1,2)" in data["moves"]
    assert not any(m.endswith("(1,1)") for m in data["moves"])  # occupied by B's 3
    assert "7 (4,6)" not in data["moves"]  # row 5 holds the 7 at (5,4)


def test_legal_moves_are_all_accepted(corr, base: Path, tmp_path: Path) -> None:
    moves = json.loads(corr("legal", base, "--json").out)["moves"]
    for move in moves[:: max(1, len(moves) // 8)]:
        copy = tmp_path / "copy.corr"
        copy.write_bytes(base.read_bytes())
        r = corr("move", copy, move, "--format", "none")
        assert r.code == 0, f"{move}: {r.err}"
        copy.unlink()


def test_legal_json_when_the_game_is_over(corr, finished: Path) -> None:
    r = corr("legal", finished, "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out) == {"seat": None, "moves": []}
    assert "game is over" in corr("legal", finished).out


#: The README's opening: after it field 8's 2 has one place left, and Anna may take it.
FIELD_8_OPENING = ("7 (8,7)", "8 (4,6)", "6 (8,4)", "2 (5,3)", "9 (1,3)", "1 (3,9)")


def test_combat_3_5_legal_lists_a_conquest_with_its_claim_and_the_field_it_takes(corr, game) -> None:
    path = game(*FIELD_8_OPENING)
    text = corr("legal", path).out.splitlines()
    assert "2 (7,3) !  conquers field 8" in text
    assert "2 (7,3)" not in text  # the form that would miss the field is not offered
    assert "3 (7,3)" in text  # a move that conquers nothing, as it was
    data = json.loads(corr("legal", path, "--json").out)
    assert data["seat"] == "A" and all(isinstance(m, str) for m in data["moves"])
    assert data["conquers"]["2 (7,3) !"] == [8]
    assert set(data["conquers"]) <= set(data["moves"])
    assert len(data["moves"]) == len(text) - 1  # the same moves, under one heading line
    assert corr("move", path, "2 (7,3) !", "--format", "none").code == 0
    assert json.loads(corr("show", path, "--format", "json").out)["conquered"] == {"8": "A"}


def test_combat_3_5_legal_marks_nothing_where_no_claim_is_needed(corr, game) -> None:
    auto = json.loads(corr("legal", game(*FIELD_8_OPENING, options=("conquest=auto",)), "--json").out)
    assert set(auto) == {"seat", "moves"} and "2 (7,3)" in auto["moves"]
    assert not any("!" in m for m in auto["moves"])


def test_show_at_outside_the_log(corr, base: Path) -> None:
    refused(corr, base, 1, "show", base, "--at", "99", words=("--at 99", "seq 0 to 4"))


def test_show_at_not_a_number(corr, base: Path) -> None:
    refused(corr, base, 1, "show", base, "--at", "x", words=("--at",))


def test_show_bad_format(corr, base: Path) -> None:
    refused(corr, base, 1, "show", base, "--format", "pdf", words=("unknown format", "'pdf'"))


@pytest.mark.parametrize("command", ["show", "legal", "log", "replay"])
def test_read_commands_missing_file(corr, tmp_path: Path, command: str) -> None:
    path = tmp_path / "nope.corr"
    assert_error(corr(command, path), 1, "no such game log", str(path))
    assert not path.exists()


@pytest.mark.parametrize("command", ["show", "legal", "log", "replay"])
def test_read_commands_refuse_an_edited_log(corr, base: Path, command: str) -> None:
    _tamper_middle_move(base)
    refused(corr, base, 2, command, base, words=("seq 3", "does not chain"))


def test_show_log_replay_work(corr, base: Path) -> None:
    for args in (("show", base), ("show", base, "--at", "2", "-f", "json"), ("log", base), ("replay", base)):
        r = corr(*args)
        assert r.code == 0, (args, r.err)
        assert r.out and r.err == ""


def test_schema_into_a_missing_folder_makes_it(corr, tmp_path: Path) -> None:
    assert corr("schema", "--out", tmp_path / "nope").code == 0
    assert sorted(p.name for p in (tmp_path / "nope").iterdir()) == ["header.schema.json", "record.schema.json"]


def test_unexpected_errors_are_one_line(corr, base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from corr.games.combat.rules import Combat

    def boom(self, state):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    monkeypatch.delenv("CORR_DEBUG", raising=False)
    monkeypatch.setattr(Combat, "legal_moves", boom)
    assert_error(corr("legal", base), 1, "internal error", "RuntimeError", "boom")


# ---------------------------------------------------------------------------------
# Headers that no corr wrote: the engine checks game, options and seats against the
# game and calls such a log corrupt.


def _header_edit(path: Path, old: bytes, new: bytes) -> None:
    edit_line(path, 0, old, new)


def test_header_without_options(corr, game) -> None:
    path = game()
    _header_edit(path, b'"options":{"conquest":"claim","mode":"strict"}', b'"options":{}')
    refused(corr, path, 2, "move", path, "7 (5,4)", words=("option",))


def test_header_with_a_bad_option_value(corr, game) -> None:
    path = game()
    _header_edit(path, b'"mode":"strict"', b'"mode":"bogus"')
    refused(corr, path, 2, "move", path, "5 (5,4)", words=("mode",))


def test_header_with_an_unknown_game(corr, game) -> None:
    path = game()
    _header_edit(path, b'"game":"combat"', b'"game":"chess"')
    refused(corr, path, 2, "move", path, "7 (5,4)", words=("chess",))
    assert corr("audit", path).code == 2


def test_header_with_one_seat(corr, game) -> None:
    path = game()
    _header_edit(path, b',{"seat":"B","name":"Ben"}', b"")
    refused(corr, path, 2, "move", path, "7 (5,4)", words=("seat",))


def _leaf_commands() -> list[list[str]]:
    """Every command path of the app, sub-commands included (e.g. ['mail', 'ingest'])."""
    from corr.cli import command

    found: list[list[str]] = []

    def walk(command, path: list[str]) -> None:  # type: ignore[no-untyped-def]
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, path + [name])
        else:
            found.append(path)

    walk(command([]), [])
    return found


def test_each_command_is_found_in_the_module_main_loads_for_it() -> None:
    """`main` builds only the command it runs, from its module; the table must be whole."""
    import subprocess
    import sys

    from corr.cli import COMMANDS

    assert sorted(COMMANDS) == sorted({path[0] for path in _leaf_commands()})
    for name, module in COMMANDS.items():
        probe = (f"import sys; from corr.cli import command; c = command([{name!r}]); "
                 f"assert {name!r} in c.commands, sorted(c.commands); "
                 f"assert 'corr.cli.' + {module!r} in sys.modules; print(*c.commands)")
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [name]


@pytest.mark.parametrize("path", _leaf_commands(), ids=" ".join)
def test_every_command_and_subcommand_has_help_with_an_example(corr, path: list[str]) -> None:
    r = corr(*path, "--help")
    assert r.code == 0, r.err
    assert "Example" in r.out and f"corr {' '.join(path)}" in r.out.split("Example", 1)[1]
