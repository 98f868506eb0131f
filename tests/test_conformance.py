"""Every registered game, played at random, against one conformance suite (DESIGN 2, 4, 6).

OpenSpiel's model: one generic test plays every game at random and checks clone,
serialise and replay; golden playthroughs pin whole games. A game joins the suite by
registering in `corr.games` and adding its example options to EXAMPLES below; nothing
else here names a game. The checks, for each example, each seat count the game allows
(its minimum and maximum) and several seeds:

1. random playouts reach the end;
2. replay is deterministic: serialise, parse, replay gives the same positions, result
   and outcomes step by step, every time;
3. `corr audit` finds the log intact and the same result;
4. every kind of tampering is detected, by replay and by audit;
5. a clone is independent of its original;
6. a golden playthrough per game pins one whole game, byte for byte;
7. games with hidden information (`hidden = True`, DESIGN 6) leak nothing: each seat's
   view and rendered bytes carry only its own secret, nothing public depends on the
   deal, every byte a seat or the public gets (boards, move list, mail, commands) is
   the same in a world where all it may not see differs (a running Domino duel's other
   boards too, whatever the seed), a player's copy verifies every record, the reveal
   lets any copy re-deal and audit, and a copy without the dealer's secret takes no
   moves.

After an intended change to random play, a game or the log format, regenerate the
playthroughs with

    CORR_UPDATE_GOLDEN=1 pytest tests/test_conformance.py

and read the diff of tests/golden/playthrough-*.txt before committing.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import hashlib
import json
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest
from freezegun import freeze_time

from corr import audit, engine, games, randomplay, seatview as view
from corr.engine import dealer
from corr.errors import CorrError, CorruptLog, UsageError
from corr.games.base import Action, Outcome
from corr.log import lines, panels, store
from corr.log.lines import Header, Record
from corr.mail import compose as mail
from corr.notation import Placement, parse
from corr.record_text import game_text
from corr.render import FORMATS, render, render_position
from conftest import GOLDEN, assert_golden

PLAYERS = ["Anna", "Ben", "Cleo", "Dara", "Emil", "Fay"]
#: Each game's example options: every one is played at every seat count and seed. The
#: first is the game's golden playthrough. A new game adds its line here, nothing more.
EXAMPLES: dict[str, list[dict[str, str]]] = {
    "cards": [{}, {"end": "hands"}, {"mode": "as-written"}, {"deck": "2x1-9"}, {"puzzle": "1"}],
    "combat": [{}, {"conquest": "auto"}, {"mode": "as-written"}],
    "domino": [{}, {"seed": "daily-2026-11-30"}, {"time_limit": "none", "givens": "40"}],
    "war": [{}, {"repetition": "3"}],
    "moyo": [{"puzzle": "1"}, {"puzzle": "3", "variant": "horikomi"}],
}
SEEDS = (1, 2, 3)
#: Share of turns on which random play tries a rule-breaking move or a challenge: kept
#: in as-written games (DESIGN 5), refused in strict ones.
MISCHIEF = 0.25
#: Finding kinds that mean a damaged log (the rest are what happened in a sound one).
DAMAGE = frozenset({"schema", "seq", "chain", "state", "illegal", "notation", "header", "reveal", "torn", "signature"})


#: Every game here is made, played and shown at this one frozen instant: a game with a
#: clock of its own (Domino) shows the seconds left, and two renders of one position
#: must not straddle a second.
PLAYED_AT = "2026-03-01 12:00:00"


@pytest.fixture(autouse=True)
def _one_instant() -> Any:
    with freeze_time(PLAYED_AT):
        yield


# --- the cases -------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    game: str
    options: tuple[tuple[str, str], ...]
    players: int
    seed: int

    @property
    def opts(self) -> dict[str, str]:
        return dict(self.options)

    @property
    def hidden(self) -> bool:
        cls = games.game_class(self.game)
        return cls.is_hidden(cls.resolve_options(self.opts))

    @property
    def deal(self) -> str:
        """The dealer's secret seed (games with hidden information)."""
        return randomplay.deal_seed(self.seed)

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options) or "defaults"
        return f"{self.game}[{opts}]-{self.players}p-seed{self.seed}"


def seat_counts(name: str) -> list[int]:
    cls = games.game_class(name)
    return sorted({cls.min_seats, cls.max_seats})


def make_cases(seeds: tuple[int, ...]) -> list[Case]:
    return [
        Case(name, tuple(sorted(opts.items())), players, seed)
        for name in games.names()
        for opts in EXAMPLES.get(name, [{}])
        for players in seat_counts(name)
        for seed in seeds
    ]


CASES = make_cases(SEEDS)
#: The costlier checks run one seed per game, example and seat count.
FIRST = make_cases(SEEDS[:1])
HIDDEN = [case for case in FIRST if case.hidden]
AS_WRITTEN = [
    pytest.param(game, options, id=f"{game}[{','.join(f'{k}={v}' for k, v in options)}]")
    for game, options in sorted({(c.game, c.options) for c in CASES if c.opts.get("mode") == "as-written"})
]


@lru_cache(maxsize=None)
def played(case: Case) -> engine.Position:
    """The case's random game, played once (the dealer's copy). Read-only: tests that
    change a replay make their own from the bytes."""
    return randomplay.play(case.game, PLAYERS[: case.players], case.opts, seed=case.seed, mischief=MISCHIEF)


@lru_cache(maxsize=None)
def log_bytes(case: Case) -> bytes:
    return store.text(played(case).log)


def parsed(data: bytes, secret: str | None = None) -> store.GameLog:
    """A log read from bytes, as the dealer's copy when given the secret seed."""
    log = store.parse(data, Path("game.corr"))
    if secret is not None:
        log.secret = dealer.Secret(secret)
    return log


def dealers_copy(case: Case, upto: int | None = None) -> store.GameLog:
    """The dealer's copy of the case's log; with `upto`, as it was at that seq (before
    the reveal, the secret is all that deals it)."""
    log = played(case).log
    data = log_bytes(case) if upto is None else encode(log.header_raw, log.records[:upto])
    return parsed(data, case.deal if case.hidden else None)


def encode(header: Header | bytes, records: list[Record], *, renumber: bool = False, rechain: bool = True) -> bytes:
    """Log bytes from a header and records, canonical; `rechain` recomputes every
    `prev` (a forger's first step), `renumber` every seq."""
    head = header if isinstance(header, bytes) else lines.dump(header)
    out, prev = [head], store.line_hash(head)
    for seq, record in enumerate(records, start=1):
        if renumber:
            record = record._replace(seq=seq)
        if rechain:
            record = record._replace(prev=prev)
        raw = lines.dump(record)
        out.append(raw)
        prev = store.line_hash(raw)
    return b"".join(raw + b"\n" for raw in out)


def positions(last: int, count: int = 8) -> list[int]:
    """About `count` seqs from 0 to `last`, both ends included."""
    return sorted({0, last} | {round(i * last / count) for i in range(1, count)})


