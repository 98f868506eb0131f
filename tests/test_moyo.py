"""Sudoku Moyo, rule by rule (docs/rules/moyo.md); each test names the rule it pins."""

from __future__ import annotations

import json

import pytest

from corr import engine, randomplay
from corr.errors import IllegalMove, UsageError
from corr.games import game_class
from corr.games.base import Action
from corr.games.grid import Grid
from corr.games.moyo.rules import AREA_CELLS, Moyo, MoyoState, match_winners, revenge_options
from corr.geometry import FIELD_CELLS, cell_at, cell_of
from corr.log import store
from corr.notation import Placement, ShimaPick, parse
from corr.puzzles.appendix import APPENDIX
from corr.render import render_position

#: A solved grid: a position built from it with a few holes has closed its Azumaya.
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def setup(**options: str) -> tuple[Moyo, MoyoState]:
    options.setdefault("puzzle", "1")
    game = Moyo(Moyo.resolve_options(options), ["A", "B"])
    return game, game.initial()


def setup_board(cells: str, **options: str) -> tuple[Moyo, MoyoState]:
    """A game (puzzle 1's options) moved to a position no puzzle may start from: one
    without a solution (6), as play can reach (3.3)."""
    game, state = setup(**options)
    state.grid = Grid([int(ch) if ch.isdigit() else 0 for ch in cells])
    game._settle(state)
    return game, state


def play(game: Moyo, state: MoyoState, text: str, by: str | None = None):
    return game.apply(state, Action(1, "move", by or game.to_move(state), parse(text)))


def board(cells: dict[int, int], base: str = "." * 81) -> str:
    """A puzzle string: `base` with some cells set (0 empties a cell)."""
    chars = list(base)
    for c, d in cells.items():
        chars[c] = str(d) if d else "."
    return "".join(chars)


def rc(r: int, c: int) -> int:
    return cell_at(r, c)


def holes(*cells: int) -> str:
    """SOLVED with the given cells emptied."""
    return board({c: 0 for c in cells}, SOLVED)


def finish_opening(game: Moyo, state: MoyoState) -> None:
    while game.phase(state) == "opening":
        play(game, state, str(game.legal_moves(state)[0]))


def random_game(options: dict[str, str], seed: int) -> engine.Position:
    return randomplay.play("moyo", ["Anna", "Ben"], options, seed=seed)


# --- 1 Board, areas and stones ------------------------------------------------------
def test_moyo_1_1_field_5_is_the_neutral_azumaya_and_each_player_owns_four_fields() -> None:
    game, state = setup()
    areas = game.view(state, None).shown["areas"]
    assert areas["5"] is None
    assert list(areas.values()).count("A") == 4
    assert list(areas.values()).count("B") == 4


def test_moyo_1_2_standard_division_light_2_6_7_9_dark_1_3_4_8() -> None:
    game, state = setup()
    assert game.opts["division"] == "DLDDNLLDL"
    assert game.shima(state, "A") == [2, 6, 7, 9]  # light is A by default
    assert game.shima(state, "B") == [1, 3, 4, 8]
    # a 180-degree turn maps field f to 10 - f: light's fields onto dark's
    assert sorted(10 - f for f in game.shima(state, "A")) == game.shima(state, "B")


def test_moyo_1_2_light_option_gives_the_light_fields_to_that_seat() -> None:
    game, state = setup(light="B")
    assert game.shima(state, "B") == [2, 6, 7, 9]
    assert game.view(state, None).shown["light"] == "B"


def test_moyo_1_3_division_names_and_strings() -> None:
    game, state = setup(division="corners")
    assert game.opts["division"] == "LDLDNDLDL"
    assert game.shima(state, "A") == [1, 3, 7, 9]
    game, state = setup(division="lldlnddld")
    assert game.opts["division"] == "LLDLNDDLD"
    assert game.shima(state, "A") == [1, 2, 4, 8]


@pytest.mark.parametrize("bad", ["LLLLNDDDD ", "LLLLLDDDN", "LLLNNDDDD", "LLLDNDDDD", "LLLXNDDDD", "LLLLDNDDD", "huge"])
def test_moyo_1_3_a_division_with_the_wrong_letters_is_refused(bad: str) -> None:
    with pytest.raises(UsageError, match="division"):
        setup(division=bad)


def test_moyo_1_3_units_rows_areas_are_rows_and_row_5_is_the_azumaya() -> None:
    game, state = setup(units="rows")
    assert game.area_of(rc(5, 1)) == 5 and game.area_of(rc(2, 9)) == 2
    assert game.phase(state) == "opening"
    assert {game.area_of(m.cell) for m in game.legal_moves(state)} == {5}
    with pytest.raises(IllegalMove, match="moyo 3.1"):
        play(game, state, "2 r4c5")  # field 5, but row 4: a Shima in this game


def test_moyo_1_3_units_columns_areas_are_columns_and_column_5_is_the_azumaya() -> None:
    game, state = setup(units="columns")
    assert game.area_of(rc(1, 5)) == 5 and game.area_of(rc(9, 3)) == 3
    assert {m.cell % 9 for m in game.legal_moves(state)} == {4}
    rep = random_game({"puzzle": "2", "units": "columns"}, 4)
    assert rep.game.result(rep.state).over


