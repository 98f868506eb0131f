"""Timing shared by the benchmarks: the runs they compare interleaved, CPU time beside
wall time, and each ratio as its median with the spread over the rounds.

Why: best-of wall time, one side timed after the other, measures the machine's load as
much as the code (on a busy 2-core machine an audit read 33-326x its floor where its
CPU time was 6-39x). Interleaving puts the same load on both sides of a ratio, CPU
time leaves out the time spent waiting for a core, and the spread shows how far one
round's ratio can be trusted.
"""

from __future__ import annotations

import resource
import statistics
import time
from typing import Callable, Mapping, NamedTuple

#: (wall, CPU) seconds of one run
Sample = tuple[float, float]


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes: the CPU clock of a
    benchmark whose runs are subprocesses."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def interleaved(
    cases: Mapping[str, Callable[[], object]],
    rounds: int,
    *,
    prepare: Callable[[str], object] | None = None,
    wall: Callable[[], float] = time.perf_counter,
    cpu: Callable[[], float] = time.process_time,
) -> dict[str, list[Sample]]:
    """(wall, CPU) seconds of every case in every round. The cases run in the given order
    in even rounds and in reverse order in odd ones, so neither side of a ratio always
    runs first (warm caches) or always last. `prepare(name)` runs untimed before each
    case; `cpu` is time.process_time for work in this process, children_cpu for
    subprocesses."""
    times: dict[str, list[Sample]] = {name: [] for name in cases}
    names = list(cases)
    for r in range(rounds):
        for name in names if r % 2 == 0 else reversed(names):
            if prepare is not None:
                prepare(name)
            w0, c0 = wall(), cpu()
            cases[name]()
            c1, w1 = cpu(), wall()
            times[name].append((w1 - w0, c1 - c0))
    return times


class Spread(NamedTuple):
    """A ratio's median and its lowest and highest value over the rounds."""

    median: float
    low: float
    high: float


class Ratio(NamedTuple):
    wall: Spread
    cpu: Spread


def spread(values: list[float]) -> Spread:
    return Spread(statistics.median(values), min(values), max(values))


def per(samples: list[Sample], n: float) -> list[Sample]:
    """Samples per unit of work (a record, a position): for ratios between runs that do
    different amounts of it."""
    return [(w / n, c / n) for w, c in samples]


def ratio(a: list[Sample], b: list[Sample]) -> Ratio:
    """a / b round by round (a's first run over b's first run, ...), wall and CPU."""
    if len(a) != len(b) or not a:
        raise ValueError(f"ratio of {len(a)} rounds to {len(b)}")
    return Ratio(
        spread([aw / bw if bw else float("inf") for (aw, _), (bw, _) in zip(a, b)]),
        spread([ac / bc if bc else float("inf") for (_, ac), (_, bc) in zip(a, b)]),
    )


def median(samples: list[Sample]) -> Sample:
    """The median wall and the median CPU time of some runs."""
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def fmt(r: Ratio, aim: float | None = None) -> str:
    """'6.93x CPU (6.51-7.20), 7.41x wall (6.80-9.02)', with the verdict on an aim (held
    by the CPU median: the wall time depends on what else the machine runs)."""
    text = (
        f"{r.cpu.median:.2f}x CPU ({r.cpu.low:.2f}-{r.cpu.high:.2f}), "
        f"{r.wall.median:.2f}x wall ({r.wall.low:.2f}-{r.wall.high:.2f})"
    )
    if aim is not None:
        text += f"  (aim <= {aim:g}x: {'ok' if r.cpu.median <= aim else 'MISSED'})"
    return text


class Figure(NamedTuple):
    """One line of a benchmark's verdict: what was timed, beside its reference, the
    ratio between them and the aim it is held to (by its CPU median)."""

    name: str
    measured: str  # "17.3 us a record"
    reference: str  # "floor: 3.2 us a record"
    ratio: Ratio
    aim: float

    @property
    def met(self) -> bool:
        return self.ratio.cpu.median <= self.aim


def table(figures: list[Figure]) -> str:
    """The figures as a table, one line each: name, measured, reference, the CPU ratio
    with its spread, the aim and whether it is met."""
    rows = [("figure", "measured", "reference", "ratio (min-max)", "aim", "")]
    for f in figures:
        c = f.ratio.cpu
        rows.append((f.name, f.measured, f.reference, f"{c.median:.2f}x ({c.low:.2f}-{c.high:.2f})",
                     f"<= {f.aim:g}x", "ok" if f.met else "MISSED"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)