def said(outcome: Outcome) -> tuple[Any, ...]:
    """Everything an outcome says, through the interface the engine and audits use."""
    illegal = outcome.illegal
    return (
        type(outcome).__name__, outcome.told(), outcome.untold(), outcome.gained(), outcome.findings(),
        json.dumps(outcome.highlights(), sort_keys=True), outcome.verdict, outcome.events,
        None if illegal is None else (illegal.rule, str(illegal), illegal.cells),
    )


def attributes(obj: Any) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj)]
    names = list(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        slots = getattr(klass, "__slots__", ())
        names += [s for s in ([slots] if isinstance(slots, str) else slots) if s not in names and s != "__weakref__"]
    return names


def plain(value: Any) -> Any:
    """A comparable value of a whole game state, hidden parts included."""
    if value is None or isinstance(value, (str, bytes, int, float, bool)):
        return value
    if isinstance(value, BaseException):
        return (type(value).__name__, str(value))
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(map(repr, value)))
    if isinstance(value, dict):
        return tuple(sorted(((repr(k), plain(v)) for k, v in value.items())))
    return (type(value).__name__, *((a, plain(getattr(value, a))) for a in attributes(value)))


def on_turn_action(rep: engine.Position, move: Any) -> Action:
    return Action(rep.seq + 1, "move", rep.to_move(), move)  # type: ignore[arg-type]


# --- 0. the table covers every game ----------------------------------------------------
def test_every_registered_game_has_example_options() -> None:
    missing = sorted(set(games.names()) - set(EXAMPLES))
    assert not missing, f"add example options for {missing} to EXAMPLES"
    assert not sorted(set(EXAMPLES) - set(games.names())), "EXAMPLES names a game that is not registered"
    for name, examples in EXAMPLES.items():
        assert examples, name
        for opts in examples:
            for players in seat_counts(name):
                header = engine.make_header(name, PLAYERS[:players], opts)
                assert header.options == games.game_class(name).resolve_options(opts)


# --- 1. random playouts reach the end --------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=str)
def test_random_playouts_reach_the_end(case: Case) -> None:
    rep = played(case)
    result = rep.result()
    assert result.over and rep.to_move() is None, "a random game runs to its end"
    assert 0 < len(rep.log.records) < 10_000
    assert result.winners and set(result.winners) <= set(rep.game.seats)
    assert set(result.scores) == set(rep.game.seats)
    assert [step.record for step in rep.steps] == rep.log.records
    assert [r.seq for r in rep.log.records] == list(range(1, len(rep.log.records) + 1))
    if case.opts.get("mode", "strict") == "strict":  # a strict game took no mischief
        assert not [s for s in rep.steps if s.outcome.illegal is not None or s.record.type == "challenge"]


@pytest.mark.parametrize("game, options", AS_WRITTEN)
def test_as_written_random_play_keeps_illegal_moves_and_takes_challenges(game: str, options: tuple) -> None:
    """The mischief in random play reaches every as-written path: an illegal move that
    stands, a challenge upheld and one rejected."""
    steps = [s for c in CASES if (c.game, c.options) == (game, options) for s in played(c).steps]
    assert any(s.outcome.illegal is not None for s in steps)
    assert any(s.outcome.verdict == "upheld" for s in steps)
    assert any(s.outcome.verdict == "rejected" for s in steps)


# --- 2. replay is deterministic --------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=str)
def test_replay_is_deterministic_step_by_step(case: Case) -> None:
    rep = played(case)
    data = log_bytes(case)
    replays = [engine.replay(parsed(data)) for _ in range(2)]
    for again in replays:
        assert store.text(again.log) == data, "parsing and serialising gives back the bytes"
        assert again.game.state_key(again.state) == rep.game.state_key(rep.state)
        assert again.result() == rep.result()
        assert plain(again.state) == plain(rep.state), "the whole state, hidden parts too (re-dealt from the reveal)"
        assert [s.record for s in again.steps] == rep.log.records
        assert [said(s.outcome) for s in again.steps] == [said(s.outcome) for s in rep.steps]
    # every position on the way, in one pass of each of two replays (a replay that stops
    # at a seq is checked below at a few of them: it is the same pass cut short)
    logs = [parsed(data), parsed(data)]
    seen: list[list[tuple[Any, ...]]] = [[], []]
    for log, into in zip(logs, seen):
        engine.replay(log, each=lambda at, into=into: into.append((
            at.seq, len(at.steps), engine.state_hash(at.game, at.state, at.forfeit),
            said(at.steps[-1].outcome) if at.steps else None, plain(at.state), at.result(), at.to_move(),
        )))
    assert seen[0] == seen[1]
    for index, record in enumerate(logs[0].records):
        seq, steps, state, outcome = seen[0][index + 1][:4]
        assert (seq, steps, state) == (record.seq, index + 1, record.state)
        assert outcome == said(rep.steps[index].outcome)
    for seq in positions(len(logs[0].records), 6):
        at = engine.replay(parsed(data), upto=seq)
        assert (at.seq, engine.state_hash(at.game, at.state, at.forfeit), plain(at.state)) == (
            seen[0][seq][0], seen[0][seq][2], seen[0][seq][4])


# --- 3. audit --------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=str)
def test_audit_finds_every_random_game_intact(case: Case, tmp_path: Path) -> None:
    rep = played(case)
    path = tmp_path / "game.corr"
    path.write_bytes(log_bytes(case))
    report = audit.audit(path)
    assert report["intact"] is True, report["findings"]
    assert not [f for f in report["findings"] if f["kind"] in DAMAGE]
    result = rep.result()
    assert report["result"] == {
        "over": True, "winners": list(result.winners), "scores": result.scores, "forfeit": None,
    }
    assert (report["game"], report["id"]) == (case.game, rep.header.id)
    assert report["records"] == len(rep.log.records) and report["seq"] == rep.seq
    challenges = [s for s in rep.steps if s.record.type == "challenge"]
    assert len([f for f in report["findings"] if f["kind"].startswith("challenge-")]) == len(challenges)


# --- 4. tampering ----------------------------------------------------------------------
@dataclass
class Tampered:
    data: bytes
    kinds: frozenset[str]  # the CorruptLog kinds that may report it
    seq: int | None = None  # where, when the tamper pins it


class Forge:
    """A forger's workbench over one case's log: the records to edit, and the dealer's
    copy to find edits the rules would take."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.log = parsed(log_bytes(case))
        self.header = self.log.header
        self.records = list(self.log.records)

    def before(self, seq: int) -> engine.Position:
        """The dealer's copy replayed up to just before `seq`."""
        return engine.replay(dealers_copy(self.case), upto=seq - 1)

    def moves(self) -> list[int]:
        """Indexes of seat moves followed by another record, the middle ones first."""
        records = self.records
        found = [i for i, r in enumerate(records[:-1]) if r.type == "move" and r.by in self.header_seats()]
        middle = len(records) // 2
        return sorted(found, key=lambda i: (abs(i - middle), i))

    def header_seats(self) -> list[str]:
        return [s.seat for s in self.header.seats]

    def other_move(self, same_digit: bool) -> tuple[int, Any]:
        """A record index and a different move its seat could legally have made there:
        the same digit on another cell, or another digit (on the same cell where one
        fits); for moves that place no digit, any other legal move."""
        for i in self.moves():
            record = self.records[i]
            original = parse(record.move)  # type: ignore[arg-type]
            rep = self.before(record.seq)
            others = [m for m in rep.game.legal_moves(rep.state) if m != original]
            if not isinstance(original, Placement):
                if others:
                    return i, others[0]
                continue
            placements = [m for m in others if isinstance(m, Placement)]
            if same_digit:
                found = [m for m in placements if m.digit == original.digit and m.cell != original.cell]
            else:
                found = [m for m in placements if m.digit != original.digit]
                found.sort(key=lambda m: m.cell != original.cell)  # the same cell first
            if found:
                return i, found[0]
        raise AssertionError(f"{self.case}: no record has another legal move (same digit: {same_digit})")

    def edited(self, index: int, **changes: Any) -> list[Record]:
        records = list(self.records)
        records[index] = records[index]._replace(**changes)
        return records

    def text(self, records: list[Record] | None = None, **kw: Any) -> bytes:
        return encode(self.log.header_raw, self.records if records is None else records, **kw)


