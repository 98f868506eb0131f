"""`corr archive import`: each log audited as `corr audit` does, stored once, a longer
copy replacing its prefix, a corrupt log listed and never stored; two imports at once."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from corr import randomplay
from corr.log import store

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = ("combat", "moyo", "cards", "domino", "war")


def stored(db: Path) -> dict[str, tuple[int, bytes]]:
    with sqlite3.connect(db) as conn:
        return {i: (n, bytes(log)) for i, n, log in conn.execute("SELECT id, records, log FROM games")}


def test_archive_imports_finished_games_of_all_five_kinds(tmp_path: Path, corr, finished_games: Path) -> None:  # type: ignore[no-untyped-def]
    games = finished_games
    db = tmp_path / "a.sqlite"
    r = corr("archive", "import", games, "--db", db)
    assert r.code == 0, r.err
    logs = sorted(games.glob("*.corr"))
    assert r.out.count(": stored ") == len(logs) and r.out.endswith(f"{len(logs)} logs: {len(logs)} stored\n")
    rows = stored(db)
    assert {i.split("-")[0] for i in rows} == set(GAMES)
    assert sorted(log for _, log in rows.values()) == sorted(p.read_bytes() for p in logs)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == 1
        findings = {k for (k,) in conn.execute("SELECT DISTINCT kind FROM findings")}
    assert {"ruling", "challenge-upheld", "challenge-rejected", "illegal-unchallenged"} <= findings


def test_archive_reimport_of_the_same_logs_changes_nothing(tmp_path: Path, corr, finished_games: Path) -> None:  # type: ignore[no-untyped-def]
    games = finished_games
    db = tmp_path / "a.sqlite"
    assert corr("archive", "import", games, "--db", db).code == 0
    before = stored(db)
    r = corr("archive", "import", games, "--db", db)
    assert r.code == 0 and ": stored " not in r.out and r.out.count(": unchanged ") == len(before)
    assert stored(db) == before


def test_archive_longer_copy_replaces_its_prefix_and_a_shorter_one_keeps_it(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    full = EXAMPLES / "combat-2p-anna-ben.corr"
    lines = full.read_bytes().splitlines(keepends=True)
    short = tmp_path / "short.corr"
    short.write_bytes(b"".join(lines[:21]))
    db = tmp_path / "a.sqlite"
    assert corr("archive", "import", short, "--db", db).code == 0
    assert [n for n, _ in stored(db).values()] == [20]
    r = corr("archive", "import", full, "--db", db)
    assert r.code == 0 and ": replaced combat-8b4318b2 (a longer copy: 20 records before, 38 now)" in r.out
    assert list(stored(db).values()) == [(38, full.read_bytes())]
    r = corr("archive", "import", short, "--db", db)
    assert r.code == 0 and ": kept-longer " in r.out
    assert list(stored(db).values()) == [(38, full.read_bytes())]
    with sqlite3.connect(db) as conn:  # the replaced copy's seats went with it
        assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 2


def test_archive_refuses_another_game_under_a_stored_id(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "one.corr", tmp_path / "two.corr"
    for path, seed in ((first, 1), (second, 2)):
        rep = randomplay.play("combat", ["Anna", "Ben"], {}, seed=seed, game_id="combat-0000cafe")
        path.write_bytes(store.text(rep.log))
    db = tmp_path / "a.sqlite"
    assert corr("archive", "import", first, "--db", db).code == 0
    r = corr("archive", "import", second, "--db", db)
    assert r.code == 1 and ": conflict combat-0000cafe (another copy of this game, which parts from this one" in r.out
    assert list(stored(db).values())[0][1] == first.read_bytes()


def test_archive_lists_a_corrupt_log_with_its_reason_and_never_stores_it(
    tmp_path: Path, corr, finished_games: Path  # type: ignore[no-untyped-def]
) -> None:
    games = finished_games
    tampered = games / "combat-4p.corr"
    tampered.write_bytes(tampered.read_bytes().replace(b'"move":"', b'"move":"1', 1))
    (games / "notes.corr").write_text("not a game\n")
    db = tmp_path / "a.sqlite"
    r = corr("archive", "import", games, "--db", db)
    assert r.code == 2
    corrupt = [line for line in r.out.splitlines() if ": corrupt" in line]
    assert len(corrupt) == 2 and any("combat-4p.corr: corrupt (seq 2 does not chain" in line for line in corrupt)
    assert any("notes.corr: corrupt (line 1 is not a valid corr header" in line for line in corrupt)
    assert "combat-66bbefc1" not in stored(db) and len(stored(db)) == len(list(games.glob("*.corr"))) - 2


def test_archive_import_refuses_a_missing_folder_in_one_line(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    r = corr("archive", "import", tmp_path / "nowhere", "--db", tmp_path / "a.sqlite")
    assert r.code == 1 and r.err == f"corr: error: {tmp_path / 'nowhere'}: no such file or folder\n"
    assert not (tmp_path / "a.sqlite").exists()


def test_archive_refuses_a_file_that_is_not_an_archive(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    r = corr("archive", "search", "--db", other)
    assert r.code == 1 and r.err == f"corr: error: {other}: an SQLite file, but not a corr archive\n"
    text = tmp_path / "text.sqlite"
    text.write_text("hello\n" * 200)
    r = corr("archive", "import", EXAMPLES / "war-pieces.corr", "--db", text)
    assert r.code == 1 and r.err.startswith(f"corr: error: {text}: not a corr archive") and r.err.count("\n") == 1
    r = corr("archive", "search", "--db", tmp_path / "none.sqlite")
    assert r.code == 1 and "no such archive" in r.err and not (tmp_path / "none.sqlite").exists()


def test_archive_two_imports_at_once_store_every_game_once(tmp_path: Path) -> None:
    logs = [store.text(randomplay.play("combat", ["Anna", "Ben"], {}, seed=seed, game_id=f"combat-{seed:08x}").log)
            for seed in range(45)]
    folders = [tmp_path / "games0", tmp_path / "games1"]
    for k, folder in enumerate(folders):
        folder.mkdir()
        for seed in range(15 * k, 15 * k + 30):
            (folder / f"g{seed}.corr").write_bytes(logs[seed])
    db = tmp_path / "a.sqlite"
    runs = [subprocess.Popen([sys.executable, "-m", "corr", "archive", "import", str(folder), "--db", str(db),
                              "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for folder in folders]
    results = [run.communicate(timeout=600) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], results
    counts = [json.loads(out)["counts"] for out, _ in results]
    # 45 games in all; the 15 both folders hold were stored by one and found unchanged by the other
    assert sum(c.get("stored", 0) for c in counts) == 45 and sum(c.get("unchanged", 0) for c in counts) == 15
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 45
        assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 90
