"""`corr referee rule` (DESIGN 5): signed rulings by the referee or host named in the
header, honoured by replay, show, audit and every later move; the records before a
ruling stay byte for byte as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from freezegun import freeze_time

from corr import engine, timecontrol
from corr.decisions import parse_decision
from corr.engine import rulings
from corr.errors import UsageError
from corr.log import store

DAY = 86400


@pytest.fixture
def keys(tmp_path: Path, corr) -> Path:
    """Key pairs for the referee (rita), the host and a player (anna)."""
    for name in ("rita", "host", "anna"):
        assert corr("key", "new", "--out", tmp_path / name).code == 0
    return tmp_path


def refereed(corr, keys: Path, *moves: str, options: tuple[str, ...] = (), time: str | None = None,
             host: bool = False) -> Path:
    path = keys / "game.corr"
    args = ["new", "combat", path, "-p", "Anna <anna@example.org>", "-p", "Ben", "--referee", "Rita <rita@example.org>",
            "--referee-key", keys / "rita.pub", "-f", "none"]
    for opt in options:
        args += ["-o", opt]
    if time:
        args += ["--time", time]
    if host:
        args += ["--host", "corr host <host@example.org>", "--host-key", keys / "host.pub"]
    r = corr(*args)
    assert r.code == 0, r.err
    for move in moves:  # a hosted game's records carry the host's signature
        r = corr("move", path, move, "-f", "none", *(("--sign", keys / "host.key") if host else ()))
        assert r.code == 0, f"{move}: {r.err}"
    return path


def rule(corr, path: Path, seq: int, *decision: str, key: Path, reason: str = "the referee's reason"):
    return corr("referee", "rule", path, "--seq", str(seq), *decision, "--reason", reason, "--sign", key,
                "-f", "json")


def show(corr, path: Path) -> dict:
    r = corr("show", path, "--format", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)


def refused(corr, path: Path, *args, words: tuple[str, ...], code: int = 1) -> None:
    before = path.read_bytes()
    r = corr(*args)
    assert r.code == code, r.err
    assert len(r.err.strip().splitlines()) == 1, r.err
    for w in words:
        assert w in r.err, r.err
    assert path.read_bytes() == before


# ---------------------------------------------------------------------------------
# who may rule


def test_header_names_the_referee_with_address_and_key(corr, keys: Path) -> None:
    path = refereed(corr, keys)
    header = json.loads(path.read_bytes().splitlines()[0])
    assert header["referee"] == {"name": "Rita", "email": "rita@example.org",
                                 "key": (keys / "rita.pub").read_text().strip()}
    assert "host" not in header


def test_referee_needs_a_key_and_a_name(corr, keys: Path) -> None:
    path = keys / "g.corr"
    r = corr("new", "combat", path, "-p", "A", "-p", "B", "--referee", "Rita")
    assert r.code == 1 and "--referee-key" in r.err and not path.exists()
    r = corr("new", "combat", path, "-p", "A", "-p", "B", "--referee-key", keys / "rita.pub")
    assert r.code == 1 and "--referee NAME" in r.err and not path.exists()
    r = corr("new", "combat", path, "-p", "A", "-p", "B", "--referee", "Rita", "--referee-key", keys / "rita.key")
    assert r.code == 1 and "not a corr public key" in r.err and not path.exists()


def test_a_ruling_by_anyone_else_is_refused(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)")
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--void", "--reason", "x", "--sign", keys / "anna.key",
            words=("anna.key", "not the key of this game's referee", "only they can rule"))


def test_a_game_without_referee_or_host_has_nobody_to_rule(corr, keys: Path, game_file) -> None:
    path = game_file("2 (1,1)")
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--void", "--reason", "x", "--sign", keys / "rita.key",
            words=("names no referee or host",))


def test_the_host_may_rule_too(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", host=True)
    r = rule(corr, path, 1, "--void", key=keys / "host.key")
    assert r.code == 0, r.err
    last = json.loads(path.read_bytes().splitlines()[-1])
    assert (last["type"], last["by"], last["target"], last["move"]) == ("ruling", "host", 1, "void")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--void", "--reject"), ("exactly one of",)),
        ((), ("exactly one of",)),
        (("--forfeit", "Z"), ("not a ruling",)),
        (("--adjust-clock", "A=0"), ("changes nothing",)),
        (("--adjust-clock", "A=two"), ("not a ruling",)),
    ],
)
def test_malformed_rulings_are_refused(corr, keys: Path, args: tuple[str, ...], words: tuple[str, ...]) -> None:
    path = refereed(corr, keys, "2 (1,1)")
    refused(corr, path, "referee", "rule", path, "--seq", "1", *args, "--reason", "x", "--sign", keys / "rita.key",
            words=words)


def test_a_ruling_needs_a_reason_and_a_record(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)")
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--void", "--reason", "  ", "--sign",
            keys / "rita.key", words=("reason",))
    refused(corr, path, "referee", "rule", path, "--seq", "5", "--void", "--reason", "x", "--sign",
            keys / "rita.key", words=("seq 5 is outside the log",))


# ---------------------------------------------------------------------------------
# void


def test_void_the_last_move_gives_the_turn_back_and_keeps_the_record(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    before = path.read_bytes()
    r = rule(corr, path, 2, "--void", reason="B typed the wrong place", key=keys / "rita.key")
    assert r.code == 0, r.err
    assert path.read_bytes().startswith(before)  # the records stay; the ruling is appended
    p = json.loads(r.out)
    assert p["to_move"] == "B" and p["board"][1] == "."
    assert show(corr, path)["board"] == p["board"]
    assert corr("move", path, "3 (1,3)", "-f", "none").code == 0  # B moves again, now legal there
    log = corr("log", path).out
    assert "2. B  3 (1,2)  {void}" in log and "ruling on 2: void (B typed the wrong place)" in log
    audit = json.loads(corr("audit", path, "--json").out)
    assert audit["intact"] is True
    kinds = [(f["seq"], f["kind"]) for f in audit["findings"]]
    assert (2, "void") in kinds and (3, "ruling") in kinds


def test_void_that_would_break_a_later_record_is_refused(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)", "4 (1,3)")
    # without seq 1, B's seq 2 would be out of turn (combat 1.3)
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--void", "--reason", "x", "--sign",
            keys / "rita.key", words=("voiding seq 1 leaves seq 2", "combat 1.3"))


def test_void_of_a_void_ruling_restores_the_record(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    assert rule(corr, path, 2, "--void", key=keys / "rita.key").code == 0
    assert show(corr, path)["board"][1] == "."
    assert rule(corr, path, 3, "--void", reason="ruled in error", key=keys / "rita.key").code == 0
    p = show(corr, path)
    assert p["board"][1] == "3" and p["to_move"] == "A"
    refused(corr, path, "referee", "rule", path, "--seq", "2", "--uphold", "--reason", "x", "--sign",
            keys / "rita.key", words=("no challenges",))


def test_void_twice_is_refused(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    assert rule(corr, path, 2, "--void", key=keys / "rita.key").code == 0
    refused(corr, path, "referee", "rule", path, "--seq", "2", "--void", "--reason", "x", "--sign",
            keys / "rita.key", words=("seq 2 is void already",))


# ---------------------------------------------------------------------------------
# uphold and reject (combat 4.1, as-written)


def test_combat_4_1_uphold_a_challenge_the_log_could_not_take(corr, keys: Path) -> None:
    path = refereed(corr, keys, "1 (1,1)", "2 (3,1)", options=("mode=as-written",))
    late = corr("challenge", path, "--by", "B", "--seq", "1", "-f", "none")
    assert late.code == 1 and "too late" in late.err
    r = rule(corr, path, 1, "--uphold", reason="B's challenge was mailed before seq 2", key=keys / "rita.key")
    assert r.code == 0, r.err
    assert "referee rules on seq 1: uphold: challenge upheld (combat 2.2): 1 (1,1) goes back" in r.err
    assert "B places two tiles on their next turn" in r.err
    p = json.loads(r.out)
    assert p["board"][0] == "." and p["to_move"] == "A"
    assert corr("move", path, "3 (2,1)", "-f", "none").code == 0
    assert show(corr, path)["tiles_this_turn"] == 2  # B, the challenger
    report = json.loads(corr("referee", "examine", path, "1", "--format", "json").out)
    assert report["outcome"] == "upheld"
    assert report["rulings"][0]["decision"] == "uphold" and report["rulings"][0]["reason"].startswith("B's")
    audit = json.loads(corr("audit", path, "--json").out)
    illegal = [f for f in audit["findings"] if f["kind"] == "illegal-unchallenged"]
    assert illegal and illegal[0]["seq"] == 1 and illegal[0]["ruling"] == 3


def test_combat_4_1_a_void_of_a_rejected_challenge_is_honoured_by_every_later_load(corr, keys: Path) -> None:
    """B challenges A's legal placement and is rejected, which closes the question for
    that tile (4.1); the referee voids the challenge (B misclicked). The ruling's record
    holds the position from before the challenge, and every later load rebuilds it from
    the position replay kept before the challenge: that kept position must not be the
    one the challenge left (the closed question), or the log reads as edited."""
    path = refereed(corr, keys, options=("mode=as-written",))
    rep = engine.load(path)
    legal = next(m for m in rep.game.legal_moves(rep.state) if rep.game.check(rep.state, m) is None)
    assert corr("move", path, str(legal), "-f", "none").code == 0
    rejected = corr("challenge", path, "--by", "B", "-f", "none")
    assert rejected.code == 0 and "rejected" in rejected.err, rejected.err
    again = corr("challenge", path, "--by", "B", "-f", "none")
    assert again.code == 1 and "challenged already" in again.err
    r = rule(corr, path, 2, "--void", reason="B misclicked", key=keys / "rita.key")
    assert r.code == 0, r.err
    audit = corr("audit", path, "--json")
    assert audit.code == 0, audit.out
    assert json.loads(audit.out)["intact"] is True
    retry = corr("challenge", path, "--by", "B", "-f", "none")  # the question is open again
    assert retry.code == 0, retry.err
    assert corr("audit", path).code == 0


def test_cards_4_1_a_void_of_a_rejected_challenge_is_honoured_by_every_later_load(corr, keys: Path) -> None:
    """The same in the card game as written (4.1): the referee voids a rejected
    challenge, and the log still audits intact and takes the next card."""
    path = keys / "cards.corr"
    made = corr("new", "cards", path, "-p", "Anna", "-p", "Ben", "-o", "mode=as-written",
                "--referee", "Rita <rita@example.org>", "--referee-key", keys / "rita.pub", "-f", "none")
    assert made.code == 0, made.err
    rep = engine.load(path)
    first = next(m for m in rep.game.legal_moves(rep.state) if rep.game.check(rep.state, m) is None)
    assert corr("move", path, str(first), "-f", "none").code == 0
    challenged = corr("challenge", path, "--by", "B", "-f", "none")
    assert challenged.code == 0 and "rejected" in challenged.err, challenged.err
    r = rule(corr, path, 2, "--void", reason="B misclicked", key=keys / "rita.key")
    assert r.code == 0, r.err
    assert corr("audit", path).code == 0
    assert corr("challenge", path, "--by", "B", "-f", "none").code == 0


def test_combat_4_1_uphold_of_a_legal_move_is_refused(corr, keys: Path) -> None:
    path = refereed(corr, keys, "1 (1,1)", "2 (3,1)", options=("mode=as-written",))
    refused(corr, path, "referee", "rule", path, "--seq", "2", "--uphold", "--reason", "x", "--sign",
            keys / "rita.key", words=("combat 4.1", "kept the Sudoku rule"))


def test_uphold_in_a_strict_game_is_refused(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)")
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--uphold", "--reason", "x", "--sign",
            keys / "rita.key", words=("no challenges",))


def test_combat_4_1_uphold_of_a_tile_already_taken_back_is_refused(corr, keys: Path) -> None:
    path = refereed(corr, keys, "1 (1,1)", options=("mode=as-written",))
    assert corr("challenge", path, "--by", "B", "-f", "none").code == 0
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--uphold", "--reason", "x", "--sign",
            keys / "rita.key", words=("no longer on the board",))


def test_reject_dismisses_the_dispute_and_changes_nothing(corr, keys: Path) -> None:
    path = refereed(corr, keys, "1 (1,1)", "2 (3,1)", options=("mode=as-written",))
    board = show(corr, path)["board"]
    r = rule(corr, path, 1, "--reject", reason="the challenge came after seq 2", key=keys / "rita.key")
    assert r.code == 0, r.err
    assert json.loads(r.out)["board"] == board
    report = json.loads(corr("referee", "examine", path, "1", "--format", "json").out)
    assert report["outcome"] == "stood" and report["rulings"][0]["decision"] == "reject"
    text = corr("referee", "examine", path, "1").out
    assert "ruling:     seq 3 by the referee" in text and "because: the challenge came after seq 2" in text


# ---------------------------------------------------------------------------------
# forfeit and clocks


def test_forfeit_ends_the_game_and_can_itself_be_voided(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    r = rule(corr, path, 2, "--forfeit", "B", reason="B abandoned the game", key=keys / "rita.key")
    assert r.code == 0, r.err
    p = json.loads(r.out)
    assert p["over"] is True and p["winners"] == ["A"] and p["forfeit"] == {"seat": "B", "cause": "by a ruling"}
    text = corr("show", path).out
    assert "B Ben lost by a ruling" in text and "last:   3. referee ruling on 2: forfeit B" in text
    refused(corr, path, "move", path, "4 (1,3)", words=("game is over", "B lost by a ruling"))
    assert rule(corr, path, 3, "--void", reason="B was in hospital", key=keys / "rita.key").code == 0
    p = show(corr, path)
    assert p["over"] is False and p["forfeit"] is None and p["to_move"] == "A"


def timed_out(corr, keys: Path, frozen) -> Path:  # type: ignore[no-untyped-def]
    """A refereed Combat log at per-move:2 days, made under `frozen` (a freezegun clock
    at 2026-03-01T12:00:00Z): A moves an hour in, and claims B's timeout three days later,
    B a day over."""
    path = refereed(corr, keys, time="per-move:2")
    frozen.move_to("2026-03-01T13:00:00Z")
    assert corr("move", path, "2 (1,1)", "-f", "none").code == 0
    frozen.move_to("2026-03-04T13:00:00Z")  # B is a day over
    assert corr("claim-timeout", path, "--by", "A").code == 0
    return path


def test_void_a_timeout_and_adjust_the_clock(corr, keys: Path) -> None:
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        path = timed_out(corr, keys, frozen)
        assert show(corr, path)["winners"] == ["A"]
        assert rule(corr, path, 2, "--void", reason="the mail server lost B's move",
                    key=keys / "rita.key").code == 0
        assert show(corr, path)["to_move"] == "B"
        clock = json.loads(corr("clock", path, "--json").out)
        assert clock["overdue"] == "B"
        r = rule(corr, path, 3, "--adjust-clock", "B=+3", reason="three days for the outage", key=keys / "rita.key")
        assert r.code == 0, r.err
        assert "B's clock gains 3 days" in r.err
        clock = json.loads(corr("clock", path, "--json").out)
        assert clock["overdue"] is None and clock["seats"]["B"]["deadline"] == "2026-03-06T13:00:00Z"
        refused(corr, path, "claim-timeout", path, "--by", "A", words=("no timeout is due",))
        frozen.move_to("2026-03-05T13:00:00Z")
        assert corr("move", path, "3 (1,2)", "-f", "none").code == 0
        audit = json.loads(corr("audit", path, "--json").out)
        assert audit["intact"] is True
        kinds = {f["kind"] for f in audit["findings"]}
        assert {"timeout", "void", "ruling"} <= kinds and "late" not in kinds


def test_adjust_clock_needs_a_time_control(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)")
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--adjust-clock", "A=+1", "--reason", "x",
            "--sign", keys / "rita.key", words=("no time control",))


def test_adjustments_per_kind_of_time_control() -> None:
    class R:
        def __init__(self, seq: int, type_: str, by: str, at: str, move: str | None = None) -> None:
            self.seq, self.type, self.by, self.at, self.move, self.note = seq, type_, by, at, move, None

    class H:
        created = "2026-03-01T00:00:00Z"
        seats = [type("S", (), {"seat": s}) for s in "AB"]

        def __init__(self, tc: dict) -> None:
            self.time_control = tc

    from datetime import datetime, timezone

    now = datetime(2026, 3, 2, tzinfo=timezone.utc)
    plus = R(2, "ruling", "referee", "2026-03-01T12:00:00Z", "adjust-clock B=+2")
    minus = R(3, "ruling", "referee", "2026-03-01T12:00:00Z", "adjust-clock B=-1")
    move = R(1, "move", "A", "2026-03-01T00:00:00Z")
    for tc, base in (({"kind": "per-move", "days": 3}, 3 * DAY), ({"kind": "period", "moves": 5, "days": 10}, 10 * DAY),
                     ({"kind": "bank", "days": 4, "increment": 1, "cap": 30}, 4 * DAY)):
        header = H(tc)
        plain = timecontrol.clocks(header, [move], "B", now)["B"]["left"]
        assert plain == base - DAY
        assert timecontrol.clocks(header, [move, plus], "B", now)["B"]["left"] == plain + 2 * DAY
        assert timecontrol.clocks(header, [move, plus, minus], "B", now)["B"]["left"] == plain + DAY
        assert timecontrol.clocks(header, [move, plus], "B", now)["A"]["left"] == timecontrol.clocks(
            header, [move], "B", now)["A"]["left"]


# ---------------------------------------------------------------------------------
# forged and foreign rulings


def test_an_edited_ruling_makes_the_log_corrupt(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    assert rule(corr, path, 2, "--reject", reason="no case", key=keys / "rita.key").code == 0
    lines = path.read_bytes().splitlines()
    forged = json.loads(lines[-1])
    forged["move"] = "forfeit A"
    path.write_bytes(b"\n".join([*lines[:-1], json.dumps(forged, separators=(",", ":")).encode()]) + b"\n")
    r = corr("audit", path)
    assert r.code == 2 and "signature is not referee's" in r.out + r.err


def test_a_ruling_signed_by_a_player_is_forged(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)")
    log = store.read(path)
    from corr.identity import load_private, sign
    from corr.log.lines import Record

    current = engine.replay(log)
    record = Record(seq=2, type="ruling", by="referee", at="2026-01-01T00:00:00Z", prev=log.tail_hash,
                    state=engine.state_hash(current.game, current.state, "B"), move="forfeit B", target=1,
                    note="forged")
    record = sign(load_private(keys / "anna.key"), log.header.id, record)
    with store.writing(path) as writer:
        writer.append([record])
    r = corr("show", path)
    assert r.code == 2 and "seq 2" in r.err


def test_a_ruling_travels_to_the_other_copy(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    copy = keys / "ben.corr"
    copy.write_bytes(path.read_bytes())
    assert rule(corr, path, 2, "--void", key=keys / "rita.key").code == 0
    raws = path.read_bytes().splitlines()[1:]
    rep, new = engine.accept(copy, raws)
    assert [r.type for r in new] == ["ruling"] and rep.voided == {2}
    assert copy.read_bytes() == path.read_bytes()


def test_parse_decision_round_trips() -> None:
    for text in ("uphold", "reject", "void", "forfeit C", "adjust-clock A=+2", "adjust-clock B=-10"):
        assert str(parse_decision(text)) == text
    with pytest.raises(UsageError):
        parse_decision("adjust-clock A=2")


def test_a_ruling_reaches_a_player_by_mail(corr, keys: Path) -> None:
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    header = json.loads(path.read_bytes().splitlines()[0])
    games = keys / "anna"
    games.mkdir()
    anna = games / f"{header['id']}.corr"
    anna.write_bytes(path.read_bytes())
    assert rule(corr, path, 2, "--void", reason="B typed the wrong place", key=keys / "rita.key").code == 0
    r = corr("mail", "compose", path, "--to", "A", "--out", keys / "ruling.eml")
    assert r.code == 0, r.err
    message = (keys / "ruling.eml").read_text()
    assert f"Subject: [corr {header['id']}] 3. ruling on 2: void" in message
    r = corr("mail", "ingest", keys / "ruling.eml", "--games", games)
    assert r.code == 0, r.err
    assert anna.read_bytes() == path.read_bytes()
    assert show(corr, anna)["to_move"] == "B"
    again = corr("mail", "ingest", keys / "ruling.eml", "--games", games)
    assert again.code == 0 and anna.read_bytes() == path.read_bytes()


def test_audit_reports_a_late_move_nobody_claimed(corr, keys: Path) -> None:
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        path = refereed(corr, keys, time="per-move:1")
        frozen.move_to("2026-03-01T18:00:00Z")
        assert corr("move", path, "2 (1,1)", "-f", "none").code == 0  # A in time
        frozen.move_to("2026-03-03T06:00:00Z")  # B: 36 hours, 12 over
        assert corr("move", path, "3 (1,2)", "-f", "none").code == 0
    audit = json.loads(corr("audit", path, "--json").out)
    late = [f for f in audit["findings"] if f["kind"] == "late"]
    assert [(f["seq"], f["detail"].split(" after")[0]) for f in late] == [(2, "B moved 12.0 h")]
    assert "2026-03-02T18:00:00Z" in late[0]["detail"]


def test_the_as_written_mechanism_serves_any_game() -> None:
    """aswritten.AsWritten owns the challenge window and its timing; a game adds only its
    penalty. A toy game with the card game's rule (cards 4.1: the card is removed, the
    turn scores nothing) uses it unchanged."""
    from dataclasses import dataclass, field

    from corr.errors import IllegalMove
    from corr.games.aswritten import AsWritten
    from corr.games.base import Action
    from corr.notation import Placement

    @dataclass
    class Table:
        cards: dict[int, int] = field(default_factory=dict)
        scores: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
        last: object = None

    class Cards(AsWritten):
        challenge_rule = "cards 4.1"
        move_word = "card"
        opts = {"mode": "as-written"}
        seats = ["A", "B"]

        def lay(self, t: Table, seq: int, by: str, move: Placement, points: int, legal: bool) -> None:
            t.cards[move.cell] = move.digit
            t.scores[by] += points
            broke = None if legal else IllegalMove("cards 2.1", "breaks the main rule")
            self.open(t, Action(seq, "move", by, move), (points,), broke)

        def take_back(self, t: Table, window, challenger: str) -> str:  # type: ignore[no-untyped-def]
            del t.cards[window.move.cell]
            t.scores[window.by] -= window.credited[0]
            return "the card is removed and the turn scores nothing"

    game, t = Cards(), Table()
    game.lay(t, 1, "A", Placement(5, 0), 7, legal=True)
    assert game.challenge(t, Action(2, "challenge", "B")).verdict == "rejected"
    game.lay(t, 3, "B", Placement(5, 1), 9, legal=False)
    with pytest.raises(IllegalMove, match="own card"):
        game.challenge(t, Action(4, "challenge", "B"))
    upheld = game.challenge(t, Action(4, "challenge", "A"))
    assert upheld.verdict == "upheld" and "cards 2.1" in upheld.events[0]
    assert t.cards == {0: 5} and t.scores == {"A": 7, "B": 0}
    game.lay(t, 5, "A", Placement(6, 2), 3, legal=False)
    game.lay(t, 6, "B", Placement(7, 3), 2, legal=True)
    with pytest.raises(IllegalMove, match="cards 4.1.*too late to challenge seq 5"):
        game.challenge(t, Action(7, "challenge", "B", target=5))
    game.opts = {"mode": "strict"}
    with pytest.raises(IllegalMove, match="strict games refuse illegal cards"):
        game.challenge(t, Action(7, "challenge", "A"))


def test_rulings_hold_in_sudoku_moyo_too(corr, keys: Path) -> None:
    path = keys / "moyo.corr"
    r = corr("new", "moyo", path, "-p", "Anna", "-p", "Ben", "-o", "puzzle=1", "--referee", "Rita",
             "--referee-key", keys / "rita.pub", "-f", "none")
    assert r.code == 0, r.err
    for _ in range(2):
        move = json.loads(corr("legal", path, "--json").out)["moves"][0]
        assert corr("move", path, move, "-f", "none").code == 0
    board = show(corr, path)["board"]
    r = rule(corr, path, 2, "--void", reason="B's stone went to the wrong Shima", key=keys / "rita.key")
    assert r.code == 0, r.err
    p = json.loads(r.out)
    assert p["to_move"] == "B" and sum(c != "." for c in p["board"]) == sum(c != "." for c in board) - 1
    refused(corr, path, "referee", "rule", path, "--seq", "1", "--uphold", "--reason", "x", "--sign",
            keys / "rita.key", words=("Sudoku Moyo", "no challenges"))
    assert rule(corr, path, 1, "--forfeit", "A", key=keys / "rita.key").code == 0
    p = show(corr, path)
    assert p["over"] and p["winners"] == ["B"]
    assert json.loads(corr("audit", path, "--json").out)["intact"] is True


def voided_twice(corr, keys: Path) -> Path:
    """A refereed Combat log with two voids and a void of a void between moves: seq 3
    (B's 3) set aside by seq 4, seq 6 (A's 4) by seq 7, and seq 7 itself by seq 8, which
    restores seq 6; B's 6 after it."""
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    rita = keys / "rita.key"
    assert rule(corr, path, 2, "--void", key=rita).code == 0  # seq 3: B's 3 set aside
    for move in ("3 (1,3)", "4 (2,1)"):
        assert corr("move", path, move, "-f", "none").code == 0
    assert rule(corr, path, 5, "--void", key=rita).code == 0  # seq 6: A's 4 set aside
    assert rule(corr, path, 6, "--void", reason="in error", key=rita).code == 0  # seq 7 restores seq 5
    assert corr("move", path, "6 (2,3)", "-f", "none").code == 0  # B, after the restored 4
    return path


