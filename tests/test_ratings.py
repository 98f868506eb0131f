"""`corr ratings`: Glicko-2 and Plackett-Luce lists over finished, audited games."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

import pytest
from freezegun import freeze_time

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_glicko2_library_reproduces_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": a player at 1500, RD 200, volatility
    0.06 (tau 0.5) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300):
    mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999, so r' = 1464.06 and RD' = 151.52."""
    import glicko2

    player = glicko2.Player(rating=1500, rd=200, vol=0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert (player.rating - 1500) / 173.7178 == pytest.approx(-0.2069, abs=5e-5)
    assert player.rd / 173.7178 == pytest.approx(0.8722, abs=5e-5)
    assert player.vol == pytest.approx(0.05999, abs=5e-6)
    assert player.rating == pytest.approx(1464.06, abs=0.01)
    assert player.rd == pytest.approx(151.52, abs=0.01)


def _war(corr: Callable, path: Path, white: str, black: str, end: str, when: str) -> Path:
    """A War game between two players, ended at `when` by `end`: `A resigns`, `B resigns`
    or `draw` (A offers, B accepts)."""
    with freeze_time(when):
        r = corr("new", "war", path, "--player", white, "--player", black, "--format", "none")
        assert r.code == 0, r.err
        if end == "draw":
            assert corr("draw", "offer", path, "--by", "A").code == 0
            r = corr("draw", "accept", path, "--by", "B")
        else:
            r = corr("resign", path, "--by", end.split()[0])
        assert r.code == 0, r.err
    return path


def _ratings(corr: Callable, *args: str | Path) -> dict:
    r = corr("ratings", *args, "--json")
    assert r.code == 0, r.err
    return json.loads(r.out)


def _players(report: dict, game: str, system: str) -> dict[str, dict]:
    table = next(t for t in report["ratings"] if t["game"] == game and t["system"] == system)
    return {p["player"]: p for p in table["players"]}


def test_ratings_the_winner_goes_up_and_the_loser_down(tmp_path: Path, corr) -> None:
    _war(corr, tmp_path / "one.corr", "Anna", "Ben", "B resigns", "2026-03-01 12:00:00")
    players = _players(_ratings(corr, tmp_path), "war", "glicko-2")
    assert players["Anna"]["rating"] > 1500 > players["Ben"]["rating"]
    assert players["Anna"]["rating"] - 1500 == pytest.approx(1500 - players["Ben"]["rating"])
    assert (players["Anna"]["wins"], players["Ben"]["losses"]) == (1, 1)
    assert players["Anna"]["deviation"] < 350 and players["Ben"]["deviation"] < 350


def test_ratings_a_draw_between_equals_leaves_them_where_they_were(tmp_path: Path, corr) -> None:
    _war(corr, tmp_path / "drawn.corr", "Anna", "Ben", "draw", "2026-03-01 12:00:00")
    players = _players(_ratings(corr, tmp_path), "war", "glicko-2")
    for name in ("Anna", "Ben"):
        assert players[name]["rating"] == pytest.approx(1500, abs=0.01)
        assert players[name]["draws"] == 1 and players[name]["deviation"] < 350


def test_ratings_take_games_in_the_order_they_ended_not_by_file_name(tmp_path: Path, corr) -> None:
    """Anna loses to Ben, then beats him: taken in the order played, her win against a
    risen Ben counts for more than her loss against an unknown one, so she ends above
    1500; taken in file-name order she would not."""
    _war(corr, tmp_path / "b-first.corr", "Anna", "Ben", "A resigns", "2026-03-01 12:00:00")
    _war(corr, tmp_path / "a-second.corr", "Anna", "Ben", "B resigns", "2026-03-02 12:00:00")
    report = _ratings(corr, tmp_path)
    assert [g["file"] for g in report["rated"]] == [str(tmp_path / "b-first.corr"), str(tmp_path / "a-second.corr")]
    players = _players(report, "war", "glicko-2")
    assert players["Anna"]["rating"] > 1500 > players["Ben"]["rating"]


def test_ratings_know_a_player_by_address_then_by_name(tmp_path: Path, corr) -> None:
    _war(corr, tmp_path / "one.corr", "Anna <ANNA@example.org>", "Ben", "B resigns", "2026-03-01 12:00:00")
    _war(corr, tmp_path / "two.corr", "Anna Weber <anna@example.org>", "Ben", "B resigns", "2026-03-02 12:00:00")
    players = _players(_ratings(corr, tmp_path), "war", "glicko-2")
    assert set(players) == {"<anna@example.org>", "Ben"}
    anna = players["<anna@example.org>"]
    assert (anna["games"], anna["wins"], anna["name"]) == (2, 2, "Anna Weber")


def test_ratings_place_multiplayer_seats_by_their_placing(tmp_path: Path, corr) -> None:
    """combat-4p: B wins (4), C and D tie on 2, A has 0; cards-3p: A 210, C 204, B 201."""
    for name in ("combat-4p.corr", "cards-3p.corr"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    report = _ratings(corr, tmp_path)
    combat = _players(report, "combat", "plackett-luce")
    order = sorted(combat, key=lambda p: -combat[p]["rating"])
    assert order[0] == "Ben" and order[-1] == "Anna"
    assert combat["Cleo"]["rating"] == pytest.approx(combat["Dara"]["rating"])
    assert combat["Ben"]["wins"] == 1 and combat["Cleo"]["losses"] == 1
    cards = _players(report, "cards", "plackett-luce")
    ranked = [p["player"] for p in next(t for t in report["ratings"] if t["game"] == "cards")["players"]]
    assert [cards[p]["address"] for p in ranked] == ["anna@example.org", "cleo@example.org", "ben@example.org"]
    places = {Path(g["file"]).name: g["places"] for g in report["rated"]}
    assert places == {"combat-4p.corr": [4, 1, 2, 2], "cards-3p.corr": [1, 3, 2]}


def test_ratings_keep_each_game_and_size_apart(tmp_path: Path, corr) -> None:
    for name in ("combat-4p.corr", "combat-2p-anna-ben.corr", "moyo-standard.corr"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    report = _ratings(corr, tmp_path)
    assert [(t["game"], t["system"]) for t in report["ratings"]] == [
        ("combat", "glicko-2"), ("combat", "plackett-luce"), ("moyo", "glicko-2")]
    only = _ratings(corr, tmp_path, "--game", "MOYO")
    assert [t["game"] for t in only["ratings"]] == ["moyo"]


def test_ratings_output_is_the_same_every_time_and_fits_80_columns(tmp_path: Path, corr) -> None:
    for path in EXAMPLES.glob("*.corr"):
        shutil.copy(path, tmp_path / path.name)
    first = corr("ratings", tmp_path)
    again = corr("ratings", tmp_path, tmp_path)  # a folder named twice counts once
    assert first.code == 0 and first.out == again.out
    assert all(len(line) <= 80 for line in first.out.splitlines())
    assert "Glicko-2" in first.out and "Plackett-Luce" in first.out
    assert first.out.rstrip().endswith("rated 13 games; skipped 1 log: 1 one seat")


def test_ratings_show_hostile_names_escaped_and_within_the_line(tmp_path: Path, corr) -> None:
    _war(corr, tmp_path / "h.corr", "Anna\x1b]52;c;aGk=\x07", "Ben\rresult: B wins" + "x" * 150,
         "B resigns", "2026-03-01 12:00:00")
    r = corr("ratings", tmp_path)
    assert r.code == 0, r.err
    assert "\x1b" not in r.out and "\r" not in r.out and "\x07" not in r.out
    assert "Anna\\x1b]52;c;aGk=\\x07" in r.out and "Ben\\rresult: B wins" in r.out
    assert all(len(line) <= 80 for line in r.out.splitlines())
    assert not any(line.startswith("result:") for line in r.out.splitlines())


def test_ratings_skip_what_cannot_be_rated_and_say_why(tmp_path: Path, corr) -> None:
    _war(corr, tmp_path / "good.corr", "Anna", "Ben", "B resigns", "2026-03-01 12:00:00")
    broken = _war(corr, tmp_path / "broken.corr", "Anna", "Ben", "A resigns", "2026-03-02 12:00:00")
    broken.write_bytes(broken.read_bytes().replace(b'"by":"A"', b'"by":"B"', 1))
    with freeze_time("2026-03-03 12:00:00"):
        assert corr("new", "war", tmp_path / "running.corr", "--player", "Anna", "--player", "Ben",
                    "--format", "none").code == 0
    _war(corr, tmp_path / "mirror.corr", "Anna", "anna <x@example.org>", "B resigns", "2026-03-04 12:00:00")
    _war(corr, tmp_path / "self.corr", "Cleo <c@example.org>", "C <C@example.org>", "B resigns", "2026-03-04 12:00:00")
    shutil.copy(EXAMPLES / "domino-solo.corr", tmp_path / "solo.corr")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "notes.corr").write_text("not a log\n")
    report = _ratings(corr, tmp_path)
    reasons = {Path(s["file"]).name: s["reason"] for s in report["skipped"]}
    assert reasons == {"broken.corr": "corrupt", "running.corr": "unfinished", "solo.corr": "one seat",
                       "self.corr": "one player in two seats", "notes.corr": "corrupt"}
    assert [Path(g["file"]).name for g in report["rated"]] == ["good.corr", "mirror.corr"]
    r = corr("ratings", tmp_path)
    assert r.out.rstrip().endswith(
        "rated 2 games; skipped 5 logs: 2 corrupt, 1 unfinished, 1 one seat, 1 one player in two seats")
    assert "skipped" not in r.out.rstrip().splitlines()[-2]
    verbose = corr("ratings", tmp_path, "--verbose").out.splitlines()
    said = [line for line in verbose if line.startswith("skipped ") and ": " in line]
    assert len(said) == 5  # a line per skipped log
    assert any(line.startswith(f"skipped {tmp_path / 'running.corr'}: unfinished") for line in said)


def test_ratings_refuse_a_missing_folder_and_an_unknown_game_in_one_line(tmp_path: Path, corr) -> None:
    r = corr("ratings", tmp_path / "nowhere")
    assert (r.code, r.out) == (1, "") and r.err.count("\n") == 1 and "no such folder" in r.err
    r = corr("ratings", tmp_path, "--game", "chess")
    assert r.code == 1 and r.err.count("\n") == 1 and "unknown game 'chess'" in r.err


def test_ratings_with_no_finished_game_say_so(tmp_path: Path, corr) -> None:
    r = corr("ratings", tmp_path)
    assert (r.code, r.out) == (0, "no finished game to rate\nrated 0 games; skipped no log\n")

