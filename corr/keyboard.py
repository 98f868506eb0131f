"""A line typed at the terminal, for `corr play`: with line editing and history where
the platform has them, and a wait a game clock can end.

Where Python has `readline` (not on Windows) and stdin and stdout are a terminal,
`input` reads with it: the arrows move in the line and recall earlier lines, as in a
shell. Anywhere else - a pipe, a script, Windows - a line is read as it comes, and the
codes an arrow key sends arrive as typed text (`corr.session` says so instead of
calling them a bad move).
"""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType, ModuleType


def _readline() -> ModuleType | None:
    """The readline module, imported (which is what gives `input` editing), or None."""
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it
        return None
    return readline


def editing() -> bool:
    """Whether lines are read with editing and history: at a terminal that has them."""
    try:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a stream replaced or closed
        return False
    return interactive and _readline() is not None


def read_line(prompt: str, seconds: float | None = None) -> str | None:
    """A line typed after `prompt`; None at end of input. With `seconds`, "" once they
    pass with nothing typed, so a game clock ends the game even while nobody types."""
    if editing() and (seconds is None or _can_ring()):
        return _edited(prompt, seconds)
    return _plain(prompt, seconds)


class _TimeUp(Exception):
    """The clock rang while readline waited for a line."""


def _ring(signum: int, frame: FrameType | None) -> None:
    raise _TimeUp


def _can_ring() -> bool:
    """Whether an alarm can end readline's wait (POSIX, on the main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _edited(prompt: str, seconds: float | None) -> str | None:
    """`input` with readline; a clock rings a SIGALRM, which readline gives way to."""
    previous = None
    if seconds is not None:
        previous = signal.signal(signal.SIGALRM, _ring)
    try:
        if seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))  # 0 would never ring
        return input(prompt)
    except EOFError:
        return None
    except _TimeUp:
        sys.stdout.write("\n")
        sys.stdout.flush()
        return ""
    finally:
        if seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)


def _plain(prompt: str, seconds: float | None) -> str | None:
    """The line as the stream gives it; with `seconds`, a select() that can end the wait."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    if seconds is not None:
        import select

        try:
            ready, _, _ = select.select([sys.stdin], [], [], max(0.0, seconds))
        except (OSError, ValueError):  # a stream select cannot wait on (Windows): just read
            ready = [sys.stdin]
        if not ready:
            sys.stdout.write("\n")
            return ""
    line = sys.stdin.readline()
    return line if line else None
