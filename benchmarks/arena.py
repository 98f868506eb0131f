"""The arena: computer opponents played against each other, with win rates and think times.

Run:  python benchmarks/arena.py [--games N] [--budget S] [--only GAME,...] [--quick] [--oracle]

Every match is played in memory through the engine, each bot choosing from its own seat
view (`corr.bots.base.seat_view`), with the seats swapped from game to game. It prints,
per game and pairing:

  Combat, Moyo, War (two players)  strong against greedy and against random: the share
                                   of games strong won (a draw counts half), with its
                                   95% Wilson interval. Aims: 90% and 99%.
  cards (three players)            strong against two greedy seats: the share of games in
                                   which strong scored the most (alone or shared). Aim 60%.
  Domino (alone)                   strong and greedy each on the same secret deals (the
                                   dealer keeps the seed, as in a real game, so a bot
                                   sees only what its seat's view shows): the share of
                                   puzzles completed and the mean score. Aims: strong
                                   completes 95%, scores 1.5x greedy. With --oracle,
                                   also strong told the real order of the digits to
                                   come (read from the dealer's side, as no seat can):
                                   what strong's play-outs reach once the order is no
                                   secret, the ceiling of sampling it better.

and, per game, the median and worst time a move took at each level; strong's worst
beside the budget it was given (aim: at most 1.1x). `--budget` is the time each strong
move may think (default: the bots' own, BUDGET in each game's bot module).
"""

from __future__ import annotations

import argparse
import inspect
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PLAYERS = ["Anna", "Ben", "Cleo"]
TWO_PLAYER = {"combat": {}, "moyo": {"puzzle": "1"}, "war": {}}
MAX_RECORDS = 2_000  # a game still running after this many records counts as a draw

#: (game, level) -> every think time, in seconds
THINK: dict[tuple[str, str], list[float]] = defaultdict(list)
#: game -> the budget its strong moves were given, in seconds
BUDGETS: dict[str, float] = {}
#: the aim for strong's worst move, as a share of its budget
WORST_AIM = 1.1


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n), (centre + margin) / (1 + z * z / n)


def play(game: str, options: dict[str, str], levels: list[str], seed: int, budget: float | None) -> Any:
    """One game with seat i played at levels[i]; the finished replay."""
    from corr import randomplay
    from corr.bots.base import chooser, seat_view

    rng = random.Random(seed)
    rep = randomplay.start(game, PLAYERS[: len(levels)], dict(options), seed)
    seats = rep.game.seats
    players = {}
    for seat, level in zip(seats, levels):
        fn = _oracle(rep, seat) if level == "oracle" else chooser(game, level)
        if "budget" in inspect.signature(fn).parameters:
            if level == "strong":
                BUDGETS[game] = budget if budget is not None else getattr(inspect.getmodule(fn), "BUDGET")
            if budget is not None:
                fn = (lambda f: lambda view, r: f(view, r, budget=budget))(fn)
        players[seat] = (level, fn)
    while rep.on_turn() and len(rep.log.records) < MAX_RECORDS:
        for seat in rep.on_turn():
            level, fn = players[seat]
            view = seat_view(rep, seat)
            if not view.legal:
                continue
            t0 = time.perf_counter()
            choice = fn(view, rng)
            THINK[game, level].append(time.perf_counter() - t0)
            rep.add("move", seat, move=choice.move)
            break
        else:
            break  # nobody on turn has a move: the engine appends passes itself
    return rep


def _oracle(rep: Any, seat: str) -> Any:
    """Domino's strong bot with its play-outs on the real order of the digits to come,
    read from the dealer's deal: a measure, never a seat's move."""
    from corr.games.domino import bot

    def real_order(*_: Any) -> list[int]:
        placed = rep.game.board_of(rep.state, seat).placed
        return [digit for _, digit in rep.game.deal.order[placed + 1:]]

    def choose(view: Any, rng: random.Random, *, budget: float = bot.BUDGET) -> Any:
        return bot.strong_with(real_order, view, rng, budget=budget)

    return choose


def two_player(game: str, strong: str, other: str, n: int, budget: float | None) -> tuple[float, int]:
    """(strong's wins, a draw counting half; games) over n games, seats swapped."""
    score = 0.0
    for i in range(n):
        levels = [strong, other] if i % 2 == 0 else [other, strong]
        rep = play(game, TWO_PLAYER[game], levels, 1000 + i, budget)
        result = rep.result()
        strong_seat = rep.game.seats[levels.index(strong)]
        if result.over and strong_seat in result.winners:
            score += 1 / len(result.winners)
        elif not result.over:
            score += 0.5
    return score, n


