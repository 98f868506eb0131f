"""The engine: replays a log through its game, and turns a new move into records.

The engine owns what every game shares: seats and turns, seq numbers and hashes,
timestamps, and the rule that a refused move appends nothing. Games only judge moves.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from corr import clock, dealer
from corr.errors import CorrError, CorruptLog, IllegalMove, NotationError, UsageError
from corr.games import game_class
from corr.games.base import QUIET, Action, Game, Outcome, Result
from corr.log import store
from corr.log import lines
from corr.log.lines import Header, Record
from corr.notation import Move, parse

SEAT_LETTERS = "ABCDEF"
#: Records about time, judged by the engine against the header's time control (DESIGN 6).
CLOCK_TYPES = frozenset({"timeout", "vacation"})
ENGINE_TYPES = frozenset({"comment"}) | CLOCK_TYPES
#: Records that may still follow a game ended by a timeout or a forfeit.
AFTER_FORFEIT = frozenset({"comment", "reveal"})


def state_hash(game: Game, state: Any, forfeit: str | None = None) -> str:
    key = game.state_key(state)
    return hashlib.sha256(key + b"|forfeit:" + forfeit.encode() if forfeit else key).hexdigest()


@dataclass(slots=True)
class Step:
    """One replayed record with the action it carried and what it did."""

    record: Record
    action: Action
    outcome: Outcome
    voided: bool = False  # set aside by a ruling: it stays in the log, the game ignores it


@dataclass
class Replay:
    """A log replayed up to some seq: the game, the position, and every step taken."""

    log: store.GameLog
    game: Game
    state: Any
    steps: list[Step] = field(default_factory=list)
    forfeit: str | None = None  # the seat that lost by a timeout record or a ruling
    forfeit_cause: str = "on time"  # or "by a ruling"
    voided: frozenset[int] = frozenset()  # seqs a ruling set aside
    #: seat -> what the dealer told that seat (its hand), on a player's copy that
    #: cannot deal; corr.view shows it to that seat only
    private: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: seq -> (state, forfeit, cause) just before that record, kept for the records void
    #: rulings of the log name: a void rebuilds the position from there, not from the start
    snapshots: dict[int, tuple[Any, str | None, str]] = field(default_factory=dict)
    void_targets: frozenset[int] = frozenset()

    def to_move(self) -> str | None:
        """The seat on turn, None when the game is over (also by a timeout or forfeit);
        in a Domino duel the first of the seats that may move (see `on_turn`)."""
        return None if self.forfeit else self.game.to_move(self.state)

    def on_turn(self) -> tuple[str, ...]:
        """Every seat that may act now; () when the game is over."""
        return () if self.forfeit else self.game.on_turn(self.state)

    def visible(self, seat: str | None) -> list[Step]:
        """The replayed steps `seat` (None: the public) may read: all of them but in a
        running Domino duel (`Game.shows`)."""
        shows, state = self.game.shows, self.state
        return [step for step in self.steps if shows(state, step.record.by, seat)]

    def last_seen(self, seat: str | None) -> Step | None:
        """The newest step `seat` may read (in most games the newest step)."""
        shows, state = self.game.shows, self.state
        for step in reversed(self.steps):
            if shows(state, step.record.by, seat):
                return step
        return None

    def seen_seq(self, seat: str | None) -> int:
        """The seq of the newest record `seat` may read (0 before any): what the seat's
        view is of, and what its mailed reply answers."""
        step = self.last_seen(seat)
        return step.record.seq if step is not None else 0

    def standing(self, upto: int | None = None) -> list[Record]:
        """The records before index `upto` (all replayed ones by default) that no ruling
        voided: what clocks are judged on."""
        records = self.log.records[: len(self.steps) if upto is None else upto]
        if not self.voided:
            return records
        return [r for r in records if r.seq not in self.voided]

    def result(self) -> Result:
        """The game's result; a timeout or forfeit ends it, the best of the other seats winning."""
        result = self.game.result(self.state)
        if self.forfeit is None:
            return result
        others = [s for s in self.game.seats if s != self.forfeit]
        best = max(result.scores.get(s, 0) for s in others)
        return Result(True, tuple(s for s in others if result.scores.get(s, 0) == best), result.scores)

    @property
    def seq(self) -> int:
        return self.steps[-1].record.seq if self.steps else 0

    @property
    def header(self) -> Header:
        return self.log.header


