"""Signed moves (DESIGN 6): Ed25519 keys, signatures on every record a keyed seat makes."""

from __future__ import annotations

import base64
import json
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

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
    from corr.games.base import Action
    from corr.identity import sign
    from corr.log.lines import Record

    rep = engine.load(signed_game)
    move = parse("7 (5,4)")
    state = rep.game.clone(rep.state)
    at = rep.header.created
    rep.game.apply(state, Action(rep.log.next_seq, "move", "A", move, None, at))
    record = Record(seq=rep.log.next_seq, type="move", by="A", at=at, prev=rep.log.tail_hash,
                    state=engine.state_hash(rep.game, state, None, rep.header.corr), move=str(move))
    store.add(rep.log, [sign(load_private(signer_key), rep.header.id, record)])
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


# ---------------------------------------------------------------------------------
# One spelling per signature and key (issue "Hardening")

#: base64 of 64 bytes ends `X==`, where X carries 2 bits of the last byte and 4 unused
#: bits that must be 0; a decoder that ignores them reads these as the same signature.
PADDING_TWIN = {"A": "B", "Q": "R", "g": "h", "w": "x"}


def padding_twin(sig: str) -> str:
    """The same 64 signature bytes, spelt with the unused bits of the last character set."""
    assert sig.endswith("==") and len(sig) == 88
    return sig[:85] + PADDING_TWIN[sig[85]] + "=="


def two_signed_moves(signed_game: Path, keys, corr) -> list[bytes]:  # type: ignore[no-untyped-def]
    assert corr("move", signed_game, "7 (5,4)", "--sign", f"{keys['anna']}.key", "-f", "none").code == 0
    assert corr("move", signed_game, "3 (1,2)", "--sign", f"{keys['ben']}.key", "-f", "none").code == 0
    return signed_game.read_bytes().split(b"\n")[:-1]


def test_the_padding_twin_is_the_same_signature_to_a_lax_decoder(signed_game: Path, keys, corr) -> None:
    """What made the fork possible: base64.b64decode reads both spellings as one."""
    sig = json.loads(two_signed_moves(signed_game, keys, corr)[-1])["sig"]
    assert padding_twin(sig) != sig
    assert base64.b64decode(padding_twin(sig), validate=True) == base64.b64decode(sig)


def test_audit_refuses_a_signature_spelt_another_way(signed_game: Path, keys, corr) -> None:
    rows = two_signed_moves(signed_game, keys, corr)
    record = json.loads(rows[-1])
    record["sig"] = padding_twin(record["sig"])
    rows[-1] = json.dumps(record, separators=(",", ":")).encode()  # canonical JSON, other base64
    signed_game.write_bytes(b"".join(r + b"\n" for r in rows))
    result = corr("audit", signed_game, "--json")
    assert result.code == 2
    finding = json.loads(result.out)["findings"][0]
    assert finding["kind"] == "signature" and "canonical base64" in finding["detail"]
    shown = corr("show", signed_game)
    assert shown.code == 2 and "canonical base64" in shown.err


def test_a_copy_refuses_the_padding_twin_of_a_record(tmp_path: Path, signed_game: Path, keys, corr) -> None:
    """A relay that re-spells the signature must not fork a copy that already has the game."""
    rows = two_signed_moves(signed_game, keys, corr)
    copy = tmp_path / "copy.corr"
    copy.write_bytes(b"".join(r + b"\n" for r in rows[:-1]))
    record = json.loads(rows[-1])
    record["sig"] = padding_twin(record["sig"])
    twin = json.dumps(record, separators=(",", ":")).encode()
    before = copy.read_bytes()
    with pytest.raises(CorruptLog, match="canonical base64"):
        engine.accept(copy, [twin])
    assert copy.read_bytes() == before
    engine.accept(copy, [rows[-1]])  # the record as signed goes in
    assert copy.read_bytes() == signed_game.read_bytes()


