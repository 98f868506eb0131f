"""`corr status`: every game of a folder on one line each, your turns first."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Callable

import pytest
from freezegun import freeze_time

from conftest import Run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KEYS = {"file", "game", "players", "seq", "turn", "yours", "deadline", "time_left_s", "vacation_until", "over",
        "result", "error"}
START = "2026-03-01T12:00:00Z"


@pytest.fixture(autouse=True)
def _no_me(monkeypatch: pytest.MonkeyPatch) -> None:
    """The player's own CORR_ME must not change what the tests see."""
    monkeypatch.delenv("CORR_ME", raising=False)


def new(corr: Callable[..., Run], path: Path, game: str, *args: str) -> Path:
    result = corr("new", game, path, "-p", "Anna", "-p", "Ben", *args, "--format", "none")
    assert result.code == 0, result.err
    return path


def status_json(corr: Callable[..., Run], *args: str | Path) -> list[dict]:
    result = corr("status", *args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def by_file(games: list[dict]) -> dict[str, dict]:
    return {g["file"]: g for g in games}


def test_every_example_is_listed_with_its_result(tmp_path: Path, corr: Callable[..., Run]) -> None:
    for log in EXAMPLES.glob("*.corr"):
        shutil.copy(log, tmp_path)
    games = by_file(status_json(corr, tmp_path))
    assert set(games) == {p.name for p in EXAMPLES.glob("*.corr")}
    assert {g["game"] for g in games.values()} == {"combat", "moyo", "cards", "domino", "war"}
    for name, g in games.items():
        assert set(g) == KEYS
        shown = json.loads(corr("show", tmp_path / name, "--format", "json").out)
        assert g["error"] is None
        assert g["seq"] == shown["seq"]
        assert g["over"] == shown["over"] is True
        assert g["turn"] == [] and g["deadline"] is None
        winner = shown["winners"][0]
        assert g["result"].startswith(f"{winner} "), g["result"]
        assert g["players"] == [{"seat": s["seat"], "name": s["name"]} for s in shown["seats"]]
    text = corr("status", tmp_path).out
    line = next(x for x in text.splitlines() if "combat-2p-anna-ben.corr" in x)
    assert "combat" in line and "A Anna Weber, B Ben Okafor" in line and "seq 38" in line
    assert line.endswith("over: B Ben Okafor wins")


def test_running_games_show_whose_turn_it_is(tmp_path: Path, corr: Callable[..., Run]) -> None:
    combat = new(corr, tmp_path / "combat.corr", "combat")
    assert corr("move", combat, "7 (5,4)", "--format", "none").code == 0
    new(corr, tmp_path / "war.corr", "war")
    new(corr, tmp_path / "moyo.corr", "moyo", "-o", "puzzle=1")
    new(corr, tmp_path / "duel.corr", "domino", "-o", "time_limit=none")
    games = by_file(status_json(corr, tmp_path))
    assert games["combat.corr"]["turn"] == ["B"] and games["combat.corr"]["seq"] == 1
    assert games["war.corr"]["turn"] == ["A"]
    assert games["moyo.corr"]["turn"] == ["A"]
    assert games["duel.corr"]["turn"] == ["A", "B"]  # a duel: both play at once
    assert not any(g["over"] or g["yours"] for g in games.values())
    line = next(x for x in corr("status", tmp_path).out.splitlines() if "combat.corr" in x)
    assert line.startswith("  combat.corr") and line.endswith("to move: B Ben")


def test_me_marks_your_turn_and_lists_it_first(tmp_path: Path, corr: Callable[..., Run]) -> None:
    first = new(corr, tmp_path / "a-first.corr", "combat")  # Anna to move
    second = new(corr, tmp_path / "b-second.corr", "combat")
    assert corr("move", second, "7 (5,4)", "--format", "none").code == 0  # Ben to move
    out = corr("status", tmp_path, "--me", "bEN").out.splitlines()
    assert out[0].startswith("* b-second.corr") and out[0].endswith("to move: B Ben (you)")
    assert out[1].startswith("  a-first.corr") and "(you)" not in out[1]
    games = status_json(corr, tmp_path, "--me", "ben")
    assert [g["file"] for g in games] == ["b-second.corr", "a-first.corr"]
    assert [g["yours"] for g in games] == [True, False]
    assert first.exists()


def test_me_defaults_to_corr_me(tmp_path: Path, corr: Callable[..., Run], monkeypatch: pytest.MonkeyPatch) -> None:
    new(corr, tmp_path / "game.corr", "combat")
    assert status_json(corr, tmp_path)[0]["yours"] is False
    monkeypatch.setenv("CORR_ME", "anna")
    assert status_json(corr, tmp_path)[0]["yours"] is True
    assert status_json(corr, tmp_path, "--me", "Ben")[0]["yours"] is False  # the option wins
    assert "CORR_ME" in corr("status", "--help").out


def test_deadlines_sort_and_count_down(tmp_path: Path, corr: Callable[..., Run]) -> None:
    with freeze_time(START) as frozen:
        new(corr, tmp_path / "a-slow.corr", "combat", "--time", "per-move:3")
        new(corr, tmp_path / "b-fast.corr", "combat", "--time", "per-move:1")
        new(corr, tmp_path / "c-untimed.corr", "combat")
        new(corr, tmp_path / "d-domino.corr", "domino", "-o", "seed=s1")  # its own clock: 600 s
        frozen.tick(60)
        games = status_json(corr, tmp_path)
        assert [g["file"] for g in games] == ["d-domino.corr", "b-fast.corr", "a-slow.corr", "c-untimed.corr"]
        fast, slow, untimed, domino = (by_file(games)[f] for f in ("b-fast.corr", "a-slow.corr", "c-untimed.corr",
                                                                   "d-domino.corr"))
        assert fast["deadline"] == "2026-03-02T12:00:00Z" and fast["time_left_s"] == 86400 - 60
        assert slow["deadline"] == "2026-03-04T12:00:00Z" and slow["time_left_s"] == 3 * 86400 - 60
        assert untimed["deadline"] is None and untimed["time_left_s"] is None
        assert domino["deadline"] == "2026-03-01T12:10:00Z" and domino["time_left_s"] == 600 - 60
        text = corr("status", tmp_path).out
        assert "deadline 2026-03-02 12:00:00Z, 23h 59m left" in text
        mine = status_json(corr, tmp_path, "--me", "ANNA")  # Anna is on turn everywhere: by deadline
        assert [g["file"] for g in mine] == [g["file"] for g in games] and all(g["yours"] for g in mine)
        frozen.tick(2 * 86400 + 3540)
        games = by_file(status_json(corr, tmp_path))
        assert games["b-fast.corr"]["time_left_s"] == 86400 - 2 * 86400 - 3600  # overdue: negative
        assert games["d-domino.corr"]["over"] and games["d-domino.corr"]["deadline"] is None  # ended on its clock
        assert "overdue by 1d 01h" in corr("status", tmp_path).out


def test_on_vacation_the_time_left_is_counted_to_the_deadline_shown(tmp_path: Path,
                                                                    corr: Callable[..., Run]) -> None:
    """A vacation moves the deadline on; the time left counts to that deadline too, and
    the line says until when the seat is on vacation."""
    with freeze_time(START) as frozen:
        new(corr, tmp_path / "g.corr", "combat", "--time", "per-move:3,vacation=14")
        frozen.tick(10)
        assert corr("vacation", tmp_path / "g.corr", "--by", "A", "--days", "7").code == 0
        frozen.tick(86400)  # a day into the vacation: 6 days of it, then 3 days less 10 s of thinking
        (g,) = status_json(corr, tmp_path)
        assert g["deadline"] == "2026-03-11T12:00:00Z" and g["vacation_until"] == "2026-03-08T12:00:10Z"
        assert g["time_left_s"] == 9 * 86400 - 10  # until 2026-03-11 12:00:00Z, not the 3 days of thinking
        line = corr("status", tmp_path).out
        assert "deadline 2026-03-11 12:00:00Z, 8d 23h left (on vacation until 2026-03-08 12:00:10Z)" in line
        frozen.move_to("2026-03-08T12:00:10Z")  # back: the clock runs again
        (g,) = status_json(corr, tmp_path)
        assert g["vacation_until"] is None and g["time_left_s"] == 3 * 86400 - 10
        assert "on vacation" not in corr("status", tmp_path).out


def test_a_running_domino_shows_its_own_clock(tmp_path: Path, corr: Callable[..., Run]) -> None:
    with freeze_time(START) as frozen:
        new(corr, tmp_path / "duel.corr", "domino", "-o", "seed=s1")
        frozen.tick(90)
        g = status_json(corr, tmp_path)[0]
        assert (g["deadline"], g["time_left_s"], g["over"]) == ("2026-03-01T12:10:00Z", 510, False)
        assert "deadline 2026-03-01 12:10:00Z, 8m 30s left" in corr("status", tmp_path).out


def test_domino_1_2_a_running_duel_shows_how_far_its_log_has_come(tmp_path: Path, corr: Callable[..., Run]) -> None:
    """The public reads none of a running duel's records (they are the seats' own), so
    its seq stands still at 0; the status line shows the log's seq instead."""
    path = new(corr, tmp_path / "duel.corr", "domino", "-o", "time_limit=none")
    for seat in "ABA":
        move = json.loads(corr("legal", path, "--for", seat, "--json").out)["moves"][0]
        assert corr("move", path, move, "--by", seat, "--format", "none").code == 0
    (g,) = status_json(corr, tmp_path)
    assert g["seq"] == 3 and g["turn"] == ["A", "B"] and not g["over"]
    assert "  seq 3  " in corr("status", tmp_path).out


def test_status_shows_no_hidden_card(tmp_path: Path, corr: Callable[..., Run]) -> None:
    """The dealer's copy (with FILE.secret) and a player's copy summarise alike: the
    public view only."""
    dealer = tmp_path / "dealer"
    player = tmp_path / "player"
    dealer.mkdir()
    player.mkdir()
    game = new(corr, dealer / "cards.corr", "cards")
    card = json.loads(corr("legal", game, "--json").out)["moves"][0]  # the dealer's copy knows A's card
    assert corr("move", game, card, "--format", "none").code == 0
    assert (dealer / "cards.corr.secret").exists()
    shutil.copy(game, player / "cards.corr")
    seen = corr("status", dealer, "--json").out
    assert seen == corr("status", player, "--json").out
    assert corr("status", dealer).out == corr("status", player).out
    assert "hand" in json.loads(corr("show", game, "--for", "B", "--format", "json").out)
    assert "hand" not in seen


def test_a_damaged_or_foreign_file_gets_its_own_line(tmp_path: Path, corr: Callable[..., Run]) -> None:
    good = shutil.copy(EXAMPLES / "combat-4p.corr", tmp_path / "good.corr")
    lines = Path(good).read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"move":"', '"move":"1', 1)  # an edited move breaks the chain
    (tmp_path / "edited.corr").write_text("".join(lines))
    (tmp_path / "notes.corr").write_text("shopping list\n")
    (tmp_path / "empty.corr").write_bytes(b"")
    (tmp_path / "binary.corr").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "folder.corr").mkdir()
    os.mkfifo(tmp_path / "pipe.corr")  # reading it would wait for ever
    (tmp_path / "not-a-log.txt").write_text("ignored: not *.corr\n")
    result = corr("status", tmp_path)
    assert result.code == 0 and result.err == ""
    out = result.out.splitlines()
    assert len(out) == 7
    bad = {line.split()[0]: line for line in out if "error:" in line}
    assert set(bad) == {"edited.corr", "notes.corr", "empty.corr", "binary.corr", "folder.corr", "pipe.corr"}
    assert "not a regular file" in bad["pipe.corr"]
    assert "empty" in bad["empty.corr"]
    assert "seq 6 does not chain" in bad["edited.corr"]  # the edit shows where the next line points back
    assert any(line.startswith("  good.corr") and "over: B Ben wins" in line for line in out)
    games = by_file(status_json(corr, tmp_path))
    for name in bad:
        assert set(games[name]) == KEYS
        assert games[name]["error"] and games[name]["game"] is None and games[name]["seq"] is None
    assert games["good.corr"]["error"] is None