def make_game(header: Header, seed: str | None = None) -> Game:
    """The game a header describes, dealt from `seed` where this copy knows it; a header
    no `corr new` could have written is corrupt."""
    try:
        cls = game_class(header.game)
        options = cls.resolve_options(dict(header.options))
    except UsageError as err:
        raise CorruptLog(f"line 1 (header): {err}", kind="header") from None
    if options != header.options:
        missing = ", ".join(sorted(set(options) - set(header.options)))
        raise CorruptLog(f"line 1 (header): options incomplete, missing {missing}", kind="header")
    seats = [s.seat for s in header.seats]
    if not cls.min_seats <= len(seats) <= cls.max_seats:
        raise CorruptLog(
            f"line 1 (header): {cls.title} is for {cls.min_seats}-{cls.max_seats} seats, the header has {len(seats)}",
            kind="header",
        )
    if header.time_control is not None:
        from corr import timecontrol

        try:
            timecontrol.validate(dict(header.time_control))
        except UsageError as err:
            raise CorruptLog(f"line 1 (header): {err}", kind="header") from None
    if seats != list(SEAT_LETTERS[: len(seats)]):
        raise CorruptLog(f"line 1 (header): seats must be {', '.join(SEAT_LETTERS[: len(seats)])} in order", kind="header")
    hidden = cls.is_hidden(options)
    if hidden != (header.commitment is not None):
        need = "needs the dealer's commitment" if hidden else "has no hidden information, so no commitment"
        raise CorruptLog(f"line 1 (header): {cls.title} {need}", kind="header")
    if cls.own_clock and header.time_control is not None:
        raise CorruptLog(f"line 1 (header): {cls.title} keeps its own time, so no time control", kind="header")
    try:
        game = cls(options, seats, seed)
    except UsageError as err:  # options that cannot go with these seats
        raise CorruptLog(f"line 1 (header): {err}", kind="header") from None
    game.created = header.created
    return game


def check_turn(game: Game, state: Any, action: Action) -> None:
    """The checks every game shares, made before the game sees the action."""
    if action.type in ENGINE_TYPES:
        return
    if action.type not in game.record_types:
        raise IllegalMove("", f"{game.title} has no {action.type!r} records")
    if (action.by == dealer.DEALER) != (action.type in game.dealer_types):
        if action.by == dealer.DEALER:
            raise IllegalMove("", f"the dealer makes no {action.type!r} records")
        raise IllegalMove("", f"a {action.type} is the dealer's record, not {action.by}'s")
    if action.by == dealer.DEALER:
        return
    if action.by not in game.seats:
        raise UsageError(f"unknown seat {action.by!r} (seats: {', '.join(game.seats)})")
    if action.type in game.turn_types:
        on_turn = game.on_turn(state)
        if not on_turn:
            raise IllegalMove(game.end_rule(state), "the game is over")
        if action.by not in on_turn:
            if len(on_turn) > 1:
                raise IllegalMove(game.turn_rule, f"{', '.join(on_turn)} may move now, not {action.by}")
            raise IllegalMove(game.turn_rule_for(state), f"it is {on_turn[0]}'s turn, not {action.by}'s")
    if action.type == "move" and action.move is None:
        raise UsageError("a move record needs a move")


