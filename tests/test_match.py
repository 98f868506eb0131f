"""Moyo 4.3: the revenge game swaps colours and first move; a match totals victory points."""

from __future__ import annotations

import json
from pathlib import Path

from corr import engine

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STANDARD, REVENGE = EXAMPLES / "moyo-standard.corr", EXAMPLES / "moyo-revenge.corr"


def test_moyo_4_3_revenge_swaps_colours_and_first_move(tmp_path: Path, corr) -> None:
    path = tmp_path / "revenge.corr"
    result = corr("new", "moyo", path, "--revenge-of", STANDARD, "--format", "json")
    assert result.code == 0, result.err
    old, new = engine.load(STANDARD).header, engine.load(path).header
    assert new.options["puzzle"] == old.options["puzzle"]
    assert {new.options["light"], old.options["light"]} == {"A", "B"}
    assert {new.options["first"], old.options["first"]} == {"A", "B"}
    assert [s.name for s in new.seats] == [s.name for s in old.seats]


def test_moyo_4_3_revenge_needs_a_finished_game(tmp_path: Path, corr) -> None:
    unfinished = tmp_path / "open.corr"
    assert corr("new", "moyo", unfinished, "-p", "Anna", "-p", "Ben", "-o", "puzzle=1", "-f", "none").code == 0
    result = corr("new", "moyo", tmp_path / "r.corr", "--revenge-of", unfinished)
    assert result.code == 1 and "not over" in result.err
    assert not (tmp_path / "r.corr").exists()


def test_moyo_4_3_revenge_takes_no_players_or_options(tmp_path: Path, corr) -> None:
    result = corr("new", "moyo", tmp_path / "r.corr", "--revenge-of", STANDARD, "-p", "Cleo")
    assert result.code == 1 and "revenge" in result.err


