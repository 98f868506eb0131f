"""Benchmarks of corr: audit throughput and `corr move`/`corr show` start-up, each beside a yardstick.

Run:  python benchmarks/bench.py [--games N] [--quick] [--profile] [--runs N] [--no-others]

1. Audit throughput (records/s) of `corr.audit.audit(path)` over N complete random
   Combat games (2, 3 and 4 players; conquest=claim and auto), written to a temp dir
   first (generation is not timed). Beside it:
     floor  - only reading the same files, splitting lines, json.loads and SHA-256 of
              every line: what any audit of these files must at least do;
     chess  - python-chess reading PGN games (`chess.pgn.read_game`) and pushing every
              mainline move on a board, in moves/s (skipped if python-chess is missing).
2. `corr move` and `corr show` on a finished-length game (a long random game minus its
   last move, copied fresh for every run) beside `python -c "import typer, pydantic,
   jinja2"`: wall and CPU time of each, run in turn, with bytecode cached as in an
   installed wheel; plus the top `python -X importtime` offenders of `corr move`.

3. The verdict: every figure the project holds itself to, each beside its reference and
   its aim, in one table: the audit of every game over its floor (aims 3x, Domino 5x;
   beside each, two of its parts over the same floor: reading the lines, checked and
   chained, and the replay of the logs read, every move judged and its position hashed),
   and what the other benchmarks measure (`figures()` of bench_status, bench_war,
   bench_solver, bench_scale and bench_host: `corr status` over 1,000 games, War's legal
   moves against python-chess, the solver against C dancing links, an audit with void
   rulings and an audit's peak memory, a host pass with 100 replies); `--no-others`
   leaves theirs out.

Every comparison runs its sides interleaved (benchmarks/harness.py: the order reversed
every other round), timing wall and CPU time (time.process_time in this process, the
children's rusage for subprocesses); each ratio prints as its median over the rounds
with the lowest and highest round, CPU first. `--quick` is a small smoke run.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from functools import partial
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Figure, Sample, children_cpu, fmt, interleaved, median, per, ratio, table  # noqa: E402

PLAYERS = ["Anna", "Ben", "Cleo", "Dara"]
CONQUEST = ("claim", "auto")
CHESS_GAMES = 40  # PGN games for the python-chess yardstick


# --- setup (not timed) ---------------------------------------------------------------
def game_params(i: int) -> tuple[int, str]:
    """Seats and conquest option of game i: every combination, evenly mixed."""
    return 2 + i % 3, CONQUEST[(i // 3) % 2]


def _write_game(args: tuple[int, str]) -> tuple[str, int]:
    i, folder = args
    from corr import randomplay
    from corr.log import store

    seats, conquest = game_params(i)
    rep = randomplay.play("combat", PLAYERS[:seats], {"conquest": conquest}, seed=i)
    path = Path(folder) / f"g{i:05d}.corr"
    path.write_bytes(store.text(rep.log))
    return str(path), len(rep.log.records)


def make_games(n: int, folder: Path) -> tuple[list[Path], int]:
    """Write n random Combat games; returns the files and the total record count."""
    jobs = [(i, str(folder)) for i in range(n)]
    workers = min(os.cpu_count() or 1, 8)
    if workers > 1 and n >= 40:
        with ProcessPoolExecutor(workers) as pool:
            made = list(pool.map(_write_game, jobs, chunksize=16))
    else:
        made = [_write_game(j) for j in jobs]
    return [Path(p) for p, _ in made], sum(k for _, k in made)


def kept_games(n: int, folder: Path) -> tuple[list[Path], int]:
    """Like make_games, but reuses the games already in `folder` (made by an earlier run)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / f"g{i:05d}.corr" for i in range(n)]
    if not all(p.exists() for p in files) or run_audits(files[:1] + files[-1:]):
        # missing, or made by a corr whose state hashes differ from this one's
        return make_games(n, folder)
    return files, sum(p.read_bytes().count(b"\n") - 1 for p in files)


