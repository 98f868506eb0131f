"""What the tournament commands do to an event: start it, pair a round and make its
games, take the finished games' results, note a withdrawal, add the director's ruling.

Every change is made under the event log's lock and appended whole; a command that is
refused, or fails half way, leaves the event log as it was and removes the games it made.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from corr import clock
from corr.errors import CorruptLog, UsageError
from corr.tournament import eventlog, pairing
from corr.tournament.event import Event, Table, build


def new_event(path: Path | str, game: str, system: str, players: list[str], *, rounds: int | None = None,
              seats: int = 2, options: dict[str, str] | None = None, time_control: dict[str, int | str] | None = None,
              director: tuple[str, str] | None = None, name: str | None = None,
              now: datetime | None = None) -> Event:
    """Write a new event's log: its header, every player numbered (and seeded) in the
    order given. Refuses what its games could not be started with."""
    from corr.engine import SEAT_LETTERS, seat_entry
    from corr.games import game_class

    path = Path(path)
    if system not in eventlog.SYSTEMS:
        raise UsageError(f"--system {system!r}: say {', '.join(eventlog.SYSTEMS)}")
    cls = game_class(game)
    if not cls.min_seats <= seats <= cls.max_seats or seats < 2:
        raise UsageError(f"--table {seats}: {cls.title} is played at tables of {max(2, cls.min_seats)} to "
                         f"{cls.max_seats} seats")
    if len(players) < 2:
        raise UsageError("an event needs at least two players (--player, once each)")
    entries: list[dict[str, Any]] = []
    for i, player in enumerate(players):
        entry = seat_entry("", player, None)
        del entry["seat"]
        entries.append({"player": i + 1, **entry})
    names = [str(e["name"]).casefold() for e in entries]
    twice = next((e["name"] for e, n in zip(entries, names) if names.count(n) > 1), None)
    if twice is not None:
        raise UsageError(f"player {twice!r} is named twice: each player once")
    resolved = cls.resolve_options(dict(options or {}))
    if cls.own_clock and time_control is not None:
        raise UsageError(f"{cls.title} keeps its own time (option time_limit), so it takes no --time")
    cls(resolved, list(SEAT_LETTERS[:seats]))  # options that cannot go with tables of this size
    planned = pairing.planned_rounds(system, len(players), seats, rounds)
    header: dict[str, Any] = {
        "corr": eventlog.FORMAT, "type": "header", "kind": eventlog.KIND,
        "id": f"tour-{secrets.token_hex(4)}", "name": name or path.stem, "game": cls.name, "system": system,
        "rounds": planned, "table": seats, "players": entries, "options": resolved,
    }
    if time_control is not None:
        header["time_control"] = time_control
    if director is not None:
        person, key = director
        entry = seat_entry("", person, None)
        del entry["seat"]
        header["director"] = {**entry, "key": key}
    header["created"] = clock.stamp(now)
    try:
        log = eventlog.create(path, header)
    except eventlog._Bad as err:
        raise UsageError(f"cannot start the event: {err}") from None
    return build(log)


def expected_round(event: Event, number: int) -> pairing.Round:
    """Round `number`'s tables and byes as the event's system pairs them, given the
    results of the rounds before it and the withdrawals noted before it was paired."""
    header = event.header
    count, seats, system = len(event.players), header["table"], header["system"]
    gone = {p.number for p in event.players.values() if p.withdrawn is not None and p.withdrawn < number}
    if system == "swiss":
        return _swiss(event, number, gone)
    if system == "knockout":
        winners = [_advancing(event, r, gone) for r in range(1, number)]
        alive = [p if p not in gone else 0 for p in pairing.knockout(count, winners)]
        return pairing.knockout_round(alive)
    tables = pairing.round_robin(count, seats, event.planned, system == "double-round-robin", number)
    return pairing.without(tables, gone, count)


def _swiss(event: Event, number: int, gone: set[int]) -> pairing.Round:
    """Round `number` of a Swiss: the players still in, by their scores and the games
    before it. A game against a player who has withdrawn since is left out of what the
    pairing looks at (its points stay in the standings); a bye is worth nothing, as in
    the standings."""
    from corr.tournament.placing import pair_points

    active = [n for n in sorted(event.players) if n not in gone]
    if event.header["table"] > 2:
        return _swiss_tables(event, number, active)
    scores = {n: 0.0 for n in active}
    history: list[list[tuple[int, int | None, float, float]]] = []
    for r in range(1, number):
        played: list[tuple[int, int | None, float, float]] = []
        for table in event.rounds[r - 1]:
            a, b = table.players
            pa = pb = 0.0
            if table.places is not None:
                pa, pb = pair_points(table.places[0], table.places[1]), pair_points(table.places[1], table.places[0])
            if a in scores:
                scores[a] += pa
            if b in scores:
                scores[b] += pb
            if a in scores and b in scores:
                played.append((a, b, pa, pb))
        played += [(p, None, 0.0, 0.0) for p in event.byes.get(r, []) if p in scores]
        history.append(played)
    return pairing.swiss_round(active, scores, history, event.header["rounds"])


def _swiss_tables(event: Event, number: int, active: list[int]) -> pairing.Round:
    """Round `number` of a Swiss of tables: scores by placing, meetings and first seats
    from the rounds before it (`pairing.swiss_tables`)."""
    from corr.tournament.placing import pair_points

    scores = {n: 0.0 for n in active}
    met: dict[frozenset[int], int] = {}
    firsts: dict[int, int] = {}
    for tables in event.rounds[:number - 1]:
        for table in tables:
            firsts[table.players[0]] = firsts.get(table.players[0], 0) + 1
            for i, a in enumerate(table.players):
                for j, b in enumerate(table.players):
                    if i < j:
                        met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
                    if i != j and a in scores and table.places is not None:
                        scores[a] += pair_points(table.places[i], table.places[j])
    return pairing.swiss_tables(active, scores, met, firsts, event.header["table"])


def _advancing(event: Event, number: int, gone: set[int]) -> list[int]:
    """Who goes on from knockout round `number`, in bracket order (0: nobody): each
    table's winner, or on equal places the better seed; a player with a bye."""
    previous = [_advancing(event, r, gone) for r in range(1, number)]
    alive = pairing.knockout(len(event.players), previous)
    played = {frozenset(t.players): t for t in event.rounds[number - 1]}
    out = []
    for a, b in zip(alive[::2], alive[1::2]):
        table = played.get(frozenset((a, b)))
        if table is not None and table.places is not None:
            first = min(table.places)
            out.append(min(p for p, place in zip(table.players, table.places) if place == first))
        else:
            standing = [p for p in (a, b) if p and p not in gone]
            out.append(standing[0] if len(standing) == 1 else 0)
    return out


