"""The solver, solution counts and the Moyo 6 check (docs/rules/moyo.md 6 and 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from corr.errors import UsageError
from corr.geometry import UNITS, cell_at, name
from corr.puzzles.appendix import APPENDIX, parse_puzzle, puzzle_text
from corr.games.moyo.check import check, three_in_line
from corr.puzzles.solver import count_solutions, grade, is_valid_solution, solve, starting_points

TOP95 = [parse_puzzle(line) for line in (Path(__file__).parent / "data" / "top95.txt").read_text().splitlines() if line.strip()]

#: Solution counts of the appendix puzzles (moyo 7), computed once and pinned here;
#: the rulebook says they are not all unique.
APPENDIX_SOLUTIONS = {1: 19, 2: 33, 3: 2252, 4: 359, 5: 1, 6: 1}

NO_SOLUTION = "12345678" + "." * 72 + "9"  # (3,3) must be 9, but (9,9) holds 9 in its column


def brute_force_count(cells: list[int]) -> int:
    """Plain backtracking with no propagation at all: an independent check of the counts."""
    grid = list(cells)
    empty = [c for c in range(81) if not grid[c]]
    units_of = [[u for _, _, u in UNITS if c in u] for c in range(81)]

    def ok(c: int, d: int) -> bool:
        return all(grid[p] != d for u in units_of[c] for p in u)

    def rec(i: int) -> int:
        if i == len(empty):
            return 1
        c = empty[i]
        total = 0
        for d in range(1, 10):
            if ok(c, d):
                grid[c] = d
                total += rec(i + 1)
                grid[c] = 0
        return total

    return rec(0)


def deadly_rectangles(grid: list[int]) -> list[tuple[int, int, int, int]]:
    """Rectangles a b / b a in two rows of one band and two columns of different stacks:
    emptying one leaves exactly two solutions."""
    found = []
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            if r1 // 3 != r2 // 3:
                continue
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if c1 // 3 == c2 // 3:
                        continue
                    a, b = grid[r1 * 9 + c1], grid[r1 * 9 + c2]
                    if grid[r2 * 9 + c1] == b and grid[r2 * 9 + c2] == a:
                        found.append((r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2))
    return found


@pytest.fixture(scope="module")
def solved() -> list[int]:
    grid = solve(parse_puzzle("5"))
    assert grid is not None
    return grid


@pytest.mark.parametrize("index", range(0, 95, 5))
def test_top95_sample_solves_to_a_valid_grid_keeping_the_givens(index: int) -> None:
    puzzle = TOP95[index]
    grid = solve(puzzle)
    assert grid is not None and is_valid_solution(puzzle, grid)


def test_top95_all_have_exactly_one_solution_first_twenty() -> None:
    assert [count_solutions(p, 2) for p in TOP95[:20]] == [1] * 20


@pytest.mark.parametrize("number", sorted(APPENDIX))
def test_moyo_7_appendix_solution_counts(number: int) -> None:
    assert count_solutions(parse_puzzle(APPENDIX[number]), 10_000) == APPENDIX_SOLUTIONS[number]


def test_moyo_6_count_stops_at_the_cap() -> None:
    assert count_solutions(parse_puzzle("3"), 100) == 100
    assert count_solutions(parse_puzzle("3"), 2252) == 2252
    assert count_solutions(parse_puzzle("3"), 2253) == 2252


def test_empty_board_count_is_capped() -> None:
    assert count_solutions([0] * 81, 500) == 500


def test_deadly_pattern_has_two_solutions_cross_checked_by_brute_force(solved: list[int]) -> None:
    rects = deadly_rectangles(solved)
    assert rects, "the test grid should hold a deadly rectangle"
    for rect in rects[:3]:
        puzzle = [0 if c in rect else d for c, d in enumerate(solved)]
        assert count_solutions(puzzle, 10) == brute_force_count(puzzle) == 2


def test_two_disjoint_deadly_patterns_have_four_solutions(solved: list[int]) -> None:
    rects = deadly_rectangles(solved)
    pair = next(
        (a, b)
        for i, a in enumerate(rects)
        for b in rects[i + 1 :]
        if not {r // 9 for r in a} & {r // 9 for r in b} and not {r % 9 for r in a} & {r % 9 for r in b}
    )
    holes = set(pair[0]) | set(pair[1])
    puzzle = [0 if c in holes else d for c, d in enumerate(solved)]
    assert count_solutions(puzzle, 10) == brute_force_count(puzzle) == 4


def test_counts_of_thinned_grids_agree_with_brute_force(solved: list[int]) -> None:
    # Empty the first three rows and two more cells: a few dozen empty cells, many solutions.
    holes = set(range(27)) | {cell_at(5, 5), cell_at(9, 1)}
    puzzle = [0 if c in holes else d for c, d in enumerate(solved)]
    assert count_solutions(puzzle, 100_000) == brute_force_count(puzzle) > 1


def test_moyo_7_appendix_1_count_agrees_with_brute_force() -> None:
    puzzle = parse_puzzle("1")
    assert brute_force_count(puzzle) == count_solutions(puzzle) == 19


def test_sudoku_rule_clash_among_givens_is_refused_naming_cells_and_unit() -> None:
    puzzle = parse_puzzle("5" + "." * 79 + "5")  # (1,1) and (9,9): no unit shared, no clash
    assert count_solutions(puzzle, 1) == 1
    clash = parse_puzzle("5.......5" + "." * 72)
    with pytest.raises(UsageError, match=r"\(1,1\).*\(3,3\).*row 1"):
        solve(clash)
    with pytest.raises(UsageError, match=r"\(1,1\).*\(1,5\).*field 1"):
        grade([5 if c in (0, 10) else 0 for c in range(81)])  # cells 0 and 10 share only field 1
    assert name(10) == "(1,5)"


def test_no_solution_solves_to_none_and_counts_zero() -> None:
    puzzle = parse_puzzle(NO_SOLUTION)
    assert solve(puzzle) is None
    assert count_solutions(puzzle) == 0


@pytest.mark.parametrize(
    ("puzzle", "first"),
    [
        ("." * 81, "123456789456789123789123456231674895875912364694538217317265948542897631968341572"),
        ("3", "278653194354819726169274853612437985985126347437985612596348271723591468841762539"),
    ],
)
def test_solve_of_a_puzzle_with_many_solutions_returns_the_first_in_search_order(puzzle: str, first: str) -> None:
    """Singles first, then the first cell with fewest candidates, its digits ascending: the
    Domino bot relabels digits to draw a random solution, so the order is part of the
    result (pinned from the per-cell search the bitset search replaced)."""
    assert "".join(map(str, solve(parse_puzzle(puzzle)) or [])) == first


def test_grade_of_an_easy_puzzle_is_singles() -> None:
    assert grade(parse_puzzle("5")) == "singles"
    # A solved grid with one row emptied is a singles puzzle too.
    grid = solve(parse_puzzle("6"))
    assert grid is not None
    assert grade([0] * 9 + grid[9:]) == "singles"


def test_grade_of_a_hard_top95_puzzle_is_search() -> None:
    assert grade(TOP95[3]) == "search"


def test_grade_of_a_puzzle_needing_intersections_is_pairs() -> None:
    assert grade(TOP95[0]) == "pairs"


def test_grade_of_a_puzzle_with_several_solutions_is_search() -> None:
    assert grade(parse_puzzle("3")) == "search"


def test_moyo_6_reports_solutions_and_givens() -> None:
    report = check(parse_puzzle("3"))
    assert report["solutions"] == 2252 and report["solutions_capped"] is False
    assert report["givens"] == 28
    capped = check(parse_puzzle("3"), cap=50)
    assert capped["solutions"] == 50 and capped["solutions_capped"] is True


def test_moyo_6_reports_givens_in_the_azumaya() -> None:
    assert check(parse_puzzle("2"))["azumaya_givens"] == 4
    assert check(parse_puzzle("1"))["azumaya_givens"] == 2


def test_moyo_6_azumaya_without_givens_is_unsuitable(solved: list[int]) -> None:
    puzzle = list(parse_puzzle("5"))
    for c in (30, 31, 32, 39, 40, 41, 48, 49, 50):  # field 5
        puzzle[c] = 0
    report = check(puzzle)
    assert report["azumaya_givens"] == 0
    assert report["empty_fields"] == [5]
    assert report["verdict"] == "unsuitable"
    assert any("Azumaya" in r for r in report["reasons"])
    assert any("field(s) 5" in r for r in report["reasons"])


def test_moyo_6_reports_three_givens_in_a_line_inside_one_field() -> None:
    report = check(parse_puzzle("6"))
    assert report["three_in_line"] == [
        {"field": 3, "cells": ["(3,4)", "(3,5)", "(3,6)"]},
        {"field": 7, "cells": ["(7,4)", "(7,5)", "(7,6)"]},
    ]
    assert report["verdict"] == "unsuitable"


def test_moyo_6_three_in_a_line_across_two_fields_does_not_count() -> None:
    # Row 1, columns 3-5: three givens next to each other, but across fields 1 and 2.
    cells = [0] * 81
    cells[2], cells[3], cells[4] = 1, 2, 3
    assert three_in_line(cells) == []
    # A column of field 5: places 2, 5, 8.
    cells = [0] * 81
    for c, d in zip((31, 40, 49), (1, 2, 3)):
        cells[c] = d
    assert three_in_line(cells) == [{"field": 5, "cells": ["(5,2)", "(5,5)", "(5,8)"]}]


def test_moyo_6_too_many_givens_is_unsuitable(solved: list[int]) -> None:
    puzzle = [0 if c % 2 else d for c, d in enumerate(solved)]  # 41 givens
    report = check(puzzle)
    assert report["givens"] == 41
    assert any("too many givens" in r for r in report["reasons"])


def test_moyo_6_appendix_puzzles_1_to_5_are_suitable() -> None:
    for number in range(1, 6):
        report = check(parse_puzzle(str(number)))
        assert report["verdict"] == "suitable", (number, report["reasons"])
        assert report["empty_fields"] == []
        assert report["starting_points"] >= 2


def test_moyo_6_unique_puzzle_needing_search_is_too_difficult() -> None:
    report = check(TOP95[3])
    assert report["grade"] == "search"
    assert any("too difficult" in r for r in report["reasons"])


def test_moyo_6_refuses_no_solution_and_clash() -> None:
    with pytest.raises(UsageError, match="no solution"):
        check(parse_puzzle(NO_SOLUTION))
    with pytest.raises(UsageError, match="clash"):
        check(parse_puzzle("55" + "." * 79))


def test_starting_points_counts_singles_at_the_start(solved: list[int]) -> None:
    assert starting_points([0] + solved[1:]) == 1
    assert starting_points([0] * 81) == 0


def test_puzzle_text_round_trip() -> None:
    for text in APPENDIX.values():
        assert puzzle_text(parse_puzzle(text)) == text