def clock_record(rep: Replay, state: Any, action: Action, at: str, note: str | None, before: list[Record]) -> None:
    """Check a timeout or vacation record against the time control; a due timeout makes
    the seat on turn forfeit."""
    from corr import timecontrol

    header = rep.header
    if header.time_control is None:
        raise IllegalMove("", f"this game has no time control, so no {action.type} records")
    if action.by not in rep.game.seats:
        raise UsageError(f"unknown seat {action.by!r} (seats: {', '.join(rep.game.seats)})")
    when = timecontrol.instant(at)
    on_turn = rep.game.to_move(state)
    if action.type == "timeout":
        late = timecontrol.overdue(header, before, on_turn, when)
        if late is None:
            raise IllegalMove("", f"no timeout is due: {on_turn} still has time (see `corr clock`)")
        if late == action.by:
            raise IllegalMove("", "a seat cannot claim a timeout against itself")
        rep.forfeit, rep.forfeit_cause = late, "on time"
        return
    if note is None or not note.isdigit() or int(note) < 1:
        raise UsageError("a vacation record names its whole days (note), e.g. 7")
    timecontrol.check_vacation(header, before, action.by, int(note), when, to_move=on_turn)


def apply(game: Game, state: Any, action: Action) -> Outcome:
    check_turn(game, state, action)
    if action.type in ENGINE_TYPES:
        return QUIET
    return game.apply(state, action)


def reveal_after_forfeit(rep: Replay, state: Any, action: Action) -> Outcome:
    """A game with hidden information that a timeout or forfeit ended is over too: the
    dealer reveals the deal, so the cards played can still be checked (cards 6.2)."""
    check_turn(rep.game, state, action)  # the dealer's record, in a game that has one
    if any(step.record.type == "reveal" for step in rep.steps):
        raise IllegalMove("", "the deal was revealed already")
    return Outcome(events=(f"the game is over ({rep.forfeit} lost {rep.forfeit_cause}); the dealer reveals the deal",))


def advance(rep: Replay, record: Record, index: int) -> tuple[Action, Outcome]:
    """Judge record number `index` of the log against the position and apply it; raises
    the error of the rule it breaks. The caller checks hashes and signatures."""
    if record.type == "ruling":
        from corr import rulings

        return Action(record.seq, record.type, record.by, None, record.target, record.at), rulings.apply(rep, record, index)
    move = parse(record.move) if record.move is not None else None
    action = Action(record.seq, record.type, record.by, move, record.target, record.at)
    if rep.forfeit is not None and record.type not in AFTER_FORFEIT:
        raise IllegalMove("", f"the game is over: {rep.forfeit} lost {rep.forfeit_cause}")
    if rep.forfeit is not None and record.type == "reveal":
        return action, reveal_after_forfeit(rep, rep.state, action)
    if record.type in CLOCK_TYPES:
        clock_record(rep, rep.state, action, record.at, record.note, rep.standing(index))
    return action, apply(rep.game, rep.state, action)


def signing_keys(header: Header) -> dict[str, str]:
    """Seat -> public key, for the seats whose records must be signed."""
    return {s.seat: s.key for s in header.seats if s.key}


def official_keys(header: Header) -> dict[str, str]:
    """"referee" / "host" -> public key, for the officials the header names: their
    rulings are always signed."""
    return {role: o.key for role in ("referee", "host") if (o := getattr(header, role)) is not None}


def dealer_keys(header: Header) -> dict[str, str]:
    """"dealer" -> the host's public key, when a game with hidden information names a
    host: the dealer's records are then signed with it."""
    if header.commitment is None or header.host is None:
        return {}
    return {dealer.DEALER: header.host.key}


