"""What a seat may see, asked of one place (corr.seatview) by every command: `show --for`,
`legal`, `log`; the dealer's secret, commitment and signed reveal from the command line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from corr import engine
from corr.log import store
from test_combat import MISSED_FIELD_1

PLAYERS = ("-p", "Anna", "-p", "Ben", "-p", "Cleo")


@pytest.fixture
def cards(corr, tmp_path: Path) -> Path:
    path = tmp_path / "cards.corr"
    assert corr("new", "cards", path, *PLAYERS, "--format", "none").code == 0
    return path


def hands(path: Path) -> dict[str, int]:
    rep = engine.load(path)
    return dict(zip(rep.game.seats, rep.state.hands))


def player_copy(path: Path, tmp_path: Path) -> Path:
    """Ben's copy: the public log, without the dealer's secret."""
    copy = tmp_path / "ben" / path.name
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(path, copy)
    return copy


def test_new_card_game_keeps_the_seed_secret_and_commits_to_it(cards: Path) -> None:
    from corr.engine.dealer import commitment, secret_path

    secret = secret_path(cards)
    assert oct(os.stat(secret).st_mode & 0o777) == "0o600"
    seed = json.loads(secret.read_text())["seed"]
    header = json.loads(cards.read_text().splitlines()[0])
    assert header["commitment"] == commitment(seed)
    assert seed not in cards.read_text()


def test_show_for_a_seat_shows_its_own_card_and_no_other(corr, cards: Path) -> None:
    held = hands(cards)
    view = json.loads(corr("show", cards, "--for", "b", "--format", "json").out)
    assert view["hand"] == [held["B"]] and view["viewer"] == "B"
    text = corr("show", cards, "--for", "B").out
    assert f"hand:   B holds {held['B']}" in text
    assert "A holds" not in text and "C holds" not in text


def test_public_view_shows_no_card(corr, cards: Path) -> None:
    view = json.loads(corr("show", cards, "--format", "json").out)
    assert "hand" not in view and view["pile"] == 81 - 3
    for fmt in ("text", "html"):
        assert "holds" not in corr("show", cards, "--format", fmt).out
        assert "Your card" not in corr("show", cards, "--format", fmt).out


def test_show_for_an_unknown_seat_is_refused(corr, cards: Path) -> None:
    result = corr("show", cards, "--for", "E")
    assert result.code == 1 and "--for 'E': no such seat (seats: A, B, C)" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_legal_lists_the_card_of_the_seat_on_turn(corr, cards: Path) -> None:
    data = json.loads(corr("legal", cards, "--json").out)
    assert data["seat"] == "A" and len(data["moves"]) == 81
    assert {m.split()[0] for m in data["moves"]} == {str(hands(cards)["A"])}


def test_legal_and_move_refused_on_a_copy_without_the_secret(corr, cards: Path, tmp_path: Path) -> None:
    copy = player_copy(cards, tmp_path)
    before = copy.read_bytes()
    legal = corr("legal", copy)
    assert legal.code == 1 and "no dealer's secret (cards.corr.secret)" in legal.err
    card = hands(cards)["A"]
    moved = corr("move", copy, f"{card} (5,5)")
    assert moved.code == 1 and "send the move to the dealer" in moved.err
    assert copy.read_bytes() == before


def test_player_copy_replays_and_verifies_the_public_log(corr, cards: Path, tmp_path: Path) -> None:
    for _ in range(4):
        move = json.loads(corr("legal", cards, "--json").out)["moves"][0]
        assert corr("move", cards, move, "--format", "none").code == 0
    copy = player_copy(cards, tmp_path)
    audit = corr("audit", copy)
    assert audit.code == 0 and "deal: not yet checkable" in audit.out
    assert json.loads(corr("show", copy, "--format", "json").out)["seq"] == 4
    # without the dealer's mail a player's copy knows no card
    assert "hand" not in json.loads(corr("show", copy, "--for", "B", "--format", "json").out)


def test_a_card_not_held_is_refused_and_nothing_appended(corr, cards: Path) -> None:
    held = hands(cards)["A"]
    other = 1 if held != 1 else 2
    before = cards.read_bytes()
    result = corr("move", cards, f"{other} (5,5)")
    assert result.code == 1 and f"A does not hold a {other}" in result.err
    assert cards.read_bytes() == before


def test_an_altered_secret_is_refused(corr, cards: Path) -> None:
    from corr.engine.dealer import secret_path

    secret = secret_path(cards)
    secret.write_text(json.dumps({"seed": "0" * 32}))
    before = cards.read_bytes()
    for args in (("show", cards), ("move", cards, "1 (5,5)")):
        result = corr(*args)
        assert result.code == 2 and "was altered" in result.err
        assert len(result.err.strip().splitlines()) == 1
    assert cards.read_bytes() == before


def play_out(corr, path: Path) -> None:
    while True:
        data = json.loads(corr("legal", path, "--json").out)
        if data["seat"] is None:
            return
        assert corr("move", path, data["moves"][-1], "--format", "none").code == 0


def test_dealer_records_are_signed_with_the_host_key(corr, tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    for who in ("hal", "eve"):
        assert corr("key", "new", "--out", keys / who).code == 0
    path = tmp_path / "hosted.corr"
    result = corr("new", "cards", path, *PLAYERS, "-o", "deck=1x1-9", "--host", "Hal <hal@example.org>",
                  "--host-key", keys / "hal.pub", "--dealer-key", keys / "hal.key", "--format", "none")
    assert result.code == 0, result.err
    play_out(corr, path)
    log = store.read(path)
    reveal = log.records[-1]
    assert reveal.type == "reveal" and reveal.by == "dealer" and reveal.sig
    assert corr("audit", path).code == 0
    # the same reveal signed by a stranger: a forged dealer record
    from corr.identity import load_private, sign

    forged = sign(load_private(keys / "eve.key"), log.header.id, reveal._replace(sig=None))
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-1] = store.dump(forged) + b"\n"
    path.write_bytes(b"".join(lines))
    audit = corr("audit", path)
    assert audit.code == 2 and "signature" in audit.out


def test_dealer_key_must_be_the_hosts_and_needs_a_host(corr, tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    keys.mkdir()
    for who in ("hal", "eve"):
        corr("key", "new", "--out", keys / who)
    path = tmp_path / "g.corr"
    alone = corr("new", "cards", path, *PLAYERS, "--dealer-key", keys / "hal.key")
    assert alone.code == 1 and "name the host too" in alone.err
    wrong = corr("new", "cards", path, *PLAYERS, "--host", "Hal", "--host-key", keys / "hal.pub",
                 "--dealer-key", keys / "eve.key")
    assert wrong.code == 1 and "not the host's key" in wrong.err
    missing = corr("new", "cards", path, *PLAYERS, "--host", "Hal", "--host-key", keys / "hal.pub")
    assert missing.code == 1 and "--dealer-key" in missing.err
    assert not path.exists() and not Path(f"{path}.secret").exists()
    combat = corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--dealer-key", keys / "hal.key")
    assert combat.code == 1 and "no dealer" in combat.err and not path.exists()


def test_a_reveal_that_does_not_match_the_commitment_is_corrupt(corr, tmp_path: Path) -> None:
    path = tmp_path / "short.corr"
    corr("new", "cards", path, *PLAYERS, "-o", "deck=1x1-9", "--format", "none")
    play_out(corr, path)
    assert corr("audit", path).code == 0
    text = path.read_text()
    seed = json.loads(text.splitlines()[-1])["seed"]
    path.write_text(text.replace(seed, "f" * len(seed)))
    audit = corr("audit", path)
    assert audit.code == 2 and "does not match the header's commitment" in audit.out


def test_missed_conquest_is_not_told_while_the_game_runs(corr, game_file) -> None:
    """The move list no longer tells a seat of the conquest it missed (combat 3.5: noticing
    it is the other players' part); once the game is over the log says it."""
    path = game_file(*MISSED_FIELD_1, "7 (1,4)")
    assert "misses" not in corr("log", path).out
    assert "misses" not in corr("show", path, "--for", "A").out
    assert "missed-conquest" in corr("audit", path).out  # the audit is the archivist's full view
    play_out(corr, path)
    assert json.loads(corr("show", path, "--format", "json").out)["over"]
    assert "misses fields 1 and 4" in corr("log", path).out


def test_a_timeout_ends_a_card_game_and_the_dealer_reveals(corr, tmp_path: Path) -> None:
    """cards 6.2: the seed is revealed when the game ends, also when it ends on time."""
    from freezegun import freeze_time

    path = tmp_path / "timed.corr"
    with freeze_time("2026-05-01 10:00:00") as frozen:
        corr("new", "cards", path, *PLAYERS, "--time", "per-move:3", "--format", "none")
        move = json.loads(corr("legal", path, "--json").out)["moves"][0]
        assert corr("move", path, move, "--format", "none").code == 0
        frozen.move_to("2026-05-05 10:00:01")
        result = corr("claim-timeout", path, "--by", "C")
        assert result.code == 0, result.err
    log = store.read(path)
    assert [r.type for r in log.records] == ["move", "timeout", "reveal"]
    report = json.loads(corr("audit", path, "--json").out)
    assert report["intact"] and report["deal"]["checked"]
    assert report["result"]["forfeit"]["seat"] == "B"


def test_a_deal_that_cannot_start_leaves_nothing_behind(corr, tmp_path: Path) -> None:
    path = tmp_path / "small.corr"
    result = corr("new", "cards", path, *PLAYERS, "-o", "deck=1x5-6")
    assert result.code == 1 and "too few to deal one to each of 3 players (1.2)" in result.err
    assert list(tmp_path.iterdir()) == []


def test_a_game_over_before_the_first_move_is_revealed_at_once(corr, tmp_path: Path) -> None:
    """cards 5.1: nine 5s on the board and only 5s in the deck: Anna's card fits nowhere."""
    cells = ["."] * 81
    for f in range(9):
        cells[((f // 3) * 3 + f % 3) * 9 + (f % 3) * 3 + f // 3] = "5"
    path = tmp_path / "stuck.corr"
    result = corr("new", "cards", path, *PLAYERS, "-o", "deck=12x5", "-o", "puzzle=" + "".join(cells), "-f", "none")
    assert result.code == 0, result.err
    assert [r.type for r in store.read(path).records] == ["reveal"]
    report = json.loads(corr("audit", path, "--json").out)
    assert report["intact"] and report["result"]["over"] and report["deal"]["checked"]


def test_audit_on_the_dealers_copy_checks_every_card_before_the_reveal(corr, cards: Path, tmp_path: Path) -> None:
    """A record laying a card its seat did not hold, with hashes a player's copy accepts:
    only the dealer's secret (or, later, the reveal) can tell."""
    from corr.engine import apply, make_game, state_hash
    from corr.games.base import Action
    from corr.log.lines import Record
    from corr.notation import parse

    log = store.read(cards)
    held = hands(cards)["A"]
    other = 1 if held != 1 else 2
    game = make_game(log.header)  # the public game: it cannot see hands
    state = game.initial()
    apply(game, state, Action(1, "move", "A", parse(f"{other} (1,1)")))
    forged = Record(seq=1, type="move", by="A", at=log.header.created, prev=log.tail_hash,
                    state=state_hash(game, state), move=f"{other} (1,1)")
    with open(cards, "ab") as f:
        f.write(store.dump(forged) + b"\n")
    copy = player_copy(cards, tmp_path)
    assert json.loads(corr("audit", copy, "--json").out)["intact"]
    dealer_audit = corr("audit", cards, "--json")
    assert dealer_audit.code == 2 and f"A does not hold a {other}" in dealer_audit.out


def test_a_replay_stopped_before_the_end_takes_no_move(cards: Path, corr) -> None:
    from corr.errors import UsageError
    from corr.notation import parse

    move = json.loads(corr("legal", cards, "--json").out)["moves"][0]
    corr("move", cards, move, "--format", "none")
    early = engine.load(cards, upto=0)
    with pytest.raises(UsageError, match="not the end"):
        early.add("move", move=parse(move))


def test_a_card_game_takes_no_seat_keys_yet(corr, tmp_path: Path) -> None:
    corr("key", "new", "--out", tmp_path / "anna")
    path = tmp_path / "signed.corr"
    result = corr("new", "cards", path, *PLAYERS, "--key", f"A={tmp_path / 'anna.pub'}")
    assert result.code == 1 and "takes no seat keys yet" in result.err
    assert not path.exists() and not Path(f"{path}.secret").exists()


def test_replay_shows_every_position_as_show_does(corr, tmp_path: Path) -> None:
    """`corr replay` (one pass over the log) prints what `corr show --at N` prints for each N."""
    example = Path(__file__).resolve().parent.parent / "examples" / "combat-disputed.corr"
    out = json.loads(corr("replay", example, "--format", "json").out)
    records = len(store.read(example).records)
    shown = [json.loads(corr("show", example, "--at", str(n), "--format", "json").out) for n in range(records + 1)]
    assert out == shown


def test_domino_1_2_replay_shows_no_position_twice_while_the_duel_hides_its_boards(corr, tmp_path: Path) -> None:
    """The public reads none of a running duel's moves: replay shows the start once and
    says how many records it left out, not one identical position per record."""
    path = tmp_path / "duel.corr"
    assert corr("new", "domino", path, "-p", "Anna", "-p", "Ben", "-o", "time_limit=none", "-f", "none").code == 0
    for seat in "ABAB":
        move = json.loads(corr("legal", path, "--for", seat, "--json").out)["moves"][0]
        assert corr("move", path, move, "--by", seat, "--format", "none").code == 0
    result = corr("replay", path)
    assert result.code == 0 and result.out.count("Sudoku Domino") == 1 and "seq 0" in result.out
    assert result.err == ("note: 4 records not shown: the public may not read them yet (moves on the seats' own "
                          "boards of a running duel)\n")
    positions = json.loads(corr("replay", path, "--format", "json").out)
    assert [p["seq"] for p in positions] == [0]
    assert corr("replay", path, "--jsonl").out.count("\n") == 1


def test_new_game_with_addresses_but_no_keys_says_addresses_can_be_forged(corr, tmp_path: Path) -> None:
    result = corr("new", "combat", tmp_path / "g.corr", "-p", "Anna <anna@example.org>", "-p", "Ben", "-f", "none")
    assert result.code == 0 and "seat A plays by mail without a key" in result.err and "forge" in result.err
    assert "--key SEAT=FILE.pub" in result.err
    quiet = corr("new", "combat", tmp_path / "h.corr", "-p", "Anna", "-p", "Ben", "-f", "none")
    assert quiet.err == ""


@pytest.mark.parametrize("game", ["cards", "domino"])
def test_a_dealt_game_that_takes_no_keys_does_not_advise_one(corr, tmp_path: Path, game: str) -> None:
    """Cards and a Domino game dealt from a secret seed refuse --key: the note about
    playing by mail without a key says so instead of advising one."""
    path = tmp_path / "g.corr"
    result = corr("new", game, path, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>", "-f", "none")
    assert result.code == 0, result.err
    (note,) = [line for line in result.err.splitlines() if line.startswith("note:")]
    assert "seats A, B play by mail without a key" in note and "forge" in note
    assert "--key" not in note and "takes no seat keys" in note
    corr("key", "new", "--out", tmp_path / "anna")
    keyed = corr("new", game, tmp_path / "k.corr", "-p", "Anna <anna@example.org>",
                 "--key", f"A={tmp_path / 'anna.pub'}")
    assert keyed.code == 1 and "takes no seat keys" in keyed.err


def test_a_domino_game_with_a_public_seed_takes_keys_and_advises_one(corr, tmp_path: Path) -> None:
    result = corr("new", "domino", tmp_path / "g.corr", "-p", "Anna <anna@example.org>", "-o", "seed=daily",
                  "-f", "none")
    assert result.code == 0 and "seat A plays by mail without a key" in result.err
    assert "--key SEAT=FILE.pub" in result.err


@pytest.mark.parametrize("example", ["cards-3p.corr", "domino-solo.corr"])
def test_after_the_reveal_the_last_move_is_the_one_the_board_highlights(corr, example: str) -> None:
    """cards 6.2, domino 7.2: the dealer's reveal closes the game but lays nothing, so
    the board's last move - the line and the highlighted cell alike - is the last card
    or digit laid before it."""
    from corr.seatview import observe

    path = Path(__file__).resolve().parent.parent / "examples" / example
    rep = engine.load(path)
    assert rep.log.records[-1].type == "reveal"
    view = observe(rep)
    last = view.position["last"]
    laid = rep.log.records[-2]
    assert (last["seq"], last["by"], last["move"]) == (laid.seq, laid.by, laid.move)
    highlighted = [c["name"] for row in view.rows for c in row if c["last"]]
    highlighted += [b["last_cell"] for b in view.position.get("boards", {}).values() if b["last_cell"]]
    assert highlighted and all(laid.move.endswith(cell) for cell in highlighted)
    shown = corr("show", path).out
    assert f"last:   {laid.seq}. {laid.by} {laid.move}" in shown and "dealer reveal" not in shown
