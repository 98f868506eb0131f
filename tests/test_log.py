"""The game log (DESIGN 2): chain, hashes, torn lines, locking, schema."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from corr import engine, randomplay
from corr.errors import CorruptLog, IllegalMove, UsageError
from corr.log import repair, store
from corr.log.models import Record, json_schemas
from corr.resources import resource_dir


def write_game(tmp_path: Path, seed: int = 1, players: int = 2) -> tuple[Path, engine.Position]:
    rep = randomplay.play("combat", ["Anna", "Ben", "Cleo", "Dara"][:players], seed=seed)
    path = tmp_path / f"g{seed}.corr"
    path.write_bytes(store.text(rep.log))
    return path, rep


def test_schemas_folder_matches_the_models() -> None:
    """schemas/ is generated from the pydantic models (`corr schema --out schemas/`)."""
    folder = resource_dir("schemas")
    for filename, schema in json_schemas().items():
        on_disk = json.loads((folder / filename).read_text())
        assert on_disk == schema, f"{filename} drifted from corr/log/models.py: run corr schema --out schemas/"


def test_every_line_validates_against_the_json_schema(tmp_path: Path) -> None:
    import jsonschema
    path, _ = write_game(tmp_path)
    schemas = json_schemas()
    lines = path.read_text().splitlines()
    jsonschema.validate(json.loads(lines[0]), schemas["header.schema.json"])
    for line in lines[1:]:
        jsonschema.validate(json.loads(line), schemas["record.schema.json"])


def test_each_record_chains_to_the_exact_bytes_of_the_line_before(tmp_path: Path) -> None:
    path, _ = write_game(tmp_path)
    lines = path.read_bytes().split(b"\n")[:-1]
    for before, line in zip(lines, lines[1:]):
        assert json.loads(line)["prev"] == store.line_hash(before)


def test_a_log_read_keeps_the_path_it_was_given(tmp_path: Path) -> None:
    """A Path is read as itself, not a copy whose text is parsed again to open it (every
    audit reads thousands of logs); a path given as text is read as its Path."""
    path, _ = write_game(tmp_path)
    assert store.read(path).path is path
    assert store.read(path, raw=False).path is path
    assert store.read(str(path)).path == path and isinstance(store.read(str(path)).path, Path)


def test_replay_reaches_every_stored_state_hash(tmp_path: Path) -> None:
    path, rep = write_game(tmp_path, seed=3, players=3)
    again = engine.load(path)
    assert again.seq == rep.seq and again.game.state_key(again.state) == rep.game.state_key(rep.state)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_random_games_round_trip_through_the_file(tmp_path_factory, seed: int, players: int) -> None:
    tmp = tmp_path_factory.mktemp("rt")
    path, rep = write_game(tmp, seed, players)
    again = engine.load(path)
    assert store.text(again.log) == path.read_bytes()
    assert [r.move for r in again.log.records] == [r.move for r in rep.log.records]
    assert again.game.result(again.state) == rep.game.result(rep.state)


def test_a_torn_last_line_is_reported_and_never_used(tmp_path: Path) -> None:
    path, rep = write_game(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data + b'{"seq":99,"type":"mo')
    log = store.read(path)
    assert log.torn == b'{"seq":99,"type":"mo'
    assert len(log.records) == len(rep.log.records)
    with pytest.raises(CorruptLog, match="torn"):
        engine.act(path, "move", text="1 (1,1)")


def test_repair_cuts_the_torn_line_and_keeps_it_aside(tmp_path: Path) -> None:
    path, _ = write_game(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data + b"{half")
    assert repair.torn_line(path) == (b"{half", False)
    assert path.read_bytes() == data
    assert Path(f"{path}.torn").read_bytes() == b"{half"
    assert repair.torn_line(path) is None


def test_a_refused_move_appends_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {})
    before = path.read_bytes()
    with pytest.raises(IllegalMove):
        engine.act(path, "move", text="7 (5,5)")
    assert path.read_bytes() == before


def test_append_refuses_a_record_built_on_another_tail(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {})
    engine.act(path, "move", text="7 (5,4)")
    before = path.read_bytes()
    with store.writing(path) as writer:
        with pytest.raises(UsageError, match="the log changed"):
            writer.append([], expected_prev="0" * 64)
    assert path.read_bytes() == before


def _append_many(path: str, start: int) -> int:
    """Worker: try to append moves from another process; returns how many went in."""
    moves = ["1 (3,1)", "2 (1,1)", "3 (1,2)", "4 (2,2)", "5 (1,3)", "6 (2,1)", "8 (1,4)", "9 (2,3)"]
    done = 0
    for text in moves[start::2]:
        try:
            engine.act(path, "move", text=text)
            done += 1
        except Exception:
            pass
    return done


def test_concurrent_writers_never_break_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {})
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        counts = pool.starmap(_append_many, [(str(path), 0), (str(path), 1)])
    log = store.read(path)
    assert len(log.records) == sum(counts) > 0
    engine.replay(log)  # every record chains and is legal in turn order


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    path.write_text("precious")
    with pytest.raises(UsageError, match="already exists"):
        engine.new_game(path, "combat", ["Anna", "Ben"], {})
    assert path.read_text() == "precious"


def record_fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every os.fsync from now on, as (kind, name): kind "dir" or "file", name the
    directory's path or the file's inode, so tests can tell which was made durable."""
    synced: list[tuple[str, str]] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            synced.append(("dir", os.path.realpath(f"/proc/self/fd/{fd}")))
        else:
            synced.append(("file", str(st.st_ino)))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def test_appends_are_fsynced_whole_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced = record_fsyncs(monkeypatch)
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {})
    engine.act(path, "move", text="7 (5,4)")
    inode = str(path.stat().st_ino)
    assert synced.count(("file", inode)) == 2  # the header when created, the move when appended
    assert path.read_bytes().endswith(b"}\n")


