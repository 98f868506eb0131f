"""`corr archive search` and `stats`: the finished example games of all five kinds,
found by player, game, result, finding and dates, and counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def db(tmp_path: Path, corr, finished_games: Path) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "a.sqlite"
    assert corr("archive", "import", finished_games, "--db", path).code == 0
    return path


def ids(corr, db: Path, *args: str) -> set[str]:  # type: ignore[no-untyped-def]
    r = corr("archive", "search", "--db", db, *args, "--json")
    assert r.code == 0, r.err
    return {g["id"] for g in json.loads(r.out)}


def test_archive_search_by_player_in_any_case_and_result(corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    assert ids(corr, db, "--player", "ben okafor") == {"combat-8b4318b2"}
    assert ids(corr, db, "--player", "Anna Weber", "--result", "lost") == {"combat-8b4318b2"}
    assert ids(corr, db, "--player", "Anna Weber", "--result", "won") == set()
    won = ids(corr, db, "--player", "anna", "--result", "won")
    assert "combat-28b90299" in won and "domino-c79c5142" in won and "cards-30ab2820" not in won
    assert ids(corr, db, "--player", "cleo", "--result", "won") == {"cards-30ab2820"}
    assert ids(corr, db, "--result", "open") == set()


def test_archive_search_by_game_finding_and_dates(corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    assert ids(corr, db, "--game", "war") == {"war-1e5ad601", "war-54f9a129"}
    assert ids(corr, db, "--finding", "ruling") == {"combat-28b90299"}
    assert ids(corr, db, "--finding", "challenge") == {"combat-d1b02780", "cards-30ab2820"}
    assert ids(corr, db, "--finding", "challenge-rejected") == {"combat-d1b02780"}
    assert ids(corr, db, "--finding", "challenge-%") == set()  # no wildcard from the command line
    later = ids(corr, db, "--since", "2026-11-30")
    earlier = ids(corr, db, "--until", "2026-11-29")
    assert later and earlier and not later & earlier
    assert {i.split("-")[0] for i in earlier} == {"combat", "moyo"}
    assert ids(corr, db, "--since", "2026-11-29", "--until", "2026-11-29") == earlier


def test_archive_search_prints_one_line_per_game(corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    r = corr("archive", "search", "--db", db, "--player", "Anna Weber")
    assert r.code == 0
    assert r.out == ("combat-8b4318b2  combat  2026-11-29..2026-11-29  38 records  A Anna Weber, B Ben Okafor  "
                     "Ben Okafor wins\n")


@pytest.mark.parametrize("args, message", [
    (("--since", "2026-13-01"), "--since '2026-13-01': not a date; give it as YYYY-MM-DD"),
    (("--until", "yesterday"), "--until 'yesterday': not a date; give it as YYYY-MM-DD"),
    (("--since", "2026-12-02", "--until", "2026-12-01"), "--since 2026-12-02 is after --until 2026-12-01"),
    (("--result", "win"), "--result 'win': choose one of won, lost, drawn, open"),
])
def test_archive_search_refuses_bad_options_in_one_line(corr, db: Path, args, message) -> None:  # type: ignore[no-untyped-def]
    r = corr("archive", "search", "--db", db, *args)
    assert r.code == 1 and r.err.startswith(f"corr: error: {message}") and r.err.count("\n") == 1 and not r.out


def test_archive_stats_per_game_and_for_a_player(corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    r = corr("archive", "stats", "--db", db, "--json")
    found = json.loads(r.out)
    assert set(found["games"]) == {"combat", "moyo", "cards", "domino", "war"}
    assert found["games"]["war"] == {"games": 2, "finished": 2, "decided": 2, "drawn": 0, "open": 0,
                                     "average_records": 12.0}
    assert found["players"][0] == {"player": "Anna", "games": 11}
    r = corr("archive", "stats", "--db", db, "--player", "anna", "--json")
    mine = json.loads(r.out)
    assert mine["games"]["cards"] == {"games": 2, "won": 1, "drawn": 0, "lost": 1, "open": 0, "average_records": 49.0}
    assert mine["opponents"][0] == {"player": "Ben", "games": 10}
    text = corr("archive", "stats", "--db", db, "--player", "anna").out
    assert "cards: 2 games, 1 won, 0 drawn, 1 lost, 0 open, 49.0 records on average\n" in text
    assert text.endswith("opponents: Ben 10, Cleo 4, Dara 1\n")


def test_archive_search_shows_hostile_names_as_escapes(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    game = tmp_path / "g.corr"
    assert corr("new", "combat", game, "-p", "Anna\x1b]52;c;aGk=\x07", "-p", "Ben", "--format", "none").code == 0
    db = tmp_path / "a.sqlite"
    assert corr("archive", "import", game, "--db", db).code == 0
    r = corr("archive", "search", "--db", db)
    assert "\x1b" not in r.out and "\x07" not in r.out and "in progress" in r.out
    assert ids(corr, db, "--result", "open") and ids(corr, db, "--player", "ben", "--result", "open")
