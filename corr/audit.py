"""Audit a game log: is it intact, was every move legal, what happened, who won.

An audit never stops at the first surprise it can explain: an illegal tile that stood
unchallenged (mode=as-written) is a finding, not a failure; one that can still be
challenged (the newest move, combat 4.1 and cards 4.1) is not reported yet: the game
keeps silent about it in every player's view, and so does the public audit. Only
damage - a broken chain, a bad hash, a torn line, a move the rules refuse - makes a log
corrupt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corr.counts import counted
from corr.engine import dealer
from corr.engine.position import Position, Step
from corr.engine.replay import replay
from corr.errors import CorruptLog
from corr.games.base import Outcome
from corr.log import store
from corr.log.lines import Header
from corr.names import visible
from corr.record_text import what


def _finding(seq: int | None, kind: str, detail: str) -> dict[str, Any]:
    return {"seq": seq, "kind": kind, "detail": detail}


def audit(path: Path | str) -> dict[str, Any]:
    """The audit report of one log; `intact` is False when the log is corrupt."""
    return audited(path)[0]


def audited(path: Path | str, *, lines: bool = False) -> tuple[dict[str, Any], store.GameLog | None]:
    """The audit report and the log it checked (None when the file could not be read as
    one). With `lines`, the log keeps its raw lines (`GameLog.raw`): the archive stores
    the very lines the audit passed, without reading them twice. Without, the file is
    read a block of lines at a time and each step judged as it settles, so an audit's
    memory is about the records' alone, however long the log."""
    log: store.GameLog | None = None
    report: dict[str, Any] = {"file": str(path), "intact": False, "findings": []}
    findings: list[dict[str, Any]] = report["findings"]
    try:  # the dealer's copy checks every card now
        log = dealer.attach(store.read(path, reader=store.CHECKED, raw=lines))
    except CorruptLog as err:
        findings.append(_finding(err.seq, err.kind, str(err)))
        return report, log
    report.update(game=log.header.game, id=log.header.id, records=len(log.records))
    if log.torn is not None:
        findings.append(
            _finding(len(log.records) + 1, "torn",
                     f"{counted(len(log.torn), 'byte')} after the last newline: a torn write, not used")
        )
    walk = _Walk(log.header)
    try:
        rep = replay(log, cls=Position, settled=walk.step)
    except CorruptLog as err:
        findings.append(_finding(err.seq, err.kind, str(err)))
        return report, log
    report["intact"] = log.torn is None
    walk.end(rep)
    findings.extend(walk.findings)
    highlights = {key: walk.highlights.pop(key, []) for key in rep.game.highlight_lists}
    highlights.update(walk.highlights)
    _link_rulings(findings)
    if log.header.commitment is not None:
        report["deal"] = _deal(log, rep.game.deal_checked)
    result = rep.result()
    report.update(
        seq=rep.seq,
        highlighted=list(highlights),
        **highlights,
        result={"over": result.over, "winners": list(result.winners), "scores": result.scores,
                "forfeit": {"seat": rep.forfeit, "cause": rep.forfeit_cause} if rep.forfeit else None},
    )
    return report, log


