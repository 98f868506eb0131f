"""Move notation of all five games: one parser, one formatter, no game rules.

Players type moves by hand in mail, so input is forgiving (spaces anywhere between
tokens, `.` for `,` in coordinates, the solver's `r4c7`, any case); output is one
canonical form so that logs, hashes and diffs stay stable. Parsing checks syntax only:
whether a move is legal is the games' business.

Audits parse every record of long logs, so parse is memoised (moves are immutable) and
the common canonical placement goes through one compiled regex; everything else goes
through a small hand-written scanner that can point at the exact character that is
wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from corr.errors import NotationError
from corr.geometry import FIELD_OF, PLACE_OF, cell_of

__all__ = [
    "Move",
    "MOVE_TYPES",
    "Placement",
    "Joker",
    "PieceMove",
    "Correction",
    "ShimaPick",
    "JOKER_KINDS",
    "PIECE_LETTERS",
    "parse",
    "canonical",
    "parse_cell",
    "format_move",
]

#: Joker kinds of Sudoku Domino, in their canonical (lower-case) spelling.
JOKER_KINDS = ("grey", "gold")
#: Hired pieces of Sudoku War; numbers move too and are written by their digit.
PIECE_LETTERS = "SCLNI"

# Canonical names by cell, and cells by (field, place): built once, used per move.
_NAMES: tuple[str, ...] = tuple(f"({FIELD_OF[c]},{PLACE_OF[c]})" for c in range(81))
_CELL_FP: tuple[tuple[int, ...], ...] = ((),) + tuple(
    (-1,) + tuple(cell_of(f, p) for p in range(1, 10)) for f in range(1, 10)
)
_PIECES = frozenset(PIECE_LETTERS + PIECE_LETTERS.lower())  # accepted on input
_PIECE_NAMES = frozenset(PIECE_LETTERS + "123456789")  # canonical PieceMove.piece values
_DIGIT_CHARS = frozenset("0123456789")


# Every canonical claim list (sorted, unique fields 1..9) and its text: the constructor
# checks membership instead of re-sorting, and the fast path looks the text up.
# Each list is a shorter one (its highest field dropped) plus that field: one step each.
_claim_lists: list[tuple[int, ...]] = [()]
for _bits in range(1, 512):
    _high = _bits.bit_length()
    _claim_lists.append(_claim_lists[_bits ^ (1 << (_high - 1))] + (_high,))
_CLAIM_TEXT: dict[str, tuple[int, ...]] = {",".join(map(str, t)): t for t in _claim_lists[1:]}
del _claim_lists, _bits, _high
_CLAIMS: frozenset[tuple[int, ...]] = frozenset(_CLAIM_TEXT.values()) | {()}


def _check_cell(cell: object) -> None:
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell <= 80:
        raise ValueError(f"cell must be an int 0..80, not {cell!r}")


def _check_1_9(what: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9:
        raise ValueError(f"{what} must be an int 1..9, not {value!r}")


@dataclass(frozen=True, slots=True)
class Placement:
    """A digit put on a cell (Combat, Moyo, Domino), optionally with Combat's claim mark.

    `claim` is None without a mark, `()` for a bare `!` (claims every field the move
    conquers) and otherwise the named fields, kept sorted and unique so that equal
    claims compare equal however they were typed.
    """

    digit: int
    cell: int
    claim: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        # Inline checks: this runs once per parsed record.
        d, c, claim = self.digit, self.cell, self.claim
        if type(d) is not int or not 0 < d < 10:
            _check_1_9("digit", d)
        if type(c) is not int or not 0 <= c <= 80:
            _check_cell(c)
        if claim is not None and (type(claim) is not tuple or claim not in _CLAIMS):
            for f in claim:
                _check_1_9("claimed field", f)
            object.__setattr__(self, "claim", tuple(sorted(set(claim))))

    def __str__(self) -> str:
        claim = self.claim
        if claim is None:
            return f"{self.digit} {_NAMES[self.cell]}"
        return f"{self.digit} {_NAMES[self.cell]} !{','.join(map(str, claim))}"


@dataclass(frozen=True, slots=True)
class Joker:
    """A Domino joker played on an empty cell, without docking."""

    kind: str
    cell: int

    def __post_init__(self) -> None:
        if self.kind not in JOKER_KINDS:
            raise ValueError(f"joker kind must be 'grey' or 'gold', not {self.kind!r}")
        _check_cell(self.cell)

    def __str__(self) -> str:
        return f"{self.kind} {_NAMES[self.cell]}"


@dataclass(frozen=True, slots=True)
class PieceMove:
    """A Sudoku War move: a hired piece (S C L N I) or a number ('1'..'9') going src -> dst."""

    piece: str
    src: int
    dst: int
    capture: bool

    def __post_init__(self) -> None:
        # Inline checks: a War log's moves are nearly all different, each made once.
        if self.piece not in _PIECE_NAMES:
            raise ValueError(f"piece must be one of S C L N I or a digit 1-9, not {self.piece!r}")
        src, dst = self.src, self.dst
        if type(src) is not int or not 0 <= src <= 80:
            _check_cell(src)
        if type(dst) is not int or not 0 <= dst <= 80:
            _check_cell(dst)
        if type(self.capture) is not bool:
            raise ValueError(f"capture must be a bool, not {self.capture!r}")

    def __str__(self) -> str:
        return f"{self.piece} {_NAMES[self.src]}{'x' if self.capture else '-'}{_NAMES[self.dst]}"


@dataclass(frozen=True, slots=True)
class Correction:
    """A War Corrector's replacement: the number on `cell` becomes `digit`."""

    cell: int
    digit: int

    def __post_init__(self) -> None:
        _check_cell(self.cell)
        _check_1_9("digit", self.digit)

    def __str__(self) -> str:
        return f"{_NAMES[self.cell]}={self.digit}"


