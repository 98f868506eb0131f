"""Commands that change a game: new, move, challenge, repair."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import (
    Color, LogFile, NewLogFile, SignKey, app, board, check_format, echoing, folder_for, log_callback,
    optional_log_callback, out, seat_of,
)


def _parse_options(pairs: list[str]) -> dict[str, str]:
    from corr.errors import UsageError

    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(f"option {pair!r} is not KEY=VALUE (e.g. -o conquest=auto)")
        options[key.strip()] = value.strip()
    return options


@app.command()
def new(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game name (see `corr games`).", show_default=False)],
    file: NewLogFile,
    player: Annotated[
        Optional[list[str]],
        typer.Option(
            "--player", "-p", metavar="NAME", help="A player's name; repeat once per seat (A, B, C, ... in order)."
        ),
    ] = None,
    option: Annotated[
        Optional[list[str]],
        typer.Option("--option", "-o", metavar="KEY=VALUE", help="A rule option (see `corr games`); repeatable."),
    ] = None,
    key: Annotated[
        Optional[list[str]],
        typer.Option("--key", metavar="SEAT=FILE", help="A seat's public key (.pub); its records must then be signed."),
    ] = None,
    time: Annotated[
        Optional[str],
        typer.Option("--time", metavar="SPEC", help="Time control: per-move:3, period:10/30 or bank:10+1/30, "
                     "with ,remind=H (a schedule: ,remind=72,24) and ,vacation=D (see `corr clock`)."),
    ] = None,
    revenge_of: Annotated[
        Optional[Path],
        typer.Option(
            "--revenge-of", metavar="OLD", help="Moyo: the rematch of a finished game, roles swapped (moyo 4.3).",
            callback=optional_log_callback,
        ),
    ] = None,
    referee: Annotated[
        Optional[str],
        typer.Option("--referee", metavar="NAME", help='The referee, "Name <address>"; needs --referee-key.'),
    ] = None,
    referee_key: Annotated[
        Optional[str], typer.Option("--referee-key", metavar="FILE", help="The referee's public key (.pub).")
    ] = None,
    host: Annotated[
        Optional[str],
        typer.Option("--host", metavar="NAME", help='The host running the game, who may rule too; needs --host-key.'),
    ] = None,
    host_key: Annotated[
        Optional[str], typer.Option("--host-key", metavar="FILE", help="The host's public key (.pub).")
    ] = None,
    dealer_key: Annotated[
        Optional[Path],
        typer.Option("--dealer-key", metavar="KEY", help="Games with a dealer (cards; domino without -o seed): the "
                     "host's private key, which signs the dealer's records (needs --host and --host-key)."),
    ] = None,
    bot: Annotated[
        Optional[list[str]],
        typer.Option("--bot", metavar="SEAT=LEVEL", help="Make a seat the computer's (random, greedy or strong); "
                     "it answers every `corr move`. Repeatable."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html, json or none.")] = "text",
) -> None:
    """Start a game: write the log's header and show the first position.

    Refuses an existing FILE, an unknown game or option, a bad option value and a
    wrong number of players.

    A game with hidden cards (cards) or a secret digit order (domino without -o seed)
    makes its creator the dealer: the seed is kept in FILE.secret beside the log
    (readable by you only; never mail it), the header carries its SHA-256 commitment,
    and the seed is revealed in the log when the game ends. Moves are then taken on
    this copy only; players mail theirs in.

    \b
    Examples:
      corr new combat game.corr --player Anna --player Ben -o conquest=auto
      corr new moyo game.corr -p Anna -p Ben -o puzzle=3 -o variant=horikomi
      corr new moyo revenge.corr --revenge-of game.corr
      corr new combat game.corr -p "Anna <anna@example.org>" -p Ben --key A=anna.pub
      corr new combat game.corr -p Anna -p Ben --time per-move:3,vacation=14
      corr new combat game.corr -p Anna -p Ben --referee "Rita <rita@example.org>" --referee-key rita.pub
      corr new cards cards.corr -p Anna -p Ben -p Cleo -o end=hands
      corr new domino practice.corr -p Anna -o seed=daily-2026-11-30 -o time_limit=none
      corr new domino duel.corr -p Anna -p Ben -o givens=40
      corr new combat game.corr -p Anna -p Computer --bot B=strong
    """
    from corr import engine
    from corr.errors import UsageError

    check_format(fmt, ("text", "html", "json", "none"))
    if revenge_of is not None:
        from corr.match import revenge_options

        if player or option or key or time or referee or referee_key or host or host_key or dealer_key:
            raise UsageError("a revenge game takes players, options, keys, time, referee and host from OLD: "
                             "drop the others")
        old = engine.load(revenge_of)
        options = revenge_options(old)
        # the same players, referee, host, addresses, keys and time control
        officials = {role: (_addressed(o), o.key)
                     for role in ("referee", "host") if (o := getattr(old.header, role)) is not None}
        player = [_addressed(s) for s in old.header.seats]
        keys = {s.seat: s.key for s in old.header.seats if s.key}
        time_control = dict(old.header.time_control) if old.header.time_control else None
    elif not player:
        raise UsageError("missing option --player: give one per seat (see `corr new --help`)")
    else:
        options = _parse_options(option or [])
        keys = _parse_keys(key or [])
        time_control = None
        if time is not None:
            from corr import timecontrol

            time_control = timecontrol.parse(time)
        officials = _officials(referee, referee_key, host, host_key)
        _check_names(player, referee, host)
    computer = _computer_seats(game, bot or [], len(player), keys)
    with folder_for(file.parent):
        rep = engine.new_game(file, game, player, options, keys, time_control, officials, dealer_key)
        if computer:
            from corr.bots import seats

            try:
                seats.write(file, computer)
            except BaseException:  # nothing of a game that could not start stays behind
                from corr.engine.dealer import secret_path

                file.unlink()
                if rep.header.commitment is not None:
                    secret_path(file).unlink(missing_ok=True)
                raise
    unsigned = [s.seat for s in rep.header.seats if s.email and not s.key]
    if unsigned:
        typer.echo(_forgeable(unsigned, dealt=rep.header.commitment is not None), err=True)
    if rep.header.commitment is not None:  # this copy is the dealer's
        from corr.engine.dealer import secret_path

        typer.echo(f"dealer: the seed is in {secret_path(file)} (keep it; never mail it)", err=True)
    if computer:
        from corr.cli.bots import answered

        from corr.seatview import player as viewer

        humans = [s for s in rep.seats if s not in computer]
        answered(file, rep, fmt, viewer(rep, humans))  # a computer seat on turn at the start moves at once
        return
    _after(rep, fmt)


def _forgeable(seats: list[str], dealt: bool) -> str:
    """The note that seats with an address but no key play by a guard anyone can forge.
    Where keys are taken it says how to get one; a game the dealer deals (cards, Domino
    without -o seed) takes none, so it says why instead of advising --key."""
    who = f"seat {seats[0]} plays" if len(seats) == 1 else f"seats {', '.join(seats)} play"
    note = f"note: {who} by mail without a key: a mailed move is taken from its seat's address, which anyone can forge"
    if dealt:
        return (f"{note}; this game takes no seat keys (its moves are made on the dealer's copy, which cannot "
                "sign for a seat)")
    return f"{note}; a key cannot be (`corr key new`, then --key SEAT=FILE.pub)"


def _computer_seats(game: str, specs: list[str], players: int, keys: dict[str, str]) -> dict[str, str]:
    """--bot SEAT=LEVEL checked against the new game's seats before anything is written."""
    if not specs:
        return {}
    from corr.bots import seats

    letters = [chr(ord("A") + i) for i in range(players)]
    levels = dict(seats.parse_bot(spec, letters) for spec in specs)
    seats.check(levels, game, letters, [s for s, k in keys.items() if k])
    return levels


