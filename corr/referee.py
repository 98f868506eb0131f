"""A referee's look at one record (DESIGN 5): the position before it, whether it kept
the rules, which rule it broke and where, whether a challenge came in time, and what
followed. Read-only: nothing here changes the log or the engine.

`outcome` of an examined record:
- "legal": it kept the rules and nobody challenged it (every record that is not a
  placement is "legal": a verified log holds no refused record);
- "upheld" / "rejected": it was challenged, with that verdict;
- "stood": an illegal placement that was not challenged before the next move (4.1);
- "open": an illegal placement with no move after it yet: it can still be challenged;
- "voided": set aside by a ruling; "upheld" also when a ruling upheld a challenge.

`rulings` lists every ruling on the record, in order (a later one may void an earlier).
"""

from __future__ import annotations

import json
from typing import Any

from corr import engine
from corr.errors import IllegalMove, UsageError
from corr.geometry import name
from corr.log import store
from corr.names import visible
from corr.seatview import observe, position

FORMATS = ("text", "html", "json")


def _broken(illegal: IllegalMove | None) -> list[dict[str, Any]]:
    if illegal is None:
        return []
    return [{"rule": illegal.rule, "cells": [name(c) for c in illegal.cells], "message": str(illegal)}]


def _recheck(before: engine.Position, step: engine.Step) -> IllegalMove | None:
    """The rule a move broke, judged afresh by the game against the position before it;
    the outcome the replay recorded when the game cannot judge it again."""
    move = step.action.move
    if move is None:
        return step.outcome.illegal
    try:
        return before.check(move, step.record.by) or step.outcome.illegal
    except IllegalMove as err:  # cannot happen in a log that replays; report it all the same
        return err


def _challenge_of(rep: engine.Position, seq: int) -> dict[str, Any] | None:
    """The first later challenge aimed at `seq`: by its target, or (no target) by being
    the challenge of the newest move, which is `seq`."""
    last_move = seq
    for step in rep.steps[seq:]:
        record = step.record
        if record.type == "move":
            last_move = record.seq
            continue
        if record.type != "challenge":
            continue
        if record.target == seq or (record.target is None and last_move == seq):
            in_time = last_move == seq  # no move recorded between them (4.1)
            return {"seq": record.seq, "by": record.by, "in_time": in_time,
                    "verdict": step.outcome.verdict, "events": list(step.outcome.events)}
    return None


def examine(log: store.GameLog, seq: int) -> dict[str, Any]:
    """The referee's report on record `seq` of a log (the whole log is verified first:
    a log that does not replay raises CorruptLog)."""
    records = log.records
    if not 1 <= seq <= len(records):
        raise UsageError(f"seq {seq} is outside the log (seq 1 to {len(records)})")
    rep = engine.replay(log)
    before = engine.replay(log, upto=seq - 1)
    step = rep.steps[seq - 1]
    record = step.record
    moved = before.game.moved_cells(step.action.move) if record.type == "move" and step.action.move else ()
    illegal = _recheck(before, step) if moved else None
    challenged = _challenge_of(rep, seq) if record.type == "move" else None
    later_move = any(r.type == "move" for r in records[seq:])
    rulings = [
        {"seq": s.record.seq, "by": s.record.by, "at": s.record.at, "decision": s.record.move,
         "reason": s.record.note, "void": s.voided, "events": list(s.outcome.events)}
        for s in rep.steps[seq:] if s.record.type == "ruling" and s.record.target == seq
    ]
    standing = [r["decision"] for r in rulings if not r["void"]]
    if seq in rep.voided:
        outcome = "voided"
    elif "uphold" in standing:
        outcome = "upheld"
    elif challenged is not None and challenged["in_time"] and challenged["verdict"]:
        outcome = challenged["verdict"]
    elif illegal is not None:
        outcome = "stood" if later_move else "open"
    else:
        outcome = "legal"
    return {
        "game": log.header.game,
        "id": log.header.id,
        "seq": seq,
        "type": record.type,
        "move": record.move,
        "target": record.target,
        "by": record.by,
        "at": record.at,
        "legal": illegal is None,
        "broken": _broken(illegal),
        "challenged": challenged,
        "rulings": rulings,
        "outcome": outcome,
        "verdict": step.outcome.verdict,
        "events": list(step.outcome.events),
        "before": {"seq": before.seq, "to_move": before.to_move(), "board": position(before)["board"]},
        "_before": before,  # for the renderers; dropped from JSON
        "_cells": list(illegal.cells) if illegal is not None else [],
        "_placed": (moved[0], getattr(step.action.move, "digit", None)) if moved else None,
    }


def outcome_text(game: Any, outcome: str) -> str:
    """An examined record's outcome in words, with the game's own penalty and rule."""
    rule = getattr(game, "challenge_rule", "")
    return {
        "legal": "legal: the record kept the rules",
        "upheld": f"challenge upheld: {getattr(game, 'upheld_words', 'the move was taken back')}",
        "rejected": "challenge rejected: the move kept the rules",
        "stood": f"illegal, but not challenged before the next move: it stands for good ({rule})",
        "open": "illegal, not challenged yet: it can be challenged until the next move is recorded",
        "voided": "void by a ruling: the game goes on as if it had never been recorded",
    }[outcome]


def public(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the renderers' private keys."""
    return {k: v for k, v in report.items() if not k.startswith("_")}


def _shown(value: Any) -> Any:
    """A report's strings, in its dicts and lists, through `visible`."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {key: _shown(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shown(item) for item in value]
    return value


def render(report: dict[str, Any], fmt: str = "text") -> str:
    """The report as text, a self-contained HTML mail, or JSON. Text and HTML show the
    control characters of what the report quotes from the log (a ruling's reason, a
    move) as escapes (`corr.names.visible`): a reason's newline starts no line."""
    if fmt == "json":
        return json.dumps(public(report), indent=2, ensure_ascii=False) + "\n"
    from corr.render import environment, render_position

    before = report["_before"]
    clash = set(report["_cells"])
    placed = report["_placed"]
    rows = observe(before).rows
    for row in rows:
        for cell in row:
            idx = (cell["row"] - 1) * 9 + cell["col"] - 1
            cell["clash"] = idx in clash
            cell["placed"] = placed[1] if placed is not None and idx == placed[0] else None
    context = {
        "r": _shown(public(report)),
        "p": position(before),
        "rows": rows,
        "board_text": render_position(before, "text") if fmt == "text" else "",
        "outcome_text": outcome_text(before.game, report["outcome"]),
    }
    name_ = "examine.txt" if fmt == "text" else "examine.html"
    return environment().get_template(name_).render(context)