def game_name(event_path: Path, number: int, table: int) -> str:
    """The file name of a table's game: the event's, its round and table."""
    return f"{event_path.stem}-r{number}-t{table}.corr"


def pair(path: Path | str, games: Path | None = None, now: datetime | None = None) -> tuple[Event, int]:
    """Pair the next round: make each table's game in `games` (default: the event's
    folder) as `corr new` would, then append the round and its byes. Refuses while a
    round is being played and once the event is over."""
    path = Path(path)
    folder = Path(games) if games is not None else path.parent
    if not folder.is_dir():
        raise UsageError(f"--games {folder}: no such folder")
    from corr import engine

    made: list[Path] = []
    with eventlog.writing(path) as writer:
        event = build(writer.log)
        if event.open_tables():
            left = len(event.open_tables())
            raise UsageError(f"round {len(event.rounds)} is still being played ({left} game{'s' * (left != 1)} "
                             f"without a result): take the results with `corr tournament record {path}` first")
        if event.finished or len(event.rounds) >= event.planned:
            raise UsageError(f"{path}: the event is over, all {event.planned} rounds were played")
        number = len(event.rounds) + 1
        planned = expected_round(event, number)
        header = event.header
        tables = []
        at = clock.stamp(now)
        try:
            for i, seats in enumerate(planned.tables, start=1):
                file = folder / game_name(path, number, i)
                players = [event.players[p].addressed for p in seats]
                table = engine.new_game(file, header["game"], players, dict(header["options"]),
                                        time_control=header.get("time_control"), now=now)
                made.append(file)
                tables.append({"table": i, "players": list(seats), "file": file.name, "game": table.header.id})
            writer.stage(writer.record("round", at, round=number, tables=tables))
            for player in planned.byes:
                writer.stage(writer.record("bye", at, round=number, player=player))
            writer.flush()
        except BaseException:
            _remove(made)
            raise
        return build(writer.log), number


