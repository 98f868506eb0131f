"""Benchmark corr's solver against py-sudoku, and time counting appendix solutions (moyo 6).

The reference is installed only for this benchmark (`pip install py-sudoku`) and
imported lazily, so corr itself never depends on it. Run:

    python benchmarks/bench_solver.py [--rounds 5]

corr's solver and the reference solve each set in turn, interleaved over the rounds
(benchmarks/harness.py); printed are the median CPU time of a set and its worst puzzle,
and ref/corr as the median over the rounds (lowest-highest), CPU and wall.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Callable

from corr.puzzles.appendix import APPENDIX, parse_puzzle
from corr.puzzles.solver import count_solutions, is_valid_solution, solve
from harness import fmt, interleaved, median, ratio

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


def solve_all(fn: Callable[[list[int]], object], puzzles: list[list[int]], worst: list[float]) -> None:
    """Solve every puzzle; the slowest one's CPU seconds is appended to `worst`."""
    slowest = 0.0
    for p in puzzles:
        t0 = time.process_time()
        fn(p)
        slowest = max(slowest, time.process_time() - t0)
    worst.append(slowest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    args = parser.parse_args()
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

    print(f"{args.rounds} interleaved rounds, median CPU time")
    print(f"{'set':<10}{'n':>4}{'corr total':>12}{'corr worst':>12}{'ref total':>12}{'ref worst':>11}   ref/corr")
    for label, puzzles in (("appendix", appendix), ("top95", top95)):
        worst: dict[str, list[float]] = {"corr": [], "ref": []}
        cases: dict[str, Callable[[], object]] = {"corr": lambda: solve_all(solve, puzzles, worst["corr"])}
        if ref is not None:
            cases["ref"] = lambda: solve_all(ref, puzzles, worst["ref"])
        times = interleaved(cases, args.rounds)
        ours = median(times["corr"])[1]
        row = f"{label:<10}{len(puzzles):>4}{ours * 1e3:>10.1f}ms{statistics.median(worst['corr']) * 1e3:>10.1f}ms"
        if ref is not None:
            theirs = median(times["ref"])[1]
            row += (f"{theirs * 1e3:>10.1f}ms{statistics.median(worst['ref']) * 1e3:>9.1f}ms   "
                    f"{fmt(ratio(times['ref'], times['corr']))}")
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
