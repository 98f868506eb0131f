"""The finished games under some folders, each audited first, as the ratings take them:
who sat where (a player known by their address, else by their name), where each placed,
and when the game ended. A log that cannot be rated is skipped with its reason, never
silently: a rating list that leaves a game out must say so."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corr.errors import CorrError

#: Why a log is not rated; the keys of the summary's counts, in the order it says them.
CORRUPT, UNFINISHED, ALONE, TWICE, UNREADABLE = "corrupt", "unfinished", "one seat", "one player in two seats", "unreadable"
REASONS = (CORRUPT, UNFINISHED, ALONE, TWICE, UNREADABLE)


@dataclass(frozen=True)
class Player:
    """A seat's player as the ratings know them: `key` is the address in lower case when
    the seat has one, else the name as written (trimmed); `name` and `address` as the
    log has them, for showing."""

    key: str
    name: str
    address: str | None


@dataclass(frozen=True)
class Finished:
    """One finished game: its players in seat order, each one's place (1 is first; equal
    places are shared), and whether each won: one winner alone wins, several winners
    draw, the others lose."""

    file: str
    game: str
    id: str
    ended: str  # the time of the log's last record
    players: tuple[Player, ...]
    places: tuple[int, ...]
    winners: tuple[bool, ...]


@dataclass(frozen=True)
class Skipped:
    file: str
    reason: str  # one of REASONS
    detail: str = ""
    game: str | None = None  # when the header could be read


def player(seat: Any) -> Player:
    """The player in a header's seat."""
    address = (seat.email or "").strip() or None
    name = seat.name.strip() or seat.name
    return Player(f"<{address.lower()}>" if address else name, seat.name, address)


def places(seats: list[str], winners: list[str], scores: dict[str, int], forfeit: str | None) -> list[int]:
    """Each seat's place: the winners first, then the others by score (the higher the
    better), the seat that forfeited last; seats alike share a place (1, 2, 2, 4). No
    winner at all is a draw between everyone."""

    def standing(seat: str) -> tuple[int, int, int]:
        won = not winners or seat in winners
        return (0 if won else 1, 1 if seat == forfeit else 0, -scores.get(seat, 0))

    keys = [standing(s) for s in seats]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def read(path: Path, label: str) -> Finished | Skipped:
    """The log at `path` (shown as `label`) as a finished game, or why it is skipped."""
    from corr.audit import audit
    from corr.log import store

    try:
        mode = os.stat(path).st_mode  # a FIFO would hang the read
        if not stat.S_ISREG(mode):
            return Skipped(label, UNREADABLE, "not a regular file")
        report = audit(path)
        if not report["intact"]:
            fatal = report["findings"][-1]["detail"] if report["findings"] else "the audit failed"
            return Skipped(label, CORRUPT, fatal.removeprefix(f"{path}: "), report.get("game"))
        result = report["result"]
        if not result["over"]:
            return Skipped(label, UNFINISHED, "the game is not over", report["game"])
        log = store.read(path)
    except CorrError as err:
        message = str(err).removeprefix(f"{path}: ")  # the line names the file already
        return Skipped(label, CORRUPT if err.exit_code == 2 else UNREADABLE, message)
    except OSError as err:
        return Skipped(label, UNREADABLE, f"cannot read it: {err.strerror or err}")
    except (ValueError, RecursionError, MemoryError) as err:
        return Skipped(label, UNREADABLE, f"not a corr log ({type(err).__name__}: {err})")
    seats = log.header.seats
    if len(seats) < 2:
        return Skipped(label, ALONE, "a game alone has nobody to be rated against", log.header.game)
    players = tuple(player(s) for s in seats)
    if len({p.key for p in players}) < len(players):
        return Skipped(label, TWICE, "a player against themself is not rated", log.header.game)
    letters = [s.seat for s in seats]
    winners = list(result["winners"])
    forfeit = result["forfeit"]["seat"] if result.get("forfeit") else None
    return Finished(
        file=label,
        game=log.header.game,
        id=log.header.id,
        ended=log.records[-1].at if log.records else log.header.created,
        players=players,
        places=tuple(places(letters, winners, result["scores"], forfeit)),
        winners=tuple(not winners or s in winners for s in letters),
    )


def collect(folders: list[Path]) -> tuple[list[Finished], list[Skipped]]:
    """Every log (`*.corr`) under the folders and their subfolders: the finished games in
    the order they ended (then by file), and the logs skipped, by file. A missing or
    unreadable folder is refused (UsageError); a file found twice counts once."""
    from corr.status import logs_in

    seen: set[Path] = set()
    games: list[Finished] = []
    skipped: list[Skipped] = []
    for folder in folders:
        for path in logs_in(folder, recursive=True):
            real = path.resolve()
            if real in seen:
                continue
            seen.add(real)
            got = read(path, str(path))
            if isinstance(got, Finished):
                games.append(got)
            else:
                skipped.append(got)
    games.sort(key=lambda g: (g.ended, g.file))
    skipped.sort(key=lambda s: s.file)
    return games, skipped