#: The longest name the log's header takes for a player, referee or host (its schema).
NAME_MAX = 200


def _check_names(players: list[str], referee: str | None, host: str | None) -> None:
    """Names the header would refuse, refused in the words of the rule rather than by
    the header field's path."""
    from corr.cli.app import cut
    from corr.engine import seat_entry
    from corr.errors import UsageError

    for role, person in [*(("player", p) for p in players), ("referee", referee), ("host", host)]:
        if person is None:
            continue
        name = seat_entry("", person, None)["name"]
        if not 1 <= len(name) <= NAME_MAX:
            raise UsageError(f'{role} name "{cut(name)}": must be 1 to {NAME_MAX} characters'
                             f' (it has {len(name)})')


def _addressed(person) -> str:  # type: ignore[no-untyped-def]
    """`Name <address>` (or the bare name) of a header seat or official, as --player takes it."""
    return f"{person.name} <{person.email}>" if person.email else person.name


def _officials(referee: str | None, referee_key: str | None, host: str | None,
               host_key: str | None) -> dict[str, tuple[str, str]]:
    """--referee/--host with their keys: every ruling is signed, so each needs its key."""
    from corr.errors import UsageError
    from corr.identity import read_public

    officials: dict[str, tuple[str, str]] = {}
    for role, person, key in (("referee", referee, referee_key), ("host", host, host_key)):
        if person is None and key is None:
            continue
        if person is None or not person.strip():
            raise UsageError(f"--{role}-key needs --{role} NAME as well")
        if key is None:
            raise UsageError(f"--{role} needs --{role}-key: rulings are signed (make a key with `corr key new`)")
        officials[role] = (person, read_public(key))
    return officials


