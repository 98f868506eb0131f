"""What a seat may see, and what it must: a Domino duel's state hashes cover no board
the public cannot see; a card player's copy takes no stranger's records or panel; the
person playing a Domino duel against the computer sees nothing of the computer's board;
`corr play` shows the seat its own card or digit; a mailed example move costs no life.
Black-box through the CLI and real `.eml` files wherever a command can do it."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Run, parse_message

Corr = Callable[..., Run]


def records(path: Path) -> list[dict[str, Any]]:
    """The log's records as JSON objects (every line but the header)."""
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def legal(corr: Corr, path: Path, seat: str) -> list[str]:
    """`corr legal --for SEAT --json`: the seat's moves, placements first."""
    result = corr("legal", path, "--for", seat, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)["moves"]


def move(corr: Corr, path: Path, text: str, seat: str) -> None:
    """`corr move --by SEAT`, which must be accepted."""
    result = corr("move", path, text, "--by", seat, "--format", "none")
    assert result.code == 0, f"{text}: {result.err}"


# ---------------------------------------------------------------------------------
# 1. A Domino duel's state hashes


def test_domino_1_2_a_duels_state_hashes_cover_no_board_the_public_cannot_see(corr: Corr, tmp_path: Path) -> None:
    """A seat reads its own records' JSON lines (the text part of its mail); a `state`
    that hashes every board lets it search out the other board. Two duels on one public
    seed where A plays the same moves and B different ones: A's records must carry the
    same hashes in both, as the public sees no board of a running duel."""
    duels = [tmp_path / "d1.corr", tmp_path / "d2.corr"]
    for path in duels:
        result = corr("new", "domino", path, "-p", "Anna", "-p", "Ben", "-o", "seed=s1", "-o", "time_limit=none",
                      "--format", "none")
        assert result.code == 0, result.err
    for _ in range(2):
        for which, path in enumerate(duels):  # B: another docking cell in each duel
            move(corr, path, legal(corr, path, "B")[which], "B")
        a_moves = [legal(corr, path, "A")[0] for path in duels]
        assert a_moves[0] == a_moves[1]  # A's board is the same in both
        for path in duels:
            move(corr, path, a_moves[0], "A")
    first, second = ([r for r in records(path) if r["by"] == "B"] for path in duels)
    assert [r["move"] for r in first] != [r["move"] for r in second]
    a_states = [[r["state"] for r in records(path) if r["by"] == "A"] for path in duels]
    assert len(a_states[0]) == 2
    assert a_states[0] == a_states[1], "A's state hashes depend on B's board"


# ---------------------------------------------------------------------------------
# 2. A forged continuation of a hosted card game

HOSTED = ("-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>", "--host", "Hal <hal@example.org>")


def forged_log(log: bytes, moves: list[tuple[str, str]]) -> bytes:
    """The public log with a record appended per (seat, move): anyone holding the public
    log can make these, as a record's state hash covers only public data. Built with
    corr's internals, since no command makes a record on a copy without the dealer's
    secret."""
    # internals: the one place this file reaches past the CLI
    from corr.engine import apply, replay, state_hash
    from corr.games.base import Action
    from corr.log import store
    from corr.log.lines import Record
    from corr.notation import parse

    game_log = store.parse(log, Path("<stranger>"))
    rep = replay(game_log)
    for seat, text in moves:
        seq, at = game_log.next_seq, game_log.header.created
        apply(rep.game, rep.state, Action(seq, "move", seat, parse(text), None, at))
        store.add(game_log, [Record(seq=seq, type="move", by=seat, at=at, prev=game_log.tail_hash,
                                    state=state_hash(rep.game, rep.state, None, game_log.header.corr),
                                    move=text)])
    return store.text(game_log)


