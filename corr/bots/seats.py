"""Computer seats: which seats of a game the computer plays, and at what level.

They are kept beside the log in `FILE.bots.json`, `{"seats": {"B": "strong"}}`, not in
the header: who sits at a seat is the players' business, and the log stays the same
whether a person or the computer made a move (each computer move is an ordinary record,
checked like any other). The file is written atomically and read as hostile input: a
file that is not what `write` makes is refused in one line, naming what is wrong.

`answer` is what `corr move`, `corr new` and the host call after a move: while a
computer seat is on turn, the computer plays it, one record per move.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from corr.errors import UsageError

if TYPE_CHECKING:
    import random

#: `FILE.bots.json`: the computer seats of the game logged in FILE.
SUFFIX = ".bots.json"
#: The largest computer seats file read (one written by `write` has well under 200 bytes).
MAX_BYTES = 4096
#: The most moves one `answer` makes: a guard, far beyond any game's length.
MAX_ANSWERS = 2000


def path_for(log_path: Path | str) -> Path:
    return Path(f"{log_path}{SUFFIX}")


def parse_bot(spec: str, seats: list[str]) -> tuple[str, str]:
    """`B=strong` (or `B` alone: strong) as (seat, level), checked against the game's seats."""
    from corr.bots.base import LEVELS

    seat, sep, level = spec.partition("=")
    seat, level = seat.strip().upper(), (level.strip().lower() if sep else "strong")
    if len(seat) != 1 or not level:
        raise UsageError(f"--bot {spec!r} is not SEAT=LEVEL (e.g. --bot B=strong)")
    if seat not in seats:
        raise UsageError(f"--bot {spec!r}: no seat {seat} (seats: {', '.join(seats)})")
    if level not in LEVELS:
        raise UsageError(f"--bot {spec!r}: unknown level {level!r} (levels: {', '.join(LEVELS)})")
    return seat, level


def check(levels: dict[str, str], game: str, seats: list[str], keyed: list[str] | tuple[str, ...] = ()) -> None:
    """Refuse computer seats a game cannot have: every seat the computer's (nobody would
    play), a seat that signs its records (the computer holds no player's private key),
    or a game no bot plays yet."""
    from corr.bots.base import chooser

    signing = [s for s in seats if s in keyed and s in levels]
    if signing:
        raise UsageError(f"seat {signing[0]} signs its records with its key, which the computer does not hold: "
                         f"drop its --key or its --bot")
    if levels and len(levels) >= len(seats):
        raise UsageError("every seat would be the computer's: leave at least one to a person")
    for level in sorted(set(levels.values())):
        chooser(game, level)  # a game without a bot says so


def write(log_path: Path | str, levels: dict[str, str]) -> None:
    """Replace `FILE.bots.json` atomically and durably."""
    from corr.log.store import replace_file

    data = {"seats": dict(sorted(levels.items()))}
    replace_file(path_for(log_path), (json.dumps(data, indent=2) + "\n").encode("utf-8"), 0o644)


