"""How audit cost grows with a log's length - untimed, timed, and with void rulings,
each beside the floor - and what an audit's memory peaks at beside the floor's.

Run:  python benchmarks/bench_scale.py [--lengths 100,1000,10000,100000] [--rounds 5]
                                       [--memory 100000] [--quick]

The logs are Sudoku War games in which both sides move a Knight back and forth (a game
that never ends, so any length can be had), written three ways with the same moves:
without time control; with `per-move:3` (every move judged against its clock); and
with a referee who voids every tenth record's move before it and lets play go on.
For each length every audit runs beside the floor of the same file, in interleaved
rounds (benchmarks/harness.py), CPU and wall time; each ratio is printed as its median
over the rounds with the lowest and highest round in brackets:

  KIND / floor         the floor reads, splits, JSON-parses and SHA-256-hashes every
                       line: what any audit of the same file must at least do
  timed / untimed      the clocks' cost, per record
  Ed25519              the time that checking the rulings' signatures alone takes,
                       against the same floor: every ruling is signed, and the check
                       costs the same whatever a ruling decides

A ratio that stays flat as the length grows by 10x means the cost grows linearly.

Memory: `corr audit` of the untimed log of `--memory` records and the floor, each run
as its own process, a few times in turn; the peak is each process's ru_maxrss (its
resident set at its largest, interpreter and imports included, as the operating
system counts it: what running the command costs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import Figure, Ratio, fmt, interleaved, median, per, ratio, spread  # noqa: E402

#: White's and Black's Knight moves, back and forth
SHUFFLE = ["N (8,7)-(7,3)", "N (2,1)-(1,9)", "N (7,3)-(8,7)", "N (1,9)-(2,1)"]
#: The records repeat with this period but for seq, time, chain and signature: the
#: Knights' four moves, and a void every tenth record that takes one of them back.
PERIOD = 40
START = datetime(2026, 1, 1, tzinfo=timezone.utc)
#: The floor as a process of its own, for the memory comparison.
FLOOR = ("import hashlib, json, sys\n"
         "for line in open(sys.argv[1], 'rb').read().split(b'\\n'):\n"
         "    if line:\n"
         "        json.loads(line)\n"
         "        hashlib.sha256(line).hexdigest()\n")


def played_log(records: int, timed: bool, voids: bool, keydir: Path):  # type: ignore[no-untyped-def]
    """A War log of `records` records, an hour apart, each made by the engine as `corr
    move` and `corr referee rule` make them (a ruling made live rebuilds the position
    from the start: quadratic in the length, so only the first PERIOD are made so)."""
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
    hours = [START]
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
    return rep.log


def write_log(path: Path, records: int, timed: bool, voids: bool, keydir: Path) -> None:
    """The log `played_log` would make, written once: its first PERIOD records made by
    the engine, the others copied from them (`extended`)."""
    path.write_bytes(extended(played_log(min(records, PERIOD), timed, voids, keydir), records, keydir))


def extended(log, records: int, keydir: Path) -> bytes:  # type: ignore[no-untyped-def]
    """The bytes of `log` (its first PERIOD records made by the engine) grown to
    `records` records, each copied from the one PERIOD before it with its own seq,
    time, chain and signature; `check_writer` holds them to what the engine makes."""
    from corr.identity import load_private, sign
    from corr.log import lines, store

    referee = load_private(keydir / "rita.key") if (keydir / "rita.key").exists() else None
    out = [log.header_raw, *log.raw[:PERIOD]]
    prev = store.line_hash(out[-1])
    for seq in range(len(out), records + 1):
        record = log.records[(seq - 1) % PERIOD]._replace(
            seq=seq, at=(START + timedelta(hours=seq)).strftime("%Y-%m-%dT%H:%M:%SZ"), prev=prev, sig=None)
        if record.type == "ruling":
            record = sign(referee, log.header.id, record._replace(target=seq - 1))
        raw = lines.dump(record)
        out.append(raw)
        prev = store.line_hash(raw)
    return b"".join(raw + b"\n" for raw in out)


def check_writer(keydir: Path) -> None:
    """The copied records are the ones the engine makes: the same bytes both ways."""
    from corr.log import store

    n = 2 * PERIOD + 7
    for timed, voids in ((False, False), (True, False), (False, True)):
        made = played_log(n, timed, voids, keydir)
        assert extended(made, n, keydir) == store.text(made), f"copied records differ (timed={timed}, voids={voids})"


def floor(path: Path) -> None:
    for line in path.read_bytes().split(b"\n"):
        if line:
            json.loads(line)
            hashlib.sha256(line).hexdigest()


def signatures(path: Path) -> float:
    """The CPU time to check the signatures of a log's signed records (the referee's
    rulings) alone: what any audit of the log must spend on them, voids or not."""
    from corr.engine.keys import official_keys
    from corr.identity import verify
    from corr.log import store

    log = store.read(path)
    keys = official_keys(log.header)
    signed = [(keys[r.by], r) for r in log.records if r.sig is not None and r.by in keys]
    start = time.process_time()
    for key, record in signed:
        verify(key, log.header.id, record)
    return time.process_time() - start


#: Runs each command it is sent (a JSON argv a line) as its own process and answers
#: with the process's peak resident memory in KiB (ru_maxrss), or its exit code when it
#: failed. On Linux a process's ru_maxrss counts the memory of the process it was
#: started from (at exec, the forked copy's high-water mark is kept), so every
#: measured process is started from this small one, started before the benchmark
#: has imported or read anything.
SPAWNER = """
import json, os, subprocess, sys
for line in sys.stdin:
    proc = subprocess.Popen(json.loads(line), stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps(usage.ru_maxrss if code == 0 else -1), flush=True)
