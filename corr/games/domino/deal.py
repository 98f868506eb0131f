"""Sudoku Domino: docking geometry and the seeded generator (docs/rules/domino.md 2, 3.3, 7.1).

A board is 81 cells in reading order (corr.geometry), 0 for an empty cell and a digit
for a stone. Everything here is a pure function of the board or the seed, so a duel's
boards, a replay and the dealer all agree on every docking cell and every deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from corr.games.dealing import draw, draws, shuffles
from corr.counts import counted
from corr.errors import UsageError
from corr.geometry import CELLS, COL_CELLS, ROW_CELLS

MIN_GIVENS = 17
MAX_GIVENS = 80

#: The 36 ways a stone is pushed in (2.2): every row and column from each end, each
#: listing the line's cells from the edge the stone enters at.
ENTRIES: tuple[tuple[int, ...], ...] = tuple(
    cells for line in ROW_CELLS + COL_CELLS for cells in (tuple(line), tuple(reversed(line)))
)


def _approaches(cell: int) -> list[tuple[tuple[int, ...], int | None]]:
    """For each of the cell's four straight paths to the edge: the path's cells (the cell
    itself left out) and the cell next to it on the other side, the one a stone pushed
    in along that path docks against (None past the board's far edge)."""
    out: list[tuple[tuple[int, ...], int | None]] = []
    for entry in ENTRIES:
        if cell in entry:
            i = entry.index(cell)
            out.append((entry[:i], entry[i + 1] if i < 8 else None))
    return out


_APPROACHES: list[list[tuple[tuple[int, ...], int | None]]] = [_approaches(c) for c in CELLS]


def _check(cells: Sequence[int]) -> None:
    if len(cells) != 81:
        raise ValueError(f"a board is 81 cells, not {len(cells)}")


def docking_cells(cells: Sequence[int]) -> list[int]:
    """The docking cells of a board (2.2, 2.3), by cell index.

    Slides a stone in along every row and column from each end: over the empty cells
    until the next cell holds a stone. An occupied edge cell and a line without a stone
    offer nothing. Two lines offering one cell give it once.
    """
    _check(cells)
    return cells_of(docking_mask(*occupied(cells)))


def occupied(cells: Sequence[int]) -> tuple[int, int]:
    """A board's occupied cells as two bit masks: by rows (bit 9r+c: the cell on row r,
    column c) and by columns (bit 9c+r: the same cell), so that each line is 9 bits
    of one of them."""
    rows = bytes(cells)  # a cell's value as a byte; 81 of them, as _check has it
    cols = b"".join(rows[c::9] for c in range(9))
    # each as a binary number, cell 0 its lowest digit
    return int(rows.translate(_BINARY)[::-1], 2), int(cols.translate(_BINARY)[::-1], 2)


#: the binary digit of a cell's value: "0" for an empty cell, "1" for any piece
_BINARY = b"0".ljust(256, b"1")


def docking_mask(by_rows: int, by_cols: int) -> int:
    """`docking_cells` of the board with these `occupied` masks, as a mask by rows:
    each line slides its stones in by a table of its 9 bits."""
    docking = 0
    for i in range(9):
        docking |= _ROW_DOCKING[(by_rows >> 9 * i) & 511] << 9 * i | _COL_DOCKING[(by_cols >> 9 * i) & 511] << i
    return docking


def any_docking(by_rows: int, by_cols: int) -> bool:
    """Whether the board with these `occupied` masks has a docking cell at all: asks
    line after line and stops at the first that has one (every placement asks, 1.3)."""
    for i in range(0, 81, 9):
        if _ROW_DOCKING[(by_rows >> i) & 511] or _ROW_DOCKING[(by_cols >> i) & 511]:
            return True
    return False


def docks(by_rows: int, by_cols: int, cell: int) -> bool:
    """Whether `cell` is a docking cell of the board with these `occupied` masks: asks
    its own row and column alone."""
    r, c = divmod(cell, 9)
    return bool(_ROW_DOCKING[(by_rows >> 9 * r) & 511] >> c & 1 or _ROW_DOCKING[(by_cols >> 9 * c) & 511] >> r & 1)


def cells_of(mask: int) -> list[int]:
    """The cells of a mask by rows, in reading order."""
    cells: list[int] = []
    for r in range(9):
        line = (mask >> 9 * r) & 511
        if line:
            cells += [9 * r + c for c in _ROW_CELLS[line]]
    return cells


def _line_docking(line: int) -> int:
    """The docking cells along one line (a 9-bit mask of its occupied cells, bit i its
    i-th cell): the cell before its first stone and the one after its last, where that
    is on the board (an occupied edge cell offers nothing, 2.2)."""
    docking = 0
    if line:
        if not line & 1:
            docking |= (line & -line) >> 1
        if not line & 256:
            docking |= 1 << line.bit_length()
    return docking


def unreachable_cells(cells: Sequence[int]) -> list[int]:
    """The empty cells no stone can ever reach (3.3), by cell index: each of their four
    straight paths to the edge holds a stone, and stones never move. A cell on the edge
    has an empty path (of no cells) and so is never unreachable."""
    _check(cells)
    return [
        c
        for c in CELLS
        if not cells[c] and all(any(cells[p] for p in path) for path, _ in _APPROACHES[c])
    ]


def _docks_when_empty(cells: Sequence[int], cell: int) -> bool:
    """Whether `cell` is a docking cell of the board with `cell` emptied (whatever it
    holds now): on one of its lines the path to the edge is empty and the next cell
    beyond it holds the stone to dock against. The rule in plain words: `peel` asks
    `_line_docks` the same on bit masks, and the tests hold the two to each other."""
    return any(
        beyond is not None and cells[beyond] and not any(cells[p] for p in path)
        for path, beyond in _APPROACHES[cell]
    )


@dataclass(frozen=True, slots=True)
class Deal:
    """A generated game (7.1): the solution, the start (0 for empty) and the given
    digits as (cell, digit) in the order they are given."""

    solution: tuple[int, ...]
    start: tuple[int, ...]
    order: tuple[tuple[int, int], ...]


def solution_grid(seed: str) -> tuple[int, ...]:
    """A complete valid Sudoku grid dealt from the seed.

    A base pattern (row r, column c holds (3(r mod 3) + r div 3 + c) mod 9 + 1) keeps the
    Sudoku rule under each transformation applied: a seeded relabelling of the digits
    (label "domino-digits"), the bands and the rows within each band reordered
    ("domino-rows", "domino-rows-0".."-2"), the stacks and the columns within each
    ("domino-cols", "domino-cols-0".."-2"), and a transpose on a draw of 1
    ("domino-transpose"). All through the dealer's SHA-256 draws, so every machine and
    Python version deals the same grid.
    """
    digits, *lines = shuffles(seed, [("domino-digits", range(1, 10))] + _LINE_SHUFFLES)
    rows, cols = _within_bands(lines[:4]), _within_bands(lines[4:])
    transpose, _ = draw(seed, "domino-transpose", 2)
    twice = digits + digits  # digits[(n + j) % 9] is twice[n + j] for n, j in 0..8
    starts = [3 * (i % 3) + i // 3 for i in rows]  # the base pattern's row i, from its column 0
    if transpose:  # transposed last: row r, column c holds what row c, column r held
        return tuple(twice[n + j] for j in cols for n in starts)
    return tuple(twice[n + j] for n in starts for j in cols)


#: The shuffles of the lines: for rows, then columns, the order of the bands and the
#: order within band 0, 1 and 2 (`_within_bands`).
_LINE_SHUFFLES = [(f"domino-{lines}{band}", range(3)) for lines in ("rows", "cols") for band in ("", "-0", "-1", "-2")]


def _within_bands(orders: list[list[int]]) -> list[int]:
    """A seeded order of the lines 0..8 that keeps each band of three together, from
    the order of the bands and the order within each band."""
    bands, *within = orders
    return [3 * band + i for band in bands for i in within[band]]


def peel(seed: str, cells: Sequence[int], givens: int) -> list[int]:
    """The cells to empty, in order, until `givens` stones remain (7.1's reverse peeling).

    Each cell removed is chosen by the seed (label "domino-peel") among the stones that
    would be a docking cell once empty. Such choices can run into a dead end, a board
    where no stone qualifies (scattered stones, none backed by a neighbour; 5 of 3,000
    seeds down to 17 givens, none down to 20), so the peel is a depth-first search: it
    puts the last stone back and draws again among the rest, remembering the boards that
    lead nowhere. It gives up only when every removal sequence is tried, so it finishes
    whenever any peel exists, and from a full grid one always does: empty the cells in
    reading order, and each docks against the stone below it in its column, or, in the
    last row, against the next stone in the row.
    Raises ValueError when the board has no peel to `givens` stones.

    Every load of a game deals again, so the search runs on bit masks (see
    `_line_docks`): the board by rows and by columns, and the stones that would dock,
    kept line by line, as only the emptied cell's row and column change.
    """
    stones, by_cols = occupied(cells)  # the board's stones, by rows and by columns
    to_remove = stones.bit_count() - givens
    removed: list[int] = []
    # the stones that would dock once empty, as masks of the board: along their row, and
    # along their column (one line's stones in each 9-bit field, or every 9th bit, of it)
    along_rows = sum(_ROW_DOCKS[(stones >> 9 * r) & 511] << 9 * r for r in range(9))
    along_cols = sum(_COL_DOCKS[(by_cols >> 9 * c) & 511] << c for c in range(9))
    left = along_rows | along_cols  # the stones not yet tried after this many removals
    untried: list[int] = []  # `left` of each removal before, to go back to
    dead: set[int] = set()  # boards with no way on, as masks
    number = draws(seed, "domino-peel", to_remove)  # one draw a removal, unless it backtracks
    row_docks, col_docks, row_cells, cell_bits = _ROW_DOCKS, _COL_DOCKS, _ROW_CELLS, _CELL_BITS
    while len(removed) < to_remove:
        if left:
            j = number(left.bit_count())
            # the j-th stone of `left` (the draw's order is the cell order): its band of
            # three rows, then its row
            band = left & _BAND
            count = band.bit_count()
            if j < count:
                first = 0
            else:
                j -= count
                band = (left >> 27) & _BAND
                count = band.bit_count()
                if j < count:
                    first = 27
                else:
                    j -= count
                    band = left >> 54
                    first = 54
            line = band & 511
            count = line.bit_count()
            if j >= count:
                j -= count
                line = (band >> 9) & 511
                count = line.bit_count()
                first += 9
                if j >= count:
                    j -= count
                    line = band >> 18
                    first += 9
            cell = first + row_cells[line][j]
            bit, col_bit, r9, c9, c, not_row, not_col = cell_bits[cell]
            left ^= bit
            if dead and stones ^ bit in dead:
                continue
            stones ^= bit
            by_cols ^= col_bit
            removed.append(cell)
            untried.append(left)
        else:  # a dead end: put the last stone back and choose differently
            dead.add(stones)
            if not removed:
                raise ValueError(f"no peel leaves {counted(givens, 'stone')} on this board")
            cell = removed.pop()
            bit, col_bit, r9, c9, c, not_row, not_col = cell_bits[cell]
            stones |= bit
            by_cols |= col_bit
        # only the changed cell's row and column dock differently
        along_rows = (along_rows & not_row) | row_docks[(stones >> r9) & 511] << r9
        along_cols = (along_cols & not_col) | col_docks[(by_cols >> c9) & 511] << c
        # a stone taken: choose among those of the board now; put back: among the rest
        left = untried.pop() if stones & bit else along_rows | along_cols
    return removed


def _line_docks(line: int) -> int:
    """The stones of one line (a 9-bit mask, bit i its i-th cell) that would be a
    docking cell along it once empty: the first stone from either end, when the next
    cell beyond it holds a stone (`_docks_when_empty` along one line)."""
    docks = 0
    if line:
        first = line & -line
        if line & (first << 1):
            docks |= first
        last = 1 << (line.bit_length() - 1)
        if line & (last >> 1):
            docks |= last
    return docks


#: _TRANSPOSED[c]: cell c's bit in a board by columns
_TRANSPOSED = [(c % 9) * 9 + c // 9 for c in CELLS]
#: by a row's 9-bit mask: its stones that would dock along it, as bits of row 0
_ROW_DOCKS = [_line_docks(line) for line in range(512)]
#: by a column's 9-bit mask (bit r: row r): those along it, as bits of column 0
_COL_DOCKS = [sum(1 << 9 * r for r in range(9) if d >> r & 1) for d in map(_line_docks, range(512))]
#: the cells of column 0, as a mask of the board
_COLUMN_0 = sum(1 << 9 * r for r in range(9))
#: by a row's 9-bit mask: the columns of its stones, in order
_ROW_CELLS = [tuple(i for i in range(9) if line >> i & 1) for line in range(512)]
#: the cells of a band of three rows, as a mask of the first band
_BAND = (1 << 27) - 1
#: by cell: its bit by rows and by columns, its row's first cell, its column's first
#: cell by columns, its column, and the masks by rows of all but its row and of all but
#: its column
_CELL_BITS = [
    (1 << c, 1 << _TRANSPOSED[c], c - c % 9, 9 * (c % 9), c % 9, ~(511 << (c - c % 9)), ~(_COLUMN_0 << (c % 9)))
    for c in CELLS
]
#: by a line's 9-bit mask: its docking cells, as bits of row 0 and of column 0
_ROW_DOCKING = [_line_docking(line) for line in range(512)]
_COL_DOCKING = [sum(1 << 9 * r for r in range(9) if d >> r & 1) for d in map(_line_docking, range(512))]


def generate(seed: str, givens: int = 30) -> Deal:
    """Start position and digit order of a game from the seed (7.1).

    The solution grid comes from `solution_grid`, the peel from `peel`; the removed stones
    in reverse order of removal are the order, so placing each given digit on its cell
    docks every time and solves the game (3.2).
    """
    if not seed:
        raise UsageError("the seed is empty: a game is dealt from a seed of at least one character")
    if not MIN_GIVENS <= givens <= MAX_GIVENS:
        raise UsageError(f"givens must be from {MIN_GIVENS} to {MAX_GIVENS}, not {givens}")
    solution = solution_grid(seed)
    removed = peel(seed, solution, givens)
    start = list(solution)
    for cell in removed:
        start[cell] = 0
    back = removed[::-1]
    return Deal(solution, tuple(start), tuple(zip(back, map(solution.__getitem__, back))))


def deal_json(seed: str, givens: int, deal: Deal) -> dict[str, object]:
    """A deal as `corr puzzle domino --json` prints it: the start and the order."""
    from corr.geometry import name
    from corr.puzzles.appendix import puzzle_text

    order = [{"cell": name(cell), "digit": digit} for cell, digit in deal.order]
    return {"seed": seed, "givens": givens, "start": puzzle_text(list(deal.start)), "order": order}


def deal_text(deal: Deal) -> str:
    """A deal as `corr puzzle domino` prints it: the start, then each digit of the order
    with the cell it docks on."""
    from corr.geometry import name
    from corr.puzzles.appendix import puzzle_text

    width = len(str(len(deal.order)))
    lines = [f"start: {puzzle_text(list(deal.start))}", f"order: {counted(len(deal.order), 'digit')}"]
    lines += [f"  {n:>{width}}. {digit} {name(cell)}" for n, (cell, digit) in enumerate(deal.order, 1)]
    return "\n".join(lines) + "\n"
