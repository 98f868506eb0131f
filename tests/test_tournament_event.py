"""Whole events through the command line: started, paired, played to the end by the
computer, recorded, ranked and audited; a false result and an edited event log caught."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from corr import engine, randomplay
from corr.tournament import eventlog

PLAYERS = ["Anna", "Ben <ben@example.org>", "Cleo", "Dan"]


def play_round(games: Path, seed: int) -> None:
    """Play every unfinished game in `games` to its end, every seat at random, on disk."""
    for i, path in enumerate(sorted(games.glob("*.corr"))):
        with engine.writing(path) as table:
            randomplay.play_on(table, random.Random(seed * 100 + i))


def new_event(corr, tmp_path: Path, *args: str, players: list[str] = PLAYERS) -> tuple[Path, Path]:
    event, games = tmp_path / "club.tour", tmp_path / "games"
    games.mkdir()
    result = corr("tournament", "new", event, *args, *(a for p in players for a in ("-p", p)))
    assert result.code == 0, result.err
    return event, games


def directed_event(corr, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A round robin with Rita as its director; the folder of her key and of Mallory's."""
    keys = tmp_path / "keys"
    keys.mkdir()
    assert corr("key", "new", "--out", keys / "rita", "--role", "referee").code == 0
    assert corr("key", "new", "--out", keys / "mallory").code == 0
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin",
                             "--director", "Rita <rita@example.org>", "--director-key", str(keys / "rita.pub"))
    return event, games, keys


def run_event(corr, event: Path, games: Path) -> int:
    """Pair, play and record every round; the number of rounds played."""
    rounds = 0
    while True:
        paired = corr("tournament", "pair", event, "--games", games)
        if paired.code == 1 and "is over" in paired.err:
            return rounds
        assert paired.code == 0, paired.err
        rounds += 1
        play_round(games, rounds)
        recorded = corr("tournament", "record", event, "--games", games)
        assert recorded.code == 0, recorded.err