def _remove(files: list[Path]) -> None:
    """Games made for a round that was not written: gone again, with what lies beside them."""
    from corr.engine import checkpoint
    from corr.engine.dealer import secret_path

    for file in files:
        file.unlink(missing_ok=True)
        secret_path(file).unlink(missing_ok=True)
        checkpoint.drop(file)


def result_of(table: Table, file: Path) -> dict[str, Any] | None:
    """A finished game's result record fields, from its audit: None while it is being
    played. A log that is corrupt, or is not the game paired at the table, is refused."""
    from corr.audit import audit
    from corr.log import store
    from corr.tournament.placing import places

    log = store.read(file)
    report = audit(file)
    if not report["intact"]:
        detail = report["findings"][-1]["detail"] if report["findings"] else "corrupt"
        raise CorruptLog(f"round {table.round} table {table.table}: {file} does not pass its audit: {detail}",
                         kind="game")
    if report["id"] != table.game:
        raise CorruptLog(f"round {table.round} table {table.table}: {file} is game {report['id']}, not {table.game}, "
                         "the game paired there", kind="game")
    if not report["result"]["over"]:
        return None
    if report["records"] != len(log.records):
        raise UsageError(f"{file} changed while it was audited: try again")
    seats = [s.seat for s in log.header.seats]
    scores = report["result"]["scores"]
    return {"round": table.round, "table": table.table, "game": table.game, "final": log.tail_hash,
            "places": places(seats, report["result"]), "scores": [int(scores.get(s, 0)) for s in seats]}


def record(path: Path | str, games: Path | None = None,
           now: datetime | None = None) -> tuple[Event, list[Table], list[Table]]:
    """Take the result of every finished game of the round being played, each audited
    first. Returns the event after, the tables whose results were taken, and the tables
    still playing."""
    path = Path(path)
    folder = Path(games) if games is not None else path.parent
    with eventlog.writing(path) as writer:
        event = build(writer.log)
        if not event.rounds:
            raise UsageError(f"{path}: no round is paired yet (`corr tournament pair {path}`)")
        taken, playing = [], []
        for table in event.open_tables():
            file = folder / table.file
            if not file.is_file():
                raise UsageError(f"round {table.round} table {table.table}: no game log {file} (give --games DIR)")
            fields = result_of(table, file)
            if fields is None:
                playing.append(table)
                continue
            writer.stage(writer.record("result", clock.stamp(now), **fields))
            taken.append(table)
        writer.flush()
        after = build(writer.log)
    return after, [after.table(t.round, t.table) for t in taken], playing


def player_number(event: Event, given: str) -> int:
    """The player a name (any case) or number names."""
    text = given.strip()
    if text.isdigit() and int(text) in event.players:
        return int(text)
    found = [p.number for p in event.players.values() if p.name.casefold() == text.casefold()]
    if not found:
        raise UsageError(f"no player {given!r} in the event (players: "
                         f"{', '.join(p.name for p in event.players.values())})")
    return found[0]


