"""SUDOKU-Combat, rule by rule (docs/rules/combat.md); each test names the rule it pins."""

from __future__ import annotations

import pytest

from corr.errors import IllegalMove
from corr.games.base import Action, Claim
from corr.games.combat.rules import Combat, CombatState
from corr.games.grid import Grid
from corr.geometry import cell_of
from corr.geometry import name as cell_name
from corr.notation import parse

# Field 1 filled but for its last place (1,9), where only a 9 fits.
FIELD1_LAST_TILE = (
    "234......"
    "516.2..3."
    "78......."
    ".....,...".replace(",", ".")
    + ".4..5..6."
    "........."
    "........."
    ".7..8..9."
    "........."
)

# Field 1 lacks 8 and 9 with two empty places (3,2)->(1,8) and (1,9); an 8 stands in
# column 3 below, so (1,9) takes 8 only... until a 9 joins that column.
FIELD1_TWO_HOLES = (
    "234......"
    "516.2..3."
    "7........"
    "..8......"
    ".4..5..6."
    "........."
    "........."
    ".7..8..9."
    "........."
)


def setup(board: str, seats: str = "AB", **options: str) -> tuple[Combat, CombatState]:
    """A Combat game whose board is `board` (81 chars, must hold the 1.2 centres)."""
    game = Combat(Combat.resolve_options(options), list(seats))
    state = game.initial()
    state.grid = Grid([int(ch) if ch.isdigit() else 0 for ch in board])
    return game, state


def play(game: Combat, state: CombatState, text: str, by: str | None = None, seq: int = 1):
    return game.apply(state, Action(seq, "move", by or game.to_move(state), parse(text)))


def challenge(game: Combat, state: CombatState, by: str, target: int | None = None, seq: int = 99):
    return game.apply(state, Action(seq, "challenge", by, None, target))


def empty_setup(seats: str = "AB", **options: str) -> tuple[Combat, CombatState]:
    game = Combat(Combat.resolve_options(options), list(seats))
    return game, game.initial()


# --- 1 Material and setup -----------------------------------------------------------
def test_combat_1_2_every_field_centre_holds_its_number() -> None:
    game, state = empty_setup()
    for f in range(1, 10):
        assert state.grid.cells[cell_of(f, 5)] == f
    assert sum(1 for d in state.grid.cells if d) == 9


def test_combat_1_2_supply_holds_eight_of_each_digit() -> None:
    game, state = empty_setup()
    assert game.supply(state) == {d: 8 for d in range(1, 10)}
    play(game, state, "7 (5,4)")
    assert game.supply(state)[7] == 7


def test_combat_1_1_a_digit_with_all_nine_tiles_on_the_board_is_refused() -> None:
    game, state = empty_setup(mode="as-written")
    # as-written lets tiles break the Sudoku rule, so eight more 7s fit anywhere
    for place in (1, 2, 3, 4, 6, 7, 8, 9):
        play(game, state, f"7 (1,{place})")
    assert game.supply(state)[7] == 0
    with pytest.raises(IllegalMove, match=r"combat 1\.1: no 7 is left in the supply"):
        play(game, state, "7 (2,1)")


def test_combat_1_1_an_empty_supply_is_refused_where_the_sudoku_rule_would_take_the_digit() -> None:
    game, state = empty_setup(mode="as-written")
    for place in (1, 2, 3, 4, 6, 7, 8, 9):  # eight 7s in row 1, the ninth 7 of the supply
        play(game, state, f"7 (1,{place})")
    open_place = next(c for c in range(81) if state.grid.fits(c, 7))  # no 7 in its row, column or field
    with pytest.raises(IllegalMove, match=r"combat 1\.1: no 7 is left in the supply"):
        play(game, state, f"7 {cell_name(open_place)}")


def test_combat_1_3_seats_play_in_fixed_order_a_first() -> None:
    game, state = empty_setup("ABCD")
    order = []
    for text in ("1 (2,1)", "2 (1,1)", "3 (1,2)", "4 (2,2)", "5 (1,3)"):
        order.append(game.to_move(state))
        play(game, state, text)
    assert order == ["A", "B", "C", "D", "A"]


# --- 2 A turn ---------------------------------------------------------------------
def test_combat_2_1_an_occupied_place_is_refused() -> None:
    game, state = empty_setup()
    with pytest.raises(IllegalMove, match=r"combat 2\.1: \(5,5\) is occupied by a 5"):
        play(game, state, "7 (5,5)")


