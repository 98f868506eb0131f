"""What one seat, or the public, may see of a game: the one place that decides it.

Boards in every format, `corr show --format json`, `corr log`, `replay`, `status`,
`play`, the computer opponents, every part and header of a mailed message and its
attachment, and every line a computer move prints are all drawn from a `SeatView`,
made here by `observe`. Nothing else reads a table's hidden state. The game says what
it hides from whom (`Game.view`, `Game.shows`); this module asks it, and puts the
answer together:

- the position as the viewer sees it (the JSON of `corr show`), with the board's cells
  as the templates mark them;
- the records the viewer may read, with what every seat is told they did (a missed
  conquest only once the game is over);
- on a player's copy, which cannot deal, what the dealer's latest message told the
  viewer of its own hand (`corr.log.panels`), while it still holds;
- for the viewer that may move: its legal moves, one to show the notation by example
  (one that keeps the rules: a Domino misplacement costs a life), those that take a
  field only when written with a claim (Combat's `!`, `Game.claim_for`), and, where the
  game hides nothing, a copy of the whole position for a computer opponent to try
  moves on;
- whether the whole log may go to the viewer (not while a Domino duel runs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from corr.engine.position import Position, Step
from corr.errors import UsageError
from corr.games.base import Claim, Game, Seen
from corr.games.dealing import DEALER
from corr.geometry import FIELD_OF, PLACE_OF, name
from corr.log.lines import Record
from corr.names import seat_named, short_name
from corr.notation import Move


@dataclass(frozen=True)
class SeatView:
    """A game as `viewer` (a seat letter; None: the public) may see it at one time."""

    viewer: str | None
    #: the documented JSON of the position (`corr show --format json`)
    position: dict[str, Any]
    #: the 9x9 board as rows of cells with what the templates mark on them
    rows: list[list[dict[str, Any]]]
    #: the records the viewer may read, oldest first, with what they did
    steps: tuple[Step, ...]
    #: whether every record of the log is among them (a running Domino duel: not)
    whole: bool
    #: the game's rules, without any deal: what a computer opponent may reason with
    rules: Game
    #: the viewer's moves now, in the game's order (asked with `moves=True`; empty when
    #: it may not move)
    legal: list[Move] = field(default_factory=list)
    #: those of them that take more when written with a claim (combat 3.5), each with
    #: its claim (asked with `claims=True`): a player sees the move as it must be played
    claims: dict[Move, Claim] = field(default_factory=dict)
    #: the first of them that keeps the game's main rule (a Domino misplacement is legal
    #: but costs a life): what a message shows the notation by
    safe: Move | None = None
    #: the move to show the notation by, asked alone (`example=True`): found without
    #: listing every legal move (`Game.example_for`)
    shown: Move | None = None
    #: a copy of the whole position, only where nothing in it is hidden from the viewer
    #: (asked with `moves=True`): a computer opponent may try moves on it
    state: Any = None
    #: every seat plays a board of its own (a Domino duel): another board's game is
    #: none of the viewer's business
    own_board: bool = False
    #: the game deals what it hides (cards, a secret digit order): moves are made on the
    #: dealer's copy alone
    dealt: bool = False

    @property
    def seat(self) -> str | None:
        return self.viewer

    @property
    def seq(self) -> int:
        """The seq of the newest record the viewer may read: what its view is of, and
        what an answer to it answers."""
        return self.steps[-1].record.seq if self.steps else 0

    @property
    def last(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    @property
    def over(self) -> bool:
        return bool(self.position["over"])

    @property
    def history(self) -> list[tuple[int, str, str]]:
        """The moves and passes the viewer may read, as (seq, seat, canonical text)."""
        return [(s.record.seq, s.record.by, s.record.move or s.record.type) for s in self.steps
                if s.record.type in ("move", "pass")]

    def written(self, move: Move) -> Move:
        """A legal move as it must be written to take all it can: with its claim where
        it takes a field only so (`7 (5,4) !`), else as it is."""
        claim = self.claims.get(move)
        return move if claim is None else claim.move

    def example(self) -> Move | None:
        """A move to show the notation by: the first legal move that keeps the game's
        main rule, else the first legal move."""
        if self.shown is not None:
            return self.shown
        return self.safe if self.safe is not None else (self.legal[0] if self.legal else None)


def observe(table: Position, viewer: str | None = None, *, moves: bool = False, claims: bool = False,
            example: bool = False) -> SeatView:
    """What `viewer` (a seat; None: the public) may see of `table` now. With `moves`,
    also the viewer's legal moves, a safe example among them first, and - where the game
    hides nothing from it - a copy of the whole position; with `claims` too, which of
    those moves take a field only when written with a claim (a look at each move: only
    for those who list them to a player). With `example` alone, only the move a message
    shows the notation by (`SeatView.example`), refused where `moves` would be: a
    message needs no more, and listing every move costs more than the rest of it."""
    game, state = table.game, table.state
    if viewer is not None and viewer not in game.seats:
        raise UsageError(f"no seat {viewer!r} (seats: {', '.join(game.seats)})")
    now = table.when()
    steps = tuple(step for step in table.steps if game.shows(state, step.record.by, viewer, now))
    seen = game.view(state, viewer, now)
    legal: list[Move] = []
    claimed: dict[Move, Claim] = {}
    whole_state = None
    if moves and viewer is not None:
        legal = _legal(table, viewer)
        if claims:
            claimed = {m: c for m in legal if (c := game.claim_for(state, m)) is not None}
        if game.whole_view(viewer):
            whole_state = game.clone(state)
    safe = next((m for m in legal if game.check(state, m, viewer) is None), None)
    shown = _example(table, viewer) if example and not moves and viewer is not None else None
    return SeatView(
        viewer=viewer,
        position=_position(table, viewer, steps, seen),
        rows=_rows(table, viewer, seen),
        steps=steps,
        whole=len(steps) == len(table.steps),
        rules=game.without_deal(),
        legal=legal,
        claims=claimed,
        safe=safe,
        shown=shown,
        state=whole_state,
        own_board=game.own_boards and len(game.seats) > 1,
        dealt=game.is_hidden(game.opts),
    )


def unclaimed(table: Position, seat: str, move: Move) -> Claim | None:
    """What `move` by `seat`, written as it is, would leave untaken that a claim would
    take (`Game.claim_for`), or None; only while `seat` may move: what its own move
    would do is the mover's to know, as its legal moves are."""
    if seat not in table.on_turn() or table.result().over or not table.game.dealt:
        return None
    return table.game.claim_for(table.state, move)


