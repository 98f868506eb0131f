"""`corr puzzle`: list, show, solve, check (docs/rules/moyo.md 6 and 7)."""

from __future__ import annotations

import json

import pytest

NO_SOLUTION = "12345678" + "." * 72 + "9"
CLASH = "5.......5" + "." * 72


def test_moyo_7_puzzle_list_shows_the_six_with_givens_and_solutions(corr) -> None:
    r = corr("puzzle", "list")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == 7
    assert lines[3].split()[:3] == ["3", "28", "2252"]
    data = json.loads(corr("puzzle", "list", "--json").out)
    assert [row["solutions"] for row in data] == [19, 33, 2252, 359, 1, 1]


def test_puzzle_show_borders_the_fields_within_80_columns(corr) -> None:
    r = corr("puzzle", "show", "1")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == 13 and all(len(line) <= 80 for line in lines)
    assert lines[0] == lines[4] == lines[12] == "+-------+-------+-------+"
    assert lines[1] == "| . . . | 8 . . | . . 9 |"


def test_puzzle_show_accepts_a_string(corr) -> None:
    text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    r = corr("puzzle", "show", text)
    assert r.code == 0 and r.out.splitlines()[1] == "| 4 . . | . . . | 8 . 5 |"


def test_puzzle_solve_prints_a_complete_grid(corr) -> None:
    r = corr("puzzle", "solve", "5")
    assert r.code == 0, r.err
    assert "." not in r.out and len(r.out.splitlines()) == 13


def test_moyo_6_puzzle_solve_count_is_exact_up_to_the_limit(corr) -> None:
    assert corr("puzzle", "solve", "4", "--count").out == "359\n"
    assert corr("puzzle", "solve", "3", "--count", "--limit", "100").out == "100+\n"


def test_moyo_6_check_reports_each_point(corr) -> None:
    r = corr("puzzle", "check", "6", "--json")
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["solutions"] == 1 and report["givens"] == 30 and report["azumaya_givens"] == 4
    assert report["empty_fields"] == [] and report["grade"] == "singles"
    assert report["three_in_line"][0] == {"field": 3, "cells": ["(3,4)", "(3,5)", "(3,6)"]}
    assert report["verdict"] == "unsuitable" and len(report["reasons"]) == 2


def test_moyo_6_check_text(corr) -> None:
    r = corr("puzzle", "check", "2")
    assert r.code == 0, r.err
    assert "solutions: 33" in r.out and "verdict: suitable" in r.out


def test_moyo_6_check_follows_the_areas_appendix_puzzle_5_with_units_rows(corr) -> None:
    """moyo 6 ruling: with units=rows the areas are rows; appendix puzzle 5 has three
    givens side by side in row 8 ((7,5) (7,6) (8,4), across fields 7 and 8), which the
    check by fields does not see."""
    by_fields = json.loads(corr("puzzle", "check", "5", "--json").out)
    assert by_fields["units"] == "fields" and by_fields["three_in_line"] == [] and by_fields["verdict"] == "suitable"
    r = corr("puzzle", "check", "5", "--units", "rows", "--json")
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["units"] == "rows" and report["verdict"] == "unsuitable"
    assert {"row": 8, "cells": ["(7,5)", "(7,6)", "(8,4)"]} in report["three_in_line"]
    assert [t["row"] for t in report["three_in_line"]] == [2, 4, 6, 8]
    assert "three givens next to each other in row 8: (7,5) (7,6) (8,4)" in report["reasons"]
    assert report["azumaya_givens"] == 2  # row 5: ..6...4..
    assert report["empty_areas"] == []
    text = corr("puzzle", "check", "5", "--units", "rows").out
    assert "three givens in a line: " in text and "row 8 (7,5) (7,6) (8,4)" in text
    assert "row 5 is the Azumaya" in text and "rows without a given: none" in text
    assert "verdict: unsuitable" in text


def test_moyo_6_check_with_units_columns_checks_columns(corr) -> None:
    report = json.loads(corr("puzzle", "check", "5", "--units", "columns", "--json").out)
    assert report["units"] == "columns"
    assert report["three_in_line"] == [
        {"column": 4, "cells": ["(5,7)", "(8,1)", "(8,4)"]},
        {"column": 6, "cells": ["(2,6)", "(2,9)", "(5,3)"]},
    ]
    # column 5 is the Azumaya: puzzle 5 has givens there in rows 3 (a 3) and 7 (a 4)
    assert report["azumaya_givens"] == 2 and report["empty_areas"] == []


def test_moyo_6_check_with_units_rows_reports_an_empty_row_and_the_azumaya_row(corr) -> None:
    # appendix puzzle 1 with row 5 (the Azumaya) emptied: by rows, no given in row 5
    text = "...8....916...92...59.1..6......17.43.1...5.62.46......1..6.89...21...759....8..."
    rows = [text[r * 9:r * 9 + 9] for r in range(9)]
    rows[4] = "." * 9
    puzzle = "".join(rows)
    report = json.loads(corr("puzzle", "check", puzzle, "--units", "rows", "--json").out)
    assert report["empty_areas"] == [5] and report["azumaya_givens"] == 0
    assert "no given in row(s) 5" in report["reasons"]
    assert "0 givens in the Azumaya (row 5), advice is 1-4" in report["reasons"]
    assert report["empty_fields"] == []  # every 3x3 field still has a given


