"""Who plays whom: Berger tables for round robins, seeded brackets for knockouts, and
tables of N seats where every player meets every other as evenly as the numbers allow.

Every pairing here follows from the event's header and, for a knockout, the results so
far: nothing is drawn at random that the log does not fix, so an audit can pair each
round again and compare. Players are numbered from 1 in the order the event lists them,
which is also their seeding.
"""

from __future__ import annotations

import math
import random
from functools import cache
from typing import NamedTuple, Sequence

from corr.errors import UsageError

#: A round's games: each table's players in seat order (A, B, ...).
Tables = list[tuple[int, ...]]


def berger(count: int) -> list[Tables]:
    """The FIDE Berger tables for `count` players: count-1 rounds (count, with an odd
    number, where whoever meets the extra number count+1 has a bye), each player meeting
    each other once, first seat and second alternating so each has it (count-1)/2 times,
    rounded."""
    n = count + count % 2
    m = n - 1
    rounds: list[Tables] = []
    for r in range(m):
        first = (r * (n // 2)) % m  # the player meeting n, as an index 0..m-1
        tables: Tables = [(first + 1, n) if r % 2 == 0 else (n, first + 1)]
        for i in range(1, n // 2):
            tables.append(((first + i) % m + 1, (first - i) % m + 1))
        rounds.append(tables)
    return rounds


def bracket(size: int) -> list[int]:
    """The seeds in bracket order for a knockout of `size` (a power of two) places:
    1 meets `size`, and the best two seeds can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def knockout_rounds(count: int) -> int:
    """The rounds a knockout of `count` players takes."""
    return max(1, math.ceil(math.log2(count)))


class Round(NamedTuple):
    tables: Tables
    byes: list[int]


def knockout(count: int, previous: Sequence[Sequence[int]]) -> list[int]:
    """The players still in, in bracket order, with 0 where a bye fills a place:
    `previous` lists each earlier round's winners (in bracket order, 0 for nobody)."""
    size = 2 ** knockout_rounds(count)
    field_ = [seed if seed <= count else 0 for seed in bracket(size)]
    for winners in previous:
        field_ = list(winners)
    return field_


def knockout_round(alive: Sequence[int]) -> Round:
    """One knockout round from the players still in (bracket order, 0 for a bye): the
    better seed (the smaller number) sits first; a player facing nobody has a bye."""
    tables: Tables = []
    byes: list[int] = []
    for a, b in zip(alive[::2], alive[1::2]):
        if a and b:
            tables.append((min(a, b), max(a, b)))
        elif a or b:
            byes.append(a or b)
    return Round(tables, byes)


def table_sizes(count: int, seats: int) -> list[int]:
    """`count` players at as few tables of at most `seats` as hold them, as even as can be."""
    tables = math.ceil(count / seats)
    small, extra = divmod(count, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def rounds_to_meet(count: int, seats: int) -> int:
    """The fewest rounds in which, at tables of `seats`, each player can meet every other."""
    return max(1, math.ceil((count - 1) / (seats - 1)))


@cache
def tables_schedule(count: int, seats: int, rounds: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Rounds of tables of at most `seats` for `count` players, in which each two players
    meet as evenly as the numbers allow (a search: many whole schedules are tried, each
    improved table by table, the most even kept), and each player sits in each seat as
    often as the others, within one. The search's random numbers are seeded from the
    numbers alone, so the same event always gets the same schedule."""
    rng = random.Random(f"corr tables {count} {seats} {rounds}")
    players = list(range(1, count + 1))
    sizes = table_sizes(count, seats)
    best: list[list[list[int]]] | None = None
    best_cost: tuple[int, int] | None = None
    for _ in range(300):
        met = [[0] * (count + 1) for _ in range(count + 1)]
        schedule = []
        for _round in range(rounds):
            tables = _one_round(players, sizes, met, rng)
            for table in tables:
                for a in table:
                    for b in table:
                        if a != b:
                            met[a][b] += 1
            schedule.append(tables)
        seated = _seat(schedule)
        firsts = [sum(t[0] == p for r in seated for t in r) for p in players]
        counts = [met[a][b] for a in players for b in players if a < b]
        cost = (max(counts) - min(counts) + max(firsts) - min(firsts), sum(c * c for c in counts))
        if best_cost is None or cost < best_cost:
            best, best_cost = seated, cost
        if cost[0] <= 2 and cost[1] == _least_squares(count, sizes, rounds):
            break
    assert best is not None
    return tuple(tuple(tuple(t) for t in r) for r in best)


def _least_squares(count: int, sizes: list[int], rounds: int) -> int:
    """The smallest sum of squared meeting counts the meetings could have: spread evenly."""
    pairs = count * (count - 1) // 2
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    low, extra = divmod(meetings, pairs)
    return extra * (low + 1) ** 2 + (pairs - extra) * low * low


def _one_round(players: list[int], sizes: list[int], met: list[list[int]], rng: random.Random) -> list[list[int]]:
    """Players split into tables of `sizes`, then players swapped between tables while a
    swap lowers the squared meeting counts (the pairs met often, met less)."""
    order = players[:]
    rng.shuffle(order)
    tables, at = [], 0
    for size in sizes:
        tables.append(order[at:at + size])
        at += size

    def cost(table: list[int]) -> int:
        return sum((met[a][b] + 1) ** 2 for i, a in enumerate(table) for b in table[i + 1:])

    better = True
    while better:
        better = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                for x in range(len(tables[i])):
                    for y in range(len(tables[j])):
                        before = cost(tables[i]) + cost(tables[j])
                        tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
                        if cost(tables[i]) + cost(tables[j]) < before:
                            better = True
                        else:
                            tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
    return tables


def _seat(schedule: list[list[list[int]]]) -> list[list[list[int]]]:
    """Each table's players in seat order: seat by seat, the player who has sat there
    least so far (then the one with the smaller number)."""
    sat: dict[tuple[int, int], int] = {}
    seated = []
    for tables in schedule:
        out = []
        for table in tables:
            left, order = sorted(table), []
            for seat in range(len(table)):
                pick = min(left, key=lambda p: (sat.get((p, seat), 0), sum(sat.get((p, s), 0) for s in range(seat)), p))
                left.remove(pick)
                order.append(pick)
                sat[(pick, seat)] = sat.get((pick, seat), 0) + 1
            out.append(order)
        seated.append(out)
    return seated


def planned_rounds(system: str, count: int, seats: int, rounds: int | None) -> int:
    """How many rounds an event of `system` plays; refuses a --rounds it cannot take."""
    if system == "swiss":
        if seats != 2:  # a Swiss of tables: players meet again when they must, so no upper bound but a sane one
            natural = max(1, math.ceil(math.log(count, seats))) if count > seats else 1
            if rounds is not None and not 1 <= rounds <= 50:
                raise UsageError(f"--rounds {rounds}: a Swiss plays 1 to 50 rounds")
            return natural if rounds is None else rounds
        most = count - 1 + count % 2  # beyond this some pair would meet twice
        natural = min(most, max(1, math.ceil(math.log2(count))))
        if rounds is not None and not 1 <= rounds <= most:
            raise UsageError(f"--rounds {rounds}: a Swiss of {count} players plays 1 to {most} rounds")
        return natural if rounds is None else rounds
    cycles = 2 if system == "double-round-robin" else 1
    if system == "knockout":
        if seats != 2:
            raise UsageError("--system knockout is for games of two (--table 2)")
        natural = knockout_rounds(count)
    elif seats == 2:
        natural = len(berger(count)) * cycles
    else:
        natural = rounds_to_meet(count, seats) * cycles
        if rounds is not None:
            if rounds % cycles:
                raise UsageError(f"--rounds {rounds}: a double round robin plays each round twice, so an even number")
            return rounds
    if rounds is not None and rounds != natural:
        raise UsageError(f"--rounds {rounds}: a {system} of {count} players plays {natural} rounds"
                         + (" at tables of two" if system != "knockout" else ""))
    return natural


def round_robin(count: int, seats: int, rounds: int, double: bool, number: int) -> Tables:
    """Round `number` (from 1) of a round robin: Berger tables at tables of two, the
    even tables of `tables_schedule` at larger ones. A double round robin plays the first
    cycle again with the seats reversed."""
    cycle = rounds // 2 if double else rounds
    index = (number - 1) % cycle
    if seats == 2:
        tables = [t for t in berger(count)[index] if max(t) <= count]
    else:
        tables = list(tables_schedule(count, seats, cycle)[index])
    if number > cycle:
        tables = [tuple(reversed(t)) for t in tables]
    return tables


def without(tables: Tables, gone: set[int], count: int) -> Round:
    """A round's tables without the players who withdrew; who is left alone at a table
    has a bye, as has whoever the pairing left out."""
    kept: Tables = []
    byes: list[int] = []
    for table in tables:
        left = tuple(p for p in table if p not in gone)
        if len(left) >= 2:
            kept.append(left)
        else:
            byes.extend(left)
    seated = {p for t in tables for p in t}
    byes.extend(p for p in range(1, count + 1) if p not in seated and p not in gone)
    return Round(kept, sorted(byes))


def swiss_round(players: list[int], scores: dict[int, float], history: list[list[tuple[int, int | None, float, float]]],
                rounds: int) -> Round:
    """The next round of a Swiss by the FIDE Dutch system (`corr.tournament.swiss`):
    `players` in their starting order, `scores` their points, `history` each round's
    games as (first, second or None for a bye, points of each)."""
    from corr.tournament.swiss import Game, pair_swiss

    games = [[Game(str(a), None if b is None else str(b), (pa, pb)) for a, b, pa, pb in played]
             for played in history]
    pairs, bye = pair_swiss([str(p) for p in players], {str(p): v for p, v in scores.items()}, games,
                            rounds=rounds, bye_points=0.0)
    return Round([(int(a), int(b)) for a, b in pairs], [int(bye)] if bye is not None else [])


def swiss_tables(players: list[int], scores: dict[int, float], met: dict[frozenset[int], int],
                 firsts: dict[int, int], seats: int) -> Round:
    """The next round of a Swiss of tables of up to `seats` (a game of three or more):
    players in order of score (then of seeding) fill the tables in turn, each table
    taking the highest-placed players still free who have met those already at it the
    fewest times, so players of a score sit together and meet again only when they
    must. At each table the player who has sat first the fewest times sits first, then
    the next, and so on (ties: the better seed). `met` counts the games each two
    players played together, `firsts` each player's first seats."""
    order = sorted(players, key=lambda p: (-scores.get(p, 0.0), players.index(p)))
    if len(order) < 2:
        return Round([], order)
    free = list(order)
    tables: Tables = []
    for size in table_sizes(len(order), seats):
        table = [free.pop(0)]
        while len(table) < size:
            pick = min(free, key=lambda p: (sum(met.get(frozenset((p, q)), 0) for q in table), free.index(p)))
            free.remove(pick)
            table.append(pick)
        tables.append(tuple(sorted(table, key=lambda p: (firsts.get(p, 0), players.index(p)))))
    return Round(tables, [])
