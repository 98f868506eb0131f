"""Reading, creating and appending game logs on disk.

A log is JSON Lines: a header, then records chained by SHA-256 of the previous line's
exact bytes. Every line must be exactly the canonical bytes of what it reads as
(`lines.dump`): signatures and the chain cover the canonical record, so a second
spelling of the same record (spaces, escapes, a duplicate key) would let two copies
that both verify differ. Appends happen under an exclusive lock (`corr.log.locking`),
after checking that the file's tail is still the one the writer based its record on, as
one whole line, flushed and fsynced. Reads take a shared lock so they never see half a
line being written. A file created or renamed is made durable with its directory's fsync too.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Literal

from corr.errors import CorruptLog, UsageError
from corr.log import lines, locking
from corr.log.lines import Header, Record, canonical_record, dump


def line_hash(raw: bytes) -> str:
    """SHA-256 of one line's exact bytes (without its newline), as hex."""
    return hashlib.sha256(raw).hexdigest()


@dataclass
class GameLog:
    """A log as read from disk: parsed lines plus the raw bytes the chain is over."""

    path: Path
    header: Header
    header_raw: bytes
    records: list[Record] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)
    torn: bytes | None = None  # bytes after the last newline: a write that never finished
    size: int = 0  # bytes of complete lines
    secret: Any = None  # the dealer's corr.engine.dealer.Secret, on the copy that keeps FILE.secret

    @property
    def tail_hash(self) -> str:
        """The hash the next record's `prev` must carry."""
        return line_hash(self.raw[-1] if self.raw else self.header_raw)

    @property
    def next_seq(self) -> int:
        return len(self.records) + 1


Reader = tuple[Callable[[bytes], Header], Callable[[bytes], Record]]
#: How everyday commands read lines: the pydantic-free codec.
FAST: Reader = (lines.read_header, lines.read_record)


def _checked_header(raw: bytes) -> Header:
    try:
        return lines.read_header(raw)
    except lines.LineError:
        from corr.log import models
        return models.read_header(raw)


def _checked_record(raw: bytes) -> Record:
    try:
        return lines.read_record(raw)
    except lines.LineError:
        from corr.log import models
        return models.read_record(raw)


#: How `corr audit` reads lines: the codec, which takes and refuses every line as the
#: pydantic models do (tests/test_lines.py holds them to it); a line it refuses is read
#: again by the models, whose words name the fault. The models are imported only then:
#: building them costs an audit more start-up time and memory than a long log's records.
CHECKED: Reader = (_checked_header, _checked_record)
#: Given a log's path and bytes, the records a caller read and checked before from the
#: first lines of exactly these bytes (a checkpoint: `corr.engine.checkpoint`); None
#: where it knows none.
Known = Callable[[Path, bytes], "list[Record] | None"]


def parse(data: bytes, path: Path, reader: Reader = FAST, known: Known | None = None) -> GameLog:
    """Parse and chain-check a whole log; raises CorruptLog naming the first bad line.

    `reader` turns raw lines into a header and records, raising `lines.LineError` for a
    line that is not valid (audits pass `CHECKED`). `known` may vouch
    for a prefix of the bytes: its records are taken as they were checked before, and
    only the lines after it are read and chained.
    """
    if not data:
        raise CorruptLog(f"{path}: the file is empty, not a corr log", kind="schema")
    rows = data.split(b"\n")
    tail = rows.pop()
    torn = tail if tail else None
    if not rows:
        raise CorruptLog(f"{path}: no complete header line (the file was torn while written)", kind="torn")
    log = _header(rows[0], path, reader)
    log.torn, log.size = torn, len(data) - len(tail)
    seq = 0  # records accepted so far
    checked = known(path, data) if known is not None else None
    if checked and len(checked) < len(rows):
        log.records.extend(checked)
        seq = len(checked)
    _chain(log, islice(rows, seq + 1, None), reader, rows[seq])
    log.raw = rows[1:]
    return log