def test_cards_6_1_a_players_copy_refuses_a_strangers_continuation(corr: Corr, tmp_path: Path) -> None:
    """Ben keeps a copy of a hosted card game from the host's message. A stranger mails
    him the public log with two records of his own making and a private panel giving
    Ben another card: Ben's copy must refuse the message and keep its log and panel."""
    assert corr("key", "new", "--out", tmp_path / "hal", "--role", "host").code == 0
    game = tmp_path / "games" / "g.corr"
    result = corr("new", "cards", game, *HOSTED, "--host-key", tmp_path / "hal.pub", "--dealer-key",
                  tmp_path / "hal.key", "--format", "none")
    assert result.code == 0, result.err
    assert corr("mail", "compose", game, "--to", "B", "--out", tmp_path / "m.eml").code == 0
    bens = tmp_path / "bens"
    result = corr("mail", "ingest", tmp_path / "m.eml", "--games", bens, "--new")
    assert result.code == 0, result.err
    (copy,) = bens.glob("*.corr")
    shown = corr("show", copy, "--for", "B", "--format", "json")
    card = json.loads(shown.out)["hand"][0]
    fake = 1 if card != 1 else 2

    # The stranger: the host's message to Ben with the public log swapped for his own
    # continuation of it (corr itself refuses to mail a log it cannot verify), from his
    # own address, with a panel of his making.
    forged = forged_log(copy.read_bytes(), [("A", "3 (1,1)"), ("B", "4 (5,5)")])
    msg = parse_message((tmp_path / "m.eml").read_bytes())
    (part,) = [p for p in msg.iter_attachments() if (p.get_filename() or "").endswith(".corr")]
    part.set_content(forged, maintype="application", subtype="octet-stream", filename=part.get_filename())
    for name in ("X-Corr-For", "X-Corr-Private", "X-Corr-Private-Sig"):
        del msg[name]
    del msg["From"]
    msg["From"] = "Eve <eve@example.org>"
    msg["X-Corr-For"] = "B"
    msg["X-Corr-Private"] = json.dumps({"hand": [fake]}, separators=(",", ":"))
    (tmp_path / "forged.eml").write_bytes(msg.as_bytes())

    before = copy.read_bytes()
    result = corr("mail", "ingest", tmp_path / "forged.eml", "--games", bens)
    assert result.code != 0, f"Ben's copy took the stranger's records: {result.out}"
    assert result.err.count("\n") == 1
    assert copy.read_bytes() == before
    assert corr("show", copy, "--for", "B", "--format", "json").out == shown.out


# ---------------------------------------------------------------------------------
# 3. A Domino duel against the computer


def test_domino_1_2_a_duel_against_the_computer_prints_nothing_of_its_board(corr: Corr, tmp_path: Path) -> None:
    """The computer plays B's board of a duel with a secret seed; Anna runs the commands.
    What they print is Anna's to read: none of B's moves, which spell out the digits
    Anna is yet to be given."""
    path = tmp_path / "duel.corr"
    made = corr("new", "domino", path, "-p", "Anna", "-p", "Computer", "--bot", "B=strong")
    assert made.code == 0, made.err
    played = {r["move"] for r in records(path) if r["by"] == "B" and r["type"] == "move"}
    anna = next(m for m in legal(corr, path, "A") if m not in played)  # Anna may print her own move
    moved = corr("move", path, anna, "--by", "A")
    assert moved.code == 0, moved.err
    b_moves = {r["move"] for r in records(path) if r["by"] == "B" and r["type"] == "move"}
    assert b_moves  # the computer has played
    for command, result in (("new", made), ("move", moved)):
        printed = result.out + result.err
        leaked = sorted(m for m in b_moves if m in printed)
        assert not leaked, f"corr {command} printed B's moves {leaked} to Anna"


def play(corr: Corr, monkeypatch: pytest.MonkeyPatch, path: Path, *args: str) -> Run:
    """`corr play FILE ARGS`, told `quit` at its first prompt."""
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    result = corr("play", path, *args, "--color", "never")
    assert result.code == 0, result.err
    return result


