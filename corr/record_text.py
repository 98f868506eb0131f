"""A game as text, PGN-like: tag pairs, then one numbered line per record. Names,
moves and notes come from the log as anyone wrote them: every line shows their control
characters as escapes (`corr.names.visible`), so none starts a line of its own."""

from __future__ import annotations

from typing import Any

from corr.engine import Step
from corr.log.lines import Header, Record
from corr.names import visible
from corr.seatview import SeatView


def what(record: Record) -> str:
    """A record in a few words: `7 (3,4) !`, `challenge of 9`, `ruling on 9: void`."""
    if record.type == "move" and record.move:
        return record.move
    if record.type == "challenge" and record.target:
        return f"challenge of {record.target}"
    if record.type == "ruling":
        return f"ruling on {record.target}: {record.move}"
    if record.type == "reveal":
        return "reveal of the deal"
    return record.type


def step_text(step: Step, everything: bool = True) -> str:
    """`12. A  7 (3,4) !  conquers 3` - one record with what it did; what the players are
    left to notice (`misses 8`) only with `everything`."""
    record, outcome = step.record, step.outcome
    what_ = what(record) + (f" ({record.note})" if record.type == "ruling" else "")
    notes = list(outcome.told())
    if everything:
        notes.extend(outcome.untold())
    if outcome.verdict:
        notes.append(outcome.verdict)
    if step.voided:
        notes.append("void")
    tail = f"  {{{'; '.join(notes)}}}" if notes else ""
    return visible(f"{record.seq:>3}. {record.by}  {what_}{tail}")


def _outcome(p: dict[str, Any], seats: list[str]) -> str:
    """The Result: `*` while the game runs, then who won (`B wins`, `A-B win (draw)`);
    a game of one (Domino alone) has nobody to beat, so its seat `finished`."""
    if not p["over"]:
        return "*"
    if len(seats) == 1:
        return f"{seats[0]} finished"
    winners = p["winners"]
    if not winners:
        return "no winner"
    return "-".join(winners) + (" win (draw)" if len(winners) > 1 else " wins")


def game_text(view: SeatView, header: Header) -> str:
    """The game as the viewer may read it: while the game runs nobody is told what the
    players are left to notice (`misses 8`), and in a running Domino duel a seat reads
    only its own board's records and score."""
    p = view.position
    everything = bool(p["over"])
    outcome = _outcome(p, [s.seat for s in header.seats])
    tags = [
        ("Game", p["title"]),
        ("Id", header.id),
        ("Created", header.created),
        *((s.seat, s.name) for s in header.seats),
        # an empty option says nothing: Domino's `seed=` is the dealer's secret one
        ("Options", " ".join(f"{k}={v}" for k, v in header.options.items() if v != "")),
        ("Scores", " ".join(f"{s}={n}" for s, n in p["scores"].items())),
        ("Result", outcome),
    ]
    lines = [f'[{key} "{visible(value)}"]' for key, value in tags]
    lines.append("")
    lines.extend(step_text(step, everything) for step in view.steps)
    lines.append(outcome)
    return "\n".join(lines) + "\n"