def test_a_double_round_robin_of_combat_played_to_the_end(tmp_path: Path, corr) -> None:
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "double-round-robin")
    assert run_event(corr, event, games) == 6
    assert len(list(games.glob("*.corr"))) == 12  # six rounds of two tables
    data = json.loads(corr("tournament", "standings", event, "--format", "json").out)
    assert data["finished"] and data["played"] == 6
    rows = {r["name"]: r for r in data["standings"]}
    assert all(r["games"] == 6 for r in rows.values())
    # the crosstable's points add up to the games' results: one point a game, 12 games
    assert sum(r["points"] for r in rows.values()) == 12
    for a, row in data["crosstable"].items():
        assert sum(row.values()) == next(r["points"] for r in data["standings"] if str(r["player"]) == a)
        for b, points in row.items():
            assert points + data["crosstable"][b][a] == 2  # two games between each two players
    ranks = [r["rank"] for r in data["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    audit = corr("audit", event, "--games", games)
    assert audit.code == 0, audit.out + audit.err
    assert "sound" in audit.out
    text = corr("tournament", "standings", event).out
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "Anna" in text and "Ben" in text and "SB" in text
    html = corr("tournament", "standings", event, "--format", "html").out
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html and "Cleo" in html


def test_pair_is_refused_while_the_round_is_being_played(tmp_path: Path, corr) -> None:
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin")
    assert corr("tournament", "pair", event, "--games", games).code == 0
    before = event.read_bytes()
    refused = corr("tournament", "pair", event, "--games", games)
    assert refused.code == 1 and "still being played" in refused.err and refused.err.count("\n") == 1
    assert event.read_bytes() == before
    assert sorted(p.name for p in games.iterdir()) == ["club-r1-t1.corr", "club-r1-t2.corr"]


def test_a_result_the_game_log_does_not_bear_out_is_a_finding(tmp_path: Path, corr) -> None:
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin")
    corr("tournament", "pair", event, "--games", games)
    play_round(games, 1)
    # a director writes the first table's result the other way round, chained and canonical
    log = eventlog.read(event)
    table = log.records[0]["tables"][0]
    audit = corr("audit", games / table["file"], "--json")
    winners = json.loads(audit.out)["result"]["winners"]
    places = [1, 2] if winners == ["B"] else [2, 1]
    with eventlog.writing(event) as writer:
        writer.stage(writer.record("result", "2026-01-01T00:00:00Z", round=1, table=1, game=table["game"],
                                   final="0" * 64, places=places, scores=[0, 0]))
        writer.flush()
    audited = corr("audit", event, "--games", games)
    assert audited.code == 2
    assert "result at seq 2" in audited.out and "round 1 table 1" in audited.out
    assert corr("audit", event).code == 0  # without the games, the log itself is intact


def test_an_edited_event_log_is_corrupt_in_one_line(tmp_path: Path, corr) -> None:
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin")
    corr("tournament", "pair", event, "--games", games)
    play_round(games, 1)
    assert corr("tournament", "record", event, "--games", games).code == 0
    data = event.read_bytes()
    edited = data.replace(b'"places":[1,2]', b'"places":[2,1]', 1)
    if edited == data:
        edited = data.replace(b'"places":[2,1]', b'"places":[1,2]', 1)
    edited = edited.replace(b'"players":[1,4]', b'"players":[4,1]')  # the first round, seats swapped
    event.write_bytes(edited)
    audited = corr("audit", event)
    assert audited.code == 2 and "CORRUPT" in audited.out and "chain" in audited.out
    for command in (("standings", event), ("pair", event, "--games", games), ("record", event)):
        refused = corr("tournament", *command)
        assert refused.code == 2 and refused.err.startswith("corr: error:") and refused.err.count("\n") == 1


def test_a_torn_or_noncanonical_event_log_is_corrupt(tmp_path: Path, corr) -> None:
    event, _ = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin")
    header = event.read_bytes()
    event.write_bytes(header.replace(b'","game"', b'", "game"'))
    assert corr("tournament", "standings", event).code == 2
    event.write_bytes(header[:-5])
    assert corr("tournament", "standings", event).code == 2


def test_a_forged_ruling_is_corrupt_and_a_signed_one_decides_the_game(tmp_path: Path, corr) -> None:
    event, games, keys = directed_event(corr, tmp_path)
    corr("tournament", "pair", event, "--games", games)
    forged = corr("tournament", "rule", event, "adjudicate", "--round", "1", "--table", "1", "--places", "1,2",
                  "--sign", keys / "mallory.key", "--because", "won position")
    assert forged.code == 1 and "not the director's key" in forged.err
    ruled = corr("tournament", "rule", event, "adjudicate", "--round", "1", "--table", "1", "--places", "1,2",
                 "--sign", keys / "rita.key", "--because", "won position")
    assert ruled.code == 0, ruled.err
    standings = json.loads(corr("tournament", "standings", event, "--format", "json").out)
    assert standings["crosstable"]["1"] == {"4": 1.0}
    event.write_bytes(event.read_bytes().replace(b"won position", b"lost position"))
    audited = corr("audit", event)
    assert audited.code == 2 and "signature" in audited.out


def test_a_knockout_is_seeded_and_ends_with_one_winner(tmp_path: Path, corr) -> None:
    players = ["Anna", "Ben", "Cleo", "Dan", "Eve"]
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "knockout", players=players)
    first = corr("tournament", "pair", event, "--games", games)
    assert "bye: Anna" in first.out and "bye: Ben" in first.out and "bye: Cleo" in first.out
    assert "Dan - Eve" in first.out
    for number in (1, 2, 3):
        if number > 1:
            assert corr("tournament", "pair", event, "--games", games).code == 0
        play_round(games, number)
        assert corr("tournament", "record", event, "--games", games).code == 0
    assert "is over" in corr("tournament", "pair", event, "--games", games).err
    assert corr("audit", event, "--games", games).code == 0


def test_tables_of_three_seat_everyone_and_score_by_placing(tmp_path: Path, corr) -> None:
    players = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin", "--table", "3",
                             players=players)
    paired = corr("tournament", "pair", event, "--games", games)
    assert paired.code == 0 and paired.out.count(" - ") == 4  # two tables of three
    play_round(games, 1)
    assert corr("tournament", "record", event, "--games", games).code == 0
    data = json.loads(corr("tournament", "standings", event, "--format", "json").out)
    assert sum(r["points"] for r in data["standings"]) == 2 * 3  # three pairs at each of two tables
    header = json.loads(corr("show", games / "club-r1-t1.corr", "--format", "json").out)
    assert len(header["seats"]) == 3


