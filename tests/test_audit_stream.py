"""`corr audit` streams: it reads the log a line at a time, keeps none of its lines,
and judges each step as soon as no later ruling can change it, forgetting it then. Its
report is the one a walk over the whole replay, every step kept, gives: on the
examples and on logs with void rulings (a void of a void too), upheld and rejected
challenges, timeouts, clock adjustments, forfeits and late moves."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from freezegun import freeze_time
from test_rulings import keys, refereed, rule, timed_out, voided_twice  # noqa: F401 - the module's keys fixture

from corr import audit as audit_module
from corr.audit import _Walk, audit, audited
from corr.engine import dealer
from corr.engine.replay import replay as replay_log
from corr.engine.position import SETTLED, Position
from corr.errors import CorruptLog
from corr.log import store
from corr.log.models import STRICT

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.corr"))


def walked(path: Path) -> dict[str, Any]:
    """The report as an audit made it before it streamed: the whole log read, the whole
    replay kept, and then its steps walked one after another."""
    log = dealer.attach(store.read(path, reader=STRICT))
    rep = replay_log(log, cls=Position)
    walk = _Walk(log.header)
    for step in rep.steps:
        walk.step(step)
    report, _ = audited(path)
    kept: dict[str, Any] = dict(report, findings=[])
    walk.end(rep)
    kept["findings"] = walk.findings
    highlights = {key: walk.highlights.pop(key, []) for key in rep.game.highlight_lists}
    highlights.update(walk.highlights)
    audit_module._link_rulings(kept["findings"])
    kept.update(highlights, highlighted=list(highlights), seq=rep.seq)
    return kept


def assert_streamed_as_walked(path: Path) -> dict[str, Any]:
    report = audit(path)
    assert report["intact"], report["findings"]
    assert report == walked(path)
    with_lines, log = audited(path, lines=True)
    assert with_lines == report and log is not None and len(log.raw) == len(log.records)
    return report


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_a_streaming_audit_of_each_example_reports_what_walking_the_whole_replay_does(path: Path, tmp_path) -> None:
    copy = tmp_path / path.name  # the dealer's secret, where one lies beside the example, too
    shutil.copy(path, copy)
    for secret in path.parent.glob(f"{path.name}.*"):
        shutil.copy(secret, tmp_path / secret.name)
    assert_streamed_as_walked(copy)


def test_a_streaming_audit_reports_voids_and_a_void_of_a_void_as_walked(corr, keys: Path) -> None:  # noqa: F811
    path = voided_twice(corr, keys)
    report = assert_streamed_as_walked(path)
    kinds = [(f["seq"], f["kind"]) for f in report["findings"]]
    assert kinds == [(2, "void"), (3, "ruling"), (6, "ruling"), (6, "void"), (7, "ruling")]  # seq 5 restored


def test_a_streaming_audit_reports_upheld_rejected_and_late_challenges_as_walked(corr, keys: Path) -> None:  # noqa: F811
    path = refereed(corr, keys, "1 (1,1)", "2 (3,1)", options=("mode=as-written",))
    assert rule(corr, path, 1, "--uphold", reason="mailed before seq 2", key=keys / "rita.key").code == 0
    assert corr("move", path, "3 (2,1)", "-f", "none").code == 0
    assert corr("challenge", path, "--by", "B", "-f", "none").code == 0  # of a legal move
    assert rule(corr, path, 4, "--reject", reason="nothing to dispute", key=keys / "rita.key").code == 0
    report = assert_streamed_as_walked(path)
    kinds = {f["kind"] for f in report["findings"]}
    assert {"illegal-unchallenged", "ruling"} <= kinds and any(k.startswith("challenge-") for k in kinds)


def test_a_streaming_audit_reports_a_voided_timeout_a_clock_adjustment_and_a_late_move_as_walked(
    corr, keys: Path  # noqa: F811
) -> None:
    with freeze_time("2026-03-01T12:00:00Z") as frozen:
        path = timed_out(corr, keys, frozen)
        assert rule(corr, path, 2, "--void", reason="the mail server lost B's move", key=keys / "rita.key").code == 0
        assert rule(corr, path, 3, "--adjust-clock", "B=+3", reason="the outage", key=keys / "rita.key").code == 0
        frozen.move_to("2026-03-05T13:00:00Z")
        assert corr("move", path, "3 (1,2)", "-f", "none").code == 0
        frozen.move_to("2026-03-09T13:00:00Z")  # A is two days over, and nobody claims it
        assert corr("move", path, "4 (1,3)", "-f", "none").code == 0
        frozen.move_to("2026-03-12T13:00:00Z")
        assert corr("claim-timeout", path, "--by", "A").code == 0
    report = assert_streamed_as_walked(path)
    kinds = {f["kind"] for f in report["findings"]}
    assert {"timeout", "void", "ruling", "late"} <= kinds
    assert report["result"]["forfeit"] == {"seat": "B", "cause": "on time"}
    assert [f["detail"] for f in report["findings"] if f["kind"] == "timeout"][-1].endswith("B lost on time")


def test_a_streaming_audit_reports_a_forfeit_ruling_voided_as_walked(corr, keys: Path) -> None:  # noqa: F811
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    assert rule(corr, path, 2, "--forfeit", "B", reason="B abandoned the game", key=keys / "rita.key").code == 0
    assert rule(corr, path, 3, "--void", reason="B was in hospital", key=keys / "rita.key").code == 0
    assert corr("move", path, "4 (1,3)", "-f", "none").code == 0
    assert_streamed_as_walked(path)


def test_a_settled_replay_forgets_every_step_but_those_rulings_name_and_the_newest(corr, keys: Path) -> None:  # noqa: F811
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)", "4 (1,3)")
    assert rule(corr, path, 3, "--void", key=keys / "rita.key").code == 0  # seq 4 voids seq 3
    for move in ("5 (1,3)", "6 (2,1)", "7 (2,2)"):
        assert corr("move", path, move, "-f", "none").code == 0
    log = store.read(path)
    seen: list[int] = []
    rep = replay_log(log, settled=lambda step: seen.append(step.record.seq))
    assert seen == list(range(1, 8))  # each once, in seq order
    kept = [s.record.seq for s in rep.steps if s is not SETTLED]
    assert kept == [3, 7] and rep.steps[2].voided  # the voided record, and the newest
    assert rep.seq == 7 and rep.snapshots == {}  # no later ruling starts from one
    whole = replay_log(log)
    assert whole.game.state_key(whole.state) == rep.game.state_key(rep.state)
    assert whole.voided == rep.voided == {3}


def test_without_void_rulings_each_step_settles_as_it_is_made(corr, keys: Path) -> None:  # noqa: F811
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)", "4 (1,3)")
    assert rule(corr, path, 2, "--forfeit", "B", key=keys / "rita.key").code == 0  # seq 4 names seq 2
    log = store.read(path)
    handed: list[tuple[int, int]] = []  # (seq handed over, seq replayed so far)
    positions: list[Position] = []
    rep = replay_log(log, each=positions.append, settled=lambda step: handed.append((step.record.seq, positions[-1].seq)))
    assert handed == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert [s.record.seq if s is not SETTLED else None for s in rep.steps] == [None, 2, None, 4]
    assert rep.forfeit == "B"


def test_a_step_waits_for_the_void_rulings_that_judge_it_again(corr, keys: Path) -> None:  # noqa: F811
    path = refereed(corr, keys, "2 (1,1)", "3 (1,2)")
    rita = keys / "rita.key"
    assert rule(corr, path, 2, "--void", key=rita).code == 0  # seq 3: seq 2 judged again
    for move in ("3 (1,3)", "4 (2,1)"):
        assert corr("move", path, move, "-f", "none").code == 0
    assert rule(corr, path, 5, "--void", key=rita).code == 0  # seq 6: seq 5 judged again
    assert rule(corr, path, 6, "--void", reason="in error", key=rita).code == 0  # seq 7: from seq 5 on
    assert corr("move", path, "6 (2,3)", "-f", "none").code == 0
    log = store.read(path)
    handed: list[tuple[int, int]] = []  # (seq handed over, seq replayed so far)
    positions: list[Position] = []

    def settled(step):  # type: ignore[no-untyped-def]
        handed.append((step.record.seq, positions[-1].seq))

    replay_log(log, each=positions.append, settled=settled)
    assert handed == [(1, 1), (2, 3), (3, 3), (4, 4), (5, 7), (6, 7), (7, 7), (8, 8)]


def test_a_log_read_a_line_at_a_time_is_the_log_read_whole_without_its_lines(tmp_path) -> None:
    for path in EXAMPLES:
        whole, streamed = store.read(path), store.read(path, raw=False)
        assert streamed.records == whole.records and streamed.header == whole.header
        assert (streamed.size, streamed.torn, streamed.raw) == (whole.size, None, [])
    torn = tmp_path / "torn.corr"
    torn.write_bytes(EXAMPLES[0].read_bytes() + b'{"seq":')
    whole, streamed = store.read(torn), store.read(torn, raw=False)
    assert streamed.torn == whole.torn == b'{"seq":' and streamed.size == whole.size
    assert streamed.records == whole.records


@pytest.mark.parametrize("data", [b"", b'{"corr":1', b"{}\n", b"not json\n"], ids=["empty", "torn", "empty-header", "junk"])
def test_a_log_read_a_line_at_a_time_is_refused_as_the_log_read_whole(tmp_path, data: bytes) -> None:
    path = tmp_path / "bad.corr"
    path.write_bytes(data)
    with pytest.raises(CorruptLog) as whole:
        store.read(path)
    with pytest.raises(CorruptLog) as streamed:
        store.read(path, raw=False)
    assert (str(streamed.value), streamed.value.kind) == (str(whole.value), whole.value.kind)


def test_a_corrupt_record_is_refused_the_same_way_streamed(tmp_path) -> None:
    data = EXAMPLES[0].read_bytes().split(b"\n")
    data[3] = data[3].replace(b'"seq":3', b'"seq":4')
    path = tmp_path / "edited.corr"
    path.write_bytes(b"\n".join(data))
    whole, streamed = audited(path, lines=True)[0], audit(path)
    assert streamed == whole and not streamed["intact"] and streamed["findings"][0]["kind"] in ("seq", "chain")


def test_cards_3_1_each_scored_card_is_reported_with_its_own_score(tmp_path) -> None:
    """Cards that score alike share one outcome: the audit tells each its own points."""
    from corr import randomplay

    rep = randomplay.play("cards", ["Anna", "Ben", "Cleo"], {}, seed=4)
    path = tmp_path / "cards.corr"
    path.write_bytes(store.text(rep.log))
    scores = audit(path)["scores"]
    assert len({entry["points"] for entry in scores}) > 3
    assert all(entry["text"] == f"scores {entry['points']}" for entry in scores)
    moved = {r.seq: r.move for r in rep.log.records}
    assert all(entry["move"] == moved[entry["seq"]] for entry in scores)
