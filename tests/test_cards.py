"""СуДоку, the card game, rule by rule (docs/rules/cards.md); each test names the rule it pins.

Games are dealt from seeds chosen here (`deal`), so every hidden card is known to the
test; small decks (`deck=1x1-9`: nine distinct cards, which never clash with each other)
reach the end of the pile in a few moves, and single-digit decks (`deck=4x9`) make
every hand known whatever the seed. Scores are checked against a count written out
here from the rule's words, not against the game's own function.
"""

from __future__ import annotations

import json
import stat
from collections import Counter
from pathlib import Path

import pytest

from corr import engine, randomplay
from corr.engine import dealer
from corr.games import dealing
from corr.errors import CorruptLog, IllegalMove, UsageError
from corr.games.base import Action
from corr.games.cards.rules import TRACK, parse_deck
from corr.geometry import cell_of
from corr.log import store
from corr.log.lines import Record
from corr.notation import Placement, parse
from corr.puzzles.appendix import APPENDIX, parse_puzzle
from corr.render import render_position
from corr.seatview import position, private

PLAYERS = ["Anna", "Ben", "Cleo", "Dara", "Emil", "Fay"]
SEED = "c0ffee00" * 4  # 32 hex digits
OTHER_SEED = "5eed" * 16  # 64 hex digits

# --- helpers ---------------------------------------------------------------------------


def deal(players: int = 2, seed: str = SEED, **options: str) -> engine.Position:
    """The dealer's copy of a new game (in memory), dealt from `seed`."""
    header = engine.make_header("cards", PLAYERS[:players], options, commitment=dealer.commitment(seed))
    return engine.start(header, seed)


def hand(rep: engine.Position, seat: str) -> int:
    return rep.state.hands[rep.game.seats.index(seat)]


def lay(rep: engine.Position, cell: int, digit: int | None = None, by: str | None = None) -> list[Record]:
    """Lay the card `by` (default: the seat on turn) holds, or `digit`, on `cell`; the
    records are added to the log."""
    seat = by or rep.to_move()
    assert seat is not None
    card = hand(rep, seat) if digit is None else digit
    records = rep.add("move", by=seat, move=Placement(card, cell))
    return records


def challenge(rep: engine.Position, by: str, target: int | None = None) -> list[Record]:
    records = rep.add("challenge", by=by, target=target)
    return records


def outcome_of(rep: engine.Position, seq: int):  # type: ignore[no-untyped-def]
    return next(step.outcome for step in rep.steps if step.record.seq == seq)


