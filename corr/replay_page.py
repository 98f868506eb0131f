"""A whole game on one page to step through in a browser (`corr replay --format html`).

Every position is the public view's own HTML board (`corr.seatview`, the board
templates), rendered here once each; the page only shows one at a time. It is one
self-contained file - inline styles and script, nothing fetched - so it can be mailed,
archived or opened from disk. A record the public may not read yet (a move on a seat's
own board in a running Domino duel) gets no position and no line, as in `corr replay`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from corr import engine
from corr.log.store import GameLog
from corr.record_text import step_text
from corr.render import environment, render
from corr.seatview import newest_read, observe

_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S)


@dataclass
class Frame:
    """One position of the page: its seq, its line in the move list, its board."""

    seq: int
    line: str
    board: str


def frames(log: GameLog) -> tuple[list[Frame], dict[str, Any]]:
    """The positions the public may read, in order, and the last one's public position
    (its result). A record's line says what it did as the public may read it: what the
    players were left to notice only once the game is over."""
    kept: list[tuple[int, Any, str]] = []
    final: dict[str, Any] = {}

    def each(rep: Any) -> None:
        nonlocal final
        if not newest_read(rep, None):
            return
        view = observe(rep)
        final = view.position
        board = _BODY.search(render(view, "html"))
        kept.append((rep.seq, rep.steps[-1] if rep.seq else None, board.group(1).strip() if board else ""))

    engine.replay(log, each=each)
    over = bool(final.get("over"))
    return [Frame(seq, "start" if step is None else step_text(step, everything=over).strip(), board)
            for seq, step, board in kept], final


def page(log: GameLog) -> str:
    """The page: a board, the buttons, a slider and the move list."""
    shown, final = frames(log)
    return environment().get_template("replay.html").render(frames=shown, p=final)