def cards(n: int, budget: float | None) -> tuple[int, int]:
    """(games strong scored the most in, games) against two greedy seats."""
    top = 0
    for i in range(n):
        levels = ["greedy", "greedy", "greedy"]
        levels[i % 3] = "strong"
        rep = play("cards", {}, levels, 2000 + i, budget)
        scores = rep.result().scores
        if scores[rep.game.seats[i % 3]] == max(scores.values()):
            top += 1
    return top, n


def domino(n: int, budget: float | None, levels: tuple[str, ...]) -> dict[str, tuple[int, float]]:
    """level -> (puzzles completed, mean score) over the same n secret deals: no seed
    among the options, so the dealer deals from its own (`randomplay.deal_seed`) and
    reveals it only when the game ends."""
    out = {}
    for level in levels:
        done, points = 0, []
        for i in range(n):
            rep = play("domino", {}, [level], 3000 + i, budget)
            board = rep.game.board(rep.state, rep.game.seats[0])
            done += all(board)
            points.append(rep.result().scores[rep.game.seats[0]])
        out[level] = (done, statistics.mean(points))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--budget", type=float, default=None, help="seconds a strong move may think")
    parser.add_argument("--only", default="", help="games to play, e.g. combat,war (default: all)")
    parser.add_argument("--quick", action="store_true", help="10 games a pairing, 0.2 s a strong move")
    parser.add_argument("--oracle", action="store_true",
                        help="Domino: also strong told the real order of the digits to come, the ceiling")
    args = parser.parse_args(argv)
    n = 10 if args.quick else args.games
    budget = 0.2 if args.quick and args.budget is None else args.budget
    only = set(filter(None, args.only.split(","))) or {*TWO_PLAYER, "cards", "domino"}

    print(f"{'game':<8}{'pairing':<22}{'games':>6}{'strong':>9}{'95% interval':>16}  aim")
    for game in TWO_PLAYER:
        if game not in only:
            continue
        for other, aim in (("greedy", 0.90), ("random", 0.99)):
            score, games = two_player(game, "strong", other, n, budget)
            lo, hi = wilson(score, games)
            verdict = "ok" if score / games >= aim else "MISSED"
            print(f"{game:<8}{'strong v ' + other:<22}{games:>6}{score / games:>8.0%}"
                  f"{f'{lo:.0%}-{hi:.0%}':>16}  >= {aim:.0%}: {verdict}")
    if "cards" in only:
        top, games = cards(n, budget)
        lo, hi = wilson(top, games)
        print(f"{'cards':<8}{'strong v 2 greedy':<22}{games:>6}{top / games:>8.0%}{f'{lo:.0%}-{hi:.0%}':>16}"
              f"  >= 60%: {'ok' if top / games >= 0.6 else 'MISSED'}")
    if "domino" in only:
        rows = domino(n, budget, ("strong", "greedy", "oracle") if args.oracle else ("strong", "greedy"))
        (s_done, s_mean), (g_done, g_mean) = rows["strong"], rows["greedy"]
        lo, hi = wilson(s_done, n)
        print(f"{'domino':<8}{'strong completes':<22}{n:>6}{s_done / n:>8.0%}{f'{lo:.0%}-{hi:.0%}':>16}"
              f"  >= 95%: {'ok' if s_done / n >= 0.95 else 'MISSED'}")
        ratio = s_mean / g_mean if g_mean else float("inf")
        print(f"{'domino':<8}{'strong/greedy score':<22}{n:>6}{ratio:>8.2f}x{'':>15}  mean {s_mean:.1f} v "
              f"{g_mean:.1f}, greedy completes {g_done / n:.0%}; >= 1.5x: {'ok' if ratio >= 1.5 else 'MISSED'}")
        if args.oracle:
            o_done = rows["oracle"][0]
            lo, hi = wilson(o_done, n)
            print(f"{'domino':<8}{'oracle completes':<22}{n:>6}{o_done / n:>8.0%}{f'{lo:.0%}-{hi:.0%}':>16}"
                  "  the order known: strong's ceiling")
    print()
    print(f"{'game':<8}{'level':<8}{'moves':>8}{'median ms':>11}{'worst ms':>10}  strong's worst / budget")
    for (game, level), times in sorted(THINK.items()):
        worst = max(times)
        line = f"{game:<8}{level:<8}{len(times):>8}{statistics.median(times) * 1e3:>11.1f}{worst * 1e3:>10.1f}"
        if level == "strong" and game in BUDGETS:
            share = worst / BUDGETS[game]
            line += (f"  {share:.2f}x of {BUDGETS[game]:g} s: <= {WORST_AIM:g}x "
                     f"{'ok' if share <= WORST_AIM else 'MISSED'}")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
