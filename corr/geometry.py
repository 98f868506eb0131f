"""Board geometry: cells, fields, places and units of the 9x9 board.

A cell is an int 0..80 in reading order (row-major) so that the games can index flat
lists fast; `(F,P)` is how people name it (field and place, both numbered like a
telephone keypad). Everything here is pure and computed once at import.
"""

from __future__ import annotations

CELLS = range(81)
DIGITS = range(1, 10)
ALL_DIGITS_MASK = 0x3FE  # bits 1..9 set: digit d is bit (1 << d)


def cell_of(field: int, place: int) -> int:
    """The cell index of `(field, place)`; both 1..9."""
    row = 3 * ((field - 1) // 3) + (place - 1) // 3
    col = 3 * ((field - 1) % 3) + (place - 1) % 3
    return row * 9 + col


def cell_at(row: int, col: int) -> int:
    """The cell index of 1-based row and column."""
    return (row - 1) * 9 + (col - 1)


def row_of(cell: int) -> int:
    """1-based row of a cell."""
    return cell // 9 + 1


def col_of(cell: int) -> int:
    """1-based column of a cell."""
    return cell % 9 + 1


def field_of(cell: int) -> int:
    """The field (3x3 box) 1..9 that holds a cell."""
    return FIELD_OF[cell]


def place_of(cell: int) -> int:
    """The place 1..9 of a cell inside its field."""
    return PLACE_OF[cell]


def name(cell: int) -> str:
    """Canonical `(F,P)` name of a cell."""
    return f"({FIELD_OF[cell]},{PLACE_OF[cell]})"


def _build() -> tuple[list[int], list[int], list[tuple[int, ...]], list[tuple[int, ...]], list[tuple[int, ...]]]:
    field_of_ = [0] * 81
    place_of_ = [0] * 81
    for f in DIGITS:
        for p in DIGITS:
            c = cell_of(f, p)
            field_of_[c] = f
            place_of_[c] = p
    rows = [tuple(r * 9 + c for c in range(9)) for r in range(9)]
    cols = [tuple(r * 9 + c for r in range(9)) for c in range(9)]
    fields = [tuple(cell_of(f, p) for p in DIGITS) for f in DIGITS]
    return field_of_, place_of_, rows, cols, fields


FIELD_OF, PLACE_OF, ROW_CELLS, COL_CELLS, _FIELDS = _build()
#: FIELD_CELLS[f] for f in 1..9 (index 0 unused) lists the field's cells in place order.
FIELD_CELLS: list[tuple[int, ...]] = [()] + _FIELDS
#: The 27 units: rows 1-9, columns 1-9, fields 1-9, each with its kind and number.
UNITS: list[tuple[str, int, tuple[int, ...]]] = (
    [("row", i + 1, ROW_CELLS[i]) for i in range(9)]
    + [("column", i + 1, COL_CELLS[i]) for i in range(9)]
    + [("field", f, FIELD_CELLS[f]) for f in DIGITS]
)
#: PEERS[c]: every other cell sharing a row, column or field with c.
PEERS: list[tuple[int, ...]] = [
    tuple(sorted((set(ROW_CELLS[c // 9]) | set(COL_CELLS[c % 9]) | set(FIELD_CELLS[FIELD_OF[c]])) - {c}))
    for c in CELLS
]


def digits_of(mask: int) -> list[int]:
    """The digits whose bits are set in a candidate mask."""
    return [d for d in DIGITS if mask >> d & 1]


def with_article(word: object) -> str:
    """`a 7`, `an 8`, `an 18`, `an Immobilizer`: a number or a piece as a sentence says it."""
    text = str(word)
    spoken = text.isdigit() and (text[0] == "8" or (len(text) % 3 == 2 and text[:2] in ("11", "18")))
    return ("an " if spoken or text[:1] in ("A", "E", "I", "O", "U") else "a ") + text