def test_combat_2_1_only_placements_are_moves() -> None:
    game, state = empty_setup()
    with pytest.raises(IllegalMove, match=r"combat 2\.1"):
        play(game, state, "grey (5,4)")


def test_combat_2_2_strict_refuses_a_sudoku_clash_naming_the_tile() -> None:
    game, state = empty_setup()
    play(game, state, "7 (5,4)")
    with pytest.raises(IllegalMove) as err:
        play(game, state, "7 (4,6)")
    assert err.value.rule == "combat 2.2"
    assert "a 7 already stands at (5,4) in row 5" in str(err.value)
    assert cell_of(5, 4) in err.value.cells


@pytest.mark.parametrize(
    "first, second, unit",
    [("3 (4,1)", "3 (6,2)", "row 4"), ("3 (4,1)", "3 (7,1)", "column 1"), ("3 (4,1)", "3 (4,9)", "field 4")],
)
def test_combat_2_2_clash_in_row_column_or_field(first: str, second: str, unit: str) -> None:
    game, state = empty_setup()
    play(game, state, first)
    with pytest.raises(IllegalMove, match=unit):
        play(game, state, second)


def test_combat_2_2_a_placed_tile_never_moves() -> None:
    game, state = empty_setup()
    play(game, state, "7 (5,4)")
    with pytest.raises(IllegalMove, match="occupied by a 7"):
        play(game, state, "6 (5,4)")


# --- 3 Conquering a field -----------------------------------------------------------
def test_combat_3_1_outer_conquest() -> None:
    # After these moves field 8 still lacks a 2 with one place left, (8,1); the 2 at
    # (7,3) - outside field 8, in the same row - takes it.
    game, state = empty_setup()
    for text in ("7 (8,7)", "8 (4,6)", "6 (8,4)", "2 (5,3)", "9 (1,3)", "1 (3,9)"):
        play(game, state, text)
    assert state.grid.places_for(8, 2) == [cell_of(8, 1)]
    outcome = play(game, state, "2 (7,3) !")
    assert outcome.conquered == (8,)
    assert state.conquered == {8: "A"}


def test_combat_3_1_inner_conquest_source_example() -> None:
    # The source's example: a 7 placed at (5,4) takes the last place of field 5's 8.
    # 8s in column 6 (2,3), row 4 (4,1) and row 6 (6,9) leave the 8 only (5,4).
    game, state = empty_setup()
    for text in ("8 (2,3)", "1 (3,1)", "8 (4,1)", "2 (3,2)", "8 (6,9)", "3 (1,1)"):
        play(game, state, text)
    assert state.grid.places_for(5, 8) == [cell_of(5, 4)]
    outcome = play(game, state, "7 (5,4) !")
    assert outcome.conquered == (5,)


def test_combat_3_2_placing_the_last_tile_that_fits_conquers() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    outcome = play(game, state, "9 (1,9) !")
    assert outcome.conquered == (1,)


def test_combat_3_3_the_test_is_per_digit_not_a_matching() -> None:
    # Field 1 lacks 8 and 9 with places (1,8) and (1,9). After a 9 lands in column 3,
    # (1,9) takes neither digit, so the field can never be completed; but each missing
    # digit still has a place, (1,8), so by 3.3 the field is not conquered.
    game, state = setup(FIELD1_TWO_HOLES)
    with pytest.raises(IllegalMove, match="does not conquer"):
        play(game, game.clone(state), "9 (4,9) !1")
    outcome = play(game, state, "9 (4,9)")
    assert outcome.conquered == () and outcome.missed == ()
    assert state.grid.places_for(1, 8) == [cell_of(1, 8)]
    assert state.grid.places_for(1, 9) == [cell_of(1, 8)]


# A real opening, played without claims, after which `3 (4,1)` conquers fields 4 and 6.
TWO_FIELD_OPENING = (
    "2 (3,2)", "5 (6,7)", "1 (6,4)", "9 (2,2)", "9 (5,1)", "3 (8,2)", "1 (7,1)", "4 (9,1)",
    "4 (8,7)", "7 (1,7)", "5 (1,2)", "9 (8,3)", "8 (4,9)", "6 (5,2)", "1 (2,8)", "5 (7,9)",
    "3 (5,7)", "7 (6,9)", "2 (7,7)", "8 (6,6)", "4 (5,8)", "6 (2,6)",
)


