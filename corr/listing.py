"""The `legal` of `corr play`: a seat's moves a page at a time, or one field's.

A Combat opening has over 400 moves: printed whole they push the board off the screen,
and cut short they hide the rest. So the terminal shows a count and a page, `legal
more` goes on, `legal FIELD` keeps the moves that name a cell of one field. A move
that takes a field only when written with its claim is listed so (`7 (5,4) !`), and the
first page names those moves first: a conquest is never missed for want of a `!` the
list left out (combat 3.5).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass

from corr.counts import counted
from corr.geometry import FIELD_OF
from corr.notation import Move, ShimaPick
from corr.seatview import SeatView

#: Moves a page shows: eight lines of a common terminal, and every move of one field
#: (at most 8 empty places, 8 digits each) at once.
PAGE = 64


@dataclass(frozen=True)
class Listing:
    """What `legal` listed last, for `legal more` to go on from."""

    seq: int  # the position listed: a move since starts the list afresh
    seat: str
    field: int | None  # the field it kept, or None for every move
    start: int | None  # the first move of the next page; None: the last was shown


def in_field(view: SeatView, move: Move, field: int) -> bool:
    """Whether `move` names a cell of `field` (a Moyo draft pick: the field itself)."""
    if isinstance(move, ShimaPick):
        return move.field == field
    return any(FIELD_OF[cell] == field for cell in view.rules.moved_cells(move))


def page(view: SeatView, field: int | None, start: int, size: int | None) -> tuple[str, int | None]:
    """One page of the viewer's moves (of `field`, when given) from `start`, `size` long
    (None: all of them), as text; and where the next page starts, None after the last."""
    moves = [m for m in view.legal if field is None or in_field(view, m, field)]
    where = "" if field is None else f" in field {field}"
    if not moves:
        return (f"no legal move{where}\n", None)
    end = len(moves) if size is None else min(len(moves), start + size)
    width = max(40, shutil.get_terminal_size().columns - 1)
    lines = []
    claimed = [view.claims[m] for m in moves if m in view.claims]
    if start == 0 and claimed:
        lines.append(f"{'this move conquers' if len(claimed) == 1 else f'these {len(claimed)} moves conquer'}, "
                     f"played with the claim ({claimed[0].rule}):")
        groups: dict[str, list[str]] = {}
        for claim in sorted(claimed, key=lambda c: c.fields):
            groups.setdefault(claim.takes, []).append(str(claim.move))
        for takes, group in groups.items():
            lines += _wrapped(group, width, f"  {takes}: ")
    whole = start == 0 and end == len(moves)
    lines.append(f"{counted(len(moves), 'move') if whole else f'moves {start + 1}-{end} of {len(moves)}'}{where}:")
    lines += _wrapped([str(view.written(m)) for m in moves[start:end]], width, "  ")
    if end == len(moves):
        return ("\n".join(lines) + "\n", None)
    following = f"{end + 1}-{min(len(moves), end + (size or PAGE))}"
    lines.append(f"legal more: moves {following}   legal 1-9: one field's moves   legal all: every move")
    return ("\n".join(lines) + "\n", end)


def _wrapped(items: list[str], width: int, first: str) -> list[str]:
    """`items` joined by commas into lines at most `width` wide (a move is never split
    across two), the first line starting with `first`, the others indented."""
    indent = "    " if first.strip() else first
    lines: list[str] = []
    line, fresh = first, True
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        if not fresh and len(line) + 1 + len(text) > width:
            lines.append(line)
            line, fresh = indent, True
        line += text if fresh else " " + text
        fresh = False
    lines.append(line)
    return lines