@dataclass(frozen=True, slots=True)
class ShimaPick:
    """A Moyo draft pick of a Shima field; 1..9 here, the rules exclude field 5."""

    field: int

    def __post_init__(self) -> None:
        _check_1_9("field", self.field)

    def __str__(self) -> str:
        return f"shima {self.field}"


Move = Placement | Joker | PieceMove | Correction | ShimaPick
#: The move classes, for isinstance checks (a union is not iterable).
MOVE_TYPES = (Placement, Joker, PieceMove, Correction, ShimaPick)


def format_move(move: Move) -> str:
    """The canonical text of a move; the same as str(move), but refuses non-moves."""
    if not isinstance(move, MOVE_TYPES):
        raise TypeError(f"not a move: {move!r}")
    return str(move)


# ---------------------------------------------------------------------------------
# Parsing

# Exactly the canonical placement, with or without a claim: the bulk of every log.
# fullmatch (not `$`, which would accept a trailing newline).
_FAST_PLACEMENT = re.compile(r"([1-9]) \(([1-9]),([1-9])\)( !([1-9](?:,[1-9])*)?)?")


def _fail(text: str, pos: int, reason: str) -> NotationError:
    return NotationError(text, pos, reason)


def _skip(text: str, i: int) -> int:
    """Index of the first non-space character at or after i."""
    n = len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


def _digit(text: str, i: int, what: str) -> int:
    """Read one digit 1..9 at i; `what` names it in the error ("field", "place", ...)."""
    n = len(text)
    if i >= n:
        raise _fail(text, n, f"expected a {what} 1-9")
    ch = text[i]
    if ch == "0":
        raise _fail(text, i, f"{what} 0 is not 1-9")
    if not "1" <= ch <= "9":
        raise _fail(text, i, f"expected a {what} 1-9")
    if i + 1 < n and text[i + 1] in _DIGIT_CHARS:
        raise _fail(text, i + 1, f"expected a single {what} 1-9, not a longer number")
    return ord(ch) - 48


def _cell(text: str, i: int) -> tuple[int, int]:
    """Read a cell `(F,P)` / `(F.P)` / `rRcC` at i; return (cell, index after it)."""
    n = len(text)
    if i >= n:
        raise _fail(text, n, "expected a cell like (5,4) or r4c7")
    ch = text[i]
    if ch == "(":
        i = _skip(text, i + 1)
        f = _digit(text, i, "field")
        i = _skip(text, i + 1)
        if i >= n or text[i] not in ",.":
            raise _fail(text, i, "expected ',' between field and place")
        i = _skip(text, i + 1)
        p = _digit(text, i, "place")
        i = _skip(text, i + 1)
        if i >= n or text[i] != ")":
            raise _fail(text, i, "expected ')'")
        return _CELL_FP[f][p], i + 1
    if ch == "r" or ch == "R":
        r = _digit(text, i + 1, "row")
        if i + 2 >= n or text[i + 2] not in "cC":
            raise _fail(text, i + 2, "expected 'c' and a column")
        c = _digit(text, i + 3, "column")
        return (r - 1) * 9 + (c - 1), i + 4
    raise _fail(text, i, "expected a cell like (5,4) or r4c7")


def _claims(text: str, i: int) -> tuple[tuple[int, ...], int]:
    """Read the claimed fields after a `!` (i is just past it); may be none."""
    n = len(text)
    i = _skip(text, i)
    if i >= n or not (text[i] in _DIGIT_CHARS or text[i] == ","):
        return (), i
    fields = {_digit(text, i, "field")}
    i = _skip(text, i + 1)
    while i < n and text[i] == ",":
        i = _skip(text, i + 1)
        fields.add(_digit(text, i, "field"))
        i = _skip(text, i + 1)
    if i < n and text[i] in _DIGIT_CHARS:
        raise _fail(text, i, "expected ',' between claimed fields")
    return tuple(sorted(fields)), i


