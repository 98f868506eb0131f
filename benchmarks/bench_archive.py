"""Benchmark of `corr archive`: importing logs beside auditing them, and a search over a
large archive.

Run:  python benchmarks/bench_archive.py [--logs N] [--rows N] [--rounds N] [--quick]

1. Import against audit: N random complete Combat games (2-4 players) are written to a
   temp folder (not timed); then, in interleaved rounds, `corr.audit.audit` of every
   file, and `corr.archive.ingest.import_all` of the same files into a new archive (the
   same audit, plus storing each game). Wall and CPU time of each, best and median, and
   their ratio per round.
2. Search: an archive of N synthetic games (rows inserted directly, 2-4 seats drawn from
   1,000 players, some findings) searched the way `corr archive search` does: by a
   player and a result, by a game and dates, by a finding. Milliseconds, best of five.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import make_games  # noqa: E402
from harness import fmt, interleaved, ratio  # noqa: E402


def import_vs_audit(files: list[Path], folder: Path, rounds: int) -> None:
    from corr.archive import db, ingest
    from corr.audit import audit

    def audits() -> None:
        for path in files:
            audit(path)

    def imports(k: int) -> None:
        conn = db.connect(folder / f"bench{k}.sqlite", create=True)
        sources = iter([lambda p=p: ingest.audit_file(p) for p in files])
        ingest.import_all(conn, sources, len(files), lambda outcome: None)
        conn.close()

    made = iter(range(rounds))  # each import goes into a new archive
    times = interleaved({"audit": audits, "import": lambda: imports(next(made))}, rounds)
    print(f"import vs audit, {len(files)} logs, {rounds} interleaved rounds:")
    for name, got in times.items():
        walls, cpus = [w for w, _ in got], [c for _, c in got]
        print(f"  {name:6}  wall best {min(walls):.2f} s median {statistics.median(walls):.2f} s, "
              f"cpu best {min(cpus):.2f} s median {statistics.median(cpus):.2f} s")
    print(f"  import/audit: {fmt(ratio(times['import'], times['audit']))}")


def synthetic(path: Path, rows: int) -> None:
    """An archive of `rows` made-up games, written straight into its tables."""
    from corr.archive import db

    rng = random.Random(7)
    conn = db.connect(path, create=True)
    players = [f"Player {i}" for i in range(1000)]
    kinds = ["combat", "moyo", "cards", "domino", "war"]
    found = ["ruling", "challenge-upheld", "challenge-rejected", "timeout", "vacation", "void"]
    conn.execute("BEGIN")
    for i in range(rows):
        gid = f"g-{i:08x}"
        seats = rng.sample(players, rng.randint(2, 4))
        over = rng.random() < 0.9
        winner = "ABCD"[rng.randrange(len(seats))]
        day = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        conn.execute("INSERT INTO games VALUES (?, ?, '{}', ?, ?, ?, ?, ?, ?, '{}', NULL, 'synthetic', x'')",
                     (gid, rng.choice(kinds), f"{day}T10:00:00Z", f"{day}T18:00:00Z", rng.randint(10, 90),
                      f"{i:064x}", int(over), json.dumps([winner] if over else [])))
        for k, name in enumerate(seats):
            seat = "ABCD"[k]
            result = "open" if not over else ("won" if seat == winner else "lost")
            conn.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, 0)", (gid, seat, name, name.casefold(), result))
        if rng.random() < 0.1:
            conn.execute("INSERT INTO findings VALUES (?, 3, ?, 'made up')", (gid, rng.choice(found)))
    conn.execute("COMMIT")
    conn.close()


def search_times(path: Path) -> None:
    from corr.archive import db
    from corr.archive.query import Query, games

    rows = sqlite3.connect(path).execute("SELECT count(*) FROM games").fetchone()[0]
    print(f"search over {rows:,} games (best of 5):")
    searches = {
        "--player 'player 17' --result won": Query(player="player 17", result="won"),
        "--game war --since 2025-06-01 --until 2025-06-30": Query(game="war", since="2025-06-01", until="2025-06-30"),
        "--finding ruling": Query(finding="ruling"),
    }
    for label, query in searches.items():
        best, n = float("inf"), 0
        for _ in range(5):
            conn = db.connect(path)
            start = time.perf_counter()
            n = len(games(conn, query))
            best = min(best, time.perf_counter() - start)
            conn.close()
        print(f"  {label}: {n} games in {best * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=10_000)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="200 logs, 10,000 rows, 2 rounds")
    args = parser.parse_args()
    if args.quick:
        args.logs, args.rows, args.rounds = 200, 10_000, 2
    with tempfile.TemporaryDirectory(prefix="corr-bench-archive-") as tmp:
        folder = Path(tmp)
        (folder / "logs").mkdir()
        files, records = make_games(args.logs, folder / "logs")
        print(f"{len(files)} random Combat logs, {records:,} records")
        import_vs_audit(files, folder, args.rounds)
        synthetic(folder / "synthetic.sqlite", args.rows)
        search_times(folder / "synthetic.sqlite")


if __name__ == "__main__":
    main()