def test_moyo_1_4_an_areas_stones_are_the_digits_it_lacks() -> None:
    game, state = setup()
    # puzzle 1, field 5 holds 1 and 6: its stones are the seven others
    assert game.view(state, None).shown["stones_left"]["5"] == [2, 3, 4, 5, 7, 8, 9]
    play(game, state, "2 (5,1)")
    assert game.view(state, None).shown["stones_left"]["5"] == [3, 4, 5, 7, 8, 9]


def test_moyo_1_5_an_empty_place_no_digit_fits_is_a_moyo_stone() -> None:
    # r1c1: row 1 holds 1-6, column 1 holds 7, 8 and 9: no digit fits there
    cells = {rc(1, 4): 1, rc(1, 5): 2, rc(1, 6): 3, rc(1, 7): 4, rc(1, 8): 5, rc(1, 9): 6,
             rc(4, 1): 7, rc(5, 1): 8, rc(7, 1): 9}
    game, state = setup_board(board(cells))
    assert "(1,1)" in game.view(state, None).shown["moyo_stones"]
    assert game.view(state, None).shown["moyo_stones"] == ["(1,1)"]


def test_moyo_1_5_a_stone_with_no_place_left_in_its_area_is_turned() -> None:
    # field 1 lacks 1, but rows 1-2 and columns 1-2 hold a 1 and r3c3 is taken
    cells = {rc(1, 4): 1, rc(2, 7): 1, rc(4, 1): 1, rc(7, 2): 1, rc(3, 3): 2}
    game, state = setup_board(board(cells))
    assert game.view(state, None).shown["turned"]["1"] == [1]
    assert 1 in game.view(state, None).shown["stones_left"]["1"]  # still the area's stone


def test_moyo_1_5_moyo_and_turned_stones_are_shown_in_every_rendering() -> None:
    rep = random_game({"puzzle": "1"}, 22)
    data = json.loads(render_position(rep, "json"))
    assert data["moyo_stones"] and data["turned"]
    text = render_position(rep, "text")
    board_lines = [line for line in text.splitlines() if line.startswith("|")]
    assert len(board_lines) == 9
    assert sum(line.count("*") for line in board_lines) == len(data["moyo_stones"])
    area, digits = next(iter(data["turned"].items()))
    assert f"field {area}" in text and "turned " + " ".join(map(str, digits)) in text
    assert all(len(line) <= 80 for line in text.splitlines())
    html = render_position(rep, "html")
    assert html.count("&#9679;") == len(data["moyo_stones"]) and "Turned" in html


def test_moyo_1_5_moyo_stones_are_not_limited_to_15() -> None:
    rep = random_game({"puzzle": "1", "variant": "horikomi"}, 4)
    assert rep.game.result(rep.state).over
    ends = [random_game({"puzzle": "3"}, s) for s in range(1, 40)]
    many = [rep for rep in ends if len(rep.game.moyo_stones(rep.state)) > 15]
    assert many, "some random game ends with more than 15 Moyo stones, and nothing refuses it"


# --- 2 Setup --------------------------------------------------------------------------
def test_moyo_2_1_puzzle_is_required_appendix_number_or_string() -> None:
    with pytest.raises(UsageError, match="needs a puzzle"):
        Moyo.resolve_options({})
    for n in range(1, 7):
        assert Moyo.resolve_options({"puzzle": str(n)})["puzzle"] == APPENDIX[n]
    text = APPENDIX[4].replace(".", "0")
    assert Moyo.resolve_options({"puzzle": text})["puzzle"] == APPENDIX[4]
    with pytest.raises(UsageError):
        Moyo.resolve_options({"puzzle": "7"})
    with pytest.raises(UsageError):
        Moyo.resolve_options({"puzzle": "12345"})


def test_moyo_2_1_options_resolved_again_are_the_same_and_each_callers_own() -> None:
    first = Moyo.resolve_options({"puzzle": "4", "division": "corners"})
    first["puzzle"] = "changed by its caller"
    again = Moyo.resolve_options({"puzzle": "4", "division": "corners"})
    assert again["puzzle"] == APPENDIX[4] and again is not first
    for _ in range(2):  # a refusal is never remembered as a resolution
        with pytest.raises(UsageError, match="handicap needs the weaker seat"):
            Moyo.resolve_options({"puzzle": "4", "handicap": "2"})


def test_moyo_6_the_appendix_puzzles_taken_as_solvable_have_a_solution() -> None:
    from corr.games.moyo import rules as moyo
    from corr.puzzles import solver
    from corr.puzzles.appendix import APPENDIX, parse_puzzle

    assert set(APPENDIX.values()) <= moyo._SOLVABLE
    for text in APPENDIX.values():
        assert solver.solve(parse_puzzle(text)) is not None


def test_moyo_6_a_puzzle_is_solved_once_not_on_every_load(tmp_path, monkeypatch) -> None:
    from corr.log import store
    from corr.puzzles import solver
    from corr.puzzles.appendix import APPENDIX

    # appendix puzzle 1 with one given taken away: a puzzle this process has not seen
    text = "." + APPENDIX[1][1:] if APPENDIX[1][0] != "." else APPENDIX[1][:3] + "." + APPENDIX[1][4:]
    solved: list[int] = []
    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda cells, *a, **k: solved.append(1) or real(cells, *a, **k))
    rep = randomplay.play("moyo", ["Anna", "Ben"], {"puzzle": text}, seed=3, max_records=6)
    path = tmp_path / "m.corr"
    path.write_bytes(store.text(rep.log))
    for _ in range(3):
        assert engine.load(path).state is not None
    assert len(solved) == 1