def _target(text: str, i: int) -> tuple[int, bool, int] | None:
    """If a '-' or 'x' follows at i (after spaces), read the target: (dst, capture, end)."""
    j = _skip(text, i)
    if j < len(text):
        sep = text[j]
        if sep == "-" or sep == "x" or sep == "X":
            dst, end = _cell(text, _skip(text, j + 1))
            return dst, sep != "-", end
    return None


def _parse_general(text: str) -> Move:
    """The forgiving scanner: every accepted spelling, and precise errors."""
    n = len(text)
    i = _skip(text, 0)
    if i >= n:
        raise _fail(text, n, "empty move")
    ch = text[i]
    move: Move
    if ch in _DIGIT_CHARS:
        digit = _digit(text, i, "digit")
        src, i = _cell(text, _skip(text, i + 1))
        tgt = _target(text, i)
        if tgt is not None:
            dst, capture, i = tgt
            move = PieceMove(ch, src, dst, capture)
        else:
            j = _skip(text, i)
            if j < n and text[j] == "!":
                claim, i = _claims(text, j + 1)
                move = Placement(digit, src, claim)
            else:
                move = Placement(digit, src)
    elif ch == "(" or ch == "r" or ch == "R":
        cell, i = _cell(text, i)
        i = _skip(text, i)
        if i >= n or text[i] != "=":
            raise _fail(text, i, "expected '=' and a digit after the cell")
        i = _skip(text, i + 1)
        move = Correction(cell, _digit(text, i, "digit"))
        i += 1
    else:
        word = text[i : i + 5].lower()
        if word == "shima":
            i = _skip(text, i + 5)
            move = ShimaPick(_digit(text, i, "field"))
            i += 1
        elif word[:4] in JOKER_KINDS:
            cell, i = _cell(text, _skip(text, i + 4))
            move = Joker(word[:4], cell)
        elif ch in _PIECES:
            src, i = _cell(text, _skip(text, i + 1))
            tgt = _target(text, i)
            if tgt is None:
                raise _fail(
                    text,
                    _skip(text, i),
                    "expected '-' or 'x' and a target cell (a piece letter moves, only digits are placed)",
                )
            dst, capture, i = tgt
            move = PieceMove(ch.upper(), src, dst, capture)
        else:
            raise _fail(
                text, i, "expected a move: a digit, a piece letter S C L N I, a cell, grey, gold or shima"
            )
    i = _skip(text, i)
    if i < n:
        if text[i] == "!" and not isinstance(move, Placement):
            raise _fail(text, i, "a claim mark '!' only follows a placement")
        raise _fail(text, i, "unexpected text after the move")
    return move


@lru_cache(maxsize=8192)
def parse(text: str) -> Move:
    """Parse one move of any game; raises NotationError pointing into `text`.

    Memoised (moves are immutable, and a log repeats the same few hundred spellings);
    errors are not cached.
    """
    m = _FAST_PLACEMENT.fullmatch(text)
    if m is not None:
        d, f, p, bang, fields = m.groups()
        claim: tuple[int, ...] | None
        if bang is None:
            claim = None
        elif fields is None:
            claim = ()
        else:
            # "4,1,4" is not canonical: the constructor sorts and dedups it.
            claim = _CLAIM_TEXT.get(fields) or tuple(ord(c) - 48 for c in fields[::2])
        return Placement(ord(d) - 48, _CELL_FP[ord(f) - 48][ord(p) - 48], claim)
    return _parse_general(text)


#: Exactly a War move as `str` writes it (a piece or a number, its cell, `-` or `x`,
#: the target): read off the match, it needs no scan and no second spelling to compare.
#: A War log's moves are nearly all different, so few of them are in the cache.
_CANONICAL_PIECE_MOVE = re.compile(r"([SCLNI1-9]) \(([1-9]),([1-9])\)([-x])\(([1-9]),([1-9])\)").fullmatch


@lru_cache(maxsize=8192)
def canonical(text: str) -> Move:
    """Parse a move as a log stores it: only in its one canonical spelling (what
    `str(move)` writes), so two copies of one game are the same bytes. Players' input
    is forgiving (`parse`); a log is not."""
    m = _CANONICAL_PIECE_MOVE(text)
    if m is not None:
        piece, f, p, sep, tf, tp = m.groups()
        return PieceMove(piece, _CELL_FP[ord(f) - 48][ord(p) - 48], _CELL_FP[ord(tf) - 48][ord(tp) - 48], sep == "x")
    move = parse(text)
    written = str(move)
    if written != text:
        at = next((i for i, (a, b) in enumerate(zip(text, written)) if a != b), min(len(text), len(written)))
        raise NotationError(text, at, f"a log writes this move {written!r}, one spelling per move")
    return move


def parse_cell(text: str) -> int:
    """Parse a lone cell (`(5,4)`, `(5.4)`, `r4c7`, spaces allowed) to its index 0..80."""
    cell, i = _cell(text, _skip(text, 0))
    i = _skip(text, i)
    if i < len(text):
        raise _fail(text, i, "unexpected text after the cell")
    return cell
