"""`corr archive export`: PGN a PGN reader splits and reads the tags of, which reads
back into byte-identical logs that audit; JSON Lines; a hostile PGN file stores nothing."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from corr.audit import audit


def logs(db: Path) -> dict[str, bytes]:
    with sqlite3.connect(db) as conn:
        return {i: bytes(log) for i, log in conn.execute("SELECT id, log FROM games")}


@pytest.fixture
def db(tmp_path: Path, corr, finished_games: Path) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "a.sqlite"
    assert corr("archive", "import", finished_games, "--db", path).code == 0
    return path


def test_archive_pgn_reads_back_into_byte_identical_logs_that_audit(tmp_path: Path, corr, db: Path,
                                                                     finished_games: Path) -> None:  # type: ignore[no-untyped-def]
    pgn = tmp_path / "all.pgn"
    r = corr("archive", "export", "--db", db, "--format", "pgn", "--out", pgn)
    assert r.code == 0 and r.out == f"14 games written to {pgn}\n"
    copy = tmp_path / "copy.sqlite"
    r = corr("archive", "import", pgn, "--db", copy)
    assert r.code == 0 and r.out.endswith("14 logs: 14 stored\n")
    back = logs(copy)
    assert back == logs(db)
    originals = {p.read_bytes() for p in finished_games.glob("*.corr")}
    assert set(back.values()) == originals
    for k, data in enumerate(back.values()):
        path = tmp_path / f"back{k}.corr"
        path.write_bytes(data)
        assert audit(path)["intact"]
    assert corr("archive", "import", pgn, "--db", copy).out.endswith("14 logs: 14 unchanged\n")


def test_archive_pgn_has_the_tags_and_numbered_moves_a_pgn_reader_expects(tmp_path: Path, corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    pgn = tmp_path / "anna.pgn"
    assert corr("archive", "export", "--db", db, "--player", "anna weber", "--out", pgn).code == 0
    text = pgn.read_text()
    games = [g for g in re.split(r"\n\n(?=\[)", text) if g.strip()]
    assert len(games) == 1
    tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', text, re.M))
    assert {k: tags[k] for k in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "A", "B", "Game",
                                 "Id", "Options", "Winners")} == {
        "Event": "corr combat", "Site": "?", "Date": "2026.11.29", "Round": "-", "White": "Anna Weber",
        "Black": "Ben Okafor", "Result": "0-1", "A": "Anna Weber", "B": "Ben Okafor", "Game": "combat",
        "Id": "combat-8b4318b2", "Options": "conquest=claim mode=strict", "Winners": "B"}
    assert "\n1. A 9 (5,1) ; {\"seq\":1," in text and text.endswith("\n0-1\n\n")


def test_archive_jsonl_is_one_game_a_line(tmp_path: Path, corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "war.jsonl"
    assert corr("archive", "export", "--db", db, "--game", "war", "--format", "jsonl", "--out", out).code == 0
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert {g["id"] for g in games} == {"war-1e5ad601", "war-54f9a129"}
    assert all(g["over"] and g["seats"][0]["result"] == "won" for g in games)


def test_archive_export_refuses_an_unknown_format_and_writes_nothing(tmp_path: Path, corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    r = corr("archive", "export", "--db", db, "--format", "sgf", "--out", tmp_path / "x.sgf")
    assert r.code == 1 and r.err == "corr: error: --format 'sgf': choose one of pgn, jsonl\n"
    assert not (tmp_path / "x.sgf").exists()


def test_archive_a_tampered_pgn_game_is_corrupt_and_not_stored(tmp_path: Path, corr, db: Path) -> None:  # type: ignore[no-untyped-def]
    pgn = tmp_path / "all.pgn"
    corr("archive", "export", "--db", db, "--game", "war", "--out", pgn)
    pgn.write_text(pgn.read_text().replace('"move":"5 (9,4)-(8,3)"', '"move":"5 (9,4)-(7,3)"'))
    copy = tmp_path / "copy.sqlite"
    r = corr("archive", "import", pgn, "--db", copy)
    assert r.code == 2 and "game 1 (line 1): corrupt" in r.out and ": stored war-54f9a129" in r.out
    assert set(logs(copy)) == {"war-54f9a129"}


def test_archive_a_pgn_game_corr_did_not_write_is_listed(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    pgn = tmp_path / "chess.pgn"
    pgn.write_text('[Event "x"]\n[White "a"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 *\n')
    r = corr("archive", "import", pgn, "--db", tmp_path / "a.sqlite")
    assert r.code == 1 and "game 1 (line 1): not-corr (no CorrHeader tag: a game corr did not write)" in r.out


@pytest.mark.parametrize("text, message", [
    (b'[Event "x"]\n\n1. e4 {never closed\n*\n', "line 3: a comment `{` that is never closed"),
    (b'[Event "x\n\n*\n', "line 1: not a PGN tag"),
    (b'[Event "x"]\n[Event "y"]\n\n*\n', "line 2: a second Event tag in one game"),
    (b'[Event "\xff"]\n\n*\n', "line 1: not UTF-8 text"),
    (b'[Event "x"]\n\n1. e4 ' + b"(" * 100 + b"\n", "line 3: variations nested deeper than 64"),
    (b'[Event "x"]\n\n1. e4 )\n', "line 3: a `)` that closes no variation"),
    (b'[Event "x"]\n\n1. e4\n', "line 1: the game starting here ends without a result"),
    (b'[Event "' + b"x" * 300_000 + b'"]\n\n*\n', "line 1: longer than 256 KiB"),
])
def test_archive_a_hostile_pgn_stores_nothing_and_names_the_line(tmp_path: Path, corr, text: bytes,
                                                                message: str) -> None:  # type: ignore[no-untyped-def]
    pgn = tmp_path / "bad.pgn"
    pgn.write_bytes(text)
    db = tmp_path / "a.sqlite"
    r = corr("archive", "import", pgn, "--db", db)
    assert r.code == 1 and r.err == f"corr: error: {pgn}: {message}" + r.err.split(message, 1)[1]
    assert r.err.count("\n") == 1 and not r.out and not db.exists()