def test_combat_3_4_one_move_conquers_two_fields() -> None:
    game, state = empty_setup()
    for text in TWO_FIELD_OPENING:
        play(game, state, text)
    assert state.conquered == {}
    outcome = play(game, state, "3 (4,1) !")
    assert outcome.conquered == (4, 6)
    assert state.conquered == {4: "A", 6: "A"}


def test_combat_3_4_named_claim_takes_only_the_named_field() -> None:
    game, state = empty_setup()
    for text in TWO_FIELD_OPENING:
        play(game, state, text)
    outcome = play(game, state, "3 (4,1) !6")
    assert outcome.conquered == (6,) and outcome.missed == (4,)
    assert state.conquered == {6: "A"}


def test_combat_3_4_a_field_is_conquered_once_for_good_and_stays_playable() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    play(game, state, "9 (1,9) !")
    assert state.conquered == {1: "A"}
    # another field-1 event later cannot take it over: field 1 is full, others go on
    play(game, state, "9 (5,1)")
    assert state.conquered == {1: "A"}


def test_combat_3_5_unclaimed_conquest_is_missed_and_the_field_stays_open() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    outcome = play(game, state, "9 (1,9)")
    assert outcome.conquered == () and outcome.missed == (1,)
    assert state.conquered == {}


# A real opening, played without claims; then `7 (1,4)` conquers fields 1 and 4 unclaimed.
MISSED_FIELD_1 = (
    "7 (2,2)", "7 (6,6)", "6 (9,4)", "5 (9,2)", "1 (9,1)", "2 (1,7)", "8 (4,1)", "6 (2,6)",
    "1 (7,7)", "9 (7,1)", "5 (7,8)", "3 (6,3)", "9 (4,2)", "3 (2,7)", "7 (5,3)", "3 (1,3)",
    "3 (9,7)", "5 (4,9)", "2 (5,7)", "6 (8,2)", "4 (1,1)", "1 (6,8)", "1 (4,3)", "9 (3,7)",
    "1 (2,9)", "2 (9,3)", "7 (3,8)",
)


def test_combat_3_5_a_missed_field_can_be_conquered_by_a_later_move() -> None:
    game, state = empty_setup()
    for text in MISSED_FIELD_1:
        play(game, state, text)
    outcome = play(game, state, "7 (1,4)")
    assert outcome.missed == (1, 4) and state.conquered == {}
    # the next move blocks another of field 1's digits: field 1 is conquered now
    outcome = play(game, state, "8 (1,6) !1")
    assert outcome.conquered == (1,)
    assert state.conquered == {1: "A"}


def test_combat_3_5_bare_claim_credits_every_conquest() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    assert play(game, state, "9 (1,9) !").conquered == (1,)


def test_combat_3_5_named_claim_credits_the_named_field() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    assert play(game, state, "9 (1,9) !1").conquered == (1,)


def test_combat_3_5_claim_of_a_field_not_conquered_is_refused_with_its_open_places() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    with pytest.raises(IllegalMove) as err:
        play(game, state, "9 (1,9) !1,2")
    message = str(err.value)
    assert err.value.rule == "combat 3.5"
    assert "claims field 2, which the move does not conquer" in message
    assert "1 at (2,1)" in message  # where field 2's missing 1 can still go


def test_combat_3_5_bare_claim_without_a_conquest_is_refused() -> None:
    game, state = empty_setup()
    with pytest.raises(IllegalMove, match=r"combat 3\.5: 7 \(5,4\) ! claims a conquest, but the move conquers no field"):
        play(game, state, "7 (5,4) !")


def test_combat_3_5_auto_credits_every_conquest_without_a_mark() -> None:
    game, state = setup(FIELD1_LAST_TILE, conquest="auto")
    assert play(game, state, "9 (1,9)").conquered == (1,)
    assert state.conquered == {1: "A"}


def test_combat_3_5_auto_still_checks_a_claim() -> None:
    game, state = empty_setup(conquest="auto")
    with pytest.raises(IllegalMove, match="conquers no field"):
        play(game, state, "7 (5,4) !")


OUTER_CONQUEST_OPENING = ("7 (8,7)", "8 (4,6)", "6 (8,4)", "2 (5,3)", "9 (1,3)", "1 (3,9)")