class _Walk:
    """The findings of a replay's steps, each judged as the replay settles it
    (`corr.engine.replay.replay(settled=...)`): no step is kept for a walk after the replay."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.findings: list[dict[str, Any]] = []
        self.highlights: dict[str, list[dict[str, Any]]] = {}
        self.open_illegal: dict[str, Any] | None = None
        self.quiet: Outcome | None = None
        #: id -> (outcome, its highlights, findings and told text): games share one outcome
        #: among the moves that did alike (a card's score); holding it keeps its id its own
        self.said: dict[int, tuple[Outcome, dict[str, dict[str, Any]], tuple[tuple[str, str], ...], str]] = {}
        self.timeouts: list[dict[str, Any]] = []  # their forfeit is the game's at its end

    def step(self, step: Step) -> None:
        record, outcome = step.record, step.outcome
        findings = self.findings
        kind = record.type
        if kind == "move":
            if self.open_illegal is not None:
                findings.append(self.open_illegal)
            self.open_illegal = None
            if outcome.illegal is not None:
                self.open_illegal = _finding(
                    record.seq, "illegal-unchallenged", f"{record.by} {record.move}: {outcome.illegal}"
                )
            if outcome is self.quiet and not step.voided:
                return  # most moves: nothing else to say of them
        if outcome is not self.quiet:  # most moves share one outcome that reports nothing
            said = self.said.get(id(outcome))
            if said is None:
                marked = outcome.highlights()
                found = outcome.findings()
                said = (outcome, marked, found, "; ".join(outcome.told()) if marked else "")
                if len(self.said) >= 64:  # a log's own outcomes, each once: keep the memory flat
                    self.said.clear()
                self.said[id(outcome)] = said
            _, marked, found, text = said
            if not marked and not found:
                self.quiet = outcome
            for key, entry in marked.items():
                self.highlights.setdefault(key, []).append(
                    {"seq": record.seq, "by": record.by, "move": record.move, **entry, "text": text}
                )
            for found_kind, detail in found:
                findings.append(_finding(record.seq, found_kind, f"{record.move} {detail}"))
        if kind == "challenge":
            detail = "; ".join(outcome.events) or outcome.verdict or ""
            findings.append(_finding(record.seq, f"challenge-{outcome.verdict}", f"{record.by}: {detail}"))
            if outcome.verdict == "upheld":
                self.open_illegal = None
        elif kind == "timeout":  # a timeout ends the game, so the forfeit is this one's
            finding = _finding(record.seq, "timeout", f"{record.by} claimed a timeout: ")
            self.timeouts.append(finding)
            findings.append(finding)
        elif kind == "vacation":
            findings.append(_finding(record.seq, "vacation", f"{record.by} took {_days(record.note)} of vacation"))
        elif kind == "ruling":
            who = getattr(self.header, record.by)
            finding = _finding(record.seq, "ruling", f"{record.by} {who.name} on seq {record.target}: "
                               f"{record.move}, because: {record.note}")
            finding.update(target=record.target, decision=record.move, events=list(outcome.events))
            findings.append(finding)
        if step.voided:
            findings.append(_finding(record.seq, "void", f"{what(record)} by {record.by} is void by a ruling"))

    def end(self, rep: Position) -> None:
        """What only the end of the replay tells: whether the newest illegal move can
        still be challenged, who lost on time, which moves came late."""
        if self.open_illegal is not None and not _window_open(rep, self.open_illegal["seq"]):
            self.findings.append(self.open_illegal)
        for finding in self.timeouts:
            finding["detail"] += f"{rep.forfeit} lost on time"
        self.findings.extend(_late(rep))


def _days(note: str | None) -> str:
    """A vacation record's days as its finding says them (`1 day`, `7 days`)."""
    text = (note or "").strip()
    return counted(int(text), "day") if text.isdigit() and text.isascii() else f"{text} days"


def _window_open(rep: Position, seq: int) -> bool:
    """Whether the illegal move at `seq`, the newest move, can still be challenged
    (combat 4.1, cards 4.1: until the next move is recorded). While it can, nobody is
    told it broke the rule - noticing it is the other players' part of the game - so the
    public audit keeps silent about it; `corr referee examine` still says it ("open").
    A forfeit ends the game and every challenge with it; a ruling that upheld the
    challenge closed the window too."""
    window = rep.open_challenge()
    return window is not None and window.seq == seq and window.illegal is not None