def _parse_keys(pairs: list[str]) -> dict[str, str]:
    from corr.errors import UsageError
    from corr.identity import read_public

    keys: dict[str, str] = {}
    for pair in pairs:
        seat, sep, source = pair.partition("=")
        if not sep or len(seat.strip()) != 1 or not source.strip():
            raise UsageError(f"--key {pair!r} is not SEAT=FILE (e.g. --key A=anna.pub)")
        keys[seat.strip().upper()] = read_public(source.strip())
    return keys


def _after(rep, fmt: str, seat: str | None = None, colour: bool = False) -> None:  # type: ignore[no-untyped-def]
    """The board after a command that `seat` acted in: as the seat view says a mover is
    shown it (`corr.seatview.mover`: its own board in a Domino duel, else the public
    view); `colour`: a text board coloured for a terminal (corr.term)."""
    from corr.seatview import mover

    board(rep, fmt, mover(rep, seat), colour)


@app.command()
def move(
    file: LogFile,
    notation: Annotated[str, typer.Argument(metavar="MOVE", help="The move, e.g. '7 (5,4)' or '7 (3,4) !'.")],
    by: Annotated[
        Optional[str], typer.Option("--by", metavar="SEAT", help="Seat making the move; default: the seat on turn "
                                    "(if a person's).")
    ] = None,
    sign: SignKey = None,
    at: Annotated[
        Optional[int],
        typer.Option("--at", metavar="SEQ", help="The seq of the position the move answers: refused if the log "
                     "has moved on (scripts and racing writers)."),
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", metavar="FORMAT", help="Board after the move: text, html, json or none.")
    ] = "text",
    color: Color = "auto",
) -> None:
    """Check a move against the rules, append it to the log and print the board.

    A refused move appends nothing and exits 1; a damaged log exits 2. A move is for
    the position it was made on: if another move lands while this one waits for the
    log, it is refused rather than played for the next seat. Without --by, a computer
    seat on turn is never played for: `corr bot FILE` lets it answer.

    \b
    Example:
      corr move game.corr "7 (5,4)" --by A
      corr move game.corr "7 (3,4) !" --at 12
    """
    import os
    import sys

    from corr import engine
    from corr.term import wanted

    check_format(fmt, ("text", "html", "json", "none"))
    colour = wanted(color, sys.stdout) and fmt == "text"
    # computer seats live in FILE.bots.json (corr.bots.seats.SUFFIX): looked for before
    # the bots are imported, which a game between people never needs
    computer = os.path.lexists(f"{file}.bots.json")
    levels: dict[str, str] = {}
    if computer:
        from corr.bots.seats import read

        levels = read(file)  # a damaged computer seats file is refused before the move, not after it
    with echoing(notation):
        rep, records = engine.act(file, "move", by=seat_of(file, by), text=notation, key=sign, answers=at,
                                  computer=levels)
    if computer:  # computer seats (`corr new --bot`): they answer now
        from corr.cli.bots import answered

        answered(file, rep, fmt, records[0].by, colour)
        return
    _after(rep, fmt, records[0].by, colour)


