"""Commands that only read: games, show, legal, log, replay, audit, schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from corr.cli.app import Color, Format, ForSeat, JsonFlag, LogFile, app, check_format, file_callback, folder_for, out



def out_board(text: str, colour: bool) -> None:
    """A board to stdout; coloured text keeps its colour codes even when piped."""
    if colour:
        typer.echo(text, nl=False, color=True)
    else:
        out(text)


def _load(file: Path, upto: int | None = None):  # type: ignore[no-untyped-def]
    """Replay a log for a read-only command; a torn last line is left out and reported."""
    from corr import engine
    from corr.counts import counted
    from corr.names import visible

    rep = engine.load(file, upto=upto)
    torn = rep.log.torn
    if torn is not None:
        shown = visible(str(file))
        typer.echo(
            f"corr: warning: {shown}: the last line is torn ({counted(len(torn), 'byte')} of a write that never "
            f"finished) and was left out; run `corr repair {shown}`",
            err=True,
        )
    return rep


@app.command()
def games(as_json: JsonFlag = False) -> None:
    """List the games, their options and defaults.

    \b
    Example:
      corr games --json
    """
    from corr.games import game_class, names

    data: list[dict[str, Any]] = []
    for name in names():
        cls = game_class(name)
        data.append(
            {
                "name": cls.name,
                "title": cls.title,
                "players": [cls.min_seats, cls.max_seats],
                "records": sorted(cls.record_types),
                "options": {
                    k: {"default": None if o.required else o.default, "choices": list(o.choices) if o.choices else None,
                        "help": o.help}
                    for k, o in cls.options.items()
                },
            }
        )
    if as_json:
        out(json.dumps(data, indent=2) + "\n")
        return
    for g in data:
        low, high = g["players"]
        typer.echo(f"{g['name']}  {g['title']}, {_players(low, high)}")
        for key, o in g["options"].items():
            choices = "|".join(o["choices"]) if o["choices"] else "..."
            default = "required" if o["default"] is None else f"default {o['default'] or 'none'}"
            typer.echo(f"  -o {key}={choices}  ({default})  {_option_help(o['help'])}")


def _players(low: int, high: int) -> str:
    """`2 players`, `2-4 players`, `1 player`."""
    count = str(low) if low == high else f"{low}-{high}"
    return f"{count} player{'' if count == '1' else 's'}"


def _option_help(text: str) -> str:
    """An option's help without a leading `required:` that the listing already says."""
    head, sep, rest = text.partition(":")
    return rest.strip() if sep and head.strip().lower() == "required" else text


@app.command()
def show(
    file: LogFile,
    at: Annotated[Optional[int], typer.Option("--at", metavar="SEQ", help="Show the position after this seq.")] = None,
    fmt: Format = "text",
    seat: ForSeat = None,
    color: Color = "auto",
) -> None:
    """Show a position: the board, scores and whose turn it is.

    Without --for the view is public: no hidden card of any seat. With --for SEAT it is
    what that seat may see: in the card game its own card, known on the dealer's copy
    (beside FILE.secret) or, on a player's copy, from the dealer's latest mail.

    \b
    Example:
      corr show game.corr --at 12 --format json
      corr show cards.corr --for B
      corr show game.corr --color always | less -R
    """
    import sys

    from corr.errors import UsageError
    from corr.render import render
    from corr.seatview import observe, viewer
    from corr.term import wanted

    check_format(fmt, ("text", "html", "json"))
    colour = wanted(color, sys.stdout) and fmt == "text"
    rep = _load(file, upto=at)
    if at is not None and not 0 <= at <= len(rep.log.records):
        raise UsageError(f"--at {at} is outside the log (seq 0 to {len(rep.log.records)})")
    out_board(render(observe(rep, viewer(rep, seat)), fmt, colour), colour)


