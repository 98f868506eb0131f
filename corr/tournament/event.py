"""The event an event log describes: its players, its rounds' tables and what became of
each, and who withdrew. Built record by record, each checked against what came before:
a log no `corr tournament` command could have written (a result for a table that is not
playing, a round paired before the last one ended) is corrupt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corr.errors import CorruptLog
from corr.tournament.eventlog import EventLog


@dataclass
class Player:
    number: int
    name: str
    email: str | None = None
    withdrawn: int | None = None  # the number of rounds paired when the player withdrew

    @property
    def addressed(self) -> str:
        """`Name <address>`, as `corr new --player` takes it."""
        return f"{self.name} <{self.email}>" if self.email else self.name


@dataclass
class Table:
    round: int
    table: int
    players: tuple[int, ...]
    file: str
    game: str
    places: list[int] | None = None  # None while the game is being played
    scores: list[int] | None = None
    final: str | None = None  # the hash of the game log's last line when the result was taken
    ruled: str | None = None  # "adjudicate" or "forfeit" when the director decided it, "withdraw" when a player left


@dataclass
class Event:
    log: EventLog
    players: dict[int, Player]
    rounds: list[list[Table]] = field(default_factory=list)
    byes: dict[int, list[int]] = field(default_factory=dict)  # round -> players with a bye

    @property
    def path(self) -> Path:
        return self.log.path

    @property
    def header(self) -> dict[str, Any]:
        return self.log.header

    @property
    def planned(self) -> int:
        return int(self.header["rounds"])

    def open_tables(self) -> list[Table]:
        """The tables of the newest round still being played."""
        return [t for t in self.rounds[-1] if t.places is None] if self.rounds else []

    @property
    def finished(self) -> bool:
        """Whether every round is paired and played."""
        if not self.rounds:
            return False
        return not self.open_tables() and (len(self.rounds) >= self.planned or self.knocked_out())

    def knocked_out(self) -> bool:
        """A knockout with one player left standing."""
        if self.header["system"] != "knockout" or not self.rounds:
            return False
        return len(self.rounds[-1]) + len(self.byes.get(len(self.rounds), [])) == 1 and not self.open_tables()

    def gone(self) -> set[int]:
        return {n for n, p in self.players.items() if p.withdrawn is not None}

    def table(self, round_: int, number: int) -> Table:
        for t in self.rounds[round_ - 1] if 0 < round_ <= len(self.rounds) else []:
            if t.table == number:
                return t
        raise KeyError((round_, number))


def build(log: EventLog) -> Event:
    """The event of a checked log; raises CorruptLog at the first record that does not
    follow from the ones before it."""
    header = log.header
    players = {p["player"]: Player(p["player"], p["name"], p.get("email")) for p in header["players"]}
    event = Event(log, players)
    for record in log.records:
        try:
            _take(event, record)
        except _Wrong as err:
            raise CorruptLog(f"{log.path}: seq {record['seq']} ({record['type']}): {err}", seq=record["seq"],
                             kind="event") from None
    return event


class _Wrong(Exception):
    pass


def _player(event: Event, number: int) -> Player:
    if number not in event.players:
        raise _Wrong(f"there is no player {number}")
    return event.players[number]


def _current(event: Event, round_: int, table: int) -> Table:
    if round_ != len(event.rounds):
        raise _Wrong(f"round {round_} is not the round being played")
    try:
        found = event.table(round_, table)
    except KeyError:
        raise _Wrong(f"round {round_} has no table {table}") from None
    if found.places is not None:
        raise _Wrong(f"round {round_} table {table} has its result already")
    return found


def _take(event: Event, record: dict[str, Any]) -> None:
    kind = record["type"]
    if kind == "round":
        number = record["round"]
        if number != len(event.rounds) + 1 or number > event.planned:
            raise _Wrong(f"round {number} cannot follow round {len(event.rounds)} of {event.planned}")
        if event.open_tables():
            raise _Wrong(f"round {number} was paired while round {len(event.rounds)} was still being played")
        seen: set[int] = set()
        tables = []
        for entry in record["tables"]:
            for p in entry["players"]:
                if _player(event, p).withdrawn is not None:
                    raise _Wrong(f"player {p} withdrew, yet plays")
                if p in seen:
                    raise _Wrong(f"player {p} sits at two tables")
                seen.add(p)
            if len(entry["players"]) > event.header["table"]:
                raise _Wrong(f"table {entry['table']} has more seats than the event's tables")
            tables.append(Table(number, entry["table"], tuple(entry["players"]), entry["file"], entry["game"]))
        event.rounds.append(tables)
        event.byes[number] = []
    elif kind == "bye":
        if record["round"] != len(event.rounds):
            raise _Wrong(f"a bye in round {record['round']}, which is not the round being paired")
        player = record["player"]
        _player(event, player)
        if any(player in t.players for t in event.rounds[-1]) or player in event.byes[record["round"]]:
            raise _Wrong(f"player {player} has a bye and a game in round {record['round']}")
        event.byes[record["round"]].append(player)
    elif kind == "result":
        table = _current(event, record["round"], record["table"])
        if record["game"] != table.game:
            raise _Wrong(f"the result is of game {record['game']}, the table plays {table.game}")
        _places(table, record["places"])
        if len(record["scores"]) != len(table.players):
            raise _Wrong("the scores are not one per seat")
        table.places, table.scores, table.final = list(record["places"]), list(record["scores"]), record["final"]
    elif kind == "withdraw":
        player = _player(event, record["player"])
        if player.withdrawn is not None:
            raise _Wrong(f"player {player.number} withdrew already")
        player.withdrawn = len(event.rounds)
        for table in event.open_tables():  # the game being played is lost (ICCF's practice)
            if player.number in table.players:
                from corr.tournament.placing import forfeited

                table.places = forfeited(len(table.players), table.players.index(player.number))
                table.ruled = "withdraw"
    else:
        _ruling(event, record)


def _places(table: Table, places: list[int]) -> None:
    if len(places) != len(table.players) or any(p > len(places) for p in places):
        raise _Wrong(f"the places are not one per seat, 1 to {len(table.players)}")


def _ruling(event: Event, record: dict[str, Any]) -> None:
    decision = record["decision"]
    if decision == "replace":
        player = _player(event, record["player"])
        player.name, player.email = record["name"], record.get("email")
        return
    table = _current(event, record["round"], record["table"])
    if decision == "adjudicate":
        _places(table, record["places"])
        table.places = list(record["places"])
    else:
        if record["player"] not in table.players:
            raise _Wrong(f"player {record['player']} does not play at round {table.round} table {table.table}")
        from corr.tournament.placing import forfeited

        table.places = forfeited(len(table.players), table.players.index(record["player"]))
    table.ruled = decision


def read(path: Path | str) -> Event:
    """The event of the log at `path`, read and checked."""
    from corr.tournament import eventlog

    return build(eventlog.read(path))