def test_moyo_6_a_puzzle_without_a_solution_is_refused() -> None:
    dead = board({rc(1, 4): 1, rc(1, 5): 2, rc(1, 6): 3, rc(1, 7): 4, rc(1, 8): 5, rc(1, 9): 6,
                  rc(4, 1): 7, rc(5, 1): 8, rc(7, 1): 9})  # r1c1 takes no digit
    with pytest.raises(UsageError, match="no solution"):
        Moyo.resolve_options({"puzzle": dead})
    with pytest.raises(UsageError):
        Moyo.resolve_options({"puzzle": board({0: 5, 1: 5})})  # givens that clash
    assert Moyo.resolve_options({"puzzle": "3"})["puzzle"] == APPENDIX[3]  # several solutions: fine


def test_moyo_2_1_the_header_stores_canonical_options() -> None:
    header = engine.make_header("moyo", ["Anna", "Ben"], {"puzzle": "2", "division": "corners"})
    assert header.options["puzzle"] == APPENDIX[2]
    assert header.options["division"] == "LDLDNDLDL"
    assert header.options["handicap"] == "0"
    # and replays: make_game accepts its own canonical header
    assert engine.make_game(header).opts == dict(header.options)


def test_moyo_2_2_seats_say_who_is_light_and_who_moves_first() -> None:
    game, state = setup(first="B")
    assert game.to_move(state) == "B"
    with pytest.raises(UsageError):
        setup(first="C")
    game, state = setup(light="B", first="A")
    assert game.to_move(state) == "A" and game.view(state, None).shown["dark"] == "A"


def test_moyo_2_3_draft_order_a1_b2_a2_b2_a1() -> None:
    game, state = setup(division="draft")
    assert game.phase(state) == "draft"
    order = []
    for f in (1, 2, 3, 4, 6, 7, 8, 9):
        order.append(game.to_move(state))
        assert ShimaPick(f) in game.legal_moves(state)
        play(game, state, f"shima {f}")
    assert "".join(order) == "ABBAABBA"
    assert game.shima(state, "A") == [1, 4, 6, 9] and game.shima(state, "B") == [2, 3, 7, 8]
    assert game.phase(state) == "opening" and game.to_move(state) == "A"


def test_moyo_2_3_draft_refuses_field_5_a_taken_field_and_placements() -> None:
    game, state = setup(division="draft")
    assert ShimaPick(5) not in game.legal_moves(state)
    with pytest.raises(IllegalMove, match="moyo 2.3"):
        play(game, state, "shima 5")
    with pytest.raises(IllegalMove, match="moyo 2.3"):
        play(game, state, "2 (5,1)")
    play(game, state, "shima 1")
    with pytest.raises(IllegalMove, match="moyo 2.3.*already A's"):
        play(game, state, "shima 1")


def test_moyo_2_3_shima_picks_are_refused_without_a_draft() -> None:
    game, state = setup()
    with pytest.raises(IllegalMove, match="moyo 2.3"):
        play(game, state, "shima 1")


def test_moyo_2_3_draft_game_plays_to_the_end_through_the_engine() -> None:
    rep = random_game({"puzzle": "6", "division": "draft"}, 3)
    moves = [r.move for r in rep.log.records]
    assert all(m.startswith("shima ") for m in moves[:8]) and rep.game.result(rep.state).over


def test_moyo_2_4_handicap_stones_go_into_the_azumaya_in_a_row() -> None:
    game, state = setup(handicap="2", handicap_by="B")
    assert game.phase(state) == "handicap" and game.to_move(state) == "B"
    with pytest.raises(IllegalMove, match="moyo 2.4"):
        play(game, state, "4 (1,1)")
    play(game, state, "2 (5,1)")
    assert game.to_move(state) == "B"
    play(game, state, "3 (5,2)")
    assert game.phase(state) == "opening" and game.to_move(state) == "A"


def test_moyo_2_4_handicap_needs_the_weaker_seat_and_room_in_the_azumaya() -> None:
    with pytest.raises(UsageError, match="handicap_by"):
        setup(handicap="1")
    with pytest.raises(UsageError, match="handicap"):
        setup(handicap="8", handicap_by="A")  # puzzle 1's Azumaya has 7 empty places
    with pytest.raises(UsageError, match="handicap"):
        setup(handicap="x", handicap_by="A")
    assert setup(handicap="07", handicap_by="A")[0].opts["handicap"] == "7"


def test_moyo_2_4_handicap_ends_early_when_the_azumaya_has_no_legal_place() -> None:
    rep = random_game({"puzzle": "1", "handicap": "7", "handicap_by": "A"}, 2)
    assert rep.game.result(rep.state).over
    assert all(r.by == "A" for r in rep.log.records[:5])


def test_moyo_2_4_a_weaker_seat_that_also_moves_first_places_n_plus_1_stones_in_a_row() -> None:
    """README ruling 2.4: the handicap stones come at the start, before the first turn,
    and are no turn; the first turn is the `first` seat's (2.2) whoever placed them."""
    game, state = setup(handicap="2", handicap_by="A", first="A")
    for stone in ("2 (5,1)", "3 (5,2)", "4 (5,4)"):
        assert game.to_move(state) == "A"
        play(game, state, stone)
    assert game.to_move(state) == "B"
    assert revenge_options(game.opts)["handicap_by"] == "A"  # the weaker player stays the weaker


