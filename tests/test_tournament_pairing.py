"""Pairings: Berger tables, knockout brackets and tables of more than two seats hold
the properties an event relies on."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from corr.tournament import pairing


def met_and_first(rounds: list[pairing.Tables], count: int) -> tuple[Counter[frozenset[int]], Counter[int]]:
    met: Counter[frozenset[int]] = Counter()
    first: Counter[int] = Counter()
    for tables in rounds:
        for table in tables:
            if max(table) > count:
                continue  # the extra number of an odd count: a bye
            first[table[0]] += 1
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met, first


@pytest.mark.parametrize("count", [4, 5, 6, 8])
def test_berger_tables_meet_each_pair_once_with_first_seats_balanced(count: int) -> None:
    rounds = pairing.berger(count)
    assert len(rounds) == count - 1 + count % 2
    met, first = met_and_first(rounds, count)
    assert set(met) == {frozenset(p) for p in combinations(range(1, count + 1), 2)}
    assert set(met.values()) == {1}
    games = count - 1  # each player's games
    assert all(first[p] in (games // 2, (games + 1) // 2) for p in range(1, count + 1)), first
    for tables in rounds:  # nobody twice in a round
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated))


def test_berger_tables_are_fides_for_six() -> None:
    assert pairing.berger(6) == [
        [(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)],
    ]


def test_berger_for_five_gives_each_player_one_bye() -> None:
    byes = Counter()
    for number in range(1, 6):
        round_ = pairing.without(pairing.round_robin(5, 2, 5, False, number), set(), 5)
        assert len(round_.tables) == 2 and len(round_.byes) == 1
        byes.update(round_.byes)
    assert byes == Counter({p: 1 for p in range(1, 6)})


def test_double_round_robin_plays_the_cycle_again_seats_swapped() -> None:
    first = [pairing.round_robin(4, 2, 6, True, n) for n in range(1, 4)]
    second = [pairing.round_robin(4, 2, 6, True, n) for n in range(4, 7)]
    assert second == [[(b, a) for a, b in tables] for tables in first]
    met, seats = met_and_first(first + second, 4)
    assert set(met.values()) == {2} and set(seats.values()) == {3}


def test_knockout_bracket_seeds_the_best_apart() -> None:
    assert pairing.bracket(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = pairing.bracket(16)
    assert order.index(1) < 8 <= order.index(2)  # 1 and 2 meet only in the final
    assert len({order.index(seed) // 4 for seed in (1, 2, 3, 4)}) == 4  # the best four in four quarters


def test_knockout_of_six_gives_the_two_best_seeds_byes() -> None:
    first = pairing.knockout_round(pairing.knockout(6, []))
    assert sorted(first.byes) == [1, 2]
    assert sorted(first.tables) == [(3, 6), (4, 5)]
    assert pairing.knockout_rounds(6) == 3


@pytest.mark.parametrize("count, seats", [(4, 3), (7, 3), (9, 3), (6, 3), (8, 4), (12, 4), (5, 4)])
def test_tables_meet_everyone_as_evenly_as_the_numbers_allow_and_share_the_first_seat(count: int, seats: int) -> None:
    rounds_ = pairing.rounds_to_meet(count, seats)
    schedule = [list(r) for r in pairing.tables_schedule(count, seats, rounds_)]
    met, first = met_and_first(schedule, count)
    for tables in schedule:
        assert sorted(p for t in tables for p in t) == list(range(1, count + 1))
        assert all(2 <= len(t) <= seats for t in tables)
    firsts = [first[p] for p in range(1, count + 1)]
    assert max(firsts) - min(firsts) <= 1
    counts = [met[frozenset(p)] for p in combinations(range(1, count + 1), 2)]
    meetings = sum(counts)
    pairs = len(counts)
    # spread as evenly as these meetings allow: within one where a resolvable schedule is
    # known to exist (9 at threes: each pair exactly once), within two otherwise
    assert max(counts) - min(counts) <= (1 if (count, seats) in {(4, 3), (7, 3), (9, 3)} else 2)
    assert max(counts) <= -(-meetings // pairs) + 1
    if (count, seats) == (9, 3):
        assert set(counts) == {1}


def test_the_tables_schedule_is_the_same_every_time() -> None:
    pairing.tables_schedule.cache_clear()
    once = pairing.tables_schedule(8, 4, 3)
    pairing.tables_schedule.cache_clear()
    assert pairing.tables_schedule(8, 4, 3) == once


def test_a_swiss_plays_enough_rounds_to_single_out_a_winner_and_never_more_than_repeats_allow() -> None:
    from corr.errors import UsageError

    assert pairing.planned_rounds("swiss", 6, 2, None) == 3
    assert pairing.planned_rounds("swiss", 8, 2, None) == 3
    assert pairing.planned_rounds("swiss", 9, 2, None) == 4
    assert pairing.planned_rounds("swiss", 3, 2, None) == 2
    assert pairing.planned_rounds("swiss", 8, 2, 7) == 7
    for count, rounds in ((8, 8), (4, 4), (8, 0)):
        with pytest.raises(UsageError, match=f"--rounds {rounds}"):
            pairing.planned_rounds("swiss", count, 2, rounds)
    assert pairing.planned_rounds("swiss", 9, 3, None) == 2  # a Swiss of tables of three
    assert pairing.planned_rounds("swiss", 10, 3, None) == 3


def test_a_swiss_of_tables_groups_by_score_avoids_repeats_and_shares_the_first_seat() -> None:
    players = list(range(1, 10))
    scores = {p: float(10 - p) for p in players}  # 1 leads, 9 trails
    first = pairing.swiss_tables(players, scores, {}, {}, 3)
    assert [sorted(t) for t in first.tables] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]] and first.byes == []
    met = {frozenset(pair): 1 for t in first.tables for pair in ((t[0], t[1]), (t[0], t[2]), (t[1], t[2]))}
    firsts = {1: 2, 4: 1, 7: 1}
    again = pairing.swiss_tables(players, scores, met, firsts, 3)
    assert all(sum(met.get(frozenset((a, b)), 0) for a in t for b in t if a < b) == 0 for t in again.tables)
    assert 1 in again.tables[0] and again.tables[0][0] != 1  # the leader at the top table, not first again
    assert all(firsts.get(t[0], 0) == min(firsts.get(p, 0) for p in t) for t in again.tables)
    assert [len(t) for t in pairing.swiss_tables(list(range(1, 8)), {}, {}, {}, 3).tables] == [3, 2, 2]
