"""Board geometry (docs/rules/README.md): (F,P) numbering, units and peers."""

from __future__ import annotations

from corr.geometry import COL_CELLS, FIELD_CELLS, PEERS, ROW_CELLS, UNITS, cell_of, col_of, field_of, name, place_of, row_of


def test_keypad_numbering_corners_and_centre() -> None:
    assert cell_of(1, 1) == 0 and cell_of(9, 9) == 80 and cell_of(5, 5) == 40
    assert name(cell_of(3, 4)) == "(3,4)"


def test_row_and_column_formula_of_the_rules() -> None:
    for f in range(1, 10):
        for p in range(1, 10):
            c = cell_of(f, p)
            assert row_of(c) == 3 * ((f - 1) // 3) + (p - 1) // 3 + 1
            assert col_of(c) == 3 * ((f - 1) % 3) + (p - 1) % 3 + 1
            assert (field_of(c), place_of(c)) == (f, p)


def test_every_cell_has_twenty_peers_and_is_not_its_own() -> None:
    for c, peers in enumerate(PEERS):
        assert len(peers) == 20 and c not in peers
        assert set(peers) == (set(ROW_CELLS[c // 9]) | set(COL_CELLS[c % 9]) | set(FIELD_CELLS[field_of(c)])) - {c}


def test_twenty_seven_units_of_nine_cells() -> None:
    assert len(UNITS) == 27 and all(len(cells) == 9 for _, _, cells in UNITS)
