"""`corr referee examine` and `corr compare` (DESIGN 5): read-only views for referees
and for two players' diverging copies of one game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
AS_WRITTEN = EXAMPLES / "combat-as-written-challenge.corr"


def examine(corr, path: Path, seq: int) -> dict:
    r = corr("referee", "examine", path, str(seq), "--format", "json")
    assert r.code == 0, r.err
    return json.loads(r.out)


# ---------------------------------------------------------------------------------
# referee examine


def test_illegal_placement_challenged_in_time_is_upheld(corr) -> None:
    r = examine(corr, AS_WRITTEN, 10)
    assert (r["seq"], r["move"], r["by"], r["type"]) == (10, "7 (1,1)", "A", "move")
    assert r["legal"] is False
    assert len(r["broken"]) == 1
    assert r["broken"][0]["rule"] == "combat 2.2"
    assert r["broken"][0]["cells"] == ["(1,1)", "(3,3)", "(4,7)"]
    assert r["challenged"]["seq"] == 11 and r["challenged"]["by"] == "B"
    assert r["challenged"]["in_time"] is True
    assert r["outcome"] == "upheld"
    assert r["before"]["seq"] == 9 and r["before"]["to_move"] == "A"


def test_legal_move_challenged_is_rejected(corr) -> None:
    r = examine(corr, AS_WRITTEN, 4)
    assert r["legal"] is True and r["broken"] == []
    assert r["challenged"] == {
        "seq": 5, "by": "A", "in_time": True, "verdict": "rejected",
        "events": ["challenge rejected: 7 (4,7) keeps the Sudoku rule"],
    }
    assert r["outcome"] == "rejected"


def test_ordinary_legal_move(corr) -> None:
    r = examine(corr, AS_WRITTEN, 3)
    assert r["legal"] is True and r["broken"] == [] and r["challenged"] is None
    assert r["outcome"] == "legal"


def test_a_challenge_record_itself_is_legal_and_carries_its_verdict(corr) -> None:
    r = examine(corr, AS_WRITTEN, 11)
    assert r["type"] == "challenge" and r["legal"] is True and r["challenged"] is None
    assert r["verdict"] == "upheld" and r["outcome"] == "legal"


@pytest.fixture
def stood(game_file) -> Path:
    """As-written: A places a second 1 in field 1 (illegal); B moves on unchallenged."""
    return game_file("1 (1,1)", "2 (3,1)", options=("mode=as-written",))


def test_illegal_placement_not_challenged_stood(corr, stood: Path) -> None:
    r = examine(corr, stood, 1)
    assert r["legal"] is False
    assert r["broken"][0]["rule"] == "combat 2.2"
    assert r["broken"][0]["cells"][0] == "(1,1)" and "(1,5)" in r["broken"][0]["cells"]
    assert r["challenged"] is None
    assert r["outcome"] == "stood"
    assert examine(corr, stood, 2)["outcome"] == "legal"


def test_illegal_last_placement_is_still_open(corr, game_file) -> None:
    path = game_file("1 (1,1)", options=("mode=as-written",))
    r = examine(corr, path, 1)
    assert r["legal"] is False and r["challenged"] is None and r["outcome"] == "open"


def test_a_challenge_without_target_refers_to_the_newest_move_only(corr, game_file) -> None:
    path = game_file("1 (1,1)", "2 (3,1)", options=("mode=as-written",))
    r = corr("challenge", path, "--by", "A", "--format", "none")  # seq 3: of B's legal 2 (3,1)
    assert r.code == 0, r.err
    assert examine(corr, path, 1)["outcome"] == "stood"
    assert examine(corr, path, 2)["outcome"] == "rejected"
    assert examine(corr, path, 2)["challenged"]["seq"] == 3
    late = corr("challenge", path, "--by", "B", "--seq", "1", "--format", "none")
    assert late.code == 1  # too late: the engine refuses, so a log never holds a late challenge


def test_text_format(corr) -> None:
    r = corr("referee", "examine", AS_WRITTEN, "10")
    assert r.code == 0, r.err
    assert "10. A 7 (1,1)" in r.out
    assert "legal:      no" in r.out
    assert "combat 2.2 at (1,1) (3,3) (4,7)" in r.out
    assert "challenged: seq 11 by B, in time" in r.out
    assert "outcome:    upheld" in r.out
    assert "The position before the record (seq 9)" in r.out
    assert "seq 9" in r.out.split("The position before", 1)[1]


def test_html_is_a_whole_document_with_inline_styles_and_highlights(corr) -> None:
    r = corr("referee", "examine", AS_WRITTEN, "10", "--format", "html")
    assert r.code == 0, r.err
    html = r.out
    assert html.lstrip().startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<style" not in html and "<script" not in html and "class=" not in html
    assert "<link" not in html
    assert 'title="(3,3)" aria-label="field 3, place 3: ' in html
    cell = html.split('title="(3,3)" aria-label="', 1)[1].split(' style="', 1)[1].split('"', 1)[0]
    assert "background:#ffe9a8" in cell  # a clashing tile
    placed = html.split('title="(1,1)" aria-label="field 1, place 1: 7" style="', 1)[1].split("</td>", 1)[0]
    assert "#b00020" in placed and placed.endswith(">7")  # the tile as placed, in red
    assert "upheld" in html and "combat 2.2" in html


def test_html_escapes_names(corr, tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    r = corr("new", "combat", path, "--player", "Al <b>&amp;", "--player", "Bo", "-o", "mode=as-written",
             "--format", "json")
    assert r.code == 0, r.err
    assert corr("move", path, "1 (1,1)", "--format", "none").code == 0
    r = corr("referee", "examine", path, "1", "--format", "html")
    assert r.code == 0, r.err
    assert "Al &lt;b&gt;&amp;amp;" in r.out
    assert "<b>&amp;" not in r.out


def test_seq_outside_the_log_is_a_one_line_error(corr) -> None:
    for seq in ("0", "61", "-3"):
        r = corr("referee", "examine", AS_WRITTEN, seq)
        assert r.code == 1, (seq, r.err)
        assert r.err.count("\n") == 1 and r.err.startswith("corr: error:")


def test_corrupt_log_exits_2(corr, tmp_path: Path) -> None:
    path = tmp_path / "edited.corr"
    path.write_text(AS_WRITTEN.read_text().replace('"7 (1,1)"', '"8 (1,1)"'))
    r = corr("referee", "examine", path, "3")
    assert r.code == 2
    assert r.err.count("\n") == 1


def test_unknown_format_refused(corr) -> None:
    r = corr("referee", "examine", AS_WRITTEN, "3", "--format", "pdf")
    assert r.code == 1 and "format" in r.err


# ---------------------------------------------------------------------------------
# compare


def compare(corr, a: Path, b: Path) -> dict:
    r = corr("compare", a, b, "--json")
    assert r.code == 0, r.err
    return json.loads(r.out)


@pytest.fixture
def two_copies(game_file, tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of one Combat game, 4 moves in."""
    path = game_file("7 (5,4)", "3 (1,1)", "2 (9,9)", "8 (6,6)")
    a, b = tmp_path / "anna.corr", tmp_path / "ben.corr"
    shutil.copy(path, a)
    shutil.copy(path, b)
    return a, b


