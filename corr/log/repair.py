"""A log a person can mend: a torn last line, and what an editor or a mail program did
to it - Windows line endings (CRLF), a byte order mark (BOM) - and how each reading
command says so. `corr repair` mends; every command that reads a log names the damage
with the same words, and the host and `corr mail` alike.

Nothing here turns a log that does not verify into one that does: line endings are
mended only when the log then reads as a whole, valid log (its chain is over the LF
bytes corr wrote), and a torn line is cut off only after it is saved beside the log.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from corr.errors import CorruptLog, UsageError
from corr.log import locking, store

#: The first bytes of a log read to tell a file that is no log from a damaged one.
PEEK = 65536
BOM = b"\xef\xbb\xbf"
CRLF_HINT = "the file has Windows line endings (CRLF): convert it back with `corr repair`, or dos2unix"
BOM_HINT = "the file starts with a byte order mark (BOM): remove it with `corr repair`"


#: What `log_trouble` finds, as the kind of the CorruptLog a reading command raises.
TROUBLE_KINDS = {"bom": "schema", "crlf": "noncanonical", "text": "schema"}


def trouble(path: Path) -> tuple[str, str] | None:
    """(bom, crlf or text; message) when a log's first line shows damage a person can
    mend - Windows line endings, a byte order mark - or no log at all (plain text). None
    when it looks like a log: the log's own checks then judge every line."""
    try:
        with open(path, "rb") as f:
            head = f.read(PEEK)
    except OSError:
        return None
    first = head.split(b"\n", 1)[0]
    if head.startswith(BOM):
        return "bom", f"{path}: line 1 is not a valid corr header ({BOM_HINT})"
    if first.endswith(b"\r") and b"\n" in head:
        return "crlf", f"{path}: line 1 (the header) is not in canonical form: it was edited ({CRLF_HINT})"
    if head and not first.lstrip().startswith(b"{"):
        try:
            first.decode()
        except UnicodeDecodeError:
            return None  # bytes that are not text: the reader names the fault
        return "text", f"{path}: not a corr game log (the first line is not a corr header)"
    return None


def hint(path: Path) -> str | None:
    """What an editor or a mail program did to a log, in words that say how to mend it
    (a BOM, CRLF line endings), or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data.startswith(BOM):
        return BOM_HINT
    if b"\r\n" in data:
        return CRLF_HINT
    return None


def line_endings(file: Path) -> str | None:
    """Turn CRLF line endings back into LF and drop a byte order mark, when the log then
    reads as a whole, valid log (its chain is over the LF bytes corr wrote); what was
    done, or None. A log that still does not verify is left as it is."""
    try:
        f = open(file, "r+b")
    except FileNotFoundError:
        raise UsageError(f"no such game log: {file}") from None
    except IsADirectoryError:
        raise UsageError(f"{file} is a directory, not a game log") from None
    except OSError as err:
        raise UsageError(f"cannot open {file}: {err.strerror}") from None
    with f, locking.held(f, exclusive=True):
        data = f.read()
        fixed = data[len(BOM):] if data.startswith(BOM) else data
        crlf = b"\r\n" in fixed
        fixed = fixed.replace(b"\r\n", b"\n")
        if fixed == data:
            return None
        store.parse(fixed, file)  # still damaged: refused as any reading command would, nothing changed
        store.replace_file(file, fixed, mode=os.stat(f.fileno()).st_mode & 0o777)
    done = ["Windows line endings (CRLF) turned back into LF"] if crlf else []
    if data.startswith(BOM):
        done.append("the byte order mark removed")
    return " and ".join(done)


def beyond_repair(path: Path, err: CorruptLog) -> CorruptLog:
    """What `corr repair` says of a damaged record it leaves alone: a line that ends in
    its newline was written whole, so it is no torn write, and only a torn write is
    cut off. The refusal names the line, says whether lines follow it, and what a
    person can do instead; the log is not touched."""
    if err.seq is None:
        return err
    try:
        with open(path, "rb") as f:
            lines = f.read().count(b"\n")
    except OSError:
        return err
    line = err.seq + 1  # the header is line 1
    fix = "restore a good copy (another player's: `corr compare` shows where two copies part)"
    if line >= lines:
        why = "it ends in a newline"
        fix = f"move line {line} out of the file if it does not belong there, or {fix}"
    else:
        why = f"{'a line follows' if lines - line == 1 else 'lines follow'} it"
    return CorruptLog(f"{err}; {why}, so it is no torn write (`corr repair` cuts off only a write that never "
                      f"finished) and nothing was changed: {fix}", seq=err.seq, kind=err.kind)


def torn_line(path: Path | str, verifies: Callable[[bytes], bool] | None = None) -> tuple[bytes, bool] | None:
    """Mend a torn last line: (the torn bytes, whether they were kept), None when the
    last line is whole. A record written whole whose newline alone is missing is kept:
    the newline is put back when `verifies` says the log then verifies as a whole
    (chain, rules, hashes, signature). Anything else is cut off, saved beside the log
    as `FILE.torn` (durably) before the cut."""
    path = Path(path)
    with store.locked(path, "r+b", exclusive=True) as f:
        data = f.read()
        log = store.parse(data, path)
        if log.torn is None:
            return None
        if verifies is not None and b"\n" not in log.torn and verifies(data + b"\n"):
            os.pwrite(f.fileno(), b"\n", len(data))
            os.fsync(f.fileno())
            return log.torn, True
        try:
            store.replace_file(f"{path}.torn", log.torn)
        except OSError as err:
            raise UsageError(f"cannot save the torn line to {path}.torn: {err.strerror}") from None
        f.truncate(log.size)
        f.flush()
        os.fsync(f.fileno())
        return log.torn, False
