"""Sudoku War, rule by rule (docs/rules/war.md); each test names the rule it pins.

Positions are built here with the position string (1.4 ruling): `setup()` places pieces by
(row, column), row 1 at the top (Black's first line) and row 9 at the bottom (White's).
Unless a test says otherwise, each side gets a spare Knight in a far corner (White's on
row 9 column 9, Black's on row 1 column 9) so that it always has some move and no game
ends by 3.2 behind a test's back. Expected destinations and positions are worked out here
from the rule's words, not taken from the game's own generator; the last section checks
the whole generator against a small one written here from rules 2.1-2.6 on random games.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from corr import engine, randomplay
from corr.errors import IllegalMove
from corr.games.base import Action
from corr.games.war.rules import DEFAULT_SETUP, KING, WRITTEN, WarState, _can_move, _is_legal, parse_position
from corr.geometry import cell_at, name
from corr.log import store
from corr.notation import Correction, PieceMove, parse

Square = tuple[int, int]  # (row, column), both 1..9, row 1 at the top

#: the spare Knights (see the module docstring)
SPARE: dict[Square, str] = {(9, 9): "N", (1, 9): "bN"}

# --- helpers ---------------------------------------------------------------------------


def at(r: int, c: int) -> str:
    """The (F,P) name of row r, column c."""
    return name(cell_at(r, c))


def mv(piece: str, a: Square, b: Square, capture: bool = False) -> str:
    """A piece move in canonical notation, from and to (row, column)."""
    return f"{piece} {at(*a)}{'x' if capture else '-'}{at(*b)}"


def fix(sq: Square, digit: int) -> str:
    """A Corrector's replacement: the number on (row, column) becomes `digit`."""
    return f"{at(*sq)}={digit}"


def setup(pieces: dict[Square, str], turn: str = "w", spare: bool = True) -> str:
    """A position string: `pieces` maps (row, column) to a token (`7`, `S`, `b7`, `bS`)."""
    grid = [["."] * 9 for _ in range(9)]
    for (r, c), token in {**(SPARE if spare else {}), **pieces}.items():
        grid[r - 1][c - 1] = token
    return "/".join("".join(row) for row in grid) + " " + turn


def start(pieces: dict[Square, str] | None = None, turn: str = "w", spare: bool = True, **options: str) -> engine.Position:
    """A game in memory; the default setup when `pieces` is None."""
    opts = dict(options)
    if pieces is not None:
        opts["setup"] = setup(pieces, turn, spare)
    return randomplay.start("war", ["Wanda", "Bert"], opts, seed=0)


def play(rep: engine.Position, text: str, by: str | None = None) -> list:  # type: ignore[type-arg]
    records = rep.add("move", by or rep.to_move(), move=parse(text))
    return records


def record(rep: engine.Position, kind: str, by: str) -> None:
    rep.add(kind, by)


def refused(rep: engine.Position, text: str, rule: str, by: str | None = None) -> IllegalMove:
    """The move is refused under `rule` and changes nothing."""
    before = (rep.game.state_key(rep.state), len(rep.log.records), len(rep.steps))
    with pytest.raises(IllegalMove) as err:
        play(rep, text, by)
    assert err.value.rule == rule, f"{err.value.rule}: {err.value}"
    assert (rep.game.state_key(rep.state), len(rep.log.records), len(rep.steps)) == before
    return err.value


def refused_record(rep: engine.Position, kind: str, by: str, rule: str) -> IllegalMove:
    before = (rep.game.state_key(rep.state), len(rep.log.records))
    with pytest.raises(IllegalMove) as err:
        rep.add(kind, by)
    assert err.value.rule == rule, f"{err.value.rule}: {err.value}"
    assert (rep.game.state_key(rep.state), len(rep.log.records)) == before
    return err.value


def cells(rep: engine.Position) -> list[str | None]:
    return rep.game.view(rep.state, None).shown["cells"]


def on(rep: engine.Position, r: int, c: int) -> str | None:
    """What stands on (row, column): None, or e.g. "W7", "BS"."""
    return cells(rep)[cell_at(r, c)]


def dests(rep: engine.Position, r: int, c: int) -> set[Square]:
    """Where the piece on (row, column) may go, by the game's generator."""
    out = set()
    for m in rep.game.piece_moves(rep.state, cell_at(r, c)):
        if isinstance(m, PieceMove):
            out.add(divmod(m.dst, 9))
    return {(r0 + 1, c0 + 1) for r0, c0 in out}


def king_ring(r: int, c: int) -> set[Square]:
    return {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 1 <= r + dr <= 9 and 1 <= c + dc <= 9}


def field_squares(r: int, c: int) -> set[Square]:
    r0, c0 = (r - 1) // 3 * 3, (c - 1) // 3 * 3
    return {(r0 + i, c0 + j) for i in (1, 2, 3) for j in (1, 2, 3)}


def units() -> list[set[int]]:
    rows = [{cell_at(r, c) for c in range(1, 10)} for r in range(1, 10)]
    cols = [{cell_at(r, c) for r in range(1, 10)} for c in range(1, 10)]
    boxes = [{cell_at(r, c) for r, c in field_squares(br, bc)} for br in (1, 4, 7) for bc in (1, 4, 7)]
    return rows + cols + boxes


def keeps_sudoku(cell_values: list[str | None]) -> bool:
    """No digit twice in a row, column or field, whoever's numbers (written out afresh)."""
    for unit in units():
        digits = [cell_values[c][1] for c in unit if cell_values[c] and cell_values[c][1].isdigit()]
        if len(digits) != len(set(digits)):
            return False
    return True


def over(rep: engine.Position) -> tuple[bool, tuple[str, ...]]:
    result = rep.result()
    return result.over, tuple(result.winners)