@pytest.mark.parametrize("sig", ["", "AAAA", "A" * 88, "!" * 88, "é" * 88])
def test_a_signature_that_is_not_64_bytes_of_base64_is_refused(signed_game: Path, keys, corr, sig: str) -> None:
    from corr.identity import verify

    two_signed_moves(signed_game, keys, corr)
    log = store.read(signed_game)
    record = log.records[-1]._replace(sig=sig)
    with pytest.raises(CorruptLog) as caught:
        verify(log.header.seats[1].key, log.header.id, record)  # type: ignore[arg-type]
    assert caught.value.kind == "signature" and caught.value.seq == 2
    verify(log.header.seats[1].key, log.header.id, log.records[-1])  # type: ignore[arg-type]


def test_a_public_key_spelt_another_way_is_refused(keys, corr, tmp_path: Path) -> None:
    from corr.errors import UsageError
    from corr.identity import read_public

    text = Path(f"{keys['anna']}.pub").read_text().strip()
    assert read_public(text) == text
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    body = text.removeprefix("ed25519:")  # 32 bytes: 43 characters, the last with 2 unused bits, and `=`
    twin = "ed25519:" + body[:42] + alphabet[alphabet.index(body[42]) | 1] + "="
    assert twin != text and base64.b64decode(twin[8:]) == base64.b64decode(body)
    with pytest.raises(UsageError, match="not a corr public key"):
        read_public(twin)
    result = corr("new", "combat", tmp_path / "k.corr", "-p", "Anna", "-p", "Ben", "--key", f"A={twin}", "-f", "none")
    assert result.code == 1 and not (tmp_path / "k.corr").exists()


@pytest.mark.parametrize("point", ["the neutral point", "a point of order 8", "off the curve"])
def test_a_public_key_no_signature_can_match_is_refused_when_given(point: str, corr, tmp_path: Path) -> None:
    """A key of small order (or none of the curve's points) would be written into the
    header and then fail every signature check: the seat could never sign a move. It is
    refused where it is given, and no game is made."""
    from corr.errors import UsageError
    from corr.identity import read_public

    raw = {
        "the neutral point": (1).to_bytes(32, "little"),
        # y of a point of order 8 (RFC 8032's list of small-order encodings)
        "a point of order 8": bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
        "off the curve": (2).to_bytes(32, "little"),
    }[point]
    bad = "ed25519:" + base64.b64encode(raw).decode()
    with pytest.raises(UsageError, match=r"is not a public key anyone can sign with .*`corr key new`$"):
        read_public(bad)
    result = corr("new", "combat", tmp_path / "k.corr", "-p", "Anna", "-p", "Ben", "--key", f"A={bad}", "-f", "none")
    assert result.code == 1 and "not a public key anyone can sign with" in result.err
    assert not (tmp_path / "k.corr").exists()


def test_key_new_makes_both_files_durable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import stat as stat_

    from corr.identity import new_key

    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append("dir" if stat_.S_ISDIR(os.fstat(fd).st_mode) else str(os.fstat(fd).st_ino))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    key, pub = new_key(tmp_path / "anna")
    assert str(key.stat().st_ino) in synced and str(pub.stat().st_ino) in synced
    assert synced[-1] == "dir"  # after the last file was written


#: The order of Ed25519's group: a signature's S at or above it is another spelling of S - L.
ORDER = 2**252 + 27742317777372353535851937790883648493
#: The neutral point (y = 1) as a public key: of small order, so under a lax check the
#: signature R = that point, S = 0 holds for every message.
SMALL_ORDER_KEY = "ed25519:" + base64.b64encode((1).to_bytes(32, "little")).decode()
ANY_RECORD_SIGNATURE = base64.b64encode((1).to_bytes(32, "little") + bytes(32)).decode()


def with_s_plus_order(sig: str) -> str:
    raw = base64.b64decode(sig)
    s = int.from_bytes(raw[32:], "little") + ORDER
    return base64.b64encode(raw[:32] + s.to_bytes(32, "little")).decode()


def flipped(sig: str) -> str:
    raw = bytearray(base64.b64decode(sig))
    raw[10] ^= 1
    return base64.b64encode(bytes(raw)).decode()


