"""The dealer of games with hidden information (corr/engine/dealer.py; DESIGN 6, cards 6.2):
the commitment, the deterministic shuffle, the secret file beside the log, and the seed
a copy deals from (the reveal, else the secret)."""

from __future__ import annotations

import hashlib
import json
import stat
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest

from corr import engine
from corr.engine import dealer
from corr.games import dealing
from corr.errors import CorruptLog, UsageError
from corr.log import store
from corr.log.lines import Record
from corr.notation import Placement

SEED = "d1ce" * 8  # 32 hex digits
OTHER = "0123456789abcdef" * 2


def reference_shuffle(seed: str, items: list, label: str, sha256=hashlib.sha256) -> list:  # type: ignore
    """The shuffle as its docstring specifies it, written out independently: Fisher-Yates
    from the last item down; draw k is the first 8 bytes (big-endian) of
    SHA-256(`seed|label|k`) modulo the range, a draw at or above the largest multiple of
    the range below 2**64 rejected (the next k is used)."""
    out = list(items)
    k = 0
    for i in range(len(out) - 1, 0, -1):
        span = i + 1
        while True:
            draw = int.from_bytes(sha256(f"{seed}|{label}|{k}".encode()).digest()[:8], "big")
            k += 1
            if draw < (2**64 // span) * span:
                break
        j = draw % span
        out[i], out[j] = out[j], out[i]
    return out


def finished_cards(seed: str = SEED) -> engine.Position:
    """A two-player game of three distinct cards, played to its end and the reveal."""
    header = engine.make_header("cards", ["Anna", "Ben"], {"deck": "1x1-3"}, commitment=dealer.commitment(seed))
    rep = engine.start(header, seed)
    for cell in (0, 40):
        seat = rep.game.seats.index(rep.to_move())
        rep.add("move", move=Placement(rep.state.hands[seat], cell))
    assert rep.log.records[-1].type == "reveal"
    return rep


def cards_log(seed: str = SEED) -> store.GameLog:
    """A cards game's log with one move and no reveal, as a player's copy holds it."""
    header = engine.make_header("cards", ["Anna", "Ben"], {}, commitment=dealer.commitment(seed))
    rep = engine.start(header, seed)
    rep.add("move", move=Placement(rep.state.hands[0], 40))
    return store.parse(store.text(rep.log), Path("copy.corr"))


def with_record(log: store.GameLog, **fields) -> store.GameLog:  # type: ignore[no-untyped-def]
    """The log with one more record chained to its tail (the state hash copied)."""
    last = log.records[-1]
    record = Record(seq=last.seq + 1, type="reveal", by="dealer", at=last.at, prev=log.tail_hash, state=last.state)
    record = record._replace(**fields)
    data = store.text(log) + store.dump(record) + b"\n"
    return store.parse(data, log.path)


# --- commitment ------------------------------------------------------------------------
def test_dealer_commitment_is_sha256_hex_of_the_seed_text() -> None:
    # the FIPS 180-2 test vector: SHA-256("abc")
    assert dealer.commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert dealer.commitment(SEED) == hashlib.sha256(SEED.encode("utf-8")).hexdigest()
    assert dealer.commitment(SEED) != dealer.commitment(OTHER)


def test_dealer_new_seed_is_128_random_bits_as_32_hex_digits() -> None:
    seeds = {dealer.new_seed() for _ in range(20)}
    assert len(seeds) == 20
    for seed in seeds:
        assert len(seed) == 32 and int(seed, 16) >= 0 and seed == seed.lower()


def test_dealer_secret_path_is_the_log_path_plus_dot_secret(tmp_path: Path) -> None:
    assert dealer.secret_path(tmp_path / "g.corr") == tmp_path / "g.corr.secret"
    assert dealer.secret_path("a/b.corr") == Path("a/b.corr.secret")


# --- shuffle ---------------------------------------------------------------------------
def test_dealer_shuffle_pinned_output() -> None:
    """Pinned: a change to the algorithm would re-deal every game ever logged."""
    assert dealing.shuffle("00" * 16, list(range(10)), "deck") == [6, 5, 9, 4, 0, 2, 8, 7, 1, 3]
    assert dealing.shuffle("00" * 16, list(range(10)), "digits") == [5, 2, 0, 9, 4, 6, 1, 8, 7, 3]
    assert dealing.shuffle(OTHER, "abcdefghij", "deck") == list("cgaihefdbj")


@pytest.mark.parametrize("size", [0, 1, 2, 3, 9, 81, 200])
@pytest.mark.parametrize("seed", [SEED, OTHER, "f" * 128])
def test_dealer_shuffle_follows_its_documented_algorithm(seed: str, size: int) -> None:
    items = list(range(size))
    assert dealing.shuffle(seed, items, "deck") == reference_shuffle(seed, items, "deck")


def test_dealer_shuffle_is_deterministic_and_leaves_its_input_alone() -> None:
    deck = [d for d in range(1, 10) for _ in range(9)]
    before = list(deck)
    first = dealing.shuffle(SEED, deck, "deck")
    assert dealing.shuffle(SEED, deck, "deck") == first
    assert dealing.shuffle(SEED, tuple(deck), "deck") == first
    assert deck == before


def test_dealer_shuffle_is_a_permutation() -> None:
    deck = [d for d in range(1, 10) for _ in range(9)]
    dealt = dealing.shuffle(SEED, deck, "deck")
    assert Counter(dealt) == Counter(deck)
    order = dealing.shuffle(SEED, list(range(81)), "deck")
    assert sorted(order) == list(range(81)) and order != list(range(81))


def test_dealer_shuffle_differs_by_seed_and_by_label() -> None:
    items = list(range(30))
    by_seed = dealing.shuffle(SEED, items, "deck")
    assert dealing.shuffle(OTHER, items, "deck") != by_seed
    assert dealing.shuffle(SEED, items, "digits") != by_seed
    # the label is part of the hashed text, not just a suffix of the seed
    assert dealing.shuffle(SEED + "|deck", items, "") != by_seed


def test_dealer_shuffle_rejects_a_draw_that_would_bias_the_modulo(monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw at the top of the 64-bit range is thrown away and the next k drawn: with
    draw k=0 forced to 2**64-1 (not below the limit for a range of 3), the deal of three
    items is the one draws k=1, 2 give, not the one draws k=0, 1 would give."""
    real = hashlib.sha256

    class Forced:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def digest(self) -> bytes:
            if self.data.endswith(b"|deck|0"):
                return b"\xff" * 32
            return real(self.data).digest()

    class FakeHashlib:
        sha256 = Forced

    def draw(seed: str, k: int, span: int) -> int:
        return int.from_bytes(Forced(f"{seed}|deck|{k}".encode()).digest()[:8], "big") % span

    def kept(seed: str) -> list[str]:  # what using draw 0 would deal
        out = ["a", "b", "c"]
        j = draw(seed, 0, 3)
        out[2], out[j] = out[j], out[2]
        j = draw(seed, 1, 2)
        out[1], out[j] = out[j], out[1]
        return out

    seed = next(s for s in (f"{n:032x}" for n in range(100))
                if reference_shuffle(s, ["a", "b", "c"], "deck", sha256=Forced) != kept(s))
    expected = reference_shuffle(seed, ["a", "b", "c"], "deck", sha256=Forced)
    monkeypatch.setattr(dealing, "hashlib", FakeHashlib)
    assert dealing.shuffle(seed, ["a", "b", "c"], "deck") == expected
    assert dealing.shuffle(seed, ["a", "b", "c"], "deck") != kept(seed)


def test_dealer_shuffle_deals_every_order_about_equally_often() -> None:
    counts = Counter(tuple(dealing.shuffle(f"{n:032x}", "abc", "deck")) for n in range(3000))
    assert set(counts) == {tuple(p) for p in permutations("abc")}
    assert all(400 < c < 600 for c in counts.values()), counts


# --- the secret file -------------------------------------------------------------------
def test_dealer_write_secret_is_owner_only_json(tmp_path: Path) -> None:
    path = dealer.write_secret(tmp_path / "g.corr", dealer.Secret(SEED))
    assert path == tmp_path / "g.corr.secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"seed": SEED}
    keyed = dealer.write_secret(tmp_path / "h.corr", dealer.Secret(SEED, "/keys/host.key"))
    assert json.loads(keyed.read_text()) == {"seed": SEED, "key": "/keys/host.key"}


def test_dealer_write_secret_refuses_to_overwrite(tmp_path: Path) -> None:
    dealer.write_secret(tmp_path / "g.corr", dealer.Secret(SEED))
    with pytest.raises(UsageError, match="already exists"):
        dealer.write_secret(tmp_path / "g.corr", dealer.Secret(OTHER))
    assert json.loads((tmp_path / "g.corr.secret").read_text())["seed"] == SEED


def test_dealer_read_secret_round_trip_and_absent(tmp_path: Path) -> None:
    log = tmp_path / "g.corr"
    assert dealer.read_secret(log, dealer.commitment(SEED)) is None
    dealer.write_secret(log, dealer.Secret(SEED, "/keys/host.key"))
    assert dealer.read_secret(log, dealer.commitment(SEED)) == dealer.Secret(SEED, "/keys/host.key")


def test_dealer_read_secret_refuses_an_altered_seed(tmp_path: Path) -> None:
    log = tmp_path / "g.corr"
    dealer.write_secret(log, dealer.Secret(SEED))
    secret = dealer.secret_path(log)
    secret.write_text(json.dumps({"seed": OTHER}))
    with pytest.raises(CorruptLog, match="altered") as err:
        dealer.read_secret(log, dealer.commitment(SEED))
    assert err.value.kind == "secret"


@pytest.mark.parametrize(
    "content",
    [b"", b"not json", b"[1, 2]", b'{"key": "k"}', b'{"seed": 12}', b'{"seed": "ab", "key": 3}'],
)
def test_dealer_read_secret_refuses_a_file_that_is_no_secret(tmp_path: Path, content: bytes) -> None:
    log = tmp_path / "g.corr"
    dealer.secret_path(log).write_bytes(content)
    with pytest.raises(CorruptLog, match="not a corr secret file") as err:
        dealer.read_secret(log, dealer.commitment(SEED))
    assert err.value.kind == "secret"


def test_dealer_new_game_keeps_the_seed_in_the_secret_and_its_commitment_in_the_header(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    rep = engine.new_game(path, "cards", ["Anna", "Ben"], {})
    secret = dealer.secret_path(path)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    seed = json.loads(secret.read_text())["seed"]
    assert rep.header.commitment == dealer.commitment(seed)
    assert seed.encode() not in path.read_bytes()  # the log holds only the commitment
    assert rep.game.dealt and rep.game.seed == seed
    assert rep.game.pile == dealing.shuffle(seed, rep.game.deck, "deck")


def test_dealer_new_game_refuses_when_a_secret_lies_there_already(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    dealer.secret_path(path).write_text("precious")
    with pytest.raises(UsageError, match="already exists"):
        engine.new_game(path, "cards", ["Anna", "Ben"], {})
    assert not path.exists()
    assert dealer.secret_path(path).read_text() == "precious"


def test_dealer_games_without_hidden_information_get_no_secret(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    rep = engine.new_game(path, "combat", ["Anna", "Ben"], {})
    assert rep.header.commitment is None and not dealer.secret_path(path).exists()
    assert dealer.seed_for(rep.log) is None


# --- what a copy deals from -------------------------------------------------------------
def test_dealer_attach_reads_the_secret_beside_a_log(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "cards", ["Anna", "Ben"], {})
    seed = json.loads(dealer.secret_path(path).read_text())["seed"]
    assert dealer.attach(store.read(path)).secret == dealer.Secret(seed)
    dealer.secret_path(path).rename(tmp_path / "elsewhere")
    assert dealer.attach(store.read(path)).secret is None


def test_dealer_attach_refuses_an_altered_secret(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "cards", ["Anna", "Ben"], {})
    dealer.secret_path(path).write_text(json.dumps({"seed": OTHER}))
    with pytest.raises(CorruptLog, match="altered"):
        dealer.attach(store.read(path))
    with pytest.raises(CorruptLog, match="altered"):
        engine.load(path)


def test_dealer_revealed_none_before_the_reveal_then_the_seed() -> None:
    assert dealer.revealed(cards_log()) is None
    rep = finished_cards()
    assert dealer.revealed(rep.log) == SEED


def test_dealer_revealed_refuses_a_seed_that_does_not_match_the_commitment() -> None:
    forged = with_record(cards_log(), seed=OTHER)
    with pytest.raises(CorruptLog, match="does not match the header's commitment") as err:
        dealer.revealed(forged)
    assert err.value.kind == "reveal" and err.value.seq == 2


def test_dealer_revealed_refuses_a_dealer_reveal_without_a_seed() -> None:
    with pytest.raises(CorruptLog, match="commitment"):
        dealer.revealed(with_record(cards_log()))


def test_dealer_revealed_counts_only_the_dealers_records() -> None:
    """A seat's `reveal` deals nothing (replay refuses it as a record too)."""
    by_seat = with_record(cards_log(), by="B", seed=SEED)
    assert dealer.revealed(by_seat) is None
    assert dealer.seed_for(by_seat) is None


def test_dealer_seed_for_prefers_the_reveal_then_the_secret() -> None:
    log = cards_log()
    assert dealer.seed_for(log) is None  # a player's copy before the reveal
    log.secret = dealer.Secret(SEED)
    assert dealer.seed_for(log) == SEED  # the dealer's copy
    revealed = with_record(cards_log(), seed=SEED)
    revealed.secret = dealer.Secret(OTHER)  # never used once the log holds the reveal
    assert dealer.seed_for(revealed) == SEED


def test_dealer_seed_for_a_game_without_commitment_is_none() -> None:
    rep = engine.start(engine.make_header("combat", ["Anna", "Ben"], {}))
    rep.log.secret = dealer.Secret(SEED)
    assert dealer.seed_for(rep.log) is None


def test_dealer_signer_is_none_without_a_host() -> None:
    """Without a host in the header the dealer's records are unsigned."""
    rep = finished_cards()
    assert dealer.signer(rep.log) is None
    assert rep.log.records[-1].sig is None