def test_combat_3_5_an_unclaimed_conquest_is_told_with_the_claim_that_takes_it() -> None:
    game, state = empty_setup()
    for text in OUTER_CONQUEST_OPENING:
        play(game, state, text)
    assert game.claim_for(state, parse("2 (7,3)")) == Claim(
        parse("2 (7,3) !"), (8,), "conquers field 8", "misses field 8", "combat 3.5")
    assert game.claim_for(state, parse("2 (7,3) !")) is None  # claimed: nothing missed
    assert game.claim_for(state, parse("2 (7,3) !8")) is None
    assert game.claim_for(state, parse("2 (7,3) !4")) is None  # refused (3.5): no claim to suggest
    assert game.claim_for(state, parse("3 (7,3)")) is None  # conquers nothing
    assert game.claim_for(state, parse("2 (8,7)")) is None  # occupied: refused (2.1)
    assert state.conquered == {} and state.grid.places_for(8, 2) == [cell_of(8, 1)]  # asking changed nothing


def test_combat_3_5_a_named_claim_that_leaves_a_field_out_is_told_what_it_misses() -> None:
    game, state = empty_setup()
    for text in TWO_FIELD_OPENING:
        play(game, state, text)
    claim = game.claim_for(state, parse("3 (4,1) !6"))
    assert claim is not None
    assert (str(claim.move), claim.fields, claim.takes, claim.misses) == (
        "3 (4,1) !", (4, 6), "conquers fields 4 and 6", "misses field 4")


def test_combat_3_5_with_conquest_auto_nothing_needs_a_claim() -> None:
    game, state = empty_setup(conquest="auto")
    for text in OUTER_CONQUEST_OPENING:
        play(game, state, text)
    assert game.claim_for(state, parse("2 (7,3)")) is None


@pytest.mark.parametrize("opening", [OUTER_CONQUEST_OPENING, TWO_FIELD_OPENING, MISSED_FIELD_1])
def test_combat_3_5_every_claim_told_takes_exactly_what_the_move_would_miss(opening: tuple[str, ...]) -> None:
    """Against the rules themselves: each legal move played as it is misses exactly the
    fields its claim names, and played as the claim writes it, conquers them."""
    game, state = empty_setup()
    for text in opening:
        play(game, state, text)
    claimed = 0
    for move in game.legal_moves(state):
        claim = game.claim_for(state, move)
        missed = game.apply(game.clone(state), Action(1, "move", game.to_move(state), move))
        if claim is None:
            assert missed.missed == (), move
            continue
        claimed += 1
        assert missed.missed == claim.fields, move
        taken = game.apply(game.clone(state), Action(1, "move", game.to_move(state), claim.move))
        assert taken.conquered == claim.fields and taken.missed == (), move
    assert claimed


# --- 4 Illegal placements and challenges ---------------------------------------------
def test_combat_4_1_as_written_records_an_illegal_placement_silently() -> None:
    game, state = empty_setup(mode="as-written")
    play(game, state, "7 (5,4)")
    outcome = play(game, state, "7 (4,6)")
    assert outcome.illegal is not None and outcome.illegal.rule == "combat 2.2"
    assert state.grid.cells[cell_of(4, 6)] == 7
    assert game.to_move(state) == "A"


def test_combat_4_1_upheld_challenge_returns_the_tile_revokes_conquest_and_gives_two_tiles() -> None:
    game, state = setup(FIELD1_LAST_TILE, mode="as-written")
    outcome = play(game, state, "4 (1,9) !", seq=1)  # a second 4 in field 1, filling it
    assert outcome.conquered == (1,) and outcome.illegal is not None
    supply_before = game.supply(state)[4]
    result = challenge(game, state, "B", seq=2)
    assert result.verdict == "upheld"
    assert state.grid.cells[cell_of(1, 9)] == 0
    assert game.supply(state)[4] == supply_before + 1
    assert state.conquered == {}
    # B is on turn and places two tiles in a row, then A again
    assert game.to_move(state) == "B"
    play(game, state, "9 (1,9) !", seq=3)
    assert state.conquered == {1: "B"}
    assert game.to_move(state) == "B"
    play(game, state, "5 (9,1)", seq=4)
    assert game.to_move(state) == "A"