@pytest.mark.parametrize("args, words", [
    (("--game", "combat", "--system", "swiss", "--table", "3", "--rounds", "51"), "--rounds 51"),
    (("--game", "war", "--system", "swiss", "--rounds", "4"), "--rounds 4"),
    (("--game", "moyo", "--system", "round-robin", "--table", "3"), "--table 3"),
    (("--game", "combat", "--system", "knockout", "--table", "3"), "two"),
    (("--game", "combat", "--system", "round-robin", "--rounds", "2"), "--rounds 2"),
    (("--game", "chess", "--system", "round-robin"), "chess"),
])
def test_new_refuses_an_event_it_cannot_run_in_one_line(tmp_path: Path, corr, args: tuple[str, ...],
                                                        words: str) -> None:
    event = tmp_path / "bad.tour"
    result = corr("tournament", "new", event, *args, "-p", "Anna", "-p", "Ben", "-p", "Cleo", "-p", "Dan")
    assert result.code == 1 and words in result.err and result.err.count("\n") == 1
    assert not event.exists()


def test_a_withdrawn_players_opponents_get_byes(tmp_path: Path, corr) -> None:
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin")
    corr("tournament", "pair", event, "--games", games)
    play_round(games, 1)
    corr("tournament", "record", event, "--games", games)
    assert corr("tournament", "withdraw", event, "Dan", "--because", "moved").code == 0
    second = corr("tournament", "pair", event, "--games", games)
    assert "Dan" not in second.out.replace("bye: Dan", "") and "bye: Cleo" in second.out  # Berger: 4-3 in round 2
    assert corr("audit", event, "--games", games).code == 0


def test_withdrawal_scores_as_iccf_does_the_game_being_played_lost_the_rest_won_by_the_opponents(
        tmp_path: Path, corr) -> None:
    """Dan leaves during round 2 of a four-player round robin: his round-2 game is lost,
    his round-3 opponent wins without playing, his round-1 game stands."""
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin")
    corr("tournament", "pair", event, "--games", games)
    play_round(games, 1)
    corr("tournament", "record", event, "--games", games)
    round_one = json.loads(corr("tournament", "standings", event, "--format", "json").out)["crosstable"]["4"]
    corr("tournament", "pair", event, "--games", games)
    assert corr("tournament", "withdraw", event, "Dan", "--because", "moved").code == 0
    from corr.tournament import event as tournament_event

    after = tournament_event.read(event)
    (dans,) = [t for t in after.rounds[1] if 4 in t.players]
    (rival,) = [p for p in dans.players if p != 4]
    assert dans.places is not None and dans.places[dans.players.index(4)] == 2 and dans.ruled == "withdraw"
    assert [t.file for t in after.open_tables()] != [dans.file]  # the other table plays on
    play_round(games, 2)
    assert corr("tournament", "record", event, "--games", games).code == 0
    assert corr("tournament", "pair", event, "--games", games).code == 0  # round 3: Dan's opponent has a bye
    play_round(games, 3)
    assert corr("tournament", "record", event, "--games", games).code == 0
    data = json.loads(corr("tournament", "standings", event, "--format", "json").out)
    assert data["finished"]
    cross = data["crosstable"]
    assert cross["4"] == {**round_one, str(rival): 0.0, **{k: 0.0 for k in cross["4"] if k not in round_one}}
    assert all(cross[o]["4"] == 1.0 for o in cross if o != "4" and o not in round_one)  # won without playing
    assert sum(r["points"] for r in data["standings"]) == 6  # every scheduled game counted once
    assert corr("audit", event, "--games", games).code == 0


