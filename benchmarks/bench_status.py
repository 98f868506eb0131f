"""`corr status` over a folder of many games, beside its floor: reading the files.

Run:  python benchmarks/bench_status.py [--games 1000] [--rounds 7]

The folder holds N random games (Combat, Moyo and War, made with `corr.randomplay`; every
other one cut short so that it still runs). It prints:

  first      one status over the folder with an empty cache: every log replayed, and
             the summaries kept (corr.statuscache).
  again      status runs with the summaries kept, interleaved with the floor - open,
             read and SHA-256 of each file - in alternating order; CPU and wall time
             each, and the ratio status/floor as median (min-max) over the rounds.
             The aim: within 2x the floor.

Status is timed in this process (`corr.status.folder_status` and the lines `corr status`
prints), so interpreter start-up, the same for any folder, is left out.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GAMES = ("combat", "moyo", "war")


def make_games(folder: Path, n: int) -> None:
    """N random games in `folder`; every other one cut after a part of its records."""
    from corr import randomplay
    from corr.log import store

    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        game = GAMES[i % len(GAMES)]
        options = {"puzzle": str(1 + i % 6)} if game == "moyo" else {}
        rep = randomplay.play(game, ["Anna", "Ben"], options, seed=i)
        lines = store.text(rep.log).splitlines(keepends=True)
        if i % 2:
            lines = lines[: 1 + (len(lines) - 1) * (i % 7 + 1) // 9]
        (folder / f"g{i:05d}.corr").write_bytes(b"".join(lines))


def floor(folder: Path) -> int:
    """Open, read and SHA-256 each log: what any status must do at the least."""
    size = 0
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.endswith(".corr"):
            with open(entry.path, "rb") as f:
                data = f.read()
            hashlib.sha256(data).digest()
            size += len(data)
    return size


def status(folder: Path) -> int:
    """What `corr status DIR` does, but the process start."""
    from corr.cli.status import lines
    from corr.status import folder_status

    return len(lines(folder_status(folder), None, False))


def timed(fn, folder: Path) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    c0, w0 = time.process_time(), time.perf_counter()
    fn(folder)
    return time.process_time() - c0, time.perf_counter() - w0


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CORR_CACHE_DIR"] = str(Path(tmp) / "cache")
        folder = Path(tmp) / "games"
        make_games(folder, args.games)
        size = floor(folder)
        print(f"corr status over {args.games} games ({size / 1e6:.1f} MB of logs), {args.rounds} rounds")
        cpu, wall = timed(status, folder)
        f_cpu, f_wall = timed(floor, folder)
        print(f"{'first (every log replayed)':<30}cpu {cpu:8.3f} s  wall {wall:8.3f} s  "
              f"{cpu / f_cpu:6.1f}x the floor's cpu")
        runs: dict[str, list[tuple[float, float]]] = {"status": [], "floor": []}
        for r in range(args.rounds):
            order = ("status", "floor") if r % 2 else ("floor", "status")
            for name in order:
                runs[name].append(timed(status if name == "status" else floor, folder))
        for name in ("floor", "status"):
            cpus, walls = [c for c, _ in runs[name]], [w for _, w in runs[name]]
            print(f"{name + (' (summaries kept)' if name == 'status' else ': open+read+sha256'):<30}"
                  f"cpu {statistics.median(cpus):8.3f} s  wall {statistics.median(walls):8.3f} s  (median)")
        cpu_ratio = [s[0] / f[0] for s, f in zip(runs["status"], runs["floor"]) if f[0] > 0]
        wall_ratio = [s[1] / f[1] for s, f in zip(runs["status"], runs["floor"])]
        print(f"status/floor  cpu {spread(cpu_ratio)}  wall {spread(wall_ratio)}  "
              f"(aim <= 2x: {'ok' if statistics.median(cpu_ratio) <= 2 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