def withdraw(path: Path | str, player: str, note: str | None = None, now: datetime | None = None,
             key: Path | str | None = None) -> Event:
    """Note that a player leaves: the game they are playing is lost, from the next round
    on they are not paired, and whoever would have met them in a round robin wins that
    game (`corr.tournament.withdrawal`); their games played stand. In an event with a
    director, a withdrawal is the director's ruling, signed with `key`."""
    from corr.identity import load_private, public_text

    private = load_private(key) if key is not None else None
    with eventlog.writing(path) as writer:
        event = build(writer.log)
        director = event.header.get("director")
        if director is not None and private is None:
            raise UsageError(f"{path} has a director: a withdrawal is the director's ruling, signed with --sign KEY")
        if director is None and private is not None:
            raise UsageError(f"{path} names no director: a withdrawal is noted without --sign")
        if private is not None and director is not None and public_text(private) != director["key"]:
            raise UsageError(f"{key} is not the director's key")
        number = player_number(event, player)
        if event.players[number].withdrawn is not None:
            raise UsageError(f"{event.players[number].name} has withdrawn already")
        draft = writer.record("withdraw", clock.stamp(now), player=number, note=note or None)
        writer.stage(eventlog.sign(private, event.header["id"], draft) if private is not None else draft)
        writer.flush()
        return build(writer.log)


def rule(path: Path | str, key: Path | str, decision: str, because: str, *, round_: int | None = None,
         table: int | None = None, places: list[int] | None = None, player: str | None = None,
         replacement: str | None = None, now: datetime | None = None) -> Event:
    """Append the director's signed ruling: `adjudicate` a table's result (its places),
    `forfeit` a player's game at a table, or `replace` a player by another person."""
    from corr.engine import seat_entry
    from corr.identity import load_private, public_text

    private = load_private(key)
    with eventlog.writing(path) as writer:
        event = build(writer.log)
        director = event.header.get("director")
        if director is None:
            raise UsageError(f"{path} names no director: only a director named with --director at "
                             "`corr tournament new` rules")
        if public_text(private) != director["key"]:
            raise UsageError(f"{key} is not the director's key")
        if not because.strip():
            raise UsageError("--because: a ruling says why")
        fields: dict[str, Any] = {"by": "director", "decision": decision}
        if decision == "replace":
            if player is None or replacement is None:
                raise UsageError("replace needs --player (who leaves) and --by-player (who takes the place)")
            entry = seat_entry("", replacement, None)
            fields.update(player=player_number(event, player), name=entry["name"], email=entry.get("email"))
        elif decision in ("adjudicate", "forfeit"):
            if round_ is None or table is None:
                raise UsageError(f"{decision} needs --round and --table")
            try:
                found = event.table(round_, table)
            except KeyError:
                raise UsageError(f"round {round_} has no table {table}") from None
            if found.places is not None or round_ != len(event.rounds):
                raise UsageError(f"round {round_} table {table} is not being played: its result stands")
            if decision == "adjudicate":
                if places is None or len(places) != len(found.players) or \
                        any(not 1 <= p <= len(found.players) for p in places):
                    raise UsageError(f"adjudicate needs --places, one per seat from 1 to {len(found.players)} "
                                     "(e.g. --places 1,2)")
                fields.update(round=round_, table=table, places=places)
            else:
                if player is None:
                    raise UsageError("forfeit needs --player: who loses the game")
                number = player_number(event, player)
                if number not in found.players:
                    raise UsageError(f"{event.players[number].name} does not play at round {round_} table {table}")
                fields.update(round=round_, table=table, player=number)
        else:
            raise UsageError(f"ruling {decision!r}: say {', '.join(eventlog.DECISIONS)}")
        fields["note"] = because.strip()
        draft = writer.record("ruling", clock.stamp(now), **fields)
        writer.stage(eventlog.sign(private, event.header["id"], draft))
        writer.flush()
        return build(writer.log)