def test_a_void_rebuilds_from_the_kept_position_as_from_the_start(corr, keys: Path, monkeypatch) -> None:
    """DESIGN 5: a void ruling takes effect as if the record had never been made. Rebuilt
    from the position kept before the first record whose standing changed, the game is
    the same as rebuilt from the first record: voids, a void of a void (which restores
    a record further back), and moves between them."""
    path = voided_twice(corr, keys)
    log = store.read(path)
    kept = engine.replay(log)
    assert kept.snapshots, "the replay kept positions for the voids"

    from_start = rulings.rebuild

    def without_snapshots(rep: engine.Position, index: int, judge) -> None:  # type: ignore[no-untyped-def]
        rep.snapshots.clear()
        from_start(rep, index, judge)

    monkeypatch.setattr(rulings, "rebuild", without_snapshots)
    again = engine.replay(log)
    assert again.game.state_key(again.state) == kept.game.state_key(kept.state)
    assert [(s.record.seq, s.voided, s.outcome.events) for s in again.steps] == [
        (s.record.seq, s.voided, s.outcome.events) for s in kept.steps]
    assert again.voided == kept.voided == frozenset({2, 6})


def test_a_decision_in_another_spelling_is_refused_every_time_it_is_read() -> None:
    """DESIGN 5: one spelling per record; the decisions read are kept, the refusals never."""
    assert rulings.written("adjust-clock A=+2") == parse_decision("adjust-clock A=+2")
    for _ in range(2):
        with pytest.raises(UsageError, match=r"writes its decision 'adjust-clock A=\+2', not 'adjust-clock A=\+02'"):
            rulings.written("adjust-clock A=+02")