# --- 3 Play ---------------------------------------------------------------------------
def test_moyo_3_1_opening_stones_go_into_the_azumaya() -> None:
    game, state = setup()
    assert game.phase(state) == "opening"
    assert {game.area_of(m.cell) for m in game.legal_moves(state)} == {5}
    with pytest.raises(IllegalMove, match="moyo 3.1"):
        play(game, state, "4 (2,2)")  # a Shima move during the opening, even in A's own Shima
    play(game, state, "2 (5,1)", by="A")
    play(game, state, "3 (5,2)", by="B")  # whoever is on turn places the neutral stones
    assert game.to_move(state) == "A"


def test_moyo_3_1_the_opening_lasts_while_any_stone_fits_the_azumaya() -> None:
    game, state = setup()
    finish_opening(game, state)
    assert game.placeable(state, 5) == 0
    assert game.phase(state) == "shima"
    assert all(game.area_of(m.cell) in game.shima(state, game.to_move(state)) for m in game.legal_moves(state))


def test_moyo_3_2_a_stone_never_goes_into_the_opponents_shima() -> None:
    game, state = setup(puzzle=holes(cell_of(2, 1), cell_of(1, 1)))
    assert game.phase(state) == "shima" and game.to_move(state) == "A"
    d = int(SOLVED[cell_of(1, 1)])
    with pytest.raises(IllegalMove, match="moyo 3.2.*B's Shima"):
        play(game, state, f"{d} (1,1)")


def test_moyo_3_2_after_the_opening_each_player_places_only_in_their_own_shima() -> None:
    game, state = setup(puzzle=holes(cell_of(5, 1), cell_of(2, 1), cell_of(2, 2), cell_of(1, 1)))
    assert game.phase(state) == "opening"  # (5,1) still takes its digit
    play(game, state, f"{SOLVED[cell_of(5, 1)]} (5,1)", by="A")
    assert game.phase(state) == "shima" and game.to_move(state) == "B"
    assert [m.cell for m in game.legal_moves(state)] == [cell_of(1, 1)]  # B's field 1 only
    with pytest.raises(IllegalMove, match="moyo 3.2"):
        play(game, state, f"{SOLVED[cell_of(2, 1)]} (2,1)", by="B")


def test_moyo_3_2_placing_into_the_closed_azumaya_cites_3_2() -> None:
    # (5,1) empty, but its only digit is gone from field 5 by the puzzle string? Build a
    # dead Azumaya place: the row and column of (5,1) hold every digit but field 5's own
    cells = {rc(4, 1): 1, rc(4, 2): 2, rc(4, 3): 3, rc(4, 7): 4, rc(4, 8): 5, rc(4, 9): 6,
             rc(1, 4): 7, rc(2, 4): 8, rc(9, 4): 9}
    game, state = setup_board(board(cells))
    # the rest of the Azumaya is open: close the opening by playing it out
    finish_opening(game, state)
    assert game.phase(state) == "shima"
    assert "(5,1)" in game.view(state, None).shown["moyo_stones"]
    with pytest.raises(IllegalMove, match="moyo 3.2"):
        play(game, state, "9 (5,1)")


def test_moyo_3_3_the_digit_must_be_one_the_area_still_lacks() -> None:
    game, state = setup()
    with pytest.raises(IllegalMove, match="moyo 3.3.*no longer has a 1"):
        play(game, state, "1 (5,1)")  # field 5 of puzzle 1 holds its 1 at (5,3)


def test_moyo_3_3_the_place_must_be_empty() -> None:
    game, state = setup()
    with pytest.raises(IllegalMove, match="moyo 3.3.*not empty"):
        play(game, state, "2 (5,3)")


def test_moyo_3_3_the_sudoku_rule_holds_in_row_column_and_field() -> None:
    game, state = setup()
    with pytest.raises(IllegalMove, match="moyo 3.3.*Sudoku rule.*row 4"):
        play(game, state, "7 (5,1)")  # row 4 holds a 7 at (6,1)
    with pytest.raises(IllegalMove, match="moyo 3.3.*Sudoku rule.*column"):
        play(game, state, "8 (5,1)")  # column 4 holds an 8 at (2,1)


def test_moyo_3_3_claim_marks_are_refused() -> None:
    game, state = setup()
    with pytest.raises(IllegalMove, match="moyo 3.3"):
        play(game, state, "2 (5,1) !")


def test_moyo_3_3_a_move_may_make_the_puzzle_unsolvable() -> None:
    # r4c1 can only take a 9 (row 4 holds 1-3, column 1 holds 4-8): a 9 in the Azumaya's
    # row 4 leaves it no digit at all, so no solution exists; the move stands
    cells = {rc(4, 7): 1, rc(4, 8): 2, rc(4, 9): 3, rc(1, 1): 4, rc(2, 1): 5, rc(3, 1): 6,
             rc(7, 1): 7, rc(8, 1): 8}
    game, state = setup(puzzle=board(cells))
    assert game.view(state, None).shown["moyo_stones"] == []
    play(game, state, "9 (5,2)")
    assert "(4,1)" in game.view(state, None).shown["moyo_stones"]
    assert not state.over


