"""The example games in examples/ are real: each audits intact and shows what it claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from corr.audit import audit

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def report(name: str) -> dict:
    return audit(EXAMPLES / name)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.corr")), ids=lambda p: p.name)
def test_every_example_audits_intact_and_finished(path: Path) -> None:
    result = audit(path)
    assert result["intact"], result["findings"]
    assert result["result"]["over"]


def test_two_player_example_has_a_winner_by_claimed_conquests() -> None:
    r = report("combat-2p-anna-ben.corr")
    assert r["result"]["winners"] == ["B"]
    assert all("!" in c["move"] for c in r["conquests"])


def test_four_player_example_completes_the_round_after_the_decision() -> None:
    r = report("combat-4p.corr")
    assert set(r["result"]["scores"]) == {"A", "B", "C", "D"}
    assert r["records"] % 4 == 0  # 5.1: every seat has had the same number of turns


def test_as_written_example_has_a_rejected_and_an_upheld_challenge() -> None:
    kinds = [f["kind"] for f in report("combat-as-written-challenge.corr")["findings"]]
    assert "challenge-rejected" in kinds and "challenge-upheld" in kinds


def test_auto_example_credits_conquests_without_claim_marks() -> None:
    r = report("combat-auto-3p.corr")
    assert any("!" not in c["move"] for c in r["conquests"])


def test_disputed_example_holds_the_referees_report_and_ruling(tmp_path: Path) -> None:
    """The examine reports in examples/ are what corr said before the ruling; the log
    after it honours the ruling."""
    from corr import referee
    from corr.log import store

    path = EXAMPLES / "combat-disputed.corr"
    lines = path.read_bytes().splitlines(keepends=True)
    ruling = next(i for i, line in enumerate(lines) if b'"type":"ruling"' in line)
    before = tmp_path / "before-ruling.corr"
    before.write_bytes(b"".join(lines[:ruling]))
    report = referee.examine(store.read(before), 9)
    assert report["outcome"] == "stood" and report["broken"][0]["rule"] == "combat 2.2"
    for fmt, suffix in (("text", "txt"), ("html", "html")):
        saved = (EXAMPLES / f"combat-disputed-examine.{suffix}").read_text()
        assert referee.render(report, fmt) == saved
    now = referee.examine(store.read(path), 9)
    assert now["outcome"] == "upheld" and [r["decision"] for r in now["rulings"]] == ["uphold"]
    r = audit(path)
    rulings = [f for f in r["findings"] if f["kind"] == "ruling"]
    assert [(f["seq"], f["target"], f["decision"]) for f in rulings] == [(ruling, 9, "uphold")]
    assert r["intact"] and r["result"]["over"]


def test_cards_example_reveals_the_deal_and_audit_checks_every_card() -> None:
    """cards 6.2: the seed is in the log, it matches the header's commitment, and the
    replay re-dealt from it (a card not held would make the log corrupt)."""
    r = report("cards-3p.corr")
    assert r["deal"]["checked"] and r["deal"]["reveal"] == r["records"]
    assert set(r["result"]["scores"]) == {"A", "B", "C"}
    assert sum(e["points"] for e in r["scores"]) == sum(r["result"]["scores"].values())


def test_cards_as_written_example_has_an_upheld_challenge_and_a_break_that_stood() -> None:
    findings = report("cards-as-written.corr")["findings"]
    kinds = {f["kind"]: f for f in findings}
    assert "challenge-upheld" in kinds and "cards 2.1" in kinds["challenge-upheld"]["detail"]
    assert kinds["illegal-unchallenged"]["seq"] == 15


def _domino(name: str):  # type: ignore[no-untyped-def]
    from corr import engine

    return engine.load(EXAMPLES / name)


def test_domino_solo_example_is_complete_with_jokers_a_misplacement_and_the_time_bonus() -> None:
    """domino 3.1, 4, 5, 6.2, 7.2: one life lost, grey and gold jokers, the puzzle complete
    within the limit (the bonus in the last record's points), the seed revealed."""
    rep = _domino("domino-solo.corr")
    board = rep.game.board_of(rep.state, "A")
    assert all(board.cells) and board.ended.startswith("the puzzle is complete")
    assert board.lives == 2 and board.jokers == {"grey": 3, "gold": 0}
    last = rep.steps[-2]  # the move before the dealer's reveal
    left = rep.game.seconds_left(last.record.at)
    assert left is not None and 0 < left < 600
    assert last.outcome.gained()[0] >= 500 + 10 * left
    assert rep.log.records[-1].type == "reveal" and report("domino-solo.corr")["deal"]["checked"]


def test_domino_duel_example_compares_two_boards_dealt_alike() -> None:
    """domino 1.1-1.3: Anna completes her board, Ben's ends after three misplacements;
    the same start and order for both, every board shown after the reveal."""
    from corr.seatview import position

    rep = _domino("domino-duel.corr")
    anna, ben = (rep.game.board_of(rep.state, s) for s in "AB")
    assert anna.ended.startswith("the puzzle is complete") and ben.ended.startswith("three misplacements")
    assert rep.result().winners == ("A",) and anna.points > ben.points
    seen = position(rep, "B")
    assert set(seen["boards"]) == {"A", "B"} and len(rep.visible("B")) == len(rep.steps)
    assert report("domino-duel.corr")["deal"]["checked"]


def test_war_first_line_example_is_won_by_a_number_left_on_the_first_line() -> None:
    """war 3.1: White's 5 takes Black's 5 beside it, steps onto Black's first line, and
    Black's next move leaves it there: White wins."""
    from corr import engine

    rep = engine.load(EXAMPLES / "war-first-line.corr")
    assert rep.result().winners == ("A",)
    assert "stood on Black's first line a whole turn (3.1)" in rep.state.ending
    assert rep.log.records[-1].by == "B" and rep.log.records[-2].move.startswith("5 ")


def test_war_pieces_example_shows_each_special_move() -> None:
    """war 2.2-2.6: a Star's jump in its field, a Corrector's replacement, a number through
    both Leaps, an Immobilizer freezing Black's 9, a Star's suicide capture."""
    from corr import engine
    from corr.geometry import FIELD_OF
    from corr.notation import Correction, PieceMove, parse
    from corr.seatview import position

    rep = engine.load(EXAMPLES / "war-pieces.corr")
    moves = [parse(r.move) for r in rep.log.records if r.type == "move"]
    jump = moves[0]
    assert isinstance(jump, PieceMove) and jump.piece == "S" and FIELD_OF[jump.src] == FIELD_OF[jump.dst]
    assert jump.src % 9 != jump.dst % 9 and jump.src // 9 != jump.dst // 9  # no Rook's line: a jump
    assert isinstance(moves[2], Correction)
    leaped = moves[4]
    assert isinstance(leaped, PieceMove) and max(abs(leaped.src // 9 - leaped.dst // 9),
                                                   abs(leaped.src % 9 - leaped.dst % 9)) == 3
    assert position(engine.load(EXAMPLES / "war-pieces.corr", upto=7))["frozen"] == ["(2,8)"]
    suicide = moves[-1]
    assert suicide.piece == "S" and suicide.capture
    assert rep.state.piece[suicide.dst] == 0 and rep.state.piece[suicide.src] == 0
    assert rep.result().winners == ("A",) and rep.log.records[-1].type == "resign"
