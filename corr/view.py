"""What a position looks like to people and scripts: one plain dict per position.

`show --format json`, the text board and the HTML board are all made from this dict,
so they never disagree about a position.
"""

from __future__ import annotations

from typing import Any

from corr.engine import Replay
from corr.geometry import FIELD_OF, PLACE_OF, name


def position(rep: Replay) -> dict[str, Any]:
    """The documented JSON of a position (DESIGN 9, `corr show --format json`)."""
    game, state, header = rep.game, rep.state, rep.header
    result = game.result(state)
    board = game.board(state)
    last = rep.steps[-1] if rep.steps else None
    last_move = None
    if last is not None:
        last_move = {"seq": last.record.seq, "type": last.record.type, "by": last.record.by, "move": last.record.move}
    data: dict[str, Any] = {
        "game": header.game,
        "title": game.title,
        "id": header.id,
        "seq": rep.seq,
        "to_move": game.to_move(state),
        "over": result.over,
        "winners": list(result.winners),
        "scores": result.scores,
        "board": "".join(str(d) if d else "." for d in board),
        "seats": [{"seat": s.seat, "name": s.name} for s in header.seats],
        "options": dict(header.options),
        "last": last_move,
    }
    data.update(game.describe(state))
    return data


def board_rows(rep: Replay) -> list[list[dict[str, Any]]]:
    """The 9x9 board as rows of cells with what the templates mark on them."""
    board = rep.game.board(rep.state)
    last_cell = getattr(rep.state, "last_cell", None)
    rows = []
    for r in range(9):
        row = []
        for c in range(9):
            cell = r * 9 + c
            row.append(
                {
                    "digit": board[cell],
                    "field": FIELD_OF[cell],
                    "place": PLACE_OF[cell],
                    "name": name(cell),
                    "last": cell == last_cell,
                }
            )
        rows.append(row)
    return rows