"""


class Spawner:
    """A small process that starts the processes whose memory is measured."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", SPAWNER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def peak(self, argv: list[str]) -> float:
        """The peak resident memory of a process running `argv`, MiB."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(argv) + "\n")
        self.proc.stdin.flush()
        kib = json.loads(self.proc.stdout.readline())
        if kib < 0:
            raise SystemExit(f"{' '.join(argv[:4])} failed")
        return kib / 1024

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def memory(spawner: Spawner, path: Path, rounds: int) -> tuple[list[float], list[float]]:
    """Peak MiB of `corr audit PATH` and of the floor on PATH, each its own process,
    in turn (the order swapped every round)."""
    runs = {"audit": [sys.executable, "-m", "corr", "audit", str(path)],
            "floor": [sys.executable, "-c", FLOOR, str(path)]}
    peaks: dict[str, list[float]] = {"audit": [], "floor": []}
    for r in range(rounds):
        for name in ("audit", "floor") if r % 2 == 0 else ("floor", "audit"):
            peaks[name].append(spawner.peak(runs[name]))
    return peaks["audit"], peaks["floor"]


#: The aims: an audit with a void ruling every tenth record within this many times its
#: floor's CPU time, and an audit's peak memory within this many times the floor's.
VOIDS_AIM = 5.0
MEMORY_AIM = 1.5


def figures(quick: bool = False) -> list[Figure]:
    """The verdict `benchmarks/bench.py` prints: the audit of a log with void rulings
    over its floor's CPU time, and an audit's peak memory over the floor's."""
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    n, big, rounds = (1_000, 10_000, 3) if quick else (10_000, 100_000, 5)
    spawner = Spawner()
    from corr.audit import audit

    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            subprocess.run([sys.executable, "-m", "corr", "key", "new", "--out", str(folder / "rita")], check=True,
                           capture_output=True)
            voids = folder / "voids.corr"
            write_log(voids, n, False, True, folder)
            times = interleaved({"voids": lambda: audit(voids), "floor": lambda: floor(voids)}, rounds)
            lean = folder / "memory.corr"
            write_log(lean, big, False, False, folder)
            audits, floors = memory(spawner, lean, rounds)
    finally:
        spawner.close()
    r = spread([a / f for a, f in zip(audits, floors)])
    a_cpu, f_cpu = median(times["voids"])[1], median(times["floor"])[1]
    return [
        Figure(f"audit, a void every 10th of {n:,} records", f"{a_cpu / n * 1e6:.1f} us a record",
               f"floor: {f_cpu / n * 1e6:.1f} us", ratio(times["voids"], times["floor"]), VOIDS_AIM),
        Figure(f"audit peak memory, {big:,} records", f"{spread(audits).median:.1f} MiB",
               f"floor: {spread(floors).median:.1f} MiB", Ratio(r, r), MEMORY_AIM),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="100,1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--memory", type=int, default=100_000, help="records of the log the memory is measured on "
                        "(0: not measured)")
    parser.add_argument("--quick", action="store_true", help="lengths 100 and 1000, three rounds")
    args = parser.parse_args()
    # the measured `python -m corr` is this checkout's
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    lengths = [100, 1000] if args.quick else [int(n) for n in args.lengths.split(",")]
    rounds = 3 if args.quick else args.rounds
    records_for_memory = args.memory
    spawner = Spawner()  # first, while this process is small

    from corr.audit import audit

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, "-m", "corr", "key", "new", "--out", str(folder / "rita")], check=True,
                       capture_output=True)
        check_writer(folder)
        print(f"CPU and wall time against the floor of the same file, median of {rounds} interleaved rounds "
              "(lowest-highest round)")
        for n in lengths:
            paths = {kind: folder / f"{kind}-{n}.corr" for kind in ("untimed", "timed", "voids")}
            for kind, path in paths.items():
                write_log(path, n, kind == "timed", kind == "voids", folder)
                report = audit(path)
                assert report["intact"] and report["records"] == n, (kind, report["findings"][:2])
            cases = {}
            for kind, path in paths.items():
                cases[kind] = lambda p=path: audit(p)
                cases[f"floor {kind}"] = lambda p=path: floor(p)
            times = interleaved(cases, rounds)
            sigs = [signatures(paths["voids"]) for _ in range(rounds)]
            print(f"{n:>8,} records")
            for kind in paths:
                aim = VOIDS_AIM if kind == "voids" else None
                print(f"  {kind:<8} {fmt(ratio(times[kind], times[f'floor {kind}']), aim)}")
            floor_cpu = [c for _, c in times["floor voids"]]
            share = spread([s / f for s, f in zip(sigs, floor_cpu)])
            rest = spread([(a - s) / f for (_, a), s, f in zip(times["voids"], sigs, floor_cpu)])
            print(f"           of it Ed25519 alone {share.median:.2f}x the floor's CPU time "
                  f"({share.low:.2f}-{share.high:.2f}), the rest {rest.median:.2f}x ({rest.low:.2f}-{rest.high:.2f})")
            print(f"  timed / untimed  {fmt(ratio(per(times['timed'], n), per(times['untimed'], n)))}")
        if records_for_memory:
            path = folder / f"memory-{records_for_memory}.corr"
            write_log(path, records_for_memory, False, False, folder)
            audits, floors = memory(spawner, path, rounds)
            r = spread([a / f for a, f in zip(audits, floors)])
            size = path.stat().st_size / 2**20
            print(f"peak memory (ru_maxrss of each process), {records_for_memory:,} records ({size:.1f} MiB): "
                  f"corr audit {spread(audits).median:.1f} MiB, floor {spread(floors).median:.1f} MiB: "
                  f"{r.median:.2f}x ({r.low:.2f}-{r.high:.2f}) (aim <= {MEMORY_AIM:g}x: {'ok' if r.median <= MEMORY_AIM else 'MISSED'})")
    spawner.close()


if __name__ == "__main__":
    main()
