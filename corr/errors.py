"""The three kinds of trouble corr reports, and their exit codes.

Every error carries a one-line message meant for people; the CLI maps the class to
an exit code in one place (0 ok, 1 rule or usage error, 2 corrupt or forged log).
"""

from __future__ import annotations


class CorrError(Exception):
    """Base of every error corr reports to a user."""

    exit_code = 1


class UsageError(CorrError, ValueError):
    """Bad options, unknown game, missing file: the request itself is wrong."""


class NotationError(CorrError, ValueError):
    """A move that is not valid notation; quotes the input and points at the fault."""

    def __init__(self, text: str, pos: int, reason: str) -> None:
        self.text = text
        self.pos = pos
        self.reason = reason
        found = repr(text[pos]) if pos < len(text) else "end of input"
        super().__init__(f"bad notation {text!r}: {reason} at column {pos + 1} ({found})")


class IllegalMove(CorrError, ValueError):
    """A well-formed move the rules refuse; names the rule and the cells involved."""

    def __init__(self, rule: str, message: str, cells: tuple[int, ...] = ()) -> None:
        self.rule = rule
        self.cells = cells
        super().__init__(f"{rule}: {message}" if rule else message)


class CorruptLog(CorrError):
    """The log is damaged or tampered with: broken chain, bad hash, torn line, forged move."""

    exit_code = 2

    def __init__(self, message: str, seq: int | None = None, kind: str = "corrupt") -> None:
        self.seq = seq
        self.kind = kind
        super().__init__(message)


class CorrWarning(UserWarning):
    """Something a user should know that does not stop the command (a secret others can
    read): the CLI prints it as one `corr: warning:` line on stderr."""
