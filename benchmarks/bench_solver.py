"""Benchmark corr's solver against py-sudoku, and time counting appendix solutions (moyo 6).

The reference is installed only for this benchmark (`pip install py-sudoku`) and
imported lazily, so corr itself never depends on it. Run:

    python benchmarks/bench_solver.py
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from corr.puzzles.appendix import APPENDIX, parse_puzzle
from corr.puzzles.solver import count_solutions, is_valid_solution, solve

TOP95 = Path(__file__).resolve().parent.parent / "tests" / "data" / "top95.txt"


def reference_solver() -> Callable[[list[int]], list[int] | None]:
    """py-sudoku's solver wrapped to take and return 81 cells (None when unsolved)."""
    from sudoku import Sudoku  # lazy: only the benchmark needs it

    def run(cells: list[int]) -> list[int] | None:
        board = [cells[r * 9 : r * 9 + 9] for r in range(9)]
        result = Sudoku(3, 3, board=board).solve()
        flat = [d or 0 for row in result.board for d in row]
        return flat if all(flat) else None

    return run


def time_all(fn: Callable[[list[int]], object], puzzles: list[list[int]]) -> tuple[float, float]:
    """Total and worst seconds over the puzzles."""
    total = worst = 0.0
    for p in puzzles:
        t0 = time.perf_counter()
        fn(p)
        dt = time.perf_counter() - t0
        total += dt
        worst = max(worst, dt)
    return total, worst


def main() -> None:
    appendix = [parse_puzzle(t) for t in APPENDIX.values()]
    top95 = [parse_puzzle(line) for line in TOP95.read_text().splitlines() if line.strip()]
    for p in top95:
        sol = solve(p)
        assert sol is not None and is_valid_solution(p, sol)
    try:
        ref = reference_solver()
    except ImportError:
        ref = None
        print("py-sudoku is not installed (pip install py-sudoku): reference column left out")

    print(f"{'set':<10}{'n':>4}{'corr total':>12}{'corr worst':>12}{'ref total':>12}{'ref worst':>11}{'ref/corr':>10}")
    for label, puzzles in (("appendix", appendix), ("top95", top95)):
        ours, ours_worst = time_all(solve, puzzles)
        row = f"{label:<10}{len(puzzles):>4}{ours * 1e3:>10.1f}ms{ours_worst * 1e3:>10.1f}ms"
        if ref is not None:
            theirs, theirs_worst = time_all(ref, puzzles)
            row += f"{theirs * 1e3:>10.1f}ms{theirs_worst * 1e3:>9.1f}ms{theirs / ours:>9.1f}x"
        print(row)

    print()
    print(f"{'appendix':<10}{'solutions (cap 10,000)':>24}{'count time':>14}")
    for number, cells in zip(APPENDIX, appendix):
        t0 = time.perf_counter()
        n = count_solutions(cells, 10_000)
        dt = time.perf_counter() - t0
        print(f"{number:<10}{n:>24}{dt * 1e3:>12.1f}ms")


if __name__ == "__main__":
    main()