def assert_error(r, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Exit 1, exactly one stderr line `corr: error: ...` holding every word."""
    assert r.code == 1, f"exit {r.code}; stderr: {r.err!r}"
    assert "Traceback" not in r.err + r.out
    assert r.err.startswith("corr: error: ") and r.err.count("\n") == 1, r.err
    for word in words:
        assert word in r.err, f"{word!r} not in {r.err!r}"


def new_file(corr, path: Path, pieces: dict[Square, str] | None = None, turn: str = "w",  # type: ignore[no-untyped-def]
             *options: str) -> Path:
    args: list[str | Path] = ["new", "war", path, "--player", "Wanda", "--player", "Bert", "--format", "json"]
    if pieces is not None:
        args += ["-o", "setup=" + setup(pieces, turn)]
    for opt in options:
        args += ["-o", opt]
    r = corr(*args)
    assert r.code == 0, r.err
    return path


def show(corr, path: Path) -> dict:  # type: ignore[no-untyped-def,type-arg]
    r = corr("show", path, "--format", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)


def last_record(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.read_bytes().splitlines()[-1])


# --- 1 Board and setup -----------------------------------------------------------------
def test_war_1_1_1_2_1_4_default_setup_hired_pieces_on_the_first_lines_and_numbers_before_them() -> None:
    rep = start()
    got = cells(rep)
    row = lambda r: got[(r - 1) * 9:r * 9]  # noqa: E731
    assert row(9) == ["W" + p for p in "SCLNINLCS"]  # 1.1 White at the bottom, 1.2 corners to centre
    assert row(1) == ["B" + p for p in "SCLNINLCS"]
    assert row(8) == ["W" + d for d in "246813579"]  # 1.4 ruling
    assert row(2) == ["B" + d for d in "135792468"]
    assert all(c is None for r in range(3, 8) for c in row(r))
    assert rep.game.view(rep.state, None).shown["position"] == DEFAULT_SETUP
    assert rep.header.options["setup"] == DEFAULT_SETUP


def test_war_1_2_each_first_line_holds_two_stars_correctors_leaps_knights_and_one_immobilizer() -> None:
    got = cells(start())
    for colour, r in (("W", 9), ("B", 1)):
        line = [got[cell_at(r, c)] for c in range(1, 10)]
        assert sorted(line) == sorted([colour + p for p in "SSCCLLNNI"])
        assert line == line[::-1]  # the same from either corner to the centre


def test_war_1_3_default_setup_has_number_inverting_rotational_symmetry() -> None:
    got = cells(start())
    for c in range(81):
        a, b = got[c], got[80 - c]
        assert (a is None) == (b is None), c
        if a is None:
            continue
        assert {a[0], b[0]} == {"W", "B"}, (c, a, b)
        if a[1].isdigit():
            assert int(a[1]) + int(b[1]) == 10, (c, a, b)
        else:
            assert a[1] == b[1], (c, a, b)


def test_war_1_3_default_setup_keeps_the_sudoku_rule() -> None:
    assert keeps_sudoku(cells(start()))


def test_war_1_5_white_seat_a_moves_first_then_the_colours_alternate() -> None:
    rep = start()
    assert rep.to_move() == "A"
    assert rep.header.seats[0].seat == "A"
    refused(rep, mv("N", (1, 4), (3, 5)), "war 1.5", by="B")  # Black may not begin
    play(rep, mv("N", (9, 4), (7, 5)), by="A")
    assert rep.to_move() == "B"
    refused(rep, mv("N", (7, 5), (5, 4)), "war 1.5", by="A")  # nor White twice
    play(rep, mv("N", (1, 4), (3, 5)), by="B")
    assert rep.to_move() == "A"


def test_war_1_5_a_move_of_the_other_colours_piece_is_refused() -> None:
    rep = start()
    err = refused(rep, mv("N", (1, 4), (3, 5)), "war 1.5", by="A")  # White moving Black's Knight
    assert cell_at(1, 4) in err.cells
    err = refused(rep, mv("1", (2, 1), (3, 1)), "war 1.5", by="A")  # ... or Black's number
    assert cell_at(2, 1) in err.cells


def test_war_1_5_a_setup_may_give_black_the_move() -> None:
    rep = start({(5, 5): "3", (4, 4): "b7"}, turn="b")
    assert rep.to_move() == "B"
    refused(rep, mv("3", (5, 5), (5, 6)), "war 1.5", by="A")
    play(rep, mv("7", (4, 4), (3, 3)), by="B")
    assert rep.to_move() == "A"


# --- 2.1 Numbers -----------------------------------------------------------------------
def test_war_2_1_a_number_steps_like_a_king_to_empty_cells() -> None:
    rep = start({(5, 5): "5"})
    assert dests(rep, 5, 5) == king_ring(5, 5)
    refused(rep, mv("5", (5, 5), (3, 5)), "war 2.1")
    refused(rep, mv("5", (5, 5), (5, 7)), "war 2.1")
    play(rep, mv("5", (5, 5), (4, 4)))
    assert on(rep, 4, 4) == "W5" and on(rep, 5, 5) is None


def test_war_2_1_a_number_on_the_edge_steps_only_onto_the_board() -> None:
    rep = start({(5, 1): "5", (8, 8): "b3"}, turn="b")
    assert dests(rep, 8, 8) == king_ring(8, 8)
    assert dests(rep, 5, 1) == king_ring(5, 1) and len(king_ring(5, 1)) == 5


@pytest.mark.parametrize("token", ["b3", "b9", "bS", "bC", "bL", "bN"])
def test_war_2_1_a_number_captures_any_enemy_piece(token: str) -> None:
    rep = start({(5, 5): "5", (4, 6): token})
    assert (4, 6) in dests(rep, 5, 5)
    taken = "B" + token[1]
    count = cells(rep).count(taken)
    play(rep, mv("5", (5, 5), (4, 6), capture=True))
    assert on(rep, 4, 6) == "W5" and on(rep, 5, 5) is None
    assert cells(rep).count(taken) == count - 1


def test_war_2_1_capturing_an_enemy_number_of_the_same_value_is_legal() -> None:
    # diagonal neighbours across a field corner share no unit, so two 7s may stand there
    rep = start({(4, 4): "7", (3, 3): "b7"}, turn="b")
    assert (4, 4) in dests(rep, 3, 3)
    play(rep, mv("7", (3, 3), (4, 4), capture=True), by="B")
    assert on(rep, 4, 4) == "B7" and on(rep, 3, 3) is None
    assert cells(rep).count("W7") == 0


def test_war_2_1_2_4_capturing_the_same_value_through_a_leap() -> None:
    rep = start({(5, 3): "7", (5, 4): "L", (6, 5): "b7"})  # r6c5 is a King's step from the Leap
    play(rep, mv("7", (5, 3), (6, 5), capture=True))
    assert on(rep, 6, 5) == "W7" and "B7" not in cells(rep)


@pytest.mark.parametrize("clash", ["b5", "5"])
@pytest.mark.parametrize("where, unit", [((3, 9), "row"), ((7, 3), "column"), ((1, 1), "field")])
def test_war_2_1_a_step_breaking_the_sudoku_rule_among_both_colours_is_refused(
        clash: str, where: Square, unit: str) -> None:
    # the White 5 on r4c4 may not step to r3c3 when a 5 (of either colour) shares r3c3's row,
    # column or field
    rep = start({(4, 4): "5", where: clash})
    assert (3, 3) not in dests(rep, 4, 4)
    err = refused(rep, mv("5", (4, 4), (3, 3)), "war 2.1")
    assert cell_at(*where) in err.cells and cell_at(3, 3) in err.cells
    assert at(*where) in str(err)
    assert (3, 4) in dests(rep, 4, 4) or unit == "row"  # other steps still open


def test_war_2_1_a_number_may_move_within_its_own_units_its_old_cell_counting_as_empty() -> None:
    rep = start({(5, 5): "5"})
    play(rep, mv("5", (5, 5), (5, 6)))  # same row and field as the cell it leaves
    assert on(rep, 5, 6) == "W5"


@pytest.mark.parametrize("own", ["3", "S", "C", "L", "N", "I"])
def test_war_2_1_a_number_never_captures_its_own_pieces(own: str) -> None:
    rep = start({(5, 5): "5", (4, 5): own})
    assert (4, 5) not in dests(rep, 5, 5)
    refused(rep, mv("5", (5, 5), (4, 5), capture=True), "war 2")
    refused(rep, mv("5", (5, 5), (4, 5)), "war 2")


# --- 2.2 Star --------------------------------------------------------------------------
def test_war_2_2_a_star_slides_like_a_rook_and_jumps_within_its_own_field() -> None:
    rep = start({(5, 5): "S"})
    rook = {(5, c) for c in range(1, 10)} | {(r, 5) for r in range(1, 10)}
    assert dests(rep, 5, 5) == (rook | field_squares(5, 5)) - {(5, 5)}
    refused(rep, mv("S", (5, 5), (2, 2)), "war 2.2")  # neither a rook line nor its field
    play(rep, mv("S", (5, 5), (5, 1)))
    assert on(rep, 5, 1) == "WS"


def test_war_2_2_a_star_jumps_inside_its_own_field_over_pieces() -> None:
    # the Star in the corner of field 5, walled in by its own numbers
    rep = start({(4, 4): "S", (4, 5): "1", (5, 4): "2", (5, 5): "3"})
    assert dests(rep, 4, 4) >= {(6, 6), (6, 4), (4, 6), (5, 6), (6, 5)}
    refused(rep, mv("S", (4, 4), (7, 4)), "war 2.2")  # out of the field, through its 2
    play(rep, mv("S", (4, 4), (6, 4)))  # in the field, beyond its 2 on the same column
    assert on(rep, 6, 4) == "WS" and on(rep, 4, 4) is None


def test_war_2_2_a_star_suicide_captures_an_enemy_number_it_slides_onto() -> None:
    rep = start({(5, 1): "S", (5, 8): "b7"})
    assert (5, 8) in dests(rep, 5, 1)
    play(rep, mv("S", (5, 1), (5, 8), capture=True))
    assert on(rep, 5, 1) is None and on(rep, 5, 8) is None  # both leave the board
    assert "B7" not in cells(rep) and "WS" not in cells(rep)
    assert rep.steps[-1].record.move == "S " + at(5, 1) + "x" + at(5, 8)


def test_war_2_2_a_star_suicide_captures_an_enemy_number_it_jumps_onto() -> None:
    # r6c6 is in the Star's field but on none of its rook lines; the 3 walls r6c4 off too
    rep = start({(4, 4): "S", (5, 4): "3", (6, 6): "b7", (6, 4): "b8"})
    play(rep, mv("S", (4, 4), (6, 6), capture=True))
    assert on(rep, 4, 4) is None and on(rep, 6, 6) is None
    rep = start({(4, 4): "S", (5, 4): "3", (6, 6): "b7", (6, 4): "b8"})
    play(rep, mv("S", (4, 4), (6, 4), capture=True))  # behind its own 3, by the jump
    assert on(rep, 4, 4) is None and on(rep, 6, 4) is None and on(rep, 5, 4) == "W3"


@pytest.mark.parametrize("token", ["bS", "bC", "bL", "bN", "bI"])
@pytest.mark.parametrize("where", [(5, 8), (6, 3)])  # on its row; in its field
def test_war_2_2_a_star_never_captures_a_hired_piece(token: str, where: Square) -> None:
    rep = start({(5, 1): "S", where: token})
    assert where not in dests(rep, 5, 1)
    err = refused(rep, mv("S", (5, 1), where, capture=True), "war 2.2")
    assert cell_at(*where) in err.cells


def test_war_2_2_a_star_may_not_slide_through_a_piece() -> None:
    rep = start({(5, 1): "S", (5, 4): "b3", (5, 8): "b7"})
    err = refused(rep, mv("S", (5, 1), (5, 6)), "war 2.2")
    assert cell_at(5, 4) in err.cells and at(5, 4) in str(err)
    err = refused(rep, mv("S", (5, 1), (5, 8), capture=True), "war 2.2")  # nor capture beyond it
    assert cell_at(5, 4) in err.cells


def test_war_2_2_a_star_onto_an_enemy_number_is_written_as_a_capture() -> None:
    rep = start({(5, 1): "S", (5, 8): "b7"})
    err = refused(rep, mv("S", (5, 1), (5, 8)), "war 4")
    assert mv("S", (5, 1), (5, 8), capture=True) in str(err)


def test_war_2_2_a_star_does_not_capture_its_own_numbers() -> None:
    rep = start({(5, 1): "S", (5, 8): "7"})
    refused(rep, mv("S", (5, 1), (5, 8), capture=True), "war 2")


# --- 2.3 Corrector ---------------------------------------------------------------------
def test_war_2_3_a_corrector_slides_like_a_rook_without_capturing() -> None:
    rep = start({(5, 5): "C", (5, 9): "b3", (2, 5): "bS"})
    expected = {(5, c) for c in range(1, 9)} | {(r, 5) for r in range(3, 10)}
    assert dests(rep, 5, 5) == expected - {(5, 5)}
    refused(rep, mv("C", (5, 5), (5, 9), capture=True), "war 2.3")
    refused(rep, mv("C", (5, 5), (2, 5), capture=True), "war 2.3")
    refused(rep, mv("C", (5, 5), (4, 4)), "war 2.3")  # not diagonally
    err = refused(rep, mv("C", (5, 5), (1, 5)), "war 2.3")  # nor through Black's Star
    assert cell_at(2, 5) in err.cells
    play(rep, mv("C", (5, 5), (9, 5)))
    assert on(rep, 9, 5) == "WC"


def test_war_2_3_a_corrector_replaces_an_orthogonally_adjacent_friendly_number() -> None:
    rep = start({(5, 5): "C", (5, 6): "3"})
    replacements = {m.digit for m in rep.game.piece_moves(rep.state, cell_at(5, 5)) if isinstance(m, Correction)}
    assert replacements == set(range(1, 10)) - {3}
    play(rep, fix((5, 6), 8))
    assert on(rep, 5, 6) == "W8" and on(rep, 5, 5) == "WC"  # the Corrector stays where it is
    assert rep.to_move() == "B"  # the replacement is the turn
    assert rep.steps[-1].record.move == f"{at(5, 6)}=8"


@pytest.mark.parametrize("where", [(4, 5), (6, 5), (5, 4)])
def test_war_2_3_replacement_works_on_every_orthogonal_side(where: Square) -> None:
    rep = start({(5, 5): "C", where: "3"})
    play(rep, fix(where, 9))
    assert on(rep, *where) == "W9"


def test_war_2_3_a_diagonal_or_an_enemy_number_is_not_replaced() -> None:
    rep = start({(5, 5): "C", (4, 6): "3", (5, 6): "b4"})
    assert not any(isinstance(m, Correction) for m in rep.game.piece_moves(rep.state, cell_at(5, 5)))
    refused(rep, fix((4, 6), 8), "war 2.3")
    refused(rep, fix((5, 6), 8), "war 2.3")
    refused(rep, fix((5, 7), 8), "war 2.3")  # an empty cell


def test_war_2_3_a_number_with_no_corrector_beside_it_is_not_replaced() -> None:
    rep = start({(5, 5): "C", (5, 7): "3"})
    refused(rep, fix((5, 7), 8), "war 2.3")


@pytest.mark.parametrize("clash", ["b8", "8"])
def test_war_2_3_a_replacement_breaking_the_sudoku_rule_is_refused_naming_the_clash(clash: str) -> None:
    rep = start({(5, 5): "C", (5, 6): "3", (5, 1): clash})
    assert Correction(cell_at(5, 6), 8) not in rep.game.legal_moves(rep.state)
    err = refused(rep, fix((5, 6), 8), "war 2.3")
    assert cell_at(5, 1) in err.cells and at(5, 1) in str(err)


def test_war_2_3_replacing_a_number_by_itself_is_refused() -> None:
    rep = start({(5, 5): "C", (5, 6): "3"})
    refused(rep, fix((5, 6), 3), "war 2.3")


def test_war_2_3_no_limit_on_copies_of_a_number() -> None:
    rep = start({(5, 5): "C", (5, 6): "3", (8, 8): "7", (2, 2): "7"})
    play(rep, fix((5, 6), 7))  # a third White 7, each in its own row, column and field
    assert cells(rep).count("W7") == 3
    assert keeps_sudoku(cells(rep))


# --- 2.4 Leap --------------------------------------------------------------------------
def test_war_2_4_a_leap_slides_like_a_queen_without_capturing() -> None:
    rep = start({(5, 5): "L", (2, 2): "b3", (5, 8): "3"})
    got = dests(rep, 5, 5)
    assert {(4, 4), (3, 3), (6, 6), (7, 7), (8, 8)} <= got
    assert (9, 9) not in got  # White's own Knight
    assert (2, 2) not in got and (1, 1) not in got and (5, 8) not in got and (5, 9) not in got
    assert (5, 7) in got and (9, 1) in got and (1, 5) in got
    refused(rep, mv("L", (5, 5), (2, 2), capture=True), "war 2.4")
    err = refused(rep, mv("L", (5, 5), (1, 1)), "war 2.4")
    assert cell_at(2, 2) in err.cells
    refused(rep, mv("L", (5, 5), (3, 4)), "war 2.4")
    play(rep, mv("L", (5, 5), (3, 3)))
    assert on(rep, 3, 3) == "WL"


def test_war_2_4_a_number_next_to_a_leap_moves_a_kings_step_from_the_leap() -> None:
    rep = start({(5, 4): "5", (5, 5): "L"})
    assert dests(rep, 5, 4) == (king_ring(5, 4) | king_ring(5, 5)) - {(5, 4), (5, 5)}
    assert {(4, 6), (5, 6), (6, 6)} <= dests(rep, 5, 4)
    play(rep, mv("5", (5, 4), (5, 6)))  # an ordinary move in the notation
    assert on(rep, 5, 6) == "W5" and on(rep, 5, 4) is None and on(rep, 5, 5) == "WL"
    assert rep.steps[-1].record.move == f"5 {at(5, 4)}-{at(5, 6)}"


def test_war_2_4_a_number_using_a_leap_does_not_move_back_to_its_own_cell() -> None:
    rep = start({(5, 4): "5", (5, 5): "L"})
    assert (5, 4) not in dests(rep, 5, 4)
    with pytest.raises(IllegalMove):
        play(rep, mv("5", (5, 4), (5, 4)))
    assert on(rep, 5, 4) == "W5" and rep.to_move() == "A"


def test_war_2_4_a_number_uses_both_adjacent_leaps_and_steps_from_the_second() -> None:
    rep = start({(5, 3): "5", (5, 4): "L", (5, 5): "L"})
    assert {(4, 6), (5, 6), (6, 6)} <= dests(rep, 5, 3)
    play(rep, mv("5", (5, 3), (4, 6)))
    assert on(rep, 4, 6) == "W5"


def test_war_2_4_the_rules_example_7_7_5_x_4_6_takes_through_two_leaps() -> None:
    # (7,5) is r8c2, (4,6) is r5c3: three rows apart; Leaps on r7c2 and r6c2 carry the 7
    rep = start({(8, 2): "7", (7, 2): "L", (6, 2): "L", (5, 3): "b4"})
    assert at(8, 2) == "(7,5)" and at(5, 3) == "(4,6)"
    play(rep, "7 (7,5)x(4,6)")
    assert on(rep, 5, 3) == "W7" and on(rep, 8, 2) is None
    assert rep.steps[-1].record.move == "7 (7,5)x(4,6)"


def test_war_2_4_without_the_second_leap_a_number_gets_only_one_leaps_step() -> None:
    rep = start({(5, 3): "5", (5, 4): "L", (5, 6): "L"})  # the Leaps are not adjacent
    assert (5, 7) not in dests(rep, 5, 3)
    refused(rep, mv("5", (5, 3), (5, 7)), "war 2.1")


def test_war_2_4_2_7_the_leaps_cell_need_not_be_legal_for_the_number() -> None:
    # a Black 5 on column 5 forbids r5c5 (the Leap's cell) to a 5, but not r5c6
    rep = start({(5, 4): "5", (5, 5): "L", (1, 5): "b5"})
    play(rep, mv("5", (5, 4), (5, 6)))
    assert on(rep, 5, 6) == "W5"


def test_war_2_4_the_destination_must_be_empty_or_an_enemy_and_keep_the_sudoku_rule() -> None:
    rep = start({(5, 4): "5", (5, 5): "L", (5, 6): "3", (4, 6): "b2", (6, 6): "b9", (6, 1): "b5"})
    got = dests(rep, 5, 4)
    assert (5, 6) not in got  # its own 3
    assert (4, 6) in got  # Black's 2
    assert (6, 6) not in got  # Black's 9, but row 6 holds a Black 5
    refused(rep, mv("5", (5, 4), (5, 6), capture=True), "war 2")
    err = refused(rep, mv("5", (5, 4), (6, 6), capture=True), "war 2.1")
    assert cell_at(6, 1) in err.cells
    play(rep, mv("5", (5, 4), (4, 6), capture=True))
    assert on(rep, 4, 6) == "W5"


def test_war_2_4_an_enemy_leap_carries_no_number() -> None:
    rep = start({(5, 4): "5", (5, 5): "bL"})
    assert dests(rep, 5, 4) == king_ring(5, 4)
    refused(rep, mv("5", (5, 4), (5, 6)), "war 2.1")


# --- 2.5 Knight ------------------------------------------------------------------------
KNIGHT_FROM_55 = {(3, 4), (3, 6), (4, 3), (4, 7), (6, 3), (6, 7), (7, 4), (7, 6)}


def test_war_2_5_a_knight_moves_like_a_chess_knight_over_pieces() -> None:
    rep = start({(5, 5): "N", **{sq: "b1" if sq == (4, 5) else "S" for sq in [(4, 5), (5, 4), (5, 6), (6, 5)]}})
    assert dests(rep, 5, 5) == KNIGHT_FROM_55
    refused(rep, mv("N", (5, 5), (4, 4)), "war 2.5")
    refused(rep, mv("N", (5, 5), (3, 5)), "war 2.5")
    play(rep, mv("N", (5, 5), (3, 4)))
    assert on(rep, 3, 4) == "WN"


@pytest.mark.parametrize("token", ["bS", "bC", "bL", "bN", "bI"])
def test_war_2_5_a_knight_captures_enemy_hired_pieces(token: str) -> None:
    rep = start({(5, 5): "N", (3, 6): token})
    play(rep, mv("N", (5, 5), (3, 6), capture=True))
    assert on(rep, 3, 6) == "WN" and on(rep, 5, 5) is None


@pytest.mark.parametrize("digit", ["b1", "b9"])
def test_war_2_5_a_knight_never_captures_a_number(digit: str) -> None:
    rep = start({(5, 5): "N", (3, 6): digit})
    assert (3, 6) not in dests(rep, 5, 5)
    err = refused(rep, mv("N", (5, 5), (3, 6), capture=True), "war 2.5")
    assert cell_at(3, 6) in err.cells


def test_war_2_5_a_knight_does_not_capture_its_own_pieces() -> None:
    rep = start({(5, 5): "N", (3, 6): "S"})
    refused(rep, mv("N", (5, 5), (3, 6), capture=True), "war 2")


# --- 2.6 Immobilizer -------------------------------------------------------------------
def test_war_2_6_an_immobilizer_steps_like_a_king_without_capturing() -> None:
    rep = start({(5, 5): "I", (4, 5): "bS", (6, 6): "b3"})
    assert dests(rep, 5, 5) == king_ring(5, 5) - {(4, 5), (6, 6)}
    refused(rep, mv("I", (5, 5), (4, 5), capture=True), "war 2.6")
    refused(rep, mv("I", (5, 5), (6, 6), capture=True), "war 2.6")
    refused(rep, mv("I", (5, 5), (3, 5)), "war 2.6")
    play(rep, mv("I", (5, 5), (4, 4)))
    assert on(rep, 4, 4) == "WI"


@pytest.mark.parametrize("where", sorted(king_ring(5, 5)))
def test_war_2_6_enemy_numbers_adjacent_to_an_immobilizer_cannot_move(where: Square) -> None:
    rep = start({(5, 5): "I", where: "b3"}, turn="b")
    assert dests(rep, *where) == set()
    assert at(*where) in rep.game.view(rep.state, None).shown["frozen"]
    away = next(sq for sq in sorted(king_ring(*where)) if sq != (5, 5))
    err = refused(rep, mv("3", where, away), "war 2.6", by="B")
    assert cell_at(5, 5) in err.cells and at(5, 5) in str(err)
    err = refused(rep, mv("3", where, (5, 5), capture=True), "war 2.6", by="B")  # not even to take it


def test_war_2_6_an_immobilized_number_cannot_move_with_a_leap_either() -> None:
    rep = start({(5, 5): "I", (4, 4): "b3", (3, 4): "bL"}, turn="b")
    assert dests(rep, 4, 4) == set()
    refused(rep, mv("3", (4, 4), (2, 4)), "war 2.6", by="B")
    assert (2, 3) in dests(rep, 3, 4)  # the Leap itself still moves


def test_war_2_6_an_immobilizer_does_not_immobilize_hired_pieces_or_its_own_numbers() -> None:
    rep = start({(5, 5): "I", (4, 5): "bN", (4, 4): "bS", (6, 6): "3"}, turn="b")
    assert rep.game.view(rep.state, None).shown["frozen"] == []
    assert dests(rep, 4, 5) and dests(rep, 4, 4)
    play(rep, mv("N", (4, 5), (2, 4)), by="B")
    assert dests(rep, 6, 6) == king_ring(6, 6) - {(5, 5)}
    play(rep, mv("3", (6, 6), (7, 7)), by="A")


def test_war_2_6_a_number_away_from_the_immobilizer_moves_freely() -> None:
    rep = start({(5, 5): "I", (5, 7): "b3"}, turn="b")
    assert dests(rep, 5, 7) == king_ring(5, 7)
    play(rep, mv("3", (5, 7), (5, 8)), by="B")


def test_war_2_6_ruling_a_corrector_still_replaces_an_immobilized_number() -> None:
    rep = start({(5, 5): "I", (4, 4): "b3", (3, 4): "bC"}, turn="b")
    assert at(4, 4) in rep.game.view(rep.state, None).shown["frozen"]
    play(rep, fix((4, 4), 8), by="B")
    assert on(rep, 4, 4) == "B8"


def test_war_2_6_an_immobilizer_is_taken_by_a_number_only_through_a_leap() -> None:
    rep = start({(5, 5): "bI", (5, 6): "7"})  # the 7 next to it is frozen
    assert dests(rep, 5, 6) == set()
    refused(rep, mv("7", (5, 6), (5, 5), capture=True), "war 2.6")
    rep = start({(5, 5): "bI", (5, 3): "7", (5, 4): "L"})  # two away, carried by a Leap
    assert (5, 5) in dests(rep, 5, 3)
    play(rep, mv("7", (5, 3), (5, 5), capture=True))
    assert on(rep, 5, 5) == "W7" and "BI" not in cells(rep)


# --- 2.7 Hired pieces and the Sudoku rule ----------------------------------------------
def test_war_2_7_hired_pieces_play_no_part_in_the_sudoku_rule() -> None:
    # every cell around the 5, and its whole row, column and field, full of hired pieces
    crowd = {sq: p for sq, p in zip(sorted((field_squares(5, 5) | {(5, c) for c in range(1, 10)}
                                            | {(r, 5) for r in range(1, 10)}) - {(5, 5), (4, 4)}),
                                    "SCLNSCLNSCLNSCLNSCLNSCLN")}
    pieces: dict[Square, str] = {sq: "b" + p for sq, p in crowd.items()}
    pieces[(5, 5)] = "5"
    rep = start(pieces)
    assert (4, 4) in dests(rep, 5, 5)
    assert rep.game.board(rep.state) == [5 if c == cell_at(5, 5) else 0 for c in range(81)]
    play(rep, mv("5", (5, 5), (4, 4)))
    assert on(rep, 4, 4) == "W5"


def test_war_2_7_a_corrector_replacement_ignores_hired_pieces() -> None:
    rep = start({(5, 5): "C", (5, 6): "3", (5, 1): "bS", (1, 6): "bL", (4, 4): "N", (6, 6): "bI"})
    replacements = {m.digit for m in rep.game.piece_moves(rep.state, cell_at(5, 5)) if isinstance(m, Correction)}
    assert replacements == set(range(1, 10)) - {3}


# --- 2.8 No King, castling or pawns ----------------------------------------------------
def test_war_2_8_the_legal_moves_are_only_the_five_hired_kinds_numbers_and_replacements() -> None:
    rep = start()
    moves = rep.game.legal_moves(rep.state)
    assert moves
    for m in moves:
        assert isinstance(m, (PieceMove, Correction)), m
        if isinstance(m, PieceMove):
            assert m.piece in "SCLNI123456789", m
    # a first-line number may not double-step: the 2 on r8c1 reaches row 7 only
    assert dests(rep, 8, 1) <= {(7, 1), (7, 2)}


@pytest.mark.parametrize("text", ["K (9,5)-(8,5)", "O-O", "P (8,1)-(6,1)"])
def test_war_2_8_no_king_castling_or_pawn_moves_exist(corr, tmp_path: Path, text: str) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr")
    before = path.read_bytes()
    r = corr("move", path, text, "--format", "json")
    assert_error(r)
    assert path.read_bytes() == before


# --- 3.1 The first line ----------------------------------------------------------------
FIRST_LINE = {(2, 5): "5", (1, 4): "b3", (4, 5): "bS", (8, 3): "bC", (8, 4): "b4"}
WHITE_SPARE = mv("N", (9, 9), (7, 8))


def reached() -> engine.Position:
    """White's 5 has just stepped onto Black's first line (r1c5)."""
    rep = start(FIRST_LINE)
    play(rep, mv("5", (2, 5), (1, 5)))
    return rep


def test_war_3_1_reaching_the_first_line_does_not_win_at_once_the_number_must_be_taken() -> None:
    rep = reached()
    assert over(rep) == (False, ())
    assert rep.game.view(rep.state, None).shown["must_take"] == [at(1, 5)]
    assert rep.to_move() == "B"


@pytest.mark.parametrize("taking", [mv("3", (1, 4), (1, 5), capture=True),
                                    mv("S", (4, 5), (1, 5), capture=True)])
def test_war_3_1_the_enemy_takes_the_number_on_the_next_turn_and_play_goes_on(taking: str) -> None:
    rep = reached()
    play(rep, taking, by="B")
    assert over(rep) == (False, ())
    assert rep.game.view(rep.state, None).shown["must_take"] == []
    assert on(rep, 1, 5) in (None, "B3")
    play(rep, WHITE_SPARE, by="A")


@pytest.mark.parametrize("other", [mv("N", (1, 9), (3, 8)), mv("3", (1, 4), (2, 4)), fix((8, 4), 1)])
def test_war_3_1_ruling_the_enemy_not_taking_it_loses_at_the_end_of_its_turn(other: str) -> None:
    rep = reached()
    play(rep, other, by="B")
    assert over(rep) == (True, ("A",))
    end = rep.game.view(rep.state, None).shown["end"]
    assert "3.1" in end and at(1, 5) in end
    with pytest.raises(IllegalMove):
        play(rep, WHITE_SPARE, by="A")


def test_war_3_1_a_number_on_row_2_threatens_nothing() -> None:
    rep = start(FIRST_LINE)
    play(rep, mv("5", (2, 5), (2, 6)))
    assert rep.game.view(rep.state, None).shown["must_take"] == []
    play(rep, mv("N", (1, 9), (3, 8)), by="B")
    assert over(rep) == (False, ())


def test_war_3_1_the_same_holds_for_a_black_number_on_whites_first_line() -> None:
    rep = start({(8, 5): "b5", (9, 4): "3", (1, 1): "S"}, turn="b")
    play(rep, mv("5", (8, 5), (9, 5)), by="B")
    assert rep.game.view(rep.state, None).shown["must_take"] == [at(9, 5)]
    play(rep, mv("S", (1, 1), (2, 1)), by="A")
    assert over(rep) == (True, ("B",))


def test_war_3_1_a_number_already_standing_there_in_the_setup_must_be_taken_at_once() -> None:
    rep = start({(1, 5): "5", (1, 4): "b3"}, turn="b")
    assert rep.game.view(rep.state, None).shown["must_take"] == [at(1, 5)]
    play(rep, mv("N", (1, 9), (3, 8)), by="B")
    assert over(rep) == (True, ("A",))


# --- 3.2 No legal move, resignation, draws, repetition ---------------------------------
def test_war_3_2_a_player_with_no_legal_move_loses_after_the_opponents_move() -> None:
    # Black has one number and nothing else; White's Immobilizer steps next to it
    rep = start({(5, 5): "b1", (5, 7): "I", (9, 9): "N"}, spare=False)
    assert over(rep) == (False, ())
    play(rep, mv("I", (5, 7), (5, 6)))
    assert over(rep) == (True, ("A",))
    assert "3.2" in rep.game.view(rep.state, None).shown["end"]
    assert rep.game.legal_moves(rep.state) == []


@pytest.mark.parametrize("pieces", [
    {(5, 5): "b1", (5, 6): "I", (9, 9): "N"},  # immobilized
    {(1, 1): "b1", (2, 5): "1", (5, 2): "1", (9, 9): "N"},  # every step breaks the Sudoku rule
], ids=["immobilized", "sudoku"])
def test_war_3_2_a_setup_leaving_the_side_to_move_without_a_move_is_over_at_once(
        corr, tmp_path: Path, pieces: dict[Square, str]) -> None:  # type: ignore[no-untyped-def]
    rep = start(pieces, turn="b", spare=False)
    assert over(rep) == (True, ("A",))
    assert rep.to_move() is None
    path = tmp_path / "over.corr"
    r = corr("new", "war", path, "-p", "Wanda", "-p", "Bert", "-o", "setup=" + setup(pieces, "b", spare=False),
             "--format", "json")
    assert r.code == 0, r.err
    got = show(corr, path)
    assert got["over"] is True and got["winners"] == ["A"]
    r = corr("legal", path, "--json")
    assert json.loads(r.out) == {"seat": None, "moves": []}
    assert corr("audit", path).code == 0


def test_war_3_2_the_sudoku_blocked_setup_really_has_no_step() -> None:
    rep = start({(1, 1): "b1", (2, 5): "1", (5, 2): "1", (9, 9): "N"}, turn="w", spare=False)
    assert over(rep) == (False, ())
    assert dests(rep, 1, 1) == set()


@pytest.mark.parametrize("by, winner, moves", [("B", "A", 0), ("A", "B", 1), ("A", "B", 0), ("B", "A", 1)])
def test_war_3_2_resignation_the_other_seat_wins(corr, tmp_path: Path, by: str, winner: str,  # type: ignore[no-untyped-def]
                                                 moves: int) -> None:
    path = new_file(corr, tmp_path / "g.corr")
    if moves:
        assert corr("move", path, mv("N", (9, 4), (7, 5)), "--format", "none").code == 0
    r = corr("resign", path, "--by", by)
    assert r.code == 0, r.err
    got = show(corr, path)
    assert got["over"] is True and got["winners"] == [winner]
    assert last_record(path)["type"] == "resign" and last_record(path)["by"] == by
    before = path.read_bytes()
    r = corr("move", path, mv("N", (1, 4), (3, 5)), "--format", "none")
    assert r.code == 1
    assert path.read_bytes() == before
    assert corr("audit", path).code == 0


def test_war_3_2_an_accepted_draw_offer_ends_the_game_with_both_seats_winning() -> None:
    rep = start()
    record(rep, "draw-offer", "A")
    assert rep.game.view(rep.state, None).shown["draw_offer"] == "A"
    record(rep, "draw-accept", "B")
    assert over(rep) == (True, ("A", "B"))
    assert rep.to_move() is None


def test_war_3_2_draw_by_the_cli(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr")
    assert corr("draw", "offer", path, "--by", "B").code == 0
    assert show(corr, path)["draw_offer"] == "B"
    assert corr("draw", "accept", path, "--by", "A").code == 0
    got = show(corr, path)
    assert got["over"] is True and sorted(got["winners"]) == ["A", "B"]
    assert corr("audit", path).code == 0


def test_war_3_2_a_declined_draw_offer_is_gone_and_the_game_goes_on() -> None:
    rep = start()
    record(rep, "draw-offer", "A")
    record(rep, "draw-decline", "B")
    assert rep.game.view(rep.state, None).shown["draw_offer"] is None
    assert over(rep) == (False, ())
    refused_record(rep, "draw-accept", "B", "war 3.2")
    play(rep, mv("N", (9, 4), (7, 5)))


def test_war_3_2_a_draw_offer_lapses_when_the_other_side_moves() -> None:
    rep = start()
    record(rep, "draw-offer", "A")
    play(rep, mv("N", (9, 4), (7, 5)), by="A")  # the offer stands through its own move
    assert rep.game.view(rep.state, None).shown["draw_offer"] == "A"
    play(rep, mv("N", (1, 4), (3, 5)), by="B")  # the other side moves instead of answering
    assert rep.game.view(rep.state, None).shown["draw_offer"] is None
    refused_record(rep, "draw-accept", "B", "war 3.2")


def test_war_3_2_accepting_without_an_offer_or_ones_own_offer_is_refused() -> None:
    rep = start()
    refused_record(rep, "draw-accept", "B", "war 3.2")
    refused_record(rep, "draw-decline", "A", "war 3.2")
    record(rep, "draw-offer", "A")
    refused_record(rep, "draw-accept", "A", "war 3.2")
    refused_record(rep, "draw-decline", "A", "war 3.2")
    refused_record(rep, "draw-offer", "A", "war 3.2")  # it stands already
    assert over(rep) == (False, ())


def test_war_3_2_accepting_ones_own_offer_by_the_cli_is_refused(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr")
    assert corr("draw", "offer", path, "--by", "A").code == 0
    before = path.read_bytes()
    assert_error(corr("draw", "accept", path, "--by", "A"), "war 3.2")
    assert path.read_bytes() == before


SHUFFLE = [mv("N", (9, 9), (7, 8)), mv("N", (1, 9), (3, 8)), mv("N", (7, 8), (9, 9)), mv("N", (3, 8), (1, 9))]


def test_war_3_2_repetition_3_draws_the_third_time_a_position_stands() -> None:
    rep = start({(5, 2): "3", (4, 7): "b6"}, repetition="3")
    for i, text in enumerate(SHUFFLE * 2):
        assert over(rep) == (False, ()), i
        play(rep, text)
    # the start position stood at the start, after move 4 and after move 8
    assert over(rep) == (True, ("A", "B"))
    assert "3.2" in rep.game.view(rep.state, None).shown["end"]


def test_war_3_2_without_the_option_repetition_does_not_draw() -> None:
    rep = start({(5, 2): "3", (4, 7): "b6"})
    for text in SHUFFLE * 3:
        play(rep, text)
    assert over(rep) == (False, ())


def test_war_3_2_repetition_counts_the_same_side_to_move_only() -> None:
    # the pieces stand the same three times: twice with White to move, once (after White's
    # Immobilizer goes round a triangle) with Black to move: no draw
    rep = start({(5, 5): "I", (4, 7): "b6"}, repetition="3")
    there_and_back = [mv("I", (5, 5), (5, 6)), mv("N", (1, 9), (3, 8)), mv("I", (5, 6), (5, 5)), mv("N", (3, 8), (1, 9))]
    triangle = [mv("I", (5, 5), (5, 6)), mv("N", (1, 9), (3, 8)), mv("I", (5, 6), (4, 5)), mv("N", (3, 8), (1, 9)),
                mv("I", (4, 5), (5, 5))]
    start_cells = cells(rep)
    for text in there_and_back + triangle:
        play(rep, text)
    assert cells(rep) == start_cells and rep.to_move() == "B"
    assert over(rep) == (False, ())


def test_war_3_2_the_repetition_option_refuses_other_values(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    r = corr("new", "war", path, "-p", "W", "-p", "B", "-o", "repetition=2", "--format", "json")
    assert r.code != 0 and not path.exists()


# --- 4 Notation ------------------------------------------------------------------------
@pytest.mark.parametrize("text, kind", [("N (8,2)-(4,9)", PieceMove), ("7 (7,5)x(4,6)", PieceMove),
                                        ("S (7,7)x(4,8)", PieceMove), ("(7,4)=6", Correction)])
def test_war_4_the_rules_notation_parses_and_writes_back_the_same(text: str, kind: type) -> None:
    move = parse(text)
    assert isinstance(move, kind)
    assert str(move) == text


def test_war_4_forgiving_input_is_stored_canonically(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # (8,2) is r7c5 and (4,9) is r6c3: a Knight's move
    assert (at(7, 5), at(6, 3)) == ("(8,2)", "(4,9)")
    path = new_file(corr, tmp_path / "g.corr", {(7, 5): "N", (8, 1): "3", (7, 1): "C"})
    r = corr("move", path, "n(8.2)-(4.9)", "--format", "json")
    assert r.code == 0, r.err
    assert last_record(path)["move"] == "N (8,2)-(4,9)"
    r = corr("move", path, mv("N", (1, 9), (3, 8)), "--format", "none")
    assert r.code == 0, r.err
    assert at(8, 1) == "(7,4)"
    r = corr("move", path, " (7.4) = 6 ", "--format", "none")
    assert r.code == 0, r.err
    assert last_record(path)["move"] == "(7,4)=6"
    assert show(corr, path)["cells"][cell_at(8, 1)] == "W6"
    assert corr("audit", path).code == 0


def test_war_4_a_capture_written_with_a_dash_is_refused_with_the_right_spelling() -> None:
    rep = start({(5, 5): "7", (4, 6): "b3"})
    err = refused(rep, mv("7", (5, 5), (4, 6)), "war 4")
    assert mv("7", (5, 5), (4, 6), capture=True) in str(err)


def test_war_4_a_move_onto_an_empty_cell_written_with_x_is_refused_with_the_right_spelling() -> None:
    rep = start({(5, 5): "7"})
    err = refused(rep, mv("7", (5, 5), (4, 6), capture=True), "war 4")
    assert mv("7", (5, 5), (4, 6)) in str(err)
    rep = start({(5, 5): "N"})
    err = refused(rep, mv("N", (5, 5), (3, 4), capture=True), "war 4")
    assert mv("N", (5, 5), (3, 4)) in str(err)


@pytest.mark.parametrize("letter", ["S", "C", "L", "I", "5", "8"])
def test_war_4_the_piece_letter_must_match_the_piece_on_the_source_cell(letter: str) -> None:
    rep = start({(5, 5): "N"})
    err = refused(rep, mv(letter, (5, 5), (3, 4)), "war 4")
    assert cell_at(5, 5) in err.cells


def test_war_4_a_move_from_an_empty_cell_is_refused() -> None:
    rep = start({(5, 5): "N"})
    refused(rep, mv("N", (5, 4), (3, 3)), "war 4")


@pytest.mark.parametrize("pieces, source, target, rule", [
    ({(5, 5): "C", (5, 8): "b7"}, (5, 5), (5, 8), "war 2.3"),
    ({(5, 5): "L", (2, 2): "bS"}, (5, 5), (2, 2), "war 2.4"),
    ({(5, 5): "I", (4, 4): "bS"}, (5, 5), (4, 4), "war 2.6"),
    ({(5, 5): "N", (3, 4): "b7"}, (5, 5), (3, 4), "war 2.5"),
    ({(5, 1): "S", (5, 8): "bN"}, (5, 1), (5, 8), "war 2.2"),
], ids=["corrector-onto-number", "leap-onto-star", "immobilizer-onto-star", "knight-onto-number", "star-onto-knight"])
def test_war_4_a_move_onto_a_piece_it_may_not_take_is_refused_by_the_pieces_rule_either_way_written(
        pieces: dict[Square, str], source: Square, target: Square, rule: str) -> None:
    """Writing `-` instead of `x` is not the mistake here: the piece may not take that piece
    at all, so the refusal names the piece's rule instead of suggesting another spelling that
    is refused in turn."""
    letter = pieces[source]
    for capture in (True, False):
        rep = start(pieces)
        err = refused(rep, mv(letter, source, target, capture), rule)
        assert "write" not in str(err), str(err)


def test_war_4_messages_say_an_8_and_an_immobilizer() -> None:
    rep = start({(8, 4): "8", (5, 5): "I", (4, 4): "bS"})
    err = refused(rep, mv("N", (8, 4), (6, 3)), "war 4")
    assert "holds an 8" in str(err), str(err)
    err = refused(rep, mv("I", (5, 5), (4, 4), capture=True), "war 2.6")
    assert "an Immobilizer" in str(err), str(err)


# --- Bad input through the CLI ---------------------------------------------------------
CLI_REFUSALS = [
    # (pieces, turn, move, rule, cells the message names)
    ({(5, 5): "N", (3, 4): "bN"}, "w", mv("N", (3, 4), (5, 5)), "war 1.5", [(3, 4)]),
    ({(5, 5): "N", (3, 4): "b7"}, "w", mv("N", (5, 5), (3, 4), capture=True), "war 2.5", [(3, 4)]),
    ({(5, 5): "C", (5, 8): "b7"}, "w", mv("C", (5, 5), (5, 8), capture=True), "war 2.3", []),
    ({(5, 5): "C", (5, 8): "bS"}, "w", mv("C", (5, 5), (5, 8), capture=True), "war 2.3", []),
    ({(5, 5): "C", (5, 7): "3"}, "w", mv("C", (5, 5), (5, 8)), "war 2.3", [(5, 7)]),
    ({(5, 1): "S", (5, 3): "b3"}, "w", mv("S", (5, 1), (5, 6)), "war 2.2", [(5, 3)]),
    ({(5, 5): "L", (4, 4): "b3"}, "w", mv("L", (5, 5), (2, 2)), "war 2.4", [(4, 4)]),
    ({(5, 5): "bI", (5, 6): "7"}, "w", mv("7", (5, 6), (5, 7)), "war 2.6", [(5, 5), (5, 6)]),
    ({(5, 5): "C", (5, 6): "3", (2, 6): "b8"}, "w", fix((5, 6), 8), "war 2.3", [(2, 6)]),
    ({(5, 5): "7", (4, 1): "b7"}, "w", mv("7", (5, 5), (4, 4)), "war 2.1", [(4, 1)]),
]


@pytest.mark.parametrize("pieces, turn, move, rule, named", CLI_REFUSALS,
                         ids=["other-colour", "knight-onto-number", "corrector-onto-number",
                              "corrector-onto-star", "corrector-through-own-number", "star-through-piece",
                              "leap-through-piece", "number-next-to-immobilizer", "replacement-breaks-sudoku",
                              "step-breaks-sudoku"])
def test_war_2_a_refused_move_through_the_cli_exits_1_names_the_rule_and_leaves_the_file_unchanged(
        corr, tmp_path: Path, pieces: dict[Square, str], turn: str, move: str, rule: str,  # type: ignore[no-untyped-def]
        named: list[Square]) -> None:
    path = new_file(corr, tmp_path / "g.corr", pieces, turn)
    before = path.read_bytes()
    r = corr("move", path, move, "--format", "json")
    assert_error(r, rule + ":", *(at(*sq) for sq in named))
    assert r.out == ""
    assert path.read_bytes() == before


def test_war_1_5_a_move_for_the_seat_not_on_turn_is_refused_by_the_cli(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr")
    before = path.read_bytes()
    assert_error(corr("move", path, mv("N", (1, 4), (3, 5)), "--by", "B", "--format", "none"), "war 1.5")
    assert_error(corr("move", path, mv("N", (1, 4), (3, 5)), "--by", "A", "--format", "none"), "war 1.5", at(1, 4))
    assert path.read_bytes() == before


@pytest.mark.parametrize("text, words", [
    ("/".join(["........."] * 8) + " w", ["setup", "8 rows"]),
    ("/".join(["........."] * 4 + ["....X...."] + ["........."] * 4) + " w", ["setup", "row 5", "X"]),
    ("/".join(["........."] * 4 + ["5...5...."] + ["........."] * 4) + " w", ["setup", "two 5s"]),
    ("/".join(["........."] * 4 + ["5...b5...."] + ["........."] * 4) + " w", ["setup", "two 5s"]),
    ("/".join(["........."] * 4 + ["........"] + ["........."] * 4) + " w", ["setup", "row 5", "8 cells"]),
    ("/".join(["........."] * 9) + " x", ["setup"]),
    ("/".join(["........."] * 9), ["setup"]),
], ids=["8-rows", "bad-character", "two-white-5s", "white-and-black-5", "short-row", "bad-side", "no-side"])
def test_war_1_4_a_malformed_position_string_is_refused_before_any_file_is_written(
        corr, tmp_path: Path, text: str, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    r = corr("new", "war", path, "-p", "Wanda", "-p", "Bert", "-o", "setup=" + text, "--format", "json")
    assert_error(r, *words)
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_war_1_4_games_from_one_position_string_share_nothing_a_move_changes() -> None:
    """The setup is read once per string: each game still starts from its own copy, and
    the string is written back in its one spelling."""
    from corr.games.war.rules import War, position_text

    text = setup({(5, 5): "N", (3, 3): "b4"}, "w")
    loose = "  " + text.replace(" w", "   w") + " "
    assert War.resolve_options({"setup": loose})["setup"] == text == War.resolve_options({"setup": text})["setup"]
    first, second = start({(5, 5): "N", (3, 3): "b4"}), start({(5, 5): "N", (3, 3): "b4"})
    play(first, mv("N", (5, 5), (3, 4)))
    piece, side, turn = parse_position(text)
    assert (second.state.piece, second.state.side, second.state.turn) == (piece, side, turn)
    assert position_text(second.game.initial().piece, second.game.initial().side, turn) == text
    assert first.state.piece != piece


# --- JSON and the position string ------------------------------------------------------
def test_war_1_4_show_json_has_81_cells_and_the_position(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr")
    got = show(corr, path)
    assert len(got["cells"]) == 81
    assert got["cells"][cell_at(9, 1)] == "WS" and got["cells"][cell_at(1, 5)] == "BI"
    assert got["cells"][cell_at(8, 1)] == "W2" and got["cells"][cell_at(2, 1)] == "B1"
    assert got["cells"][cell_at(5, 5)] is None
    assert set(got["cells"]) <= {None} | {c + p for c in "WB" for p in "SCLNI123456789"}
    assert got["position"] == DEFAULT_SETUP
    assert got["to_move"] == "A"


def test_war_2_legal_json_lists_every_legal_move_and_each_is_accepted(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pieces = {(5, 5): "C", (5, 6): "3", (5, 4): "L", (4, 3): "5", (6, 6): "b5", (3, 3): "bS", (7, 7): "I",
              (2, 2): "b9", (4, 7): "bN", (6, 2): "S", (8, 8): "N"}
    path = new_file(corr, tmp_path / "g.corr", pieces)
    r = corr("legal", path, "--json")
    assert r.code == 0, r.err
    listed = json.loads(r.out)
    assert listed["seat"] == "A"
    rep = start(pieces)
    assert sorted(listed["moves"]) == sorted(str(m) for m in rep.game.legal_moves(rep.state))
    assert len(listed["moves"]) == len(set(listed["moves"]))
    for text in listed["moves"]:
        assert str(parse(text)) == text  # canonical
    moves = listed["moves"]
    picks = [m for m in moves if "=" in m][:2] + [m for m in moves if "x" in m][:3]
    picks += [m for m in moves if m[0].isdigit() and "-" in m][:2]
    picks += [m for m in moves if m[0] in "SCLNI" and "-" in m][::9]
    assert len(picks) >= 8 and all("x" in m for m in picks[2:5])
    for i, text in enumerate(picks):
        copy = tmp_path / f"copy{i}.corr"
        shutil.copy(path, copy)
        r = corr("move", copy, text, "--format", "json")
        assert r.code == 0, f"{text}: {r.err}"
        assert last_record(copy)["move"] == text


def test_war_3_1_legal_json_offers_black_the_takes_of_a_first_line_threat(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr", FIRST_LINE)
    assert corr("move", path, mv("5", (2, 5), (1, 5)), "--format", "none").code == 0
    got = show(corr, path)
    assert got["must_take"] == [at(1, 5)]
    listed = json.loads(corr("legal", path, "--json").out)
    assert listed["seat"] == "B"
    assert mv("3", (1, 4), (1, 5), capture=True) in listed["moves"]
    assert mv("S", (4, 5), (1, 5), capture=True) in listed["moves"]


def test_war_1_4_the_position_string_of_show_starts_a_new_game_in_the_same_position(
        corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr")
    for text in [mv("N", (9, 4), (7, 5)), mv("N", (1, 6), (3, 5)), mv("5", (8, 7), (7, 7)),
                 mv("S", (1, 9), (3, 7)), fix((8, 2), 5)]:
        r = corr("move", path, text, "--format", "none")
        assert r.code == 0, f"{text}: {r.err}"
    got = show(corr, path)
    assert got["to_move"] == "B"
    position = got["position"]
    assert position.endswith(" b")
    again = tmp_path / "again.corr"
    r = corr("new", "war", again, "-p", "Wanda", "-p", "Bert", "-o", "setup=" + position, "--format", "json")
    assert r.code == 0, r.err
    fresh = show(corr, again)
    assert fresh["position"] == position
    assert fresh["cells"] == got["cells"]
    assert fresh["to_move"] == "B"
    assert sorted(json.loads(corr("legal", again, "--json").out)["moves"]) == \
        sorted(json.loads(corr("legal", path, "--json").out)["moves"])


def test_war_1_4_a_setup_is_stored_canonically_in_the_header(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    text = setup({(5, 5): "3", (4, 4): "b7"}, "b")
    path = tmp_path / "g.corr"
    r = corr("new", "war", path, "-p", "Wanda", "-p", "Bert", "-o", f"setup=  {text.replace(' b', '   b')}  ",
             "--format", "json")
    assert r.code == 0, r.err
    assert json.loads(path.read_bytes().splitlines()[0])["options"]["setup"] == text
    assert show(corr, path)["position"] == text


@pytest.mark.skipif(not (Path(__file__).parent.parent / "templates" / "war" / "board.txt").exists(),
                    reason="templates/war/board.txt is not written yet")
def test_war_1_4_the_text_board_prints_the_position_string(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr")
    assert corr("move", path, mv("N", (9, 4), (7, 5)), "--format", "none").code == 0
    r = corr("show", path)
    assert r.code == 0, r.err
    assert show(corr, path)["position"] in r.out


def test_war_3_1_audit_accepts_a_game_with_a_first_line_take(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = new_file(corr, tmp_path / "g.corr", FIRST_LINE)
    for text in [mv("5", (2, 5), (1, 5)), mv("3", (1, 4), (1, 5), capture=True), WHITE_SPARE]:
        assert corr("move", path, text, "--format", "none").code == 0, text
    r = corr("audit", path)
    assert r.code == 0, r.err + r.out


# --- The whole move generator against one written here from the rules -----------------
HIRED = "SCLNI"


def ring(cell: int) -> list[int]:
    r, c = divmod(cell, 9)
    return [(r + dr) * 9 + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < 9 and 0 <= c + dc < 9]


def ray_cells(cell: int, steps: list[tuple[int, int]]) -> list[list[int]]:
    out = []
    for dr, dc in steps:
        r, c = divmod(cell, 9)
        line = []
        r, c = r + dr, c + dc
        while 0 <= r < 9 and 0 <= c < 9:
            line.append(r * 9 + c)
            r, c = r + dr, c + dc
        out.append(line)
    return out


ROOK = [(-1, 0), (1, 0), (0, -1), (0, 1)]
QUEEN = ROOK + [(-1, -1), (-1, 1), (1, -1), (1, 1)]
UNIT_PEERS = [{p for u in units() if c in u for p in u} - {c} for c in range(81)]


def reference_moves(board: list[str | None], colour: str) -> set[str]:
    """Every legal move of `colour` ("W"/"B") by rules 2.1-2.6, as canonical text."""
    enemy = "B" if colour == "W" else "W"
    own = [c for c in range(81) if board[c] and board[c][0] == colour]

    def digit_fits(cell: int, digit: str, gone: int) -> bool:
        return not any(board[p] and board[p][1] == digit for p in UNIT_PEERS[cell] if p != gone)

    moves: set[str] = set()
    for c in own:
        kind = board[c][1]
        if kind.isdigit():
            if any(board[n] == enemy + "I" for n in ring(c)):
                continue  # 2.6
            targets = set(ring(c))
            for leap in (n for n in ring(c) if board[n] == colour + "L"):  # 2.4
                targets |= set(ring(leap))
                for second in (n for n in ring(leap) if board[n] == colour + "L"):
                    targets |= set(ring(second))
            targets.discard(c)
            for t in targets:
                if board[t] and board[t][0] == colour:
                    continue
                if digit_fits(t, kind, c):
                    moves.add(f"{kind} {name(c)}{'x' if board[t] else '-'}{name(t)}")
        elif kind in "SCL":
            for line in ray_cells(c, QUEEN if kind == "L" else ROOK):
                for t in line:
                    if board[t]:
                        if kind == "S" and board[t][0] == enemy and board[t][1].isdigit():
                            moves.add(f"S {name(c)}x{name(t)}")
                        break
                    moves.add(f"{kind} {name(c)}-{name(t)}")
            if kind == "S":
                r0, c0 = c // 9 // 3 * 3, c % 9 // 3 * 3
                for t in (r * 9 + k for r in range(r0, r0 + 3) for k in range(c0, c0 + 3)):
                    if t == c:
                        continue
                    if not board[t]:
                        moves.add(f"S {name(c)}-{name(t)}")
                    elif board[t][0] == enemy and board[t][1].isdigit():
                        moves.add(f"S {name(c)}x{name(t)}")
            if kind == "C":
                r, k = divmod(c, 9)
                for t in (x * 9 + y for x, y in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
                          if 0 <= x < 9 and 0 <= y < 9):
                    if board[t] and board[t][0] == colour and board[t][1].isdigit():
                        for d in "123456789":
                            if d != board[t][1] and digit_fits(t, d, t):
                                moves.add(f"{name(t)}={d}")
        elif kind == "N":
            r, k = divmod(c, 9)
            for dr, dc in ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)):
                if 0 <= r + dr < 9 and 0 <= k + dc < 9:
                    t = (r + dr) * 9 + k + dc
                    if not board[t]:
                        moves.add(f"N {name(c)}-{name(t)}")
                    elif board[t][0] == enemy and not board[t][1].isdigit():
                        moves.add(f"N {name(c)}x{name(t)}")
        else:  # I
            moves.update(f"I {name(c)}-{name(t)}" for t in ring(c) if not board[t])
    return moves


def reference_after(board: list[str | None], text: str, colour: str) -> list[str | None]:
    """The board after a legal move, by the rules (a Star's capture removes both, 2.2)."""
    after = list(board)
    move = parse(text)
    if isinstance(move, Correction):
        after[move.cell] = colour + str(move.digit)
    elif move.piece == "S" and move.capture:
        after[move.src] = after[move.dst] = None
    else:
        after[move.dst], after[move.src] = after[move.src], None
    return after


def random_position(rng) -> str:  # type: ignore[no-untyped-def]
    """Pieces thrown on the board at random, keeping the Sudoku rule, no number on the
    enemy's first line; either colour to move."""
    grid: list[str | None] = [None] * 81
    for colour in "WB":
        for letter in rng.sample("SSCCLLNNI", rng.randint(2, 9)):
            grid[rng.choice([c for c in range(81) if grid[c] is None])] = colour + letter
        for _ in range(rng.randint(3, 12)):
            digit = str(rng.randint(1, 9))
            first = range(0, 9) if colour == "W" else range(72, 81)
            free = [c for c in range(81) if grid[c] is None and c not in first
                    and not any(grid[p] and grid[p][1] == digit for p in UNIT_PEERS[c])]
            if free:
                grid[rng.choice(free)] = colour + digit
    rows = []
    for r in range(9):
        rows.append("".join("." if grid[c] is None else (("b" if grid[c][0] == "B" else "") + grid[c][1])
                            for c in range(r * 9, r * 9 + 9)))
    return "/".join(rows) + " " + rng.choice("wb")


@pytest.mark.parametrize("seed", range(12))
def test_war_2_3_every_generated_move_and_ending_matches_the_rules_written_out_here(seed: int) -> None:
    """Random games (from the default setup and from random positions): at every turn the
    game's legal moves are exactly the reference's, the board after the move is the one
    the rules give, and the game ends exactly when 3.1 or 3.2 says."""
    rng = random.Random(seed)
    text = DEFAULT_SETUP if seed == 0 else random_position(rng)
    rep = randomplay.start("war", ["Wanda", "Bert"], {"setup": text}, seed=0)
    assert (rep.to_move() is None) == (not reference_moves(cells(rep), "W" if text.endswith("w") else "B"))
    for ply in range(60):
        if rep.to_move() is None:
            break
        board = cells(rep)
        colour, enemy = ("W", "B") if rep.to_move() == "A" else ("B", "W")
        got = {str(m) for m in rep.game.legal_moves(rep.state)}
        want = reference_moves(board, colour)
        assert got == want, (ply, rep.game.view(rep.state, None).shown["position"], sorted(got - want), sorted(want - got))
        first_line = range(72, 81) if colour == "W" else range(0, 9)
        threat = [c for c in first_line if board[c] and board[c][0] == enemy and board[c][1].isdigit()]
        assert rep.game.view(rep.state, None).shown["must_take"] == [name(c) for c in threat]
        # captures and replacements half the time, so that they get played too
        lively = sorted(m for m in got if "x" in m or "=" in m)
        text = rng.choice(lively if lively and rng.random() < 0.5 else sorted(got))
        play(rep, text)
        after = reference_after(board, text, colour)
        assert cells(rep) == after, (ply, text)
        assert keeps_sudoku(after)
        mover, other = ("A", "B") if colour == "W" else ("B", "A")
        if any(after[c] == board[c] for c in threat):  # 3.1 ruling: it stood there a whole turn
            assert over(rep) == (True, (other,)), (ply, text)
        elif not reference_moves(after, enemy):  # 3.2
            assert over(rep) == (True, (mover,)), (ply, text)
        else:
            assert over(rep) == (False, ()), (ply, text, rep.game.view(rep.state, None).shown["end"])


ENDINGS = {
    # how: (pieces, options, moves, winners)
    "first-line": (FIRST_LINE, (), [mv("5", (2, 5), (1, 5)), mv("N", (1, 9), (3, 8))], ["A"]),
    "repetition": ({(5, 2): "3"}, ("repetition=3",), SHUFFLE * 2, ["A", "B"]),
    "resign": ({(5, 2): "3"}, (), [mv("3", (5, 2), (4, 2))], ["A"]),
    "draw": ({(5, 2): "3"}, (), [mv("3", (5, 2), (4, 2))], ["A", "B"]),
}


@pytest.mark.parametrize("how", sorted(ENDINGS))
def test_war_3_every_kind_of_ending_is_written_and_audits(corr, tmp_path: Path, how: str) -> None:  # type: ignore[no-untyped-def]
    """A game ended each way of 3.1 and 3.2 through the CLI replays to the same end."""
    pieces, options, moves, winners = ENDINGS[how]
    path = new_file(corr, tmp_path / "g.corr", pieces, "w", *options)
    for text in moves:
        r = corr("move", path, text, "--format", "none")
        assert r.code == 0, f"{text}: {r.err}"
    if how == "resign":
        assert corr("resign", path, "--by", "B").code == 0
    if how == "draw":
        assert corr("draw", "offer", path, "--by", "B").code == 0
        assert corr("draw", "accept", path, "--by", "A").code == 0
    got = show(corr, path)
    assert got["over"] is True and got["winners"] == winners, got["end"]
    assert json.loads(corr("legal", path, "--json").out) == {"seat": None, "moves": []}
    r = corr("audit", path)
    assert r.code == 0, r.err + r.out
    assert engine.load(path).result().winners == tuple(winners)


@pytest.mark.parametrize("seed", range(6))
def test_war_2_legal_moves_in_one_sweep_are_every_piece_s_moves_in_order(seed: int) -> None:
    """`legal_moves` sweeps the side's pieces once, what they share found once for all;
    `piece_moves` makes them for its one piece. The side's moves are each cell's moves in
    cell order, in every position of random games (whether they are the rules' moves is
    `test_war_2_3_every_generated_move_and_ending_matches_the_rules_written_out_here`'s to check)."""
    rep = randomplay.play("war", ["White", "Black"], {}, seed=seed, max_records=400)
    positions: list = []
    engine.replay(rep.log, each=lambda r: positions.append(r.game.clone(r.state)))
    game = rep.game
    assert len(positions) > 20
    for state in positions:
        if state.over:
            continue
        frozen = game.frozen(state, state.turn)
        expected = [m for c in range(81) if state.side[c] == state.turn for m in game.piece_moves(state, c, frozen)]
        assert game.legal_moves(state) == expected



def _games_and_positions(seed: int) -> tuple[list, list]:  # type: ignore[type-arg]
    """Every position of four random games from the default setup (each seed its own),
    and twenty random positions with both colours to move."""
    played: list = []
    for g in range(4):
        rep = randomplay.play("war", ["White", "Black"], {}, seed=seed * 4 + g, max_records=250)
        engine.replay(rep.log, each=lambda r: played.append(r.game.clone(r.state)))
    rng = random.Random(seed)
    thrown = []
    for _ in range(20):
        piece, side, _turn = parse_position(random_position(rng))
        thrown += [WarState(list(piece), list(side), 1), WarState(piece, side, 2)]
    return [s for s in played if not s.over], thrown


@pytest.mark.parametrize("seed", range(5))
def test_war_2_3_2_the_one_move_and_any_move_answers_match_the_full_generator(seed: int) -> None:
    """An audit asks of each record only whether its one move is legal and then whether
    the other side has any move at all (3.2), never making every move: those answers
    (`_is_legal`, `has_move`, and `_can_move` per piece) and the frozen cells (2.6,
    found from the Immobilizers alone: in the board bytes of a replayed state, in the
    lists of a state built by hand) are the full generator's and the rule's, for every
    piece and target of every position of twenty random games and of a hundred random
    positions (there every capture mark and a wrong letter too), either colour to move."""
    game = randomplay.start("war", ["White", "Black"], {}).game
    played, thrown = _games_and_positions(seed)
    table: dict[tuple[str, int], list[PieceMove]] = {}  # (letter, from) -> the move to dst, or 81 + dst with x

    def row(letter: str, src: int) -> list[PieceMove]:
        if (letter, src) not in table:
            table[letter, src] = [PieceMove(letter, src, i % 81, i >= 81) for i in range(162)]
        return table[letter, src]

    for every, state in [(False, s) for s in played] + [(True, s) for s in thrown]:
        piece, side, own = state.piece, state.side, state.turn
        held = {n for c in range(81) if piece[c] == 14 and side[c] not in (0, own)
                for n in KING[c] if side[n] == own and 0 < piece[n] < 10}
        assert game.frozen(state, own) == held
        assert game.has_move(state) == bool(game.legal_moves(state)), game.view(state, None).shown["position"]
        for src in range(81):
            if not piece[src] or side[src] != own and not every:
                continue
            made = game.piece_moves(state, src) if side[src] == own else []
            if side[src] == own:
                assert _can_move(piece, side, own, src) == bool(made), (src, state)
            legal = {m.dst + 81 * m.capture for m in made if isinstance(m, PieceMove)}
            letter = WRITTEN[piece[src]]
            moves = row(letter, src)
            for i in (range(162) if every else [dst + 81 * bool(side[dst]) for dst in range(81)]):
                assert _is_legal(piece, side, own, moves[i]) == (i in legal), (str(moves[i]), state)
            if every:
                wrong = row("N" if letter != "N" else "1", src)
                assert not any(_is_legal(piece, side, own, wrong[dst + 81 * bool(side[dst])]) for dst in range(81))


@pytest.mark.parametrize("seed", range(4))
def test_war_the_state_hash_s_cells_kept_by_each_record_are_the_board_s(seed: int) -> None:
    """`apply` keeps the bytes the state hash starts with beside the board, instead of
    converting the board for every record: after every record of random games
    (captures, a Star's suicide, replacements) they are the board's, a clone has its
    own copy, and the key is the one a state without them (what a bot moves on by
    hand) makes."""
    rep = randomplay.play("war", ["White", "Black"], {}, seed=seed, max_records=600)
    game = rep.game

    def check(r: engine.Position) -> None:
        state = r.state
        assert state.cells == bytes(state.piece) + bytes(state.side)
        copy = game.clone(state)
        assert copy.cells == state.cells and copy.cells is not state.cells
        copy.cells = None
        assert game.state_key(copy) == game.state_key(state)

    engine.replay(rep.log, each=check)
    played = [str(step.action.move) for step in rep.steps]
    assert any("=" in m for m in played) and any(m.startswith("S") and "x" in m for m in played)


@pytest.mark.parametrize("seed", range(4))
def test_war_3_1_3_2_a_turn_ends_alike_on_the_short_path_and_the_long_one(seed: int) -> None:
    """Most moves end their turn on a short path (no enemy number on the mover's first
    line, no draw offer, positions not counted, the other side able to move); counting
    positions (repetition=3) sends every move down the long one, `_end_turn`. Until a
    position stands a third time, both give the same outcome and the same position
    after every move of random games, draw offers that lapse among them."""
    from corr.games.war.rules import War

    rep = randomplay.play("war", ["White", "Black"], {}, seed=seed, max_records=500)
    short, long = rep.game, War(War.resolve_options({"repetition": "3"}), ["A", "B"])
    a, b = short.initial(), long.initial()
    offers = 0
    for i, step in enumerate(rep.steps):
        if i % 7 == 3 and not a.over:  # the side not on turn offers a draw; the next move lets it lapse
            offer = Action(0, "draw-offer", "B" if a.turn == 1 else "A")
            assert short.apply(a, offer) == long.apply(b, offer)
            offers += 1
        outcomes = short.apply(a, step.action), long.apply(b, step.action)
        if b.ending.startswith("the same position"):
            break
        assert outcomes[0] == outcomes[1], (i, str(step.action.move))
        assert (a.piece, a.side, a.turn, a.last, a.offer, a.winners, a.ending) == \
            (b.piece, b.side, b.turn, b.last, b.offer, b.winners, b.ending), i
    assert offers > 5 and i > 50