def _legal(table: Position, seat: str) -> list[Move]:
    """`seat`'s legal moves when it may move; () when it may not. A copy that does not
    know the hidden cards or digits the moves depend on cannot list them: refused."""
    return list(table.game.legal_for(table.state, seat)) if _may_move(table, seat) else []


def _example(table: Position, seat: str) -> Move | None:
    """`seat`'s move to show the notation by (`Game.example_for`) when it may move, else
    None; refused where `_legal` is."""
    return table.game.example_for(table.state, seat) if _may_move(table, seat) else None


def _may_move(table: Position, seat: str) -> bool:
    """Whether `seat` may move now; raises where this copy cannot know its moves (they
    depend on hidden cards or digits, and it has no dealer's secret)."""
    game = table.game
    if seat not in table.on_turn() or table.result().over:
        return False
    if not game.dealt:
        from corr.engine.dealer import secret_path

        raise UsageError(f"{table.path}: the legal moves of {game.title} depend on {game.secret}, and this copy has "
                         f"no dealer's secret ({secret_path(table.path).name}); the dealer's copy lists them")
    return True


def _last_played(steps: tuple[Step, ...]) -> Step | None:
    """The newest of the viewer's steps that a seat or an official made. The dealer's
    reveal ends a game without laying anything, so the board's last move - the one its
    highlighted cell shows - is the card or digit laid before it."""
    return next((step for step in reversed(steps) if step.record.by != DEALER), None)