def test_moyo_6_check_refuses_unknown_units(corr) -> None:
    r = corr("puzzle", "check", "5", "--units", "diagonals")
    assert r.code == 1 and r.out == "" and r.err.count("\n") == 1
    assert "fields, rows, columns" in r.err


@pytest.mark.parametrize("command", ["solve", "check"])
def test_sudoku_rule_clash_is_refused_with_one_line_naming_the_cells(corr, command: str) -> None:
    r = corr("puzzle", command, CLASH)
    assert r.code == 1 and r.out == ""
    assert r.err.count("\n") == 1
    assert "(1,1)" in r.err and "(3,3)" in r.err and "row 1" in r.err


@pytest.mark.parametrize("command", ["solve", "check"])
def test_moyo_6_no_solution_is_refused(corr, command: str) -> None:
    r = corr("puzzle", command, NO_SOLUTION)
    assert r.code == 1 and r.err.count("\n") == 1 and "no solution" in r.err


@pytest.mark.parametrize(
    "text, fault",
    [("1234", "81 characters"), ("x" + "." * 80, "'x'"), ("7", "no appendix puzzle 7"), ("." * 82, "82")],
)
@pytest.mark.parametrize("command", ["show", "solve", "check"])
def test_malformed_puzzle_is_refused(corr, command: str, text: str, fault: str) -> None:
    r = corr("puzzle", command, text)
    assert r.code == 1 and r.err.count("\n") == 1 and fault in r.err


def test_bad_limit_is_refused(corr) -> None:
    r = corr("puzzle", "solve", "1", "--count", "--limit", "0")
    assert r.code == 1 and "--limit" in r.err


@pytest.mark.parametrize("command", ["list", "show", "solve", "check"])
def test_every_puzzle_command_has_an_example(corr, command: str) -> None:
    r = corr("puzzle", command, "--help")
    assert r.code == 0 and "Example:" in r.out and f"corr puzzle {command}" in r.out


# --- corr puzzle domino (docs/rules/domino.md 7.1) ---------------------------------------------
def test_domino_7_1_puzzle_domino_prints_the_start_and_the_order(corr) -> None:
    from corr.geometry import name
    from corr.puzzles.appendix import puzzle_text
    from corr.games.domino.deal import generate

    r = corr("puzzle", "domino", "--seed", "abc", "--givens", "75")
    assert r.code == 0, r.err
    deal = generate("abc", 75)
    lines = r.out.splitlines()
    assert lines[0] == "start: " + puzzle_text(list(deal.start)) and lines[0].count(".") == 6
    assert lines[1] == "order: 6 digits"
    assert lines[2:] == [f"  {n}. {d} {name(c)}" for n, (c, d) in enumerate(deal.order, 1)]
    assert corr("puzzle", "domino", "--seed", "abc", "--givens", "75").out == r.out


def test_domino_7_1_puzzle_domino_json(corr) -> None:
    from corr.geometry import name
    from corr.puzzles.appendix import puzzle_text
    from corr.games.domino.deal import generate

    r = corr("puzzle", "domino", "--seed", "abc", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    deal = generate("abc")
    assert data == {
        "seed": "abc",
        "givens": 30,
        "start": puzzle_text(list(deal.start)),
        "order": [{"cell": name(c), "digit": d} for c, d in deal.order],
    }
    assert list(data) == ["seed", "givens", "start", "order"]
    assert sum(ch != "." for ch in data["start"]) == 30 and len(data["order"]) == 51
    again = corr("puzzle", "domino", "--json", "--seed", "abc", "--givens", "30")
    assert again.out == r.out


@pytest.mark.parametrize(
    "args, fault",
    [
        (["--seed", "abc", "--givens", "16"], "givens must be from 17 to 80, not 16"),
        (["--seed", "abc", "--givens", "81"], "givens must be from 17 to 80, not 81"),
        (["--seed", "abc", "--givens", "many"], "'many' is not a valid integer"),
        (["--seed", ""], "the seed is empty"),
        ([], "missing option '--seed'"),
    ],
)
def test_domino_7_1_puzzle_domino_refuses_bad_options_in_one_line(corr, args: list[str], fault: str) -> None:
    r = corr("puzzle", "domino", *args)
    assert r.code == 1 and r.out == ""
    assert r.err.count("\n") == 1 and fault in r.err


def test_puzzle_domino_has_an_example(corr) -> None:
    r = corr("puzzle", "domino", "--help")
    assert r.code == 0 and "corr puzzle domino --seed" in r.out.split("Example:", 1)[1]