def test_moyo_4_3_match_total_of_victory_points(corr) -> None:
    result = corr("match", STANDARD, REVENGE, "--format", "json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    first, second = (engine.load(p) for p in (STANDARD, REVENGE))
    points = [r.game.view(r.state, None).shown["victory_points"] for r in (first, second)]
    assert report["total"] == {s: points[0][s] + points[1][s] for s in ("A", "B")}
    best = max(report["total"].values())
    assert report["winners"] == [s for s, n in report["total"].items() if n == best]


def test_match_refuses_games_on_different_puzzles(tmp_path: Path, corr) -> None:
    other = tmp_path / "other.corr"
    assert corr("new", "moyo", other, "-p", "Anna", "-p", "Ben", "-o", "puzzle=2", "-f", "none").code == 0
    result = corr("match", STANDARD, other)
    assert result.code == 1


def test_moyo_4_3_revenge_keeps_addresses_keys_and_time_control(tmp_path: Path, corr) -> None:
    import random

    assert corr("key", "new", "--out", tmp_path / "anna").code == 0
    first = tmp_path / "first.corr"
    assert corr("new", "moyo", first, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>",
                "-o", "puzzle=5", "--key", f"A={tmp_path / 'anna.pub'}", "--time", "per-move:3", "-f", "none").code == 0
    rng = random.Random(1)
    while (rep := engine.load(first)).to_move() is not None:
        seat = rep.to_move()
        key = tmp_path / "anna.key" if seat == "A" else None
        engine.act(first, "move", text=str(rng.choice(rep.game.legal_moves(rep.state))), key=key)
    revenge = tmp_path / "revenge.corr"
    result = corr("new", "moyo", revenge, "--revenge-of", first, "-f", "none")
    assert result.code == 0, result.err
    old, new = engine.load(first).header, engine.load(revenge).header
    assert [(s.name, s.email, s.key) for s in new.seats] == [(s.name, s.email, s.key) for s in old.seats]
    assert new.time_control == old.time_control


# --- 4.3 rulings: a match is exactly a game and its revenge ----------------------------
def assert_refused(result, *words: str) -> None:  # type: ignore[no-untyped-def]
    assert result.code == 1, result.err
    assert result.err.startswith("corr: error: ") and result.err.count("\n") == 1, result.err
    for word in words:
        assert word in result.err, result.err


def finish(path: Path, seed: int = 1) -> engine.Position:
    """Play the game in `path` to its end with random legal moves."""
    import random

    rng = random.Random(seed)
    while (rep := engine.load(path)).to_move() is not None:
        engine.act(path, "move", text=str(rng.choice(rep.game.legal_moves(rep.state))))
    return engine.load(path)


def new_moyo(corr, path: Path, *options: str, referee: Path | None = None) -> Path:  # type: ignore[no-untyped-def]
    args = ["new", "moyo", path, "-p", "Anna", "-p", "Ben", "-f", "none"]
    for option in options:
        args += ["-o", option]
    if referee is not None:
        args += ["--referee", "Rita <rita@example.org>", "--referee-key", referee.with_suffix(".pub")]
    result = corr(*args)
    assert result.code == 0, result.err
    return path


def test_moyo_4_3_a_match_of_the_same_game_twice_is_refused(tmp_path: Path, corr) -> None:
    assert_refused(corr("match", STANDARD, STANDARD), "same game", "not one game twice", "4.3")
    copy = tmp_path / "copy.corr"
    copy.write_bytes(STANDARD.read_bytes())  # another file, the same game
    assert_refused(corr("match", STANDARD, copy), "same game")


def test_moyo_4_3_a_match_of_two_games_with_the_same_roles_is_refused(tmp_path: Path, corr) -> None:
    other = new_moyo(corr, tmp_path / "other.corr", "puzzle=1")  # light A, first A, like STANDARD
    finish(other)
    assert_refused(corr("match", STANDARD, other), "roles are not swapped", "light=A", "first=A", "4.3")
    half = new_moyo(corr, tmp_path / "half.corr", "puzzle=1", "light=B")  # colours swapped, first move not
    finish(half)
    assert_refused(corr("match", STANDARD, half), "roles are not swapped", "first=A")


def test_moyo_4_3_a_match_of_a_standard_and_a_horikomi_game_is_refused(tmp_path: Path, corr) -> None:
    horikomi = new_moyo(corr, tmp_path / "h.corr", "puzzle=1", "variant=horikomi", "light=B", "first=B")
    finish(horikomi)
    assert_refused(corr("match", STANDARD, horikomi), "same variant", "standard and horikomi")


def test_moyo_4_3_a_match_needs_the_same_puzzle_options_and_players(tmp_path: Path, corr) -> None:
    other = new_moyo(corr, tmp_path / "p2.corr", "puzzle=2", "light=B", "first=B")
    assert_refused(corr("match", STANDARD, other), "same puzzle")
    corners = new_moyo(corr, tmp_path / "c.corr", "puzzle=1", "light=B", "first=B", "division=corners")
    finish(corners)
    assert_refused(corr("match", STANDARD, corners), "same division", "DLDDNLLDL and LDLDNDLDL")
    strangers = tmp_path / "s.corr"
    assert corr("new", "moyo", strangers, "-p", "Cleo", "-p", "Dara", "-o", "puzzle=1", "-o", "light=B",
                "-o", "first=B", "-f", "none").code == 0
    finish(strangers)
    assert_refused(corr("match", STANDARD, strangers), "same players")


def test_moyo_4_3_a_match_of_a_draft_game_needs_the_first_pick_swapped(tmp_path: Path, corr) -> None:
    first = new_moyo(corr, tmp_path / "draft.corr", "puzzle=4", "division=draft")
    finish(first)
    revenge = tmp_path / "revenge.corr"
    assert corr("new", "moyo", revenge, "--revenge-of", first, "-f", "none").code == 0
    header = engine.load(revenge).header
    assert (header.options["first_pick"], header.options["first"], header.options["light"]) == ("B", "B", "B")
    assert [r.by for r in finish(revenge, 2).log.records[:8]] == list("BAABBAAB")  # 2.3, roles swapped
    assert corr("match", first, revenge).code == 0
    unswapped = new_moyo(corr, tmp_path / "u.corr", "puzzle=4", "division=draft", "light=B", "first=B")
    finish(unswapped)
    assert_refused(corr("match", first, unswapped), "roles are not swapped", "first_pick=A")


def forfeit(corr, path: Path, key: Path, seat: str) -> None:  # type: ignore[no-untyped-def]
    seq = len(engine.load(path).log.records)
    result = corr("referee", "rule", path, "--seq", str(seq), "--forfeit", seat, "--reason", "left the game",
                  "--sign", key, "-f", "none")
    assert result.code == 0, result.err


def test_moyo_4_3_a_forfeit_gives_the_winner_the_victory_points_of_that_moment(tmp_path: Path, corr) -> None:
    assert corr("key", "new", "--out", tmp_path / "rita").code == 0
    key = tmp_path / "rita.key"
    first = new_moyo(corr, tmp_path / "first.corr", "puzzle=1", referee=key)
    for move in ("2 (5,1)", "3 (5,2)", "4 (5,4)", "7 (5,5)", "5 (5,8)", "4 (1,1)"):
        assert corr("move", first, move, "-f", "none").code == 0
    at_that_moment = engine.load(first)
    b_alone = at_that_moment.game.alone(at_that_moment.state, "B")
    forfeit(corr, first, key, "A")
    revenge = tmp_path / "revenge.corr"
    assert corr("new", "moyo", revenge, "--revenge-of", first, "-f", "none").code == 0
    finish(revenge)
    report = json.loads(corr("match", first, revenge, "--format", "json").out)
    game = report["games"][0]
    assert game["forfeit"] == {"seat": "A", "cause": "by a ruling"} and game["winners"] == ["B"]
    assert game["victory_points"] == {"A": 0, "B": b_alone} and b_alone > 0
    second = engine.load(revenge)
    (winner,) = second.result().winners
    assert report["total"][winner] == second.result().scores[winner] + (b_alone if winner == "B" else 0)
    text = corr("match", first, revenge).out
    assert f"B won, A lost by a ruling (victory points: A 0, B {b_alone})" in text


def test_moyo_4_3_a_match_of_two_forfeited_games(tmp_path: Path, corr) -> None:
    assert corr("key", "new", "--out", tmp_path / "rita").code == 0
    key = tmp_path / "rita.key"
    first = new_moyo(corr, tmp_path / "first.corr", "puzzle=3", referee=key)
    assert corr("move", first, "2 (5,5)", "-f", "none").code == 0
    forfeit(corr, first, key, "A")  # after one stone: B alone could fill the rest
    revenge = tmp_path / "revenge.corr"
    assert corr("new", "moyo", revenge, "--revenge-of", first, "-f", "none").code == 0
    assert corr("move", revenge, "8 (5,8)", "-f", "none").code == 0
    forfeit(corr, revenge, key, "B")
    result = corr("match", first, revenge, "--format", "json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    b_first = report["games"][0]["victory_points"]["B"]
    a_second = report["games"][1]["victory_points"]["A"]
    assert report["games"][0]["victory_points"]["A"] == 0 and report["games"][1]["victory_points"]["B"] == 0
    assert b_first > 0 and a_second > 0
    assert report["total"] == {"A": a_second, "B": b_first}


def test_moyo_4_3_a_horikomi_match_totals_the_moyo_stones_in_ones_own_shima(tmp_path: Path, corr) -> None:
    first = new_moyo(corr, tmp_path / "first.corr", "puzzle=1", "variant=horikomi")
    finish(first, 3)
    revenge = tmp_path / "revenge.corr"
    assert corr("new", "moyo", revenge, "--revenge-of", first, "-f", "none").code == 0
    finish(revenge, 4)
    report = json.loads(corr("match", first, revenge, "--format", "json").out)
    moyo = [engine.load(p).result().scores for p in (first, revenge)]
    assert [g["moyo_stones"] for g in report["games"]] == moyo
    assert report["total"] == {s: moyo[0][s] + moyo[1][s] for s in "AB"} and report["unit"] == "Moyo stones"
    if report["total"]["A"] != report["total"]["B"]:
        assert report["winners"] == [min(report["total"], key=report["total"].get)]
    text = corr("match", first, revenge).out
    assert "total Moyo stones: " in text and "Moyo stones in own Shima: A " in text
