"""A failed write changes nothing: a log that cannot grow (a full disk, a file size
limit) is cut back to the size it had, and a move whose mail sidecar cannot be written
is not taken. Real processes meet a real limit (RLIMIT_FSIZE: the kernel refuses every
byte past it, as a full disk does, after writing what fits)."""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_crash import reply

from corr import engine
from corr.log import store

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]


def limited(args: list[str | Path], cwd: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """`corr ARGS` in a process that may write no file past `limit` bytes."""

    def cap() -> None:  # pragma: no cover - runs in the child
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "corr", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          preexec_fn=cap, timeout=120, env={**os.environ, "CORR_CACHE_DIR": str(cwd / "cache")})


def test_a_move_the_disk_cannot_take_leaves_the_log_as_it_was(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", PLAYERS, {})
    assert corr("move", path, "7 (8,7)", "--format", "none").code == 0
    before = path.read_bytes()
    # room for part of the next line only: the kernel writes what fits, then refuses
    r = limited(["move", path, "5 (1,1)", "--format", "none"], tmp_path, len(before) + 40)
    assert r.returncode == 1, r.stderr
    assert r.stderr.startswith("corr: error: ") and r.stderr.count("\n") == 1
    assert "could not write to the log" in r.stderr and "the log is as it was" in r.stderr
    assert path.read_bytes() == before  # no torn line for the next command to trip on
    assert corr("move", path, "5 (1,1)", "--format", "none").code == 0
    assert corr("audit", path).code == 0


def test_a_failed_append_cuts_the_file_back_and_the_next_append_continues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", PLAYERS, {})
    before = path.read_bytes()
    real = os.pwrite

    def half_then_full(fd: int, data: bytes, offset: int) -> int:  # the disk fills half way through
        real(fd, bytes(data[: len(data) // 2]), offset)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "pwrite", half_then_full)
    with pytest.raises(Exception, match="No space left on device"):
        engine.act(path, "move", by="A", text="7 (8,7)")
    assert path.read_bytes() == before
    monkeypatch.setattr(os, "pwrite", real)
    table, records = engine.act(path, "move", by="A", text="7 (8,7)")
    assert records[0].seq == 1 and store.read(path).records[0].move == "7 (8,7)"


def test_a_block_that_fails_after_its_append_takes_the_append_back(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", PLAYERS, {})
    before = path.read_bytes()
    with pytest.raises(RuntimeError), engine.writing(path) as table:
        table.add("move", "A", "7 (8,7)")
        assert path.read_bytes() != before  # appended and synced: the block is not over yet
        raise RuntimeError("what had to be written with it could not be")
    assert path.read_bytes() == before
    assert engine.load(path).seq == 0


def test_a_mailed_move_whose_sidecar_cannot_be_written_is_not_taken(
    tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    from corr.log import sidecars

    games = tmp_path / "games"
    games.mkdir()
    path = games / "g.corr"
    engine.new_game(path, "combat", PLAYERS, {})
    game_id = engine.load(path).header.id
    message = tmp_path / "m.eml"
    message.write_bytes(reply(game_id, 0, "A", "7 (8,7)", "<m0@example.org>"))
    before = path.read_bytes()
    real = sidecars.replace_file

    def full(target: Path, data: bytes, mode: int = 0o644, sync_folder: bool = True) -> None:
        # the log had room; the sidecar has none
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    monkeypatch.setattr(sidecars, "replace_file", full)
    r = corr("mail", "ingest", message, "--games", games)
    assert r.code == 1, (r.out, r.err)
    said = r.out + r.err
    assert "internal error" not in said and "No space left on device" in said and "nothing was taken" in said
    assert path.read_bytes() == before  # not taken, so the same message is taken when it comes again
    monkeypatch.setattr(sidecars, "replace_file", real)
    again = corr("mail", "ingest", message, "--games", games)
    assert again.code == 0, again.err
    assert [r.move for r in store.read(path).records] == ["7 (8,7)"]


def test_a_new_game_the_disk_cannot_hold_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    r = limited(["new", "combat", path, "-p", "Anna", "-p", "Ben", "--format", "none"], tmp_path, 100)
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "File too large" in r.stderr
    assert not path.exists() and list(tmp_path.glob("g.corr*")) == []
