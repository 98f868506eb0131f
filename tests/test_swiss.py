"""Swiss pairings (`corr.tournament.swiss`): the FIDE Dutch system through its library,
checked against a FIDE-endorsed program's pairings and for what the rules promise."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from corr.errors import UsageError
from corr.tournament.swiss import Game, pair_swiss

DATA = Path(__file__).resolve().parent / "data" / "swiss"
REFERENCE = ["bbp_10p5r_s42.trf", "bbp_11p5r_s42.trf"]


@pytest.mark.parametrize("name", REFERENCE)
def test_swiss_library_pairs_as_bbppairings_did(name: str) -> None:
    """The library's own checker (FPC) pairs every round of a tournament bbpPairings
    paired, and finds no round that differs."""
    from caissify_pairings.fpc import check_trf

    summary = check_trf((DATA / name).read_text())["summary"]
    assert summary["rounds_checked"] == 5
    assert summary["rounds_matched"] == 5 and summary["total_discrepancies"] == 0


def _trf_rounds(name: str) -> tuple[list[str], list[list[Game]]]:
    """The players (by starting number) and each round's games of a TRF16 file: after
    column 91, ten columns a round: opponent (0000 for a bye), colour, result."""
    points = {"1": 1.0, "0": 0.0, "=": 0.5, "U": 1.0}
    rows = {}
    for line in (DATA / name).read_text().splitlines():
        if line.startswith("001"):
            rest = line[91:]
            rows[int(line[4:8])] = [rest[i:i + 10].split() for i in range(0, len(rest), 10)]
    players = [f"P{n}" for n in sorted(rows)]
    rounds: list[list[Game]] = []
    for r in range(len(rows[1])):
        games = []
        for n, row in sorted(rows.items()):
            opponent, colour, result = row[r]
            if opponent == "0000":
                games.append(Game(f"P{n}", None, (points[result], 0.0)))
            elif colour == "w":
                other = rows[int(opponent)][r][2]
                games.append(Game(f"P{n}", f"P{int(opponent)}", (points[result], points[other])))
        rounds.append(games)
    return players, rounds


@pytest.mark.parametrize("name", REFERENCE)
def test_swiss_pair_swiss_makes_the_rounds_bbppairings_made(name: str) -> None:
    """Fed the rounds before it (scores, colours, floats and byes derived here), each
    round is paired exactly as the FIDE-endorsed program paired it, colours included
    (the top seed's colour in round 1 drawn as the file has it)."""
    players, rounds = _trf_rounds(name)
    top_first = any(g.first == "P1" for g in rounds[0])
    for number, games in enumerate(rounds):
        history = rounds[:number]
        scores = {p: 0.0 for p in players}
        for g in itertools.chain.from_iterable(history):
            scores[g.first] += g.points[0]
            if g.second is not None:
                scores[g.second] += g.points[1]
        pairs, bye = pair_swiss(players, scores, history, rounds=len(rounds), top_seed_first=top_first)
        assert sorted(pairs) == sorted((g.first, g.second) for g in games if g.second is not None), number + 1
        assert bye == next((g.first for g in games if g.second is None), None)


def _matchable(players: list[str], met: set[frozenset[str]], byes: set[str]) -> bool:
    """Whether the players can all be paired with nobody meeting twice (an odd player
    out taking a bye they have not had)."""
    if len(players) % 2:
        return any(_matchable([q for q in players if q != p], met, byes) for p in players if p not in byes)
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(frozenset((first, q)) not in met and _matchable([r for r in rest if r != q], met, byes)
               for q in rest)


def _tournament(size: int, seed: int) -> tuple[list[str], list[list[Game]]] | None:
    """Five rounds of `size` players with results drawn from `seed`; None when a round
    could not be paired - checked to be a round that no pairing at all could make."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(1, size + 1)]
    scores = {p: 0.0 for p in players}
    history: list[list[Game]] = []
    for _ in range(5):
        try:
            pairs, bye = pair_swiss(players, scores, history, rounds=5)
        except UsageError:
            met = {frozenset((g.first, g.second)) for gs in history for g in gs if g.second is not None}
            byes = {g.first for gs in history for g in gs if g.second is None}
            assert not _matchable(players, met, byes)
            return None
        games = []
        for a, b in pairs:
            x = rng.choice([1.0, 0.5, 0.0])
            games.append(Game(a, b, (x, 1 - x)))
            scores[a], scores[b] = scores[a] + x, scores[b] + 1 - x
        if bye is not None:
            games.append(Game(bye, None, (1.0, 0.0)))
            scores[bye] += 1
        history.append(games)
    return players, history


@pytest.mark.parametrize("size", [6, 7])
def test_swiss_five_rounds_never_repeat_a_game_or_a_bye(size: int) -> None:
    """Over five rounds nobody meets anyone twice; with an odd number one player a round
    has the bye, never one player twice; until the last round each player's colours
    (who sits first) differ by at most two and never come three times in a row (C.04.3's
    absolute colour rules; the last round frees its topscorers of them). Within one is
    what the rules prefer, not what they promise: 6 players can leave one with `bwbb`.
    Two in three players or more end within one all the same."""
    finished = within_one = everyone = 0
    for seed in range(12):
        made = _tournament(size, seed)
        if made is None:
            continue
        finished += 1
        players, history = made
        met = [frozenset((g.first, g.second)) for gs in history for g in gs if g.second is not None]
        assert len(met) == len(set(met))
        byes = [g.first for gs in history for g in gs if g.second is None]
        assert len(byes) == (5 if size % 2 else 0) and len(set(byes)) == len(byes)
        for p in players:
            colours = "".join("w" if g.first == p else "b" for gs in history[:4] for g in gs
                              if g.second is not None and p in (g.first, g.second))
            assert abs(colours.count("w") - colours.count("b")) <= 2
            assert "www" not in colours and "bbb" not in colours
            within_one += abs(colours.count("w") - colours.count("b")) <= 1
            everyone += 1
    assert finished >= 6 and within_one * 3 >= everyone * 2


@pytest.mark.parametrize("size, mixed", [(6, 1), (7, 0)])
def test_swiss_groups_players_by_score(size: int, mixed: int) -> None:
    """Round 1 pairs the top half against the bottom half, the top seeds sitting first
    on alternate boards; when the top half wins, round 2 pairs winners with winners: 6
    players leave one winner and one loser to float into one pair, 7 players (the bye
    a win) pair within their groups and the bye goes to a player without a point."""
    players = [f"p{i}" for i in range(1, size + 1)]
    pairs, bye = pair_swiss(players, {}, [])
    half = size // 2
    assert sorted(min(pair) for pair in pairs) == players[:half]
    assert bye == (players[-1] if size % 2 else None)
    first = [Game(a, b, (1.0, 0.0) if a < b else (0.0, 1.0)) for a, b in pairs]
    if bye:
        first.append(Game(bye, None, (1.0, 0.0)))
    scores = {p: 0.0 for p in players}
    for g in first:
        scores[g.first] += g.points[0]
        if g.second is not None:
            scores[g.second] += g.points[1]
    pairs, bye = pair_swiss(players, scores, [first])
    assert sum(scores[a] != scores[b] for a, b in pairs) == mixed
    assert bye is None or scores[bye] == 0


def test_swiss_refuses_players_it_does_not_know_in_one_line() -> None:
    with pytest.raises(UsageError, match="'zed', who is not a player"):
        pair_swiss(["a", "b"], {}, [[Game("a", "zed", (1.0, 0.0))]])
    with pytest.raises(UsageError, match="named twice"):
        pair_swiss(["a", "a"], {}, [])