def replay(log: store.GameLog, upto: int | None = None, each: Callable[[Replay], None] | None = None) -> Replay:
    """Rebuild the position record by record, checking each against the rules and its
    stored state hash; raises CorruptLog at the first record that does not hold. `each`,
    if given, sees the replay at every position on the way (seq 0 first), in one pass.

    A game with hidden information is dealt from the log's reveal, else from the
    dealer's secret where this copy has it; without either, only the public position is
    replayed (and checked: the state hashes cover nothing else)."""
    game = make_game(log.header, dealer.seed_for(log))
    state = game.initial()
    result = Replay(log, game, state)
    if each is not None:
        each(result)
    # Runs once per record of every log read: locals only, the hash inlined.
    add_step = result.steps.append
    state_key = game.state_key
    sha256 = hashlib.sha256
    keys = signing_keys(log.header) | official_keys(log.header) | dealer_keys(log.header)
    targets = result.void_targets = frozenset(
        r.target for r in log.records if r.type == "ruling" and r.move == "void" and r.target is not None
    )
    snapshots = result.snapshots
    clone = game.clone
    for index, record in enumerate(log.records):
        if upto is not None and record.seq > upto:
            break
        if targets and record.seq in targets:
            snapshots[record.seq] = (clone(result.state), result.forfeit, result.forfeit_cause)
        if keys and record.by in keys:
            from corr.identity import verify

            try:
                verify(keys[record.by], log.header.id, record)
            except CorruptLog as err:
                raise CorruptLog(f"{log.path}: {err}", seq=err.seq, kind=err.kind) from None
        elif record.sig is not None:  # a signature nobody can check would be a second encoding
            raise CorruptLog(f"{log.path}: seq {record.seq} carries a signature, but {record.by} signs with no key",
                             seq=record.seq, kind="signature")
        try:
            if record.type == "move" and result.forfeit is None:  # most records: advance() inlined
                action = Action(record.seq, "move", record.by, parse(record.move) if record.move else None, None,
                                record.at)
                outcome = apply(game, state, action)
            else:
                action, outcome = advance(result, record, index)
        except NotationError as err:
            raise CorruptLog(f"{log.path}: seq {record.seq}: {err}", seq=record.seq, kind="notation") from None
        except CorrError as err:
            raise CorruptLog(
                f"{log.path}: seq {record.seq} ({record.type} {record.move or ''} by {record.by}) breaks the rules: {err}",
                seq=record.seq,
                kind="illegal",
            ) from None
        state = result.state  # a ruling that voids a record rebuilds the position
        key = state_key(state)
        if result.forfeit is not None:
            key += b"|forfeit:" + result.forfeit.encode()
        if sha256(key).hexdigest() != record.state:
            raise CorruptLog(
                f"{log.path}: seq {record.seq}: the position after the record does not match its state hash: "
                "the log was edited",
                seq=record.seq,
                kind="state",
            )
        add_step(Step(record, action, outcome))
        if each is not None:
            each(result)
    return result


def load(path: Path | str, upto: int | None = None) -> Replay:
    """Read and replay a log file (with the dealer's secret, where it lies beside it)."""
    return replay(dealer.attach(store.read(path)), upto)


def make_header(
    game_name: str,
    players: list[str],
    options: dict[str, str],
    keys: dict[str, str] | None = None,
    time_control: dict[str, int | str] | None = None,
    officials: dict[str, tuple[str, str]] | None = None,
    commitment: str | None = None,
) -> Header:
    """A checked header for a new game; seats A, B, ... in the order the players are given.
    `officials` maps "referee" / "host" to (`Name <address>`, public key); `commitment`
    is the dealer's, for games with hidden information."""
    import secrets  # only new games need it: keep it off every move's start-up

    cls = game_class(game_name)
    if not cls.min_seats <= len(players) <= cls.max_seats:
        raise UsageError(
            f"{cls.title} is for {cls.min_seats}-{cls.max_seats} players; {len(players)} given (use --player per seat)"
        )
    resolved = cls.resolve_options(options)
    if cls.own_clock and time_control is not None:
        raise UsageError(f"{cls.title} keeps its own time (option time_limit), so it takes no --time")
    cls(resolved, list(SEAT_LETTERS[: len(players)]))  # options that cannot go with this many seats
    seats = [seat_entry(SEAT_LETTERS[i], player, (keys or {}).get(SEAT_LETTERS[i])) for i, player in enumerate(players)]
    unknown = sorted(set(keys or {}) - set(SEAT_LETTERS[: len(players)]))
    if unknown:
        raise UsageError(f"--key for seat {unknown[0]}, but the game has seats {', '.join(SEAT_LETTERS[: len(players)])}")
    data = {"id": f"{cls.name}-{secrets.token_hex(4)}", "game": cls.name, "options": resolved, "seats": seats,
            "created": clock.stamp(), "time_control": time_control, "commitment": commitment}
    for role, (person, key) in (officials or {}).items():
        entry = seat_entry("", person, key)
        del entry["seat"]
        data[role] = entry
    try:
        return lines.header_from(data)
    except lines.LineError as err:
        raise UsageError(f"cannot start the game: {err}") from None


