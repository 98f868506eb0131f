"""The benchmarks' shared timing (benchmarks/harness.py), on fake clocks: which run
comes when, and how a ratio's median and spread are computed. No timing is asserted.
And bench_scale's parts that decide what it measures: the logs it writes, and whose
memory its peak counts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import harness  # noqa: E402


class FakeClocks:
    """A wall and a CPU clock that only the cases advance."""

    def __init__(self) -> None:
        self.now_wall = 0.0
        self.now_cpu = 0.0
        self.ran: list[str] = []

    def case(self, name: str, wall: list[float], cpu: list[float]):  # type: ignore[no-untyped-def]
        """A case that, on its k-th run, takes wall[k] and cpu[k] seconds."""

        def run() -> None:
            k = self.ran.count(name)
            self.ran.append(name)
            self.now_wall += wall[k]
            self.now_cpu += cpu[k]

        return run


def test_interleaved_alternates_the_order_every_round() -> None:
    clocks = FakeClocks()
    cases = {n: clocks.case(n, [1.0] * 4, [1.0] * 4) for n in ("audit", "floor", "chess")}
    harness.interleaved(cases, 4, wall=lambda: clocks.now_wall, cpu=lambda: clocks.now_cpu)
    assert clocks.ran == ["audit", "floor", "chess", "chess", "floor", "audit"] * 2


def test_interleaved_prepares_each_case_untimed_before_it_runs() -> None:
    clocks = FakeClocks()
    prepared: list[str] = []

    def prepare(name: str) -> None:
        prepared.append(name)
        clocks.now_wall += 100.0  # not counted in the case's time
        clocks.now_cpu += 100.0

    cases = {n: clocks.case(n, [1.0, 2.0], [0.5, 0.25]) for n in ("a", "b")}
    times = harness.interleaved(cases, 2, prepare=prepare, wall=lambda: clocks.now_wall, cpu=lambda: clocks.now_cpu)
    assert prepared == ["a", "b", "b", "a"]
    assert times == {"a": [(1.0, 0.5), (2.0, 0.25)], "b": [(1.0, 0.5), (2.0, 0.25)]}


def test_interleaved_keeps_wall_and_cpu_time_of_each_run_apart() -> None:
    clocks = FakeClocks()
    cases = {
        "audit": clocks.case("audit", [9.0, 7.0, 8.0], [6.0, 7.0, 6.5]),
        "floor": clocks.case("floor", [1.0, 1.0, 2.0], [1.0, 1.0, 1.0]),
    }
    times = harness.interleaved(cases, 3, wall=lambda: clocks.now_wall, cpu=lambda: clocks.now_cpu)
    assert times["audit"] == [(9.0, 6.0), (7.0, 7.0), (8.0, 6.5)]
    assert times["floor"] == [(1.0, 1.0), (1.0, 1.0), (2.0, 1.0)]


def test_ratio_is_the_median_of_the_ratios_round_by_round_with_their_spread() -> None:
    audit = [(9.0, 6.0), (7.0, 7.0), (8.0, 6.5)]
    floor = [(1.0, 1.0), (1.0, 1.0), (2.0, 1.0)]
    r = harness.ratio(audit, floor)
    # wall ratios per round 9, 7, 4; CPU 6, 7, 6.5 - not the ratio of the medians (8 / 1)
    assert r.wall == harness.Spread(7.0, 4.0, 9.0)
    assert r.cpu == harness.Spread(6.5, 6.0, 7.0)


def test_ratio_per_unit_of_work_scales_both_sides() -> None:
    war = harness.per([(2.0, 1.0), (4.0, 2.0)], 100)  # 100 positions
    chess = harness.per([(1.0, 1.0), (1.0, 1.0)], 200)  # 200 positions
    r = harness.ratio(war, chess)
    assert r.wall == harness.Spread(6.0, 4.0, 8.0)
    assert r.cpu == harness.Spread(3.0, 2.0, 4.0)


def test_ratio_of_unequal_rounds_is_refused() -> None:
    with pytest.raises(ValueError):
        harness.ratio([(1.0, 1.0)], [(1.0, 1.0), (1.0, 1.0)])


def test_fmt_prints_cpu_and_wall_with_spreads_and_judges_the_aim_on_cpu() -> None:
    r = harness.Ratio(wall=harness.Spread(7.41, 6.8, 9.02), cpu=harness.Spread(2.93, 2.51, 3.2))
    assert harness.fmt(r) == "2.93x CPU (2.51-3.20), 7.41x wall (6.80-9.02)"
    assert harness.fmt(r, aim=3).endswith("(aim <= 3x: ok)")
    assert harness.fmt(r, aim=2.5).endswith("(aim <= 2.5x: MISSED)")


def test_median_of_samples_takes_wall_and_cpu_apart() -> None:
    assert harness.median([(3.0, 1.0), (1.0, 3.0), (2.0, 2.0)]) == (2.0, 2.0)


def test_a_figure_is_met_by_its_cpu_median_and_the_table_says_so() -> None:
    fast = harness.Figure("audit, Combat", "9.0 us a record", "floor: 3.0 us", harness.ratio([(4, 3)], [(1, 1)]), 3)
    slow = harness.Figure("audit, War", "30 us a record", "floor: 3.0 us", harness.ratio([(1, 4)], [(1, 1)]), 3)
    assert fast.met and not slow.met
    lines = harness.table([fast, slow]).splitlines()
    assert lines[0].split()[:3] == ["figure", "measured", "reference"]
    assert lines[1].startswith("audit, Combat") and "3.00x (3.00-3.00)" in lines[1] and lines[1].endswith("ok")
    assert "4.00x (4.00-4.00)" in lines[2] and lines[2].endswith("MISSED")


def test_bench_scale_copies_records_as_the_engine_makes_them(tmp_path: Path) -> None:
    """Past its first records a benchmark log is copied from them with its own seq, time,
    chain and signature: byte for byte the log the engine makes, voids and clocks too."""
    import subprocess

    import bench_scale

    key = subprocess.run([sys.executable, "-m", "corr", "key", "new", "--out", str(tmp_path / "rita")],
                         capture_output=True, text=True)
    assert key.returncode == 0, key.stderr
    bench_scale.check_writer(tmp_path)


def test_bench_scale_measures_a_process_s_memory_without_the_process_that_started_it() -> None:
    """Linux counts the memory of the process a child was started from in the child's
    ru_maxrss: the spawner, small, starts every measured process, so a bare interpreter
    reads as small however large the process asking is (pytest here)."""
    import bench_scale

    ballast = b"\x01" * (200 * 2**20)  # this process: 200 MiB more, every page written
    spawner = bench_scale.Spawner()
    try:
        bare = spawner.peak([sys.executable, "-c", "pass"])
        large = spawner.peak([sys.executable, "-c", "x = b'\\x01' * (100 * 2**20)"])
    finally:
        spawner.close()
    assert bare < 50 and 100 < large < 150, (bare, large)
    assert len(ballast) == 200 * 2**20
