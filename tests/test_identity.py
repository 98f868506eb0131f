"""Signed moves (DESIGN 6): Ed25519 keys, signatures on every record a keyed seat makes."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from corr import engine
from corr.errors import CorruptLog
from corr.identity import load_private
from corr.log import store
from corr.notation import parse


@pytest.fixture
def keys(tmp_path: Path, corr) -> dict[str, Path]:
    made = {}
    for name in ("anna", "ben", "mallory"):
        assert corr("key", "new", "--out", tmp_path / name).code == 0
        made[name] = tmp_path / name
    return made


@pytest.fixture
def signed_game(tmp_path: Path, corr, keys) -> Path:
    path = tmp_path / "signed.corr"
    result = corr(
        "new", "combat", path, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>",
        "--key", f"A={keys['anna']}.pub", "--key", f"B={keys['ben']}.pub", "-f", "none",
    )
    assert result.code == 0, result.err
    return path


def test_key_new_writes_a_private_key_only_its_owner_reads(keys) -> None:
    key, pub = Path(f"{keys['anna']}.key"), Path(f"{keys['anna']}.pub")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert pub.read_text().startswith("ed25519:") and b"PRIVATE KEY" in key.read_bytes()


def test_key_new_refuses_to_overwrite(keys, corr) -> None:
    before = Path(f"{keys['anna']}.key").read_bytes()
    result = corr("key", "new", "--out", keys["anna"])
    assert result.code == 1 and "already exists" in result.err
    assert Path(f"{keys['anna']}.key").read_bytes() == before


def test_header_holds_names_addresses_and_keys(signed_game: Path, keys) -> None:
    header = json.loads(signed_game.read_text().splitlines()[0])
    anna = header["seats"][0]
    assert anna["name"] == "Anna" and anna["email"] == "anna@example.org"
    assert anna["key"] == Path(f"{keys['anna']}.pub").read_text().strip()


def test_signed_moves_are_accepted_and_the_key_decides_the_seat(signed_game: Path, keys, corr) -> None:
    assert corr("move", signed_game, "7 (5,4)", "--sign", f"{keys['anna']}.key", "-f", "none").code == 0
    assert corr("move", signed_game, "3 (1,2)", "--sign", f"{keys['ben']}.key", "-f", "none").code == 0
    records = [json.loads(line) for line in signed_game.read_text().splitlines()[1:]]
    assert [r["by"] for r in records] == ["A", "B"] and all(r["sig"] for r in records)
    assert corr("audit", signed_game).code == 0


def test_an_unsigned_move_is_refused_where_the_seat_has_a_key(signed_game: Path, corr) -> None:
    before = signed_game.read_bytes()
    result = corr("move", signed_game, "7 (5,4)")
    assert result.code == 1 and "signs its records" in result.err
    assert signed_game.read_bytes() == before


def test_a_strangers_key_is_refused(signed_game: Path, keys, corr) -> None:
    before = signed_game.read_bytes()
    result = corr("move", signed_game, "7 (5,4)", "--sign", f"{keys['mallory']}.key")
    assert result.code == 1 and "not the key of any seat" in result.err
    assert signed_game.read_bytes() == before


def test_the_key_of_another_seat_is_refused(signed_game: Path, keys, corr) -> None:
    result = corr("move", signed_game, "7 (5,4)", "--sign", f"{keys['ben']}.key", "--by", "A")
    assert result.code == 1 and "B's key" in result.err


def forged(signed_game: Path, signer_key: Path) -> Path:
    """A legal record whose chain and state hash are right, signed with `signer_key`."""
    rep = engine.load(signed_game)
    records = engine.extend(rep, "move", by="A", move=parse("7 (5,4)"),
                            signer=load_private(signer_key))
    store.add(rep.log, records)
    signed_game.write_bytes(store.text(rep.log))
    return signed_game


def test_audit_refuses_a_record_signed_by_a_stranger(signed_game: Path, keys, corr) -> None:
    path = forged(signed_game, Path(f"{keys['mallory']}.key"))
    result = corr("audit", path, "--json")
    assert result.code == 2
    assert json.loads(result.out)["findings"][0]["kind"] == "signature"


def test_audit_refuses_an_altered_signed_record(signed_game: Path, keys, corr) -> None:
    corr("move", signed_game, "7 (5,4)", "--sign", f"{keys['anna']}.key", "-f", "none")
    lines = signed_game.read_bytes().split(b"\n")
    record = json.loads(lines[1])
    record["sig"] = record["sig"][:-4] + ("AAAA" if not record["sig"].endswith("AAAA") else "BBBB")
    lines[1] = json.dumps(record, separators=(",", ":")).encode()
    signed_game.write_bytes(b"\n".join(lines))
    assert corr("audit", signed_game).code == 2


def test_accept_refuses_records_signed_by_a_stranger(tmp_path: Path, signed_game: Path, keys) -> None:
    copy = tmp_path / "copy.corr"
    copy.write_bytes(signed_game.read_bytes())
    forged(signed_game, Path(f"{keys['mallory']}.key"))
    before = copy.read_bytes()
    with pytest.raises(CorruptLog, match="signature"):
        engine.accept(copy, signed_game.read_bytes().split(b"\n")[1:-1])
    assert copy.read_bytes() == before