def test_combat_4_1_referee_uphold_after_the_next_move_revokes_the_conquest() -> None:
    """A referee's uphold (corr referee rule --uphold) applies 4.1's penalty to a move
    the log's challenge window has passed; the later move stays (4.2)."""
    from corr.games.aswritten import Window

    game, state = setup(FIELD1_LAST_TILE, mode="as-written")
    first = play(game, state, "4 (1,9) !", seq=1)  # illegal, conquers field 1
    play(game, state, "5 (9,1)", seq=2)
    with pytest.raises(IllegalMove, match="too late"):
        challenge(game, state, "B", target=1, seq=3)
    window = Window(1, "A", parse("4 (1,9) !"), first.conquered, first.illegal)
    ruled = game.uphold(state, window, "B")
    assert ruled.verdict == "upheld" and "conquest of field 1 revoked" in ruled.events[0]
    assert state.grid.cells[cell_of(1, 9)] == 0 and state.grid.cells[cell_of(9, 1)] == 5
    assert state.conquered == {}
    play(game, state, "6 (5,4)", seq=4)  # A's turn as before
    assert game.to_move(state) == "B" and game.view(state, None).shown["tiles_this_turn"] == 2
    with pytest.raises(IllegalMove, match="no longer on the board"):
        game.uphold(state, window, "B")


def test_combat_4_1_challenge_after_the_next_move_is_too_late() -> None:
    game, state = empty_setup(mode="as-written")
    play(game, state, "7 (5,4)", seq=1)
    play(game, state, "7 (4,6)", seq=2)  # illegal
    play(game, state, "1 (3,1)", seq=3)  # the next move is recorded
    with pytest.raises(IllegalMove, match=r"combat 4\.1: too late to challenge seq 2"):
        challenge(game, state, "B", target=2)
    assert state.grid.cells[cell_of(4, 6)] == 7  # the tile stays for good


def test_combat_4_1_challenge_of_a_legal_move_is_rejected_without_effect() -> None:
    game, state = empty_setup(mode="as-written")
    play(game, state, "7 (5,4)", seq=1)
    board, turn = list(state.grid.cells), game.to_move(state)
    result = challenge(game, state, "B", seq=2)
    assert result.verdict == "rejected"
    assert state.grid.cells == board and game.to_move(state) == turn
    assert state.bonus == {"A": 0, "B": 0}


def test_combat_4_1_strict_mode_has_no_challenges() -> None:
    game, state = empty_setup()
    play(game, state, "7 (5,4)")
    with pytest.raises(IllegalMove, match="only with mode=as-written"):
        challenge(game, state, "B")


def test_combat_4_1_nobody_challenges_their_own_placement() -> None:
    game, state = empty_setup(mode="as-written")
    play(game, state, "7 (5,4)")
    with pytest.raises(IllegalMove, match="own placement"):
        challenge(game, state, "A")


def test_combat_4_2_later_placements_are_judged_against_illegal_tiles_too() -> None:
    game, state = empty_setup(mode="as-written")
    play(game, state, "7 (5,4)", seq=1)
    play(game, state, "7 (4,6)", seq=2)  # illegal, stands
    play(game, state, "1 (3,1)", seq=3)
    # a 7 in column 3 clashes only with the illegal 7 at (4,6): also illegal now
    outcome = play(game, state, "7 (1,3)", seq=4)
    assert outcome.illegal is not None and "(4,6)" in str(outcome.illegal)
    assert challenge(game, state, "A", seq=5).verdict == "upheld"


# --- 5 End and result -------------------------------------------------------------
def near_decision(leader: str, seats: str = "AB", **options: str) -> tuple[Combat, CombatState]:
    """`leader` owns fields 2-5; the last tile of field 1, `9 (1,9) !`, makes it five."""
    game, state = setup(FIELD1_LAST_TILE, seats, **options)
    state.conquered = {f: leader for f in (2, 3, 4, 5)}
    return game, state


def test_combat_5_1_decided_by_the_first_seat_the_round_is_completed() -> None:
    game, state = near_decision("A")
    play(game, state, "9 (1,9) !")
    assert state.decided and not state.over
    assert game.to_move(state) == "B"  # B still moves once
    play(game, state, "5 (9,1)")
    assert state.over and game.to_move(state) is None
    assert game.result(state).winners == ("A",)


def test_combat_5_1_decided_by_the_last_seat_ends_at_once() -> None:
    game, state = near_decision("B")
    play(game, state, "5 (9,1)")  # A
    play(game, state, "9 (1,9) !")  # B decides: 5 fields, A 0 + 4 open
    assert state.over
    assert game.result(state).winners == ("B",)