def tamper_move_edited(f: Forge) -> Tampered:
    i, move = f.other_move(same_digit=True)
    return Tampered(f.text(f.edited(i, move=str(move)), rechain=False), frozenset({"chain"}), f.records[i].seq + 1)


def tamper_move_other_cell(f: Forge) -> Tampered:
    """Another legal cell, the chain mended: only the state hash can tell."""
    i, move = f.other_move(same_digit=True)
    return Tampered(f.text(f.edited(i, move=str(move))), frozenset({"state"}), f.records[i].seq)


def tamper_move_other_digit(f: Forge) -> Tampered:
    """Another digit, the chain mended: the state hash tells, or (where the seat could
    not have laid that digit) the rules."""
    if f.case.hidden:  # only the held card is legal: a different digit is a card not held
        i, move = hidden_only_move(f)
        return Tampered(f.text(f.edited(i, move=str(move))), frozenset({"illegal"}), f.records[i].seq)
    i, move = f.other_move(same_digit=False)
    return Tampered(f.text(f.edited(i, move=str(move))), frozenset({"state"}), f.records[i].seq)


def tamper_record_removed(f: Forge) -> Tampered:
    i = f.moves()[0]
    records = f.records[:i] + f.records[i + 1 :]
    return Tampered(f.text(records, rechain=False), frozenset({"seq"}), f.records[i + 1].seq)  # the seq found


def tamper_record_removed_and_renumbered(f: Forge) -> Tampered:
    i = f.moves()[0]
    records = f.records[:i] + f.records[i + 1 :]
    return Tampered(f.text(records, renumber=True), frozenset({"state", "illegal"}), f.records[i].seq)


def tamper_records_swapped(f: Forge) -> Tampered:
    i = f.moves()[0]
    records = list(f.records)
    records[i], records[i + 1] = records[i + 1], records[i]
    return Tampered(f.text(records, rechain=False), frozenset({"seq"}), f.records[i + 1].seq)  # the seq found


def tamper_records_swapped_and_renumbered(f: Forge) -> Tampered:
    i = f.moves()[0]
    records = list(f.records)
    records[i], records[i + 1] = records[i + 1], records[i]
    return Tampered(f.text(records, renumber=True), frozenset({"state", "illegal"}), f.records[i].seq)


def tamper_state_hash_altered(f: Forge) -> Tampered:
    i = f.moves()[0]
    forged = hashlib.sha256(b"another position").hexdigest()
    return Tampered(f.text(f.edited(i, state=forged)), frozenset({"state"}), f.records[i].seq)


def tamper_last_state_hash_altered(f: Forge) -> Tampered:
    forged = hashlib.sha256(b"another position").hexdigest()
    i = len(f.records) - 1
    return Tampered(f.text(f.edited(i, state=forged), rechain=False), frozenset({"state"}), f.records[i].seq)


def tamper_prev_broken(f: Forge) -> Tampered:
    i = f.moves()[0]
    forged = hashlib.sha256(b"another line").hexdigest()
    return Tampered(f.text(f.edited(i, prev=forged), rechain=False), frozenset({"chain"}), f.records[i].seq)


def tamper_record_after_the_end(f: Forge) -> Tampered:
    """A move appended to a finished game, chained and hashed like the last record."""
    last_move = next(r for r in reversed(f.records) if r.type == "move")
    extra = last_move._replace(seq=len(f.records) + 1, state=f.records[-1].state)
    return Tampered(f.text([*f.records, extra]), frozenset({"illegal"}), extra.seq)


def tamper_header_option_changed(f: Forge) -> Tampered:
    cls = games.game_class(f.case.game)
    options = dict(f.header.options)
    key = next((k for k, o in cls.options.items() if o.choices and len(o.choices) > 1), None)
    if key is None:
        pytest.skip(f"{cls.title} has no option with choices to change")
    options[key] = next(c for c in cls.options[key].choices if c != options[key])  # type: ignore[union-attr]
    header = f.header._replace(options=options)
    return Tampered(encode(header, f.records, rechain=False), frozenset({"chain"}), 1)


def tamper_seat_renamed(f: Forge) -> Tampered:
    seats = list(f.header.seats)
    seats[-1] = seats[-1]._replace(name="Mallory")
    return Tampered(encode(f.header._replace(seats=tuple(seats)), f.records, rechain=False), frozenset({"chain"}), 1)


def tamper_seats_relettered(f: Forge) -> Tampered:
    """Seat letters out of order, the chain mended: the header check tells."""
    seats = list(f.header.seats)
    if len(seats) == 1:  # a game of one: its seat lettered B
        seats[0] = seats[0]._replace(seat="B")
    else:
        seats[0], seats[1] = seats[0]._replace(seat=seats[1].seat), seats[1]._replace(seat=seats[0].seat)
    return Tampered(encode(f.header._replace(seats=tuple(seats)), f.records), frozenset({"header"}))


def tamper_commitment_toggled(f: Forge) -> Tampered:
    """A commitment added to a game without hidden information, or taken from one with
    it; the chain mended."""
    commitment = None if f.case.hidden else dealer.commitment(randomplay.deal_seed(999))
    return Tampered(encode(f.header._replace(commitment=commitment), f.records), frozenset({"header"}))


# -- hidden information only --
def tamper_commitment_changed(f: Forge) -> Tampered:
    header = f.header._replace(commitment=dealer.commitment(randomplay.deal_seed(999)))
    return Tampered(encode(header, f.records, rechain=False), frozenset({"chain"}), 1)


def tamper_commitment_changed_and_rechained(f: Forge) -> Tampered:
    header = f.header._replace(commitment=dealer.commitment(randomplay.deal_seed(999)))
    return Tampered(encode(header, f.records), frozenset({"reveal"}), reveal_index(f) + 1)


def tamper_reveal_with_a_wrong_seed(f: Forge) -> Tampered:
    i = reveal_index(f)
    records = f.edited(i, seed=randomplay.deal_seed(999))
    return Tampered(f.text(records, rechain=i < len(records) - 1), frozenset({"reveal"}), f.records[i].seq)