# --- 4 End and scoring ----------------------------------------------------------------
def test_moyo_4_1_the_player_on_turn_who_cannot_place_loses() -> None:
    # only (2,1), in light A's Shima, is empty: A places the last stone, B cannot place
    game, state = setup(puzzle=holes(cell_of(2, 1)))
    assert game.to_move(state) == "A" and not state.over
    play(game, state, f"{SOLVED[cell_of(2, 1)]} (2,1)")
    assert state.over and game.result(state).winners == ("A",)
    assert game.to_move(state) is None


def test_moyo_4_1_can_end_before_any_move() -> None:
    # only (1,1), in dark B's Shima, is empty and A is on turn: A cannot place, B wins
    game, state = setup(puzzle=holes(cell_of(1, 1)))
    assert state.over and game.result(state).winners == ("B",)


def test_moyo_4_1_random_games_end_when_the_seat_on_turn_cannot_place() -> None:
    for seed in range(1, 6):
        rep = random_game({"puzzle": "1"}, seed)
        game, state = rep.game, rep.state
        assert state.over
        loser = state.turn
        assert not any(game.placeable(state, a) for a in game.shima(state, loser))
        assert game.result(state).winners == ("B" if loser == "A" else "A",)
        assert rep.log.records[-1].by != loser  # the winner placed the last stone


def test_moyo_4_2_victory_points_count_from_before_the_winners_last_stone() -> None:
    # (2,1) and (2,2) empty in A's Shima, nothing in B's: A places one, B cannot place.
    # Counted from the position right after B's last stone (before A's own last one),
    # A alone could place both: 2 points (revised ruling; the old count gave 1)
    game, state = setup(puzzle=holes(cell_of(2, 1), cell_of(2, 2)))
    play(game, state, f"{SOLVED[cell_of(2, 1)]} (2,1)")
    assert state.over
    assert game.result(state) == (True, ("A",), {"A": 2, "B": 0})
    assert game.view(state, None).shown["victory_points"] == {"A": 2, "B": 0}
    assert game.view(state, None).shown["end"] == "B cannot place a stone (4.1): A wins with 2 victory points (4.2)"


def test_moyo_4_2_a_winner_always_has_at_least_one_point() -> None:
    # one hole, in A's Shima: A places it and wins with exactly the stone it placed
    game, state = setup(puzzle=holes(cell_of(2, 1)))
    play(game, state, f"{SOLVED[cell_of(2, 1)]} (2,1)")
    assert game.result(state).scores == {"A": 1, "B": 0}
    assert game.view(state, None).shown["end"].endswith("A wins with 1 victory point (4.2)")
    for seed in range(1, 13):
        rep = random_game({"puzzle": str(seed % 6 + 1)}, seed)
        (winner,) = rep.game.result(rep.state).winners
        assert rep.game.result(rep.state).scores[winner] >= 1


def test_moyo_4_2_victory_points_are_stones_placed_one_after_another_not_area_digit_pairs() -> None:
    # A position of a random game on puzzle 1: A's field 6 has one place that takes a 2
    # or a 3, (6,2), and two where nothing fits; field 9 one place for its 4. The
    # withdrawn ruling counted (area, digit) pairs: (6, 2), (6, 3), (9, 4) = 3; but A
    # alone places only two stones, one on (6,2) and the 4
    game, state = setup_board(
        "723845.19168.3925..592174635.69817.43914725.627465318..173648924821..3759357286.1"
    )
    assert [d for d in range(1, 10) if state.grid.cand[cell_of(6, 2)] >> d & 1] == [2, 3]
    pairs = sum(bin(game.placeable(state, a)).count("1") for a in game.shima(state, "A"))
    assert pairs == 3
    assert game.alone(state, "A") == 2 == brute_alone(game, state, "A")


def brute_alone(game: Moyo, state: MoyoState, seat: str, board: bytes | None = None) -> int:
    """4.2 by its words: the longest sequence of stones `seat` could place alone under the
    rules - into the Azumaya while a stone fits there (3.1), then into its own Shima
    (3.2) - tried in every order, memoised by the board."""
    azumaya = AREA_CELLS[game.units][5]
    shima = [c for a in game.shima(state, seat) for c in AREA_CELLS[game.units][a]]
    seen: dict[bytes, int] = {}

    def longest(cells: list[int]) -> int:
        key = bytes(cells)
        if key not in seen:
            grid = Grid(cells)
            targets = azumaya if any(grid.cand[c] for c in azumaya) else shima
            seen[key] = max(
                (1 + longest(cells[:c] + [d] + cells[c + 1:]) for c in targets for d in range(1, 10)
                 if grid.cand[c] >> d & 1),
                default=0,
            )
        return seen[key]

    return longest(list(board) if board is not None else list(state.grid.cells))


@pytest.mark.parametrize("options", [{}, {"division": "corners"}, {"units": "rows"}, {"units": "columns"}])
def test_moyo_4_2_victory_points_are_the_longest_run_the_winner_could_place_alone(options: dict[str, str]) -> None:
    """The search against 4.2's own words on the end of random games on all six appendix
    puzzles: from the position right after the loser's last stone."""
    for puzzle in range(1, 7):
        rep = random_game({"puzzle": str(puzzle), **options}, puzzle)
        game, state = rep.game, rep.state
        (winner,) = game.result(state).winners
        start = state.run_start if state.last_by == winner else None
        assert game.result(state).scores[winner] == brute_alone(game, state, winner, start)