def _last_move(step: Step | None) -> dict[str, Any] | None:
    """The last move the viewer may read (`_last_played`) and what every seat is told it
    did. What the outcome leaves untold (a missed conquest) and an illegal move in
    as-written play are left out: noticing them is the other players' part of the game."""
    if step is None:
        return None
    record, outcome = step.record, step.outcome
    return {
        "seq": record.seq,
        "type": record.type,
        "by": record.by,
        "move": record.move,
        "target": record.target,
        "told": list(outcome.told()),
        "verdict": outcome.verdict,
    }


def _position(table: Position, viewer: str | None, steps: tuple[Step, ...], seen: Seen) -> dict[str, Any]:
    """The documented JSON of a position as `viewer` sees it (DESIGN 9)."""
    game, state, header = table.game, table.state, table.header
    now = table.when()
    result = table.result()
    board = game.board(state, viewer, now)
    data: dict[str, Any] = {
        "game": header.game,
        "title": game.title,
        "id": header.id,
        "seq": steps[-1].record.seq if steps else 0,
        "to_move": table.to_move(),
        "over": result.over,
        "winners": list(result.winners),
        "forfeit": {"seat": table.forfeit, "cause": table.forfeit_cause} if table.forfeit else None,
        "scores": result.scores,
        "board": "".join(str(d) if d else "." for d in board),
        "seats": [{"seat": s.seat, "name": s.name, "short": short_name(s.name)} for s in header.seats],
        "options": dict(header.options),
        "last": _last_move(_last_played(steps)),
    }
    data.update(seen.shown)
    if viewer is not None:
        data["viewer"] = viewer
        if not game.dealt:  # a player's copy: what the dealer told this seat, if still true
            data.update((k, v) for k, v in _told(table, viewer).items() if k not in data)
    return data


def _told(table: Position, seat: str) -> dict[str, Any]:
    """What the dealer's latest message told `seat` of its hidden state, kept beside a
    player's copy (`corr.log.panels`), while it still holds: a hand changes only when
    its seat acts, so the panel is dropped once the seat has made a record after it."""
    entry = table.private.get(seat)
    if entry is None and table.path.suffix:  # a log on disk (not one in memory)
        from corr.log.panels import private_views

        try:
            entry = private_views(table.path).get(seat)
        except UsageError:  # a damaged sidecar shows no panel; `corr mail` says what is wrong
            entry = None
    if not entry:
        return {}
    since = entry.get("seq", 0)
    if any(step.record.by == seat and step.record.seq > since for step in table.steps):
        return {}
    return dict(entry.get("view", {}))


def _rows(table: Position, viewer: str | None, seen: Seen) -> list[list[dict[str, Any]]]:
    """The 9x9 board as rows of cells with what the templates mark on them.

    `row`/`col` are 1-based (for the field borders the boards draw), `given` marks
    tiles that stood there from the start, `owner` is the seat the game says the cell
    belongs to.
    """
    game, state = table.game, table.state
    now = table.when()
    board = game.board(state, viewer, now)
    start = game.board(game.initial(), viewer, now)
    _, owners, last_cell = seen
    return [
        [
            {
                "digit": board[cell],
                "field": field,
                "place": place,
                "name": cell_name,
                "row": r,
                "col": c,
                "last": cell == last_cell,
                "given": bool(start[cell]) and start[cell] == board[cell],
                "owner": owners.get(cell),
            }
            for cell, field, place, cell_name, r, c in row
        ]
        for row in _CELLS
    ]


#: Each row's cells as (index, field, place, name, row, column), the last two 1-based:
#: what every board's cell says whatever stands on it, worked out once.
_CELLS = tuple(tuple((r * 9 + c, FIELD_OF[r * 9 + c], PLACE_OF[r * 9 + c], name(r * 9 + c), r + 1, c + 1)
                     for c in range(9)) for r in range(9))


# --- who a command shows what ----------------------------------------------------------
def viewer(table: Position, seat: str | None) -> str | None:
    """`--for SEAT` checked against the game's seats (None: the public view); a
    player's name names its seat."""
    if seat is None:
        return None
    letter = seat_named(table.header.seats, seat)
    if letter not in table.game.seats:
        raise UsageError(f"--for {seat!r}: no such seat (seats: {', '.join(table.game.seats)})")
    return letter