def tamper_reveal_before_the_end(f: Forge) -> Tampered:
    """The dealer's true seed, revealed mid-game: the rules refuse it."""
    i = f.moves()[0]
    reveal = f.records[reveal_index(f)]._replace(seq=f.records[i].seq)
    records = [*f.records[:i], reveal, *f.records[i:]]
    return Tampered(f.text(records, renumber=True), frozenset({"illegal"}), f.records[i].seq)


def tamper_dealt_from_another_seed(f: Forge) -> Tampered:
    """A whole game played from a deal other than the committed one, every record chained
    and hashed, the reveal naming the committed seed: a card laid that its seat did not
    hold. A player's copy finds nothing wrong before the reveal (checked below); the
    re-deal does."""
    other = randomplay.deal_seed(f.case.seed + 500)
    header, found = f.header, {"illegal"}
    cls = games.game_class(header.game)
    options = cls.dealt_options({k: v for k, v in header.options.items() if k != "start"}, other)
    if "start" in header.options:  # the seed fixes a public start too (domino 1.2): the header names the other's
        header, found = header._replace(options=cls.resolve_options(options)), {"header"}
    rep = engine.start(header, other)  # the header's commitment stays the true seed's
    randomplay.play_on(rep, random.Random(f.case.seed), mischief=MISCHIEF)
    records = list(rep.log.records)
    i = reveal_index_of(records)
    records[i] = records[i]._replace(seed=f.case.deal)
    data = encode(rep.log.header_raw, records)
    before = parsed(encode(rep.log.header_raw, records[:i]))
    assert engine.replay(before).seq == i, "the forged game passes every public check"
    return Tampered(data, frozenset(found))


def reveal_index(f: Forge) -> int:
    return reveal_index_of(f.records)


def reveal_index_of(records: list[Record]) -> int:
    found = [i for i, r in enumerate(records) if r.type == "reveal"]
    assert len(found) == 1 and records[found[0]].by == dealer.DEALER, "one reveal, by the dealer"
    return found[0]


def hidden_only_move(f: Forge) -> tuple[int, Placement]:
    """A record index and a placement that its seat could not make with the cards it
    held, though a copy without the deal takes it: a card laid that was not held."""
    public_log = parsed(encode(f.log.header_raw, f.records[: reveal_index(f)]))
    for i in f.moves():
        record = f.records[i]
        original = parse(record.move)  # type: ignore[arg-type]
        if not isinstance(original, Placement):
            continue
        public = engine.replay(public_log, upto=record.seq - 1)
        dealt = f.before(record.seq)
        assert not public.game.dealt and dealt.game.dealt
        for digit in range(1, 10):
            move = Placement(digit, original.cell, original.claim)
            if digit == original.digit:
                continue
            try:
                engine.apply(public.game, public.game.clone(public.state), Action(record.seq, "move", record.by, move))
            except CorrError:
                continue
            try:
                engine.apply(dealt.game, dealt.game.clone(dealt.state), Action(record.seq, "move", record.by, move))
            except CorrError:
                return i, move
    raise AssertionError(f"{f.case}: no move is refused by the hidden information alone")


TAMPERS: dict[str, Callable[[Forge], Tampered]] = {
    "move-edited": tamper_move_edited,
    "move-other-cell-rechained": tamper_move_other_cell,
    "move-other-digit-rechained": tamper_move_other_digit,
    "record-removed": tamper_record_removed,
    "record-removed-renumbered-rechained": tamper_record_removed_and_renumbered,
    "records-swapped": tamper_records_swapped,
    "records-swapped-renumbered-rechained": tamper_records_swapped_and_renumbered,
    "state-hash-altered-rechained": tamper_state_hash_altered,
    "last-state-hash-altered": tamper_last_state_hash_altered,
    "prev-broken": tamper_prev_broken,
    "record-after-the-end": tamper_record_after_the_end,
    "header-option-changed": tamper_header_option_changed,
    "seat-renamed": tamper_seat_renamed,
    "seats-relettered-rechained": tamper_seats_relettered,
    "commitment-toggled-rechained": tamper_commitment_toggled,
}
HIDDEN_TAMPERS: dict[str, Callable[[Forge], Tampered]] = {
    "commitment-changed": tamper_commitment_changed,
    "commitment-changed-rechained": tamper_commitment_changed_and_rechained,
    "reveal-with-a-wrong-seed": tamper_reveal_with_a_wrong_seed,
    "reveal-before-the-end": tamper_reveal_before_the_end,
    "dealt-from-another-seed": tamper_dealt_from_another_seed,
}
TAMPER_CASES = [
    pytest.param(case, name, id=f"{case}-{name}")
    for case in FIRST
    for name in [*TAMPERS, *(HIDDEN_TAMPERS if case.hidden else ())]
]


@pytest.mark.parametrize("case, tamper", TAMPER_CASES)
def test_tampering_is_detected_by_replay_and_audit(case: Case, tamper: str, tmp_path: Path) -> None:
    forge = Forge(case)
    tampered = (TAMPERS | HIDDEN_TAMPERS)[tamper](forge)
    assert tampered.data != log_bytes(case)
    with pytest.raises(CorruptLog) as caught:
        engine.replay(parsed(tampered.data))
    assert caught.value.kind in tampered.kinds, str(caught.value)
    if tampered.seq is not None:
        assert caught.value.seq == tampered.seq, str(caught.value)
    path = tmp_path / "tampered.corr"
    path.write_bytes(tampered.data)
    report = audit.audit(path)
    assert report["intact"] is False
    assert {f["kind"] for f in report["findings"]} & tampered.kinds, report["findings"]