def test_combat_5_1_four_players_the_seats_after_the_decider_still_move() -> None:
    game, state = near_decision("B", "ABCD")
    play(game, state, "5 (9,1)")  # A
    play(game, state, "9 (1,9) !")  # B decides
    assert not state.over and game.to_move(state) == "C"
    play(game, state, "6 (8,1)")  # C
    assert game.to_move(state) == "D"
    play(game, state, "1 (3,1)")  # D closes the round
    assert state.over


def test_combat_5_1_not_decided_while_another_seat_can_still_catch_up() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    state.conquered = {2: "A", 3: "A", 4: "B"}
    play(game, state, "9 (1,9) !")  # A 4, B 1, 4 open: 1 + 4 > 4
    assert not state.decided and not state.over


def test_combat_5_2_all_nine_fields_conquered_ends_the_game() -> None:
    game, state = setup(FIELD1_LAST_TILE)
    state.conquered = {f: "B" if f % 2 else "A" for f in range(2, 10)}
    play(game, state, "9 (1,9) !")
    assert state.over


def test_combat_5_2_no_placement_left_ends_the_game() -> None:
    # Nobody ever claims, so nothing is conquered and nobody leads: the game runs on
    # until no tile fits anywhere, and then ends as a draw of all seats.
    import random

    game, state = empty_setup()
    rng = random.Random(5)
    seq = 0
    while game.to_move(state) is not None:
        seq += 1
        play(game, state, str(rng.choice(game.legal_moves(state))), seq=seq)
    assert state.conquered == {} and not state.decided
    assert not state.grid.any_candidate()
    assert game.result(state).winners == ("A", "B")


def test_combat_5_4_a_field_filled_without_a_conquest_no_longer_counts_as_unconquered() -> None:
    """5.4: A misses field 1's conquest with its last tile; the full field can never be
    conquered, so B's 0 fields plus the 4 open ones (6-9) cannot pass A's 4: decided."""
    game, state = near_decision("A")
    outcome = play(game, state, "9 (1,9)")  # 3.2 conquers field 1, unclaimed: missed (3.5)
    assert outcome.missed == (1,) and 1 not in state.conquered
    assert game.open_fields(state) == 4
    assert state.decided and not state.over and game.to_move(state) == "B"
    play(game, state, "5 (9,1)")  # B completes the round (5.1)
    assert state.over and game.result(state).winners == ("A",)
    assert game.end_rule(state) == "combat 5.1"


def test_combat_5_4_a_field_with_an_empty_place_still_counts_as_unconquered() -> None:
    game, state = near_decision("A")
    play(game, state, "5 (9,1)")  # A, elsewhere: field 1 keeps its empty place
    assert game.open_fields(state) == 5 and not state.decided


def test_combat_5_4_upheld_challenge_of_the_move_that_ended_the_game_still_decided_ends_it() -> None:
    """5.4: A decided (5.1); B's illegal tile closed the round and ended the game. Upheld,
    the tile goes back, the game is still decided and the round complete: it ends there,
    A's two tiles are not owed, and B gets no replacement turn."""
    game, state = near_decision("A", mode="as-written")
    play(game, state, "9 (1,9) !", seq=1)  # A decides: 5 fields, B 0 + 4 open
    assert state.decided and game.to_move(state) == "B"
    outcome = play(game, state, "5 (5,4)", seq=2)  # B: a second 5 in field 5, illegal
    assert outcome.illegal is not None and state.over
    result = challenge(game, state, "A", seq=3)
    assert result.verdict == "upheld" and "combat 5.4" in result.events[0]
    assert state.grid.cells[cell_of(5, 4)] == 0
    assert state.over and game.to_move(state) is None
    assert state.bonus == {"A": 0, "B": 0}  # no tiles owed
    assert game.result(state).winners == ("A",) and game.end_rule(state) == "combat 5.1"


def test_combat_5_4_upheld_challenge_of_the_move_that_ended_the_game_no_longer_decided_plays_on() -> None:
    """5.4: B's illegal last tile of field 1, unclaimed, filled it and so decided the game
    at the round's end; taken back, field 1 is open again, nothing is decided, and play
    goes on from the challenger A's two tiles, then B in turn."""
    game, state = near_decision("B", mode="as-written")
    play(game, state, "5 (9,1)", seq=1)  # A
    outcome = play(game, state, "4 (1,9)", seq=2)  # B: a second 4 in field 1, filling it
    assert outcome.illegal is not None and outcome.missed == (1,)
    assert state.decided and state.over  # B 4, A 0 + 4 open (6-9): decided by the last seat
    result = challenge(game, state, "A", seq=3)
    assert result.verdict == "upheld" and "A places two tiles on their next turn" in result.events[0]
    assert not state.decided and not state.over and game.open_fields(state) == 5
    assert game.to_move(state) == "A" and game.view(state, None).shown["tiles_this_turn"] == 2
    play(game, state, "6 (8,1)", seq=4)
    play(game, state, "1 (3,1)", seq=5)
    assert game.to_move(state) == "B" and not state.over