def test_moyo_4_2_the_search_is_exact_in_the_opening_too() -> None:
    """While the Azumaya is open the lone player fills it first, in whichever way leaves
    the most for its Shima: the search against the rule's words on boards with an open
    Azumaya (random stones on a puzzle, a few places left)."""
    import random

    rng = random.Random(5)
    checked = 0
    while checked < 40:
        game, state = setup(puzzle=str(rng.randint(1, 6)))
        grid = state.grid
        keep = set(rng.sample(list(AREA_CELLS["fields"][5]), 4)) | set(rng.sample(FIELD_CELLS[2] + FIELD_CELLS[6], 4))
        for c in rng.sample(range(81), 81):
            digits = [d for d in range(1, 10) if grid.cand[c] >> d & 1]
            if c not in keep and digits and rng.random() < 0.9:
                grid.place(c, rng.choice(digits))
        if game.phase(state) != "opening" or sum(1 for c in range(81) if grid.cand[c]) > 40:
            continue
        assert game.alone(state, "A") == brute_alone(game, state, "A")
        checked += 1


def test_moyo_4_2_the_search_is_fast_on_every_appendix_puzzle() -> None:
    """The hardest count: a forfeit before the first stone, the winner alone on the whole
    puzzle, for each seat, division and unit kind (README: measured in the Sudoku Moyo
    section). Generous: the suite runs on slow machines too."""
    import time

    began = time.perf_counter()
    for puzzle in range(1, 7):
        for options in ({}, {"division": "corners"}, {"units": "rows"}, {"units": "columns"}):
            game, state = setup(puzzle=str(puzzle), **options)
            for seat in "AB":
                empty = sum(1 for a in [5] + game.shima(state, seat) for c in AREA_CELLS[game.units][a]
                            if not state.grid.cells[c])
                assert game.alone(state, seat) == empty  # the puzzle is solvable: all of them
    assert time.perf_counter() - began < 10


def test_moyo_4_3_revenge_swaps_colours_and_first_move_on_the_same_puzzle() -> None:
    opts = Moyo.resolve_options({"puzzle": "3"})
    again = revenge_options(opts)
    assert again["puzzle"] == opts["puzzle"] and again["light"] == "B" and again["first"] == "B"
    assert Moyo.resolve_options(again) == again
    assert revenge_options(again) == opts
    assert "first_pick" not in again  # no draft, no first pick


def test_moyo_4_3_a_revenge_after_a_draft_swaps_the_first_pick_too() -> None:
    opts = Moyo.resolve_options({"puzzle": "3", "division": "draft"})
    assert "first_pick" not in opts  # A, the default, stays out of the header
    again = revenge_options(opts)
    assert again["first_pick"] == "B" and again["first"] == "B" and again["light"] == "B"
    assert Moyo.resolve_options(again) == again and revenge_options(again) == opts
    game = Moyo(again, ["A", "B"])
    state = game.initial()
    order = []
    for f in (1, 2, 3, 4, 6, 7, 8, 9):
        order.append(game.to_move(state))
        play(game, state, f"shima {f}")
    assert "".join(order) == "BAABBAAB"  # 2.3 with the roles swapped
    assert game.to_move(state) == "B"  # and B moves first


def test_moyo_4_3_first_pick_needs_a_draft() -> None:
    with pytest.raises(UsageError, match="first_pick.*draft"):
        Moyo.resolve_options({"puzzle": "1", "first_pick": "B"})
    assert "first_pick" not in Moyo.resolve_options({"puzzle": "1", "first_pick": "A"})


def test_moyo_4_3_a_match_of_two_games_is_won_on_total_victory_points() -> None:
    won = match_winners([{"victory_points": {"A": 3, "B": 0}}, {"victory_points": {"A": 0, "B": 2}}])
    assert won["winners"] == ["A"] and won["total"] == {"A": 3, "B": 2}
    tied = match_winners([{"victory_points": {"A": 1, "B": 0}}, {"victory_points": {"A": 0, "B": 1}}])
    assert tied["winners"] == ["A", "B"] and "equal" in tied["decided_by"]


def _horikomi(moyo: dict[str, int], with9: dict[str, int]) -> dict:
    return {"moyo_stones": moyo, "shima_with": {s: [n, 0, 0, 0, 0, 0, 0, 0, 0] for s, n in with9.items()}}


def test_moyo_4_3_a_horikomi_match_is_won_on_fewest_moyo_stones_over_both_games() -> None:
    won = match_winners([_horikomi({"A": 4, "B": 3}, {"A": 0, "B": 0}), _horikomi({"A": 2, "B": 4}, {"A": 0, "B": 0})])
    assert won["winners"] == ["A"] and won["total"] == {"A": 6, "B": 7} and won["unit"] == "Moyo stones"


def test_moyo_4_3_a_horikomi_match_tie_goes_to_the_5_3_tie_breaks_over_both_games_then_a_draw() -> None:
    # 6 Moyo stones each; B has more completely filled Shima over the two games
    won = match_winners([_horikomi({"A": 3, "B": 3}, {"A": 2, "B": 1}), _horikomi({"A": 3, "B": 3}, {"A": 0, "B": 2})])
    assert won["winners"] == ["B"] and "completely filled Shima" in won["decided_by"]
    eight = {"moyo_stones": {"A": 1, "B": 1}, "shima_with": {"A": [0, 2, 0, 0, 0, 0, 0, 0, 0],
                                                            "B": [0, 1, 0, 0, 0, 0, 0, 0, 0]}}
    won = match_winners([eight, _horikomi({"A": 1, "B": 1}, {"A": 0, "B": 0})])
    assert won["winners"] == ["A"] and "Shima with 8 stones" in won["decided_by"]
    draw = match_winners([_horikomi({"A": 3, "B": 3}, {"A": 1, "B": 1})] * 2)
    assert draw["winners"] == ["A", "B"] and "every tie-break" in draw["decided_by"]