def _deal(log: store.GameLog, checked: str) -> dict[str, Any]:
    """Whether what the dealer hid could be checked: after the dealer's reveal the replay
    re-dealt from the seed and checked all of it (`checked`: what, in the game's own
    words: every card, the start and every digit given); before it, only the public part."""
    seq = next((r.seq for r in log.records if r.type == "reveal" and r.by == dealer.DEALER), None)
    if dealer.revealed(log) is not None:
        return {"checked": True, "reveal": seq,
                "detail": f"re-dealt from the seed revealed at seq {seq}: {checked}"}
    if log.secret is not None:
        return {"checked": True, "reveal": None,
                "detail": f"checked against the dealer's secret ({dealer.secret_path(log.path).name}); "
                "players can check it after the reveal"}
    return {"checked": False, "reveal": None,
            "detail": "not yet checkable: the dealer reveals the seed when the game ends; everything public verified"}


def _late(rep: Position) -> list[dict[str, Any]]:
    """Moves made after their seat's time had run out, with no timeout claimed in between.
    Judged after the replay, from the records and the seqs rulings voided (what each
    step's `voided` says): one pass on its own costs a third of one woven into the
    replay's."""
    header = rep.header
    if header.time_control is None:
        return []
    from corr import timecontrol

    late = []
    voided = rep.voided
    clocks = timecontrol.Clocks(header)  # one pass: each move judged on the clock as it stood
    for record in rep.log.records[:len(rep.steps)]:
        if record.seq in voided:  # a voided record never happened, for the clocks too
            continue
        when = None
        if record.type in timecontrol.MOVE_TYPES and record.by in clocks.seats:
            when = timecontrol.instant(record.at)
            left = clocks.left(record.by, when)
            if left < 0:
                deadline = clocks.report(record.by, when)[record.by]["deadline"]
                late.append(_finding(record.seq, "late", f"{record.by} moved {-left / 3600:.1f} h after the "
                                     f"deadline ({deadline}); nobody claimed a timeout before it"))
        clocks.add(record, when)
    return late


def _link_rulings(findings: list[dict[str, Any]]) -> None:
    """Each finding about a record a ruling later decided names that ruling; findings in
    seq order."""
    rulings = {f["target"]: f["seq"] for f in findings if f["kind"] == "ruling"}
    for f in findings:
        if f["kind"] != "ruling" and f["seq"] in rulings:
            f["ruling"] = rulings[f["seq"]]
    findings.sort(key=lambda f: f["seq"] if f["seq"] is not None else 0)


def summary(report: dict[str, Any]) -> str:
    """The report as a few lines of text. A finding quotes the log (a ruling's reason, a
    referee's name): each line shows its control characters as escapes, so none of them
    reaches the terminal and no line of the log's starts a line here."""
    lines = [f"{report['file']}: {'intact' if report['intact'] else 'CORRUPT'}"]
    if "game" in report:
        lines.append(f"game {report['game']} {report['id']}, {counted(report['records'], 'record')}")
    for key in report.get("highlighted", ()):
        for c in report[key]:
            lines.append(f"  seq {c['seq']}: {c['by']} {c['move']} {c['text']}")
    for f in report["findings"]:
        where = f"seq {f['seq']}" if f["seq"] is not None else "log"
        ruled = f" (ruled on at seq {f['ruling']})" if f.get("ruling") else ""
        lines.append(f"  {f['kind']} at {where}: {f['detail']}{ruled}")
    if "deal" in report:
        lines.append(f"deal: {report['deal']['detail']}")
    if "result" in report:
        r = report["result"]
        scores = ", ".join(f"{s} {n}" for s, n in r["scores"].items())
        if r["over"]:
            verdict = f"{r['winners'][0]} wins" if len(r["winners"]) == 1 else f"draw: {', '.join(r['winners'])}"
            if r.get("forfeit"):
                verdict += f", {r['forfeit']['seat']} lost {r['forfeit']['cause']}"
            lines.append(f"result: {verdict} ({scores})")
        else:
            lines.append(f"in progress ({scores})")
    return "\n".join(map(visible, lines)) + "\n"
