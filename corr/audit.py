"""Audit a game log: is it intact, was every move legal, what happened, who won.

An audit never stops at the first surprise it can explain: an illegal tile that stood
unchallenged (mode=as-written) is a finding, not a failure. Only damage - a broken
chain, a bad hash, a torn line, a move the rules refuse - makes a log corrupt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corr import engine
from corr.errors import CorruptLog
from corr.log import store
from corr.log.models import STRICT


def _finding(seq: int | None, kind: str, detail: str) -> dict[str, Any]:
    return {"seq": seq, "kind": kind, "detail": detail}


def audit(path: Path | str) -> dict[str, Any]:
    """The audit report of one log; `intact` is False when the log is corrupt."""
    report: dict[str, Any] = {"file": str(path), "intact": False, "findings": []}
    findings: list[dict[str, Any]] = report["findings"]
    try:
        log = store.read(path, reader=STRICT)
    except CorruptLog as err:
        findings.append(_finding(err.seq, err.kind, str(err)))
        return report
    report.update(game=log.header.game, id=log.header.id, records=len(log.records))
    if log.torn is not None:
        findings.append(
            _finding(len(log.records) + 1, "torn", f"{len(log.torn)} bytes after the last newline: a torn write, not used")
        )
    try:
        rep = engine.replay(log)
    except CorruptLog as err:
        findings.append(_finding(err.seq, err.kind, str(err)))
        return report
    report["intact"] = log.torn is None
    conquests: list[dict[str, Any]] = []
    open_illegal: dict[str, Any] | None = None
    for step in rep.steps:
        record, outcome = step.record, step.outcome
        if record.type == "move":
            if open_illegal is not None:
                findings.append(open_illegal)
            open_illegal = None
            if outcome.illegal is not None:
                open_illegal = _finding(
                    record.seq, "illegal-unchallenged", f"{record.by} {record.move}: {outcome.illegal}"
                )
        if outcome.conquered:
            conquests.append({"seq": record.seq, "by": record.by, "move": record.move, "fields": list(outcome.conquered)})
        if outcome.missed:
            findings.append(
                _finding(record.seq, "missed-conquest", f"{record.move} conquered field(s) "
                         f"{','.join(map(str, outcome.missed))} without claiming them (combat 3.5)")
            )
        if record.type == "challenge":
            detail = "; ".join(outcome.events) or outcome.verdict or ""
            findings.append(_finding(record.seq, f"challenge-{outcome.verdict}", f"{record.by}: {detail}"))
            if outcome.verdict == "upheld":
                open_illegal = None
        elif record.type == "timeout":  # a timeout ends the game, so the forfeit is this one's
            findings.append(_finding(record.seq, "timeout", f"{record.by} claimed a timeout: {rep.forfeit} lost on time"))
        elif record.type == "vacation":
            findings.append(_finding(record.seq, "vacation", f"{record.by} took {record.note} days of vacation"))
    if open_illegal is not None:
        findings.append(open_illegal)
    result = rep.result()
    report.update(
        seq=rep.seq,
        conquests=conquests,
        result={"over": result.over, "winners": list(result.winners), "scores": result.scores},
    )
    return report


def summary(report: dict[str, Any]) -> str:
    """The report as a few lines of text."""
    lines = [f"{report['file']}: {'intact' if report['intact'] else 'CORRUPT'}"]
    if "game" in report:
        lines.append(f"game {report['game']} {report['id']}, {report['records']} records")
    for c in report.get("conquests", []):
        lines.append(f"  seq {c['seq']}: {c['by']} {c['move']} conquers field {','.join(map(str, c['fields']))}")
    for f in report["findings"]:
        where = f"seq {f['seq']}" if f["seq"] is not None else "log"
        lines.append(f"  {f['kind']} at {where}: {f['detail']}")
    if "result" in report:
        r = report["result"]
        scores = ", ".join(f"{s} {n}" for s, n in r["scores"].items())
        if r["over"]:
            verdict = f"{r['winners'][0]} wins" if len(r["winners"]) == 1 else f"draw: {', '.join(r['winners'])}"
            lines.append(f"result: {verdict} ({scores})")
        else:
            lines.append(f"in progress ({scores})")
    return "\n".join(lines) + "\n"
