"""An interactive game at a terminal: the board, the seat on turn, its moves, the computer.

`corr play` drives a `Session` line by line. Every move is appended to the log the
moment it is made (at the table, like `corr move`), so quitting or a crash loses
nothing: the next session, or any other command, carries on from the file. Which seats
the computer plays comes from the game's computer seats and `--bot SEAT=LEVEL`; which
seats this terminal plays, from `--as` (default: every seat the computer does not).
Everything the terminal shows is what the seat at the keyboard may see
(`corr.seatview`): its own card or digit, and of the computer's seats only what that
seat may read. The board comes once a turn, before the prompt; each move made, the
seat's own and the computer's, is said in a line. With the coach, a move that would
leave a conquest unclaimed (combat 3.5) waits for a yes: plain play keeps the rule as
the table plays it, where noticing a missed claim is the other players' part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable

from corr import engine
from corr.errors import CorrError, UsageError
from corr.listing import PAGE, Listing, page
from corr.notation import Move
from corr.seatview import observe, reads, seen_seq, unclaimed

HELP = """\
Type a move in the game's notation, or one of:
  legal       your moves, a page at a time    legal more   the next page
  legal 1-9   the moves in one field          legal all    every move at once
  hint        the strong computer's move      board        the board again
  challenge   the newest move breaks the rule (mode=as-written)
  pass        the card game: the card you hold fits nowhere
  help        this text
  quit        leave: every move made is already in the file"""

#: What the keys say where lines are read with editing and history (`corr.keyboard`).
KEYS = "Up and Down recall earlier lines; Left, Right, Home and End move in the line."


@dataclass
class Session:
    """One terminal's game: which seats it plays, and the computer's."""

    path: Path
    out: Callable[[str], None]
    mine: tuple[str, ...] | None = None  # None: every seat the computer does not play
    computer: dict[str, str] = field(default_factory=dict)  # seat -> level
    colour: bool = False
    rng: random.Random = field(default_factory=random.Random)
    #: warn before a move leaves a conquest unclaimed (combat 3.5), and ask
    coach: bool = False
    #: lines come with editing and history (`corr.keyboard.editing`)
    editing: bool = False
    #: the command that goes on with this game, said on leaving
    again: str = ""
    _board: tuple[int, str | None] | None = field(default=None, init=False)  # the board shown last
    _listing: Listing | None = field(default=None, init=False)  # what `legal more` goes on from
    #: the coach's question: the seq seen, a move leaving a conquest unclaimed, its claim
    _pending: tuple[int, Move, Move] | None = field(default=None, init=False)

    def load(self) -> engine.Table:
        return engine.load(self.path)

    def humans(self, rep: engine.Table) -> list[str]:
        """The seats this terminal plays."""
        return [s for s in rep.seats if self.plays(s)]

    def viewer(self, rep: engine.Table, seat: str | None = None) -> str | None:
        """Whose view the terminal shows: `seat`, the one it is about to play, else the
        one seat it plays; the public view when it plays several and none is named."""
        if seat is not None and self.plays(seat):
            return seat
        humans = self.humans(rep)
        return humans[0] if len(humans) == 1 else None

    def shown(self, rep: engine.Table, seat: str | None = None) -> str:
        """The board as the seat at the keyboard sees it (`viewer`)."""
        from corr.render import render

        self._board = (rep.seq, self.viewer(rep, seat))
        return render(observe(rep, self.viewer(rep, seat)), "text", colour=self.colour)

    def board_once(self, rep: engine.Table, seat: str | None = None) -> None:
        """The board, unless the terminal shows it already: one board a turn, shown
        before the prompt (or the last word), however many moves led to it."""
        if self._board != (rep.seq, self.viewer(rep, seat)):
            self.out(self.shown(rep, seat))

    def plays(self, seat: str) -> bool:
        """Whether this terminal makes `seat`'s moves."""
        if seat in self.computer:
            return False
        return self.mine is None or seat in self.mine

    def computer_turns(self, rep: engine.Table) -> engine.Table:
        """The computer's moves while a computer seat is on turn, each appended at the
        table, and said in a line where the seat at the keyboard may read it."""
        from corr.bots.base import choose

        shown = self.viewer(rep)
        while True:
            seats = [s for s in rep.on_turn() if s in self.computer]
            if not seats:
                return rep
            seat = seats[0]
            if "pass" in rep.game.record_types and not observe(rep, seat, moves=True).legal:
                with engine.writing(self.path, resume=rep) as rep:  # its card fits nowhere (cards 5.1)
                    rep.add("pass", seat)
                self.out(f"{self.name(rep, seat)} (computer, {self.computer[seat]}) passes: nothing it holds fits\n")
                continue
            choice = choose(rep, seat, self.computer[seat], self.rng)
            with engine.writing(self.path, resume=rep) as rep:
                records = rep.add("move", seat, choice.move, answers=seen_seq(rep, seat))
            if reads(rep, shown, records[0]):
                self.out(f"{self.name(rep, seat)} (computer, {self.computer[seat]}) plays {choice.move}: "
                         f"{choice.why}\n")

    @staticmethod
    def name(rep: engine.Table, seat: str) -> str:
        from corr.names import short_name

        found = next((s.name for s in rep.header.seats if s.seat == seat), seat)
        return f"{seat} {short_name(found)}"

    def seat_to_play(self, rep: engine.Table) -> str | None:
        """The seat this terminal moves for now; None when none of its seats is on turn."""
        return next((s for s in rep.on_turn() if self.plays(s)), None)

    def deadline(self, rep: engine.Table) -> datetime | None:
        """When the game's own clock ends it (Domino 6.1), or None."""
        return rep.due_at()

    def time_up(self, now: datetime) -> engine.Table:
        """The game's own clock has run out: the dealer's due records are appended (the
        reveal, 7.2), as `corr claim-timeout` does; the position after them."""
        with engine.writing(self.path, now) as rep:
            rep.due()
        return rep

    def prompt(self, rep: engine.Table, seat: str, now: datetime) -> str:
        if self._pending is not None:
            _, move, claimed = self._pending
            return f"play {move} as typed? [y/N, or type {claimed}] "
        left = ""
        deadline = self.deadline(rep)
        if deadline is not None:
            seconds = max(0, int((deadline - now).total_seconds()))
            left = f" [{seconds // 60}:{seconds % 60:02d} left]"
        return f"{self.name(rep, seat)}{left}> "

    def leave(self) -> None:
        """Where the game is kept, and how to go on with it."""
        from corr.names import visible

        self.out(f"game kept in {visible(str(self.path))}; go on with: {visible(self.again)}\n")

    def handle(self, line: str, seat: str) -> bool:
        """One line typed for `seat`; False when the session should end."""
        text = line.strip()
        word = text.lower()
        if "\x1b" in line or "\x9b" in line:  # the codes of an arrow or another special key
            self.out(_keys_said(self.editing))
            return True
        pending, self._pending = self._pending, None
        if pending is not None and word in ("y", "yes"):
            self._move(pending[1], seat, pending[0])
            return True
        if pending is not None and word in ("", "n", "no"):
            self.out(f"{pending[1]} not played\n")
            return True
        if not text:
            return True
        if word in ("quit", "exit", "q"):
            self.leave()
            return False
        if word in ("help", "?"):
            self.out(HELP + "\n" + (KEYS + "\n" if self.editing else ""))
            return True
        rep = self.load()
        if word == "board":
            self.out(self.shown(rep, seat))
        elif word == "legal" or word.startswith("legal "):
            self.out(self.legal(rep, seat, word[len("legal"):].strip()))
        elif word in ("pass", "challenge") and word in rep.game.record_types:
            self._act(word, seat)
        elif word == "hint":
            from corr.bots.base import choose

            try:
                choice = choose(rep, seat, "strong", self.rng)
            except UsageError as err:
                self.out(f"no hint: {err}\n")
            else:
                self.out(f"hint: {choice.move} ({choice.why})\n")
        else:
            self._typed(rep, seat, text)
        return True

    def legal(self, rep: engine.Table, seat: str, what: str) -> str:
        """`legal`, `legal FIELD`, `legal more`, `legal all`: the seat's moves a page at
        a time (`corr.listing`); `more` goes on from the last list of this position."""
        last = self._listing
        if what == "more" and last is not None and (last.seq, last.seat) == (rep.seq, seat):
            if last.start is None:
                again = "legal" if last.field is None else f"legal {last.field}"
                return f"that was the last of them: `{again}` lists them again\n"
            field_, start, size = last.field, last.start, PAGE
        elif what in ("", "more"):
            field_, start, size = None, 0, PAGE
        elif what == "all":
            field_, start, size = None, 0, None
        elif what in map(str, range(1, 10)):
            field_, start, size = int(what), 0, PAGE
        else:
            return f"legal takes a field 1-9, more or all, not {_one_line(what)!r} (help lists the commands)\n"
        text, following = page(observe(rep, seat, moves=True, claims=True), field_, start, size)
        self._listing = Listing(rep.seq, seat, field_, following)
        return text

    def _typed(self, rep: engine.Table, seat: str, text: str) -> None:
        """A move typed for `seat`: played; with the coach, a move that leaves a
        conquest unclaimed (combat 3.5) waits for a yes first."""
        if self.coach:
            from corr.notation import parse

            try:
                move = parse(text)
            except CorrError:
                move = None  # the engine refuses it below, saying why
            claim = None if move is None else unclaimed(rep, seat, move)
            if move is not None and claim is not None:
                self.out(f"coach: {move} {claim.misses}; written {claim.move} it {claim.takes} ({claim.rule})\n")
                self._pending = (seen_seq(rep, seat), move, claim.move)
                return
        self._move(text, seat)

    def _act(self, kind: str, seat: str) -> None:
        """A pass or a challenge of the newest move for `seat`, and what came of it."""
        try:
            rep, records = engine.act(self.path, kind, by=seat)
        except CorrError as err:
            self.out(f"refused: {_one_line(str(err))}\n")
            return
        step = next((s for s in observe(rep, seat).steps if s.record.seq == records[0].seq), None)
        said = "; ".join(step.outcome.events) if step is not None else kind
        self.out(f"{self.name(rep, seat)}: {said}\n")

    def _move(self, move: Move | str, seat: str, seq: int | None = None) -> None:
        """Play `move` for `seat` (for the position after `seq`, when given), and say so."""
        try:
            rep, records = engine.act(self.path, "move", by=seat, text=str(move), answers=seq)
        except CorrError as err:
            self.out(f"refused: {_one_line(str(err))}\n")
            return
        step = next((s for s in observe(rep, seat).steps if s.record.seq == records[0].seq), None)
        told = "; ".join(step.outcome.told()) if step is not None else ""
        self.out(f"{self.name(rep, seat)} plays {records[0].move}{': ' + told if told else ''}\n")


def _keys_said(editing: bool) -> str:
    """What a line holding a special key's codes gets instead of "bad notation"."""
    if editing:
        return "ignored a special key this terminal's line editing does not know; type a move, or help\n"
    return ("ignored a special key (an arrow, Home, a function key): lines are not edited or recalled here; "
            "type a move, or help\n")


def _one_line(text: str) -> str:
    """A refusal on one line, its control characters shown as escapes (`visible`)."""
    from corr.names import visible

    return visible(" ".join(part.strip() for part in text.splitlines() if part.strip()))


def result_line(rep: engine.Table) -> str:
    """The end of the game in one line."""
    result = rep.result()
    scores = ", ".join(f"{seat} {points}" for seat, points in result.scores.items())
    if rep.forfeit:
        return f"game over: {rep.forfeit} lost {rep.forfeit_cause}; {', '.join(result.winners)} won ({scores})\n"
    if len(result.winners) == len(rep.seats) and len(result.winners) > 1:
        return f"game over: a draw ({scores})\n"
    return f"game over: {' and '.join(result.winners)} won ({scores})\n"
