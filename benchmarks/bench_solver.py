"""Benchmark corr's solver against C dancing links and py-sudoku, and time counting
appendix solutions (moyo 6).

The references are installed only for this benchmark (`pip install exact-cover
py-sudoku`) and imported lazily, so corr itself never depends on them; a missing one is
skipped. Run:

    python benchmarks/bench_solver.py [--rounds 5]

exact-cover is Knuth's dancing links in C over the 324-column exact-cover matrix (a row
per digit in a cell, a column per constraint: the cell holds a digit, a row, column or
field holds each digit once). The givens are fixed rows: a given cell keeps only its
digit's row, an empty cell all nine, so the C code makes every deduction itself. Building
a puzzle's matrix counts in the reference's time, since a user's solve includes it: its
rows are picked out of the empty board's 729 rows, which are built once, outside the
timing, as a user would keep them.

The solvers solve each set in turn, interleaved over the rounds (benchmarks/harness.py);
printed per puzzle are the mean and the worst CPU time (each the median over the
rounds), and corr/dlx and py-sudoku/corr as the median over the rounds (lowest-highest),
CPU and wall.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Callable

from corr.puzzles.appendix import APPENDIX, parse_puzzle
from corr.puzzles.solver import count_solutions, is_valid_solution, solve
from harness import Figure, fmt, interleaved, median, ratio

TOP95 = Path(__file__).resolve().parent.parent / "tests" / "data" / "top95.txt"
#: corr's mean time a top95 puzzle over C dancing links'
AIM = 1.5

Solver = Callable[[list[int]], "list[int] | None"]


def dlx_solver() -> Solver:
    """exact-cover's dancing links wrapped to take and return 81 cells (None when unsolved)."""
    import numpy as np  # lazy: only the benchmark needs them
    from exact_cover import get_exact_cover  # type: ignore[import-untyped]
    from exact_cover.error import NoSolution  # type: ignore[import-untyped]

    from corr.geometry import FIELD_OF

    empty = np.zeros((729, 324), dtype=bool)  # row c * 9 + d - 1: digit d in cell c
    for c in range(81):
        r, col, f = c // 9, c % 9, FIELD_OF[c] - 1
        for d in range(9):
            for column in (c, 81 + r * 9 + d, 162 + col * 9 + d, 243 + f * 9 + d):
                empty[c * 9 + d, column] = True

    def run(cells: list[int]) -> list[int] | None:
        rows = [c * 9 + d - 1 for c in range(81) for d in ((cells[c],) if cells[c] else range(1, 10))]
        try:
            chosen = get_exact_cover(empty[rows])
        except NoSolution:
            return None
        grid = [0] * 81
        for i in chosen:
            c, d = divmod(rows[i], 9)
            grid[c] = d + 1
        return grid

    return run


def py_sudoku_solver() -> Solver:
    """py-sudoku's solver wrapped to take and return 81 cells (None when unsolved)."""
    from sudoku import Sudoku  # type: ignore[import-untyped]  # lazy: only the benchmark needs it

    def run(cells: list[int]) -> list[int] | None:
        board = [cells[r * 9 : r * 9 + 9] for r in range(9)]
        result = Sudoku(3, 3, board=board).solve()
        flat = [d or 0 for row in result.board for d in row]
        return flat if all(flat) else None

    return run


def solve_all(fn: Callable[[list[int]], object], puzzles: list[list[int]], worst: list[float]) -> None:
    """Solve every puzzle; the slowest one's CPU seconds is appended to `worst`."""
    slowest = 0.0
    for p in puzzles:
        t0 = time.process_time()
        fn(p)
        slowest = max(slowest, time.process_time() - t0)
    worst.append(slowest)


def figures(quick: bool = False) -> list[Figure]:
    """The verdict `benchmarks/bench.py` prints: corr's mean on top95 over C dancing
    links' (none without exact-cover)."""
    try:
        dlx = dlx_solver()
    except ImportError:
        return []
    top95 = [parse_puzzle(line) for line in TOP95.read_text().splitlines() if line.strip()]
    worst: dict[str, list[float]] = {"corr": [], "dlx": []}
    times = interleaved({"corr": lambda: solve_all(solve, top95, worst["corr"]),
                         "dlx": lambda: solve_all(dlx, top95, worst["dlx"])}, 3 if quick else 5)
    mean = {name: median(times[name])[1] / len(top95) * 1e3 for name in times}
    return [Figure("solver, top95 mean", f"{mean['corr']:.2f} ms", f"C dancing links: {mean['dlx']:.2f} ms",
                   ratio(times["corr"], times["dlx"]), AIM)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    args = parser.parse_args()
    appendix = [parse_puzzle(t) for t in APPENDIX.values()]
    top95 = [parse_puzzle(line) for line in TOP95.read_text().splitlines() if line.strip()]
    solvers: dict[str, Solver] = {"corr": solve}
    for label, make, package in (("dlx", dlx_solver, "exact-cover"), ("py-sudoku", py_sudoku_solver, "py-sudoku")):
        try:
            solvers[label] = make()
        except ImportError:
            print(f"{package} is not installed (pip install {package}), skipped")
    for p in top95:
        sol = solve(p)
        assert sol is not None and is_valid_solution(p, sol)
        if "dlx" in solvers:
            assert solvers["dlx"](p) == sol  # every top95 puzzle has one solution

    print(f"{args.rounds} interleaved rounds; CPU time per puzzle, mean and worst (medians over the rounds)")
    print(f"{'set':<10}{'n':>4}" + "".join(f"{label + ' mean':>16}{label + ' worst':>16}" for label in solvers))
    notes = []
    for label, puzzles in (("appendix", appendix), ("top95", top95)):
        worst: dict[str, list[float]] = {name: [] for name in solvers}
        cases = {name: (lambda fn=fn, name=name: solve_all(fn, puzzles, worst[name])) for name, fn in solvers.items()}
        times = interleaved(cases, args.rounds)
        row = f"{label:<10}{len(puzzles):>4}"
        for name in solvers:
            mean = median(times[name])[1] / len(puzzles)
            row += f"{mean * 1e3:>14.3f}ms{statistics.median(worst[name]) * 1e3:>14.3f}ms"
        print(row)
        if "dlx" in solvers:
            notes.append(f"{label:<10}corr/dlx        {fmt(ratio(times['corr'], times['dlx']), AIM if label == 'top95' else None)}")
        if "py-sudoku" in solvers:
            notes.append(f"{label:<10}py-sudoku/corr  {fmt(ratio(times['py-sudoku'], times['corr']))}")
    for note in notes:
        print(note)

    print()
    print(f"{'appendix':<10}{'solutions (cap 10,000)':>24}{'count CPU':>14}")
    for number, cells in zip(APPENDIX, appendix):
        t0 = time.process_time()
        n = count_solutions(cells, 10_000)
        dt = time.process_time() - t0
        print(f"{number:<10}{n:>24}{dt * 1e3:>12.1f}ms")


if __name__ == "__main__":
    main()
