"""Two copies of one game - say each player's file - side by side (DESIGN 5): how many
records they share, where they part, which copy verifies, and the position at each
head. Read-only.

Records are compared as the exact bytes of their lines, so a copy whose chain was
broken by an edit can still be compared up to the edit. The report:

- `common`: the number of identical records from the start;
- `first_divergence`: the first seq where both copies hold a record and the records
  differ, or null when the copies are identical or one is a prefix of the other;
- `relation`: "identical", "a-prefix" (A is a prefix of B), "b-prefix" or "diverged";
- `a` / `b`: `{"file", "records", "verifies", "seq", "error", "head", "differs"}`:
  `seq` is the last record when the copy verifies, else the first record that does not
  (null when the fault is not one record's, e.g. the header); `head` is the position
  after the last record that holds: `{"seq", "to_move", "over"}` (null when not even
  the header holds); `differs` is the copy's record at the first divergence as
  `corr log` numbers it (`5. A 4 (2,2)`), null when the copies have not diverged: the
  two moves a referee looks at first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corr import engine
from corr.errors import CorruptLog, UsageError
from corr.log import lines, store


def _lines(path: Path) -> tuple[lines.Header, list[bytes], bytes]:
    """The header, the complete record lines (a torn tail left out), the whole data."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no such game log: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a game log") from None
    rows = data.split(b"\n")
    rows.pop()  # what follows the last newline: nothing, or a torn write
    if not rows:
        raise UsageError(f"{path}: no complete header line: not a corr log")
    try:
        header = lines.read_header(rows[0])
    except lines.LineError as err:
        raise UsageError(f"{path}: line 1 is not a valid corr header ({err})") from None
    return header, rows[1:], data


def _head(rep: engine.Position) -> dict[str, Any]:
    return {"seq": rep.seq, "to_move": rep.to_move(), "over": rep.result().over}


def _verify(path: Path, header_raw: bytes, raws: list[bytes]) -> dict[str, Any]:
    report: dict[str, Any] = {"file": str(path), "records": len(raws), "verifies": True, "seq": None,
                              "error": None, "head": None}
    try:
        rep = engine.load(path)
    except CorruptLog as err:
        report.update(verifies=False, seq=err.seq, error=str(err))
        good = err.seq - 1 if err.seq is not None else -1
        while good >= 0:  # the position after the last record that holds
            data = b"".join(raw + b"\n" for raw in [header_raw, *raws[:good]])
            try:
                report["head"] = _head(engine.replay(store.parse(data, path)))
                break
            except CorruptLog as earlier:  # the fault lies before: an edited record breaks the next one's chain
                if earlier.seq is None or earlier.seq > good:
                    break
                report.update(seq=earlier.seq, error=str(earlier))
                good = earlier.seq - 1
        return report
    report.update(seq=rep.seq, head=_head(rep))
    return report


def compare(a: Path | str, b: Path | str) -> dict[str, Any]:
    """The comparison report of two copies; refuses copies of two different games."""
    a, b = Path(a), Path(b)
    header_a, raws_a, data_a = _lines(a)
    header_b, raws_b, data_b = _lines(b)
    if header_a.id != header_b.id:
        raise UsageError(f"{a} and {b} are different games ({header_a.id} and {header_b.id}): nothing to compare")
    common = 0
    for raw_a, raw_b in zip(raws_a, raws_b):
        if raw_a != raw_b:
            break
        common += 1
    if common < min(len(raws_a), len(raws_b)):
        first, relation = common + 1, "diverged"
    else:
        first = None
        relation = ("identical" if len(raws_a) == len(raws_b) else "a-prefix" if len(raws_a) < len(raws_b)
                    else "b-prefix")
    sides = {}
    for side, path, data, raws in (("a", a, data_a, raws_a), ("b", b, data_b, raws_b)):
        sides[side] = _verify(path, data.split(b"\n", 1)[0], raws)
        sides[side]["differs"] = _record_text(raws[common]) if first is not None else None
    return {
        "id": header_a.id,
        "game": header_a.game,
        "headers_identical": data_a.split(b"\n", 1)[0] == data_b.split(b"\n", 1)[0],
        "common": common,
        "first_divergence": first,
        "relation": relation,
        **sides,
    }


def _record_text(raw: bytes) -> str:
    """A copy's line at the divergence as `corr log` numbers a record (`5. A 4 (2,2)`),
    or, for a line that is no valid record, the start of its text."""
    from corr.record_text import what

    try:
        record = lines.read_record(raw)
    except lines.LineError as err:
        text = raw[:60].decode("utf-8", "replace")
        return f"not a valid record ({err}): {text}{'...' if len(raw) > 60 else ''}"
    return f"{record.seq}. {record.by} {what(record)}"


_RELATION = {
    "identical": "the copies are identical",
    "a-prefix": "the first copy is a prefix of the second: the second is ahead",
    "b-prefix": "the second copy is a prefix of the first: the first is ahead",
    "diverged": "the copies have diverged",
}

#: How the text names the copies `a` and `b`: by order and file, never by a letter that
#: reads as a seat.
_COPY = {"a": "first copy", "b": "second copy"}


def text(report: dict[str, Any]) -> str:
    """The report for people; file names and errors (which quote the copies) with their
    control characters shown as escapes (`corr.names.visible`)."""
    from corr.counts import counted
    from corr.names import visible

    out = [f"game {report['id']} ({report['game']}): {_RELATION[report['relation']]}",
           f"common prefix: {counted(report['common'], 'record')}"]
    if report["first_divergence"] is not None:
        out.append(f"first divergence: seq {report['first_divergence']}")
        for side in ("a", "b"):
            out.append(f"  {(_COPY[side] + ':').ljust(12)} {report[side]['differs']}")
    if not report["headers_identical"]:
        out.append("the header lines differ")
    for side in ("a", "b"):
        copy = report[side]
        if copy["verifies"]:
            state = f"verifies, {counted(copy['records'], 'record')}"
        else:
            where = f" at seq {copy['seq']}" if copy["seq"] is not None else ""
            state = f"does NOT verify{where}: {copy['error']}"
        head = copy["head"]
        if head is None:
            at = "no position"
        elif head["over"]:
            at = f"head seq {head['seq']}, game over"
        else:
            at = f"head seq {head['seq']}, {head['to_move']} to move"
        out.append(f"{_COPY[side]} {copy['file']}: {state}; {at}")
    return "\n".join(map(visible, out)) + "\n"
