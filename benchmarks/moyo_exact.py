"""Moyo's strong bot checked against exact results, N plies before the end of a game.

Run:  python benchmarks/moyo_exact.py [--games N] [--plies 2-16] [--depth D] [--budget S]
                                      [--puzzles 1,2,...] [--limit NODES]

Plays games of the standard division on the appendix puzzles (greedy against greedy,
one move in four a random one instead so that the games stay close; seats and puzzles
taking turns), then takes the positions N plies
before each game's end and solves them exactly (corr/games/moyo/exact.py: negamax to
the end, no depth limit). For each N it prints how many positions were solved, the share
the seat on turn wins, and how often strong agrees with the exact result:

  eval   strong's expectation has the exact result's sign (a lead above 0: it expects to
         win; 0 or less: to lose; a forced result says which)
  move   in a won position, strong's move keeps the win
  sees   of the lost positions, the share strong already sees as lost (-1000 side)

strong searches `--depth` plies (default 4) with `--budget` seconds at most (default
1.8, the cap), so a loaded machine changes little. A position the solver cannot finish
within `--limit` positions is left out and counted as unsolved.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PLAYERS = ["Anna", "Ben"]


#: the share of moves played at random: greedy alone decides its games long before the end
RANDOM_SHARE = 0.25


def game_moves(puzzle: str, first: str, seed: int) -> list[Any]:
    """A game's moves to its end: greedy's, one in four (RANDOM_SHARE) at random."""
    from corr import randomplay
    from corr.bots.base import chooser, seat_view

    rng = random.Random(seed)
    rep = randomplay.start("moyo", PLAYERS, {"puzzle": puzzle, "first": first}, seed)
    greedy = chooser("moyo", "greedy")
    moves = []
    while (seat := rep.to_move()) is not None:
        view = seat_view(rep, seat)
        move = rng.choice(view.legal) if rng.random() < RANDOM_SHARE else greedy(view, rng).move
        rep.add("move", seat, move=move)
        moves.append(move)
    return moves


def position(puzzle: str, first: str, moves: list[Any]) -> Any:
    """The game after `moves`."""
    from corr import randomplay

    rep = randomplay.start("moyo", PLAYERS, {"puzzle": puzzle, "first": first}, 0)
    for move in moves:
        rep.add("move", rep.to_move(), move=move)
    return rep


def _span(part: str) -> list[int]:
    """`7` or `2-16`."""
    lo, _, hi = part.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv: list[str] | None = None) -> int:
    from corr.bots.base import seat_view
    from corr.games.moyo import exact
    from corr.games.moyo.bot import MATE_ZONE, WIN, strong

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games played (default 12)")
    parser.add_argument("--plies", default="2-16", help="plies before the end: 4,6,8 or 2-16 (default 2-16)")
    parser.add_argument("--depth", type=int, default=4, help="plies strong searches (default 4)")
    parser.add_argument("--budget", type=float, default=1.8, help="seconds a strong move may think (default 1.8)")
    parser.add_argument("--puzzles", default="1,2,3,4,5,6", help="appendix puzzles (default all six)")
    parser.add_argument("--limit", type=int, default=300_000, help="positions the solver may try (default 300,000)")
    args = parser.parse_args(argv)
    plies = [n for part in args.plies.split(",") for n in _span(part)]
    puzzles = args.puzzles.split(",")
    rows: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    began = time.perf_counter()
    for g in range(args.games):
        puzzle, first = puzzles[g % len(puzzles)], "AB"[g // len(puzzles) % 2]
        moves = game_moves(puzzle, first, 4000 + g)
        for n in plies:
            if n >= len(moves):
                continue
            rep = position(puzzle, first, moves[: len(moves) - n])
            row = rows[n]
            if rep.game.phase(rep.state) != "shima" or rep.to_move() is None:
                continue
            try:
                winning = exact.winning_moves(rep.game, rep.state, args.limit)
            except exact.TooLarge:
                row["unsolved"] += 1
                continue
            seat = rep.to_move()
            assert seat is not None
            choice = strong(seat_view(rep, seat), random.Random(g), budget=args.budget, depth=args.depth)
            row["solved"] += 1
            row["won"] += bool(winning)
            row["eval"] += (choice.expect > 0) == bool(winning)
            if winning:
                row["move"] += choice.move in winning
            else:
                row["sees"] += choice.expect < -WIN + MATE_ZONE
    print(f"strong at depth {args.depth} against the exact result; {args.games} games (greedy, one move in four at "
          f"random), puzzles {args.puzzles}")
    print(f"{'plies':>5}{'solved':>8}{'unsolved':>10}{'won':>6}{'eval':>8}{'move':>8}{'sees':>8}")
    for n in plies:
        row = rows[n]
        solved = row["solved"]
        won = row["won"]
        lost = solved - won

        def share(x: int, of: int) -> str:
            return f"{x / of:.0%}" if of else "-"

        print(f"{n:>5}{solved:>8}{row['unsolved']:>10}{won:>6}{share(row['eval'], solved):>8}"
              f"{share(row['move'], won):>8}{share(row['sees'], lost):>8}")
    print(f"({time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
