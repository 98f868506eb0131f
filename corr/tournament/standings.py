"""The standings of an event: the crosstable, points and tie-breaks.

Points are taken pair by pair at each table (`corr.tournament.placing`); a bye is worth
nothing, but one that a withdrawal made in a round robin is the win of the game it
replaced (`corr.tournament.withdrawal`). Ties are broken, in this order, by Sonneborn-Berger (the points of each player
one scored against, weighted by what one scored against them), Buchholz (the points of
every opponent met, once per game), wins (games finished first, alone or shared) and the
direct encounter (the points scored in the games among the players still equal).
"""

from __future__ import annotations

from typing import Any

from corr.tournament.event import Event
from corr.tournament.placing import pair_points
from corr.tournament.withdrawal import forfeit_wins


def standings(event: Event) -> dict[str, Any]:
    """The event's standings as plain data (what `--format json` prints)."""
    numbers = sorted(event.players)
    cross: dict[int, dict[int, float]] = {n: {} for n in numbers}
    games = {n: 0 for n in numbers}
    wins = {n: 0 for n in numbers}
    met: dict[int, list[int]] = {n: [] for n in numbers}
    for tables in event.rounds:
        for table in tables:
            if table.places is None:
                continue
            for i, a in enumerate(table.players):
                games[a] += 1
                wins[a] += table.places[i] == 1
                for j, b in enumerate(table.players):
                    if i != j:
                        cross[a][b] = cross[a].get(b, 0.0) + pair_points(table.places[i], table.places[j])
                        met[a].append(b)
    for _, winner, leaver in forfeit_wins(event):  # a game a withdrawal left unplayed: a win
        games[winner] += 1
        wins[winner] += 1
        cross[winner][leaver] = cross[winner].get(leaver, 0.0) + 1.0
        cross[leaver].setdefault(winner, 0.0)
        met[winner].append(leaver)
        met[leaver].append(winner)
    points = {n: sum(cross[n].values()) for n in numbers}
    sb = {n: sum(score * points[o] for o, score in cross[n].items()) for n in numbers}
    buchholz = {n: sum(points[o] for o in met[n]) for n in numbers}
    direct = {}
    for n in numbers:
        equal = [o for o in numbers if o != n and points[o] == points[n]]
        direct[n] = sum(cross[n].get(o, 0.0) for o in equal)
    order = sorted(numbers, key=lambda n: (-points[n], -sb[n], -buchholz[n], -wins[n], -direct[n], n))
    rows = []
    for n in order:
        key = (points[n], sb[n], buchholz[n], wins[n], direct[n])
        rank = 1 + sum((points[o], sb[o], buchholz[o], wins[o], direct[o]) > key for o in numbers)
        player = event.players[n]
        rows.append({"rank": rank, "player": n, "name": player.name, "points": points[n], "games": games[n],
                     "sonneborn_berger": sb[n], "buchholz": buchholz[n], "wins": wins[n], "direct": direct[n],
                     "byes": sum(n in b for b in event.byes.values()), "withdrawn": player.withdrawn is not None})
    header = event.header
    return {
        "event": header["name"], "id": header["id"], "game": header["game"], "system": header["system"],
        "table": header["table"], "rounds": header["rounds"], "played": len(event.rounds) - bool(event.open_tables()),
        "finished": event.finished, "standings": rows,
        "crosstable": {str(n): {str(o): cross[n][o] for o in sorted(cross[n])} for n in numbers},
    }


def half(value: float) -> str:
    """A score as a crosstable writes it: 2, ½, 1½."""
    whole, rest = divmod(round(value * 2), 2)
    if not rest:
        return str(whole)
    return f"{whole}½" if whole else "½"


def number(value: float) -> str:
    """A tie-break value: an integer plainly, else with two decimals at most."""
    return str(int(value)) if value == int(value) else f"{value:.2f}".rstrip("0")


#: The widest line the text standings take.
WIDTH = 80


def text(data: dict[str, Any]) -> str:
    """The standings as text within WIDTH columns: the crosstable's columns when they
    fit, the points and tie-breaks always."""
    from corr.names import visible

    rows = data["standings"]
    order = [r["player"] for r in rows]
    cross = data["crosstable"]
    cells = {(a, b): half(cross[str(a)][str(b)]) if str(b) in cross[str(a)] else "." for a in order for b in order}
    cell = max([len(c) for c in cells.values()] + [len(str(len(order)))])
    tail = ["Pts", "SB", "Bh", "W"]
    values = [[half(r["points"]), number(r["sonneborn_berger"]), number(r["buchholz"]), str(r["wins"])] for r in rows]
    widths = [max(len(t), *(len(v[i]) for v in values)) for i, t in enumerate(tail)]
    fixed = 4 + sum(w + 1 for w in widths)
    name_width = max(4, min(20, max(len(visible(r["name"])) + 2 * r["withdrawn"] for r in rows)))
    show_cross = fixed + name_width + 1 + len(order) * (cell + 1) <= WIDTH
    if not show_cross:
        name_width = min(name_width, WIDTH - fixed - 1)
    played = f"{data['played']} of {data['rounds']} rounds" + (", final" if data["finished"] else "")
    title = f"{data['event']}: {data['game']} {data['system']}"
    if data["table"] > 2:
        title += f" at tables of {data['table']}"
    out = [visible(title)[:WIDTH], played]
    head = f"{'#':>3} {'Name':<{name_width}}"
    if show_cross:
        head += " " + " ".join(f"{i:>{cell}}" for i in range(1, len(order) + 1))
    head += " " + " ".join(f"{t:>{w}}" for t, w in zip(tail, widths))
    out.append(head)
    for i, (row, value) in enumerate(zip(rows, values), start=1):
        name = visible(row["name"]) + (" -" if row["withdrawn"] else "")
        if len(name) > name_width:
            name = name[: name_width - 1] + "~"
        line = f"{row['rank']:>3} {name:<{name_width}}"
        if show_cross:
            line += " " + " ".join(f"{'x' if a == row['player'] else cells[(row['player'], a)]:>{cell}}"
                                   for a in order)
        line += " " + " ".join(f"{v:>{w}}" for v, w in zip(value, widths))
        out.append(line)
    notes = ["Pts points, SB Sonneborn-Berger, Bh Buchholz, W wins"]
    if any(r["withdrawn"] for r in rows):
        notes.append("- withdrew")
    if not show_cross:
        notes.append("(the crosstable is in --format html and json)")
    out.append("; ".join(notes))
    return "\n".join(line.rstrip() for line in out) + "\n"


def html(data: dict[str, Any]) -> str:
    """The standings as a self-contained HTML page (inline styles)."""
    from corr.render import environment

    rows = data["standings"]
    order = [r["player"] for r in rows]
    cross = data["crosstable"]
    cells = {r["player"]: ["x" if a == r["player"] else half(cross[str(r["player"])][str(a)])
                           if str(a) in cross[str(r["player"])] else "" for a in order] for r in rows}
    return environment().get_template("standings.html").render(
        s=data, cells=cells, half=half, number=number)  # type: ignore[no-any-return]
