"""Every HTML page corr makes, built the way players get them, each with what a player
must be able to read on it: whose turn or the result, the scores, every digit of the
board. The browser tests (test_browser.py) open each page in Chromium and look.

Pages come from the CLI run in-process (`corr show`, `corr audit`, `corr referee
examine`) on the games in examples/, and from `corr.mail.compose` on games made here;
what each must show comes from the same command's JSON, never from the HTML itself.
"""

from __future__ import annotations

import email
import email.policy
import io
import json
import re
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from corr.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: Characters a board cell may show beyond the pieces: Domino's docking `o` and
#: unreachable `x`, War's must-take `!` and frozen `#`, Moyo's dot; what is left must be
#: the cell's piece.
PIECES = {"domino": "123456789gG", "war": "123456789SCLNI"}


@dataclass
class Page:
    """One HTML page and what a player must find on it.

    `lines`: groups of strings that must stand together on one line of the page's text
    (a seat's name beside its score, "To move" beside the seat's name). `boards`: for
    each board on the page in order, the piece every cell (by its name, "(5,4)") must
    show, "" for an empty cell. `pieces`: the characters that count as a piece.
    `marks`: a letter a cell of the first board must also show (a conquered field's
    owner in its first place, so that seats differ without colour).
    """

    name: str
    html: str
    lines: list[tuple[str, ...]] = field(default_factory=list)
    boards: list[dict[str, str]] = field(default_factory=list)
    pieces: str = "123456789"
    marks: dict[str, str] = field(default_factory=dict)


def run(*args: str | Path) -> str:
    """`corr ARGS...` in-process; its stdout. A non-zero exit is a failure of the test."""
    buf = io.StringIO()
    code: int | str | None = 0
    with redirect_stdout(buf):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code
    assert code in (0, None), f"corr {' '.join(map(str, args))} exited {code}"
    return buf.getvalue()


def cell_name(i: int) -> str:
    """The move-notation name "(field,place)" of row-major cell index 0-80."""
    row, col = divmod(i, 9)
    return f"({row // 3 * 3 + col // 3 + 1},{row % 3 * 3 + col % 3 + 1})"


def board_cells(board: str) -> dict[str, str]:
    """An 81-character board (`.` empty) as {cell name: piece}."""
    return {cell_name(i): ("" if ch == "." else ch) for i, ch in enumerate(board)}


def seat_name(p: dict[str, Any], letter: str) -> str:
    return next(s["name"] for s in p["seats"] if s["seat"] == letter)


def status_lines(p: dict[str, Any]) -> list[tuple[str, ...]]:
    """Whose turn, or the result: "To move" with each seat to move, or "Game over" with
    every winner's name."""
    if p["over"]:
        return [("Game over", *(seat_name(p, w) for w in p["winners"]))]
    if p["to_move"] == "dealer":
        return [("To move", "dealer")]
    if p.get("duel") and p.get("playing"):
        return [("To move", seat_name(p, s)) for s in p["playing"]]
    return [("To move", seat_name(p, p["to_move"]))]


def score_lines(p: dict[str, Any]) -> list[tuple[str, ...]]:
    """Each seat's name on one line with its score, as the JSON position has it."""
    scores = dict(p["scores"])
    if p["game"] == "moyo" and p.get("forfeit"):  # the loser's score is what a match counts (4.3)
        scores.pop(p["forfeit"]["seat"])
    if p["game"] == "domino" and p.get("duel"):
        return [(seat_name(p, s), f"{b['points']} point") for s, b in p["boards"].items()]
    return [(seat_name(p, s), str(n)) for s, n in scores.items()]


def position_boards(p: dict[str, Any]) -> list[dict[str, str]]:
    """The boards a position shows: Domino every board it may show (else the start),
    War its pieces, the other games the one board."""
    if p["game"] == "domino":
        return [board_cells(b["board"]) for b in p["boards"].values()] or [board_cells(p["start"])]
    if p["game"] == "war":
        return [{cell_name(i): (t[1] if t else "") for i, t in enumerate(p["cells"])}]
    return [board_cells(p["board"])]


def secret_lines(p: dict[str, Any]) -> list[tuple[str, ...]]:
    """What only the viewing seat may read: its card (СуДоку), the digit it is to place
    (Domino)."""
    lines: list[tuple[str, ...]] = []
    if "hand" in p:
        lines.append(("Your card", *(map(str, p["hand"]) if p["hand"] else ["none"])))
    if p.get("given") is not None:
        lines.append(("Digit to place", str(p["given"])))
    return lines


def position_page(name: str, html: str, p: dict[str, Any]) -> Page:
    owners = {f"({f},1)": seat for f, seat in p.get("conquered", {}).items()}
    lines = status_lines(p) + score_lines(p) + secret_lines(p)
    return Page(name, html, lines, position_boards(p), PIECES.get(p["game"], "123456789"), owners)


def records(path: Path) -> int:
    """How many records follow the header."""
    return len(path.read_bytes().splitlines()) - 1


def show(path: Path, name: str, *extra: str) -> Page:
    """`corr show PATH EXTRA... --format html`, and what its JSON says must show."""
    html = run("show", path, *extra, "--format", "html")
    return position_page(name, html, json.loads(run("show", path, *extra, "--format", "json")))


