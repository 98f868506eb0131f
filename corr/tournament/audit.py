"""Audit an event log: is it intact, was each round paired as its system pairs it, and -
given the games' folder - does every result say what its audited game log says.

A corrupt event log (edited, reordered, torn, a forged ruling) stops the audit, as a
corrupt game log does. A round paired otherwise than the system would, or a result its
game log does not bear out, is a finding: the log is intact, the event is not sound.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corr.errors import CorrError, CorruptLog
from corr.tournament.event import Event, build


def _finding(seq: int | None, kind: str, detail: str) -> dict[str, Any]:
    return {"seq": seq, "kind": kind, "detail": detail}


def audit(path: Path | str, games: Path | None = None) -> dict[str, Any]:
    """The audit report of an event log; `sound` is False on any finding, `intact`
    False when the log itself is corrupt."""
    from corr.tournament import eventlog

    report: dict[str, Any] = {"file": str(path), "kind": "tournament", "intact": False, "sound": False,
                              "findings": []}
    findings: list[dict[str, Any]] = report["findings"]
    try:
        event = build(eventlog.read(path))
    except CorruptLog as err:
        findings.append(_finding(err.seq, err.kind, str(err)))
        return report
    header = event.header
    report.update(intact=True, id=header["id"], event=header["name"], game=header["game"], system=header["system"],
                  records=len(event.log.records), rounds=len(event.rounds), planned=event.planned)
    findings.extend(_pairings(event))
    if games is not None:
        findings.extend(_results(event, Path(games)))
    report["games_checked"] = games is not None
    report["sound"] = not findings
    return report


def _round_seq(event: Event, number: int) -> int | None:
    return next((r["seq"] for r in event.log.records if r["type"] == "round" and r["round"] == number), None)


def _pairings(event: Event) -> list[dict[str, Any]]:
    """Each round's tables and byes against the system's pairing of it."""
    from corr.tournament.director import expected_round

    found = []
    for number, tables in enumerate(event.rounds, start=1):
        try:
            expected = expected_round(event, number)
        except CorrError as err:
            found.append(_finding(_round_seq(event, number), "pairing", f"round {number}: {err}"))
            continue
        paired = [t.players for t in tables]
        if paired != [tuple(t) for t in expected.tables] or sorted(event.byes.get(number, [])) != expected.byes:
            found.append(_finding(_round_seq(event, number), "pairing",
                                  f"round {number} is not paired as the {event.header['system']} pairs it: "
                                  f"{_tables(paired)} instead of {_tables(expected.tables)}"))
    return found


def _tables(tables: list[tuple[int, ...]]) -> str:
    return ", ".join("-".join(map(str, t)) for t in tables) or "no tables"


def _results(event: Event, folder: Path) -> list[dict[str, Any]]:
    """Every result against its game log, audited; every game log of a finished table there."""
    from corr.log import store
    from corr.tournament.director import result_of

    found = []
    seqs = {(r["round"], r["table"]): r["seq"] for r in event.log.records if r["type"] == "result"}
    for tables in event.rounds:
        for table in tables:
            if table.places is None or table.ruled is not None:
                continue  # still being played, or the director decided it
            seq = seqs.get((table.round, table.table))
            where = f"round {table.round} table {table.table}"
            file = folder / table.file
            if not file.is_file():
                found.append(_finding(seq, "missing-game", f"{where}: no game log {file}"))
                continue
            try:
                fields = result_of(table, file)
                log = store.read(file)
            except CorrError as err:
                found.append(_finding(seq, "game", f"{where}: {err}"))
                continue
            if fields is None:
                found.append(_finding(seq, "result", f"{where}: the result was taken, but {file.name} is not over"))
                continue
            hashes = {store.line_hash(raw) for raw in [log.header_raw, *log.raw]}
            if table.final not in hashes:
                found.append(_finding(seq, "result", f"{where}: the result names a last line {file.name} does not "
                                      "have (the game log is another copy, or was rewritten)"))
            if fields["places"] != table.places or fields["scores"] != table.scores:
                found.append(_finding(seq, "result", f"{where}: the event says places {table.places} scores "
                                      f"{table.scores}, {file.name} says places {fields['places']} scores "
                                      f"{fields['scores']}"))
    return found


def summary(report: dict[str, Any]) -> str:
    """The report as a few lines of text, the log's text shown safely."""
    from corr.names import visible

    verdict = "CORRUPT" if not report["intact"] else "sound" if report["sound"] else "intact, with findings"
    out = [f"{report['file']}: {verdict}"]
    if report["intact"]:
        out.append(f"event {report['event']} ({report['id']}): {report['game']} {report['system']}, "
                   f"{report['rounds']} of {report['planned']} rounds paired, {report['records']} records")
        out.append("results checked against the games' logs" if report["games_checked"]
                   else "results not checked against the games (give --games DIR)")
    for f in report["findings"]:
        where = f"seq {f['seq']}" if f["seq"] is not None else "log"
        out.append(f"  {f['kind']} at {where}: {f['detail']}")
    return "\n".join(map(visible, out)) + "\n"
