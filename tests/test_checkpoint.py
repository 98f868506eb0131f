"""The position a command goes on from (corr.engine.checkpoint): the one a replay from
the first line gives, never trusted blindly, never taken from anyone else."""

from __future__ import annotations

import hashlib
import hmac
import json
import pickle
from pathlib import Path

import pytest

from corr import engine
from corr.engine import checkpoint, opening
from corr.errors import CorruptLog
from corr.log import store


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test its own cache, and checkpoints for short logs too."""
    monkeypatch.setenv("CORR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(checkpoint, "MIN_RECORDS", 4)
    monkeypatch.setattr(checkpoint, "REFRESH", 4)
    monkeypatch.setattr(checkpoint, "_last", None)


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many records each full replay (from the first line) judged."""
    counted: list[int] = []
    real = opening._replay

    def counting(log, *args, **kwargs):  # type: ignore[no-untyped-def]
        counted.append(len(log.records))
        return real(log, *args, **kwargs)

    monkeypatch.setattr(opening, "_replay", counting)
    return counted


MOVES = ["7 (8,7)", "8 (4,6)", "6 (8,4)", "2 (5,3)", "9 (1,3)", "1 (3,9)", "2 (7,3) !", "3 (2,2)", "3 (6,4)"]


def game(corr, tmp_path: Path, moves: list[str] = MOVES) -> Path:  # type: ignore[no-untyped-def]
    """A Combat game of the README's opening and two moves more."""
    path = tmp_path / "game.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    for move in moves:
        result = corr("move", path, move, "-f", "none")
        assert result.code == 0, f"{move}: {result.err}"
    return path


def same(a: engine.Table, b: engine.Table) -> bool:
    """Two tables at the same position, every step alike."""
    return (a.game.public_key(a.state) == b.game.public_key(b.state) and a.result() == b.result()
            and [(s.record, s.action, s.outcome, s.voided) for s in a.steps]
            == [(s.record, s.action, s.outcome, s.voided) for s in b.steps])


def test_a_command_goes_on_from_the_kept_position_and_it_is_the_replayed_one(corr, tmp_path: Path,
                                                                           replays: list[int]) -> None:
    path = game(corr, tmp_path)
    first = engine.load(path)  # replays, and keeps what it made
    replays.clear()
    again = engine.load(path)
    assert replays == [], "the kept position was taken"
    assert same(again, first) and same(again, engine.replay(store.read(path)))


def test_records_added_since_are_judged_as_replay_judges_them(corr, tmp_path: Path, replays: list[int]) -> None:
    path = game(corr, tmp_path)
    engine.load(path)
    nxt = json.loads(corr("legal", path, "--json").out)["moves"][0]
    assert corr("move", path, nxt, "-f", "none").code == 0  # past the kept position
    replays.clear()
    grown = engine.load(path)
    assert replays == [] and grown.seq == len(MOVES) + 1
    assert same(grown, engine.replay(store.read(path)))


def test_a_log_edited_under_the_kept_position_is_replayed_and_found_out(corr, tmp_path: Path,
                                                                      replays: list[int]) -> None:
    """An earlier record edited and the chain mended after it: the bytes are no longer
    those the position was kept for, so the log is replayed, and the edit found."""
    path = game(corr, tmp_path)
    engine.load(path)
    rows = path.read_bytes().split(b"\n")[:-1]
    rows[2] = rows[2].replace(b'"8 (4,6)"', b'"8 (4,5)"')  # a record the checkpoint covers
    for i in range(3, len(rows)):  # every later line chained to the edited one again
        record = json.loads(rows[i])
        record["prev"] = hashlib.sha256(rows[i - 1]).hexdigest()
        rows[i] = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
    path.write_bytes(b"".join(row + b"\n" for row in rows))
    replays.clear()
    with pytest.raises(CorruptLog) as found:
        engine.load(path)
    assert replays and found.value.kind in ("state", "illegal") and found.value.seq == 2


def test_a_checkpoint_nobody_signed_with_this_users_key_is_never_unpickled(corr, tmp_path: Path) -> None:
    """A file in the cache that this user's corr did not write is not opened as a pickle:
    unpickling it would run whatever it says."""
    path = game(corr, tmp_path)
    engine.load(path)
    (kept,) = [p for p in (tmp_path / "cache" / "positions").iterdir() if not p.name.startswith(".")]
    marker = tmp_path / "ran"

    class Trap:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return Path.touch, (marker,)

    body = pickle.dumps(Trap())
    stranger = hmac.new(b"another key", body, hashlib.sha256).digest()
    kept.write_bytes(checkpoint._MAGIC + stranger + body)
    loaded = engine.load(path)
    assert not marker.exists()
    assert same(loaded, engine.replay(store.read(path)))


def test_a_checkpoint_of_the_dealers_copy_shows_nothing_once_the_secret_is_gone(corr, tmp_path: Path) -> None:
    """The dealer's copy keeps a position with every hand in it; the same log without
    the secret beside it (a copy a player holds) goes on from no such position."""
    path = tmp_path / "cards.corr"
    assert corr("new", "cards", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    dealt = engine.load(path)
    for _ in range(6):
        seat = dealt.to_move()
        card = dealt.state.hands[dealt.seats.index(seat)]
        cell = next(c for c in range(81) if not dealt.state.grid.cells[c] and dealt.state.grid.fits(c, card))
        assert corr("move", path, f"{card} ({cell // 27 * 3 + cell % 9 // 3 + 1},{cell // 9 % 3 * 3 + cell % 3 + 1})",
                    "-f", "none").code == 0
        dealt = engine.load(path)
    assert json.loads(corr("show", path, "--for", "B", "-f", "json").out).get("hand")
    Path(f"{path}.secret").unlink()
    player = engine.load(path)
    assert not player.game.dealt and all(h == 0 for h in player.state.hands)
    assert "hand" not in json.loads(corr("show", path, "--for", "B", "-f", "json").out)


def test_a_checkpoint_made_by_other_code_is_not_taken(corr, tmp_path: Path, replays: list[int],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = game(corr, tmp_path)
    engine.load(path)
    monkeypatch.setattr(checkpoint, "_code", "another corr")
    replays.clear()
    engine.load(path)
    assert replays == [len(MOVES)]


def test_an_audit_replays_from_the_first_line_whatever_is_kept(corr, tmp_path: Path, replays: list[int]) -> None:
    from corr.audit import audit

    path = game(corr, tmp_path)
    engine.load(path)
    report = audit(path)
    assert report["intact"] and report["records"] == len(MOVES)
    assert not any((tmp_path / "cache" / "positions").glob(".tmp*"))