def audit(path: Path, name: str) -> Page:
    """`corr audit --format html`: intact or not, the result and every seat's score."""
    html = run("audit", path, "--format", "html")
    report = json.loads(run("audit", path, "--json"))
    result = report["result"]
    lines: list[tuple[str, ...]] = [("intact",)]
    if result["over"]:
        lines.append(("Result", *result["winners"], *(f"{s} {n}" for s, n in result["scores"].items())))
    return Page(name, html, lines)


def examine(path: Path, seq: int, name: str) -> Page:
    """`corr referee examine --format html`: the record, legal or not, and the board
    before it with the examined tile in its cell."""
    html = run("referee", "examine", path, str(seq), "--format", "html")
    r = json.loads(run("referee", "examine", path, str(seq), "--format", "json"))
    board = board_cells(r["before"]["board"])
    placed = re.match(r"([1-9]) (\([1-9],[1-9]\))", r["move"] or "") if r["type"] == "move" else None
    if placed:
        board[placed.group(2)] = placed.group(1)
    legal = "yes" if r["legal"] else "no"
    return Page(name, html, [("Record", f"{r['seq']}.", r["by"]), ("Legal", legal), ("Outcome", r["outcome"])], [board])


def mail_html(path: Path, seat: str) -> str:
    """The text/html part of the message `corr.mail.compose` makes for `seat`, read back
    with the standard library's parser as a mail client would."""
    from corr import engine
    from corr.mail.compose import compose

    msg = email.message_from_bytes(compose(engine.load(path), seat).as_bytes(), policy=email.policy.default)
    part = msg.get_body(preferencelist=("html",))
    assert part is not None and part.get_content_type() == "text/html"
    return part.get_content()  # type: ignore[no-any-return]


def mail(path: Path, seat: str, name: str) -> Page:
    return position_page(name, mail_html(path, seat), json.loads(run("show", path, "--for", seat, "--format", "json")))


PLAYERS = ("Anna Weber <anna@example.org>", "Ben Okafor <ben@example.org>", "Cleo Park <cleo@example.org>")


def mail_game(folder: Path, game: str, seats: int, moves: int) -> Path:
    """A game with the players' addresses, played by its seats' legal moves (the first
    legal move each time) for `moves` moves; in a card game we are the dealer."""
    path = folder / f"mail-{game}.corr"
    args: list[str] = ["new", game, str(path), "--format", "none"]
    for player in PLAYERS[:seats]:
        args += ["--player", player]
    run(*args)
    for _ in range(moves):
        legal = json.loads(run("legal", path, "--json"))
        run("move", path, legal["moves"][0], "--format", "none")
    return path


def running_duel(folder: Path) -> Path:
    """A Domino duel without a time limit, so that it is still running: Anna three
    stones ahead of Ben, each seat on its own board (we are the dealer)."""
    path = folder / "duel.corr"
    if not path.exists():
        run("new", "domino", path, "--player", "Anna", "--player", "Ben", "-o", "seed=7", "-o", "time_limit=none",
            "--format", "none")
        for seat in "AAABB":
            legal = json.loads(run("legal", path, "--for", seat, "--json"))
            run("move", path, legal["moves"][0], "--by", seat, "--format", "none")
    return path


def example_pages() -> dict[str, Callable[[Path], Page]]:
    """Each page by its name (its screenshots' name), with how to build it in a folder."""
    pages: dict[str, Callable[[Path], Page]] = {}
    for path in sorted(EXAMPLES.glob("*.corr")):
        n = records(path)
        for when, seq in (("start", 0), ("middle", n // 2), ("end", None)):
            at = () if seq is None else ("--at", str(seq))
            name = f"{path.stem}-show-{when}"
            pages[name] = lambda _, path=path, name=name, at=at: show(path, name, *at)
        pages[f"{path.stem}-audit"] = lambda _, path=path, name=f"{path.stem}-audit": audit(path, name)
    for stem, seat, when in (("cards-3p", "A", "middle"), ("cards-as-written", "B", "middle"),
                             ("domino-duel", "B", "middle"), ("domino-duel", "A", "end")):
        path = EXAMPLES / f"{stem}.corr"
        at = ("--at", str(records(path) // 2)) if when == "middle" else ()
        name = f"{stem}-show-{when}-for-{seat}"
        pages[name] = lambda _, path=path, name=name, at=at, seat=seat: show(path, name, "--for", seat, *at)
    war = EXAMPLES / "war-pieces.corr"
    pages["war-pieces-show-frozen"] = lambda _: show(war, "war-pieces-show-frozen", "--at", "7")  # 2.6
    for stem, seq in (("combat-disputed", 9), ("combat-as-written-challenge", 10), ("cards-as-written", 15)):
        name = f"{stem}-examine-{seq}"
        pages[name] = lambda _, path=EXAMPLES / f"{stem}.corr", seq=seq, name=name: examine(path, seq, name)
    pages["domino-duel-running-for-A"] = lambda folder: show(running_duel(folder), "domino-duel-running-for-A",
                                                             "--for", "A")
    pages["domino-duel-running"] = lambda folder: show(running_duel(folder), "domino-duel-running")
    pages["mail-combat-to-B"] = lambda folder: mail(mail_game(folder, "combat", 2, 9), "B", "mail-combat-to-B")
    pages["mail-cards-to-C"] = lambda folder: mail(mail_game(folder, "cards", 3, 7), "C", "mail-cards-to-C")
    return pages