@app.command()
def challenge(
    file: LogFile,
    by: Annotated[Optional[str], typer.Option("--by", metavar="SEAT", help="The challenging seat.")] = None,
    sign: SignKey = None,
    seq: Annotated[
        Optional[int], typer.Option("--seq", metavar="SEQ", help="The placement challenged; default: the last.")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html, json or none.")] = "text",
) -> None:
    """Challenge the last placement as breaking the Sudoku rule (mode=as-written).

    Upheld, the game's penalty applies: in Combat the tile goes back and the challenger
    places two tiles next turn (combat 4.1); in the card game the card leaves the game
    and scores nothing (cards 4.1).

    \b
    Example:
      corr challenge game.corr --by B
    """
    from corr import engine
    from corr.errors import UsageError

    check_format(fmt, ("text", "html", "json", "none"))
    if by is None and sign is None:
        raise UsageError("missing option --by: name the challenging seat (or --sign with its key)")
    rep, records = engine.act(file, "challenge", by=seat_of(file, by), target=seq, key=sign)
    step = rep.steps[-len(records)]
    for event in step.outcome.events:
        typer.echo(event, err=True)
    _after(rep, fmt)


@app.command("pass")
def pass_(
    file: LogFile,
    by: Annotated[Optional[str], typer.Option("--by", metavar="SEAT", help="The passing seat; default: the seat on "
                                              "turn.")] = None,
    sign: SignKey = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html, json or none.")] = "text",
) -> None:
    """Pass in the card game: the card you hold fits on no free cell, and you do not
    challenge the card before it (mode=as-written). Your turn ends, the end stands and
    the dealer reveals the deal (cards 5.1, 4.1). Where a challenge can take that card
    back, the game waits for your challenge or your pass.

    \b
    Example:
      corr pass game.corr --by B
    """
    from corr import engine

    check_format(fmt, ("text", "html", "json", "none"))
    rep, records = engine.act(file, "pass", by=seat_of(file, by), key=sign)
    for record in records:
        for event in rep.steps[record.seq - 1].outcome.events:
            typer.echo(event, err=True)
    _after(rep, fmt)


@app.command()
def match(
    first: Annotated[Path, typer.Argument(metavar="GAME1", help="The first game's log.", show_default=False,
                                          callback=log_callback)],
    second: Annotated[Path, typer.Argument(metavar="GAME2", help="The revenge game's log.", show_default=False,
                                           callback=log_callback)],
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text or json.")] = "text",
) -> None:
    """The two-game Moyo match: each game's points, the totals and the winner (moyo 4.2, 4.3).

    A match is exactly a game and its revenge (`corr new moyo FILE --revenge-of OLD`):
    the same puzzle, players, variant and options, with the roles swapped; anything else
    is refused. Standard games count victory points (most wins); Horikomi games the Moyo
    stones in one's own Shima (fewest wins, then the tie-breaks of 5.3). A game lost on
    time or by a ruling counts from the position at that moment.

    \b
    Example:
      corr match game.corr revenge.corr --format json
    """
    import json

    from corr import engine
    from corr.match import match_total
    from corr.names import visible

    check_format(fmt, ("text", "json"))
    report = match_total(engine.load(first), engine.load(second))
    if fmt == "json":
        out(json.dumps(report, indent=2) + "\n")
        return
    labels = {"victory_points": "victory points", "moyo_stones": "Moyo stones in own Shima"}
    for g in report["games"]:
        won = f"{'-'.join(g['winners'])} won" if len(g["winners"]) == 1 else "a draw"
        if g["forfeit"]:
            won += f", {g['forfeit']['seat']} lost {g['forfeit']['cause']}"
        counts = "; ".join(f"{label}: " + ", ".join(f"{s} {n}" for s, n in g[key].items())
                           for key, label in labels.items() if key in g)
        typer.echo(f"{visible(g['file'])}: {won} ({counts})")
    total = ", ".join(f"{s} {n}" for s, n in report["total"].items())
    winners = report["winners"]
    verdict = f"{winners[0]} wins the match" if len(winners) == 1 else "the match is a draw"
    typer.echo(f"total {report['unit']}: {total}: {verdict}, on {report['decided_by']}")


@app.command()
def repair(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The game log (.corr file).", show_default=False)],
) -> None:
    """Cut off a torn last line (a write that never finished), keeping it in FILE.torn
    (a last record written whole but for its newline, that verifies, gets its newline
    back instead); and undo what an editor or a mail program did to a log: Windows line endings (CRLF)
    go back to LF and a byte order mark is removed, when the log then verifies.

    A damaged line that ends in its newline was written whole: it is no torn write, and
    repair changes nothing, says which line it is and what to do instead (exit 2).

    \b
    Example:
      corr repair game.corr
    """
    from corr.cli.app import regular_file
    from corr.counts import counted
    from corr.errors import CorruptLog
    from corr.log import repair as mend

    regular_file(file)
    found = mend.trouble(file)
    if found is not None and found[0] == "text":
        raise CorruptLog(found[1], kind="schema")
    mended = mend.line_endings(file)
    if mended:
        typer.echo(f"{file}: {mended}; the log verifies again")
    from corr.engine.opening import verifies

    try:
        torn = mend.torn_line(file, lambda data: verifies(file, data))
    except CorruptLog as err:
        raise mend.beyond_repair(file, err) from None
    if torn is None:
        if not mended:
            typer.echo(f"{file}: no torn line; nothing changed")
    elif torn[1]:
        typer.echo(f"{file}: the last record was whole but for its newline, and verifies: the newline is restored")
    else:
        typer.echo(f"{file}: cut {counted(len(torn[0]), 'byte')} of a torn last line, saved in {Path(f'{file}.torn')}")
