"""A 9x9 Sudoku grid that keeps its candidates up to date as tiles are placed.

Games ask two questions after every placement: where can each digit still go, and which
field just lost its last place for some digit. Keeping per-cell candidate masks and
per-field counts incrementally answers both in a few dozen operations per move, which
is what makes replaying thousands of records cheap.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import Sequence

from corr.errors import IllegalMove
from corr.geometry import ALL_DIGITS_MASK, COL_CELLS, DIGITS, FIELD_CELLS, FIELD_OF, PEERS, ROW_CELLS, name, with_article
from corr.puzzles.appendix import parse_puzzle

_ROW = [c // 9 for c in range(81)]
_COL = [c % 9 for c in range(81)]
_BOX = [FIELD_OF[c] - 1 for c in range(81)]
#: _DIGITS_OF[mask]: the digits set in a candidate mask, ascending (masks use bits 1..9;
#: bit 0 is ignored). Built lowest bit first, which keeps the import cheap.
_DIGITS_OF: list[tuple[int, ...]] = [()] * (1 << 10)
for _m in range(1, 1 << 10):
    _low = _m & -_m
    _DIGITS_OF[_m] = (_low.bit_length() - 1,) + _DIGITS_OF[_m ^ _low] if _low > 1 else _DIGITS_OF[_m ^ _low]
del _m, _low
#: _BITS[d]: the mask bit of digit d (none for 0).
_BITS = (0,) + tuple(1 << d for d in DIGITS)
#: _PEER_FIELDS[c]: (peer, its field) for each peer of c, in PEERS order.
_PEER_FIELDS: list[tuple[tuple[int, int], ...]] = [
    tuple(zip(PEERS[c], map(FIELD_OF.__getitem__, PEERS[c]))) for c in range(81)
]
#: Grids built from a board before, by the board's bytes (see Grid.__init__).
_MADE: dict[bytes, "Grid"] = {}
_MADE_MAX = 64


@lru_cache(maxsize=64)
def givens(puzzle: str) -> tuple[int, ...]:
    """A puzzle's cells as `parse_puzzle` reads them, remembered: every replay of a game
    from a puzzle starts from them, and reading the text costs a short game's records."""
    return tuple(parse_puzzle(puzzle))