def seat_entry(seat: str, player: str, key: str | None) -> dict[str, str]:
    """A header seat from `Name` or `Name <address>` and an optional public key."""
    import re

    entry = {"seat": seat, "name": player.strip()}
    addressed = re.fullmatch(r"\s*(.*?)\s*<([^<>@\s]+@[^<>@\s]+)>\s*", player)
    if addressed:
        name, address = addressed.groups()
        entry.update(name=name.strip('"') or address, email=address)
    if key is not None:
        entry["key"] = key
    return entry


def new_game(
    path: Path | str,
    game_name: str,
    players: list[str],
    options: dict[str, str],
    keys: dict[str, str] | None = None,
    time_control: dict[str, int | str] | None = None,
    officials: dict[str, tuple[str, str]] | None = None,
    dealer_key: Path | str | None = None,
) -> Replay:
    """Create a log file holding the header of a new game. A game with hidden
    information makes its creator the dealer: a fresh seed goes into `FILE.secret`
    (with `dealer_key`, the host's private key dealer records are signed with) and its
    commitment into the header."""
    cls = game_class(game_name)
    if not cls.is_hidden(cls.resolve_options(options)):
        if dealer_key is not None:
            raise UsageError(f"--dealer-key: {cls.title} has no hidden information, so no dealer")
        options = cls.dealt_options(options, None)
        return replay(store.create(path, make_header(game_name, players, options, keys, time_control, officials)))
    if keys:
        raise UsageError(f"{cls.title} takes no seat keys yet: its moves are made on the dealer's copy, "
                         "which cannot sign for a seat (players mail their moves to the dealer)")
    seed = dealer.new_seed()
    options = cls.dealt_options(options, seed)
    header = make_header(game_name, players, options, keys, time_control, officials, dealer.commitment(seed))
    secret = dealer.Secret(seed, str(Path(dealer_key).resolve()) if dealer_key is not None else None)
    if dealer.secret_path(path).exists():
        raise UsageError(f"{dealer.secret_path(path)} already exists; move it away or choose another file name")
    log = store.create(path, header)
    log.secret = secret
    written = False
    try:
        if header.host is not None or dealer_key is not None:
            if header.host is None:
                raise UsageError("--dealer-key signs the dealer's records as the host: name the host too (--host, --host-key)")
            dealer.signer(log)  # the key must be the host's
        dealer.write_secret(path, secret)
        written = True
        rep = replay(log)
        records = opening(rep)
        if records:
            with store.writing(path) as writer:
                writer.append(records)
                writer.log.secret = secret
                rep.log = writer.log
        return rep
    except BaseException:  # nothing of a game that could not start stays behind
        Path(path).unlink()
        if written:
            dealer.secret_path(path).unlink()
        raise


def start(header: Header, seed: str | None = None) -> Replay:
    """A new game in memory only (simulations, benchmarks, tests); `seed` deals a game
    with hidden information."""
    raw = store.dump(header)
    log = store.GameLog(path=Path(f"<{header.id}>"), header=header, header_raw=raw, size=len(raw) + 1)
    if seed is not None:
        log.secret = dealer.Secret(seed)
    rep = replay(log)
    store.add(log, opening(rep))
    return rep


