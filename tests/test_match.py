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
    points = [r.game.describe(r.state)["victory_points"] for r in (first, second)]
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