def test_domino_1_2_play_against_the_computer_in_a_duel_shows_nothing_of_its_board(
    corr: Corr, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`corr play --bot B=...` at Anna's terminal: the computer plays B's board of the
    duel, and the terminal must show neither its moves nor its board (with the digit B
    is to place next)."""
    path = tmp_path / "duel.corr"
    assert corr("new", "domino", path, "-p", "Anna", "-p", "Computer", "--format", "none").code == 0
    shown = play(corr, monkeypatch, path, "--bot", "B=greedy")
    b_moves = {r["move"] for r in records(path) if r["by"] == "B" and r["type"] == "move"}
    assert b_moves  # the computer played
    printed = shown.out + shown.err
    leaked = sorted(m for m in b_moves if m in printed)
    assert not leaked, f"corr play printed B's moves {leaked} to Anna"
    assert "board of B" not in printed


# ---------------------------------------------------------------------------------
# 4. `corr play` and the seat's own card or digit


def own_lines(text: str, label: str) -> list[str]:
    """Every line of a text board that starts with `label` (`hand:`, `place:`)."""
    return [line.strip() for line in text.splitlines() if line.startswith(label)]


def test_cards_6_1_play_shows_the_seat_its_own_card(corr: Corr, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`corr play --as A` on the dealer's copy plays Anna's seat: she must see the card
    she holds, as `corr show --for A` shows it, and no other."""
    path = tmp_path / "cards.corr"
    assert corr("new", "cards", path, "-p", "Anna", "-p", "Ben", "-p", "Cleo", "--format", "none").code == 0
    hand = own_lines(corr("show", path, "--for", "A").out, "hand:")
    assert len(hand) == 1 and hand[0].startswith("hand:   A holds ")
    assert own_lines(play(corr, monkeypatch, path, "--as", "A").out, "hand:") == hand


def test_domino_2_1_play_shows_the_digit_to_place_at_the_start_and_on_resume(
    corr: Corr, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Domino game is played by placing the digit one is given (2.1): the board
    `corr play` prints, at the start and when a session picks the game up again, must
    say it, as `corr show --for A` does."""
    path = tmp_path / "solo.corr"
    assert corr("new", "domino", path, "-p", "Anna", "--format", "none").code == 0
    for _ in range(2):
        place = own_lines(corr("show", path, "--for", "A").out, "place:")
        assert len(place) == 1
        assert own_lines(play(corr, monkeypatch, path).out, "place:") == place
        move(corr, path, legal(corr, path, "A")[0], "A")  # a misplacement too: a digit is still given


# ---------------------------------------------------------------------------------
# 5. The example move of a Domino mail


def examples(raw: bytes) -> tuple[str, str]:
    """The example move of a message's text part and of its HTML part."""
    msg = parse_message(raw)
    plain, rich = msg.get_body(preferencelist=("plain",)), msg.get_body(preferencelist=("html",))
    assert plain is not None and rich is not None
    text, html = plain.get_content(), rich.get_content()
    in_text = re.search(r"For example: ([^\n]+)", text)
    in_html = re.search(r"For example: <b[^>]*>([^<]+)</b>", html)
    assert in_text and in_html, "the message shows no example move"
    return in_text.group(1).strip(), in_html.group(1).strip()


def test_domino_3_1_the_mailed_example_move_costs_no_life(corr: Corr, tmp_path: Path) -> None:
    """The message to the seat on turn shows the notation by an example move; one that
    breaks the Sudoku rule (a misplacement, 3.1) costs the player who copies it a life.
    A few public seeds, some (s1, s3, s4) whose first legal move is a misplacement."""
    costly = []
    for seed in ("s0", "s1", "s2", "s3", "s4"):
        path = tmp_path / f"{seed}.corr"
        result = corr("new", "domino", path, "-p", "Anna <anna@example.org>", "-o", f"seed={seed}",
                      "-o", "time_limit=none", "--format", "none")
        assert result.code == 0, result.err
        mail = tmp_path / f"{seed}.eml"
        assert corr("mail", "compose", path, "--to", "A", "--out", mail).code == 0
        in_text, in_html = examples(mail.read_bytes())
        assert in_text == in_html
        played = corr("move", path, in_text, "--by", "A", "--format", "json")
        assert played.code == 0, played.err
        if json.loads(played.out)["lives"] != {"A": 3}:
            costly.append(f"seed {seed}: {in_text}")
    assert not costly, f"example moves that are misplacements: {costly}"
