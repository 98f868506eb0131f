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
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Figure, Sample, fmt, interleaved, median, ratio  # noqa: E402

GAMES = ("combat", "moyo", "war")
AIM = 2.0


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


def measure(tmp: Path, games: int, rounds: int) -> tuple[int, Sample, Sample, dict[str, list[Sample]]]:
    """(bytes of logs, the first status, a floor beside it, {"status"/"floor": samples
    of the interleaved rounds}) over `games` random games made in `tmp`."""
    os.environ["CORR_CACHE_DIR"] = str(tmp / "cache")
    folder = tmp / "games"
    make_games(folder, games)
    size = floor(folder)
    first = interleaved({"status": lambda: status(folder), "floor": lambda: floor(folder)}, 1)
    times = interleaved({"status": lambda: status(folder), "floor": lambda: floor(folder)}, rounds)
    return size, first["status"][0], first["floor"][0], times


def figures(quick: bool = False) -> list[Figure]:
    """The verdict `benchmarks/bench.py` prints: status with the summaries kept, over its floor."""
    games, rounds = (100, 3) if quick else (1000, 7)
    with tempfile.TemporaryDirectory() as tmp:
        _, _, _, times = measure(Path(tmp), games, rounds)
    cpu, floor_cpu = median(times["status"])[1], median(times["floor"])[1]
    return [Figure(f"corr status, {games:,} games", f"{cpu * 1e3:.0f} ms", f"floor: {floor_cpu * 1e3:.0f} ms",
                   ratio(times["status"], times["floor"]), AIM)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        size, (wall, cpu), (_, f_cpu), runs = measure(Path(tmp), args.games, args.rounds)
    print(f"corr status over {args.games} games ({size / 1e6:.1f} MB of logs), {args.rounds} interleaved rounds")
    print(f"{'first (every log replayed)':<30}cpu {cpu:8.3f} s  wall {wall:8.3f} s  "
          f"{cpu / f_cpu:6.1f}x the floor's cpu")
    for name in ("floor", "status"):
        m_wall, m_cpu = median(runs[name])
        print(f"{name + (' (summaries kept)' if name == 'status' else ': open+read+sha256'):<30}"
              f"cpu {m_cpu:8.3f} s  wall {m_wall:8.3f} s  (median)")
    print(f"status/floor = {fmt(ratio(runs['status'], runs['floor']), aim=AIM)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