def read(log_path: Path | str, seats: list[str] | None = None) -> dict[str, str]:
    """The computer seats of a game, {seat: level}; {} when it has none. Every seat
    named must be one of `seats` (default: those in the log's header)."""
    from corr.bots.base import LEVELS

    path = path_for(log_path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise UsageError(f"{path}: cannot read the computer seats: {err.strerror}") from None
    if seats is None:
        seats = _seats_of(log_path)

    def bad(why: str) -> UsageError:
        return UsageError(f"{path}: not a computer seats file ({why}); delete it or fix it")

    if not stat.S_ISREG(info.st_mode):
        raise bad("not a regular file")
    if info.st_size > MAX_BYTES:
        raise bad(f"{info.st_size} bytes, more than {MAX_BYTES}")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
        data = json.loads(raw.decode("utf-8"))
    except OSError as err:
        raise UsageError(f"{path}: cannot read the computer seats: {err.strerror}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise bad("not JSON") from None
    if not isinstance(data, dict) or set(data) != {"seats"} or not isinstance(data["seats"], dict):
        raise bad('it must be {"seats": {"B": "strong", ...}}')
    levels: dict[str, str] = {}
    for seat, level in data["seats"].items():
        shown = json.dumps(seat)[:20]
        if not isinstance(seat, str) or len(seat) != 1 or (seats is not None and seat not in seats):
            raise bad(f"{shown} is not a seat of this game")
        if level not in LEVELS:
            raise bad(f"seat {seat}: the level must be one of {', '.join(LEVELS)}")
        levels[seat] = level
    return levels


def _seats_of(log_path: Path | str) -> list[str] | None:
    """The seats in a log's header line; None when it cannot be read (the command reads
    the log next and says what is wrong with it)."""
    from corr.log import lines

    try:
        with open(log_path, "rb") as f:
            header = lines.read_header(f.readline(1 << 16).rstrip(b"\n"))
    except (OSError, lines.LineError):
        return None
    return [s.seat for s in header.seats]


def label(level: str) -> str:
    """How a computer seat is shown beside its name: `(computer, strong)`."""
    return f"(computer, {level})"


class Answer(NamedTuple):
    """One move the computer made for a seat."""

    seat: str
    level: str
    choice: Any  # corr.games.base.Choice
    records: list[Any]


def answer(log_path: Path | str, rng: random.Random | None = None, keys: tuple[Any, ...] = (),
           table: Any = None) -> tuple[list[Answer], Any]:
    """While a computer seat may move, let the computer move for it (one record a move,
    added at the table like any other); stops when only people may move, or the game is
    over. Returns the moves and the table after them (None when it made none). The log
    is replayed once: each move is chosen on the table as it stands, from its seat's view
    alone, and added under the log's lock only if the log is still the one it was chosen
    on (else it is read afresh and refused as stale, like any move). `keys`: private keys
    the table signs with (the host's, in a game it vouches for)."""
    path = Path(log_path)
    if not path_for(path).exists():
        return [], None
    import random

    from corr import engine
    from corr.bots.base import chooser
    from corr.seatview import observe

    rng = rng or random.Random()
    done: list[Answer] = []
    table = table if table is not None else engine.load(path)
    for key in keys:
        table.hold(key)
    levels = read(path, table.game.seats)
    check(levels, table.header.game, table.game.seats, [s.seat for s in table.header.seats if s.key])
    while len(done) < MAX_ANSWERS:
        views = ((s, observe(table, s, moves=True)) for s in table.on_turn() if s in levels)
        found = next(((s, v) for s, v in views if v.legal), None)
        if found is None:
            passed = _pass(path, table, levels)
            if passed is None:
                break
            table, made = passed
            done.append(made)
            continue
        seat, view = found
        choice = chooser(table.header.game, levels[seat])(view, rng)
        with engine.writing(path, resume=table) as table:
            records = table.add("move", seat, choice.move, answers=view.seq)
        done.append(Answer(seat, levels[seat], choice, records))
    return done, (table if done else None)


def _pass(path: Path, table: Any, levels: dict[str, str]) -> tuple[Any, Answer] | None:
    """A computer seat on turn with no move to make passes where its game takes a pass
    (a card that fits nowhere, cards 5.1); None when there is nothing it may do."""
    from corr import engine
    from corr.errors import CorrError
    from corr.games.base import Choice

    seat = next((s for s in table.on_turn() if s in levels), None)
    if seat is None or "pass" not in table.game.record_types:
        return None
    try:
        with engine.writing(path, resume=table) as table:
            records = table.add("pass", seat)
    except CorrError:
        return None
    return table, Answer(seat, levels[seat], Choice(None, 0.0, "nothing it holds fits"), records)  # type: ignore[arg-type]


def narrate(answers: list[Answer], table: Any, viewer: str | None) -> list[str]:
    """The computer's moves as lines for `viewer` (a seat, None: the public), each only
    where the viewer may read its record (`corr.seatview.reads`): `seq 6: B (computer,
    strong) 7 (3,4) !: conquers field 3`. A move on another board of a running Domino
    duel, and the reasons for it, would give the digits to come away."""
    from corr.seatview import reads

    return [f"seq {a.records[0].seq}: {a.seat} {label(a.level)} {a.choice.move or a.records[0].type}: {a.choice.why}"
            for a in answers if reads(table, viewer, a.records[0])]