def test_identical_copies(corr, two_copies) -> None:
    a, b = two_copies
    r = compare(corr, a, b)
    assert r["common"] == 4 and r["first_divergence"] is None and r["relation"] == "identical"
    for side in ("a", "b"):
        assert r[side]["verifies"] is True and r[side]["seq"] == 4 and r[side]["error"] is None
        assert r[side]["head"] == {"seq": 4, "to_move": "A", "over": False}
    text = corr("compare", a, b)
    assert text.code == 0 and "identical" in text.out


def test_one_copy_a_prefix_of_the_other(corr, two_copies) -> None:
    a, b = two_copies
    assert corr("move", b, "4 (2,2)", "--format", "none").code == 0
    r = compare(corr, a, b)
    assert r["common"] == 4 and r["first_divergence"] is None and r["relation"] == "a-prefix"
    assert r["a"]["head"]["seq"] == 4 and r["b"]["head"] == {"seq": 5, "to_move": "B", "over": False}
    assert compare(corr, b, a)["relation"] == "b-prefix"


def test_copies_diverging_at_a_known_seq(corr, two_copies) -> None:
    a, b = two_copies
    assert corr("move", a, "4 (2,2)", "--format", "none").code == 0
    assert corr("move", b, "6 (2,2)", "--format", "none").code == 0
    assert corr("move", b, "1 (3,3)", "--format", "none").code == 0
    r = compare(corr, a, b)
    assert r["common"] == 4 and r["first_divergence"] == 5 and r["relation"] == "diverged"
    assert r["a"]["verifies"] and r["b"]["verifies"]
    assert r["a"]["head"]["seq"] == 5 and r["b"]["head"]["seq"] == 6
    text = corr("compare", a, b)
    assert "first divergence: seq 5" in text.out


