"""The table: a game opened from its log, replayed once, and the one way to add records.

Everything that changes a game goes through a `Table`: a move, a challenge, a ruling,
a timeout claim, a vacation, the dealer's reveal, the computer's reply, records taken
from another copy. `corr.engine.opening.writing` opens a log under its exclusive lock;
the table built from it is judged at one `now`, and each record it adds is judged
exactly as a replay will judge it (`corr.engine.judge`), on a trial of the position: a
refused action changes nothing, in memory or on disk. One builder makes every record - its seq, time, chain,
state hash, seal and signature - so there is one way a record comes to be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from corr import clock
from corr.engine import dealer, hashes, keys
from corr.engine.judge import CLOCK_TYPES, judge
from corr.engine.position import Position, Step
from corr.engine.replay import run
from corr.engine.replay import replay as _replay
from corr.errors import CorruptLog, IllegalMove, UsageError
from corr.games.base import Action
from corr.games.dealing import DEALER
from corr.log import lines, store
from corr.log.lines import Record
from corr.notation import Move, parse


@dataclass
class Table(Position):
    """A game opened from its log: the position after its last record, judged at `now`.
    Opened with `writing`, it appends what `add`, `accept` and `due` make to the log on
    disk, under the log's lock; opened with `load` or `start`, to the log in memory."""

    writer: store.Writer | None = None
    #: private keys this table signs with, by public key: a seat's (`--sign`), the host's
    held: dict[str, Any] = field(default_factory=dict)

    # --- signing --------------------------------------------------------------------
    def hold(self, private: Any) -> str:
        """Sign with this private key from now on; returns its public key."""
        from corr.identity import public_text

        public = public_text(private)
        self.held[public] = private
        return public

    def seat_of_key(self, private: Any, by: str | None, name: str = "the key") -> str | None:
        """The seat a private key (`--sign KEY`) decides: its own seat's; or, for the
        host's key in a game its host vouches for, `by` as given. The key is held."""
        public = self.hold(private)
        seats = [s for s, k in keys.seat_keys(self.header).items() if k == public]
        if seats:
            if by is not None and by != seats[0]:
                raise UsageError(f"{name} is seat {seats[0]}'s key, not {by}'s")
            return seats[0]
        host = self.header.host
        if host is not None and host.key == public and keys.vouched(self.header):
            return by  # the host vouches for a seat's record
        raise UsageError(f"{name} is not the key of any seat of this game")

    def _private(self, who: str, public: str) -> Any:
        """The private key of `public` this table holds; for the host's, on the dealer's
        copy, the one its secret names. None where it has none."""
        private = self.held.get(public)
        if private is None and who == "host" and self.log.secret is not None:
            private = dealer.signer(self.log)  # the dealer's copy names the host's key
            if private is not None:
                self.hold(private)
        return private

    def can_sign(self, by: str) -> bool:
        """Whether a record made by `by` can be added here: it goes unsigned, or this
        table holds the key that must sign it."""
        signer = keys.signer_of(self.header, by)
        return signer is None or self._private(*signer) is not None

    def sign_panel(self, seat: str, seq: int, panel: str) -> str | None:
        """The host's signature of what its message tells `seat` alone at `seq` (its
        hand), where the game names a host and this table holds the host's key; a
        player's copy keeps no panel the host did not sign."""
        host = self.header.host
        if host is None or not keys.vouched(self.header):
            return None
        private = self._private("host", host.key)
        if private is None:
            return None
        from corr.identity import panel_bytes, sign_bytes

        return sign_bytes(private, panel_bytes(self.header.id, seat, seq, panel))

    def _sign(self, record: Record) -> Record:
        signer = keys.signer_of(self.header, record.by)
        if signer is None:
            return record
        who, public = signer
        private = self._private(who, public)
        if private is None:
            if who in self.game.seats:
                raise UsageError(f"seat {who} signs its records: give --sign with {who}'s key")
            if record.by == DEALER:
                raise UsageError(f"the dealer's records of this game are signed with the host's key, and "
                                 f"{dealer.secret_path(self.path).name} names none (start the game with --dealer-key)")
            raise UsageError("this game names a host, who signs every record a seat does not sign itself, and no "
                             "host's key is given: give it with --sign (`corr host run --key` when hosting)")
        from corr.identity import sign

        return sign(private, self.header.id, record)

    # --- adding records -------------------------------------------------------------
    def _trial(self) -> Position:
        """A copy of the position an action is tried on: its state cloned, its lists
        copied, its log extended in memory only."""
        log = self.log
        trial_log = store.GameLog(path=log.path, header=log.header, header_raw=log.header_raw,
                                  records=list(log.records), raw=list(log.raw), torn=log.torn, size=log.size,
                                  secret=log.secret)
        return Position(trial_log, self.game, self.game.clone(self.state), list(self.steps), forfeit=self.forfeit,
                        forfeit_cause=self.forfeit_cause, voided=self.voided, snapshots=dict(self.snapshots),
                        void_targets=self.void_targets, now=self.now)

    def _commit(self, trial: Position, records: list[Record]) -> None:
        """Take the tried position as this table's, and write its new records."""
        if self.writer is not None:
            self.writer.append(records)
            self.log = self.writer.log
        else:
            store.add(self.log, records)
        self.state, self.steps, self.forfeit, self.forfeit_cause = trial.state, trial.steps, trial.forfeit, \
            trial.forfeit_cause
        self.voided, self.snapshots = trial.voided, trial.snapshots

    def add(self, kind: str, by: str | None = None, move: Move | str | None = None, target: int | None = None,
            note: str | None = None, *, answers: int | None = None) -> list[Record]:
        """Check one action against the position and append the records it makes, with
        any the game then makes by itself (a pass, the dealer's reveal). `by` defaults to
        the seat on turn; `answers` is the seq of the position the action was made on
        (a mail reply's Subject): if the seat's view has moved on, it is refused as
        stale. A refused action changes nothing."""
        if len(self.steps) != len(self.log.records):
            raise UsageError(f"seq {self.seq} is not the end of {self.path}: only the newest position takes moves")
        if isinstance(move, str):
            move = parse(move)
        on_turn = self.on_turn()
        if by is None and len(on_turn) > 1 and kind != "ruling":
            raise UsageError(f"seats {', '.join(on_turn)} may all move now: say which with --by SEAT")
        seat = by or self.to_move()
        if seat is None and len(on_turn) == 1:  # over on the game's clock: the game says why
            seat = on_turn[0]
        if answers is not None:
            seen = self.seen_seq(seat)  # a duel's seat answers its own board
            if seen != answers:
                raise UsageError(f"{self.path}: stale: this answers seq {answers}, the log is at seq {seen}")
        if kind not in ("comment", "ruling"):
            if self.forfeit is not None:
                raise IllegalMove("", f"the game is over: {self.forfeit} lost {self.forfeit_cause}")
            if seat is None:
                raise IllegalMove(self.game.end_rule(self.state), "the game is over")
            if not self.game.dealt:
                raise UsageError(
                    f"{self.path}: {self.game.title} has {self.game.secret}, so moves are taken where the dealer's "
                    f"secret {dealer.secret_path(self.path).name} is, and this copy has none: send the move to the "
                    "dealer"
                )
        if seat is None:
            raise UsageError(f"a {kind} names who makes it")
        return self._make([(kind, seat, move, target, note)])

    def _make(self, actions: list[tuple[str, str, Any, int | None, str | None]]) -> list[Record]:
        """The one record builder: each action judged on a trial position, the records
        the game then makes by itself after it, then all written at once."""
        trial = self._trial()
        log = trial.log
        game = self.game
        version = self.header.corr
        when = self.when()
        stamp = clock.stamp(when)
        made: list[Record] = []
        pending = list(actions)
        while pending:
            kind, by, move, target, note = pending.pop(0)
            seq = log.next_seq
            record = Record(seq=seq, type=kind, by=by, at=stamp, prev=log.tail_hash, state="0" * 64,
                            move=str(move) if move is not None else None, target=target, note=note)
            log.records.append(record)  # a void ruling rebuilds from the log: it holds this record
            log.raw.append(b"")
            action = Action(seq, kind, by, move if kind != "ruling" else None, target, stamp)
            if kind in CLOCK_TYPES or kind == "ruling":
                action, outcome = judge(trial, record, len(log.records) - 1)
            else:
                action, outcome = judge(trial, record, len(log.records) - 1, action)
            record = record._replace(
                state=hashes.state_hash(game, trial.state, trial.forfeit, version),
                seal=self._seal(trial, by, version),
                seed=game.seed if kind == "reveal" else None,
            )
            record = self._sign(record)
            log.records[-1] = record
            log.raw[-1] = store.dump(record)
            trial.steps.append(Step(record, action, outcome))
            made.append(record)
            if not pending:
                pending = [(kind, seat, None, None, None) for kind, seat in self._auto(trial, kind, when)]
        self._commit(trial, made)
        return made

    @staticmethod
    def _seal(trial: Position, by: str, version: int) -> str | None:
        try:
            return hashes.seal(trial.game, trial.state, by, version)
        except LookupError:  # a copy without the seed makes no records a seal is due on
            raise UsageError("this copy does not know the deal, so it cannot seal the record") from None

    def _auto(self, trial: Position, last: str, when: datetime) -> list[tuple[str, str]]:
        """The first record the game makes by itself after one made at `when`: a timeout
        ended a game with hidden information, so the dealer reveals the deal; else the
        game's own (a pass, the reveal)."""
        if trial.forfeit is not None:
            return [("reveal", DEALER)] if self.game.hidden and last != "reveal" else []
        return self.game.automatic(trial.state, when)[:1]

    def _opening(self) -> None:
        """The records a new game makes by itself before its first move: the dealer's
        reveal of a game that is over at once (cards 5.1: the first card fits nowhere)."""
        auto = self.game.automatic(self.state, self.when())
        if auto:
            self._make([(auto[0][0], auto[0][1], None, None, None)])

    def rule(self, seq: int, decision: Any, reason: str, name: str = "the key given") -> Record:
        """A ruling on record `seq` by the official whose key this table holds (the
        referee's or the host's); checked as every later replay will check it."""
        if not reason.strip():
            raise UsageError("give the ruling's reason with --reason")
        roles = keys.official_keys(self.header)
        if not roles:
            raise UsageError("this game names no referee or host, so nobody can rule "
                             "(start games with `corr new ... --referee NAME --referee-key FILE`)")
        role = next((r for r, k in roles.items() if k in self.held), None)
        if role is None:
            raise UsageError(f"{name} is not the key of this game's {' or '.join(roles)}: only they can rule")
        if not 1 <= seq <= len(self.log.records):
            raise UsageError(f"seq {seq} is outside the log (seq 1 to {len(self.log.records)})")
        # a forfeit that ends a game with hidden information brings the dealer's reveal
        # after it (`_auto`), as a timeout does: the ruling is the first record made
        return self._make([("ruling", role, decision, seq, reason.strip())])[0]

    def due_at(self) -> datetime | None:
        """The first instant from which time alone gives the game a record to make (the
        end of Domino's clock), or None."""
        return self.game.due_at(self.state)

    def is_due(self) -> bool:
        """Whether time alone has made a record due at `now` (see `due`)."""
        return bool(self.game.automatic(self.state, self.when()))

    def due(self) -> list[Record]:
        """The records time alone has made due at `now` (Domino's limit: the dealer
        reveals the seed, 6.1, 7.2), appended; [] when there are none."""
        made: list[Record] = []
        for kind, by in self.game.automatic(self.state, self.when())[:1]:
            made += self._make([(kind, by, None, None, None)])
        return made

    def claim_timeout(self, by: str | None) -> list[Record]:
        """A seat's claim that the seat on turn has run out of time: its timeout record
        (it forfeits); in a game its host vouches for, the host may claim it too (`by`
        "host"). A game keeping its own time (Domino, 6.1) is over at its limit
        instead: the claim appends what the limit made due (the dealer's reveal)."""
        if self.game.own_clock:
            made = self.due()
            if not made:
                raise UsageError(f"{self.path}: nothing to claim: {self.game.title} has no timeout due (see `corr "
                                 "show`: the clock; a game with a public seed is over at its limit without a record)")
            return made
        if by is None:
            raise UsageError("missing option --by: name the claiming seat (or --sign with its key)")
        return self.add("timeout", by)

    def accept(self, raws: list[bytes]) -> list[Record]:
        """Append record lines made elsewhere - another player's copy, a mail attachment -
        after checking that they continue this copy and hold as a replay holds them
        (rules, hashes, seals, signatures). Lines this copy already has are skipped, so
        accepting the same lines twice changes nothing; a line that differs from this
        copy's is refused."""
        incoming: list[tuple[Record, bytes]] = []
        for number, raw in enumerate(raws, start=1):
            try:
                record = lines.read_record(raw)
            except lines.LineError as err:
                raise CorruptLog(f"incoming line {number} is not a valid record ({err})", kind="schema") from None
            if store.dump(record) != raw:
                raise CorruptLog(f"incoming seq {record.seq} is not in canonical form: it was edited",
                                 seq=record.seq, kind="noncanonical")
            incoming.append((record, raw))
        log = self.log
        new: list[Record] = []
        for record, raw in incoming:
            if record.seq <= len(log.records):
                if log.raw[record.seq - 1] != raw:
                    raise CorruptLog(f"{self.path}: incoming seq {record.seq} differs from this copy's: the copies "
                                     "have diverged (see `corr compare`)", seq=record.seq, kind="diverged")
                continue
            expected = log.next_seq + len(new)
            if record.seq != expected:
                raise UsageError(f"{self.path}: incoming seq {record.seq} does not follow this copy "
                                 f"(next is seq {expected})")
            new.append(record)
        if not new:
            return []
        trial = self._trial()
        try:
            store.add(trial.log, new)  # checks the chain
        except UsageError:
            raise CorruptLog(f"{self.path}: the incoming records do not chain to this copy (prev hash differs)",
                             kind="chain") from None
        if trial.game.hidden and not trial.game.dealt and any(r.type == "reveal" for r in new):
            # the reveal deals the game: every record is judged again, with the deal
            trial = _replay(trial.log, now=self.now)
        else:
            run(trial, new, len(log.records))  # rules, hashes, seals and signatures, as replay checks them
        self._commit(trial, new)
        if trial.game is not self.game:
            self.game = trial.game
        return new
