"""What a ruling decides, as its record's `move` writes it: `uphold`, `reject`, `void`,
`forfeit B`, `adjust-clock A=+2` (DESIGN 5). Rulings judge them (`corr.engine.rulings`);
clocks read the clock adjustments (`corr.timecontrol`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from corr.errors import UsageError

KINDS = ("uphold", "reject", "void", "forfeit", "adjust-clock")
_DECISION = re.compile(r"(uphold|reject|void)|forfeit ([A-F])|adjust-clock ([A-F])=([+-][0-9]{1,4})")


@dataclass(frozen=True, slots=True)
class Decision:
    """What a ruling decides, as written in its record's `move`."""

    kind: str
    seat: str | None = None
    days: int = 0

    def __str__(self) -> str:
        if self.kind == "forfeit":
            return f"forfeit {self.seat}"
        if self.kind == "adjust-clock":
            return f"adjust-clock {self.seat}={self.days:+d}"
        return self.kind


def parse_decision(text: str) -> Decision:
    """A decision from its canonical text: `void`, `forfeit B`, `adjust-clock A=+2`, ..."""
    found = _DECISION.fullmatch(text)
    if found is None:
        raise UsageError(f"{text!r} is not a ruling: uphold, reject, void, forfeit SEAT or adjust-clock SEAT=±DAYS")
    simple, forfeit, seat, days = found.groups()
    if simple:
        return Decision(simple)
    if forfeit:
        return Decision("forfeit", forfeit)
    if int(days) == 0:
        raise UsageError("adjust-clock by 0 days changes nothing")
    return Decision("adjust-clock", seat, int(days))


def clock_adjustment(record: Any) -> tuple[str, int] | None:
    """(seat, days) when the record is a ruling that adjusts a clock, else None."""
    if record.type != "ruling" or not (record.move or "").startswith("adjust-clock"):
        return None
    decision = parse_decision(record.move)
    return decision.seat, decision.days  # type: ignore[return-value]
