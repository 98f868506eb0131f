"""Refusals, never internal errors: option values and secrets that only look like
numbers or JSON, records by somebody the game does not have, and a dealer's secret that
others can read (issue "Hardening", items 6, 7 and 9)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corr import engine
from corr.log import store
from corr.log.lines import Record

PLAYERS = ("-p", "Anna", "-p", "Ben")


def one_line(r, code: int) -> None:  # type: ignore[no-untyped-def]
    assert r.code == code, (r.code, r.out, r.err)
    assert r.err.startswith("corr: error: ") and r.err.count("\n") == 1, r.err
    assert "internal error" not in r.err


# ---------------------------------------------------------------------------------
# 6. digits that are not ASCII


@pytest.mark.parametrize(("game", "options"), [
    ("moyo", ("puzzle=1", "handicap=²", "handicap_by=A")),
    ("moyo", ("puzzle=٣",)),
    ("cards", ("puzzle=²",)),
    ("domino", ("seed=s1", "start=²")),
])
def test_an_option_in_digits_that_are_not_ascii_is_refused_in_one_line(corr, tmp_path: Path, game: str,  # type: ignore[no-untyped-def]
                                                                       options: tuple[str, ...]) -> None:
    path = tmp_path / "g.corr"
    args = [a for option in options for a in ("-o", option)]
    one_line(corr("new", game, path, *PLAYERS, *args, "-f", "none"), 1)
    assert list(tmp_path.iterdir()) == []


def header_option(path: Path, key: str, value: str) -> None:
    """The log's header with one option written otherwise (a header-only log: no record
    chains to it yet)."""
    import json

    data = json.loads(path.read_bytes().splitlines()[0])
    data["options"][key] = value
    path.write_bytes(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")


@pytest.mark.parametrize(("value", "words"), [("²", "is not a number"), ("01", "one spelling per header")])
def test_a_header_holding_an_option_in_another_spelling_is_corrupt(corr, tmp_path: Path, value: str,  # type: ignore[no-untyped-def]
                                                                   words: str) -> None:
    path = tmp_path / "g.corr"
    assert corr("new", "moyo", path, *PLAYERS, "-o", "puzzle=1", "-o", "handicap=1", "-o", "handicap_by=A",
                "-f", "none").code == 0
    header_option(path, "handicap", value)
    for command in ("show", "audit", "log"):
        r = corr(command, path)
        assert r.code == 2 and words in r.out + r.err and "internal error" not in r.out + r.err


def dealt(corr, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "c.corr"
    assert corr("new", "cards", path, *PLAYERS, "-f", "none").code == 0
    return path


@pytest.mark.parametrize("secret", [b"[" * 2040 + b"]" * 2040,  # past the json module's recursion limit (3.10)
                                    b"[" * 5000, b'{"seed":' + b"[" * 3000 + b"]" * 3000 + b"}",
                                    b'{"seed":"' + b"a" * 10_000 + b'"}'])
def test_a_secret_nested_deep_or_too_big_is_refused_by_every_command(corr, tmp_path: Path, secret: bytes) -> None:  # type: ignore[no-untyped-def]
    path = dealt(corr, tmp_path)
    engine.dealer.secret_path(path).write_bytes(secret)
    os.chmod(engine.dealer.secret_path(path), 0o600)
    before = path.read_bytes()
    for args in (("show", path), ("audit", path), ("move", path, "5 (1,1)", "-f", "none"), ("log", path)):
        r = corr(*args)
        assert r.code == 2, (args, r.out, r.err)
        assert "is not a corr secret file" in r.out + r.err and "internal error" not in r.out + r.err
    assert path.read_bytes() == before


# ---------------------------------------------------------------------------------
# 7. records by nobody


def by_nobody(path: Path, by: str, out: Path) -> Path:
    """The log with an unsigned comment by `by` chained to its tail."""
    log = store.parse(path.read_bytes(), path)
    last = log.records[-1]
    store.add(log, [Record(seq=last.seq + 1, type="comment", by=by, at=last.at, prev=log.tail_hash,
                           state=last.state, note="I rule that A wins")])
    out.write_bytes(store.text(log))
    return out


@pytest.fixture
def signing(corr, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    """A Combat game in which both seats sign, one move played."""
    for name in ("anna", "ben"):
        assert corr("key", "new", "--out", tmp_path / name).code == 0
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, *PLAYERS, "--key", f"A={tmp_path / 'anna.pub'}",
                "--key", f"B={tmp_path / 'ben.pub'}", "-f", "none").code == 0
    assert corr("move", path, "7 (8,7)", "--sign", tmp_path / "anna.key", "-f", "none").code == 0
    return path


@pytest.mark.parametrize("by", ["host", "dealer", "referee", "F"])
def test_a_record_by_a_role_or_seat_the_header_does_not_have_is_corrupt(corr, signing: Path, by: str) -> None:  # type: ignore[no-untyped-def]
    forged = by_nobody(signing, by, signing.with_name("forged.corr"))
    for command in ("audit", "log", "show"):
        r = corr(command, forged)
        assert r.code == 2, (command, r.out, r.err)
        assert f"is by {by!r}, who has no part in this game" in r.out + r.err


def test_an_unsigned_record_by_a_seat_that_signs_is_corrupt(corr, signing: Path) -> None:  # type: ignore[no-untyped-def]
    forged = by_nobody(signing, "B", signing.with_name("forged.corr"))
    r = corr("audit", forged)
    assert r.code == 2 and "signature" in r.out


# ---------------------------------------------------------------------------------
# 9. a secret others can read


@pytest.mark.skipif(os.name == "nt", reason="POSIX file modes")
def test_a_secret_others_can_read_is_used_with_a_warning(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = dealt(corr, tmp_path)
    secret = engine.dealer.secret_path(path)
    assert secret.stat().st_mode & 0o777 == 0o600  # as corr writes it
    r = corr("show", path, "--for", "A")
    assert r.code == 0 and r.err == ""
    os.chmod(secret, 0o644)
    r = corr("show", path, "--for", "A")
    assert r.code == 0, r.err
    assert r.err == (f"corr: warning: {secret} can be read by others (mode 644): it deals all the game hides; "
                     f"`chmod 600 {secret}`\n")