@app.command()
def legal(
    file: LogFile,
    as_json: JsonFlag = False,
    seat_for: Annotated[
        Optional[str], typer.Option("--for", metavar="SEAT", help="The seat whose moves to list; default: the seat on "
                                    "turn (needed in a Domino duel, where several seats play at once).")
    ] = None,
) -> None:
    """List the moves the seat on turn may make.

    A move that conquers a field only when it claims it (Combat with conquest=claim,
    rule 3.5) is listed as it must be played to take the field, with a note:
    `7 (5,4) !  conquers field 5`; without its `!` the field is missed.

    With --json: {"seat": "A", "moves": ["2 (1,1)", ...]}; seat is null when the game is
    over. Where some move conquers, also "conquers": {"7 (5,4) !": [5], ...}, each such
    move (as listed in moves) with the fields it takes. In a game with hidden cards or a
    secret digit order the moves depend on them: only the dealer's copy (beside
    FILE.secret) can list them.

    \b
    Example:
      corr legal game.corr --json
      corr legal duel.corr --for B
    """
    from corr.counts import counted
    from corr.errors import UsageError
    from corr.games.dealing import DEALER
    from corr.seatview import observe, viewer

    rep = _load(file)
    on_turn = () if rep.result().over else rep.on_turn()  # a game over on its clock takes no move
    if seat_for is not None:
        seat = viewer(rep, seat_for)
        if seat not in on_turn:  # the game runs, and it is not this seat's turn: no moves
            if as_json:  # seat null: the game is over
                out(json.dumps({"seat": seat if on_turn else None, "moves": []}) + "\n")
            else:
                typer.echo("the game is over: no moves" if not on_turn else f"{seat} is not to move: no moves")
            return
    elif len(on_turn) > 1:
        raise UsageError(f"seats {', '.join(on_turn)} may all move now: say whose moves with --for SEAT")
    else:
        seat = rep.to_move()
    if seat == DEALER:
        seat = None  # the game is at its end: only the dealer's reveal is left
    view = observe(rep, seat, moves=True, claims=True) if seat else None
    moves = [str(view.written(m)) for m in view.legal] if view else []
    claims = {str(c.move): c for c in view.claims.values()} if view else {}
    if as_json:
        data: dict[str, Any] = {"seat": seat, "moves": moves}
        if claims:
            data["conquers"] = {move: list(c.fields) for move, c in claims.items()}
        out(json.dumps(data) + "\n")
    elif seat is None:
        typer.echo("the game is over: no moves")
    else:
        typer.echo(f"{seat} to move, {counted(len(moves), 'legal move')}:")
        typer.echo("\n".join(f"{m}  {claims[m].takes}" if m in claims else m for m in moves))


@app.command("log")
def log_cmd(file: LogFile) -> None:
    """The game as numbered moves in notation, with conquests and challenges.

    \b
    Example:
      corr log game.corr
    """
    from corr.record_text import game_text
    from corr.seatview import observe

    rep = _load(file)
    out(game_text(observe(rep), rep.header))


@app.command()
def replay(
    file: LogFile,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, json or html.")] = "text",
    color: Color = "auto",
    jsonl: Annotated[bool, typer.Option("--jsonl", help="One compact JSON position per line (JSON Lines).")] = False,
) -> None:
    """Show every position of the game, one after another, as the public sees it.

    --format json prints one JSON document: the list of positions, seq 0 first, each
    as `corr show --format json` prints it. --jsonl prints one position per line.
    --format html prints one self-contained page to step through in a browser: the
    board, the move list beside it, buttons, a slider and the arrow keys, the result at
    the end; nothing in it is fetched from anywhere.
    A record the public may not read yet (a move on a seat's own board in a running
    Domino duel) changes nothing it sees: no position is shown for it, and a note on
    stderr says how many were left out.

    \b
    Example:
      corr replay game.corr | less
      corr replay game.corr --jsonl | jq -c '{seq, scores}'
      corr replay game.corr --color always | less -R
      corr replay game.corr --format html > game.html
    """
    import sys

    from corr import engine
    from corr.counts import counted
    from corr.render import render
    from corr.seatview import newest_read, observe
    from corr.term import wanted

    check_format(fmt, ("text", "json", "html"))
    if fmt == "html":
        from corr.replay_page import page

        out(page(_load(file).log))
        return
    colour = wanted(color, sys.stdout) and fmt == "text"
    unread = []

    def show(rep) -> None:  # type: ignore[no-untyped-def]
        if not newest_read(rep, None):  # the public sees what it saw before
            unread.append(rep.seq)
            return
        view = observe(rep)  # the public view of every position
        if jsonl:
            out(json.dumps(view.position, ensure_ascii=False, separators=(",", ":")) + "\n")
        elif fmt == "json":
            # one list, written as it grows: `corr replay ... | head` waits for no whole game
            item = json.dumps(view.position, indent=2, ensure_ascii=False).replace("\n", "\n  ")
            out(("[\n  " if rep.seq == 0 else ",\n  ") + item)
        else:
            out_board(render(view, fmt, colour), colour)
            typer.echo("")

    engine.replay(_load(file).log, each=show)  # one pass, each position shown on the way
    if fmt == "json" and not jsonl:
        out("\n]\n")
    if unread:
        typer.echo(f"note: {counted(len(unread), 'record')} not shown: the public may not read "
                   f"{'it' if len(unread) == 1 else 'them'} yet (moves on the seats' own boards of a running duel)",
                   err=True)