def sees(a: int, b: int) -> bool:
    """Two different cells share a row, a column or a block (written out afresh)."""
    ra, ca, rb, cb = a // 9, a % 9, b // 9, b % 9
    return a != b and (ra == rb or ca == cb or (ra // 3, ca // 3) == (rb // 3, cb // 3))


def breaks(board: list[int], cell: int, digit: int) -> bool:
    return any(board[c] == digit for c in range(81) if sees(c, cell))


def free_cells(rep: engine.Position, digit: int, legal: bool = True) -> list[int]:
    """Free cells where `digit` keeps (legal) or breaks (not legal) the Sudoku rule."""
    board = rep.game.board(rep.state)
    return [c for c in range(81) if not board[c] and breaks(board, c, digit) != legal]


def expected_score(board: list[int], cell: int) -> int:
    """3.1 by its words: the cards in the block, plus those outside the block in the same
    row or column; the card laid itself not counted."""
    block = {c for c in range(81) if (c // 27, c % 9 // 3) == (cell // 27, cell % 9 // 3)}
    in_block = sum(1 for c in block if board[c] and c != cell)
    outside = sum(1 for c in range(81) if board[c] and c not in block and (c // 9 == cell // 9 or c % 9 == cell % 9))
    return in_block + outside


def text(rep: engine.Position) -> bytes:
    return store.text(rep.log)


def copy_of(data: bytes, secret: str | None = None) -> engine.Position:
    """A copy of a log replayed elsewhere: a player's (no secret) or the dealer's."""
    log = store.parse(data, Path("copy.corr"))
    if secret is not None:
        log.secret = dealer.Secret(secret)
    return engine.replay(log)


def forge(data: bytes, index: int, **changes) -> bytes:  # type: ignore[no-untyped-def]
    """Log bytes with record `index` (0-based) changed and every record from there on
    re-chained and re-hashed the way a player's copy computes the public position: what
    a forger without the seed can make."""
    log = store.parse(data, Path("forged.corr"))
    game = engine.make_game(log.header)  # no seed: the public position only
    assert not game.dealt
    state = game.initial()
    prev = store.line_hash(log.header_raw)
    lines = [log.header_raw]
    for i, record in enumerate(log.records):
        if i == index:
            record = record._replace(**changes)
        move = parse(record.move) if record.move else None
        engine.apply(game, state, Action(record.seq, record.type, record.by, move, record.target))
        if i >= index:
            record = record._replace(prev=prev, state=engine.state_hash(game, state))
        lines.append(store.dump(record))
        prev = store.line_hash(lines[-1])
    return b"".join(line + b"\n" for line in lines)


def appended(data: bytes, **fields) -> bytes:  # type: ignore[no-untyped-def]
    """Log bytes with one more record chained to the tail; the state hash is the last
    record's (the replay must refuse the record before it gets to the hash)."""
    log = store.parse(data, Path("forged.corr"))
    last = log.records[-1]
    record = Record(seq=last.seq + 1, type="reveal", by="dealer", at=last.at, prev=log.tail_hash, state=last.state)
    return data + store.dump(record._replace(**fields)) + b"\n"


def play_out(rep: engine.Position, limit: int = 200) -> None:
    """Lay the card on turn on its first legal cell until the game is over."""
    for _ in range(limit):
        if rep.to_move() is None:
            return
        lay(rep, free_cells(rep, hand(rep, rep.to_move()))[0])
    raise AssertionError("the game did not end")


def puzzle_with(cells: dict[int, int]) -> str:
    board = ["."] * 81
    for c, d in cells.items():
        board[c] = str(d)
    return "".join(board)


#: eight 5s, one per row 1-8, column and block but the last: only (9,9) still takes a 5
EIGHT_FIVES = puzzle_with({r * 9 + (r * 3 + r // 3) % 9: 5 for r in range(8)})
LAST_FIVE = 80


# --- 1 Material and setup ----------------------------------------------------------------
def test_cards_1_1_board_of_81_cells_nine_rows_columns_and_blocks() -> None:
    rep = deal()
    assert rep.game.board(rep.state) == [0] * 81
    moves = rep.game.legal_moves(rep.state)
    assert sorted(m.cell for m in moves) == list(range(81))  # every cell free at the start
    assert position(rep)["board"] == "." * 81


def test_cards_1_1_a_card_shares_its_row_column_and_block_with_20_cells() -> None:
    rep = deal(deck="4x7")  # every card a 7
    lay(rep, cell_of(5, 5))
    legal = sorted(m.cell for m in rep.game.legal_moves(rep.state))
    assert len(legal) == 80 - 20
    assert legal == [c for c in range(81) if c != cell_of(5, 5) and not sees(c, cell_of(5, 5))]


def test_cards_1_2_default_deck_is_81_cards_nine_of_each_digit_shuffled_from_the_seed() -> None:
    rep = deal()
    assert rep.header.options["deck"] == "9x1-9" and rep.header.options["puzzle"] == ""
    assert Counter(rep.game.deck) == {d: 9 for d in range(1, 10)}
    assert rep.game.pile == dealing.shuffle(SEED, rep.game.deck, "deck")
    assert Counter(rep.game.pile) == Counter(rep.game.deck)
    assert deal(seed=OTHER_SEED).game.pile != rep.game.pile


@pytest.mark.parametrize("players", [2, 3, 6])
def test_cards_1_2_board_starts_empty_and_each_player_draws_one_card_in_seat_order(players: int) -> None:
    rep = deal(players)
    assert rep.state.hands == rep.game.pile[:players]
    assert all(rep.state.holding)
    assert rep.game.view(rep.state, None).shown["pile"] == 81 - players
    assert not any(rep.game.board(rep.state))


@pytest.mark.parametrize(
    "deck, cards",
    [
        ("9x1-9", {d: 9 for d in range(1, 10)}),
        ("2x5", {5: 2}),
        ("1x1-9", {d: 1 for d in range(1, 10)}),
        ("1x1-9,2x5", {**{d: 1 for d in range(1, 10)}, 5: 3}),
        ("3x4-6, 10x9", {4: 3, 5: 3, 6: 3, 9: 10}),
    ],
)
def test_cards_1_2_deck_option(deck: str, cards: dict[int, int]) -> None:
    rep = deal(deck=deck)
    assert rep.header.options["deck"] == deck.replace(" ", "")
    assert Counter(rep.game.deck) == cards
    assert Counter(rep.game.pile) == cards
    assert rep.game.view(rep.state, None).shown["pile"] == sum(cards.values()) - 2


@pytest.mark.parametrize(
    "deck, words",
    [
        ("x5", "not NxD"),
        ("9x0", "not NxD"),
        ("9x1-9;2x5", "not NxD"),
        ("0x5", "names no cards"),
        ("3x7-2", "names no cards"),
        ("99x1-9", "at most 200"),
    ],
)
def test_cards_1_2_deck_option_refuses_a_bad_deck(deck: str, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        engine.make_header("cards", PLAYERS[:2], {"deck": deck}, commitment=dealer.commitment(SEED))


def test_cards_1_2_deck_too_small_to_give_every_player_a_card_is_refused() -> None:
    assert parse_deck("1x5-6") == [5, 6]
    with pytest.raises(UsageError, match="too few to deal one to each of 3 players"):
        deal(3, deck="1x5-6")


@pytest.mark.parametrize("number", sorted(APPENDIX))
def test_cards_1_2_puzzle_option_prefills_the_board_and_its_cards_leave_the_deck(number: int) -> None:
    rep = deal(puzzle=str(number))
    given = parse_puzzle(str(number))
    assert rep.header.options["puzzle"] == "".join(str(d) if d else "." for d in given)
    assert rep.game.board(rep.state) == given
    counts = Counter(d for d in given if d)
    assert Counter(rep.game.deck) == {d: 9 - counts[d] for d in range(1, 10) if counts[d] < 9}
    assert rep.game.view(rep.state, None).shown["pile"] == 81 - sum(counts.values()) - 2


def test_cards_1_2_puzzle_breaking_the_sudoku_rule_is_refused() -> None:
    with pytest.raises(UsageError, match=r"breaks the Sudoku rule"):
        deal(puzzle=puzzle_with({0: 5, 8: 5}))


def test_cards_1_2_puzzle_and_deck_leaving_no_card_are_refused() -> None:
    with pytest.raises(UsageError, match="leaves no card"):
        deal(deck="1x5", puzzle=puzzle_with({0: 5}))


def test_cards_1_3_oldest_player_seat_a_begins_then_clockwise() -> None:
    rep = deal(3, deck="1x1-9")
    assert rep.to_move() == "A"
    for _ in range(6):
        lay(rep, free_cells(rep, hand(rep, rep.to_move()))[0])
    assert [r.by for r in rep.log.records] == ["A", "B", "C", "A", "B", "C"]
    assert rep.to_move() == "A"


def test_cards_1_3_a_card_out_of_turn_is_refused() -> None:
    rep = deal(3)
    before = rep.game.state_key(rep.state)
    with pytest.raises(IllegalMove, match=r"cards 1\.3: it is A's turn, not B's") as err:
        rep.add("move", by="B", move=Placement(hand(rep, "B"), 40))
    assert err.value.rule == "cards 1.3"
    assert rep.game.state_key(rep.state) == before and rep.seq == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_cards_1_4_two_to_six_players(players: int) -> None:
    rep = deal(players)
    assert rep.game.seats == list("ABCDEF"[:players])
    assert len(rep.state.hands) == players and all(rep.state.hands)


@pytest.mark.parametrize("players", [1, 7])
def test_cards_1_4_fewer_than_two_or_more_than_six_players_are_refused(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    with pytest.raises(UsageError, match=f"2-6 players; {players} given"):
        engine.make_header("cards", names, {}, commitment=dealer.commitment(SEED))


def test_cards_1_4_a_header_with_seven_seats_is_corrupt() -> None:
    header = deal().header
    seats = tuple(header.seats[0]._replace(seat=s, name=f"P{s}") for s in "ABCDEFG")
    with pytest.raises(CorruptLog, match="2-6 seats"):
        engine.make_game(header._replace(seats=seats))


# --- 2 A turn ---------------------------------------------------------------------------
def test_cards_2_1_the_card_laid_must_be_the_one_held() -> None:
    rep = deal(deck="1x1-9")
    held = hand(rep, "A")
    other = next(d for d in range(1, 10) if d != held)
    with pytest.raises(IllegalMove, match=rf"cards 2\.1: A does not hold a {other}"):
        rep.add("move", move=Placement(other, 40))
    assert rep.seq == 0 and rep.to_move() == "A"
    lay(rep, 40)
    assert rep.state.grid.cells[40] == held


@pytest.mark.parametrize(
    "second, unit",
    [(cell_of(4, 6), "row 5"), (cell_of(2, 8), "column 5"), (cell_of(5, 1), "field 5")],
    ids=["row", "column", "block"],
)
def test_cards_2_1_strict_refuses_a_card_repeating_a_digit_in_row_column_or_block(second: int, unit: str) -> None:
    rep = deal(deck="4x7")  # every card a 7
    lay(rep, cell_of(5, 5))
    before, records = rep.game.state_key(rep.state), len(rep.log.records)
    with pytest.raises(IllegalMove, match=unit) as err:
        rep.add("move", move=Placement(7, second))
    assert err.value.rule == "cards 2.1"
    assert "a 7 already stands at (5,5)" in str(err.value)
    assert cell_of(5, 5) in err.value.cells and second in err.value.cells
    assert rep.game.state_key(rep.state) == before and len(rep.log.records) == records
    assert rep.state.grid.cells[second] == 0


@pytest.mark.parametrize("mode", ["strict", "as-written"])
def test_cards_2_1_a_card_goes_on_a_free_cell_only(mode: str) -> None:
    rep = deal(deck="1x1-9", mode=mode)
    lay(rep, 40)
    with pytest.raises(IllegalMove, match=r"cards 2\.1: \(5,5\) is not free"):
        rep.add("move", move=Placement(hand(rep, "B"), 40))
    assert rep.seq == 1


@pytest.mark.parametrize("move", ["grey (5,4)", "{d} (5,4) !", "{d} (5,4) !5"])
def test_cards_2_1_a_card_is_laid_as_digit_and_cell_without_claims(move: str) -> None:
    rep = deal()
    with pytest.raises(IllegalMove, match=r"cards 2\.1: a card is laid like 7 \(5,4\)"):
        rep.add("move", move=parse(move.format(d=hand(rep, "A"))))
    assert rep.seq == 0


def test_cards_2_2_the_turn_score_moves_the_marker() -> None:
    rep = deal(3, puzzle="1")
    for _ in range(6):
        seat = rep.to_move()
        index = rep.game.seats.index(seat)
        before = list(rep.state.points)
        board = list(rep.game.board(rep.state))
        cell = free_cells(rep, hand(rep, seat))[0]
        (record,) = lay(rep, cell)
        scored = outcome_of(rep, record.seq)
        assert scored.points == expected_score(board, cell) > 0
        assert scored.told() == (f"scores {scored.points}",)
        assert rep.state.points == [p + (scored.points if i == index else 0) for i, p in enumerate(before)]
        assert position(rep)["last"]["told"] == [f"scores {scored.points}"]


def test_cards_2_3_draw_a_new_card_then_the_next_player_is_on_turn() -> None:
    rep = deal(3)
    pile = rep.game.pile
    lay(rep, free_cells(rep, hand(rep, "A"))[0])
    assert hand(rep, "A") == pile[3] and rep.to_move() == "B"
    assert rep.game.view(rep.state, None).shown["pile"] == 81 - 4
    lay(rep, free_cells(rep, hand(rep, "B"))[0])
    assert hand(rep, "B") == pile[4] and rep.to_move() == "C"
    assert hand(rep, "C") == pile[2]  # not drawn yet: still the card dealt first


def test_cards_2_3_every_draw_is_the_next_card_of_the_pile() -> None:
    rep = randomplay.play("cards", PLAYERS[:4], {"puzzle": "3"}, seed=7)
    pile = rep.game.pile
    replayed = engine.start(rep.header, rep.game.seed)
    assert replayed.state.hands == pile[:4]
    drawn = 4
    for record in rep.log.records:
        if record.type != "move":
            continue
        seat = record.by
        assert int(record.move.split()[0]) == hand(replayed, seat)
        replayed.add("move", by=seat, move=parse(record.move))
        if drawn < len(pile):
            assert hand(replayed, seat) == pile[drawn]
            drawn += 1
    assert replayed.game.state_key(replayed.state) == rep.game.state_key(rep.state)


# --- 3 Scoring --------------------------------------------------------------------------
def test_cards_3_1_block_row_and_column_score() -> None:
    """The 9 at (5,5) scores 3 for its block (the 2 in its row counts once, as a block
    card), 2 for the row outside the block and 2 for the column outside: 7. The 8s in
    the corners see none of it; the card itself does not count."""
    puzzle = puzzle_with({
        30: 1, 39: 2, 50: 3,  # block 5 (39 also lies in row 5)
        36: 4, 44: 5,  # row 5, outside block 5
        4: 6, 76: 7,  # column 5, outside block 5
        0: 8, 80: 8,  # elsewhere
    })
    rep = deal(deck="4x9", puzzle=puzzle)
    (record,) = lay(rep, cell_of(5, 5))
    assert outcome_of(rep, record.seq).points == 7
    assert rep.state.points == [7, 0]
    (record,) = lay(rep, cell_of(1, 5))  # block 1 holds the 8 at (1,1); row 2, column 2 nothing
    assert outcome_of(rep, record.seq).points == 1
    assert rep.game.scores(rep.state) == {"A": 7, "B": 1}


def test_cards_3_1_the_first_card_on_an_empty_board_scores_nothing() -> None:
    rep = deal()
    (record,) = lay(rep, 40)
    assert outcome_of(rep, record.seq).points == 0 and rep.state.points == [0, 0]
    (record,) = lay(rep, free_cells(rep, hand(rep, "B"))[0])  # (1,1): sees nothing
    assert outcome_of(rep, record.seq).points == 0


@pytest.mark.parametrize("players, puzzle, seed", [(2, "2", 1), (3, "5", 2), (5, "", 3)])
def test_cards_3_1_every_turn_of_a_game_scores_its_block_row_and_column(players: int, puzzle: str, seed: int) -> None:
    rep = randomplay.play("cards", PLAYERS[:players], {"puzzle": puzzle} if puzzle else {}, seed=seed)
    board = rep.game.board(rep.game.initial())
    totals = dict.fromkeys(rep.game.seats, 0)
    moves = 0
    for step in rep.steps:
        if step.record.type != "move":
            continue
        cell, digit = step.action.move.cell, step.action.move.digit
        assert step.outcome.points == expected_score(board, cell), step.record
        totals[step.record.by] += step.outcome.points
        board[cell] = digit
        moves += 1
    assert moves > 20 and max(totals.values()) > TRACK
    assert rep.result().scores == totals  # 3.2: the final score is the sum of the turn scores


def test_cards_3_2_track_laps() -> None:
    """A marker reaching or passing 0 takes a lap token worth 40: position and laps."""
    rep = deal(4)
    rep.state.points = [39, 40, 45, 81]
    track = rep.game.view(rep.state, None).shown["track"]
    assert track == {
        "A": {"laps": 0, "position": 39},
        "B": {"laps": 1, "position": 0},
        "C": {"laps": 1, "position": 5},
        "D": {"laps": 2, "position": 1},
    }
    assert TRACK == 40
    for seat, t in track.items():  # final score = 40 x tokens + marker position
        assert 40 * t["laps"] + t["position"] == rep.game.scores(rep.state)[seat]


def test_cards_3_2_track_laps_in_a_played_game() -> None:
    rep = randomplay.play("cards", PLAYERS[:2], {"puzzle": "4"}, seed=5)
    result = rep.result()
    track = position(rep)["track"]
    assert any(t["laps"] >= 1 for t in track.values())
    for seat, t in track.items():
        assert (t["laps"], t["position"]) == divmod(result.scores[seat], 40)


def test_cards_3_2_boards_show_track_position_and_laps() -> None:
    rep = deal(3)
    rep.state.points = [45, 7, 80]
    assert "track:  A 5 (1 lap), B 7, C 0 (2 laps)" in render_position(rep, "text")
    html = render_position(rep, "html")
    assert "A 5 + 1 lap" in html and "C 0 + 2 laps" in html
    data = json.loads(render_position(rep, "json"))
    assert data["track"]["A"] == {"laps": 1, "position": 5} and data["scores"] == {"A": 45, "B": 7, "C": 80}


# --- 4 Breaking the rule ----------------------------------------------------------------
def test_cards_4_1_strict_refuses_rule_break() -> None:
    rep = deal(puzzle="1")
    assert rep.header.options["mode"] == "strict"  # the default for correspondence
    card = hand(rep, "A")
    cell = free_cells(rep, card, legal=False)[0]
    log_before, key_before = text(rep), rep.game.state_key(rep.state)
    with pytest.raises(IllegalMove) as err:
        rep.add("move", move=Placement(card, cell))
    assert err.value.rule == "cards 2.1" and "breaks the Sudoku rule" in str(err.value)
    assert text(rep) == log_before and rep.game.state_key(rep.state) == key_before
    assert hand(rep, "A") == card and rep.to_move() == "A"


def test_cards_4_1_as_written_records_a_rule_break_silently_with_its_score() -> None:
    rep = deal(puzzle="1", mode="as-written")
    card = hand(rep, "A")
    cell = free_cells(rep, card, legal=False)[0]
    board = list(rep.game.board(rep.state))
    (record,) = lay(rep, cell)
    outcome = outcome_of(rep, record.seq)
    assert outcome.illegal is not None and outcome.illegal.rule == "cards 2.1"
    assert outcome.points == expected_score(board, cell) and rep.state.points[0] == outcome.points
    assert rep.state.grid.cells[cell] == card and rep.to_move() == "B"
    # nobody is told: the record and every view say only what it scored
    assert "illegal" not in store.dump(record).decode()
    for seat in (None, "A", "B"):
        seen = json.dumps(position(rep, seat))
        assert "breaks" not in seen and "illegal" not in seen
        assert position(rep, seat)["last"]["told"] == [f"scores {outcome.points}"]


def test_cards_4_1_as_written_upheld_removes_card_and_points_offender_keeps_drawn_card() -> None:
    rep = deal(puzzle="1", mode="as-written")
    pile_before = rep.game.view(rep.state, None).shown["pile"]
    card = hand(rep, "A")
    cell = free_cells(rep, card, legal=False)[0]
    (move,) = lay(rep, cell)
    scored = outcome_of(rep, move.seq).points
    assert scored > 0 and rep.state.points == [scored, 0]
    drawn = hand(rep, "A")
    assert drawn == rep.game.pile[2]
    (record,) = challenge(rep, "B")
    outcome = outcome_of(rep, record.seq)
    assert outcome.verdict == "upheld"
    assert "cards 2.1" in outcome.events[0] and f"({scored} taken back)" in outcome.events[0]
    assert rep.state.grid.cells[cell] == 0  # removed from the game...
    assert rep.game.view(rep.state, None).shown["removed"] == 1
    assert rep.game.view(rep.state, None).shown["pile"] == pile_before - 1  # ...not back into the pile
    assert rep.state.points == [0, 0]  # the turn scores nothing
    assert hand(rep, "A") == drawn  # the offender keeps the card already drawn
    assert rep.to_move() == "B"  # and play goes on
    assert position(rep)["last"]["verdict"] == "upheld"
    lay(rep, free_cells(rep, hand(rep, "B"))[0])
    assert rep.to_move() == "A"
    # the challenge replays on every copy
    for again in (copy_of(text(rep)), copy_of(text(rep), SEED)):
        assert again.game.state_key(again.state) == rep.game.state_key(rep.state)


def test_cards_4_1_a_challenge_of_a_card_that_kept_the_rule_is_rejected() -> None:
    rep = deal(puzzle="1", mode="as-written")
    lay(rep, free_cells(rep, hand(rep, "A"))[0])
    board, points = list(rep.game.board(rep.state)), list(rep.state.points)
    (record,) = challenge(rep, "B")
    assert outcome_of(rep, record.seq).verdict == "rejected"
    assert rep.game.board(rep.state) == board and rep.state.points == points
    assert rep.to_move() == "B" and rep.game.view(rep.state, None).shown["removed"] == 0


def test_cards_4_1_not_challenged_before_the_next_move_the_card_stands_with_its_points() -> None:
    rep = deal(3, puzzle="1", mode="as-written")
    card = hand(rep, "A")
    cell = free_cells(rep, card, legal=False)[0]
    (move,) = lay(rep, cell)
    scored = outcome_of(rep, move.seq).points
    lay(rep, free_cells(rep, hand(rep, "B"))[0])  # the next move is recorded
    with pytest.raises(IllegalMove, match=r"cards 4\.1: too late to challenge seq 1"):
        rep.add("challenge", by="C", target=1)
    assert rep.state.grid.cells[cell] == card and rep.state.points[0] == scored
    # without a target a challenge reaches only the newest card (B's, which kept the rule)
    (record,) = challenge(rep, "C")
    assert outcome_of(rep, record.seq).verdict == "rejected"
    assert rep.state.grid.cells[cell] == card


def test_cards_4_1_nobody_challenges_their_own_card() -> None:
    rep = deal(puzzle="1", mode="as-written")
    lay(rep, free_cells(rep, hand(rep, "A"), legal=False)[0])
    with pytest.raises(IllegalMove, match=r"cards 4\.1: a player cannot challenge their own card"):
        rep.add("challenge", by="A")


def test_cards_4_1_nothing_to_challenge_before_the_first_card() -> None:
    rep = deal(mode="as-written")
    with pytest.raises(IllegalMove, match=r"cards 4\.1: there is no card to challenge"):
        rep.add("challenge", by="B")


def test_cards_4_1_strict_has_no_challenges() -> None:
    rep = deal()
    lay(rep, 40)
    with pytest.raises(IllegalMove, match=r"cards 4\.1: challenges exist only with mode=as-written"):
        rep.add("challenge", by="B")
    assert rep.seq == 1


# --- 5 End ------------------------------------------------------------------------------
def test_cards_5_1_ends_when_the_player_on_turn_holds_a_card_that_fits_nowhere() -> None:
    rep = deal(deck="12x5", puzzle=EIGHT_FIVES)  # four 5s left: A 5, B 5, two in the pile
    assert rep.game.pile == [5, 5, 5, 5] and free_cells(rep, 5) == [LAST_FIVE]
    records = lay(rep, LAST_FIVE)  # A lays the last 5 that fits and draws
    assert [r.type for r in records] == ["move", "reveal"]  # the dealer ends it at once
    assert records[1].by == "dealer" and records[1].seed == SEED
    assert rep.state.over and rep.to_move() is None
    assert rep.game.view(rep.state, None).shown["pile"] == 1  # not the end of the pile (5.2)
    assert position(rep)["end"] == "B holds a 5, which fits on no free cell (5.1)"
    with pytest.raises(IllegalMove, match="the game is over"):
        rep.add("move", by="B", move=Placement(5, 0))


def test_cards_5_1_only_the_card_of_the_player_on_turn_counts() -> None:
    """C's 5 fits nowhere once A lays the last 5, but B is on turn with a 1 that fits:
    the game goes on until C is on turn."""
    seed = next(s for s in (f"{n:032x}" for n in range(200))
                if deal(3, s, deck="1x1,13x5", puzzle=EIGHT_FIVES).game.pile[:3] == [5, 1, 5])
    rep = deal(3, seed, deck="1x1,13x5", puzzle=EIGHT_FIVES)
    assert [r.type for r in lay(rep, LAST_FIVE)] == ["move"]
    assert not rep.state.over and rep.to_move() == "B"
    records = lay(rep, free_cells(rep, 1)[0])
    assert [r.type for r in records] == ["move", "reveal"]
    assert rep.game.view(rep.state, None).shown["pile"] == 1
    assert position(rep)["end"] == "C holds a 5, which fits on no free cell (5.1)"


def test_cards_5_1_ends_when_every_card_is_laid_or_removed() -> None:
    """end=hands, as-written, four 1s: A's first card breaks the rule and is removed, the
    other three are laid; then nobody holds a card."""
    rep = deal(deck="5x1", puzzle=puzzle_with({0: 1}), mode="as-written", end="hands")
    assert rep.game.pile == [1, 1, 1, 1]
    lay(rep, free_cells(rep, 1, legal=False)[0])
    assert outcome_of(rep, challenge(rep, "B")[0].seq).verdict == "upheld"
    types = []
    while rep.to_move() is not None:
        types = [r.type for r in lay(rep, free_cells(rep, 1)[0])]
    assert types == ["move", "reveal"]
    assert rep.state.grid.cells.count(1) == 4  # the given and the three laid
    assert rep.game.view(rep.state, None).shown["removed"] == 1
    assert rep.state.holding == [False, False]
    assert position(rep)["end"] == "every card has been laid or removed (5.1)"


def test_cards_5_2_end_pile_ends_when_nobody_can_draw() -> None:
    """9 distinct cards, 2 players: after 7 draws the pile is empty but the game goes
    on until a player is to draw: B's 8th card ends it, A still holding the 9th."""
    rep = deal(deck="1x1-9")
    assert rep.header.options["end"] == "pile"  # the default
    for _ in range(7):
        assert [r.type for r in lay(rep, free_cells(rep, hand(rep, rep.to_move()))[0])] == ["move"]
    assert rep.game.view(rep.state, None).shown["pile"] == 0
    assert not rep.state.over and rep.to_move() == "B"
    records = lay(rep, free_cells(rep, hand(rep, "B"))[0])
    assert [r.type for r in records] == ["move", "reveal"]
    assert rep.state.over and rep.to_move() is None
    assert position(rep)["end"] == "the pile is empty when a player is to draw (5.2)"
    assert hand(rep, "A") == rep.game.pile[8]  # never laid
    assert sum(1 for d in rep.game.board(rep.state) if d) == 8


def test_cards_5_2_end_hands_plays_the_hands_out() -> None:
    rep = deal(deck="1x1-9", end="hands")
    for _ in range(8):
        assert [r.type for r in lay(rep, free_cells(rep, hand(rep, rep.to_move()))[0])] == ["move"]
    # B could not draw: it plays on without a card, A still holds one
    assert rep.state.holding == [True, False]
    assert position(rep)["holding"] == {"A": True, "B": False}
    assert position(rep, "B")["hand"] == [] and position(rep, "A")["hand"] == [rep.game.pile[8]]
    assert rep.to_move() == "A"
    records = lay(rep, free_cells(rep, hand(rep, "A"))[0])
    assert [r.type for r in records] == ["move", "reveal"]
    assert sum(1 for d in rep.game.board(rep.state) if d) == 9
    assert position(rep)["end"] == "every card has been laid or removed (5.1)"


def test_cards_5_2_end_hands_skips_a_player_without_a_card() -> None:
    rep = deal(3, deck="1x1-9", end="hands")
    rep.state.holding[1], rep.state.hands[1] = False, 0  # B has no card
    lay(rep, 40)  # A
    assert rep.to_move() == "C"
    lay(rep, free_cells(rep, hand(rep, "C"))[0])
    assert rep.to_move() == "A"
    # a player without a card cannot lay one even when asked directly
    with pytest.raises(IllegalMove, match=r"cards 5\.2: B holds no card"):
        rep.game.apply(rep.game.clone(rep.state), Action(9, "move", "B", Placement(5, 0)))


def test_cards_5_2_a_deck_of_exactly_one_card_per_player_ends_at_the_first_draw() -> None:
    rep = deal(3, deck="1x1-3")
    assert rep.game.view(rep.state, None).shown["pile"] == 0 and not rep.state.over
    records = lay(rep, 0)
    assert [r.type for r in records] == ["move", "reveal"]
    assert rep.result().winners == ("A", "B", "C")  # nobody scored


def test_cards_5_3_most_points_win() -> None:
    rep = deal(3)
    rep.state.points = [12, 30, 29]
    assert rep.result().winners == ()  # not over: nobody has won yet
    rep.state.over = True
    assert rep.result() == (True, ("B",), {"A": 12, "B": 30, "C": 29})


def test_cards_5_3_equal_totals_share_the_win() -> None:
    rep = deal(4)
    rep.state.over = True
    rep.state.points = [41, 17, 41, 40]
    assert rep.result().winners == ("A", "C")
    assert position(rep)["winners"] == ["A", "C"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cards_5_3_the_winners_of_a_played_game_have_the_most_points(seed: int) -> None:
    rep = randomplay.play("cards", PLAYERS[:3], {"puzzle": "6"}, seed=seed)
    result = rep.result()
    assert result.over
    best = max(result.scores.values())
    assert result.winners == tuple(s for s in "ABC" if result.scores[s] == best)


# --- 6 Hidden information ---------------------------------------------------------------
def test_cards_6_1_public_hash_ignores_hands() -> None:
    games = [deal(3, seed).game for seed in (SEED, OTHER_SEED)]
    states = [g.initial() for g in games]
    assert states[0].hands != states[1].hands
    public = engine.make_game(deal(3).header)  # a player's copy: no seed
    keys = {g.state_key(s) for g, s in zip(games, states)} | {public.state_key(public.initial())}
    assert len(keys) == 1
    state = states[0]
    key = games[0].state_key(state)
    state.hands = [9, 9, 9]
    assert games[0].state_key(state) == key
    state.points[0] += 1  # the public part does count
    assert games[0].state_key(state) != key


def test_cards_6_1_each_seat_sees_its_own_card_and_nobody_elses() -> None:
    rep = deal(3, deck="1x1-9")  # distinct cards: no two seats hold the same digit
    lay(rep, 40)
    cards = {s: hand(rep, s) for s in "ABC"}
    public = position(rep)
    assert "hand" not in public
    for seat in "ABC":
        own = position(rep, seat)
        assert own["hand"] == [cards[seat]]
        assert {k: v for k, v in own.items() if k not in ("hand", "viewer")} == public
        assert private(rep, seat) == {"hand": [cards[seat]]}  # what the dealer sends that seat (6.2)
    # what is public: the count of the pile and who holds a card, never which
    assert public["pile"] == 5 and public["holding"] == {"A": True, "B": True, "C": True}


def test_cards_6_1_boards_show_the_card_to_its_seat_only() -> None:
    rep = deal(3, deck="1x1-9")
    cards = {s: hand(rep, s) for s in "ABC"}
    public = render_position(rep, "text")
    assert "hand:" not in public and "holds" not in public
    for seat in "ABC":
        board = render_position(rep, "text", seat)
        assert f"hand:   {seat} holds {cards[seat]}" in board
        assert all(f"{other} holds" not in board for other in "ABC" if other != seat)
        assert "Your card" in render_position(rep, "html", seat)
        assert json.loads(render_position(rep, "json", seat))["hand"] == [cards[seat]]
    assert "Your card" not in render_position(rep, "html")
    assert "hand" not in json.loads(render_position(rep, "json"))


def test_cards_6_1_a_players_copy_verifies_every_public_record_but_cannot_deal() -> None:
    rep = deal(3, puzzle="2")
    for _ in range(5):
        lay(rep, free_cells(rep, hand(rep, rep.to_move()))[0])
    data = text(rep)
    assert SEED.encode() not in data  # the seed stays out of the log until the end
    player = copy_of(data)  # replay checks each record's state hash
    assert not player.game.dealt and player.game.pile is None
    assert player.state.hands == [0, 0, 0]
    assert player.game.state_key(player.state) == rep.game.state_key(rep.state)
    assert position(player, "A").get("hand") is None  # this copy does not know it
    card = hand(rep, rep.to_move())
    with pytest.raises(UsageError, match="only the dealer's copy"):
        player.game.legal_moves(player.state)
    with pytest.raises(UsageError, match="send the move to the dealer"):
        player.add("move", move=Placement(card, free_cells(rep, card)[0]))
    with pytest.raises(UsageError, match="send the move to the dealer"):
        player.add("reveal", by="dealer")
    assert player.seq == rep.seq


def test_cards_6_2_header_commits_to_the_seed() -> None:
    rep = deal()
    assert rep.header.commitment == dealer.commitment(SEED)
    assert rep.game.seed == SEED and rep.game.dealt


def test_cards_6_2_reveal_matches_commitment() -> None:
    rep = deal(2, deck="1x1-5")
    play_out(rep)
    reveal = rep.log.records[-1]
    assert (reveal.type, reveal.by, reveal.seed) == ("reveal", "dealer", SEED)
    assert dealer.commitment(reveal.seed) == rep.header.commitment
    assert sum(r.type == "reveal" for r in rep.log.records) == 1
    assert "the dealer reveals the deal" in rep.steps[-1].outcome.events[0]
    # the records chain (store.add checked it) and a file round trip replays
    again = copy_of(text(rep))
    assert again.seq == rep.seq and again.result() == rep.result()


def test_cards_6_2_after_the_reveal_any_copy_re_deals_and_checks_every_card() -> None:
    rep = deal(3, puzzle="3")
    play_out(rep)
    player = copy_of(text(rep))  # no secret: dealt from the revealed seed
    assert player.game.dealt and player.game.seed == SEED
    assert player.game.pile == rep.game.pile and player.state.hands == rep.state.hands
    assert player.game.state_key(player.state) == rep.game.state_key(rep.state)
    # the same log without its reveal deals nothing on that copy
    unrevealed = copy_of(b"".join(line + b"\n" for line in text(rep).split(b"\n")[:-2]))
    assert not unrevealed.game.dealt and unrevealed.state.hands == [0, 0, 0]


def test_cards_6_2_the_reveal_comes_only_at_the_end() -> None:
    rep = deal(deck="1x1-9")
    lay(rep, 40)
    with pytest.raises(IllegalMove, match=r"cards 6\.2: the dealer reveals the deal when the game ends"):
        rep.add("reveal", by="dealer")
    forged = appended(text(rep), seed=SEED)  # the right seed, too early
    with pytest.raises(CorruptLog, match="not over") as err:
        copy_of(forged)
    assert err.value.seq == 2 and err.value.kind == "illegal"


def test_cards_6_2_only_the_dealer_reveals_and_only_once() -> None:
    rep = deal(deck="1x1-3")
    play_out(rep)
    with pytest.raises(IllegalMove, match="revealed already"):
        rep.add("reveal", by="dealer")
    with pytest.raises(CorruptLog, match="revealed already"):
        copy_of(appended(text(rep), seed=SEED))
    early = deal(deck="1x1-9")
    with pytest.raises(IllegalMove, match="a reveal is the dealer's record, not B's"):
        early.add("reveal", by="B")
    with pytest.raises(CorruptLog, match="dealer's record, not B's"):
        copy_of(appended(text(rep)[: -len(store.dump(rep.log.records[-1])) - 1], by="B", seed=SEED))


def test_cards_6_2_the_dealer_makes_no_moves() -> None:
    rep = deal()
    with pytest.raises(IllegalMove, match="the dealer makes no 'move' records"):
        rep.add("move", by="dealer", move=Placement(hand(rep, "A"), 40))


def test_cards_6_2_a_reveal_not_matching_the_commitment_is_corrupt() -> None:
    rep = deal(deck="1x1-3")
    play_out(rep)
    data = text(rep)
    last = store.dump(rep.log.records[-1])
    forged = data.replace(last, store.dump(rep.log.records[-1]._replace(seed=OTHER_SEED)))
    assert forged != data
    for secret in (None, SEED):
        with pytest.raises(CorruptLog, match="does not match the header's commitment") as err:
            copy_of(forged, secret)
        assert err.value.kind == "reveal"


def test_cards_6_2_a_card_the_seat_does_not_hold_is_caught_by_the_dealer_and_after_the_reveal() -> None:
    """B's last card is changed to the one A still holds: every public check passes, so
    a player's copy cannot tell before the reveal; the dealer's copy can, and after the
    reveal every copy can."""
    rep = deal(deck="1x1-9")
    play_out(rep)
    records = rep.log.records
    assert [r.type for r in records[-2:]] == ["move", "reveal"] and records[-2].by == "B"
    cell = parse(records[-2].move).cell
    unplayed = hand(rep, "A")
    forged = forge(text(rep), len(records) - 2, move=str(Placement(unplayed, cell)))
    with pytest.raises(CorruptLog, match=f"B does not hold a {unplayed}") as err:
        copy_of(forged)
    assert err.value.seq == records[-2].seq and err.value.kind == "illegal"
    without_reveal = b"".join(line + b"\n" for line in forged.split(b"\n")[:-2])
    player = copy_of(without_reveal)
    assert player.seq == records[-2].seq and not player.game.dealt
    with pytest.raises(CorruptLog, match=f"B does not hold a {unplayed}"):
        copy_of(without_reveal, SEED)


def test_cards_6_2_an_honest_log_replays_the_same_on_every_copy() -> None:
    rep = deal(4, deck="2x1-9", mode="as-written", end="hands")
    play_out(rep)
    data = text(rep)
    for copy in (copy_of(data), copy_of(data, SEED)):
        assert copy.game.state_key(copy.state) == rep.game.state_key(rep.state)
        assert copy.result() == rep.result()


@pytest.mark.parametrize(
    "players, options, seed",
    [
        (2, {}, 1),
        (6, {}, 2),
        (3, {"end": "hands", "deck": "2x1-9"}, 3),
        (4, {"puzzle": "5", "mode": "as-written"}, 4),
    ],
)
def test_cards_6_2_random_games_end_with_the_reveal_and_re_deal_on_a_players_copy(
    players: int, options: dict[str, str], seed: int
) -> None:
    rep = randomplay.play("cards", PLAYERS[:players], options, seed=seed)
    assert rep.result().over
    last = rep.log.records[-1]
    assert last.type == "reveal" and last.seed == randomplay.deal_seed(seed)
    assert [r.type for r in rep.log.records].count("reveal") == 1
    again = copy_of(text(rep))
    assert again.game.dealt and again.game.state_key(again.state) == rep.game.state_key(rep.state)


# --- the command line -------------------------------------------------------------------
def one_line_error(r, code: int, *words: str) -> None:  # type: ignore[no-untyped-def]
    assert r.code == code, (r.code, r.err)
    assert "Traceback" not in r.err
    assert r.err.startswith("corr: error: ") and r.err.count("\n") == 1, r.err
    for word in words:
        assert word in r.err, (word, r.err)


@pytest.fixture
def cli_game(corr, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "cards.corr"
    r = corr("new", "cards", path, "-p", "Anna", "-p", "Ben", "-p", "Cleo", "-f", "json")
    assert r.code == 0, r.err
    return path


def test_cards_6_2_cli_new_writes_the_secret_beside_the_log_and_the_commitment_into_it(corr, tmp_path: Path) -> None:
    path = tmp_path / "cards.corr"
    r = corr("new", "cards", path, "-p", "Anna", "-p", "Ben", "-p", "Cleo", "-f", "json")
    assert r.code == 0, r.err
    secret = dealer.secret_path(path)
    assert secret.exists() and stat.S_IMODE(secret.stat().st_mode) == 0o600
    seed = json.loads(secret.read_text())["seed"]
    header = json.loads(path.read_bytes().split(b"\n")[0])
    assert header["commitment"] == dealer.commitment(seed)
    assert [s["name"] for s in header["seats"]] == ["Anna", "Ben", "Cleo"]
    assert seed not in path.read_text() and seed not in r.out
    shown = json.loads(r.out)  # the public view: no card of anyone
    assert "hand" not in shown and shown["pile"] == 78 and shown["to_move"] == "A"


def test_cards_2_1_cli_a_card_the_seat_does_not_hold_is_refused(corr, cli_game: Path) -> None:
    held = engine.load(cli_game).state.hands[0]
    other = next(d for d in range(1, 10) if d != held)
    before = cli_game.read_bytes()
    r = corr("move", cli_game, f"{other} (5,5)", "-f", "none")
    one_line_error(r, 1, "cards 2.1", f"A does not hold a {other}")
    assert cli_game.read_bytes() == before
    r = corr("move", cli_game, f"{held} (5,5)", "-f", "none")
    assert r.code == 0, r.err
    assert json.loads(cli_game.read_bytes().split(b"\n")[1])["move"] == f"{held} (5,5)"


def test_cards_6_1_cli_a_move_without_the_dealers_secret_is_refused(corr, cli_game: Path) -> None:
    held = engine.load(cli_game).state.hands[0]
    dealer.secret_path(cli_game).rename(cli_game.with_name("kept.secret"))
    before = cli_game.read_bytes()
    r = corr("move", cli_game, f"{held} (5,5)", "-f", "none")
    one_line_error(r, 1, "cards.corr.secret", "send the move to the dealer")
    assert cli_game.read_bytes() == before


def test_cards_6_2_cli_an_altered_secret_is_a_one_line_error(corr, cli_game: Path) -> None:
    held = engine.load(cli_game).state.hands[0]
    dealer.secret_path(cli_game).write_text(json.dumps({"seed": OTHER_SEED}))
    before = cli_game.read_bytes()
    r = corr("move", cli_game, f"{held} (5,5)", "-f", "none")
    one_line_error(r, 2, "altered", "commitment")
    assert cli_game.read_bytes() == before
    dealer.secret_path(cli_game).write_text("{not json")
    one_line_error(corr("move", cli_game, f"{held} (5,5)", "-f", "none"), 2, "not a corr secret file")
    assert cli_game.read_bytes() == before


def test_cards_4_1_cli_challenge_upheld_and_the_game_to_its_reveal(corr, tmp_path: Path) -> None:
    path = tmp_path / "aw.corr"
    r = corr("new", "cards", path, "-p", "Anna", "-p", "Ben", "-o", "mode=as-written", "-o", "deck=3x1",
             "-o", f"puzzle={puzzle_with({0: 1})}", "-f", "none")
    assert r.code == 0, r.err  # two 1s left: A and B hold one each, the pile is empty
    rep = engine.load(path)
    assert rep.state.hands == [1, 1]
    bad = free_cells(rep, 1, legal=False)[0]
    assert corr("move", path, str(Placement(1, bad)), "-f", "none").code == 0
    r = corr("challenge", path, "--by", "B", "-f", "none")
    assert r.code == 0, r.err
    assert "challenge upheld" in r.err
    rep = engine.load(path)
    assert rep.state.grid.cells[bad] == 0 and rep.game.view(rep.state, None).shown["removed"] == 1
    # the first draw found the pile empty (5.2): the dealer revealed the deal at once
    assert rep.log.records[0].type == "move" and rep.log.records[1].type == "reveal"
    assert rep.result().over
    # a player's copy (no secret) replays the whole game, re-dealt from the reveal
    dealer.secret_path(path).unlink()
    assert corr("replay", path).code == 0


# --- 4.1 ruling: an upheld challenge undoes the end the illegal card caused -------------
#: The referee's reproduction: three cells free, (1,3) (3,2) (4,3); the deck left is a 3
#: and two 5s; both seats hold a 5, and a 5 on (1,3) breaks the rule and leaves B's 5 no cell.
REFEREE_PUZZLE = "42.8761.916853924775921436869.321784381947526274685931517462893842193675936758412"


def both_hold_a_five() -> engine.Position:
    seed = next(s for s in (f"{n:032x}" for n in range(200))
                if deal(seed=s, puzzle=REFEREE_PUZZLE, mode="as-written").game.pile[:2] == [5, 5])
    return deal(seed=seed, puzzle=REFEREE_PUZZLE, mode="as-written")


def test_cards_4_1_an_upheld_challenge_undoes_the_end_the_illegal_card_caused() -> None:
    rep = both_hold_a_five()
    assert [r.type for r in lay(rep, cell_of(1, 3), 5)] == ["move"]  # no reveal: the end does not stand yet
    assert not rep.state.over and rep.to_move() == "B" and rep.game.legal_moves(rep.state) == []
    assert outcome_of(rep, challenge(rep, "B")[0].seq).verdict == "upheld"
    assert not rep.state.over and rep.to_move() == "B"  # the game is open again, B on turn with its 5
    assert rep.game.legal_moves(rep.state)  # which fits now
    assert not any(r.type == "reveal" for r in rep.log.records)
    assert rep.game.view(rep.state, None).shown["track"]["A"]["position"] == 0  # the breaker keeps nothing


def test_cards_4_1_a_pass_lets_the_end_stand_and_the_dealer_reveals() -> None:
    rep = both_hold_a_five()
    lay(rep, cell_of(1, 3), 5)
    records = rep.add("pass", by="B")
    assert [r.type for r in records] == ["pass", "reveal"]
    assert rep.state.over and position(rep)["end"] == "B passes: the card held fits on no free cell (5.1)"
    with pytest.raises(IllegalMove, match="too late|no card to challenge"):
        rep.add("challenge", by="B")
    # a player's copy takes the pass on trust and checks it at the reveal
    assert copy_of(text(rep)).state.over


def test_cards_4_1_a_rejected_challenge_lets_the_end_stand() -> None:
    rep = deal(deck="12x5", puzzle=EIGHT_FIVES, mode="as-written")  # A's last legal 5 leaves B's 5 no cell
    lay(rep, LAST_FIVE)
    assert not rep.state.over and rep.to_move() == "B"
    records = challenge(rep, "B")
    assert [r.type for r in records] == ["challenge", "reveal"]
    assert outcome_of(rep, records[0].seq).verdict == "rejected" and rep.state.over


def test_cards_5_1_a_pass_is_refused_while_the_card_held_fits_or_when_nothing_waits() -> None:
    rep = both_hold_a_five()
    with pytest.raises(IllegalMove, match="cards 5.1: a pass is only for a card that fits nowhere"):
        rep.add("pass", by="A")  # nothing laid yet
    lay(rep, cell_of(3, 2), 5)  # a legal 5: B's 5 still fits at (4,3), so B lays it
    assert [m.cell for m in rep.game.legal_moves(rep.state)] == [cell_of(4, 3)]
    with pytest.raises(IllegalMove, match="cards 2.1: B's 5 fits on a free cell: lay it"):
        rep.add("pass", by="B")
    strict = deal(deck="12x5", puzzle=EIGHT_FIVES)
    assert [r.type for r in lay(strict, LAST_FIVE)] == ["move", "reveal"]  # strict: nothing to wait for


def test_cards_5_1_corr_pass_ends_the_turn_from_the_command_line(corr, tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    rep = both_hold_a_five()
    path.write_bytes(text(rep))
    dealer.write_secret(path, dealer.Secret(rep.game.seed))  # type: ignore[arg-type]
    assert corr("move", path, "5 (1,3)", "-f", "none").code == 0
    r = corr("pass", path, "-f", "none")
    assert r.code == 0, r.err
    assert "B passes" in r.err
    assert [r.type for r in engine.load(path).log.records] == ["move", "pass", "reveal"]
    assert corr("audit", path).code == 0


def test_cards_5_2_end_pile_the_seat_whose_draw_found_the_pile_empty_holds_no_card() -> None:
    rep = deal(deck="1x1-9")
    for _ in range(8):
        lay(rep, free_cells(rep, hand(rep, rep.to_move()))[0])
    assert rep.state.over
    assert rep.game.view(rep.state, None).shown["holding"] == {"A": True, "B": False}


def test_cards_4_1_a_log_whose_dealer_revealed_at_once_still_verifies() -> None:
    """Logs from before the ruling: the dealer revealed right after the card that left
    the next seat none; they replay as they always did, the end standing."""
    rep = both_hold_a_five()
    lay(rep, cell_of(1, 3), 5)
    assert [r.type for r in rep.add("reveal", by="dealer")] == ["reveal"]
    assert rep.state.over
    again = copy_of(text(rep))
    assert again.state.over and [r.type for r in again.log.records] == ["move", "reveal"]
