"""The rules of each game, `docs/rules/<game>.md`, for `corr rules`: the whole text, one
section or one rule, by the numbers every refusal cites (`combat 2.2: ...`).

The files are markdown, for a reader on the web; a terminal gets them as plain text
(`plain`). Only the standard library is imported besides the registry of game names, so
`corr rules` costs no more to start than the command line itself.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from corr.errors import UsageError
from corr.resources import resource_dir

#: Plain text is wrapped to fit an 80-column terminal.
WIDTH = 79

SECTION = re.compile(r"## (\d+) ")
RULE = re.compile(r"\*\*(\d+\.\d+[a-z]?)\*\* ")
NUMBER = re.compile(r"\d+(?:\.\d+[a-z]?)?")
LIST_ITEM = re.compile(r"- ")
FENCE = "```"
#: A space that wrapping keeps (inside `code`), put back after.
KEEP = "\x00"


@dataclass(frozen=True)
class Rulebook:
    """One game's rules: the whole markdown, and the lines of every section ("3") and
    rule ("3.5") by number, in the order they stand. A rule runs to the next rule or
    section, so a ruling written below it belongs to it."""

    game: str
    text: str
    parts: dict[str, list[str]]


def folder() -> Path:
    """Where the rules are: inside the installed package, else in the checkout."""
    return resource_dir("docs/rules")


def parse(game: str, text: str) -> Rulebook:
    """A game's rules file read into its numbered parts; a number twice is a broken file."""
    parts: dict[str, list[str]] = {}
    section: list[str] | None = None
    rule: list[str] | None = None
    fenced = False
    for line in text.splitlines():
        if line.startswith(FENCE):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            heading = SECTION.match(line)
            section = rule = None
            if heading:
                section = _new_part(parts, heading.group(1), game)
        elif not fenced and (start := RULE.match(line)) and section is not None:
            rule = _new_part(parts, start.group(1), game)
        for part in (section, rule):
            if part is not None:
                part.append(line)
    return Rulebook(game, text, {number: _trimmed(lines) for number, lines in parts.items()})


def _new_part(parts: dict[str, list[str]], number: str, game: str) -> list[str]:
    if number in parts:
        raise ValueError(f"{game}: rule {number} stands twice in its rules file")
    parts[number] = []
    return parts[number]


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def load(game: str) -> Rulebook:
    """The rules of `game`, a registered game's name."""
    path = folder() / f"{game}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"there are no rules for {game} ({path} is missing)") from None
    return parse(game, text)


def lookup(given: str, rule: str | None = None) -> str:
    """`corr rules GAME [RULE]` as plain text. GAME may carry the rule as a refusal
    cites it (`combat 2.2`, `combat 2.2:`); RULE is a rule (`3.5`) or a section (`3`)."""
    from corr.games import canonical

    words = given.split()
    if not words or len(words) > 2 or (len(words) == 2 and rule is not None):
        raise UsageError(f"{' '.join(filter(None, (given, rule)))!r}: name a game and at most one rule, "
                         "like `corr rules combat 2.2`")
    if len(words) == 2:
        rule = words[1]
    book = load(canonical(words[0]))
    if rule is None:
        return plain(book.text.splitlines())
    number = rule.strip().strip("():").lower()
    part = book.parts.get(number)
    if part is None:
        said = number if NUMBER.fullmatch(number) else repr(rule)
        raise UsageError(f"{book.game} has no rule {said}; its sections and rules: {contents(book)}")
    return plain(part)


def contents(book: Rulebook) -> str:
    """`1 (1.1-1.3), 2 (2.1-2.3), 4 (4.1, 4.2), 6`: every section with its rules."""
    listed = []
    for section in (n for n in book.parts if "." not in n):
        rules = [n for n in book.parts if n.split(".")[0] == section and "." in n]
        listed.append(f"{section} ({_runs(rules)})" if rules else section)
    return ", ".join(listed)


def _runs(numbers: list[str]) -> str:
    """`3.1-3.5` for three or more rules in a row, else the numbers one by one."""
    runs: list[list[str]] = []
    for number in numbers:
        last = runs[-1][-1] if runs else ""
        if last.replace(".", "").isdigit() and number.replace(".", "").isdigit() \
                and int(number.split(".")[1]) == int(last.split(".")[1]) + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) >= 3 else ", ".join(run) for run in runs)


def plain(lines: list[str]) -> str:
    """Markdown as plain text for a terminal: headings underlined, paragraphs and list
    items wrapped to WIDTH, code indented, bold and links undone; `code` stays as it is."""
    out: list[str] = []
    held: list[str] = []  # the paragraph or list item being read
    marker = ""  # "- " while that is a list item

    def flush() -> None:
        nonlocal marker
        if held:
            # `7 (3,4) !1` is one thing: a line never breaks inside backticks
            text = re.sub(r"`[^`]*`", lambda code: code.group().replace(" ", KEEP),
                          _inline(" ".join(part.strip() for part in held)))
            wrapped = textwrap.wrap(text, WIDTH, initial_indent=marker, subsequent_indent=" " * len(marker),
                                    break_long_words=False, break_on_hyphens=False)
            out.extend(line.replace(KEEP, " ") for line in wrapped)
        held.clear()
        marker = ""

    fenced = False
    for line in lines:
        if line.startswith(FENCE):
            flush()
            fenced = not fenced
        elif fenced:
            out.append("    " + line)
        elif not line.strip():
            flush()
            out.append("")
        elif line.startswith("#"):
            flush()
            title = _inline(line.lstrip("#").strip())
            out += [title, ("=" if line.startswith("# ") else "-") * len(title)]
        elif LIST_ITEM.match(line):
            flush()
            marker = "- "
            held.append(line[2:])
        else:
            held.append(line)
    flush()
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")
    return text + "\n"


def _inline(text: str) -> str:
    """Bold and emphasis marks dropped, a link as its text."""
    text = text.replace("**", "")
    text = re.sub(r"(?<![\w`])\*(\w[^*]*?)\*(?!\w)", r"\1", text)
    return re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