def opening(rep: Replay) -> list[Record]:
    """The records a new game makes by itself before its first move: the dealer's reveal
    of a game that is over at once (cards 5.1: the first card fits nowhere)."""
    auto = rep.game.auto_actions(rep.state)
    return extend(rep, auto[0][0], auto[0][1]) if auto else []


def extend(
    current: Replay,
    record_type: str,
    by: str | None = None,
    move: Move | None = None,
    target: int | None = None,
    note: str | None = None,
    signer: Any = None,
) -> list[Record]:
    """Check one action against the current position and return the records it makes
    (with any the game then makes by itself). Nothing changes when the action is refused;
    otherwise the replay moves on to the new position. Writing the records is the caller's."""
    game = current.game
    if len(current.steps) != len(current.log.records):
        raise UsageError(f"seq {current.seq} is not the end of {current.log.path}: only the newest position takes moves")
    if by is None and len(current.on_turn()) > 1:
        raise UsageError(f"seats {', '.join(current.on_turn())} may all move now: say which with --by SEAT")
    seat = by or current.to_move()
    if seat is None and len(current.on_turn()) == 1:  # over on the game's clock: the game says why
        seat = current.on_turn()[0]
    if current.forfeit is not None and record_type != "comment":
        raise IllegalMove("", f"the game is over: {current.forfeit} lost {current.forfeit_cause}")
    if seat is None:
        raise IllegalMove(game.end_rule(current.state), "the game is over")
    if not game.dealt and record_type != "comment":
        raise UsageError(
            f"{current.log.path}: {game.title} hides cards, so moves are taken where the dealer's secret "
            f"{dealer.secret_path(current.log.path).name} is, and this copy has none: send the move to the dealer"
        )
    keys = signing_keys(current.header)
    if seat in keys and signer is None:
        raise UsageError(f"seat {seat} signs its records: give --sign with {seat}'s key")
    trial = game.clone(current.state)
    stamp = clock.stamp()
    prev = current.log.tail_hash
    seq = current.log.next_seq
    steps: list[Step] = []
    action = Action(seq, record_type, seat, move, target, stamp)
    if record_type in CLOCK_TYPES:
        clock_record(current, trial, action, stamp, note, current.standing())
    while True:
        if current.forfeit is not None and action.type == "reveal":
            outcome = reveal_after_forfeit(current, trial, action)
        else:
            outcome = apply(game, trial, action)
        record = Record(
            seq=seq, type=action.type, by=action.by, at=stamp,
            move=str(action.move) if action.move is not None else None,
            target=action.target, note=note, prev=prev, state=state_hash(game, trial, current.forfeit),
            seed=game.seed if action.type == "reveal" else None,
        )
        if action.by == dealer.DEALER:
            dealer_key = dealer.signer(current.log)
            if dealer_key is not None:
                from corr.identity import sign

                record = sign(dealer_key, current.header.id, record)
        elif action.by in keys:
            if signer is None:
                raise UsageError(f"seat {action.by} signs its records, and the game made one for it")
            from corr.identity import sign

            record = sign(signer, current.header.id, record)
        steps.append(Step(record, action, outcome))
        if current.forfeit is not None:  # a timeout ended the game: only the dealer's reveal is left
            auto = [("reveal", dealer.DEALER)] if game.hidden and action.type != "reveal" else []
        else:
            auto = game.auto_actions(trial)
        if not auto:
            break
        prev = store.line_hash(store.dump(record))
        seq += 1
        note = None
        action = Action(seq, auto[0][0], auto[0][1], at=stamp)
    current.state = trial
    current.steps.extend(steps)
    return [step.record for step in steps]