def test_hostile_names_stay_on_one_line(tmp_path: Path, corr: Callable[..., Run]) -> None:
    result = corr("new", "combat", tmp_path / "x\x1b[31m.corr", "-p", "Ann\x1b]0;pwned\x07a", "-p", "Ben",
                  "--format", "none")
    assert result.code == 0, result.err
    out = corr("status", tmp_path).out
    assert "\x1b" not in out and "\x07" not in out and len(out.splitlines()) == 1
    assert json.loads(corr("status", tmp_path, "--json").out)[0]["players"][0]["name"] == "Ann\x1b]0;pwned\x07a"


def test_an_empty_folder(tmp_path: Path, corr: Callable[..., Run]) -> None:
    result = corr("status", tmp_path)
    assert (result.code, result.err) == (0, "")
    assert result.out == f"{tmp_path}: no game logs (*.corr)\n"
    assert status_json(corr, tmp_path) == []


def test_the_current_folder_is_the_default(tmp_path: Path, corr: Callable[..., Run],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    new(corr, tmp_path / "here.corr", "combat")
    monkeypatch.chdir(tmp_path)
    assert [g["file"] for g in status_json(corr)] == ["here.corr"]


def a_file(folder: Path) -> Path:
    path = folder / "file.corr"
    path.write_text("")
    return path


@pytest.mark.parametrize("make, message", [(lambda p: p / "nowhere", "no such folder"), (a_file, "not a folder")])
def test_a_missing_folder_is_one_error(tmp_path: Path, corr: Callable[..., Run], make, message: str) -> None:
    folder = make(tmp_path)
    before = sorted(tmp_path.iterdir())
    result = corr("status", folder)
    assert result.code == 1 and result.out == ""
    assert result.err == f"corr: error: {folder}: {message}\n"
    assert sorted(tmp_path.iterdir()) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any folder")
def test_an_unreadable_folder_is_one_error(tmp_path: Path, corr: Callable[..., Run]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        result = corr("status", locked)
    finally:
        locked.chmod(0o755)
    assert result.code == 1 and result.out == ""
    assert result.err.startswith(f"corr: error: {locked}: cannot read the folder") and result.err.count("\n") == 1


def test_recursive_looks_into_subfolders(tmp_path: Path, corr: Callable[..., Run]) -> None:
    new(corr, tmp_path / "top.corr", "combat")
    (tmp_path / "club").mkdir()
    new(corr, tmp_path / "club" / "inner.corr", "war")
    (tmp_path / "loop").symlink_to(tmp_path)  # a link back up: not followed
    assert [g["file"] for g in status_json(corr, tmp_path)] == ["top.corr"]
    assert [g["file"] for g in status_json(corr, tmp_path, "--recursive")] == ["club/inner.corr", "top.corr"]


def test_json_is_one_document(tmp_path: Path, corr: Callable[..., Run]) -> None:
    new(corr, tmp_path / "game.corr", "combat")
    (tmp_path / "junk.corr").write_text("junk\n")
    out = corr("status", tmp_path, "--json", "--color", "always").out
    games = json.loads(out)  # one value: raises on a second document or any colour code
    assert isinstance(games, list) and len(games) == 2
    assert all(set(g) == KEYS for g in games)
    assert "\x1b" not in out
