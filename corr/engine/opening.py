"""How a table is opened: a log on disk read (`load`) or locked for adding records
(`writing`), a log replayed from its first line (`replay`), a new game (`new_game`),
another copy's bytes made this player's copy (`adopt`), a game in memory (`start`),
and one action on a log on disk (`act`, `accept`)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Collection, Iterator

from corr.engine import checkpoint, dealer
from corr.engine.header import make_header
from corr.engine.position import Position
from corr.engine.replay import replay as _replay
from corr.engine.replay import run
from corr.engine.table import Table
from corr.errors import CorrError, CorruptLog, UsageError
from corr.games import game_class
from corr.log import store
from corr.log.lines import Header, Record
from corr.notation import parse


def replay(log: store.GameLog, upto: int | None = None, each: Callable[[Position], None] | None = None,
           now: datetime | None = None) -> Table:
    """A log replayed from its first line into a table (`corr.engine.replay`), judged at
    `now`; `each` sees every position on the way."""
    return _replay(log, upto, each, cls=Table, now=now)


def load(path: Path | str, upto: int | None = None, now: datetime | None = None) -> Table:
    """A log read under a shared lock (with the dealer's secret, where it lies beside
    it) and replayed, from its checkpoint where one still holds; judged at `now`."""
    log = dealer.attach(store.read(path, known=checkpoint.known if upto is None else None))
    table, covered = _open(log, upto, now)
    if upto is None and checkpoint.due(table, covered):
        checkpoint.keep(table)
    return table


def verifies(path: Path | str, data: bytes) -> bool:
    """Whether `data`, as the log at `path`, verifies as a whole: every line complete,
    chained, judged by the rules and held to its hashes and signature."""
    try:
        log = dealer.attach(store.parse(data, Path(path)))
        if log.torn is not None:
            return False
        _replay(log, cls=Table)
    except CorrError:
        return False
    return True


@contextmanager
def writing(path: Path | str, now: datetime | None = None, seen: int | None = None,
            resume: Table | None = None, keys: tuple[Any, ...] = ()) -> Iterator[Table]:
    """The log opened under its exclusive lock for adding records; the lock ends with
    the block. `seen`: the log's size when its maker looked at it: a log that has grown
    since is refused (another writer got in first). `resume`: a table of this log read
    before, taken on as it is when the log is still the one it was read from (the same
    size and last line), replayed afresh when not. `keys`: private keys the table signs
    with (a host's: `corr host run --key`)."""
    with store.writing(path, known=checkpoint.known if resume is None else None) as writer:
        log = dealer.attach(writer.log)
        if seen is not None and log.size != seen:
            raise UsageError(f"{path}: the log changed while this action waited (it is at seq {len(log.records)} "
                             "now): look at the new position and try again")
        covered = len(log.records)
        if resume is not None and (resume.log.size, resume.log.tail_hash) == (log.size, log.tail_hash) \
                and len(resume.steps) == len(log.records):
            table = resume
            table.log = log
            if now is not None:
                table.now = now
        else:
            table, covered = _open(log, None, now)
        table.writer = writer
        for key in keys:
            table.hold(key)
        try:
            yield table
        finally:
            table.writer = None  # the lock ends here: what is added later stays in memory
        if checkpoint.due(table, covered):
            checkpoint.keep(table)


def _open(log: store.GameLog, upto: int | None, now: datetime | None) -> tuple[Table, int]:
    """The table of a log: gone on from its checkpoint where one holds (the records
    since are judged as replay judges them), else replayed from the first line; and how
    many records a checkpoint covers (0: none)."""
    if upto is None:
        kept = checkpoint.resume(log)
        if kept is not None:
            covered = kept.pop("count")
            table = Table(log, now=now, **kept)
            table.void_targets = frozenset(
                r.target for r in log.records if r.type == "ruling" and r.move == "void" and r.target is not None)
            run(table, log.records[covered:], covered)
            return table, covered
    return _replay(log, upto, cls=Table, now=now), 0


def adopt(path: Path | str, data: bytes, now: datetime | None = None) -> Table:
    """A copy of a game made from another copy's bytes (a new player's first message):
    checked whole - chain, rules, hashes, seals, signatures - and only then written, as
    a new file (FileExistsError when one is there)."""
    log = store.parse(data, Path(path))
    if log.torn is not None:
        raise CorruptLog(f"{path}: the log ends with a torn line", kind="torn")
    table = _replay(log, cls=Table, now=now)
    store.write_new(path, data)
    return table


def start(header: Header, seed: str | None = None, now: datetime | None = None) -> Table:
    """A new game in memory only (simulations, benchmarks, tests); `seed` deals a game
    with hidden information."""
    raw = store.dump(header)
    log = store.GameLog(path=Path(f"<{header.id}>"), header=header, header_raw=raw, size=len(raw) + 1)
    if seed is not None:
        log.secret = dealer.Secret(seed)
    table = _replay(log, cls=Table, now=now)
    table._opening()
    return table


def new_game(
    path: Path | str,
    game_name: str,
    players: list[str],
    options: dict[str, str],
    keys_: dict[str, str] | None = None,
    time_control: dict[str, int | str] | None = None,
    officials: dict[str, tuple[str, str]] | None = None,
    dealer_key: Path | str | None = None,
    now: datetime | None = None,
) -> Table:
    """Create the log of a new game: its header, and the records it makes by itself
    before its first move. A game with hidden information makes its creator the dealer:
    a fresh seed goes into `FILE.secret` (with `dealer_key`, the host's private key the
    dealer's records are signed with) and its commitment into the header."""
    cls = game_class(game_name)
    if not cls.is_hidden(cls.resolve_options(options)):
        if dealer_key is not None:
            raise UsageError(f"--dealer-key: {cls.title} has no hidden information, so no dealer")
        options = cls.dealt_options(options, None)
        header = make_header(game_name, players, options, keys_, time_control, officials, now=now)
        store.create(path, header)
        try:
            with writing(path, now) as table:
                table._opening()
            return table
        except BaseException:  # nothing of a game that could not start stays behind
            Path(path).unlink()
            raise
    if keys_:
        raise UsageError(f"{cls.title} takes no seat keys yet: its moves are made on the dealer's copy, "
                         "which cannot sign for a seat (players mail their moves to the dealer)")
    seed = dealer.new_seed()
    options = cls.dealt_options(options, seed)
    header = make_header(game_name, players, options, keys_, time_control, officials, dealer.commitment(seed),
                         now=now)
    secret = dealer.Secret(seed, str(Path(dealer_key).resolve()) if dealer_key is not None else None)
    if dealer.secret_path(path).exists():
        raise UsageError(f"{dealer.secret_path(path)} already exists; move it away or choose another file name")
    log = store.create(path, header)
    log.secret = secret
    written = False
    try:
        if header.host is not None or dealer_key is not None:
            if header.host is None:
                raise UsageError("--dealer-key signs the dealer's records as the host: name the host too "
                                 "(--host, --host-key)")
            dealer.signer(log)  # the key must be the host's
        dealer.write_secret(path, secret)
        written = True
        with writing(path, now) as table:
            table._opening()
        return table
    except BaseException:  # nothing of a game that could not start stays behind
        Path(path).unlink()
        if written:
            dealer.secret_path(path).unlink()
        checkpoint.drop(path)
        raise


def act(
    path: Path | str,
    kind: str,
    by: str | None = None,
    text: str | None = None,
    target: int | None = None,
    note: str | None = None,
    key: Path | str | None = None,
    answers: int | None = None,
    now: datetime | None = None,
    keys: tuple[Any, ...] = (),
    computer: Collection[str] = (),
) -> tuple[Table, list[Record]]:
    """One action on the log on disk, appended under its lock: the table after it and
    the records it made. With a private key, the key decides the seat (or, the host's,
    vouches for `by`) and signs. The action is meant for the position its maker saw:
    the log as it was when this call began or, with `answers`, the position after that
    seq; if another writer got in first, it is refused rather than played for someone
    else. Without `by` or a key, the seat on turn plays, unless it is one of the
    `computer`'s: a person's move is never recorded as the computer's. A refused action
    appends nothing."""
    try:
        seen = os.stat(path).st_size  # the log only grows: any append in between changes it
    except OSError:
        seen = None  # store.writing names what is wrong with the path
    move = parse(text) if text is not None else None
    private = None
    if key is not None:
        from corr.identity import load_private

        private = load_private(key)
    with writing(path, now, seen, keys=keys) as table:
        if private is not None:
            by = table.seat_of_key(private, by, str(key))
        elif by is None and computer:
            _not_the_computers(table, computer)
        records = table.add(kind, by, move, target, note, answers=answers)
    return table, records


def _not_the_computers(table: Table, computer: Collection[str]) -> None:
    """Refuse an action without a seat while a computer seat is on turn: it would be
    recorded as the computer's move (a racing writer, or after `corr bot --seat`)."""
    seat = table.to_move()
    if seat in computer:
        raise UsageError(
            f"{table.path}: seat {seat}, the computer's, is on turn: let it answer with `corr bot {table.path}`, "
            f"or play its move yourself with --by {seat}"
        )


def accept(path: Path | str, raws: list[bytes], now: datetime | None = None) -> tuple[Table, list[Record]]:
    """Records made elsewhere, checked and appended under the log's lock (`Table.accept`)."""
    with writing(path, now) as table:
        new = table.accept(raws)
    return table, new