def act(
    path: Path | str,
    record_type: str,
    by: str | None = None,
    text: str | None = None,
    target: int | None = None,
    note: str | None = None,
    key: Path | str | None = None,
    answers: int | None = None,
) -> tuple[Replay, list[Record]]:
    """Validate one action against the log on disk and append it under the log's lock.
    With a private key, the key decides the seat and signs the record. A refused action
    appends nothing.

    The action is meant for the position its maker saw: the log as it was when this call
    began or, with `answers`, the position after that seq (a mail reply's Subject). If
    another writer got in first, the seat on turn may have changed, so the action is
    refused rather than played for someone else."""
    import os

    try:
        seen = os.stat(path).st_size  # the log only grows: any append in between changes it
    except OSError:
        seen = None  # store.writing names what is wrong with the path
    move = parse(text) if text is not None else None
    signer = None
    if key is not None:
        from corr.identity import load_private, public_text

        signer = load_private(key)
    with store.writing(path) as writer:
        log = writer.log
        if seen is not None and log.size != seen:
            raise UsageError(f"{path}: the log changed while this action waited (it is at seq {len(log.records)} "
                             "now): look at the new position and try again")
        current = replay(dealer.attach(log))
        if answers is not None:
            seen = current.seen_seq(by or current.to_move())  # a duel's seat answers its own board
            if seen != answers:
                raise UsageError(f"{path}: stale: this answers seq {answers}, the log is at seq {seen}")
        if signer is not None:
            public = public_text(signer)
            seats = [s for s, k in signing_keys(current.header).items() if k == public]
            if not seats:
                raise UsageError(f"{key} is not the key of any seat of this game")
            if by is not None and by != seats[0]:
                raise UsageError(f"{key} is seat {seats[0]}'s key, not {by}'s")
            by = seats[0]
        records = extend(current, record_type, by, move, target, note, signer)
        writer.append(records)
        return current, records


def accept(path: Path | str, raws: list[bytes]) -> tuple[Replay, list[Record]]:
    """Append record lines made elsewhere - another player's copy, a mail attachment -
    after checking that they continue this copy and hold under replay (rules, state
    hashes, signatures). Lines this copy already has are skipped, so accepting the same
    lines twice changes nothing; a line that differs from this copy's is refused."""
    incoming: list[tuple[Record, bytes]] = []
    for number, raw in enumerate(raws, start=1):
        try:
            record = lines.read_record(raw)
        except lines.LineError as err:
            raise CorruptLog(f"incoming line {number} is not a valid record ({err})", kind="schema") from None
        if store.dump(record) != raw:
            raise CorruptLog(f"incoming seq {record.seq} is not in canonical form: it was edited", seq=record.seq,
                             kind="noncanonical")
        incoming.append((record, raw))
    with store.writing(path) as writer:
        log = dealer.attach(writer.log)
        new: list[Record] = []
        for record, raw in incoming:
            if record.seq <= len(log.records):
                if log.raw[record.seq - 1] != raw:
                    raise CorruptLog(
                        f"{path}: incoming seq {record.seq} differs from this copy's: the copies have diverged "
                        "(see `corr compare`)",
                        seq=record.seq,
                        kind="diverged",
                    )
                continue
            expected = log.next_seq + len(new)
            if record.seq != expected:
                raise UsageError(f"{path}: incoming seq {record.seq} does not follow this copy (next is seq {expected})")
            new.append(record)
        if not new:
            return replay(log), []
        trial = store.GameLog(
            path=log.path, header=log.header, header_raw=log.header_raw, records=list(log.records), raw=list(log.raw),
            secret=log.secret,
        )
        try:
            store.add(trial, new)  # checks the chain
        except UsageError:
            raise CorruptLog(f"{path}: the incoming records do not chain to this copy (prev hash differs)",
                             kind="chain") from None
        result = replay(trial)  # checks rules, state hashes and signatures
        writer.append(new)
        result.log = writer.log
        return result, new
