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
Knight's next move. Each round runs every command once, in reverse order every other
round (benchmarks/harness.py).

Printed: the median wall and CPU time (the process and its children) of each command
at each length, and its ratio to the same command on the 100-record log (the cost of
the log's length alone) and to the bare import, each as the median of the ratios round
by round with the lowest and highest round, CPU and wall. The aim: a move on a 2,000-record log at most 1.25x one on a
100-record log.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_scale import SHUFFLE, write_log  # noqa: E402
from harness import children_cpu, fmt, interleaved, median  # noqa: E402
from harness import ratio as ratio_of  # noqa: E402


def run(argv: list[str], env: dict[str, str]) -> None:
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


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
        cases = {"bare": partial(run, [sys.executable, "-c", "import typer, pydantic, jinja2"], env)}
        for n in lengths:
            move = SHUFFLE[n % len(SHUFFLE)]
            cases[f"move {n}"] = partial(run, [*corr, "move", str(work[n]), move, "-f", "none"], env)
            cases[f"show {n}"] = partial(run, [*corr, "show", str(work[n])], env)

        def fresh(name: str) -> None:
            """A move or a show runs on a fresh copy of the log at its length."""
            if name != "bare":
                n = int(name.split()[1])
                shutil.copy(pristine[n], work[n])

        runs = interleaved(cases, args.runs, prepare=fresh, cpu=children_cpu)
    wall0, cpu0 = median(runs["bare"])
    print(f"bare `import typer, pydantic, jinja2`: {wall0 * 1000:.0f} ms wall, {cpu0 * 1000:.0f} ms CPU "
          f"(medians of {args.runs} interleaved rounds)")
    for command in ("move", "show"):
        for n in lengths:
            wall, cpu = median(runs[f"{command} {n}"])
            print(f"{command} {n:>6} records: {wall * 1000:>5.0f} ms wall, {cpu * 1000:>5.0f} ms CPU")
            if n != 100:
                print(f"    /{command} 100: {fmt(ratio_of(runs[f'{command} {n}'], runs[f'{command} 100']))}")
            print(f"    /bare import: {fmt(ratio_of(runs[f'{command} {n}'], runs['bare']))}")


if __name__ == "__main__":
    main()
