"""The game log (DESIGN 2): chain, hashes, torn lines, locking, schema."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from corr import engine, randomplay
from corr.errors import CorruptLog, IllegalMove, UsageError
from corr.log import store
from corr.log.models import Record, json_schemas
from corr.render import resource_dir


def write_game(tmp_path: Path, seed: int = 1, players: int = 2) -> tuple[Path, engine.Replay]:
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
    assert store.repair(path) == b"{half"
    assert path.read_bytes() == data
    assert Path(f"{path}.torn").read_bytes() == b"{half"
    assert store.repair(path) is None


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


def test_appends_are_fsynced_whole_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {})
    engine.act(path, "move", text="7 (5,4)")
    assert len(synced) == 2
    assert path.read_bytes().endswith(b"}\n")


def test_record_model_refuses_unknown_fields() -> None:
    with pytest.raises(Exception):
        Record.model_validate({"seq": 1, "type": "move", "by": "A", "at": "2026-01-01T00:00:00Z",
                               "prev": "0" * 64, "state": "0" * 64, "extra": 1})