def mover(table: Position, seat: str | None) -> str | None:
    """Whose view a command prints after `seat` acted (`corr move`, `corr bot`): the
    seat's own where every seat plays a board of its own (a Domino duel: its board and
    the digit it places next), else the public one, which is everyone's."""
    return seat if seat in table.game.seats and table.game.own_boards else None


def player(table: Position, humans: list[str]) -> str | None:
    """Whose view a command prints for the people at one terminal (`corr new --bot`,
    `corr play`): their seat where they play one, else the public view."""
    seats = [s for s in humans if s in table.game.seats]
    return seats[0] if len(seats) == 1 else None


def reads(table: Position, viewer: str | None, record: Record) -> bool:
    """Whether `viewer` may read `record` now: a line about it (a computer's move, its
    reasons) is printed to the viewer only then."""
    return table.game.shows(table.state, record.by, viewer, table.when())


def newest_read(table: Position, viewer: str | None) -> bool:
    """Whether `viewer` may read the newest record (True before any). Where it may not
    (a move on another board of a running Domino duel) the viewer's position is the one
    it saw before: `corr replay` shows no position twice."""
    return not table.steps or reads(table, viewer, table.steps[-1].record)


def log_seq(table: Position) -> int:
    """How far the log has come: the seq of its newest record, whoever may read it. The
    count says nothing of what the records hold (each seat's own messages are numbered
    by it), so `corr status` shows it where the public's seq would stand still at 0 (a
    running Domino duel, whose moves are the seats' own)."""
    return table.seq


def position(table: Position, viewer: str | None = None) -> dict[str, Any]:
    """The documented JSON of the position as `viewer` sees it (`corr show --format json`)."""
    return observe(table, viewer).position


def private(table: Position, seat: str) -> dict[str, Any]:
    """What `seat`'s view holds that the public's lacks (its hand): what the dealer's
    message to that seat carries besides the public position. Only the dealer's copy of
    a game with hidden information has anything to tell: {} otherwise."""
    if not table.game.hidden or not table.game.dealt:
        return {}
    own, public = observe(table, seat).position, observe(table).position
    return {k: v for k, v in own.items() if k not in public and k != "viewer"}


def panel_kept(table: Position) -> str | None:
    """Why this copy keeps no panel a dealer's message tells a seat, or None when it
    does: only a player's copy of a game with hidden information needs one."""
    if not table.game.hidden:
        return f"{table.game.title} has no hidden information"
    if table.game.dealt:
        return "this copy is the dealer's: it knows what every seat was dealt"
    return None


def last_seen(table: Position, viewer: str | None) -> Step | None:
    """The newest record `viewer` may read (in most games the newest record)."""
    return table.last_seen(viewer)


def seen_seq(table: Position, viewer: str | None) -> int:
    """The seq of the newest record `viewer` may read (0 before any): what its view is
    of, and what its answer to that view answers."""
    return table.seen_seq(viewer)


def shows_public_board(view: SeatView, public: SeatView) -> bool:
    """Whether `view` draws the board exactly as the public view `public` does: the same
    position apart from who looks, and the same cells. The public board, drawn once, may
    then stand for this viewer's (a host mailing a position to every seat draws it once
    for all those, not once each); a seat that holds a card, or plays a board of its
    own, sees more and gets its own."""
    if public.viewer is not None:
        raise ValueError("shows_public_board compares a view with the public one")
    own = {k: v for k, v in view.position.items() if k != "viewer"}
    return own == public.position and view.rows == public.rows


def log_lines(view: SeatView, table: Position) -> list[bytes] | None:
    """The log's lines the viewer may be sent whole (the attachment), header first;
    None while some record is not the viewer's to read (a running Domino duel)."""
    if not view.whole:
        return None
    log = table.log
    return [log.header_raw, *(raw for record, raw in zip(log.records, log.raw) if record.seq <= table.seq)]


def record_lines(view: SeatView, table: Position, since: int) -> list[str]:
    """The raw lines of the records after seq `since` the viewer may read (a mail's
    new records)."""
    readable = {step.record.seq for step in view.steps}
    return [raw.decode("utf-8") for record, raw in zip(table.log.records, table.log.raw)
            if since < record.seq <= table.seq and record.seq in readable]
