"""`corr audit` and the challenge window of as-written play (combat 4.1, cards 4.1).

An illegal move is recorded silently and any other player may challenge it until the
next move is recorded. While that window is open the public audit keeps silent about it
too (text, JSON and HTML); the referee's `examine` says it ("open"). Once a later move
closes the window, the audit reports the move that stood, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

from corr import audit, engine
from corr.engine import dealer
from corr.log import store
from corr.notation import Placement

AS_WRITTEN = ("mode=as-written",)


def audits(corr, path: Path) -> tuple[dict, str, str]:  # type: ignore[no-untyped-def]
    """The audit of `path` as JSON, text and HTML (each run must find the log intact)."""
    outputs = []
    for fmt in ("json", "text", "html"):
        r = corr("audit", path, "--format", fmt)
        assert r.code == 0, r.err
        outputs.append(r.out)
    return json.loads(outputs[0]), outputs[1], outputs[2]


def illegal_findings(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["kind"] == "illegal-unchallenged"]


def assert_silent(report: dict, text: str, html: str) -> None:
    assert illegal_findings(report) == []
    for out in (json.dumps(report), text, html):
        assert "illegal-unchallenged" not in out and "breaks the Sudoku rule" not in out


def test_combat_4_1_audit_keeps_an_open_illegal_placement_silent(corr, game_file) -> None:
    path = game_file("1 (1,1)", options=AS_WRITTEN)  # a second 1 in field 1: illegal, window open
    assert_silent(*audits(corr, path))
    # the referee's look still says it
    examined = json.loads(corr("referee", "examine", path, "1", "--format", "json").out)
    assert examined["outcome"] == "open" and not examined["legal"]
    assert "breaks the Sudoku rule" in examined["broken"][0]["message"]


def test_combat_4_1_audit_reports_the_illegal_placement_once_the_next_move_closes_the_window(
    corr, game_file
) -> None:
    path = game_file("1 (1,1)", "2 (3,1)", options=AS_WRITTEN)
    report, text, html = audits(corr, path)
    (finding,) = illegal_findings(report)
    assert finding["seq"] == 1 and "breaks the Sudoku rule" in finding["detail"]
    assert "illegal-unchallenged at seq 1: A 1 (1,1): combat 2.2: 1 at (1,1) breaks the Sudoku rule" in text
    assert "illegal-unchallenged" in html and "breaks the Sudoku rule" in html
    assert json.loads(corr("referee", "examine", path, "1", "--format", "json").out)["outcome"] == "stood"


def test_combat_4_1_an_earlier_illegal_placement_that_stood_is_reported_while_the_newest_is_open(
    corr, game_file
) -> None:
    path = game_file("1 (1,1)", "2 (3,1)", "2 (3,2)", options=AS_WRITTEN)  # seq 3: a second 2 in field 3
    report, text, _ = audits(corr, path)
    assert [f["seq"] for f in illegal_findings(report)] == [1]
    assert "at seq 3" not in text


def test_combat_4_1_a_challenge_in_time_is_reported_as_the_challenge(corr, game_file) -> None:
    path = game_file("1 (1,1)", options=AS_WRITTEN)
    assert corr("challenge", path, "--by", "B", "-f", "none").code == 0
    report, text, _ = audits(corr, path)
    assert illegal_findings(report) == []
    assert [f["kind"] for f in report["findings"]] == ["challenge-upheld"]
    assert "challenge upheld (combat 2.2)" in text


def test_combat_4_1_a_forfeit_closes_the_window_and_the_audit_reports_the_placement(corr, tmp_path: Path) -> None:
    """No challenge can follow a forfeit (the game is over), so the illegal placement
    stood for good: the audit reports it."""
    assert corr("key", "new", "--out", tmp_path / "rita").code == 0
    path = tmp_path / "game.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "-o", "mode=as-written", "--referee",
                "Rita <rita@example.org>", "--referee-key", tmp_path / "rita.pub", "-f", "none").code == 0
    assert corr("move", path, "1 (1,1)", "-f", "none").code == 0
    assert_silent(*audits(corr, path))
    r = corr("referee", "rule", path, "--seq", "1", "--forfeit", "A", "--reason", "r", "--sign", tmp_path / "rita.key",
             "-f", "none")
    assert r.code == 0, r.err
    assert corr("challenge", path, "--by", "B", "-f", "none").code == 1  # too late now
    report, text, _ = audits(corr, path)
    assert [f["seq"] for f in illegal_findings(report)] == [1]
    assert "illegal-unchallenged at seq 1" in text


def test_combat_strict_games_are_not_affected(corr, game_file) -> None:
    path = game_file("7 (8,7)")
    report, _, _ = audits(corr, path)
    assert report["findings"] == []


# --- cards 4.1: the same window, the same silence ---------------------------------------
SEED = "c0ffee00" * 4


def cards_game(tmp_path: Path) -> tuple[engine.Position, Path]:
    header = engine.make_header("cards", ["Anna", "Ben", "Cleo"], {"puzzle": "1", "mode": "as-written"},
                                commitment=dealer.commitment(SEED))
    rep = engine.start(header, SEED)
    return rep, tmp_path / "cards.corr"


def lay(rep: engine.Position, legal: bool) -> None:
    seat = rep.to_move()
    card = rep.state.hands[rep.game.seats.index(seat)]
    board = rep.game.board(rep.state)
    cell = next(c for c in range(81) if not board[c] and rep.state.grid.fits(c, card) == legal)
    rep.add("move", by=seat, move=Placement(card, cell))


def save(rep: engine.Position, path: Path) -> Path:
    path.write_bytes(store.text(rep.log))  # a player's copy: no dealer's secret beside it
    return path


def test_cards_4_1_audit_keeps_an_open_illegal_card_silent(corr, tmp_path: Path) -> None:
    rep, path = cards_game(tmp_path)
    lay(rep, legal=False)  # A's card breaks the Sudoku rule: recorded silently
    assert_silent(*audits(corr, save(rep, path)))
    assert audit.audit(path)["intact"]
    examined = json.loads(corr("referee", "examine", path, "1", "--format", "json").out)
    assert examined["outcome"] == "open" and examined["broken"][0]["rule"] == "cards 2.1"


def test_cards_4_1_audit_reports_the_illegal_card_once_the_next_card_is_laid(corr, tmp_path: Path) -> None:
    rep, path = cards_game(tmp_path)
    lay(rep, legal=False)
    lay(rep, legal=True)  # B's card closes the window: A's card stands for good
    report, text, html = audits(corr, save(rep, path))
    (finding,) = illegal_findings(report)
    assert finding["seq"] == 1 and "cards 2.1" in finding["detail"] and "breaks the Sudoku rule" in finding["detail"]
    assert "illegal-unchallenged at seq 1" in text and "illegal-unchallenged" in html