@pytest.mark.parametrize("case", FIRST, ids=str)
def test_a_torn_last_line_is_kept_apart_reported_and_never_used(case: Case, tmp_path: Path) -> None:
    data = log_bytes(case)
    rep = played(case)
    whole = data.split(b"\n")
    half_line = whole[-2][: len(whole[-2]) // 2]
    for torn_data, torn, records in (
        (data + b'{"seq":', b'{"seq":', len(rep.log.records)),  # a new line, cut short
        (b"\n".join(whole[:-2]) + b"\n" + half_line, half_line, len(rep.log.records) - 1),  # the last one
    ):
        log = parsed(torn_data)
        assert log.torn == torn and len(log.records) == records
        again = engine.replay(log)
        assert again.seq == records
        assert engine.state_hash(again.game, again.state, again.forfeit) == rep.log.records[records - 1].state
        path = tmp_path / f"torn-{records}.corr"
        path.write_bytes(torn_data)
        report = audit.audit(path)
        assert report["intact"] is False
        assert [f["kind"] for f in report["findings"] if f["kind"] in DAMAGE] == ["torn"]
        with pytest.raises(CorruptLog) as caught, store.writing(path):
            pass
        assert caught.value.kind == "torn"
        assert path.read_bytes() == torn_data


# --- 5. clones -------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_clone_is_independent_of_its_original(case: Case) -> None:
    log = dealers_copy(case)
    tried = 0
    for seq in positions(len(log.records), 6):
        rep = engine.replay(log, upto=seq)
        game, state = rep.game, rep.state
        if rep.to_move() not in game.seats:
            continue
        moves = game.legal_moves(state)
        key, whole = game.state_key(state), plain(state)
        clone = game.clone(state)
        assert game.state_key(clone) == key and plain(clone) == whole
        engine.apply(game, clone, on_turn_action(rep, moves[0]))
        assert game.state_key(clone) != key, "a move changes the position"
        assert game.state_key(state) == key and plain(state) == whole, "the original did not move"
        # and the other way round: the original moves on, an earlier clone stays
        kept = game.clone(state)
        engine.apply(game, state, on_turn_action(rep, moves[-1]))
        assert game.state_key(kept) == key and plain(kept) == whole
        tried += 1
    assert tried >= 3


# --- rendering and legal moves at every stage (from the first version of this suite) ----
@pytest.mark.parametrize("case", CASES, ids=str)
def test_positions_render_and_legal_moves_are_accepted(case: Case) -> None:
    rep = played(case)
    log = dealers_copy(case)
    for seq in positions(rep.seq, 3):
        at = engine.replay(log, upto=seq)
        data = json.loads(render_position(at, "json"))
        assert data["seq"] == at.seen_seq(None) and len(data["board"]) == 81
        assert render_position(at, "text") and render_position(at, "html")
    mid = engine.replay(dealers_copy(case, upto=rep.seq // 2))
    if mid.to_move() in mid.game.seats:
        moves = mid.game.legal_moves(mid.state)
        assert moves
        for move in moves[:25]:
            trial = engine.replay(dealers_copy(case, upto=rep.seq // 2))
            tail = trial.log.tail_hash
            records = trial.add("move", mid.to_move(), move=move)
            assert records[0].move == str(move) and records[0].seq == mid.seq + 1
            assert records[0].prev == tail


# --- 6. golden playthroughs ------------------------------------------------------------
def playthrough(name: str) -> str:
    """One whole random game, with time frozen and the id pinned: the log as `corr log`
    prints it, a board mid-game and at the end, for hidden games one seat's view at
    both, and the log file itself (every hash of the format)."""
    options = EXAMPLES[name][0]
    players = seat_counts(name)[0]
    with freeze_time(PLAYED_AT):  # the whole game within its first second: clocks show it so
        rep = randomplay.play(
            name, PLAYERS[:players], options, seed=SEEDS[0], mischief=MISCHIEF, game_id=f"{name}-playthrough"
        )
        return _playthrough_text(name, rep, options, players)


def _playthrough_text(name: str, rep: engine.Position, options: dict[str, str], players: int) -> str:
    mid = engine.replay(rep.log, upto=rep.seq // 2)
    opts = " ".join(f"{k}={v}" for k, v in options.items()) or "(defaults)"
    parts = [
        f"# corr playthrough: {name}, options {opts}, {players} players, "
        f"corr.randomplay seed {SEEDS[0]}, mischief {MISCHIEF}",
        "",
        "## corr log",
        game_text(view.observe(rep), rep.header),
        f"## public board at seq {mid.seq}",
        render_position(mid, "text"),
        "## public board at the end",
        render_position(rep, "text"),
    ]
    if rep.game.hidden:
        seat = rep.game.seats[0]
        parts += [
            f"## seat {seat}'s board at seq {mid.seq}",
            render_position(mid, "text", seat),
            f"## seat {seat}'s board at the end",
            render_position(rep, "text", seat),
        ]
    parts += ["## log file", store.text(rep.log).decode()]
    return "\n".join(parts)


@pytest.mark.parametrize("name", games.names())
def test_golden_playthrough(name: str) -> None:
    output = playthrough(name)
    assert output == playthrough(name), "a playthrough is the same on every run"
    assert_golden(f"playthrough-{name}.txt", output)


def test_playthrough_goldens_have_no_strays() -> None:
    wanted = {f"playthrough-{name}.txt" for name in games.names()}
    assert {p.name for p in GOLDEN.glob("playthrough-*")} <= wanted


# --- 7. views and hidden information ---------------------------------------------------
#: How a board speaks of a held card ("hand:   B holds 6", "Your card (B Ben)").
HAND_WORDS = re.compile(r"\bhand\b|\bholds?\b|\bcards? \(", re.IGNORECASE)


def other_seats_named(text: str, rep: engine.Position, seat: str) -> list[str]:
    """The other seats a line names, by letter or by player name."""
    named = []
    for s in rep.header.seats:
        if s.seat != seat and re.search(rf"(?<![\w-]){re.escape(s.seat)}(?![\w-])|{re.escape(s.name)}", text):
            named.append(s.seat)
    return named


@pytest.mark.parametrize("case", FIRST, ids=str)
def test_each_seat_sees_the_public_view_and_only_its_own_secret(case: Case) -> None:
    """A seat's view is the public view plus keys of its own (none in games without
    hidden information); its rendered bytes are the public bytes plus lines of its own
    that name no other seat and appear in no other seat's bytes."""
    log = dealers_copy(case)
    shown: dict[str, int] = {}
    for seq in positions(len(log.records), 6):
        rep = engine.replay(log, upto=seq)
        if rep.game.own_boards and len(rep.game.seats) > 1:  # a duel: each seat its own board
            shown.update((seat, 1) for seat in seats_see_only_their_own(rep))
            continue
        public = view.position(rep)
        assert "viewer" not in public
        assert json.loads(render_position(rep, "json")) == json.loads(json.dumps(public))
        rendered = {fmt: {None: render_position(rep, fmt)} for fmt in ("text", "html")}
        for seat in rep.game.seats:
            own = view.position(rep, seat)
            assert own.pop("viewer") == seat
            secret = {k: v for k, v in own.items() if k not in public}
            assert {k: v for k, v in own.items() if k not in secret} == public, "nothing public differs per seat"
            assert secret == view.private(rep, seat)
            assert json.loads(render_position(rep, "json", seat)) == json.loads(json.dumps({**own, "viewer": seat}))
            if not rep.game.hidden:
                assert not secret, "a game without hidden information shows every seat the same"
            shown[seat] = shown.get(seat, 0) + bool(secret)
            for fmt in rendered:
                rendered[fmt][seat] = render_position(rep, fmt, seat)
        for fmt, by_seat in rendered.items():
            public_lines = by_seat[None].splitlines()
            for seat in rep.game.seats:
                own_lines = by_seat[seat].splitlines()
                extra = [line for line in own_lines if line not in public_lines]
                assert [line for line in own_lines if line not in extra] == public_lines
                if not rep.game.hidden:
                    assert not extra
                for line in extra:
                    assert not other_seats_named(line, rep, seat), f"seat {seat}'s {fmt} names another seat: {line}"
                    for other in rep.game.seats:
                        if other != seat:
                            assert line not in by_seat[other].splitlines(), f"{seat}'s line in {other}'s {fmt}: {line}"
                if rep.game.hidden and not rep.result().over:  # no line about another seat's hand
                    for line in own_lines:
                        if HAND_WORDS.search(line):
                            assert line in extra and not other_seats_named(line, rep, seat), line
    if case.hidden:
        assert all(shown.get(seat) for seat in played(case).game.seats), f"every seat is shown its secret: {shown}"


def seats_see_only_their_own(rep: engine.Position) -> list[str]:
    """Where records are hidden (domino 1.2), each seat's view and bytes hold its own
    records and share only what the public view shows; no other seat's record is read."""
    public = view.position(rep)
    public_text = render_position(rep, "text")
    if rep.result().over:  # every board is shown to all
        for seat in rep.game.seats:
            own = view.position(rep, seat)
            for key in ("scores", "lives", "jokers", "boards", "seq", "last", "winners"):
                assert own[key] == public[key], key
            assert set(public["boards"]) == set(rep.game.seats)
        return list(rep.game.seats)
    for seat in rep.game.seats:
        own = view.position(rep, seat)
        readable = {step.record.seq for step in rep.visible(seat)}
        assert all(step.record.by in (seat, dealer.DEALER) for step in rep.visible(seat)), "another seat's record"
        assert own["seq"] == max(readable, default=0)
        assert own["last"] is None or own["last"]["by"] == seat
        for key in ("scores", "lives", "jokers", "boards"):
            if key in own:
                assert set(own[key]) <= {seat}, f"seat {seat}'s {key} name another seat: {own[key]}"
                assert not public[key], f"the public {key} show a board while the duel runs"
        text = render_position(rep, "text", seat)
        for line in text.splitlines():
            if line not in public_text.splitlines():
                assert not other_seats_named(line, rep, seat), f"seat {seat}'s text names another seat: {line}"
    return list(rep.game.seats)


@lru_cache(maxsize=None)
def hidden_fields(case: Case) -> tuple[str, ...]:
    """The state's fields that differ between deals of the same game: its hidden parts."""
    header = played(case).header
    states = [engine.make_game(header, randomplay.deal_seed(1000 + i)).initial() for i in range(8)]
    return tuple(a for a in attributes(states[0]) if len({plain(getattr(s, a)) for s in states}) > 1)


def redealt(rep: engine.Position, case: Case, keep: int | None) -> engine.Position:
    """`rep` with its hidden parts taken from another deal (the game too), except the
    share of seat number `keep` in fields held per seat; every other share differs."""
    fields = hidden_fields(case)
    n = len(rep.game.seats)
    for attempt in range(100):
        game = engine.make_game(rep.header, randomplay.deal_seed(5000 + attempt))
        other = game.initial()
        state = rep.game.clone(rep.state)
        differs = True
        for name in fields:
            old, new = getattr(state, name), getattr(other, name)
            if isinstance(old, (list, tuple)) and len(old) == n:  # held per seat
                new = type(old)(old[j] if j == keep else new[j] for j in range(n))
                differs &= all(plain(new[j]) != plain(old[j]) for j in range(n) if j != keep)
            else:
                differs &= plain(new) != plain(old)
            setattr(state, name, new)
        if differs:
            return dataclasses.replace(rep, game=game, state=state)
    raise AssertionError(f"{case}: no other deal changes every hidden part")


#: The hidden cases whose hidden part is the state (hands, a pile), which `redealt`
#: deals anew. Where every seat plays a board of its own (Domino) it is the game's
#: digit order and the other boards: the differential test below swaps those itself.
REDEALT = [case for case in HIDDEN if not games.game_class(case.game).own_boards]


@pytest.mark.parametrize("case", REDEALT, ids=str)
def test_nothing_public_and_no_other_seat_depends_on_the_deal(case: Case) -> None:
    """Another deal - other hands, another pile - leaves the public hash and the public
    bytes alone, and each seat's bytes too as long as its own share stays."""
    fields = hidden_fields(case)
    assert fields, "the deal changes the state"
    log = dealers_copy(case)
    changed: set[str] = set()
    for seq in positions(len(log.records), 5):
        rep = engine.replay(log, upto=seq)
        key = rep.game.state_key(rep.state)
        other = redealt(rep, case, None)
        assert plain(other.state) != plain(rep.state)
        assert other.game.state_key(other.state) == key, "the state hash covers nothing hidden"
        assert rep.game.state_key(other.state) == key and other.game.state_key(rep.state) == key
        for fmt in FORMATS:
            assert render_position(other, fmt) == render_position(rep, fmt), f"public {fmt} depends on the deal"
        for keep, seat in enumerate(rep.game.seats):
            if render_position(other, "text", seat) != render_position(rep, "text", seat):
                changed.add(seat)  # the seat's own share does show
            mine = redealt(rep, case, keep)
            assert mine.game.state_key(mine.state) == key
            for fmt in FORMATS:
                assert render_position(mine, fmt, seat) == render_position(rep, fmt, seat), (
                    f"seat {seat}'s {fmt} depends on another seat's secret"
                )
    assert changed == set(played(case).game.seats), "each seat's view shows its own secret"


# -- every byte a seat gets, in two worlds --------------------------------------------
#: The cases with something a seat or the public may not see: a deal (HIDDEN), and, where
#: every seat plays a board of its own, the other boards while the duel runs, whatever
#: the seed (a public one too).
SECRETIVE = [
    case for case in FIRST if case.hidden or (games.game_class(case.game).own_boards and case.players > 1)
]
#: Each is checked on the dealer's copy and, where there is a deal, on a player's copy
#: (the public log without the secret, a seat's own hidden part from its kept panel).
SECRETIVE_COPIES = [
    pytest.param(case, whose, id=f"{case}-{whose}s-copy")
    for case in SECRETIVE
    for whose in ("dealer", *(("player",) if case.hidden else ()))
]


@lru_cache(maxsize=None)
def mailed(case: Case) -> bytes:
    """The case's log with an address for every seat (a message needs one), its records
    chained anew and otherwise the same: no state hash covers an address."""
    log = played(case).log
    seats = tuple(s._replace(email=f"{s.name.lower()}@example.org") for s in log.header.seats)
    return encode(log.header._replace(seats=seats), log.records)


def copy_bytes(case: Case, seq: int) -> bytes:
    """The mailed log as it was at `seq`."""
    log = parsed(mailed(case))
    return encode(log.header_raw, log.records[:seq])


def other_order(game: Any, keep: int) -> Any:
    """A copy of a game dealt by a digit order (Domino) whose order differs in every digit
    after its first `keep` entries, the cells of those taken in reverse; with a secret
    seed, the secret is another too."""
    order = game.deal.order
    rest = order[keep:]
    other = copy.copy(game)
    other.deal = dataclasses.replace(
        game.deal, order=order[:keep] + tuple((cell, digit % 9 + 1) for (cell, _), (_, digit) in zip(rest[::-1], rest))
    )
    if game.hidden:
        other.seed = randomplay.deal_seed(4321)
    return other


def order_known(rep: engine.Position, viewer: str | None) -> int:
    """How many entries of the digit order `viewer` may know: a seat, its board's placed
    digits and the one it is given (at index `placed`); the public, the placed digits of
    the boards it sees (the one board of a game of one, every board once a duel is
    over, none before) and the given digit where it is shown it (a public seed, a game of
    one that runs)."""
    game: Any = rep.game
    state = rep.state
    if viewer is not None:
        return game.board_of(state, viewer).placed + 1
    over = game.over(state, rep.when())
    if game.duel():
        return max(b.placed for b in state.boards) if over else 0
    return state.boards[0].placed + (0 if game.hidden or over else 1)


def other_boards(rep: engine.Position, viewer: str | None, pool: list[Any]) -> Any:
    """The state with, while a duel runs, every board but the viewer's another one from
    `pool` whose game is over or runs as the real one's (which is public), and another
    seat as the newest mover; the state itself otherwise."""
    game: Any = rep.game
    state = game.clone(rep.state)
    if not game.duel() or game.over(state, rep.when()):
        return state
    for i, (seat, board) in enumerate(zip(game.seats, rep.state.boards)):
        if seat != viewer:
            swap = next((b for b in pool if bool(b.ended) == bool(board.ended) and b.key() != board.key()), None)
            assert swap is not None, f"no other board for seat {seat} at seq {rep.seq}"
            state.boards[i] = swap.copy()
    state.last_by = next(s for s in game.seats if s not in (rep.state.last_by, viewer))
    return state


def unseen_differs(rep: engine.Position, case: Case, viewer: str | None, pool: list[Any]) -> engine.Position:
    """`rep` (the dealer's copy) with everything `viewer` may not see different: another
    deal but the viewer's own share (`redealt`); where every seat plays its own board,
    the digit order after what the viewer may know, and in a running duel every other
    board. Its log and records are the same."""
    if not rep.game.own_boards:
        other = redealt(rep, case, None if viewer is None else rep.game.seats.index(viewer))
        assert plain(other.state) != plain(rep.state) and other.game.seed != rep.game.seed
    else:
        game: Any = rep.game
        keep = order_known(rep, viewer)
        other = dataclasses.replace(rep, game=other_order(game, keep), state=other_boards(rep, viewer, pool))
        order, others = game.deal.order, other.game.deal.order  # type: ignore[attr-defined]
        assert keep < len(order) and others[:keep] == order[:keep] and others[keep:] != order[keep:]
        if game.duel() and not game.over(rep.state, rep.when()):
            assert all(plain(o) != plain(b) for s, o, b in zip(game.seats, other.state.boards, rep.state.boards)
                       if s != viewer), "every other board differs"
        # what is public stays: the state hash, and the viewer's own sealed board
        assert other.game.public_key(other.state) == game.public_key(rep.state)
        if viewer is not None:
            assert other.game.sealed_key(other.state, viewer) == game.sealed_key(rep.state, viewer)
    assert other.log is rep.log and other.steps == rep.steps, "the same records in both worlds"
    return other


def message_parts(msg: Any) -> list[tuple[Any, ...]]:
    """Everything a message says, part by part, but what differs on every composing: its
    Message-ID and the MIME boundaries."""
    said = []
    for part in msg.walk():
        headers = [(k, str(v)) for k, v in part.items()
                   if k != "Message-ID" and not (k == "Content-Type" and part.is_multipart())]
        said.append((part.get_content_type(), headers, None if part.is_multipart() else part.get_payload(decode=True)))
    return said


def everything_shown(world: engine.Position, viewer: str | None) -> dict[str, Any]:
    """Every byte `viewer` (None: the public) gets of `world`, by where it goes: the board
    in every format, the move list, a message's records, attachment, Subject and both
    parts (what they say), and for a seat its private panel, the whole message it is
    mailed, and where it is on turn on a dealer's copy its legal moves, the example a
    message shows and what a computer opponent is given to reason with."""
    shown = view.observe(world, viewer)
    seen: dict[str, Any] = {f"board ({fmt})": render(shown, fmt) for fmt in FORMATS}
    seen["move list"] = game_text(shown, world.header)
    seen["records since 0"] = view.record_lines(shown, world, 0)
    seen["records since the last"] = view.record_lines(shown, world, shown.seq - 1)
    seen["attachment"] = view.log_lines(shown, world)
    seen["subject"] = mail.subject(world, viewer)
    seen["rules"] = plain(shown.rules)
    for fmt in ("text", "html"):  # a Markup field as its text
        seen[f"letter ({fmt})"] = json.loads(json.dumps(mail.letter(world, viewer, None, None, fmt)))
    if viewer is not None:
        seen["private panel"] = view.private(world, viewer)
        seen["message"] = message_parts(mail.compose(world, viewer))
        if world.game.dealt and viewer in world.on_turn() and not world.result().over:
            moves = view.observe(world, viewer, moves=True)
            seen["legal moves"] = ([str(m) for m in moves.legal], str(moves.example()), plain(moves.state))
    return seen


def differences(real: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """What differs between two worlds' `everything_shown`, each with a diff."""
    found = []
    for what, mine in real.items():
        theirs = other[what]
        if mine == theirs:
            continue
        a, b = (v if isinstance(v, str) else json.dumps(v, indent=1, sort_keys=True, default=repr)
                for v in (mine, theirs))
        diff = difflib.unified_diff(a.splitlines(), b.splitlines(), "real world", "other world", n=1, lineterm="")
        found.append(f"{what}:\n" + "\n".join(list(diff)[:30]))
    return found


def runs_as_shown(corr: Callable[..., Any], path: Path, real: engine.Position, viewer: str | None) -> None:
    """The commands `viewer` runs on the copy at `path` print what `everything_shown`
    compared: `corr show` (--for the seat) in every format, `corr log` (the public's),
    and `corr legal --json` where the seat is on turn on a dealer's copy."""
    shown = view.observe(real, viewer)
    seat = () if viewer is None else ("--for", viewer)
    for fmt in FORMATS:
        ran = corr("show", path, *seat, "--format", fmt)
        assert (ran.code, ran.err) == (0, ""), ran.err
        assert ran.out == render(shown, fmt), f"corr show {' '.join(seat)} --format {fmt} at seq {real.seq}"
    if viewer is None:
        ran = corr("log", path)
        assert (ran.code, ran.out, ran.err) == (0, game_text(shown, real.header), "")
    elif real.game.dealt and viewer in real.on_turn() and not real.result().over:
        ran = corr("legal", path, "--for", viewer, "--json")
        assert (ran.code, ran.err) == (0, ""), ran.err
        moves = [str(m) for m in view.observe(real, viewer, moves=True).legal]
        assert json.loads(ran.out) == {"seat": viewer, "moves": moves}


@pytest.mark.parametrize("case, whose", SECRETIVE_COPIES)
def test_every_byte_a_seat_gets_depends_only_on_what_it_may_see(
    case: Case, whose: str, corr: Callable[..., Any], tmp_path: Path
) -> None:
    """A differential check. For each viewer - every seat, and the public - at a few
    positions, a second world in which everything the viewer may not see is different
    (another deal but the viewer's share; Domino: another digit order after what the
    viewer may know, and in a running duel every other board; on a player's copy, every
    other seat's kept panel) and the records are the same: every byte the viewer gets
    is the same in both. What the commands it runs on the real copy print is what was
    compared."""
    rep = played(case)
    last = reveal_index_of(rep.log.records) if whose == "player" else len(rep.log.records)
    seqs = positions(last, 3)
    dealt = {seq: engine.replay(parsed(copy_bytes(case, seq), case.deal if case.hidden else None)) for seq in seqs}
    pool = [b for seq in reversed(seqs) for b in getattr(dealt[seq].state, "boards", ())]
    viewers: list[str | None] = [None, *rep.game.seats]
    checked: dict[str | None, int] = {}
    panels_shown = 0
    for seq in seqs:
        data = copy_bytes(case, seq)
        path = tmp_path / f"{seq}" / "game.corr"
        path.parent.mkdir()
        path.write_bytes(data)
        if whose == "dealer":
            real = dealt[seq]
            if case.hidden:
                dealer.write_secret(path, dealer.Secret(case.deal))
            worlds = {v: unseen_differs(real, case, v, pool) for v in viewers}
        else:  # what the dealer's latest messages told each seat, kept beside the copy
            other = unseen_differs(dealt[seq], case, None, pool)
            for seat in rep.game.seats:
                panels.keep_private(path, seat, seq, view.private(dealt[seq], seat))
            real = engine.load(path)
            assert not real.game.dealt and not real.private
            kept = panels.private_views(path)  # as the copy reads them (a panel it would not take left out)
            for seat, entry in kept.items():  # each seat is shown its own hidden part from its panel alone
                own = view.observe(real, seat).position
                assert {k: own.get(k) for k in entry["view"]} == entry["view"]
                panels_shown += bool(entry["view"])
            worlds = {}
            for v in viewers:
                private = {s: entry for s, entry in kept.items() if s == v}
                for s in rep.game.seats:
                    panel = view.private(other, s)
                    if s != v and panels.panel_problem(panel) is None:
                        private[s] = {"seq": seq, "view": panel}
                if private != kept:
                    worlds[v] = dataclasses.replace(real, private=private)
        assert real.seq == seq and store.text(real.log) == data
        for viewer, world in worlds.items():
            found = differences(everything_shown(real, viewer), everything_shown(world, viewer))
            assert not found, f"{whose}'s copy at seq {seq}, viewer {viewer or 'the public'}:\n" + "\n".join(found)
            checked[viewer] = checked.get(viewer, 0) + 1
        for viewer in viewers:
            runs_as_shown(corr, path, real, viewer)
    # every viewer has something it may not see: on a dealer's copy at every position; on
    # a player's copy, another seat's panel (the public: every seat's) at some position
    assert set(checked) == ({None} if whose == "player" and len(viewers) == 2 else set(viewers)), checked
    if whose == "dealer":
        assert set(checked.values()) == {len(seqs)}, checked
    else:
        assert panels_shown, "a seat's copy shows what its kept panel tells"


def players_copy(case: Case) -> store.GameLog:
    """What a player holds before the end: the log without the reveal, no secret."""
    records = played(case).log.records
    return parsed(encode(played(case).log.header_raw, records[: reveal_index_of(records)]))


@pytest.mark.parametrize("case", HIDDEN, ids=str)
def test_a_players_copy_verifies_every_record_and_shows_the_same_bytes(case: Case) -> None:
    log = players_copy(case)
    assert log.secret is None and dealer.seed_for(log) is None
    rep = engine.replay(log)  # every record's state hash checked, without the deal
    assert not rep.game.dealt and len(rep.steps) == len(log.records)
    dealers = dealers_copy(case)
    final = engine.replay(dealers, upto=rep.seq)
    assert rep.game.state_key(rep.state) == final.game.state_key(final.state)
    for seq in positions(rep.seq, 5):
        player, dealt = engine.replay(log, upto=seq), engine.replay(dealers, upto=seq)
        assert player.game.state_key(player.state) == dealt.game.state_key(dealt.state)
        for fmt in FORMATS:
            assert render_position(player, fmt) == render_position(dealt, fmt), f"public {fmt} at seq {seq}"
        # a seat's copy, given what the dealer told it, shows what the dealer's copy shows it
        player.private = {seat: {"seq": seq, "view": view.private(dealt, seat)} for seat in dealt.game.seats}
        for seat in dealt.game.seats:
            assert view.position(player, seat) == view.position(dealt, seat)
            for fmt in ("text", "html"):
                assert render_position(player, fmt, seat) == render_position(dealt, fmt, seat)


@pytest.mark.parametrize("case", HIDDEN, ids=str)
def test_the_reveal_comes_last_and_lets_any_copy_redeal_and_audit(case: Case, tmp_path: Path) -> None:
    rep = played(case)
    data = log_bytes(case)
    records = rep.log.records
    i = reveal_index_of(records)
    assert i == len(records) - 1 and records[i].seed == case.deal
    assert dealer.commitment(case.deal) == rep.header.commitment
    assert case.deal.encode() not in encode(rep.log.header_raw, records[:i]), "the seed stays secret until the end"
    log = parsed(data)
    assert log.secret is None and dealer.revealed(log) == case.deal
    again = engine.replay(log)
    assert again.game.dealt
    assert plain(again.state) == plain(rep.state), "the re-deal reaches the dealer's whole state"
    path = tmp_path / "revealed.corr"
    path.write_bytes(data)
    assert audit.audit(path)["intact"] is True


@pytest.mark.parametrize("case", HIDDEN, ids=str)
def test_a_card_not_held_passes_a_players_copy_and_fails_the_dealers(case: Case) -> None:
    """A record edited mid-game to a placement the seat could not make with its card,
    every later hash recomputed the way a player's copy computes them (the rest of the
    game cut off): the player's copy must take it, and the dealer's copy names the seq."""
    forge = Forge(case)
    i, move = hidden_only_move(forge)
    public = engine.replay(players_copy(case), upto=forge.records[i].seq - 1)
    state = public.game.clone(public.state)
    engine.apply(public.game, state, Action(forge.records[i].seq, "move", forge.records[i].by, move))
    forged = forge.records[i]._replace(move=str(move), state=engine.state_hash(public.game, state))
    data = forge.text([*forge.records[:i], forged])
    assert engine.replay(parsed(data)).seq == forged.seq
    with pytest.raises(CorruptLog) as caught:
        engine.replay(parsed(data, case.deal))
    assert (caught.value.kind, caught.value.seq) == ("illegal", forged.seq), str(caught.value)


@pytest.mark.parametrize("case", HIDDEN, ids=str)
def test_a_copy_without_the_secret_takes_no_moves(case: Case) -> None:
    whole = players_copy(case)
    header_raw = played(case).log.header_raw
    tried = 0
    for record in whole.records[len(whole.records) // 3 :: 7]:
        if record.type != "move":
            continue
        log = parsed(encode(header_raw, whole.records[: record.seq - 1]))  # the player's copy then
        player = engine.replay(log)
        key = player.game.state_key(player.state)
        with pytest.raises(UsageError):
            player.add("move", record.by, move=parse(record.move))  # type: ignore[arg-type]
        assert player.seq == record.seq - 1 and player.game.state_key(player.state) == key
        assert len(player.log.records) == record.seq - 1, "nothing appended"
        dealt = engine.replay(dealers_copy(case, upto=record.seq - 1))  # the dealer's copy takes it
        made = dealt.add("move", record.by, move=parse(record.move))  # type: ignore[arg-type]
        assert (made[0].seq, made[0].prev, made[0].move, made[0].state) == (
            record.seq, record.prev, record.move, record.state
        )
        tried += 1
    assert tried