def test_a_new_log_is_durable_with_its_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A created file survives a crash only once the directory entry is on disk too."""
    synced = record_fsyncs(monkeypatch)
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {})
    inode = str(path.stat().st_ino)
    assert ("file", inode) in synced and ("dir", str(tmp_path.resolve())) in synced
    assert synced.index(("file", inode)) < synced.index(("dir", str(tmp_path.resolve())))


def test_repair_saves_the_torn_line_durably_before_cutting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = write_game(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data + b"{half")
    Path(f"{path}.torn").write_bytes(b"an older torn line")  # a FILE.torn from an earlier repair
    synced = record_fsyncs(monkeypatch)
    assert repair.torn_line(path) == (b"{half", False)
    torn = Path(f"{path}.torn")
    assert torn.read_bytes() == b"{half" and path.read_bytes() == data
    folder = str(tmp_path.resolve())
    # the torn line's file, then the directory holding its new name, then the cut log
    assert synced.index(("file", str(torn.stat().st_ino))) < synced.index(("dir", folder))
    assert synced.index(("dir", folder)) < synced.index(("file", str(path.stat().st_ino)))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, torn.name])  # no temp file left


def test_repair_never_leaves_half_a_torn_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """FILE.torn is replaced atomically: a failure on the way leaves the old one whole,
    the log uncut and no temporary file behind."""
    path, _ = write_game(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data + b"{half")
    Path(f"{path}.torn").write_bytes(b"an older torn line")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(UsageError, match="cannot save the torn line"):
        repair.torn_line(path)
    assert Path(f"{path}.torn").read_bytes() == b"an older torn line"
    assert path.read_bytes() == data + b"{half"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, f"{path.name}.torn"])


def test_a_directory_that_refuses_fsync_is_let_be(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(22, "Invalid argument")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {})
    assert store.read(path).header.game == "combat"


def test_record_model_refuses_unknown_fields() -> None:
    with pytest.raises(Exception):
        Record.model_validate({"seq": 1, "type": "move", "by": "A", "at": "2026-01-01T00:00:00Z",
                               "prev": "0" * 64, "state": "0" * 64, "extra": 1})


def test_repair_restores_the_newline_of_a_whole_last_record_that_verifies(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    assert corr("move", path, "7 (8,7)", "-f", "none").code == 0
    whole = path.read_bytes()
    path.write_bytes(whole[:-1])  # the write got the record out, not its newline
    r = corr("repair", path)
    assert r.code == 0, r.err
    assert "the newline is restored" in r.out
    assert path.read_bytes() == whole and not Path(f"{path}.torn").exists()
    assert corr("audit", path).code == 0


def test_repair_cuts_a_whole_last_record_that_does_not_verify(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    assert corr("move", path, "7 (8,7)", "-f", "none").code == 0
    whole = path.read_bytes()
    before, last = whole[:-1].rsplit(b"\n", 1)
    forged = last.replace(b'"move":"7 (8,7)"', b'"move":"6 (8,7)"')  # the state hash gives it away
    path.write_bytes(before + b"\n" + forged)
    r = corr("repair", path)
    assert r.code == 0 and "cut" in r.out, (r.out, r.err)
    assert path.read_bytes() == before + b"\n" and Path(f"{path}.torn").read_bytes() == forged