def test_with_a_director_a_withdrawal_is_the_director_s_signed_ruling(tmp_path: Path, corr) -> None:
    event, games, keys = directed_event(corr, tmp_path)
    before = event.read_bytes()
    unsigned = corr("tournament", "withdraw", event, "Dan")
    assert unsigned.code == 1 and "--sign" in unsigned.err and event.read_bytes() == before
    forged = corr("tournament", "withdraw", event, "Dan", "--sign", keys / "mallory.key")
    assert forged.code == 1 and "not the director's key" in forged.err and event.read_bytes() == before
    assert corr("tournament", "withdraw", event, "Dan", "--because", "ill", "--sign", keys / "rita.key").code == 0
    assert corr("audit", event).code == 0
    event.write_bytes(event.read_bytes().replace(b'"ill"', b'"bored"'))
    audited = corr("audit", event)
    assert audited.code == 2 and "signature" in audited.out


def test_a_six_player_swiss_of_war_is_paired_by_score_and_nobody_meets_twice(tmp_path: Path, corr) -> None:
    """Six players, three rounds (the default: enough to single out a winner), every game
    played to its end by the computer; the FIDE Dutch pairing never repeats a game, pairs
    each round's leaders together, and the event audits."""
    players = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    event, games = new_event(corr, tmp_path, "--game", "war", "--system", "swiss", players=players)
    assert run_event(corr, event, games) == 3
    data = json.loads(corr("tournament", "standings", event, "--format", "json").out)
    assert data["finished"] and data["rounds"] == 3
    assert sum(r["points"] for r in data["standings"]) == 9  # nine games, a point each
    met: list[frozenset[int]] = []
    from corr.tournament import event as tournament_event

    played = tournament_event.read(event)
    for number, tables in enumerate(played.rounds, 1):
        assert len(tables) == 3 and not played.byes.get(number)
        met += [frozenset(t.players) for t in tables]
    assert len(met) == len(set(met)) == 9
    # round 2 pairs the round-1 winners among themselves where it can: no winner of
    # round 1 meets a loser of it unless the winners were odd in number
    winners = {t.players[t.places.index(1)] for t in played.rounds[0] if t.places and t.places.count(1) == 1}
    mixed = [t for t in played.rounds[1] if len(set(t.players) & winners) == 1]
    assert len(mixed) <= len(winners) % 2
    audit = corr("audit", event, "--games", games)
    assert audit.code == 0, audit.out + audit.err


def test_a_swiss_of_tables_of_three_seats_players_by_score(tmp_path: Path, corr) -> None:
    """Six players of Combat at tables of three, two rounds (the default for six at three
    seats); the second round seats the round's best together, and the event audits."""
    players = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "swiss", "--table", "3",
                             players=players)
    assert run_event(corr, event, games) == 2
    data = json.loads(corr("tournament", "standings", event, "--format", "json").out)
    assert data["finished"] and sum(r["points"] for r in data["standings"]) == 12  # 2 rounds x 2 tables x 3 pairs
    from corr.tournament import event as tournament_event
    from corr.tournament.placing import pair_points

    played = tournament_event.read(event)
    after_one = {n: 0.0 for n in range(1, 7)}
    for t in played.rounds[0]:
        for i, a in enumerate(t.players):
            after_one[a] += sum(pair_points(t.places[i], t.places[j]) for j in range(3) if j != i)
    top = sorted(after_one, key=lambda n: (-after_one[n], n))
    assert top[0] in played.rounds[1][0].players  # the leader at the first table
    firsts = [t.players[0] for r in played.rounds for t in r]
    assert len(firsts) == len(set(firsts))  # nobody sat first twice while others never did
    assert corr("audit", event, "--games", games).code == 0