def test_cards_6_2_a_forfeit_ruling_ends_a_card_game_with_the_dealers_reveal(corr, keys: Path) -> None:
    """A forfeit ends the game, so the dealer reveals the seed at once, as after a timeout;
    the ruling and the reveal are written together, and the deal checks against the seed."""
    path = keys / "cards.corr"
    r = corr("new", "cards", path, "-p", "Anna", "-p", "Ben", "-p", "Cleo", "--referee", "Rita",
             "--referee-key", keys / "rita.pub", "-f", "none")
    assert r.code == 0, r.err
    first = corr("legal", path).out.splitlines()[1]
    assert corr("move", path, first, "-f", "none").code == 0
    r = rule(corr, path, 1, "--forfeit", "B", reason="Ben stopped answering", key=keys / "rita.key")
    assert r.code == 0, r.err
    p = json.loads(r.out)
    assert p["over"] is True and p["forfeit"] == {"seat": "B", "cause": "by a ruling"}
    records = store.read(path).records
    assert [(x.type, x.by) for x in records[1:]] == [("ruling", "referee"), ("reveal", "dealer")]
    assert records[2].seed is not None
    audit = corr("audit", path)
    assert audit.code == 0 and "re-dealt from the seed revealed at seq 3" in audit.out, audit.out
    # once the deal is public, the forfeit cannot be taken back: the game would go on with every card known
    refused(corr, path, "referee", "rule", path, "--seq", "2", "--void", "--reason", "Ben was ill",
            "--sign", keys / "rita.key", words=("seq 3", "cards 6.2"))