def test_diverged_copies_show_each_copys_first_differing_record(corr, two_copies) -> None:
    """What a referee looks at first: the two moves made at the same seq."""
    a, b = two_copies
    assert corr("move", a, "4 (2,2)", "--format", "none").code == 0
    assert corr("move", b, "6 (2,2)", "--format", "none").code == 0
    r = compare(corr, a, b)
    assert r["a"]["differs"] == "5. A 4 (2,2)" and r["b"]["differs"] == "5. A 6 (2,2)"
    text = corr("compare", a, b).out
    assert "first divergence: seq 5\n  first copy:  5. A 4 (2,2)\n  second copy: 5. A 6 (2,2)\n" in text
    assert corr("move", a, "6 (3,3)", "--format", "none").code == 0  # a prefix has no differing record
    shutil.copy(a, b)
    assert corr("move", b, "1 (9,1)", "--format", "none").code == 0
    r = compare(corr, a, b)
    assert r["relation"] == "a-prefix" and r["a"]["differs"] is None and r["b"]["differs"] is None


def test_a_tampered_record_is_shown_as_each_copy_has_it(corr, two_copies) -> None:
    a, b = two_copies
    b.write_text(b.read_text().replace('"2 (9,9)"', '"4 (9,9)"'))
    r = compare(corr, a, b)
    assert (r["a"]["differs"], r["b"]["differs"]) == ("3. A 2 (9,9)", "3. A 4 (9,9)")
    lines = b.read_bytes().split(b"\n")
    lines[3] = b"garbage"
    b.write_bytes(b"\n".join(lines))
    assert compare(corr, a, b)["b"]["differs"].startswith("not a valid record (")


def test_a_tampered_copy_does_not_verify(corr, two_copies) -> None:
    a, b = two_copies
    b.write_text(b.read_text().replace('"2 (9,9)"', '"4 (9,9)"'))
    r = compare(corr, a, b)
    assert r["first_divergence"] == 3 and r["common"] == 2
    assert r["a"]["verifies"] is True
    assert r["b"]["verifies"] is False and r["b"]["seq"] == 3 and r["b"]["error"]
    assert r["b"]["head"] == {"seq": 2, "to_move": "A", "over": False}
    text = corr("compare", a, b)
    assert text.code == 0 and "does NOT verify at seq 3" in text.out


def test_different_games_refused(corr, tmp_path: Path, game_file) -> None:
    a = game_file("7 (5,4)")
    b = tmp_path / "other.corr"
    assert corr("new", "combat", b, "--player", "Anna", "--player", "Ben", "--format", "json").code == 0
    r = corr("compare", a, b)
    assert r.code == 1 and "different games" in r.err and r.err.count("\n") == 1


def test_compare_missing_file(corr, two_copies, tmp_path: Path) -> None:
    r = corr("compare", two_copies[0], tmp_path / "nope.corr")
    assert r.code == 1 and r.err.count("\n") == 1


def test_audit_html_is_a_report_a_referee_can_mail(corr) -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "examples" / "combat-as-written-challenge.corr"
    result = corr("audit", example, "--format", "html")
    assert result.code == 0, result.err
    html = result.out
    assert html.startswith("<!DOCTYPE html>") and "intact" in html
    assert "challenge-upheld" in html and "challenge-rejected" in html
    assert "<style" not in html and "<script" not in html and "class=" not in html


def test_audit_html_of_a_corrupt_log_says_so_and_exits_2(tmp_path, corr) -> None:
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "examples" / "combat-2p-anna-ben.corr"
    broken = tmp_path / "broken.corr"
    lines = example.read_bytes().split(b"\n")
    del lines[3]
    broken.write_bytes(b"\n".join(lines))
    result = corr("audit", broken, "--format", "html")
    assert result.code == 2 and "CORRUPT" in result.out
