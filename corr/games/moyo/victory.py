"""Moyo 4.2: victory points, the longest run of stones one player could place alone.

Which stones fit together does not depend on their order (the Sudoku rule only forbids
a digit twice in a unit), so in the Shima the question is: how many of the seat's empty
places can be filled at once without two equal digits in a row, column or field? A
problem is a tuple of (cell, candidate mask) pairs, cells ascending, masks non-zero:
only these cells and what they could take matter, so it is its own memo key. The
search takes the safe stones (a digit no open peer could take), splits the rest into
independent parts, and branches on the cell with the fewest digits - each of its
digits, or leaving it empty - cut off by an upper bound. While the Azumaya is open the
lone player must fill it first (3.1): every way of filling it until nothing more fits
is tried, each followed by the best Shima play.
"""

from __future__ import annotations

from corr.geometry import DIGITS, FIELD_OF, PEERS

#: For every candidate mask (bit d: digit d), how many digits it holds, and which, ascending:
#: the tables every part of Moyo that reads masks shares.
POP: list[int] = [bin(m).count("1") for m in range(1 << 10)]
MASK_DIGITS: list[tuple[int, ...]] = [tuple(d for d in DIGITS if m >> d & 1) for m in range(1 << 10)]
_PEER_BITS: list[int] = [sum(1 << p for p in PEERS[c]) for c in range(81)]
_UNITS_OF: list[tuple[int, int, int]] = [(c // 9, 9 + c % 9, 17 + FIELD_OF[c]) for c in range(81)]
Problem = tuple[tuple[int, int], ...]
#: Solved problems, shared between searches (a problem is the same wherever it comes from).
_MEMO: dict[Problem, int] = {}
_OPENINGS: dict[tuple[Problem, Problem], int] = {}
_MEMO_MAX = 200_000


def most_stones(cand: list[int], azumaya: tuple[int, ...], shima: list[int]) -> int:
    """The most stones a lone player could place one after another: while any stone fits
    the Azumaya (the cells `azumaya`) only there, then on the cells `shima`; `cand` holds
    each cell's candidate mask."""
    if len(_MEMO) > _MEMO_MAX:
        _MEMO.clear()
        _OPENINGS.clear()
    rest: Problem = tuple(sorted((c, cand[c]) for c in shima if cand[c]))
    order = [c for c in azumaya if cand[c]]
    if not order:
        return _most(rest)
    key = (tuple((c, cand[c]) for c in order), rest)
    got = _OPENINGS.get(key)
    if got is None:
        got = _OPENINGS[key] = _opening(order, {c: cand[c] for c in order}, rest)
    return got


def _opening(order: list[int], masks: dict[int, int], rest: Problem) -> int:
    """The best of every way to fill the open Azumaya cells `order` until no stone fits
    there (3.1), each followed by the most stones on the Shima problem `rest`."""
    best = 0

    def fill(i: int, masks: dict[int, int], skipped: tuple[int, ...], rest: Problem, placed: int) -> None:
        """Azumaya cell order[i] on: each digit it may take, or left empty for good (then
        nothing may fit it once the Azumaya is closed)."""
        nonlocal best
        later = 0  # what the cells still to decide could take: all that can close a skipped one
        for c in order[i:]:
            later |= masks[c]
        if any(masks[c] & ~later for c in skipped):
            return  # a skipped cell keeps a digit nothing can take away: the Azumaya never closes
        if i == len(order):
            best = max(best, placed + _most(rest))
            return
        if _beaten(rest, best - placed - sum(1 for c in order[i:] if masks[c])):
            return
        cell = order[i]
        mask = masks[cell]
        if not mask:  # nothing fits here any more
            fill(i + 1, masks, skipped, rest, placed)
            return
        peers = _PEER_BITS[cell]
        for d in MASK_DIGITS[mask]:
            bit = 1 << d
            after = {c: m & ~bit if peers >> c & 1 else m for c, m in masks.items()}
            after[cell] = 0
            fill(i + 1, after, skipped, _place(rest, cell, d), placed + 1)
        fill(i + 1, masks, skipped + (cell,), rest, placed)

    fill(0, masks, (), rest, 0)
    return best


def _place(problem: Problem, cell: int, digit: int) -> Problem:
    """The problem after `digit` goes on `cell`: the cell leaves, its peers lose the digit."""
    bit = 1 << digit
    peers = _PEER_BITS[cell]
    out = []
    for c, m in problem:
        if c != cell:
            if m & bit and peers >> c & 1:
                m ^= bit
                if not m:
                    continue
            out.append((c, m))
    return tuple(out)


def _bound(problem: Problem) -> int:
    """A quick upper bound on the stones a problem takes: in each row (column, field) no
    more than its open cells and than the digits they could take; each digit no more
    often than the rows (columns, fields) it could go in."""
    union = [0] * 27
    count = [0] * 27
    where = [[0, 0, 0] for _ in range(10)]
    for c, m in problem:
        r, k, f = _UNITS_OF[c]
        union[r] |= m
        union[k] |= m
        union[f] |= m
        count[r] += 1
        count[k] += 1
        count[f] += 1
        for d in MASK_DIGITS[m]:
            spots = where[d]
            spots[0] |= 1 << r
            spots[1] |= 1 << k
            spots[2] |= 1 << f
    best = len(problem)
    for lo in (0, 9, 18):
        best = min(best, sum(min(count[u], POP[union[u]]) for u in range(lo, lo + 9)))
    per_digit = sum(min(bin(r).count("1"), bin(k).count("1"), bin(f).count("1")) for r, k, f in where[1:])
    return min(best, per_digit)


def _tight_bound(problem: Problem) -> int:
    """A closer upper bound, dearer to compute: in each row (column, field) no more than a
    matching of its open cells to distinct digits they could take."""
    units: list[list[int]] = [[] for _ in range(27)]
    for c, m in problem:
        r, k, f = _UNITS_OF[c]
        units[r].append(m)
        units[k].append(m)
        units[f].append(m)
    return min(sum(matching(units[u]) for u in range(lo, lo + 9)) for lo in (0, 9, 18))


def _beaten(problem: Problem, best: int) -> bool:
    """Whether the problem surely takes no more than `best` stones (the quick bound
    first, the closer one only when the quick one does not tell)."""
    return _bound(problem) <= best or _tight_bound(problem) <= best


def matching(masks: list[int] | tuple[int, ...]) -> int:
    """The most cells of one unit that can take distinct digits at once (a maximum
    matching of cells to digits, by augmenting paths)."""
    n = len(masks)
    if n < 2 or min(POP[m] for m in masks) >= n:
        return n  # every cell has digits enough whatever the others take
    union = 0
    for m in masks:
        union |= m
    if POP[union] == 1:
        return 1
    taken: dict[int, int] = {}  # digit -> index of the cell that has it
    seen = [0]  # digits tried in the current search for an augmenting path

    def augment(i: int) -> bool:
        for d in MASK_DIGITS[masks[i] & ~seen[0]]:
            if seen[0] >> d & 1:
                continue
            seen[0] |= 1 << d
            j = taken.get(d)
            if j is None or augment(j):
                taken[d] = i
                return True
        return False

    count = 0
    for i in range(len(masks)):
        seen[0] = 0
        count += augment(i)
    return count


def _most(problem: Problem) -> int:
    """The most of the problem's cells that can be filled together."""
    got = _MEMO.get(problem)
    if got is not None:
        return got
    count = 0
    cells = list(problem)
    again = True
    while again:  # safe stones: a digit no open peer could take costs nothing
        again = False
        for i, (c, m) in enumerate(cells):
            peers = _PEER_BITS[c]
            others = 0
            for p, pm in cells:
                if peers >> p & 1:
                    others |= pm
            if m & ~others:
                del cells[i]
                count += 1
                again = True
                break
    for part in _parts(cells):
        count += _branch(part)
    _MEMO[problem] = count
    return count


def _parts(cells: list[tuple[int, int]]) -> list[Problem]:
    """Independent parts: cells are linked when they share a unit and a digit."""
    n = len(cells)
    if n < 2:
        return [tuple(cells)] if cells else []
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        ci, mi = cells[i]
        peers = _PEER_BITS[ci]
        for j in range(i + 1, n):
            cj, mj = cells[j]
            if mi & mj and peers >> cj & 1:
                parent[root(i)] = root(j)
    groups: dict[int, list[tuple[int, int]]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(cells[i])
    return [tuple(g) for g in groups.values()]


def _branch(problem: Problem) -> int:
    """Decide one cell - the one with the fewest digits, then the most rivals - every
    way, keeping the best; a branch that cannot beat the best so far is skipped."""
    got = _MEMO.get(problem)
    if got is not None:
        return got
    if len(problem) == 1:
        return 1
    top = _bound(problem)
    pick, pick_key = 0, (99, 0)
    for i, (c, m) in enumerate(problem):
        peers = _PEER_BITS[c]
        key = (POP[m], -sum(1 for p, pm in problem if pm & m and peers >> p & 1))
        if key < pick_key:
            pick, pick_key = i, key
    cell, mask = problem[pick]
    best = 0
    for d in MASK_DIGITS[mask]:
        child = _place(problem, cell, d)
        if not _beaten(child, best - 1):
            best = max(best, 1 + _most(child))
            if best >= top:
                break
    if best < top:
        child = problem[:pick] + problem[pick + 1:]
        if not _beaten(child, best):
            best = max(best, _most(child))
    _MEMO[problem] = best
    return best
