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
