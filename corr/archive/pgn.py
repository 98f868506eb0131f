"""PGN out and back: games a PGN reader can split and whose tags it reads, which also
carry every line of their log, so that corr reads them back into the same bytes.

Each game is the seven tags PGN readers expect (Event, Site, Date, Round, White, Black,
Result), a tag per seat (`[A "Anna"]`), tags of corr's own (Game, Id, Options,
Winners) and `CorrHeader`, the log's header line; then one line per record: its seq as
the move number, the seat, the move in corr's notation (or the record's type), and
after `;` - PGN's comment to the end of the line - the record's line exactly as the
log holds it. A PGN reader shows the moves and skips the comments; corr reads the
header tag and the comments back.

A PGN file is hostile input: it is read in bounded lines, must be UTF-8, and a file
that does not parse stores nothing; the error names the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from corr.errors import UsageError
from corr.names import visible

#: The longest line read (a log line is at most a few tens of KiB, escaped in a tag twice that).
MAX_LINE = 256 * 1024
#: The largest PGN file read: every game in it is held before any is stored.
MAX_FILE = 256 * 1024 * 1024
#: How deep PGN variations `( ... )` may nest before the file is refused.
MAX_DEPTH = 64
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
HEADER_TAG = "CorrHeader"

_TAG = re.compile(r'\[([A-Za-z0-9_]{1,64})[ \t]+"((?:[^"\\]|\\["\\])*)"\][ \t]*')
_UNSAFE = re.compile(r'[{};\[\]%"\\]')


# --- writing --------------------------------------------------------------------------
def _tag_value(text: str) -> str:
    """A tag's value as PGN escapes it; text from a log shows its controls as escapes."""
    return visible(text).replace("\\", "\\\\").replace('"', '\\"')


def _shown(text: str) -> str:
    """A move as movetext shows it: nothing in it may open a comment, a tag or a result."""
    words = [_UNSAFE.sub("?", visible(word)) for word in text.split()]
    return " ".join("?" if word in RESULTS else word for word in words) or "?"


def result_tag(seats: list[str], over: bool, winners: list[str]) -> str:
    """PGN's result: of two seats, White (seat A) or Black (seat B) won, or a draw; a
    game of one seat or of three and more, or one still going, is `*` (the Winners tag
    says who won)."""
    if not over or len(seats) != 2:
        return "*"
    if len(winners) == 1:
        return "1-0" if winners[0] == seats[0] else "0-1"
    return "1/2-1/2"


def game_text(game: dict[str, Any], log: bytes) -> str:
    """One game as PGN: `game` as `corr.archive.query.games` gives it, `log` its bytes."""
    import json

    lines = log.decode().split("\n")
    header, records = lines[0], [line for line in lines[1:] if line]
    seats = [s["seat"] for s in game["seats"]]
    players = {s["seat"]: s["player"] for s in game["seats"]}
    tags = [
        ("Event", f"corr {game['game']}"),
        ("Site", "?"),
        ("Date", game["created"][:10].replace("-", ".")),
        ("Round", "-"),
        ("White", players.get(seats[0], "?")),
        ("Black", players[seats[1]] if len(seats) > 1 else "-"),
        ("Result", result_tag(seats, game["over"], game["winners"])),
        *[(seat, players[seat]) for seat in seats],
        ("Game", game["game"]),
        ("Id", game["id"]),
        ("Options", " ".join(f"{k}={v}" for k, v in game["options"].items())),
    ]
    if game["over"]:
        tags.append(("Winners", " ".join(game["winners"]) or "-"))
    tags.append((HEADER_TAG, header))
    out = [f'[{name} "{_tag_value(value) if name != HEADER_TAG else _escape(value)}"]' for name, value in tags]
    out.append("")
    for line in records:
        record = json.loads(line)
        move = record.get("move") if record.get("type") == "move" else record.get("type")
        out.append(f"{record['seq']}. {_shown(str(record.get('by', '?')))} {_shown(str(move))} ; {line}")
    out.append(result_tag(seats, game["over"], game["winners"]))
    return "\n".join(out) + "\n\n"


