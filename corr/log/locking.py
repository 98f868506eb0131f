"""Whole-file locks on an open log: shared for readers, exclusive for writers.

The standard library has no portable file lock, only each platform's own call:
`fcntl.flock` on POSIX, `msvcrt.locking` on Windows. Neither module exists on the other
platform, so nothing here imports one until a lock is taken: importing corr never fails,
and the platform is an argument of `backend`, which tests can name.

Both are blocking, advisory between corr processes, and released when `held` ends.
`msvcrt` knows no shared lock, so on Windows readers take the exclusive one too: reads of
one log wait for each other there, which costs time but never correctness.
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from functools import cache
from typing import BinaryIO, Iterator, Protocol

from corr.errors import UsageError


class Backend(Protocol):
    """One platform's way to lock and unlock a whole open file."""

    def lock(self, f: BinaryIO, exclusive: bool) -> None: ...

    def unlock(self, f: BinaryIO) -> None: ...

    def try_lock(self, f: BinaryIO) -> bool:
        """Take the exclusive lock if it is free now; False when another holds it."""
        ...


class Flock:
    """POSIX: `flock` on the whole file, shared or exclusive, waiting until granted."""

    def lock(self, f: BinaryIO, exclusive: bool) -> None:
        fcntl = _platform_module("fcntl")
        fcntl.flock(f.fileno(), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)

    def unlock(self, f: BinaryIO) -> None:
        fcntl = _platform_module("fcntl")
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)

    def try_lock(self, f: BinaryIO) -> bool:
        fcntl = _platform_module("fcntl")
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


#: The byte range a Windows lock covers, from offset 0: far past any log (msvcrt takes a
#: C long), and a range may extend beyond the end of the file, so appends stay covered.
WINDOWS_SPAN = 0x7FFFFFFF

#: What `msvcrt.locking(LK_LOCK)` raises when it gave up after its ten one-second tries
#: (the range is still held by another process): try again, as a blocking lock does.
_STILL_HELD = frozenset({errno.EDEADLK, errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK)})


class MsvcrtLock:
    """Windows: `msvcrt.locking` on bytes 0..WINDOWS_SPAN, always exclusive."""

    def lock(self, f: BinaryIO, exclusive: bool) -> None:
        msvcrt = _platform_module("msvcrt")
        with _at_start(f) as fd:
            while True:
                try:
                    msvcrt.locking(fd, msvcrt.LK_LOCK, WINDOWS_SPAN)
                    return
                except OSError as err:
                    if err.errno not in _STILL_HELD:
                        raise

    def unlock(self, f: BinaryIO) -> None:
        msvcrt = _platform_module("msvcrt")
        f.flush()
        with _at_start(f) as fd:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, WINDOWS_SPAN)

    def try_lock(self, f: BinaryIO) -> bool:
        msvcrt = _platform_module("msvcrt")
        with _at_start(f) as fd:
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, WINDOWS_SPAN)
            except OSError as err:
                if err.errno in _STILL_HELD:
                    return False
                raise
        return True


@contextmanager
def _at_start(f: BinaryIO) -> Iterator[int]:
    """msvcrt locks from the descriptor's position: lock from 0, then put it back."""
    fd = f.fileno()
    position = os.lseek(fd, 0, os.SEEK_CUR)
    os.lseek(fd, 0, os.SEEK_SET)
    try:
        yield fd
    finally:
        os.lseek(fd, position, os.SEEK_SET)


@cache
def _platform_module(name: str):  # type: ignore[no-untyped-def]
    """The platform's locking module, or a one-line error where it has none; looked up
    once a process (every log read takes a lock and lets it go)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        raise UsageError(
            f"cannot lock the log: this Python has no {name} module, which file locking needs here"
        ) from None


def backend(platform: str) -> Backend:
    """The lock calls for a platform named as `os.name` names it ('nt', 'posix', ...)."""
    return MsvcrtLock() if platform == "nt" else Flock()


@cache
def _native() -> Backend:
    return backend(os.name)


@contextmanager
def held(f: BinaryIO, exclusive: bool) -> Iterator[BinaryIO]:
    """Hold a lock on the whole of `f` for the block (waiting until it is granted)."""
    locks = _native()
    locks.lock(f, exclusive)
    try:
        yield f
    finally:
        locks.unlock(f)


@contextmanager
def attempt(f: BinaryIO) -> Iterator[bool]:
    """Hold the exclusive lock on `f` for the block if it is free now: yields whether it
    was taken (one process at a time does a job, a second one leaves at once)."""
    locks = _native()
    taken = locks.try_lock(f)
    try:
        yield taken
    finally:
        if taken:
            locks.unlock(f)
