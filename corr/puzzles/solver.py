"""A fast pure-Python Sudoku solver: counts solutions exactly (Moyo 6) and grades difficulty.

Solving and counting search in corr.puzzles.cover (the board as one exact-cover bitset:
naked and hidden singles for all of it in a few big-int operations, then the cell with
the fewest candidates). Grading works here on one candidate mask per cell (digit d is
bit `1 << d`, as in corr.geometry), since naked pairs and intersections read cells and
units one at a time.
"""

from __future__ import annotations

from operator import itemgetter

from corr.errors import UsageError
from corr.geometry import ALL_DIGITS_MASK, PEERS, UNITS, name

#: The 27 units as plain tuples of cells, in the order of geometry.UNITS.
_UNIT_CELLS: list[tuple[int, ...]] = [cells for _, _, cells in UNITS]
#: POPCOUNT[mask] for every 10-bit candidate mask (a table beats int.bit_count in a loop).
_POP: list[int] = [bin(m).count("1") for m in range(1 << 10)]

#: Each cell's 20 peers. Built here with the cell itself left out: geometry.PEERS (as of
#: this writing) also lists the cell in its own row and column, which would make every
#: placement eliminate itself.
_PEERS: list[tuple[int, ...]] = [tuple(p for p in PEERS[c] if p != c) for c in range(81)]

#: (unit cells, a getter of the unit's nine masks): itemgetter reads them in one C call.
_UNIT_GETTERS: list[tuple[tuple[int, ...], itemgetter]] = [(u, itemgetter(*u)) for u in _UNIT_CELLS]

def find_clash(cells: list[int]) -> tuple[int, int, str] | None:
    """The first two givens with the same digit in one unit, and the unit ("row 3"); None if none."""
    for kind, number, unit in UNITS:
        seen: dict[int, int] = {}
        for c in unit:
            d = cells[c]
            if d:
                if d in seen:
                    return seen[d], c, f"{kind} {number}"
                seen[d] = c
    return None


def _check_cells(cells: list[int]) -> None:
    """Refuse a malformed cell list or a puzzle whose givens clash (the Sudoku rule)."""
    if len(cells) != 81 or any(not 0 <= d <= 9 for d in cells):
        raise UsageError("a puzzle is 81 cells, each 0 (empty) or a digit 1-9")
    clash = find_clash(cells)
    if clash is not None:
        a, b, unit = clash
        raise UsageError(f"the givens clash: {cells[a]} at {name(a)} and at {name(b)} in {unit} (the Sudoku rule)")


def _initial(cells: list[int]) -> tuple[list[int], list[int]]:
    """Candidate masks with the givens placed, and the givens as the first propagation queue."""
    cand = [ALL_DIGITS_MASK] * 81
    queue = []
    for c, d in enumerate(cells):
        if d:
            cand[c] = 1 << d
            queue.append(c)
    return cand, queue


def _propagate(cand: list[int], queue: list[int]) -> bool:
    """Apply naked and hidden singles in place until stable; False on a contradiction.

    `queue` holds cells that just became single-valued and whose digit must still be
    removed from their peers. A cell may be queued twice; eliminating again is harmless.
    """
    peers = _PEERS
    pop = _POP
    while True:
        while queue:
            c = queue.pop()
            bit = cand[c]
            for p in peers[c]:
                m = cand[p]
                if m & bit:
                    m ^= bit
                    if not m:
                        return False
                    cand[p] = m
                    if pop[m] == 1:
                        queue.append(p)
        for unit, values in _UNIT_GETTERS:
            once = twice = 0
            for m in values(cand):
                twice |= once & m
                once |= m
            if once != ALL_DIGITS_MASK:
                return False  # some digit has no place left in this unit
            single = once & ~twice
            if single:
                for c in unit:
                    m = cand[c]
                    h = m & single
                    if h and m != h:
                        if pop[h] != 1:
                            return False  # two digits can only go in this one cell
                        cand[c] = h
                        queue.append(c)
        if not queue:
            return True


def solve(cells: list[int]) -> list[int] | None:
    """One solution (the first the search finds), or None when there is none."""
    from corr.puzzles.cover import solutions  # its tables take milliseconds to build

    _check_cells(cells)
    found = solutions(cells, 1)
    return found[0] if found else None