def _escape(text: str) -> str:
    """The header line in its tag: only PGN's two escapes, so it reads back exactly."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


# --- reading --------------------------------------------------------------------------
@dataclass
class Game:
    """One game read from a PGN file: its tags, its `;` comments and where it starts."""

    line: int
    tags: dict[str, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)

    def log(self) -> bytes | None:
        """The log these lines rebuild, or None for a game corr did not write."""
        header = self.tags.get(HEADER_TAG)
        if header is None:
            return None
        return "".join(line + "\n" for line in [header, *self.comments]).encode()


def _lines(f: BinaryIO, name: str) -> Iterator[tuple[int, str]]:
    """Numbered lines of UTF-8 text without their ends, each at most MAX_LINE bytes."""
    number = 0
    total = 0
    while True:
        raw = f.readline(MAX_LINE + 2)
        if not raw:
            return
        number += 1
        total += len(raw)
        if total > MAX_FILE:
            raise UsageError(f"{name}: line {number}: the file is larger than {MAX_FILE // 2**20} MiB")
        if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
            raise UsageError(f"{name}: line {number}: longer than {MAX_LINE // 1024} KiB")
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"{name}: line {number}: not UTF-8 text (corr writes PGN in UTF-8)") from None


def read(path: Path) -> list[Game]:
    """Every game of a PGN file; a file that does not parse is refused whole."""
    name = visible(str(path))
    if not path.is_file():
        raise UsageError(f"{name}: not a regular file")
    with open(path, "rb") as f:
        return parse(_lines(f, name), name)


def parse(lines: Iterator[tuple[int, str]], name: str) -> list[Game]:
    """The games of numbered PGN lines (see `read`)."""
    games: list[Game] = []
    game: Game | None = None
    in_moves = False
    comment: int | None = None  # the line a `{` comment opened on, while inside one
    depth = 0
    number = 0
    for number, text in lines:
        if comment is not None:
            end = text.find("}")
            if end < 0:
                continue
            comment, text = None, text[end + 1:]
        elif not in_moves:
            stripped = text.strip()
            if not stripped or stripped.startswith("%"):
                continue
            if stripped.startswith("["):
                match = _TAG.fullmatch(stripped)
                if match is None:
                    raise UsageError(f"{name}: line {number}: not a PGN tag ([Name \"value\"])")
                if game is None:
                    game = Game(number)
                if match[1] in game.tags:
                    raise UsageError(f"{name}: line {number}: a second {visible(match[1])} tag in one game")
                game.tags[match[1]] = re.sub(r'\\(["\\])', r"\1", match[2])
                continue
            in_moves = True
            if game is None:
                game = Game(number)
        elif text.startswith("%"):
            continue
        assert game is not None
        at = 0
        while at < len(text):
            ch = text[at]
            if ch == ";":
                game.comments.append(text[at + 1:].removeprefix(" "))
                break
            if ch == "{":
                end = text.find("}", at + 1)
                if end < 0:
                    comment = number
                    break
                at = end + 1
                continue
            if ch == "(":
                depth += 1
                if depth > MAX_DEPTH:
                    raise UsageError(f"{name}: line {number}: variations nested deeper than {MAX_DEPTH}")
            elif ch == ")":
                depth -= 1
                if depth < 0:
                    raise UsageError(f"{name}: line {number}: a `)` that closes no variation")
            elif not ch.isspace():
                word = re.match(r"[^\s(){};]+", text[at:])
                assert word is not None
                if word[0] in RESULTS and depth == 0:
                    games.append(game)
                    game, in_moves = None, False
                    rest = text[at + len(word[0]):].strip()
                    if rest:
                        raise UsageError(f"{name}: line {number}: more after the game's result")
                    break
                at += len(word[0])
                continue
            at += 1
    if comment is not None:
        raise UsageError(f"{name}: line {comment}: a comment `{{` that is never closed")
    if game is not None:
        raise UsageError(f"{name}: line {game.line}: the game starting here ends without a result (1-0, 0-1, 1/2-1/2 or *)")
    return games
