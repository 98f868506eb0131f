"""`corr status` keeps what each log alone decides, and never trusts it for other bytes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable, Iterator

import pytest
from freezegun import freeze_time

from conftest import Run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
START = "2026-03-01T12:00:00Z"


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test its own cache, and a clock that stands still unless the test moves it:
    two runs a second apart would print "10m 00s left" and "9m 59s left"."""
    monkeypatch.delenv("CORR_ME", raising=False)
    monkeypatch.setenv("CORR_CACHE_DIR", str(tmp_path / "cache"))
    with freeze_time(START):
        yield


def uncached(corr: Callable[..., Run], monkeypatch: pytest.MonkeyPatch, *args: str | Path) -> str:
    """What `corr status ARGS` prints with no cache to read or write (a file where the
    cache folder would be)."""
    with monkeypatch.context() as m:
        blocked = Path(str(args[0])).parent / "no-cache"
        blocked.write_text("")
        m.setenv("CORR_CACHE_DIR", str(blocked))
        result = corr("status", *args)
        blocked.unlink()
    assert result.code == 0, result.err
    return result.out


def cached(corr: Callable[..., Run], *args: str | Path) -> str:
    result = corr("status", *args)
    assert result.code == 0, result.err
    return result.out


def games(tmp_path: Path, corr: Callable[..., Run]) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    for log in EXAMPLES.glob("*.corr"):
        shutil.copy(log, folder)
    for name, game, args in (("timed.corr", "combat", ["--time", "per-move:3"]),
                             ("domino.corr", "domino", ["-o", "seed=s1"]),
                             ("war.corr", "war", [])):
        assert corr("new", game, folder / name, "-p", "Anna", "-p", "Ben", *args, "--format", "none").code == 0
    (folder / "junk.corr").write_text("not a log\n")
    return folder


def test_a_cached_run_prints_exactly_what_a_replay_does(tmp_path: Path, corr: Callable[..., Run],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with freeze_time(START) as frozen:
        folder = games(tmp_path, corr)
        frozen.tick(60)
        first = cached(corr, folder, "--me", "anna")
        assert list((tmp_path / "cache" / "status").glob("[0-9a-f]*")), "the summaries were kept"
        for args in ((), ("--me", "anna"), ("--json",), ("--me", "Ben", "--json")):
            assert cached(corr, folder, *args) == uncached(corr, monkeypatch, folder, *args)
        assert cached(corr, folder, "--me", "anna") == first
        frozen.tick(3600)  # time left, and Domino's own clock, move on with the clock, not the cache
        later = cached(corr, folder, "--me", "anna")
        assert later != first and later == uncached(corr, monkeypatch, folder, "--me", "anna")
        assert "domino.corr" in later and "over:" in next(x for x in later.splitlines() if "domino.corr" in x)


def test_an_appended_record_is_seen_at_once(tmp_path: Path, corr: Callable[..., Run],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    folder = games(tmp_path, corr)
    before = cached(corr, folder)
    import json

    first = json.loads(corr("legal", folder / "war.corr", "--json").out)["moves"][0]
    assert corr("move", folder / "war.corr", first, "--format", "none").code == 0
    after = cached(corr, folder)
    assert after != before and after == uncached(corr, monkeypatch, folder)


def test_an_edited_or_replaced_log_is_seen_at_once(tmp_path: Path, corr: Callable[..., Run],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    folder = games(tmp_path, corr)
    honest = cached(corr, folder)
    log = folder / "combat-2p-anna-ben.corr"
    data = log.read_bytes()
    log.write_bytes(data.replace(b"Anna", b"Anne", 1))  # the same size, other bytes
    edited = cached(corr, folder)
    assert edited != honest and edited == uncached(corr, monkeypatch, folder)
    shutil.copy(folder / "war.corr", log)  # another game under the same name
    replaced = cached(corr, folder)
    assert next(x for x in replaced.splitlines() if "combat-2p-anna-ben.corr" in x).split()[1] == "war"
    assert replaced == uncached(corr, monkeypatch, folder)
    log.write_bytes(data)  # back to the bytes a summary was once kept for
    assert cached(corr, folder) == honest == uncached(corr, monkeypatch, folder)


def test_a_kept_summary_is_read_and_a_forged_one_is_not(tmp_path: Path, corr: Callable[..., Run],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from corr import statuscache

    folder = games(tmp_path, corr)
    honest = cached(corr, folder)
    entries = statuscache.load(folder, False)
    assert "war.corr" in entries and "junk.corr" not in entries  # an error is replayed, never kept
    entries["war.corr"] = dict(entries["war.corr"], result="X wins", over=True)
    statuscache.save(folder, False, entries)  # signed with this user's key: read as kept
    assert "over: X wins" in cached(corr, folder)
    (kept,) = (tmp_path / "cache" / "status").glob("[0-9a-f]*")
    raw = bytearray(kept.read_bytes())
    raw[len(b"corr-status-1\n")] ^= 1  # the same summaries, a signature of another key
    kept.write_bytes(bytes(raw))
    assert cached(corr, folder) == honest == uncached(corr, monkeypatch, folder)
    kept.write_bytes(b"garbage")
    assert cached(corr, folder) == honest


def test_a_changed_dealers_secret_is_seen_at_once(tmp_path: Path, corr: Callable[..., Run],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    log = folder / "cards.corr"
    assert corr("new", "cards", log, "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    secret = Path(f"{log}.secret")
    honest = cached(corr, folder)
    assert cached(corr, folder) == honest
    secret.write_text("{}")  # the log's bytes unchanged, the secret it commits to not
    changed = cached(corr, folder)
    assert changed == uncached(corr, monkeypatch, folder)
    secret.unlink()
    assert cached(corr, folder) == uncached(corr, monkeypatch, folder)