def _header(raw: bytes, path: Path, reader: Reader) -> GameLog:
    """A log holding only its header line, checked."""
    try:
        header = reader[0](raw)
    except lines.LineError as err:
        raise CorruptLog(f"{path}: line 1 is not a valid corr header ({err})", kind="schema") from None
    if dump(header) != raw:
        raise CorruptLog(f"{path}: line 1 (the header) {_NONCANONICAL}", kind="noncanonical")
    return GameLog(path=path, header=header, header_raw=raw)


def _chain(log: GameLog, rows: Iterable[bytes], reader: Reader, before: bytes) -> None:
    """Read, check and chain the record lines `rows` after those of `log.records` (the
    last of which, or the header, is `before`), appending each to `log.records`."""
    # This loop runs once per record of every log read (audits read thousands): locals only.
    path, read_record = log.path, reader[1]
    records = log.records
    append = records.append
    sha256 = hashlib.sha256
    canonical = canonical_record
    prev = sha256(before).hexdigest()
    seq = len(records)  # records accepted so far
    plain = lines.plain_record
    for raw in rows:
        record = plain(raw)  # most lines: valid and canonical by their shape
        if record is None:
            try:
                record = read_record(raw)
            except lines.LineError as err:
                raise CorruptLog(
                    f"{path}: line {seq + 2} (seq {seq + 1}) is not a valid record ({err})", seq=seq + 1, kind="schema"
                ) from None
            # One comparison holds the line to its one byte form: dump never writes a
            # space, a needless escape or a key twice, and writes keys in their fixed order.
            try:
                noncanonical = canonical(record) != raw
            except (ValueError, TypeError):  # a reader that let through what dump cannot write
                noncanonical = True
            if noncanonical:
                raise CorruptLog(f"{path}: line {seq + 2} (seq {seq + 1}) {_NONCANONICAL}", seq=seq + 1,
                                 kind="noncanonical")
        seq += 1
        if record.seq != seq:
            raise CorruptLog(
                f"{path}: line {seq + 1} has seq {record.seq}, expected {seq} (records removed or reordered)",
                seq=record.seq,
                kind="seq",
            )
        if record.prev != prev:
            raise CorruptLog(
                f"{path}: seq {record.seq} does not chain to the line before it (prev hash differs): "
                "the log was edited",
                seq=record.seq,
                kind="chain",
            )
        prev = sha256(raw).hexdigest()
        append(record)


def stream(f: BinaryIO, path: Path, reader: Reader = FAST) -> GameLog:
    """`parse` of an open file read a block of lines at a time, keeping no line once its
    record is read (`GameLog.raw` stays empty): the whole file is never in memory at once."""
    first = f.readline()
    if not first:
        raise CorruptLog(f"{path}: the file is empty, not a corr log", kind="schema")
    if not first.endswith(b"\n"):
        raise CorruptLog(f"{path}: no complete header line (the file was torn while written)", kind="torn")
    log = _header(first[:-1], path, reader)
    log.size = len(first)

    def rows() -> Iterator[bytes]:
        """The file's lines after the header, read a block at a time (a line at a time
        costs a record's reading again in calls); what follows the last newline is torn."""
        started: list[bytes] = []  # the blocks of a line that runs on past them
        while block := f.read(_BLOCK):
            if b"\n" not in block:
                started.append(block)
                continue
            if started:
                block = b"".join([*started, block])
                started = []
            lines = block.split(b"\n")
            rest = lines.pop()
            log.size += len(block) - len(rest)
            if rest:
                started.append(rest)
            yield from lines
        if started:
            log.torn = b"".join(started)

    _chain(log, rows(), reader, log.header_raw)
    return log


#: The bytes `stream` reads at a time: many lines, and little beside the records read.
_BLOCK = 1 << 16

_NONCANONICAL = (
    "is not in canonical form (corr writes each line one way: keys in order, no spaces, "
    "no needless escapes, no key twice): it was edited"
)