def test_moyo_4_3_horikomi_games_give_a_match_their_moyo_stones_and_tie_break_counts() -> None:
    rep = random_game({"puzzle": "1", "variant": "horikomi"}, 3)
    game, state = rep.game, rep.state
    points = game.match_points(state)
    assert points["moyo_stones"] == game.result(state).scores
    for seat in "AB":
        filled = sorted(sum(1 for c in FIELD_CELLS[a] if state.grid.cells[c]) for a in game.shima(state, seat))
        assert points["shima_with"][seat] == [filled.count(n) for n in range(9, 0, -1)]


def test_moyo_4_3_a_forfeit_gives_the_winner_the_victory_points_of_that_moment() -> None:
    # A's (2,1), (2,2), (6,5) and B's (1,1), (1,2) are empty, the board SOLVED otherwise
    game, state = setup(puzzle=holes(cell_of(2, 1), cell_of(2, 2), cell_of(6, 5), cell_of(1, 1), cell_of(1, 2)))
    assert not state.over
    assert game.match_points(state, forfeit="B")["victory_points"] == {"A": 3, "B": 0}
    assert game.match_points(state, forfeit="A")["victory_points"] == {"A": 0, "B": 2}
    play(game, state, f"{SOLVED[cell_of(2, 1)]} (2,1)")  # a moment later: A has one stone fewer to place
    assert game.match_points(state, forfeit="B")["victory_points"] == {"A": brute_alone(game, state, "A"), "B": 0}
    assert game.match_points(state, forfeit="B")["victory_points"]["A"] == 2


def test_moyo_4_3_a_horikomi_forfeit_gives_the_loser_a_moyo_stone_on_every_empty_place_of_its_shima() -> None:
    game, state = setup(variant="horikomi")
    finish_opening(game, state)
    points = game.match_points(state, forfeit="A")
    empty = sum(1 for a in game.shima(state, "A") for c in FIELD_CELLS[a] if not state.grid.cells[c])
    assert points["moyo_stones"] == {"A": empty, "B": game.own_moyo(state, "B")}


# --- 5 Horikomi -----------------------------------------------------------------------
def test_moyo_5_1_horikomi_allows_the_opponents_shima_with_its_stones() -> None:
    game, state = setup(puzzle=holes(cell_of(2, 1), cell_of(1, 1)), variant="horikomi")
    d = int(SOLVED[cell_of(1, 1)])
    assert Placement(d, cell_of(1, 1)) in game.legal_moves(state)
    play(game, state, f"{d} (1,1)", by="A")  # into B's Shima
    assert state.grid.cells[cell_of(1, 1)] == d


def test_moyo_5_1_horikomi_only_after_the_opening() -> None:
    game, state = setup(variant="horikomi")
    with pytest.raises(IllegalMove, match="moyo 3.1"):
        play(game, state, "4 (1,1)")


def test_moyo_5_2_horikomi_ends_only_when_no_stone_fits_anywhere() -> None:
    # standard would end at once (A has nothing in its Shima); Horikomi plays on into B's
    game, state = setup(puzzle=holes(cell_of(1, 1), cell_of(1, 2)), variant="horikomi")
    assert not state.over and game.to_move(state) == "A"
    play(game, state, f"{SOLVED[cell_of(1, 1)]} (1,1)")
    assert not state.over
    play(game, state, f"{SOLVED[cell_of(1, 2)]} (1,2)")
    assert state.over


def test_moyo_5_2_every_empty_place_is_a_moyo_stone_at_the_end() -> None:
    for seed in range(1, 5):
        rep = random_game({"puzzle": "1", "variant": "horikomi"}, seed)
        game, state = rep.game, rep.state
        assert state.over
        empty = [c for c in range(81) if not state.grid.cells[c]]
        assert len(game.moyo_stones(state)) == len(empty)


def _filled(state: MoyoState, game: Moyo, seat: str) -> list[int]:
    return sorted(sum(1 for c in FIELD_CELLS[a] if state.grid.cells[c]) for a in game.shima(state, seat))


def test_moyo_5_3_fewest_moyo_stones_in_ones_own_shima_wins() -> None:
    seen = 0
    for seed in range(1, 12):
        rep = random_game({"puzzle": "1", "variant": "horikomi"}, seed)
        game, state = rep.game, rep.state
        scores = game.result(state).scores
        if scores["A"] != scores["B"]:
            seen += 1
            assert game.result(state).winners == (min(scores, key=scores.get),)
    assert seen


