"""Tests for corr.notation: the one move notation shared by all five games.

Pins the canonical output (logs and hashes depend on it), the forgiving input people
type in mail, and error positions (the CLI draws a caret under them).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from corr.errors import NotationError
from corr.geometry import FIELD_OF, PLACE_OF, cell_at, cell_of, col_of, row_of
from corr.notation import (
    MOVE_TYPES,
    Correction,
    Joker,
    Move,
    PieceMove,
    Placement,
    ShimaPick,
    _parse_general,
    format_move,
    parse,
    parse_cell,
)

# ---------------------------------------------------------------------------------
# Canonical forms and forgiving input, table-driven

CANONICAL = [
    ("7 (5,4)", Placement(7, cell_of(5, 4))),
    ("7 (5,4) !", Placement(7, cell_of(5, 4), ())),
    ("7 (5,4) !1,4", Placement(7, cell_of(5, 4), (1, 4))),
    ("grey (5,4)", Joker("grey", cell_of(5, 4))),
    ("gold (5,4)", Joker("gold", cell_of(5, 4))),
    ("N (8,2)-(4,9)", PieceMove("N", cell_of(8, 2), cell_of(4, 9), False)),
    ("7 (7,5)x(4,6)", PieceMove("7", cell_of(7, 5), cell_of(4, 6), True)),
    ("S (7,7)x(4,8)", PieceMove("S", cell_of(7, 7), cell_of(4, 8), True)),
    ("(7,4)=6", Correction(cell_of(7, 4), 6)),
    ("shima 3", ShimaPick(3)),
]


@pytest.mark.parametrize(("text", "move"), CANONICAL)
def test_canonical_text_parses_to_its_move_and_prints_back_unchanged(text: str, move: Move) -> None:
    assert parse(text) == move
    assert str(move) == text
    assert format_move(move) == text


FORGIVING = [
    # spacing: none, extra, leading/trailing
    ("7(5,4)", "7 (5,4)"),
    ("  7   ( 5 , 4 )  ", "7 (5,4)"),
    ("\t7 (5,4)\n", "7 (5,4)"),
    ("7(5,4)!", "7 (5,4) !"),
    ("7(5,4)!1,4", "7 (5,4) !1,4"),
    ("7 (5,4) ! 1, 4", "7 (5,4) !1,4"),
    ("7 (5,4) !  1 ,4 ", "7 (5,4) !1,4"),
    ("N(8,2)-(4,9)", "N (8,2)-(4,9)"),
    ("N (8,2) - (4,9)", "N (8,2)-(4,9)"),
    ("( 7 , 4 ) = 6", "(7,4)=6"),
    ("shima3", "shima 3"),
    ("greyr4c7", "grey (6,1)"),
    # '.' for ',' inside coordinates (the source's own log writes (2.1))
    ("7 (5.4)", "7 (5,4)"),
    ("3 (2.1)", "3 (2,1)"),
    ("N (8.2)-(4.9)", "N (8,2)-(4,9)"),
    ("(7.4)=6", "(7,4)=6"),
    # solver convention rRcC wherever a cell goes
    ("7 r4c7", "7 (6,1)"),
    ("7 R4C7", "7 (6,1)"),
    ("7r4c7!6", "7 (6,1) !6"),
    ("gold r1c1", "gold (1,1)"),
    ("N r9c2-r5c5", "N (7,8)-(5,5)"),
    ("r7c4=6", "(8,1)=6"),
    ("r9c9 = 1", "(9,9)=1"),
    # keywords and piece letters in any case; X for capture
    ("GREY (5,4)", "grey (5,4)"),
    ("Gold (5,4)", "gold (5,4)"),
    ("Shima 3", "shima 3"),
    ("SHIMA 7", "shima 7"),
    ("n (8,2)-(4,9)", "N (8,2)-(4,9)"),
    ("s (7,7)X(4,8)", "S (7,7)x(4,8)"),
    ("c (9,1)-(7,1)", "C (9,1)-(7,1)"),
    ("l (9,2)-(5,5)", "L (9,2)-(5,5)"),
    ("i (8,2)-(8,1)", "I (8,2)-(8,1)"),
    ("7 (7,5)X(4,6)", "7 (7,5)x(4,6)"),
    # a digit then a cell pair is a number moving, not a placement
    ("7 (5,4)-(5,5)", "7 (5,4)-(5,5)"),
    # claims: duplicates and order normalised
    ("7 (5,4) !4,1,4", "7 (5,4) !1,4"),
    ("7 (5,4) !9,1", "7 (5,4) !1,9"),
    ("7 (5,4) !4,4", "7 (5,4) !4"),
]


@pytest.mark.parametrize(("text", "canonical"), FORGIVING)
def test_forgiving_input_parses_to_the_canonical_move(text: str, canonical: str) -> None:
    move = parse(text)
    assert str(move) == canonical
    assert move == parse(canonical)


def test_placement_accepts_dot_separator() -> None:
    assert parse("7 (2.1)") == Placement(7, cell_of(2, 1))


def test_rc_form_is_row_then_column() -> None:
    assert parse("7 r4c7") == Placement(7, cell_at(4, 7))


def test_bare_claim_means_all_and_differs_from_no_claim() -> None:
    assert parse("7 (5,4) !").claim == ()  # type: ignore[union-attr]
    assert parse("7 (5,4)").claim is None  # type: ignore[union-attr]
    assert parse("7 (5,4) !") != parse("7 (5,4)")


def test_number_piece_move_keeps_the_digit_as_piece() -> None:
    move = parse("7 (7,5)x(4,6)")
    assert isinstance(move, PieceMove)
    assert move.piece == "7" and move.capture


def test_fast_path_normalises_unsorted_duplicate_claims() -> None:
    # "4,1,4" matches the fast-path regex; the claim must still come out canonical.
    assert parse.__wrapped__("7 (5,4) !4,1,4") == Placement(7, cell_of(5, 4), (1, 4))


def test_trailing_newline_is_whitespace_not_a_fast_path_leak() -> None:
    # re's `$` would match before a final newline; the result must equal the plain move.
    assert parse("7 (5,4)\n") == parse("7 (5,4)")
    assert parse("7 (5,4) !1\n") == parse("7 (5,4) !1")


# ---------------------------------------------------------------------------------
# Errors: type, position, message


ERRORS = [
    ("7 (5,x)", 5, "expected a place 1-9"),
    ("7 (5,4", 6, "expected ')'"),
    ("10 (5,4)", 1, "single digit 1-9"),
    ("7 (5,4) !0", 9, "field 0 is not 1-9"),
    ("r0c3", 1, "row 0 is not 1-9"),
    ("", 0, "empty move"),
    ("   ", 3, "empty move"),
    ("0 (5,4)", 0, "digit 0 is not 1-9"),
    ("7 (0,4)", 3, "field 0 is not 1-9"),
    ("7 (5,0)", 5, "place 0 is not 1-9"),
    ("7 (55,4)", 4, "single field 1-9"),
    ("7 (5;4)", 4, "expected ','"),
    ("7 (5,4) junk", 8, "unexpected text after the move"),
    ("7 (5,4) !1 4", 11, "expected ','"),
    ("7 (5,4) !1,", 11, "expected a field 1-9"),
    ("7 (5,4) !,1", 9, "expected a field 1-9"),
    ("7 (5,4)-", 8, "expected a cell"),
    ("7 r4", 4, "expected 'c'"),
    ("7 r4c0", 5, "column 0 is not 1-9"),
    ("7 r4 c7", 4, "expected 'c'"),
    ("N (5,4)", 7, "expected '-' or 'x'"),
    ("N (5,4) !", 8, "expected '-' or 'x'"),
    ("N (8,2)-(4,9) !", 14, "claim mark"),
    ("7 (7,5)x(4,6) !1", 14, "claim mark"),
    ("grey (5,4) !", 11, "claim mark"),
    ("(7,4)=6 !", 8, "claim mark"),
    ("(7,4)", 5, "expected '='"),
    ("(7,4)=0", 6, "digit 0 is not 1-9"),
    ("(7,4)=66", 7, "single digit"),
    ("shima", 5, "expected a field 1-9"),
    ("shima 0", 6, "field 0 is not 1-9"),
    ("shima 10", 7, "single field"),
    ("grey", 4, "expected a cell"),
    ("grey 5,4", 5, "expected a cell"),
    ("gray (5,4)", 0, "expected a move"),
    ("hello", 0, "expected a move"),
    ("Q (8,2)-(4,9)", 0, "expected a move"),
    ("  7 (5,x)", 7, "expected a place 1-9"),
    ("7 (5,4)\x00", 7, "unexpected text after the move"),
]


@pytest.mark.parametrize(("text", "pos", "reason"), ERRORS)
def test_syntax_error_points_at_the_offending_character(text: str, pos: int, reason: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    err = info.value
    assert err.pos == pos
    assert err.text == text
    assert reason in err.reason
    message = str(err)
    assert repr(text) in message  # the message quotes the input
    assert "\n" not in message  # one line


def test_errors_are_not_cached_and_raise_every_time() -> None:
    for _ in range(2):
        with pytest.raises(NotationError):
            parse("7 (5,x)")


def test_placement_with_a_piece_letter_is_a_syntax_error() -> None:
    with pytest.raises(NotationError):
        parse("N (5,4)")


@pytest.mark.parametrize(
    ("text", "pos"),
    [("", 0), ("(5,4", 4), ("(5,4) x", 6), ("r4c10", 4), ("5,4", 0), ("(5,4)(5,4)", 5)],
)
def test_parse_cell_rejects_bad_cells_with_position(text: str, pos: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_cell(text)
    assert info.value.pos == pos


# ---------------------------------------------------------------------------------
# parse_cell against geometry


@pytest.mark.parametrize("cell", range(81))
def test_parse_cell_agrees_with_geometry_in_both_forms(cell: int) -> None:
    f, p = FIELD_OF[cell], PLACE_OF[cell]
    r, c = row_of(cell), col_of(cell)
    assert parse_cell(f"({f},{p})") == cell_of(f, p) == cell
    assert parse_cell(f"({f}.{p})") == cell
    assert parse_cell(f"r{r}c{c}") == cell_at(r, c) == cell
    assert parse_cell(f"R{r}C{c}") == cell
    assert parse_cell(f" ( {f} , {p} ) ") == cell


# ---------------------------------------------------------------------------------
# Value objects


def test_placement_constructor_normalises_claims_so_equal_claims_compare_equal() -> None:
    assert Placement(7, 39, (4, 1, 4)) == Placement(7, 39, (1, 4))
    assert Placement(7, 39, (4, 1, 4)).claim == (1, 4)


@pytest.mark.parametrize(
    "build",
    [
        lambda: Placement(0, 39),
        lambda: Placement(7, 81),
        lambda: Placement(7, 39, (0,)),
        lambda: Joker("silver", 39),
        lambda: PieceMove("K", 0, 1, False),
        lambda: PieceMove("n", 0, 1, False),
        lambda: PieceMove("N", 0, -1, False),
        lambda: Correction(39, 10),
        lambda: ShimaPick(0),
    ],
)
def test_constructors_refuse_values_that_have_no_notation(build: object) -> None:
    with pytest.raises(ValueError):
        build()  # type: ignore[operator]


def test_moves_are_immutable_and_hashable() -> None:
    move = parse("7 (5,4) !1")
    with pytest.raises(AttributeError):
        move.digit = 3  # type: ignore[misc,union-attr]
    assert len({move, parse("7(5,4)!1")}) == 1


def test_format_move_refuses_non_moves() -> None:
    with pytest.raises(TypeError):
        format_move("7 (5,4)")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------
# Properties

cells = st.integers(0, 80)
digits = st.integers(1, 9)
claims = st.one_of(st.none(), st.frozensets(digits).map(lambda s: tuple(sorted(s))))
placements = st.builds(Placement, digits, cells, claims)
jokers = st.builds(Joker, st.sampled_from(("grey", "gold")), cells)
piece_moves = st.builds(PieceMove, st.sampled_from(list("SCLNI123456789")), cells, cells, st.booleans())
corrections = st.builds(Correction, cells, digits)
shima_picks = st.builds(ShimaPick, digits)
moves = st.one_of(placements, jokers, piece_moves, corrections, shima_picks)


@given(moves)
def test_every_canonical_move_round_trips(move: Move) -> None:
    text = str(move)
    assert parse(text) == move
    assert str(parse(text)) == text
    assert format_move(move) == text


@given(placements)
def test_fast_path_and_general_scanner_agree_on_canonical_placements(move: Placement) -> None:
    text = str(move)
    assert parse.__wrapped__(text) == _parse_general(text) == move


SPACE = st.sampled_from(["", "", " ", "  ", "\t", " \t "])


def _any_case(draw: st.DrawFn, word: str) -> str:
    return "".join(ch.upper() if draw(st.booleans()) else ch.lower() for ch in word)


def _cell_tokens(draw: st.DrawFn, cell: int) -> list[str]:
    if draw(st.booleans()):
        return [f"{draw(st.sampled_from('rR'))}{row_of(cell)}{draw(st.sampled_from('cC'))}{col_of(cell)}"]
    return ["(", str(FIELD_OF[cell]), draw(st.sampled_from(",.")), str(PLACE_OF[cell]), ")"]


@st.composite
def spelled(draw: st.DrawFn) -> tuple[Move, str]:
    """A move and one of the many ways a person might type it."""
    move = draw(moves)
    tokens: list[str]
    if isinstance(move, Placement):
        tokens = [str(move.digit), *_cell_tokens(draw, move.cell)]
        if move.claim is not None:
            typed = list(draw(st.permutations(move.claim)))
            if typed and draw(st.booleans()):
                typed.append(draw(st.sampled_from(typed)))  # a duplicate
            tokens.append("!")
            for k, f in enumerate(typed):
                tokens += [","] if k else []
                tokens.append(str(f))
    elif isinstance(move, Joker):
        tokens = [_any_case(draw, move.kind), *_cell_tokens(draw, move.cell)]
    elif isinstance(move, PieceMove):
        sep = draw(st.sampled_from("xX")) if move.capture else "-"
        tokens = [_any_case(draw, move.piece), *_cell_tokens(draw, move.src), sep, *_cell_tokens(draw, move.dst)]
    elif isinstance(move, Correction):
        tokens = [*_cell_tokens(draw, move.cell), "=", str(move.digit)]
    else:
        tokens = [_any_case(draw, "shima"), str(move.field)]
    text = draw(SPACE) + "".join(t + draw(SPACE) for t in tokens)
    return move, text


@given(spelled())
def test_forgiving_spellings_parse_to_the_same_move(case: tuple[Move, str]) -> None:
    move, text = case
    assert parse(text) == move
    assert str(parse(text)) == str(move)


NOTATION_CHARS = list("0123456789(),.!-=xXrRcC SCLNIsclni shimaSHIMAgreyGREYgoldGOLD\t\n\x00é")


@given(st.one_of(st.text(), st.text(alphabet=st.sampled_from(NOTATION_CHARS)), spelled().map(lambda c: c[1])))
def test_parse_never_raises_anything_but_notation_error(text: str) -> None:
    try:
        move = parse(text)
    except NotationError as err:
        assert err.text == text
        assert 0 <= err.pos <= len(text)
        assert "\n" not in str(err)
    else:
        assert isinstance(move, MOVE_TYPES)
        assert parse(str(move)) == move  # whatever parses has a canonical form


@given(st.text(alphabet=st.sampled_from(NOTATION_CHARS)))
def test_text_after_a_valid_move_is_refused_at_its_first_character(junk: str) -> None:
    junk = junk.lstrip()
    assume(junk and junk.strip())
    text = f"(1,1)=5 {junk}"  # nothing may follow a correction
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.pos == 8