def sync_dir(directory: Path | str) -> None:
    """fsync a directory, so that a file created or renamed in it survives a crash; a
    platform or file system that refuses is let be."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_new(path: Path | str, data: bytes, mode: int = 0o644, *, sync_folder: bool = True) -> None:
    """Create `path` holding `data`, durably (file and directory fsynced); refuses to
    overwrite: FileExistsError (or another OSError) for the caller to word. Without
    `sync_folder` only the file is fsynced: for a file renamed elsewhere at once, whose
    caller fsyncs the folder it ends in."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:  # a file that could not be written whole is not left half made
        os.close(fd)
        os.unlink(path)
        raise
    os.close(fd)
    if sync_folder:
        sync_dir(Path(path).parent)


def replace_file(path: Path | str, data: bytes, mode: int = 0o644, *, sync_folder: bool = True) -> None:
    """Write `path` atomically: a temporary file beside it, fsynced, renamed over it, and
    the directory fsynced; a crash leaves the old file or the new one, never half.
    Without `sync_folder` the directory is left for the caller to fsync (`sync_dir`),
    once for several files, before anything that relies on the new one: until then a
    crash may leave the old one."""
    path = as_path(path)
    _replace(path, data, mode, durable=True)
    if sync_folder:
        sync_dir(path.parent)


def replace_cache(path: Path | str, data: bytes, mode: int = 0o644) -> None:
    """Write a cache file atomically, but not durably: neither it nor its directory is
    fsynced, so a crash may leave the old file, the new one, or an empty one, which
    its reader takes for no cache at all. Readers never see it half written."""
    _replace(as_path(path), data, mode, durable=False)


def _replace(path: Path, data: bytes, mode: int, durable: bool) -> None:
    """`data` into a temporary file beside `path` (fsynced when `durable`), renamed over it."""
    fd, tmp = _temporary(path)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, mode)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


#: What makes each temporary file's name this process's own (see `_temporary`).
_TEMPORARY = itertools.count()