def test_combat_5_4_upheld_challenge_of_the_deciding_move_that_ended_the_game() -> None:
    """5.4: B's illegal tile conquered field 1 and so decided the game as the round's
    last turn (it ended at once); upheld, the conquest is revoked, the game is no longer
    decided, and the challenger A places two tiles."""
    game, state = near_decision("B", mode="as-written")
    play(game, state, "5 (9,1)", seq=1)  # A
    play(game, state, "4 (1,9) !", seq=2)  # B: illegal, conquers field 1: 5 fields
    assert state.over and state.conquered[1] == "B"
    result = challenge(game, state, "A", seq=3)
    assert result.verdict == "upheld" and "conquest of field 1 revoked" in result.events[0]
    assert not state.over and not state.decided and 1 not in state.conquered
    assert game.to_move(state) == "A" and game.view(state, None).shown["tiles_this_turn"] == 2


def test_combat_5_4_upheld_challenge_after_the_decision_round_incomplete_plays_on() -> None:
    """5.4: A decided; B's illegal tile came after the decision, mid-round. Upheld, the
    round is not complete: play goes on from the challenger C's two tiles (B's turn is
    spent), and the game ends when the round is."""
    game, state = near_decision("A", "ABC", mode="as-written")
    play(game, state, "9 (1,9) !", seq=1)  # A decides
    outcome = play(game, state, "5 (5,4)", seq=2)  # B, illegal
    assert outcome.illegal is not None and game.to_move(state) == "C"
    result = challenge(game, state, "C", seq=3)
    assert result.verdict == "upheld" and "C places two tiles" in result.events[0]
    assert state.decided and not state.over
    assert game.to_move(state) == "C" and game.view(state, None).shown["tiles_this_turn"] == 2
    play(game, state, "6 (8,1)", seq=4)
    assert game.to_move(state) == "C" and not state.over
    play(game, state, "1 (3,1)", seq=5)  # C's second tile completes the round
    assert state.over and game.result(state).winners == ("A",)


def test_combat_5_4_referee_uphold_after_the_game_ended_still_decided_ends_it() -> None:
    """5.4 through a referee's ruling (the window had passed): the game stays over."""
    from corr.games.aswritten import Window

    game, state = near_decision("A", "ABC", mode="as-written")
    play(game, state, "9 (1,9) !", seq=1)  # A decides
    outcome = play(game, state, "5 (5,4)", seq=2)  # B, illegal, stands
    play(game, state, "6 (8,1)", seq=3)  # C completes the round
    assert state.over
    ruled = game.uphold(state, Window(2, "B", parse("5 (5,4)"), (), outcome.illegal), "C")
    assert ruled.verdict == "upheld" and "combat 5.4" in ruled.events[0]
    assert state.over and state.bonus == {"A": 0, "B": 0, "C": 0}


def test_combat_5_3_most_fields_win_and_equal_counts_share_the_win() -> None:
    game, state = empty_setup("ABC")
    state.over = True
    state.conquered = {1: "A", 2: "A", 3: "B", 4: "B", 5: "C"}
    result = game.result(state)
    assert result.winners == ("A", "B") and result.scores == {"A": 2, "B": 2, "C": 1}


def test_combat_4_1_a_move_challenged_and_decided_is_not_challenged_again(corr, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A rejected challenge decides the question: a second challenge of the same move is
    refused, and nothing is appended (a log cannot be grown by asking again)."""
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "A", "-p", "B", "-p", "C", "-o", "mode=as-written", "-f", "none").code == 0
    assert corr("move", path, "2 (1,1)", "-f", "none").code == 0
    assert corr("challenge", path, "--by", "B", "-f", "none").code == 0
    before = path.read_bytes()
    for seat in ("B", "C"):
        again = corr("challenge", path, "--by", seat, "-f", "none")
        assert again.code == 1 and "combat 4.1" in again.err and "challenged already" in again.err
    assert path.read_bytes() == before