class Grid:
    """Cells, unit masks, candidate masks and per-field candidate counts."""

    __slots__ = ("cells", "packed", "rows", "cols", "boxes", "cand", "fcount", "counts", "options")

    def __init__(self, cells: Sequence[int] | None = None) -> None:
        self.cells = list(cells) if cells is not None else [0] * 81
        self.packed = bytearray(self.cells)  # raises for a cell not 0..255, as `cell_bytes` would
        # Every game starts from the same few boards, and building one's candidates
        # costs as much as ~15 placements: remember what rebuild() made for a board (by
        # its exact bytes; cells that are not 0..255 are never remembered) and copy it.
        key = bytes(self.packed)
        made = _MADE.get(key)
        if made is not None:
            self._take(made)
            return
        self.rebuild()
        if len(_MADE) >= _MADE_MAX:
            _MADE.clear()
        _MADE[key] = self.copy()  # a private template, only ever copied from

    def rebuild(self) -> None:
        """Recompute everything from `cells` (after a tile is taken back)."""
        cells = self.cells
        rows = [0] * 9
        cols = [0] * 9
        boxes = [0] * 9
        counts = [0] * 10
        for c, d in enumerate(cells):
            if d:
                bit = 1 << d
                rows[_ROW[c]] |= bit
                cols[_COL[c]] |= bit
                boxes[_BOX[c]] |= bit
                counts[d] += 1
        cand = [0] * 81
        fcount = [[0] * 10 for _ in range(10)]
        digits_of = _DIGITS_OF
        options = 0
        for c in range(81):
            if not cells[c]:
                box = _BOX[c]
                mask = ALL_DIGITS_MASK & ~(rows[_ROW[c]] | cols[_COL[c]] | boxes[box])
                cand[c] = mask
                counter = fcount[box + 1]
                for d in digits_of[mask]:
                    counter[d] += 1
                    options += 1
        self.rows, self.cols, self.boxes, self.counts = rows, cols, boxes, counts
        self.cand, self.fcount, self.options = cand, fcount, options

    def copy(self) -> Grid:
        other = Grid.__new__(Grid)
        other.cells = self.cells[:]
        other.packed = self.packed[:]
        other._take(self)
        return other

    def _take(self, other: Grid) -> None:
        """Copy everything but `cells` from another grid of the same cells."""
        self.rows = other.rows[:]
        self.cols = other.cols[:]
        self.boxes = other.boxes[:]
        self.counts = other.counts[:]
        self.cand = other.cand[:]
        self.fcount = list(map(list.copy, other.fcount))
        self.options = other.options

    def place(self, cell: int, digit: int) -> list[tuple[int, int]]:
        """Put `digit` on the empty `cell`; return the (field, digit) pairs whose last
        candidate place this removed."""
        zeroed: list[tuple[int, int]] = []
        cand = self.cand
        fcount = self.fcount
        own = cand[cell]
        field = FIELD_OF[cell]
        removed = 0  # candidate (cell, digit) pairs this placement takes away
        if own:
            counter = fcount[field]
            for d in _DIGITS_OF[own]:
                counter[d] -= 1
                removed += 1
                if not counter[d]:
                    zeroed.append((field, d))
            cand[cell] = 0
        bit = 1 << digit
        self.cells[cell] = digit
        self.packed[cell] = digit
        self.rows[_ROW[cell]] |= bit
        self.cols[_COL[cell]] |= bit
        self.boxes[field - 1] |= bit
        self.counts[digit] += 1
        for p, f in _PEER_FIELDS[cell]:
            if cand[p] & bit:
                cand[p] ^= bit
                removed += 1
                counter = fcount[f]
                counter[digit] -= 1
                if not counter[digit]:
                    zeroed.append((f, digit))
        self.options -= removed
        return zeroed

    def remove(self, cell: int) -> None:
        """Take a tile back off the board."""
        self.cells[cell] = 0
        self.packed[cell] = 0
        self.rebuild()

    def field_has(self, field: int) -> int:
        """Mask of the digits already in a field."""
        return self.boxes[field - 1]

    def placeable(self, field: int) -> int:
        """Mask of the digits that can still legally go somewhere in a field."""
        # distinct bits, so their sum is their union; _BITS[0] is 0 (slot 0 is unused)
        return sum(compress(_BITS, self.fcount[field]))

    def places_for(self, field: int, digit: int) -> list[int]:
        """The empty cells of a field where `digit` may legally go."""
        bit = 1 << digit
        return [c for c in FIELD_CELLS[field] if self.cand[c] & bit]

    def fits(self, cell: int, digit: int) -> bool:
        """Whether `digit` on the empty `cell` keeps the Sudoku rule."""
        return bool(self.cand[cell] >> digit & 1)

    def clashes(self, cell: int, digit: int) -> list[tuple[str, int, int]]:
        """(unit kind, unit number, cell) for each tile of `digit` the placement would repeat."""
        found: list[tuple[str, int, int]] = []
        for kind, number, cells in (
            ("row", _ROW[cell] + 1, ROW_CELLS[_ROW[cell]]),
            ("column", _COL[cell] + 1, COL_CELLS[_COL[cell]]),
            ("field", _BOX[cell] + 1, FIELD_CELLS[_BOX[cell] + 1]),
        ):
            for c in cells:
                if c != cell and self.cells[c] == digit:
                    found.append((kind, number, c))
        return found

    def any_candidate(self, digits_mask: int = ALL_DIGITS_MASK) -> bool:
        """Whether some empty cell takes some digit of `digits_mask`."""
        if digits_mask == ALL_DIGITS_MASK:
            return self.options > 0
        for mask in self.cand:
            if mask & digits_mask:
                return True
        return False

    def cell_bytes(self) -> bytes:
        """`bytes(cells)`, kept up to date as tiles come and go: every state hash of a
        grid game starts with it, and packing the list anew costs most of the hash."""
        return bytes(self.packed)

    def text(self) -> str:
        """The 81 cells as digits and dots, row by row."""
        return "".join(str(d) if d else "." for d in self.cells)


def describe_clashes(digit: int, clashes: list[tuple[str, int, int]]) -> str:
    """`a 7 already stands at (5,4) in row 5 and field 5 and at (4,6) in column 3`."""
    units: dict[int, list[str]] = {}
    for kind, number, c in clashes:
        units.setdefault(c, []).append(f"{kind} {number}")
    parts = [f"at {name(c)} in {' and '.join(where)}" for c, where in units.items()]
    return f"{with_article(digit)} already stands " + " and ".join(parts)


def sudoku_break(grid: Grid, cell: int, digit: int, rule: str) -> IllegalMove | None:
    """The break of the Sudoku rule that `digit` on the empty `cell` would make, citing
    `rule` and naming the tiles it repeats; None when it fits."""
    if grid.fits(cell, digit):
        return None
    clashes = grid.clashes(cell, digit)
    return IllegalMove(
        rule,
        f"{digit} at {name(cell)} breaks the Sudoku rule: {describe_clashes(digit, clashes)}",
        (cell,) + tuple(c for _, _, c in clashes),
    )