def _temporary(path: Path) -> tuple[int, str]:
    """A new file, mode 0600, to write the next `path` into: `.NAME.PID.N.tmp` beside it,
    made with O_EXCL, so no other file is ever written through it; a name a stopped
    process left behind is passed over. Cheaper than `tempfile.mkstemp`, whose random
    names a writer numbering its own has no need of."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = os.path.join(path.parent, f".{path.name}.{os.getpid()}.{next(_TEMPORARY)}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue


def _open_error(path: Path, err: OSError) -> UsageError:
    if isinstance(err, FileNotFoundError):
        return UsageError(f"no such game log: {path}")
    if isinstance(err, IsADirectoryError):
        return UsageError(f"{path} is a directory, not a game log")
    return UsageError(f"cannot open {path}: {err.strerror}")


def as_path(path: Path | str) -> Path:
    """`path` as a Path: a Path given stays itself. A copy would parse its text again
    when opened, which costs as much as opening the file (every log read)."""
    return path if isinstance(path, Path) else Path(path)


def read(path: Path | str, reader: Reader = FAST, known: Known | None = None, *, raw: bool = True) -> GameLog:
    """Read a log under a shared lock and check its chain (see `parse` for `known`).
    Without `raw`, the log keeps none of its raw lines (nor a true `tail_hash`: such a
    log is read, never appended to) and the file is read a block of lines at a time, the
    lock held until the last (`stream`): what an audit of a long log reads it with."""
    path = as_path(path)
    with locked(path, "rb", exclusive=False) as f:
        if not raw and known is None:
            return stream(f, path, reader)
        data = f.read()
    return parse(data, path, reader, known)


def create(path: Path | str, header: Header) -> GameLog:
    """Write a new log holding only its header; refuses to overwrite an existing file."""
    path = Path(path)
    raw = dump(header)
    try:
        write_new(path, raw + b"\n")
    except FileExistsError:
        raise UsageError(f"{path} already exists; choose another file name") from None
    except OSError as err:
        raise _open_error(path, err) from None
    return GameLog(path=path, header=header, header_raw=raw, size=len(raw) + 1)


def add(log: GameLog, records: list[Record]) -> list[bytes]:
    """Extend a log in memory (not on disk) by records that continue its chain."""
    written = [dump(r) for r in records]
    prev = log.tail_hash
    for record, raw in zip(records, written):
        if record.prev != prev or record.seq != log.next_seq:
            raise UsageError(f"{log.path}: record seq {record.seq} does not continue the log")
        log.records.append(record)
        log.raw.append(raw)
        prev = line_hash(raw)
    return written


def text(log: GameLog) -> bytes:
    """The whole log as file bytes."""
    return b"".join(raw + b"\n" for raw in [log.header_raw, *log.raw])


class Writer:
    """An open, exclusively locked log: read once, then append whole lines. A write
    that fails, or a block that raises after appending, cuts the file back to the size
    it had when it was opened: a failed command leaves the log as it was."""

    def __init__(self, f, log: GameLog) -> None:
        self._f = f
        self.log = log
        self._start = (log.size, len(log.records))

    def append(self, records: list[Record], expected_prev: str | None = None) -> list[bytes]:
        """Append records whose chain starts at `expected_prev` (default: the tail read).

        Refuses when the file's tail is not the one the records were built on, so two
        writers can never both extend the same position.
        """
        log = self.log
        if expected_prev is not None and expected_prev != log.tail_hash:
            raise UsageError(
                f"{log.path}: the log changed: expected to append after {expected_prev[:12]}, "
                f"its tail is {log.tail_hash[:12]} (seq {len(log.records)})"
            )
        size, count = log.size, len(log.records)
        written = add(log, records)
        blob = b"".join(raw + b"\n" for raw in written)
        try:
            _write_at(self._f.fileno(), blob, size)  # unbuffered: nothing is left to flush later
            os.fsync(self._f.fileno())
        except OSError as err:
            self._cut(size, count)
            raise UsageError(f"{log.path}: could not write to the log ({err.strerror or err}): "
                             "nothing was added, the log is as it was") from None
        log.size += len(blob)
        return written

    def roll_back(self) -> None:
        """Undo every append since the log was opened (a block that failed after them)."""
        if self.log.size != self._start[0] or len(self.log.records) != self._start[1]:
            self._cut(*self._start)

    def _cut(self, size: int, count: int) -> None:
        """The file and the log in memory back to `size` bytes and `count` records."""
        log = self.log
        del log.records[count:], log.raw[count:]
        log.size = size
        try:
            os.ftruncate(self._f.fileno(), size)
            os.fsync(self._f.fileno())
        except OSError as err:  # pragma: no cover - a disk that takes no truncate either
            raise CorruptLog(f"{log.path}: a failed write could not be undone ({err.strerror or err}): "
                             f"run `corr repair {log.path}`", kind="torn") from None


def _write_at(fd: int, data: bytes, offset: int) -> None:
    """All of `data` written at `offset` of the file, past the file object's buffer."""
    view = memoryview(data)
    while view:
        done = os.pwrite(fd, view, offset)
        view, offset = view[done:], offset + done


@contextmanager
def locked(path: Path, mode: Literal["rb", "r+b"], exclusive: bool) -> Iterator[BinaryIO]:
    try:
        f = open(path, mode)
    except OSError as err:
        raise _open_error(path, err) from None
    with f, locking.held(f, exclusive):
        yield f


@contextmanager
def writing(path: Path | str, known: Known | None = None) -> Iterator[Writer]:
    """Lock a log exclusively, read it (see `parse` for `known`), and yield a Writer;
    the lock ends with the block. A log with a torn last line is refused: appending
    after it would bury the tear."""
    path = as_path(path)
    with locked(path, "r+b", exclusive=True) as f:
        log = parse(f.read(), path, known=known)
        if log.torn is not None:
            raise CorruptLog(
                f"{path}: the last line is torn (a write never finished); run `corr repair {path}`", kind="torn"
            )
        writer = Writer(f, log)
        try:
            yield writer
        except BaseException:
            writer.roll_back()
            raise
