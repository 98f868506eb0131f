"""The incremental grid always equals a grid rebuilt from its cells."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from corr.games.grid import Grid


def rebuilt(cells: list[int]) -> Grid:
    grid = Grid.__new__(Grid)
    grid.cells = list(cells)
    grid.rebuild()
    return grid


def state(grid: Grid) -> tuple:
    return (grid.cells, grid.rows, grid.cols, grid.boxes, grid.counts, grid.cand, grid.fcount, grid.options)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9)), max_size=60), st.data())
def test_placements_and_removals_keep_the_grid_equal_to_a_rebuild(moves, data) -> None:
    grid = Grid()
    for cell, digit in moves:
        if grid.cells[cell]:
            continue
        before = rebuilt(grid.cells)
        zeroed = grid.place(cell, digit)  # legal or not: as-written games place both
        assert state(grid) == state(rebuilt(grid.cells))
        assert grid.cell_bytes() == bytes(grid.cells) == grid.copy().cell_bytes()
        # every (field, digit) reported lost its last place with this placement
        lost = {(f, d) for f in range(1, 10) for d in range(1, 10) if before.fcount[f][d] and not grid.fcount[f][d]}
        assert set(zeroed) == lost
        if data.draw(st.booleans()) and data.draw(st.booleans()):
            grid.remove(cell)
            assert state(grid) == state(before) and grid.cell_bytes() == bytes(before.cells)


def test_copy_is_independent() -> None:
    grid = Grid()
    other = grid.copy()
    other.place(0, 5)
    assert grid.cells[0] == 0 and grid.options == rebuilt(grid.cells).options
    assert grid.cell_bytes() == bytes(81) and other.cell_bytes() == b"\x05" + bytes(80)


def test_givens_are_the_puzzle_read_and_a_bad_one_is_refused_each_time() -> None:
    import pytest

    from corr.errors import UsageError
    from corr.games.grid import givens
    from corr.puzzles.appendix import APPENDIX, parse_puzzle

    assert givens("1") == givens(APPENDIX[1]) == tuple(parse_puzzle(APPENDIX[1]))
    for _ in range(2):
        with pytest.raises(UsageError, match="81 characters"):
            givens("12345")