@pytest.mark.parametrize("forgery", ["altered record", "altered signature", "stranger's key", "S + group order",
                                     "small-order key"])
def test_verify_refuses_a_signature_not_the_seats(signed_game: Path, keys, corr, forgery: str) -> None:
    from corr.identity import panel_bytes, sign_bytes, verified, verify

    two_signed_moves(signed_game, keys, corr)
    log = store.read(signed_game)
    key, record = log.header.seats[1].key, log.records[-1]
    assert key is not None and record.sig is not None
    verify(key, log.header.id, record)  # as signed, it holds
    forged = {
        "altered record": (key, record._replace(move="3 (1,3)")),
        "altered signature": (key, record._replace(sig=flipped(record.sig))),
        "stranger's key": (Path(f"{keys['mallory']}.pub").read_text().strip(), record),
        "S + group order": (key, record._replace(sig=with_s_plus_order(record.sig))),
        "small-order key": (SMALL_ORDER_KEY, record._replace(sig=ANY_RECORD_SIGNATURE)),
    }[forgery]
    with pytest.raises(CorruptLog, match=r"^seq 2: the signature is not B's \(altered record or a stranger's key\)$") \
            as caught:
        verify(*forged[:1], log.header.id, forged[1])
    assert caught.value.kind == "signature" and caught.value.seq == 2
    data = panel_bytes(log.header.id, "B", 2, "{}")
    signature = sign_bytes(load_private(f"{keys['ben']}.key"), data)
    assert verified(key, data, signature)
    assert not verified(forged[0], data + b" " if forgery == "altered record" else data,
                        {"altered signature": flipped(signature), "S + group order": with_s_plus_order(signature),
                         "small-order key": ANY_RECORD_SIGNATURE}.get(forgery, signature))


def test_verify_refuses_a_header_key_that_is_not_canonical_base64(signed_game: Path, keys, corr) -> None:
    from corr.identity import verified, verify

    two_signed_moves(signed_game, keys, corr)
    log = store.read(signed_game)
    key, record = log.header.seats[1].key, log.records[-1]
    assert key is not None and record.sig is not None
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    twin = key[:-2] + alphabet[alphabet.index(key[-2]) | 1] + "="  # the same 32 bytes, an unused bit set
    assert base64.b64decode(twin[8:]) == base64.b64decode(key[8:]) and twin != key
    with pytest.raises(CorruptLog, match=r"^seq 2: B's key in the header is not a corr public key"):
        verify(twin, log.header.id, record)
    assert not verified(twin, b"data", record.sig)


_FIELD = st.text(st.sampled_from('aZ09-:"\\\x00\x1f\x7f \u00e9\u2028\U0001f600') | st.characters(), max_size=8)


@settings(max_examples=300, deadline=None)
@given(seq=st.integers(-1, 10**20) | st.booleans(), texts=st.lists(_FIELD, min_size=5, max_size=5),
       move=st.none() | _FIELD | st.integers(0, 9), target=st.none() | st.integers(0, 10**20) | st.booleans(),
       note=st.none() | _FIELD, sig=st.none() | _FIELD, seed=st.none() | _FIELD, seal=st.none() | _FIELD)
def test_what_a_signature_covers_is_the_record_s_line_without_sig(seq, texts, move, target, note, sig, seed,
                                                                  seal) -> None:  # type: ignore[no-untyped-def]
    """DESIGN 6: the signed bytes are the game id and `lines.dump` of the record without
    `sig`, whichever way they are written, for any record (a log's or not)."""
    from corr.identity import DOMAIN, signed_bytes
    from corr.log import lines

    kind, by, at, prev, state = texts
    record = lines.Record(seq, kind, by, at, prev, state, move, target, note, sig, seed, seal)
    try:
        line = lines.dump(record._replace(sig=None))
    except UnicodeEncodeError:
        with pytest.raises(UnicodeEncodeError):
            signed_bytes("g-1", record)
        return
    assert signed_bytes("g-1", record) == DOMAIN + b"g-1\n" + line