def test_moyo_5_3_ties_go_to_most_full_shima_then_8_7_down_to_1_then_a_draw() -> None:
    tie_breaks = draws = 0
    for seed in range(1, 40):
        rep = random_game({"puzzle": "1", "variant": "horikomi"}, seed)
        game, state = rep.game, rep.state
        scores = game.result(state).scores
        if scores["A"] != scores["B"]:
            continue
        fa, fb = _filled(state, game, "A"), _filled(state, game, "B")
        counts_a = [fa.count(n) for n in range(9, 0, -1)]
        counts_b = [fb.count(n) for n in range(9, 0, -1)]
        winners = game.result(state).winners
        if counts_a == counts_b:
            draws += 1
            assert winners == ("A", "B")
        else:
            tie_breaks += 1
            assert winners == (("A",) if counts_a > counts_b else ("B",))
            assert "tie broken by more" in game.view(state, None).shown["end"]
    assert tie_breaks and draws


def test_moyo_5_3_victory_points_in_horikomi_are_zero() -> None:  # README ruling 4.2/5
    rep = random_game({"puzzle": "1", "variant": "horikomi"}, 1)
    assert rep.game.view(rep.state, None).shown["victory_points"] == {"A": 0, "B": 0}


# --- refusals name their rule (through the engine's shared checks) ---------------------
def judged(game: Moyo, state: MoyoState, kind: str, by: str, text: str | None = None) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        engine.apply(game, state, Action(1, kind, by, parse(text) if text else None, None))
    return refused.value


def test_moyo_2_3_a_pick_out_of_turn_cites_the_draft_order() -> None:
    game, state = setup(division="draft")
    err = judged(game, state, "move", "B", "shima 1")
    assert err.rule == "moyo 2.3" and "A's turn" in str(err)
    play(game, state, "shima 1")
    err = judged(game, state, "move", "A", "shima 2")  # B picks two
    assert err.rule == "moyo 2.3"


def test_moyo_2_4_a_move_out_of_turn_during_the_handicap_cites_2_4() -> None:
    game, state = setup(handicap="2", handicap_by="B")
    err = judged(game, state, "move", "A", "2 (5,1)")
    assert err.rule == "moyo 2.4" and "B's turn" in str(err)
    play(game, state, "2 (5,1)")
    assert judged(game, state, "move", "A", "3 (5,2)").rule == "moyo 2.4"  # B's second stone


def test_moyo_2_2_a_move_out_of_turn_in_play_cites_2_2() -> None:
    game, state = setup()
    assert judged(game, state, "move", "B", "2 (5,1)").rule == "moyo 2.2"


def test_moyo_4_1_a_move_after_the_end_cites_4_1() -> None:
    game, state = setup(puzzle=holes(cell_of(2, 1)))
    play(game, state, f"{SOLVED[cell_of(2, 1)]} (2,1)")
    err = judged(game, state, "move", "B", "1 (1,1)")
    assert err.rule == "moyo 4.1" and "over" in str(err)


def test_moyo_5_2_a_move_after_the_horikomi_end_cites_5_2() -> None:
    rep = random_game({"puzzle": "1", "variant": "horikomi"}, 1)
    err = judged(rep.game, rep.state, "move", "A", "1 (1,1)")
    assert err.rule == "moyo 5.2" and "over" in str(err)


def test_moyo_3_3_a_challenge_is_refused_moyo_has_no_challenges() -> None:
    """No rule of Moyo gives a challenge: the placement rule (3.3) refuses a stone that
    breaks the Sudoku rule before it stands, so there is nothing to challenge."""
    game, state = setup()
    play(game, state, "2 (5,1)")
    err = judged(game, state, "challenge", "B")
    assert err.rule == "moyo 3.3" and "no challenges" in str(err)
    rep = random_game({"puzzle": "1"}, 1)  # after the end too
    assert judged(rep.game, rep.state, "challenge", "A").rule == "moyo 3.3"


# --- the engine, conformance and rendering --------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {"puzzle": "1"},
        {"puzzle": "1", "variant": "horikomi"},
        {"puzzle": "4", "division": "draft", "handicap": "2", "handicap_by": "B"},
        {"puzzle": "5", "units": "rows", "variant": "horikomi"},
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_moyo_random_games_replay_render_and_accept_their_legal_moves(options: dict[str, str], seed: int) -> None:
    """What tests/test_conformance.py checks, with a puzzle chosen (2.1)."""
    rep = random_game(options, seed)
    result = rep.game.result(rep.state)
    assert result.over
    again = engine.replay(store.parse(store.text(rep.log), rep.log.path))
    assert again.game.state_key(again.state) == rep.game.state_key(rep.state)
    assert again.game.result(again.state) == result
    for seq in range(0, rep.seq + 1, max(1, rep.seq // 5)):
        at = engine.replay(rep.log, upto=seq)
        data = json.loads(render_position(at, "json"))
        assert {"phase", "areas", "moyo_stones", "turned", "stones_left"} <= set(data)
        text = render_position(at, "text")
        assert all(len(line) <= 80 for line in text.splitlines())
        assert render_position(at, "html")
    # a copy of the log cut at mid-game: only the newest position of a log takes moves
    cut = b"".join(line + b"\n" for line in store.text(rep.log).split(b"\n")[: rep.seq // 2 + 1])
    mid = engine.replay(store.parse(cut, rep.log.path))
    for move in mid.game.legal_moves(mid.state)[:25]:
        trial = engine.replay(store.parse(cut, rep.log.path))
        trial.add("move", move=move)


def test_moyo_is_registered() -> None:
    assert game_class("moyo") is Moyo


def test_moyo_describe_reports_victory_points_null_until_over() -> None:
    game, state = setup()
    assert game.view(state, None).shown["victory_points"] is None