def test_domino_7_2_a_forfeit_ruling_ends_a_duel_and_the_reveal_shows_every_board(corr, keys: Path) -> None:
    """A forfeit ends a secret duel outside its own rules: the dealer's reveal comes with
    the ruling, and from then on everyone sees both boards and both scores (1.2)."""
    path = keys / "duel.corr"
    r = corr("new", "domino", path, "-p", "Anna", "-p", "Ben", "--referee", "Rita",
             "--referee-key", keys / "rita.pub", "-f", "none")
    assert r.code == 0, r.err
    first = corr("legal", path, "--for", "A").out.splitlines()[1]
    assert corr("move", path, first, "--by", "A", "-f", "none").code == 0
    r = rule(corr, path, 1, "--forfeit", "B", reason="Ben stopped answering", key=keys / "rita.key")
    assert r.code == 0, r.err
    assert [(x.type, x.by) for x in store.read(path).records[1:]] == [("ruling", "referee"), ("reveal", "dealer")]
    public = show(corr, path)
    assert public["over"] is True and public["winners"] == ["A"]
    assert set(public["scores"]) == {"A", "B"} and set(public["boards"]) == {"A", "B"}
    text = corr("show", path)
    assert text.code == 0 and "B Ben lost by a ruling" in text.out, text.err
    assert corr("audit", path).code == 0
    refused(corr, path, "referee", "rule", path, "--seq", "2", "--void", "--reason", "Ben was ill",
            "--sign", keys / "rita.key", words=("seq 3", "domino 7.2"))