def make_pgns(n: int, seed: int = 1) -> list[str]:
    """n random legal chess games as PGN text (up to 160 plies each)."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    pgns = []
    for g in range(n):
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 160:
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers.update(
            Event="corr bench", Site="?", Date="2024.01.01", Round=str(g + 1), White="Random A", Black="Random B"
        )
        pgns.append(str(game) + "\n")
    return pgns


# --- timed work ----------------------------------------------------------------------
def time_audit_and_floor(files: list[Path], rounds: int, pgns: list[str] | None) -> dict[str, list[Sample]]:
    """(wall, CPU) of auditing all files, of their floor and (given PGN games) of
    python-chess reading them, interleaved over `rounds`."""
    cases = {"audit": lambda: run_audits(files), "floor": lambda: run_floor(files)}
    if pgns is not None:
        cases["chess"] = lambda: run_chess(pgns)
    return interleaved(cases, rounds)


def run_audits(files: list[Path]) -> int:
    from corr.audit import audit

    bad = 0
    for path in files:
        if not audit(path)["intact"]:
            bad += 1
    return bad


def run_reads(files: list[Path]) -> list:  # type: ignore[type-arg]
    """Each file read as an audit reads it: every line checked and chained, no move judged."""
    from corr.engine import dealer
    from corr.log import store

    return [dealer.attach(store.read(path, reader=store.CHECKED, raw=False)) for path in files]


def run_replays(logs: list) -> None:  # type: ignore[type-arg]
    """Each log read replayed as an audit replays it: every move judged by the rules and
    the position after it hashed, without the audit's findings."""
    from corr.engine.position import Position
    from corr.engine.replay import replay

    for log in logs:
        replay(log, cls=Position)


def run_floor(files: list[Path]) -> int:
    sha256, loads = hashlib.sha256, json.loads
    n = 0
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        for line in data.split(b"\n"):
            if line:
                loads(line)
                sha256(line).hexdigest()
                n += 1
    return n


#: The aim of an audit's CPU time over its floor's: Domino's deal is dealt again and
#: checked on every load.
AUDIT_AIM = {"domino": 5.0}
AUDIT_AIM_DEFAULT = 3.0
#: The benchmarks whose verdicts (`figures(quick)`) close this one's, in the order printed.
OTHERS = ("bench_status", "bench_war", "bench_solver", "bench_scale", "bench_host")

#: Every game, with the options its random complete games are played with. A Domino
#: game's seed is this one with the game's number after it: each game is dealt its own,
#: as in a real folder.
EVERY_GAME = {
    "combat": ({}, 2),
    "moyo": ({"puzzle": "1"}, 2),
    "cards": ({}, 3),
    "domino": ({"seed": "5eed"}, 1),
    "war": ({}, 2),
}


def every_game_ratios(n: int, folder: Path, rounds: int) -> list[tuple[str, int, dict[str, list[Sample]]]]:
    """(game, records, {"audit"/"floor"/"read"/"replay": (wall, CPU) per round}) over n
    random complete games of each game, interleaved: the audit, its floor, and two of
    the audit's parts, reading the files (`run_reads`) and replaying the logs read
    (`run_replays`), which tell where an audit's time goes."""
    from corr import randomplay
    from corr.log import store

    rows = []
    for game, (options, seats) in EVERY_GAME.items():
        files = []
        for i in range(n):
            dealt = {key: f"{value}-{i}" if key == "seed" else value for key, value in options.items()}
            rep = randomplay.play(game, PLAYERS[:seats], dealt, seed=i)
            path = folder / f"{game}-{i:03d}.corr"
            path.write_bytes(store.text(rep.log))  # complete: a hidden game ends in its reveal
            files.append(path)
        bad = run_audits(files)  # also warms the game's imports and caches
        if bad:
            print(f"WARNING: {bad} {game} games did not audit as intact")
        records = run_floor(files)
        logs = run_reads(files)
        times = interleaved({"audit": lambda: run_audits(files), "floor": lambda: run_floor(files),
                             "read": lambda: run_reads(files), "replay": lambda: run_replays(logs)}, rounds)
        rows.append((game, records, times))
    return rows


def run_chess(pgns: list[str]) -> int:
    import chess.pgn

    moves = 0
    for text in pgns:
        game = chess.pgn.read_game(io.StringIO(text))
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            moves += 1
    return moves


# --- `corr move` start-up --------------------------------------------------------------
def corr_exe() -> str:
    here = Path(sys.executable).parent / "corr"
    return str(here) if here.exists() else (shutil.which("corr") or "corr")


def finished_length_game(folder: Path, files: list[Path]) -> tuple[Path, str]:
    """The longest generated game minus its last record; returns (file, that move)."""
    longest = max(files, key=lambda p: p.stat().st_size)
    lines = longest.read_bytes().split(b"\n")[:-1]
    last = json.loads(lines[-1])
    if last.get("type") != "move":
        raise SystemExit(f"{longest}: last record is not a move")
    base = folder / "move-base.corr"
    base.write_bytes(b"\n".join(lines[:-1]) + b"\n")
    return base, last["move"]


