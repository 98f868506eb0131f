"""Every game in a folder at a glance: one summary per log (`corr status`).

A player with many correspondence games wants to know where it is their turn and which
deadline comes first. Each log is replayed and summarised from its public view only
(corr.seatview): the summary never shows a hidden card, whoever runs it. A log that cannot
be read gets a summary saying why, so one damaged or hostile file never hides the rest.
"""

from __future__ import annotations

import os
import stat
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from corr.errors import CorrError, UsageError

SUFFIX = ".corr"


@dataclass(frozen=True)
class GameStatus:
    """One game's summary line; the fields are the keys of `corr status --json`."""

    file: str
    game: str | None = None
    players: list[dict[str, str]] = field(default_factory=list)  # [{"seat": "A", "name": "Anna"}]
    seq: int | None = None  # the log's newest record, whoever may read it (seatview.log_seq)
    turn: list[str] = field(default_factory=list)  # the seats that may act now; [] when over
    yours: bool = False  # a seat on turn belongs to the player asking (--me)
    deadline: str | None = None  # when the time of the seat on turn runs out (UTC)
    time_left_s: int | None = None  # seconds until then; negative once it has passed
    vacation_until: str | None = None  # the seat on turn's clock stands still until then (UTC)
    over: bool = False
    result: str | None = None  # "B Ben wins", "draw between A Anna and B Ben", ...
    error: str | None = None  # why the log could not be read; the other fields are empty
    torn: bool = field(default=False, compare=False)  # a torn last line was left out

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["torn"]
        return data


def logs_in(folder: Path, recursive: bool = False) -> list[Path]:
    """The `*.corr` files of `folder` (and of its subfolders with `recursive`; symbolic
    links to folders are not followed, so a loop cannot trap the walk), sorted. A
    missing or unreadable `folder` is refused; an unreadable subfolder is skipped."""
    try:
        if not folder.is_dir():
            raise UsageError(f"{folder}: no such folder" if not folder.exists() else f"{folder}: not a folder")
        if not recursive:
            with os.scandir(folder) as entries:
                return sorted(Path(e.path) for e in entries if e.name.endswith(SUFFIX))
    except OSError as err:
        raise UsageError(f"{folder}: cannot read the folder: {err.strerror or err}") from None
    if not os.access(folder, os.R_OK | os.X_OK):
        raise UsageError(f"{folder}: cannot read the folder: permission denied")
    found: list[Path] = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        found += (Path(root) / f for f in files if f.endswith(SUFFIX))
    return sorted(found)


def _result(data: dict[str, Any]) -> str:
    """The end of a game in words, from its public view: who won or drew, and how."""
    names = {s["seat"]: f"{s['seat']} {s['short']}" for s in data["seats"]}
    winners = [names.get(w, w) for w in data["winners"]]
    if not winners:
        text = "no winner"
    elif len(winners) == 1:
        text = f"{winners[0]} wins"
    else:
        text = "draw between " + ", ".join(winners[:-1]) + " and " + winners[-1]
    forfeit = data.get("forfeit")
    if forfeit:
        text = f"{names.get(forfeit['seat'], forfeit['seat'])} lost {forfeit['cause']}, {text}"
    return text


def _deadline(entry: dict[str, Any], now: datetime) -> tuple[str | None, int | None, str | None]:
    """The deadline of a running game, the seconds left until it and, when the seat on
    turn is on vacation, when its clock runs again: the seat on turn's under
    correspondence time control (corr.timecontrol), else the game's own clock as its
    public view shows it (Domino's, domino 6). The seconds are counted to the deadline
    shown, so a vacation, which moves the deadline on, is in them too. `entry` is what
    the log alone decides (`_entry`): the clocks as the records leave them, kept
    pickled so that asking at `now` never changes what is kept."""
    from corr import timecontrol

    if entry["clocks"] is not None:
        import pickle

        seat = entry["to_move"]
        clock = pickle.loads(entry["clocks"]).report(seat, now).get(seat or "")
        if clock is not None and clock["deadline"] is not None:
            end = timecontrol.instant(clock["deadline"])
            return clock["deadline"], int((end - now).total_seconds()), clock["vacation_until"]
    own = entry["own_end"]
    if own:
        end = timecontrol.instant(own)
        return own, int((end - now).total_seconds()), None
    return None, None, None


def seats_of(players: list[dict[str, str]], me: str | None) -> set[str]:
    """The seats of the player named `me` (any case; several when they play several)."""
    if not me or not me.strip():
        return set()
    wanted = me.strip().casefold()
    return {p["seat"] for p in players if p["name"].strip().casefold() == wanted}


def game_status(path: Path, me: str | None = None, now: datetime | None = None, label: str | None = None) -> GameStatus:
    """The summary of the log at `path` (shown as `label`), for the player named `me`;
    a summary with `error` when the log cannot be read or replayed."""
    from corr import clock

    label = str(path) if label is None else label
    entry = _entry(path)
    if isinstance(entry, GameStatus):
        return GameStatus(label, error=entry.error)
    return _summary(entry, label, me, now or clock.now())


