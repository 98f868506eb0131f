"""`corr puzzle`: list, show, solve, check (rules/moyo.md 6 and 7)."""

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