def subprocess_env(folder: Path, as_is: bool) -> dict[str, str]:
    """The environment of the timed commands. Unless `as_is`, bytecode is cached in a
    private PYTHONPYCACHEPREFIX (so corr's own modules, which an editable install may
    never have compiled, are not recompiled on every run: an installed wheel has .pyc)."""
    env = dict(os.environ)
    # the corr of this checkout, whatever the venv's editable install points at
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    if not as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def run_timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of argv; CPU is user + system of the child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def time_commands(commands: dict[str, list[str]], runs: int, prepare, env) -> dict[str, list[Sample]]:  # type: ignore[no-untyped-def]
    """(wall, CPU) seconds of each command in each of `runs` interleaved rounds (CPU:
    user + system of the child); prepare() runs untimed before each command."""
    cases = {name: partial(run_timed, argv, env) for name, argv in commands.items()}
    return interleaved(cases, runs, prepare=lambda name: prepare(), cpu=children_cpu)


def importtime(argv: list[str], top: int, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """(cumulative us, self us, module) of the slowest imports: top-level ones by
    cumulative time, and single modules by self time."""
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cum_us, mod = line[len("import time:") :].split("|")
        depth = (len(mod) - len(mod.lstrip())) // 2
        rows.append((int(cum_us), int(self_us), depth, mod.strip()))
    tops = sorted((r for r in rows if r[2] == 0), reverse=True)[:top]
    selfs = sorted(rows, key=lambda r: r[1], reverse=True)[:top]
    return [(c, s, m) for c, s, _, m in tops], [(c, s, m) for c, s, _, m in selfs]


# --- main ------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=None, help="Combat games to audit (default 1000; --quick 50)")
    ap.add_argument("--quick", action="store_true", help="small smoke run")
    ap.add_argument("--runs", type=int, default=None, help="subprocess runs per command (default 10; --quick 3)")
    ap.add_argument("--profile", action="store_true", help="also cProfile auditing (up to) 200 of the games")
    ap.add_argument("--no-startup", action="store_true", help="skip the `corr move` start-up part")
    ap.add_argument("--no-others", action="store_true",
                    help=f"leave the other benchmarks' figures out of the verdict ({', '.join(OTHERS)})")
    ap.add_argument("--env-as-is", action="store_true", help="time subprocesses in this environment unchanged")
    ap.add_argument("--dir", type=Path, default=None, help="keep the games here and reuse them on later runs")
    args = ap.parse_args(argv)
    n_games = args.games or (50 if args.quick else 1000)
    runs = args.runs or (3 if args.quick else 10)
    rounds = 3 if args.quick else 5

    with tempfile.TemporaryDirectory(prefix="corr-bench-") as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        if args.dir is not None:
            files, records = kept_games(n_games, args.dir)
        else:
            files, records = make_games(n_games, folder)
        lines = records + len(files)
        print(
            f"setup: {len(files)} Combat games, {records} records "
            f"({records / len(files):.1f}/game), generated in {time.perf_counter() - t0:.1f}s (not timed)"
        )

        bad = run_audits(files)  # also warms imports and caches
        if bad:
            print(f"WARNING: {bad} generated games did not audit as intact")
        try:
            import chess.pgn  # noqa: F401
        except ImportError:
            pgns = None
        else:
            pgns = make_pgns(CHESS_GAMES)
            run_chess(pgns[:2])
        times = time_audit_and_floor(files, rounds, pgns)
        audit_cpu, floor_cpu = median(times["audit"])[1], median(times["floor"])[1]
        print()
        print(f"audit throughput ({rounds} interleaved rounds){'':<8}{'CPU s':>9}{'rate (CPU)':>18}")
        print(f"{'corr.audit.audit':<44}{audit_cpu:>9.3f}{records / audit_cpu:>14,.0f} rec/s")
        print(f"{'floor: read+split+json.loads+sha256':<44}{floor_cpu:>9.3f}{records / floor_cpu:>14,.0f} rec/s")
        print(f"{'':<44}{'':>9}{lines / floor_cpu:>14,.0f} lines/s")
        if pgns is None:
            print("python-chess not installed")
        else:
            moves = run_chess(pgns)
            chess_cpu = median(times["chess"])[1]
            print(f"{'python-chess: read_game + push (%d games)' % len(pgns):<44}{chess_cpu:>9.3f}"
                  f"{moves / chess_cpu:>14,.0f} moves/s")
        print(f"audit/floor = {fmt(ratio(times['audit'], times['floor']), aim=AUDIT_AIM_DEFAULT)}")
        if pgns is not None:
            # time per record over time per chess move
            print(f"audit/chess = {fmt(ratio(per(times['audit'], records), per(times['chess'], moves)))}"
                  f"  (time per record / time per chess move)")

        n_each = 10 if args.quick else 50
        print()
        print(f"audit of every game ({n_each} random complete games each, {rounds} interleaved rounds; "
              f"per record: median CPU)")
        print(f"{'game':<8}{'records':>8}{'audit/rec':>11}{'floor/rec':>11}   audit/floor")
        verdict: list[Figure] = []
        for game, recs, got in every_game_ratios(n_each, folder, rounds):
            a_cpu, f_cpu = median(got["audit"])[1], median(got["floor"])[1]
            aim = AUDIT_AIM.get(game, AUDIT_AIM_DEFAULT)
            print(f"{game:<8}{recs:>8}{a_cpu / recs * 1e6:>9.1f}us{f_cpu / recs * 1e6:>9.1f}us   "
                  f"{fmt(ratio(got['audit'], got['floor']), aim=aim)}")
            print(f"{'':<29}of it, reading the lines   {fmt(ratio(got['read'], got['floor']))}")
            print(f"{'':<29}and the rules' replay      {fmt(ratio(got['replay'], got['floor']))}")
            verdict.append(Figure(f"{game} audit", f"{a_cpu / recs * 1e6:.1f} us a record",
                                  f"floor: {f_cpu / recs * 1e6:.1f} us", ratio(got["audit"], got["floor"]), aim))

        if args.profile:
            import cProfile
            import pstats

            sample = files[:200]
            prof = cProfile.Profile()
            prof.enable()
            run_audits(sample)
            prof.disable()
            print(f"\ncProfile of auditing {len(sample)} games (top 25 by tottime):")
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)

        if not args.no_others:
            for name in OTHERS:
                print(f"\n{name}.py ...", flush=True)
                verdict += __import__(name).figures(quick=args.quick)
        print("\nThe verdict: each figure beside its reference and its aim (times: CPU medians over interleaved "
              "rounds; memory: the peak resident set of each process)")
        print(table(verdict))

        if args.no_startup:
            return 0

        base, move = finished_length_game(folder, files)
        work = folder / "move-run.corr"
        after = folder / "move-after.corr"  # the log with the move made: what `show` shows
        corr_cmd = [corr_exe(), "move", str(work), move, "--format", "text"]
        bare_cmd = [sys.executable, "-c", "import typer, pydantic, jinja2"]
        prep = lambda: shutil.copyfile(base, work)  # noqa: E731
        env = subprocess_env(folder, args.env_as_is)
        for _ in range(2):  # warm the OS caches (and compile the bytecode cache)
            prep()
            subprocess.run(corr_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            subprocess.run(bare_cmd, env=env)
        shutil.copyfile(work, after)
        show_cmd = [corr_exe(), "show", str(after), "--format", "text"]
        times = time_commands({"move": corr_cmd, "show": show_cmd, "bare": bare_cmd}, runs, prep, env)
        nrec = base.read_bytes().count(b"\n") - 1
        print()
        print(f"{'start-up (%d interleaved rounds)' % runs:<52}{'best ms':>9}{'median ms':>11}{'CPU ms':>9}")
        labels = {
            "move": f"corr move ({nrec}-record log) --format text",
            "show": f"corr show ({nrec + 1}-record log) --format text",
            "bare": "python -c import typer, pydantic, jinja2",
        }
        for name, label in labels.items():
            wall, cpu = median(times[name])
            best = min(w for w, _ in times[name])
            print(f"{label:<52}{best * 1e3:>9.1f}{wall * 1e3:>11.1f}{cpu * 1e3:>9.1f}")
        for name in ("move", "show"):
            print(f"corr {name} / bare import = {fmt(ratio(times[name], times['bare']), aim=1)}")
        if not args.env_as_is:
            print("(bytecode cached in a private PYTHONPYCACHEPREFIX, as in an installed wheel; --env-as-is to not)")

        prep()
        tops, selfs = importtime([sys.executable, "-X", "importtime", corr_exe(), "move", str(work), move], 12, env)
        print("\n-X importtime of corr move, top-level imports by cumulative ms:")
        for cum, _, mod in tops:
            print(f"  {cum / 1e3:>7.1f}  {mod}")
        print("slowest single modules by self ms:")
        for cum, own, mod in selfs:
            print(f"  {own / 1e3:>7.1f}  {mod}  (cumulative {cum / 1e3:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