@app.command()
def audit(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The game log (.corr file).", show_default=False,
                                         callback=file_callback)],
    as_json: JsonFlag = False,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, json or html.")] = "text",
    games: Annotated[Optional[Path], typer.Option("--games", metavar="DIR", help="An event log's games: check "
                                                  "every result against its audited game log.")] = None,
) -> None:
    """Verify a log: chain, hashes, schema, turn order and every move against the rules.

    Exit 0 when the log is intact, 2 when it is corrupt or tampered with (edited,
    reordered, truncated, torn, forged). With --json, `findings` lists {seq, kind, detail}.
    In mode=as-written an illegal move that can still be challenged (the newest move,
    combat 4.1, cards 4.1) is not reported until a later move closes its window: nobody
    is told before then (`corr referee examine` says it).

    An event log (`corr tournament new`) is checked too: its chain, its rounds against
    its pairing system and, with --games, every result against its game's audited log;
    a finding makes the exit 2.

    \b
    Example:
      corr audit game.corr --json
      corr audit game.corr --format html > report.html
      corr audit club.tour --games games
    """
    from corr.audit import audit as run_audit, summary
    from corr.tournament.eventlog import is_event

    check_format(fmt, ("text", "json", "html"))
    if is_event(file):
        _audit_event(file, games, as_json or fmt == "json", fmt)
        return
    if games is not None:
        from corr.errors import UsageError

        raise UsageError(f"--games is for an event log, and {file} is a game's")
    report = run_audit(file)
    if not report["intact"]:
        _hint(file, report)
    if as_json or fmt == "json":
        out(json.dumps(report, indent=2) + "\n")
    elif fmt == "html":
        from corr.render import environment

        out(environment().get_template("audit.html").render(a=report))
    else:
        out(summary(report))
    if not report["intact"]:
        raise typer.Exit(2)


def _audit_event(file: Path, games: Optional[Path], as_json: bool, fmt: str) -> None:
    """`corr audit EVENT.tour`: the event's report; exit 2 unless it is sound."""
    from corr.errors import UsageError
    from corr.tournament.audit import audit as event_audit, summary

    if fmt == "html":
        raise UsageError("an event's audit is text or json; its standings have --format html")
    if games is not None and not games.is_dir():
        raise UsageError(f"--games {games}: no such folder")
    report = event_audit(file, games)
    out(json.dumps(report, indent=2, ensure_ascii=False) + "\n" if as_json else summary(report))
    if not report["sound"]:
        raise typer.Exit(2)


def _hint(file: Path, report: dict) -> None:  # type: ignore[type-arg]
    """Word the audit's fatal finding for a person where the file says what happened:
    a text file that is no log, or a log an editor or mail program saved with Windows
    line endings or a byte order mark (`corr repair` undoes both)."""
    from corr.log.repair import hint, trouble

    fatal = report["findings"][-1] if report["findings"] else None
    if fatal is None:
        return
    found = trouble(file)
    if found is not None and found[0] == "text":
        fatal["detail"] = found[1]
        return
    said = hint(file)
    if said is not None:
        fatal["detail"] += f" ({said})"


@app.command()
def schema(
    out_dir: Annotated[
        Optional[Path], typer.Option("--out", metavar="DIR", help="Write the schema files into this folder.")
    ] = None,
) -> None:
    """Print (or write) the JSON Schema of the log's header and record lines.

    Printed, it is one JSON object: {"header": schema, "record": schema}. With --out,
    each goes to its own file (header.schema.json, record.schema.json); the folder is
    made if it is missing.

    \b
    Example:
      corr schema --out schemas/
      corr schema | jq .record
    """
    from corr.log.models import json_schemas

    schemas = json_schemas()
    if out_dir is None:
        out(json.dumps({name.split(".")[0]: data for name, data in schemas.items()}, indent=2) + "\n")
        return
    with folder_for(out_dir):
        for filename, data in schemas.items():
            (out_dir / filename).write_text(json.dumps(data, indent=2) + "\n")
    for filename in schemas:
        typer.echo(f"wrote {out_dir / filename}")
