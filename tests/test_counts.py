"""A count of one takes the singular noun, wherever corr prints a count: "1 legal move",
never "1 legal moves"."""

from __future__ import annotations

import shutil
from pathlib import Path

from freezegun import freeze_time

from corr import timecontrol
from corr.counts import counted

#: A Moyo puzzle whose Azumaya has one empty place, which one digit fits (3.1).
ONE_PLACE = ".34.78912.7219.34819834256785976.423426853791713924.56961537..42874196353452.6179"


def test_counted_agrees_with_its_number() -> None:
    assert counted(1, "move") == "1 move" and counted(0, "move") == "0 moves" and counted(2, "move") == "2 moves"
    assert counted(1, "ply", "plies") == "1 ply" and counted(3, "ply", "plies") == "3 plies"


def test_moyo_3_1_one_legal_move_is_said_in_the_singular(corr, tmp_path: Path) -> None:
    path = tmp_path / "short.corr"
    assert corr("new", "moyo", path, "-p", "Anna", "-p", "Ben", "-o", f"puzzle={ONE_PLACE}", "-f", "none").code == 0
    result = corr("legal", path)
    assert result.code == 0 and result.out.splitlines()[0] == "A to move, 1 legal move:"


def test_a_period_of_one_move_is_described_in_the_singular() -> None:
    text = timecontrol.describe(timecontrol.parse("period:1/3,vacation=1"))
    assert text.startswith("1 move in 3 days;") and "vacation 1 day a year" in text


def test_one_day_of_vacation_is_said_in_the_singular(corr, tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    with freeze_time("2026-05-01 10:00:00"):
        assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--time", "per-move:3,vacation=14",
                    "-f", "none").code == 0
        result = corr("vacation", path, "--by", "A", "--days", "1")
    assert result.code == 0 and "is on vacation for 1 day from" in result.out
    audit = corr("audit", path)
    assert "A took 1 day of vacation" in audit.out and "game combat " in audit.out and ", 1 record" in audit.out
    assert ", 1 records" not in audit.out


def test_compare_counts_one_common_record_in_the_singular(corr, game_file, tmp_path: Path) -> None:
    path = game_file("7 (5,4)")
    copy = tmp_path / "copy.corr"
    shutil.copy(path, copy)
    result = corr("compare", path, copy)
    assert result.code == 0 and "common prefix: 1 record\n" in result.out
    assert "verifies, 1 record;" in result.out and "1 records" not in result.out
