"""How audit cost grows with a log's length: untimed, timed, and with void rulings, each
beside the floor, in one run.

Run:  python benchmarks/bench_scale.py [--lengths 100,1000,10000] [--quick]

The logs are Sudoku War games in which both sides move a Knight back and forth (a game
that never ends, so any length can be had), written three ways with the same moves:
without time control; with `per-move:3` (every move judged against its clock); and
with a referee who voids every tenth move's reply and lets play go on. For each length
the figures are the best of a few audits, per record, and the ratios:

  timed / untimed      the clocks' cost (the aim: at most 1.2x at any length)
  voids / untimed      void rulings' cost; `less sigs` leaves out the time that checking
                       the rulings' signatures takes alone (every ruling is signed, and
                       Ed25519 checks cost the same whatever a ruling decides)
  untimed / floor      the floor reads, splits, JSON-parses and SHA-256-hashes every
                       line: what any audit of the same file must at least do

A ratio that stays flat as the length grows by 10x means the cost grows linearly.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: White's and Black's Knight moves, back and forth
#: The longest log written with void rulings (see main).
VOIDS_UP_TO = 10_000
SHUFFLE = ["N (8,7)-(7,3)", "N (2,1)-(1,9)", "N (7,3)-(8,7)", "N (1,9)-(2,1)"]


def write_log(path: Path, records: int, timed: bool, voids: bool, keydir: Path) -> None:
    """A War log of `records` records, an hour apart, built in memory and written once."""
    from corr import clock, engine
    from corr.decisions import parse_decision
    from corr.identity import load_private
    from corr.notation import parse
    from corr.log import store

    officials = None
    if voids:
        officials = {"referee": ("Rita <rita@example.org>", (keydir / "rita.pub").read_text().strip())}
    referee = load_private(keydir / "rita.key") if voids else None
    # the log's clock, an hour a record (not freezegun: its patching costs more than the
    # records themselves, and 100,000 records would take half an hour to write)
    hours = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    real_now = clock.now
    clock.now = lambda: hours[0]  # type: ignore[assignment]
    frozen = SimpleNamespace(tick=lambda step: hours.__setitem__(0, hours[0] + step))
    try:
        header = engine.make_header("war", ["White", "Black"], {},
                                    time_control={"kind": "per-move", "days": 3} if timed else None,
                                    officials=officials)
        rep = engine.start(header)
        if referee is not None:
            rep.hold(referee)
        played = 0  # moves that stand
        while len(rep.log.records) < records:
            frozen.tick(timedelta(hours=1))
            if voids and len(rep.log.records) % 10 == 9:  # the newest move set aside
                rep.rule(rep.seq, parse_decision("void"), "the wrong Knight")
                played -= 1
                continue
            rep.add("move", move=parse(SHUFFLE[played % 4]))
            played += 1
    finally:
        clock.now = real_now  # type: ignore[assignment]
    path.write_bytes(store.text(rep.log))


def floor(path: Path) -> float:
    start = time.perf_counter()
    for line in path.read_bytes().split(b"\n"):
        if line:
            json.loads(line)
            hashlib.sha256(line).hexdigest()
    return time.perf_counter() - start


def signatures(path: Path) -> float:
    """The time to check the signatures of a log's signed records (the referee's rulings)
    alone: what any audit of the log must spend on them, voids or not."""
    from corr.engine.keys import official_keys
    from corr.identity import verify
    from corr.log import store

    log = store.read(path)
    keys = official_keys(log.header)
    signed = [(keys[r.by], r) for r in log.records if r.sig is not None and r.by in keys]
    start = time.perf_counter()
    for key, record in signed:
        verify(key, log.header.id, record)
    return time.perf_counter() - start


def best(repeats: int, run) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="100,1000,10000")
    parser.add_argument("--quick", action="store_true", help="lengths 100 and 1000, fewer repeats")
    args = parser.parse_args()
    lengths = [100, 1000] if args.quick else [int(n) for n in args.lengths.split(",")]
    repeats = 2 if args.quick else 3

    from corr.audit import audit

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, "-m", "corr", "key", "new", "--out", str(folder / "rita")], check=True,
                       capture_output=True)
        print(f"{'records':>8} {'untimed':>10} {'timed':>10} {'voids':>10} {'of it sigs':>10} {'floor':>10}   "
              f"{'timed/untimed':>13} {'voids/untimed':>13} {'less sigs':>10} {'untimed/floor':>13}")
        for n in lengths:
            paths = {}
            # Writing the voided log is the slow part, not auditing it: each ruling made on a
            # live replay rebuilds the position from the start (as one `corr referee rule`
            # does, once), so past VOIDS_UP_TO records the voids column is left out.
            kinds = ("untimed", "timed", "voids") if n <= VOIDS_UP_TO else ("untimed", "timed")
            for kind in kinds:
                paths[kind] = folder / f"{kind}-{n}.corr"
                write_log(paths[kind], n, kind == "timed", kind == "voids", folder)
            times = {kind: best(repeats, lambda p=p: audit(p)) for kind, p in paths.items()}
            for kind, p in paths.items():
                report = audit(p)
                assert report["intact"], (kind, report["findings"][:2])
            base = best(repeats, lambda: floor(paths["untimed"]))
            lines = {kind: len(p.read_bytes().splitlines()) - 1 for kind, p in paths.items()}
            per = {kind: times[kind] / lines[kind] * 1e6 for kind in times}
            if "voids" in paths:
                sigs = best(repeats, lambda: signatures(paths["voids"])) / lines["voids"] * 1e6
                voids = (f"{per['voids']:>8.1f}us {sigs:>8.1f}us", f"{per['voids'] / per['untimed']:>12.2f}x "
                         f"{(per['voids'] - sigs) / per['untimed']:>9.2f}x")
            else:
                voids = (f"{'-':>10} {'-':>10}", f"{'-':>13} {'-':>10}")
            print(f"{lines['untimed']:>8} {per['untimed']:>8.1f}us {per['timed']:>8.1f}us {voids[0]} "
                  f"{base / lines['untimed'] * 1e6:>8.1f}us   {per['timed'] / per['untimed']:>12.2f}x "
                  f"{voids[1]} {times['untimed'] / base:>12.2f}x")


if __name__ == "__main__":
    main()
