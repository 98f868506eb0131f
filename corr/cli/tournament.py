"""`corr tournament`: events kept as logs - start one, pair its rounds, take its
results, see its standings (`corr audit EVENT.tour` checks one)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from corr.cli.app import app, check_format, file_callback, out

tournament_app = typer.Typer(
    help="Tournaments kept as logs: round robins, double round robins and knockouts, at tables of two or more.\n\n"
    "\b\nExample:\n"
    "  corr tournament new club.tour --game combat --system round-robin -p Anna -p Ben -p Cleo -p Dan\n"
    "  corr tournament pair club.tour --games games",
    no_args_is_help=True,
)
app.add_typer(tournament_app, name="tournament")

EventFile = Annotated[
    Path, typer.Argument(metavar="EVENT", help="The event log (.tour file).", show_default=False,
                         callback=file_callback)
]
GamesDir = Annotated[
    Optional[Path],
    typer.Option("--games", metavar="DIR", help="The folder of the event's game logs (default: the event's folder)."),
]


@tournament_app.command("new")
def new(
    file: Annotated[Path, typer.Argument(metavar="EVENT", help="The new event log (.tour file).", show_default=False)],
    game: Annotated[str, typer.Option("--game", metavar="GAME", help="The game every table plays (see `corr games`).")],
    system: Annotated[str, typer.Option("--system", metavar="SYSTEM", help="round-robin, double-round-robin or "
                                        "knockout or swiss (FIDE Dutch at tables of two; by score at larger ones).")],
    player: Annotated[Optional[list[str]], typer.Option("--player", "-p", metavar="NAME", help='A player, "Name" or '
                                                        '"Name <address>"; repeat, best seed first.')] = None,
    rounds: Annotated[Optional[int], typer.Option("--rounds", metavar="N", help="Rounds, for tables of more than "
                                                  "two (default: the fewest in which everyone meets everyone).")] = None,
    table: Annotated[int, typer.Option("--table", metavar="SEATS", help="Seats at each table (combat 2-4, cards "
                                       "2-6, domino 2-6).")] = 2,
    option: Annotated[Optional[list[str]], typer.Option("--option", "-o", metavar="KEY=VALUE",
                                                        help="A rule option of every game; repeatable.")] = None,
    time: Annotated[Optional[str], typer.Option("--time", metavar="SPEC", help="Every game's time control, as "
                                                "`corr new --time` takes it.")] = None,
    director: Annotated[Optional[str], typer.Option("--director", metavar="NAME", help='The tournament director, '
                                                    '"Name <address>"; needs --director-key.')] = None,
    director_key: Annotated[Optional[str], typer.Option("--director-key", metavar="PUB", help="The director's public "
                                                        "key (.pub): rulings are signed with it.")] = None,
    name: Annotated[Optional[str], typer.Option("--name", metavar="TEXT", help="The event's name (default: the "
                                                "file's).")] = None,
) -> None:
    """Start an event: write its log's header, the players numbered in seeding order.

    A round robin meets everyone once by the Berger tables (a double round robin twice,
    seats swapped); a knockout seeds a bracket (the best seeds get the byes). With
    --table 3 or more, players sit at tables of that many seats and meet each other as
    evenly as their number allows.

    \b
    Examples:
      corr tournament new club.tour --game combat --system round-robin -p Anna -p Ben -p Cleo -p Dan
      corr tournament new cup.tour --game moyo --system knockout -p Anna -p Ben -p Cleo -o puzzle=3
      corr tournament new league.tour --game combat --system double-round-robin --table 3 -p Anna -p Ben -p Cleo -p Dan -p Eve -p Finn
      corr tournament new open.tour --game combat --system round-robin -p Anna -p Ben --director "Rita <rita@example.org>" --director-key rita.pub
    """
    from corr.cli.play import _parse_options
    from corr.errors import UsageError
    from corr.tournament.director import new_event

    if not player:
        raise UsageError("missing option --player: give one per player (see `corr tournament new --help`)")
    if (director is None) != (director_key is None):
        raise UsageError("--director and --director-key go together: the director's rulings are signed")
    official = None
    if director is not None and director_key is not None:
        from corr.identity import read_public

        official = (director, read_public(director_key))
    time_control = None
    if time is not None:
        from corr import timecontrol

        time_control = timecontrol.parse(time)
    event = new_event(file, game, system, player, rounds=rounds, seats=table, options=_parse_options(option or []),
                      time_control=time_control, director=official, name=name)
    header = event.header
    typer.echo(f"wrote {file}: {header['game']} {header['system']}, {len(event.players)} players, "
               f"{header['rounds']} round{'s' * (header['rounds'] != 1)}"
               + (f" at tables of {header['table']}" if header["table"] > 2 else ""))
    typer.echo(f"next: corr tournament pair {file} --games DIR")


@tournament_app.command("pair")
def pair(file: EventFile, games: GamesDir = None) -> None:
    """Pair the next round and make each table's game log, named EVENT-rR-tT.corr
    (the --games folder is made if it is missing).

    Refused while a game of the round before has no result (`corr tournament record`).

    \b
    Example:
      corr tournament pair club.tour --games games
    """
    from corr.cli.app import folder_for
    from corr.names import visible
    from corr.tournament.director import pair as make

    folder = games if games is not None else file.parent
    if not file.is_file():
        from corr.tournament.eventlog import read

        read(file)  # says what is wrong with it, before a folder is made for its games
    with folder_for(folder):
        event, number = make(file, games)
    typer.echo(f"round {number} of {event.planned}:")
    for table in event.rounds[number - 1]:
        names = " - ".join(event.players[p].name for p in table.players)
        typer.echo(visible(f"  table {table.table}: {names}  ({folder / table.file})"))
    for player in event.byes.get(number, []):
        typer.echo(visible(f"  bye: {event.players[player].name}"))


@tournament_app.command("record")
def record(file: EventFile, games: GamesDir = None) -> None:
    """Take the result of each finished game of the round being played, audited first.

    A game log that does not pass its audit, or is not the game paired at its table, is
    refused (exit 2) and nothing is recorded.

    \b
    Example:
      corr tournament record club.tour --games games
    """
    from corr.names import visible
    from corr.tournament.director import record as take
    from corr.tournament.placing import pair_points
    from corr.tournament.standings import half

    event, taken, playing = take(file, games)
    for table in taken:
        assert table.places is not None
        shown = []
        for i, p in enumerate(table.players):
            score = sum(pair_points(table.places[i], other) for j, other in enumerate(table.places) if j != i)
            shown.append(f"{event.players[p].name} {half(score)}")
        typer.echo(visible(f"round {table.round} table {table.table}: {', '.join(shown)}"))
    if playing:
        typer.echo(f"round {len(event.rounds)}: {len(playing)} game{'s' * (len(playing) != 1)} still being played")
    elif event.finished:
        typer.echo(f"the event is over: corr tournament standings {file}")
    elif event.rounds:
        typer.echo(f"round {len(event.rounds)} is complete: corr tournament pair {file}")


@tournament_app.command("standings")
def standings(
    file: EventFile,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="FORMAT", help="text, html or json.")] = "text",
) -> None:
    """Show the crosstable with points and tie-breaks (Sonneborn-Berger, Buchholz, wins,
    direct encounter).

    \b
    Example:
      corr tournament standings club.tour
      corr tournament standings club.tour --format html > standings.html
    """
    import json

    from corr.tournament import standings as table
    from corr.tournament.event import read

    check_format(fmt, ("text", "html", "json"))
    data = table.standings(read(file))
    if fmt == "json":
        out(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    elif fmt == "html":
        out(table.html(data))
    else:
        out(table.text(data))


@tournament_app.command("withdraw")
def withdraw(
    file: EventFile,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player's name or number.", show_default=False)],
    because: Annotated[Optional[str], typer.Option("--because", metavar="TEXT", help="Why, for the log.")] = None,
    sign: Annotated[Optional[Path], typer.Option("--sign", metavar="KEY", help="The director's private key: in an "
                                                 "event with a director, a withdrawal is the director's ruling.")]
    = None,
) -> None:
    """Note that a player leaves the event, scored as ICCF scores it: the game they are
    playing is lost, they are not paired again, and in a round robin each game the
    schedule still held for them is won by the opponent (who has a bye that round).
    Their games played stand. In an event with a director it is the director's ruling,
    signed with --sign.

    \b
    Example:
      corr tournament withdraw club.tour Dan --because "moved abroad"
      corr tournament withdraw club.tour Dan --because "moved abroad" --sign rita.key
    """
    from corr.names import visible
    from corr.tournament.director import player_number, withdraw as leave

    event = leave(file, player, because, key=sign)
    typer.echo(visible(f"{event.players[player_number(event, player)].name} withdrew: not paired from round "
                       f"{len(event.rounds) + 1} on"))


@tournament_app.command("rule")
def rule(
    file: EventFile,
    decision: Annotated[str, typer.Argument(metavar="DECISION", help="adjudicate, forfeit or replace.",
                                            show_default=False)],
    sign: Annotated[Path, typer.Option("--sign", metavar="KEY", help="The director's private key.")],
    because: Annotated[str, typer.Option("--because", metavar="TEXT", help="The reason, kept in the log.")],
    round_: Annotated[Optional[int], typer.Option("--round", metavar="R", help="The round of the game ruled on.")] = None,
    table: Annotated[Optional[int], typer.Option("--table", metavar="T", help="Its table.")] = None,
    places: Annotated[Optional[str], typer.Option("--places", metavar="P,P", help="adjudicate: each seat's place, "
                                                  "1 first (1,2: seat A wins; 1,1: a draw).")] = None,
    player: Annotated[Optional[str], typer.Option("--player", metavar="NAME", help="forfeit: who loses; replace: "
                                                  "who leaves.")] = None,
    by_player: Annotated[Optional[str], typer.Option("--by-player", metavar="NAME", help='replace: who takes the '
                                                     'place, "Name <address>".')] = None,
) -> None:
    """Add the director's signed ruling: decide a game's result, forfeit a player's game,
    or replace a player.

    \b
    Examples:
      corr tournament rule club.tour adjudicate --round 2 --table 1 --places 1,2 --sign rita.key --because "won position"
      corr tournament rule club.tour forfeit --round 2 --table 1 --player Ben --sign rita.key --because "no moves in 60 days"
    """
    from corr.errors import UsageError
    from corr.tournament.director import rule as decide

    given = None
    if places is not None:
        try:
            given = [int(p) for p in places.split(",")]
        except ValueError:
            raise UsageError(f"--places {places!r}: numbers, one per seat (e.g. 1,2)") from None
    decide(file, sign, decision, because, round_=round_, table=table, places=given, player=player,
           replacement=by_player)
    typer.echo(f"{file}: the director's ruling ({decision}) is recorded")