def count_solutions(cells: list[int], limit: int = 10_000) -> int:
    """The number of solutions, exact up to `limit`: the search stops once it reaches it."""
    from corr.puzzles.cover import count

    _check_cells(cells)
    return count(cells, limit)


# --- grading -------------------------------------------------------------------------


def _pairs_and_intersections(cand: list[int]) -> bool:
    """One round of naked pairs and pointing/claiming; True if it removed any candidate.

    The caller re-runs singles afterwards; eliminations here never empty a cell in a
    solvable puzzle, and a contradiction shows up in the next propagation.
    """
    changed = False
    pop = _POP
    # Naked pairs: two cells of a unit with the same two candidates own those digits.
    for unit in _UNIT_CELLS:
        pairs: dict[int, int] = {}
        for c in unit:
            m = cand[c]
            if pop[m] == 2:
                a = pairs.get(m, -1)
                if a >= 0 and cand[a] == m:  # still the pair it was when recorded
                    for p in unit:
                        if p != a and p != c and cand[p] & m:
                            cand[p] &= ~m
                            changed = True
                else:
                    pairs[m] = c
    # Intersections: a digit confined to one line within a field (pointing), or to one
    # field within a line (claiming), leaves the rest of the other unit.
    fields = _UNIT_CELLS[18:]
    lines = _UNIT_CELLS[:18]
    for field in fields:
        fset = set(field)
        for line in lines:
            common = [c for c in line if c in fset]
            if not common:
                continue
            in_common = 0
            for c in common:
                in_common |= cand[c]
            rest_field = 0
            for c in field:
                if c not in common:
                    rest_field |= cand[c]
            rest_line = 0
            for c in line:
                if c not in fset:
                    rest_line |= cand[c]
            pointing = in_common & ~rest_field  # only here in the field: off the rest of the line
            claiming = in_common & ~rest_line  # only here in the line: off the rest of the field
            for digits, others in ((pointing, [c for c in line if c not in fset]), (claiming, [c for c in field if c not in common])):
                for c in others:
                    m = cand[c]
                    if pop[m] > 1 and m & digits:
                        cand[c] = m & ~digits
                        changed = True
    return changed


def _solved(cand: list[int]) -> bool:
    return all(_POP[m] == 1 for m in cand)


def grade(cells: list[int]) -> str:
    """How hard a puzzle is for a person: "singles", "pairs" or "search".

    "singles" needs only naked and hidden singles; "pairs" also naked pairs or
    pointing/claiming intersections; "search" needs guessing (always so for a puzzle
    with several solutions, since logic alone cannot pick one).
    """
    _check_cells(cells)
    cand, queue = _initial(cells)
    if not _propagate(cand, queue):
        return "search"
    if _solved(cand):
        return "singles"
    while _pairs_and_intersections(cand):
        queue = [c for c in range(81) if _POP[cand[c]] == 1]
        if any(m == 0 for m in cand) or not _propagate(cand, queue):
            return "search"
        if _solved(cand):
            return "pairs"
    return "search"


def starting_points(cells: list[int]) -> int:
    """How many empty cells a solver can fill at once by a naked or hidden single.

    Moyo 6 wants "several starting points for solving": this counts them.
    """
    _check_cells(cells)
    cand = [1 << d if d else ALL_DIGITS_MASK for d in cells]
    for c, d in enumerate(cells):
        if d:
            for p in _PEERS[c]:
                if not cells[p]:
                    cand[p] &= ~(1 << d)
    points = {c for c in range(81) if not cells[c] and _POP[cand[c]] == 1}
    for unit in _UNIT_CELLS:
        once = twice = 0
        for c in unit:
            m = cand[c]
            twice |= once & m
            once |= m
        single = once & ~twice
        for c in unit:
            if not cells[c] and cand[c] & single:
                points.add(c)
    return len(points)


def is_valid_solution(puzzle: list[int], grid: list[int]) -> bool:
    """True if `grid` is a complete valid Sudoku that keeps every given of `puzzle`."""
    if len(grid) != 81 or any(p and p != g for p, g in zip(puzzle, grid)):
        return False
    return all(sorted(grid[c] for c in unit) == list(range(1, 10)) for unit in _UNIT_CELLS)
