"""Sudoku War's legal-move generation beside python-chess's, in one run.

Run:  python benchmarks/bench_war.py [--games N] [--quick]

Positions come from N random War games (every position of each, the default setup)
and from N random chess games played with python-chess (every position of each, at
most 200 plies). Each side lists every legal move of every position, the two sides
interleaved over the rounds (benchmarks/harness.py); the median CPU time is reported as
positions/s and legal moves/s, and the ratio of War's time per position to chess's as
its median over the rounds (lowest-highest), CPU and wall. python-chess is the yardstick (`pip install
chess`, in the `bench` extra); without it only War's figures print.

The positions differ in kind - War has up to ~120 moves a position against chess's
~30 - so the ratio per legal move is printed too.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Figure, Sample, fmt, interleaved, median, per, ratio  # noqa: E402

#: War's time per position over python-chess's
AIM = 1.0


def war_positions(games: int) -> tuple[Any, list[Any]]:
    """The game and the state before every record of `games` random War games."""
    from corr import engine, randomplay

    states: list[Any] = []
    game = None
    for seed in range(games):
        rep = randomplay.play("war", ["White", "Black"], {}, seed=seed, max_records=2000)
        game = rep.game

        def keep(r: engine.Position) -> None:
            if not r.state.over:
                states.append(r.game.clone(r.state))

        engine.replay(rep.log, each=keep)
    return game, states


def chess_positions(games: int) -> list[Any]:
    import chess

    rng = random.Random(1)
    boards = []
    for _ in range(games):
        board = chess.Board()
        for _ply in range(200):
            moves = list(board.legal_moves)
            if not moves:
                break
            boards.append(board.copy(stack=False))
            board.push(rng.choice(moves))
    return boards


def measure(games: int, repeats: int) -> tuple[dict[str, list[Sample]], dict[str, tuple[int, int]]]:
    """Interleaved samples of listing every legal move of every position, War's and (when
    python-chess is installed) chess's, and (positions, moves) of each."""
    game, states = war_positions(games)
    legal = game.legal_moves
    war_count: Callable[[], int] = lambda: sum(len(legal(s)) for s in states)  # noqa: E731
    cases: dict[str, Callable[[], object]] = {"war": war_count}
    counts = {"war": (len(states), war_count())}
    try:
        import chess  # noqa: F401
    except ImportError:
        pass
    else:
        boards = chess_positions(games)
        chess_count: Callable[[], int] = lambda: sum(len(list(b.legal_moves)) for b in boards)  # noqa: E731
        cases["chess"] = chess_count
        counts["chess"] = (len(boards), chess_count())
    return interleaved(cases, repeats), counts


def figures(quick: bool = False) -> list[Figure]:
    """The verdict `benchmarks/bench.py` prints: War's legal moves per position over
    python-chess's (none without python-chess)."""
    games = 3 if quick else 20
    times, counts = measure(games, 2 if quick else 5)
    if "chess" not in times:
        return []
    (war_pos, _), (chess_pos, _) = counts["war"], counts["chess"]
    war_us, chess_us = median(times["war"])[1] / war_pos * 1e6, median(times["chess"])[1] / chess_pos * 1e6
    return [Figure("War legal moves a position", f"{war_us:.0f} us", f"python-chess: {chess_us:.0f} us",
                   ratio(per(times["war"], war_pos), per(times["chess"], chess_pos)), AIM)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    args = parser.parse_args()
    games = 3 if args.quick else args.games
    repeats = 2 if args.quick else 5
    times, counts = measure(games, repeats)
    (positions, war_moves), war_time = counts["war"], median(times["war"])[1]
    print(f"war:   {positions:>6} positions  {positions / war_time:>10,.0f} positions/s  "
          f"{war_moves / war_time:>11,.0f} moves/s  ({war_moves / positions:.1f} moves a position; median CPU "
          f"of {repeats} rounds)")
    if "chess" not in times:
        print("chess: python-chess is not installed (pip install chess): no yardstick")
        return
    (boards, chess_moves), chess_time = counts["chess"], median(times["chess"])[1]
    print(f"chess: {boards:>6} positions  {boards / chess_time:>10,.0f} positions/s  "
          f"{chess_moves / chess_time:>11,.0f} moves/s  ({chess_moves / boards:.1f} moves a position)")
    print(f"war/chess per position: {fmt(ratio(per(times['war'], positions), per(times['chess'], boards)), aim=AIM)}")
    print(f"war/chess per legal move: {fmt(ratio(per(times['war'], war_moves), per(times['chess'], chess_moves)))}")


if __name__ == "__main__":
    main()