def _entry(path: Path) -> dict[str, Any] | GameStatus:
    """What the log at `path` alone decides of its summary (kept by corr.statuscache),
    or a summary with `error` when it cannot be read or replayed."""
    from corr import engine
    from corr.seatview import log_seq, position

    label = str(path)
    try:
        mode = os.stat(path).st_mode  # a FIFO or device would hang the read
        if not stat.S_ISREG(mode):
            return GameStatus(label, error="not a regular file" if not stat.S_ISDIR(mode) else "a folder, not a log")
        rep = engine.load(path)
        data = position(rep)  # the public view: no hidden card of any seat
    except CorrError as err:
        return GameStatus(label, error=_reason(str(err), path))
    except OSError as err:
        return GameStatus(label, error=f"cannot read it: {err.strerror or err}")
    except (ValueError, RecursionError, MemoryError) as err:
        return GameStatus(label, error=f"not a corr log ({type(err).__name__}: {err})")
    judged = rep.when()  # the time the game's own clock was read at
    over = bool(data["over"])
    turn = [] if over else list(rep.on_turn())
    clocks = None
    if not over and rep.header.time_control is not None and turn:
        import pickle

        from corr import timecontrol

        running = timecontrol.Clocks(rep.header)
        for record in rep.standing():
            running.add(record)
        clocks = pickle.dumps(running, protocol=pickle.HIGHEST_PROTOCOL)
    own = data.get("clock")
    own_end = own["deadline"] if isinstance(own, dict) and own.get("deadline") else None
    return {
        "game": rep.header.game,
        "commits": rep.header.commitment is not None,  # to a dealer's secret beside the log
        "players": [{"seat": s["seat"], "name": s["name"]} for s in data["seats"]],
        "seq": log_seq(rep),  # a running duel's public view has read none of its records
        "turn": turn,
        "over": over,
        "result": _result(data) if over else None,
        "torn": rep.log.torn is not None,
        "to_move": rep.to_move() if clocks is not None else None,
        "clocks": clocks,
        "own_end": own_end,
        "before_end": own_end is not None and judged < _instant(own_end),
    }


def _instant(stamp: str) -> datetime:
    from corr import timecontrol

    return timecontrol.instant(stamp)


def _summary(entry: dict[str, Any], label: str, me: str | None, now: datetime) -> GameStatus:
    """The summary line of a log from what the log decides (`_entry`), at `now`."""
    players = [dict(p) for p in entry["players"]]
    over = entry["over"]
    turn = list(entry["turn"])
    deadline, left, vacation = (None, None, None) if over else _deadline(entry, now)
    return GameStatus(
        file=label,
        game=entry["game"],
        players=players,
        seq=entry["seq"],
        turn=turn,
        yours=bool(seats_of(players, me) & set(turn)),
        deadline=deadline,
        time_left_s=left,
        vacation_until=vacation,
        over=over,
        result=entry["result"],
        torn=entry["torn"],
    )


def _reason(message: str, path: Path) -> str:
    """An error's message without the file name it starts with (the line names it)."""
    prefix = f"{path}: "
    return message[len(prefix):] if message.startswith(prefix) else message


def order(games: list[GameStatus]) -> list[GameStatus]:
    """Your turn first, then the nearest deadline (games without one after), then name."""
    return sorted(games, key=lambda g: (not g.yours, g.deadline is None, g.deadline or "", g.file))


def folder_status(folder: Path, me: str | None = None, recursive: bool = False,
                  now: datetime | None = None) -> list[GameStatus]:
    """Every log in `folder`, summarised and in `order`; file names relative to it. What
    each log alone decides is kept (corr.statuscache) for the very bytes it was made
    from, so a log unchanged since the last run is read, not replayed."""
    from corr import clock, statuscache

    now = now or clock.now()
    paths = logs_in(folder, recursive)
    kept = statuscache.load(folder, recursive)
    fresh: dict[str, Any] = {}
    games = []
    for path in paths:
        label = str(path.relative_to(folder)) if recursive else path.name
        seen = statuscache.fingerprint(path)
        entry: Any = kept.get(label)
        made_now: dict[str, Any]
        if seen is None or not statuscache.holds(entry, path, seen, now):
            secret = statuscache.secret_seen(path)  # before the replay reads it
            made = _entry(path)
            if isinstance(made, GameStatus):
                games.append(GameStatus(label, error=made.error))
                continue
            # kept only when the log is still the one fingerprinted: a log written to
            # meanwhile is replayed next time
            entry = dict(made, seen=seen) if seen is not None and statuscache.fingerprint(path) == seen else None
            if entry is not None and made["commits"]:
                entry["secret"] = secret
                if statuscache.secret_seen(path) != secret:
                    entry = None
            made_now = made
        else:
            made_now = entry
        if entry is not None:
            fresh[label] = entry
        games.append(_summary(made_now, label, me, now))
    if fresh != kept:
        statuscache.save(folder, recursive, fresh)
    return order(games)
