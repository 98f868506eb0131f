"""What one `corr move` and one `corr show` cost as the log grows, each beside the same
command on a 100-record log and beside the bare import, measured in the same run.

Run:  python benchmarks/bench_move.py [--lengths 100,2000,10000] [--runs 15]

The logs are Sudoku War games in which both sides move a Knight back and forth (any
length can be had; see bench_scale.py). Every command runs as its own process, as a
player runs it; the runs of all lengths are interleaved, so load on the machine falls
on each alike. Before the runs each log is shown once, as a player's first command on
it would: from then on corr goes on from the position it kept (`corr.engine.checkpoint`)
instead of replaying the log from its first line. Each `move` runs on a fresh copy of
the log at its length (the same file name, so its kept position holds), and plays the
Knight's next move.

Printed: the median wall and CPU time (the process and its children) of each command
at each length, and its ratio to the same command on the 100-record log: the cost of
the log's length alone. The aim: a move on a 2,000-record log at most 1.25x one on a
100-record log.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_scale import SHUFFLE, write_log  # noqa: E402


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="100,2000,10000")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    lengths = sorted({100, *(int(n) for n in args.lengths.split(","))})
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = dict(os.environ, CORR_CACHE_DIR=str(folder / "cache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a player's Python keeps its bytecode between runs
        corr = [sys.executable, "-m", "corr"]
        pristine, work = {}, {}
        for n in lengths:
            pristine[n] = folder / f"war-{n}.corr"
            write_log(pristine[n], n, False, False, folder)
            work[n] = folder / f"game-{n}.corr"
            shutil.copy(pristine[n], work[n])
            subprocess.run([*corr, "show", str(work[n]), "-f", "json"], env=env, check=True, stdout=subprocess.DEVNULL)
        runs: dict[tuple[str, int], list[tuple[float, float]]] = {}
        bare = []
        for _ in range(args.runs):
            bare.append(timed([sys.executable, "-c", "import typer, pydantic, jinja2"], env))
            for n in lengths:
                shutil.copy(pristine[n], work[n])
                move = SHUFFLE[n % len(SHUFFLE)]
                runs.setdefault(("move", n), []).append(timed([*corr, "move", str(work[n]), move, "-f", "none"], env))
                shutil.copy(pristine[n], work[n])
                runs.setdefault(("show", n), []).append(timed([*corr, "show", str(work[n])], env))
    wall0 = statistics.median(w for w, _ in bare)
    cpu0 = statistics.median(c for _, c in bare)
    print(f"bare `import typer, pydantic, jinja2`: {wall0 * 1000:.0f} ms wall, {cpu0 * 1000:.0f} ms CPU")
    print(f"{'command':>8} {'records':>8} {'wall':>8} {'CPU':>8}   {'wall/100':>8} {'CPU/100':>8}   "
          f"{'wall/import':>11} {'CPU/import':>10}")
    for command in ("move", "show"):
        base = runs[(command, 100)]
        wall_base = statistics.median(w for w, _ in base)
        cpu_base = statistics.median(c for _, c in base)
        for n in lengths:
            wall = statistics.median(w for w, _ in runs[(command, n)])
            cpu = statistics.median(c for _, c in runs[(command, n)])
            print(f"{command:>8} {n:>8} {wall * 1000:>6.0f}ms {cpu * 1000:>6.0f}ms   {wall / wall_base:>7.2f}x "
                  f"{cpu / cpu_base:>7.2f}x   {wall / wall0:>10.2f}x {cpu / cpu0:>9.2f}x")


if __name__ == "__main__":
    main()
