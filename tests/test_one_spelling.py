"""One spelling per record (DESIGN 2: a record has one valid encoding): a log holds each
text field only as corr writes it, so two copies that both verify are the same bytes.
Players type moves forgivingly; a log that holds another spelling is refused as edited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from freezegun import freeze_time

from corr import engine
from corr.identity import load_private, sign
from corr.log import store
from corr.notation import canonical, parse


def respelt(path: Path, seq: int, key: Path | None = None, **changes: str) -> bytes:
    """The log with record `seq` changed and the chain after it re-linked (re-signed with
    `key` where given): what a hand editor or a careless tool can make of a copy."""
    log = store.parse(path.read_bytes(), path)
    lines = [log.header_raw]
    prev = store.line_hash(log.header_raw)
    for record in log.records:
        if record.seq == seq:
            record = record._replace(**changes)
        if record.seq >= seq:
            record = record._replace(prev=prev, sig=None)
            if key is not None:
                record = sign(load_private(key), log.header.id, record)
        lines.append(store.dump(record))
        prev = store.line_hash(lines[-1])
    return b"".join(line + b"\n" for line in lines)


def refused_as_edited(corr, path: Path, data: bytes, words: str) -> None:  # type: ignore[no-untyped-def]
    copy = path.with_name("copy.corr")
    copy.write_bytes(data)
    r = corr("audit", copy)
    assert r.code == 2, (r.out, r.err)
    assert words in r.out + r.err and "internal error" not in r.out + r.err
    before = copy.read_bytes()
    m = corr("move", copy, "5 (1,1)", "-f", "none")
    assert m.code == 2 and copy.read_bytes() == before


@pytest.mark.parametrize("spelling", ["8(4,6)", "8 (4.6)", " 8 (4,6) ", "8 (4,6)\n", "8 (4, 6)", "8 r4c6",
                                      "8 (4,6)!", "8 (4,6) !4,4", "n (2,3)-(3,7)", "GREY (4,1)", "5 (1,6)X(1,3)"])
def test_a_move_in_another_spelling_is_refused_as_edited(corr, tmp_path: Path, spelling: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    assert corr("move", path, "8 (4,6)", "-f", "none").code == 0
    assert corr("audit", path).code == 0
    assert str(parse(spelling)) != spelling  # a spelling a player may type
    refused_as_edited(corr, path, respelt(path, 1, move=spelling), "one spelling per move")


def test_canonical_takes_each_move_as_str_writes_it() -> None:
    for text in ("8 (4,6)", "8 (4,6) !", "8 (4,6) !1,4", "grey (4,1)", "N (2,3)-(3,7)", "5 (1,6)x(1,3)",
                 "(5,4)=3", "shima 2"):
        assert str(canonical(text)) == text


@pytest.mark.parametrize("days", ["07", "٧", "７", "²", "+7", " 7", "7 ", "0"])
def test_a_vacation_of_days_not_in_ascii_digits_is_refused_as_edited(corr, tmp_path: Path, days: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--time", "per-move:3,vacation=14",
                    "-f", "none").code == 0
        frozen.move_to("2026-03-02T12:00:00Z")
        assert corr("vacation", path, "--by", "A", "--days", "7").code == 0
        assert corr("audit", path).code == 0
        refused_as_edited(corr, path, respelt(path, 1, note=days), "ASCII digits without leading zeros")


@pytest.fixture
def refereed(tmp_path: Path, corr) -> Path:  # type: ignore[no-untyped-def]
    assert corr("key", "new", "--out", tmp_path / "rita").code == 0
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--referee", "Rita",
                "--referee-key", tmp_path / "rita.pub", "--time", "per-move:3", "-f", "none").code == 0
    assert corr("move", path, "8 (4,6)", "-f", "none").code == 0
    return path


@pytest.mark.parametrize(("decision", "written", "note", "words"), [
    (("--adjust-clock", "A=+2"), "adjust-clock A=+02", None, "one spelling per record"),
    (("--adjust-clock", "A=+2"), "adjust-clock A=+٢", None, "is not a ruling"),
    (("--reject",), "reject", " the reason ", "not with spaces"),
])
def test_a_ruling_in_another_spelling_is_refused_as_edited(corr, refereed: Path, decision: tuple[str, ...],  # type: ignore[no-untyped-def]
                                                         written: str, note: str | None, words: str) -> None:
    r = corr("referee", "rule", refereed, "--seq", "1", *decision, "--reason", "the reason",
             "--sign", refereed.parent / "rita.key", "-f", "none")
    assert r.code == 0, r.err
    assert corr("audit", refereed).code == 0
    seq = engine.load(refereed).seq
    changes = {"move": written} if note is None else {"note": note}
    refused_as_edited(corr, refereed, respelt(refereed, seq, refereed.parent / "rita.key", **changes), words)


def test_every_record_corr_writes_is_in_its_one_spelling(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    for typed in ("8(4,6)", " 5 (1.1) "):
        assert corr("move", path, typed, "-f", "none").code == 0
    moves = [json.loads(line)["move"] for line in path.read_text().splitlines()[1:]]
    assert moves == ["8 (4,6)", "5 (1,1)"]
    assert corr("audit", path).code == 0
