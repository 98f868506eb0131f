"""Sudoku Moyo (docs/rules/moyo.md): two players fill their own areas (Shima) of a puzzle.

Rule numbers in messages and comments refer to docs/rules/moyo.md. Areas are the nine fields
(or, with units=rows/columns, the nine rows or columns); area 5 is the Azumaya. An area's
stones are the digits it still lacks (1.4), so the grid alone says what each area has.
"""

from __future__ import annotations

from datetime import datetime
from dataclasses import dataclass
from functools import reduce
from operator import itemgetter, or_
from typing import Any

from corr.errors import IllegalMove, UsageError
from corr.counts import counted
from corr.games.base import QUIET, Action, Game, Option, Outcome, Result, Seen, resolved_once
from corr.games.grid import Grid, givens, sudoku_break
from corr.geometry import ALL_DIGITS_MASK, COL_CELLS, DIGITS, FIELD_CELLS, FIELD_OF, ROW_CELLS, digits_of, name
from corr.notation import Move, Placement, ShimaPick
from corr.games.moyo.victory import most_stones
from corr.puzzles.appendix import APPENDIX, parse_puzzle, puzzle_text

AZUMAYA = 5  # 1.1 / 1.3: the centre field, or the middle row or column
#: 1.2 / 1.3: named divisions, as keypad-order strings of L (light), D (dark), N (neutral)
DIVISIONS = {"standard": "DLDDNLLDL", "corners": "LDLDNDLDL"}
#: 2.3: the draft order, A one, B two, A two, B two, A one (eight picks for eight Shima),
#: by the seat that picks first (option first_pick; 4.3: a revenge swaps it)
DRAFT_ORDER = {"A": "ABBAABBA", "B": "BAABBAAB"}
#: the cells of each area (index 0 unused), by the `units` option (1.3)
AREA_CELLS: dict[str, list[tuple[int, ...]]] = {
    "fields": FIELD_CELLS,
    "rows": [()] + list(ROW_CELLS),
    "columns": [()] + list(COL_CELLS),
}
AREA_OF: dict[str, list[int]] = {
    "fields": list(FIELD_OF),
    "rows": [c // 9 + 1 for c in range(81)],
    "columns": [c % 9 + 1 for c in range(81)],
}
AREA_WORD = {"fields": "field", "rows": "row", "columns": "column"}
#: what the cells of each area hold (a board's cells or candidates), read at once: every
#: move asks whether an area still takes a stone
_AREA_READ: dict[str, list[Any]] = {
    units: [None] + [itemgetter(*cells) for cells in areas[1:]] for units, areas in AREA_CELLS.items()
}


@dataclass
class MoyoState:
    grid: Grid
    owner: list[str | None]  # owner[area] for areas 1..9 (index 0 unused); None: neutral/unpicked
    turn: str  # the seat on turn once the draft and handicap are done (2.2)
    picks: int = 8  # draft picks made (2.3); 8 when there is no draft
    handicap_left: int = 0  # handicap stones still to place (2.4)
    over: bool = False
    winners: tuple[str, ...] = ()
    last_cell: int | None = None
    #: 4.2: the seat that placed the newest stone, and the board before its run of stones
    #: began (right after the other seat's last stone). Not part of the position's hash:
    #: it is history, replayed from the log like everything else.
    last_by: str | None = None
    run_start: bytes | None = None


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


#: Puzzles known to have a solution (6): the appendix's (a test solves them) and each
#: one this process has solved, so that loading a game does not solve its puzzle again.
_SOLVABLE: set[str] = set(APPENDIX.values())


def _has_solution(text: str, cells: list[int]) -> bool:
    if text not in _SOLVABLE:
        from corr.puzzles import solver  # only a puzzle not seen before needs it

        if solver.solve(cells) is None:
            return False
        _SOLVABLE.add(text)
    return True


class Moyo(Game[MoyoState]):
    name = "moyo"
    title = "Sudoku Moyo"
    puzzle_tools = {"check": "check"}
    rules = "moyo"
    min_seats = 2
    max_seats = 2
    options = {
        "puzzle": Option("", None, "appendix puzzle 1-6 or an 81-character puzzle string (2.1)", required=True),
        "variant": Option("standard", ("standard", "horikomi"), "horikomi: play into the opponent's Shima too (5)"),
        "division": Option(
            "standard", None, "standard, corners, draft, or nine letters L/D/N in keypad order (1.2, 1.3, 2.3)"
        ),
        "units": Option("fields", ("fields", "rows", "columns"), "what the areas are made of (1.3)"),
        "light": Option("A", ("A", "B"), "the seat playing light (2.2)"),
        "first": Option("A", ("A", "B"), "the seat moving first (2.2)"),
        "handicap": Option("0", None, "stones the weaker seat places into the Azumaya before the opening (2.4)"),
        "handicap_by": Option("B", ("A", "B"), "the weaker seat, who places the handicap stones (2.4)"),
        "first_pick": Option(
            "A", ("A", "B"), "division=draft: the seat that picks first (2.3); in the header only when B (4.3)"
        ),
    }
    #: a challenge is refused with its rule (3.3): Moyo has none to make
    record_types = frozenset({"move", "challenge"})
    turn_types = frozenset({"move"})
    turn_rule = "moyo 2.2"

    @classmethod
    @resolved_once
    def resolve_options(cls, given: dict[str, str]) -> dict[str, str]:
        if not given.get("puzzle"):
            raise UsageError("moyo needs a puzzle: -o puzzle=1..6 (the appendix) or -o puzzle=<81 characters> (2.1)")
        opts = super().resolve_options(given)
        cells = parse_puzzle(opts["puzzle"])
        opts["puzzle"] = puzzle_text(cells)
        if not _has_solution(opts["puzzle"], cells):  # 6 (and a clash of givens, refused by the solver)
            raise UsageError("puzzle has no solution: a puzzle with none is refused (6); `corr puzzle check` reports more")
        division = opts["division"]
        if division not in DIVISIONS and division != "draft":
            letters = division.upper()
            if len(letters) != 9 or set(letters) - set("LDN") or letters.count("N") != 1 or letters.count("L") != 4:
                raise UsageError(
                    f"division={division!r} is not standard, corners, draft or nine letters with one N, four L and four D"
                )
            if letters[AZUMAYA - 1] != "N":
                raise UsageError(f"division={division!r}: the N (the Azumaya) must be the fifth letter, the middle (1.1, 1.3)")
            opts["division"] = letters
        elif division in DIVISIONS:
            opts["division"] = DIVISIONS[division]
        room = sum(1 for c in AREA_CELLS[opts["units"]][AZUMAYA] if not cells[c])
        handicap = opts["handicap"]
        if not (handicap.isascii() and handicap.isdigit() and int(handicap) <= room):
            raise UsageError(f"handicap={handicap!r} is not a number 0-{room} (the Azumaya's empty places, 2.4)")
        opts["handicap"] = str(int(handicap))
        if int(handicap) and "handicap_by" not in given:
            raise UsageError("handicap needs the weaker seat: -o handicap_by=A or B (2.4)")
        # The first pick came with revenge games (4.3): logs from before it lack the
        # option, so its default stays out of the header and they replay unchanged.
        if opts.pop("first_pick") == "B":
            if opts["division"] != "draft":
                raise UsageError("first_pick is the draft's first pick: it needs -o division=draft (2.3)")
            opts["first_pick"] = "B"
        return opts

    # --- position -------------------------------------------------------------------
    @property
    def units(self) -> str:
        return self.opts["units"]

    def light_seat(self) -> str:
        return self.opts["light"]

    def initial(self) -> MoyoState:
        cells = givens(self.opts["puzzle"])
        division = self.opts["division"]
        light = self.light_seat()
        owner: list[str | None] = [None] * 10
        picks = 0
        if division != "draft":
            picks = 8
            for i, letter in enumerate(division):
                owner[i + 1] = {"L": light, "D": other(light), "N": None}[letter]
        state = MoyoState(
            grid=Grid(cells), owner=owner, turn=self.opts["first"], picks=picks, handicap_left=int(self.opts["handicap"])
        )
        self._settle(state)
        return state

    def clone(self, state: MoyoState) -> MoyoState:
        return MoyoState(
            grid=state.grid.copy(),
            owner=list(state.owner),
            turn=state.turn,
            picks=state.picks,
            handicap_left=state.handicap_left,
            over=state.over,
            winners=state.winners,
            last_cell=state.last_cell,
            last_by=state.last_by,
            run_start=state.run_start,
        )

    def phase(self, state: MoyoState) -> str:
        if state.picks < 8:
            return "draft"
        if state.handicap_left:
            return "handicap"
        if self.placeable(state, AZUMAYA):
            return "opening"  # 3.1
        return "shima"

    def on_turn(self, state: MoyoState) -> tuple[str, ...]:
        if state.over:
            return ()
        if state.picks < 8:
            return (DRAFT_ORDER[self.opts.get("first_pick", "A")][state.picks],)
        if state.handicap_left:
            return (self.opts["handicap_by"],)
        return (state.turn,)

    def turn_rule_for(self, state: MoyoState) -> str:
        """The rule a seat out of turn breaks: the draft's order (2.3), the weaker seat's
        handicap stones in a row (2.4), or taking turns (2.2)."""
        if state.picks < 8:
            return "moyo 2.3"
        if state.handicap_left:
            return "moyo 2.4"
        return self.turn_rule

    def end_rule(self, state: MoyoState) -> str:
        """4.1: the seat on turn could not place; 5.2 (Horikomi): nothing fits anywhere."""
        return "moyo 5.2" if self.opts["variant"] == "horikomi" else "moyo 4.1"

    def state_key(self, state: MoyoState) -> bytes:
        owners = "".join([o or "." for o in state.owner[1:]])
        return state.grid.cell_bytes() + (
            f"|{owners}|{state.picks}|{state.handicap_left}|{state.turn}|{''.join(state.winners)}"
            f"|{'o' if state.over else ''}"
        ).encode()

    def board(self, state: MoyoState, seat: str | None = None, now: datetime | None = None) -> list[int]:
        return state.grid.cells

    # --- areas ------------------------------------------------------------------------
    def area_of(self, cell: int) -> int:
        return AREA_OF[self.units][cell]

    def area_name(self, area: int) -> str:
        word = AREA_WORD[self.units]
        return f"{word} {area} (the Azumaya)" if area == AZUMAYA else f"{word} {area}"

    def has(self, state: MoyoState, area: int) -> int:
        """Mask of the digits already in an area."""
        grid = state.grid
        if self.units == "fields":
            return grid.boxes[area - 1]
        return (grid.rows if self.units == "rows" else grid.cols)[area - 1]

    def lacks(self, state: MoyoState, area: int) -> list[int]:
        """1.4: the stones an area still has are the digits it lacks."""
        return digits_of(ALL_DIGITS_MASK & ~self.has(state, area))

    def placeable(self, state: MoyoState, area: int) -> int:
        """Mask of the digits with a legal place in the area (any candidate of an area's
        empty cell is a digit the area lacks: the Sudoku rule covers its own unit)."""
        return reduce(or_, _AREA_READ[self.opts["units"]][area](state.grid.cand))

    def turned(self, state: MoyoState, area: int) -> list[int]:
        """1.5: stones the area still has that can go nowhere in it (turned face down)."""
        return digits_of(ALL_DIGITS_MASK & ~self.has(state, area) & ~self.placeable(state, area))

    def moyo_stones(self, state: MoyoState) -> list[int]:
        """1.5 / 5.2: empty places where no digit can legally go."""
        cells, cand = state.grid.cells, state.grid.cand
        return [c for c in range(81) if not cells[c] and not cand[c]]

    def shima(self, state: MoyoState, seat: str) -> list[int]:
        return [a for a in DIGITS if state.owner[a] == seat]

    def alone(self, state: MoyoState, seat: str, board: bytes | None = None) -> int:
        """4.2 ruling: the most stones `seat` could place one after another if it played on
        alone from `board` (default: the board now) under the rules: into the Azumaya
        while a stone fits there (2.4, 3.1), then into its own Shima (3.2)."""
        grid = state.grid if board is None else Grid(list(board))
        cells = AREA_CELLS[self.units]
        shima = [c for a in self.shima(state, seat) for c in cells[a]]
        return most_stones(grid.cand, cells[AZUMAYA], shima)

    # --- moves ----------------------------------------------------------------------
    def target_areas(self, state: MoyoState, seat: str) -> list[int]:
        """The areas the seat on turn may place into now (2.4, 3.1, 3.2, 5.1)."""
        if self.phase(state) in ("handicap", "opening"):
            return [AZUMAYA]
        if self.opts["variant"] == "horikomi":
            return [a for a in DIGITS if a != AZUMAYA]
        return self.shima(state, seat)

    def legal_moves(self, state: MoyoState) -> list[Move]:
        seat = self.to_move(state)
        if seat is None:
            return []
        if state.picks < 8:
            return [ShimaPick(a) for a in DIGITS if a != AZUMAYA and state.owner[a] is None]
        cand = state.grid.cand
        return [
            Placement(d, c)
            for a in self.target_areas(state, seat)
            for c in AREA_CELLS[self.units][a]
            for d in digits_of(cand[c])
        ]

    def can_place(self, state: MoyoState, seat: str) -> bool:
        read, cand = _AREA_READ[self.opts["units"]], state.grid.cand
        return any(any(read[a](cand)) for a in self.target_areas(state, seat))

    def apply(self, state: MoyoState, action: Action) -> Outcome:
        if action.type == "challenge":
            raise IllegalMove(
                "moyo 3.3",
                "Sudoku Moyo has no challenges: a stone that breaks the Sudoku rule is never placed (3.3), "
                "so there is no illegal stone to challenge",
            )
        move = action.move
        if state.picks < 8:
            return self._pick(state, action)
        if isinstance(move, ShimaPick):
            if self.opts["division"] == "draft":
                raise IllegalMove("moyo 2.3", "the draft is over: all eight Shima have been picked")
            raise IllegalMove("moyo 2.3", "Shima are picked only with division=draft; this game's division is fixed")
        if not isinstance(move, Placement):
            raise IllegalMove("moyo 3.3", f"a Moyo move places one stone, written like 7 (5,4); got {move}")
        if move.claim is not None:
            raise IllegalMove("moyo 3.3", f"a Moyo move carries no claim mark '!': write {move.digit} {name(move.cell)}")
        grid = state.grid
        cell, digit = move.cell, move.digit
        area = self.area_of(cell)
        phase = self.phase(state)
        if grid.cells[cell]:
            stone = grid.cells[cell]
            article = "an" if stone == 8 else "a"
            raise IllegalMove("moyo 3.3", f"{name(cell)} is not empty: {article} {stone} stands there", (cell,))
        if phase == "handicap" and area != AZUMAYA:
            raise IllegalMove(
                "moyo 2.4", f"handicap stones go into the Azumaya ({self.area_name(AZUMAYA)}), not {self.area_name(area)}",
                (cell,),
            )
        if phase == "opening" and area != AZUMAYA:
            raise IllegalMove(
                "moyo 3.1",
                f"opening: while a stone can go into the Azumaya every move is placed there; "
                f"{name(cell)} is in {self.area_name(area)}",
                (cell,),
            )
        if phase == "shima":
            owner = state.owner[area]
            if area == AZUMAYA:
                raise IllegalMove(
                    "moyo 3.2", f"the opening is over: stones go into a Shima now, not into {self.area_name(area)}", (cell,)
                )
            if owner != action.by and self.opts["variant"] != "horikomi":
                raise IllegalMove(
                    "moyo 3.2",
                    f"{name(cell)} is in {owner}'s Shima ({self.area_name(area)}); you place only in your own "
                    f"Shima ({', '.join(map(str, self.shima(state, action.by)))}), except in Horikomi (5.1)",
                    (cell,),
                )
        if self.has(state, area) >> digit & 1:
            where = next(c for c in AREA_CELLS[self.units][area] if grid.cells[c] == digit)
            raise IllegalMove(
                "moyo 3.3",
                f"{self.area_name(area)} no longer has a {digit} stone: its {digit} stands at {name(where)}",
                (cell, where),
            )
        illegal = sudoku_break(grid, cell, digit, "moyo 3.3")
        if illegal is not None:
            raise illegal
        if state.last_by != action.by:  # 4.2: a new run of stones starts here
            state.run_start = grid.cell_bytes()
            state.last_by = action.by
        grid.place(cell, digit)  # 3.3: solvability is not checked
        state.last_cell = cell
        if phase == "handicap":
            state.handicap_left -= 1
        else:
            state.turn = other(state.turn)
        return self._settle(state)

    def _pick(self, state: MoyoState, action: Action) -> Outcome:
        """2.3: a draft pick `shima F`."""
        move = action.move
        if not isinstance(move, ShimaPick):
            raise IllegalMove("moyo 2.3", f"the Shima draft comes first: pick an area with `shima F`, not {move}")
        area = move.field
        if area == AZUMAYA:
            raise IllegalMove("moyo 2.3", f"{self.area_name(AZUMAYA)} is neutral and cannot be picked")
        if state.owner[area] is not None:
            raise IllegalMove("moyo 2.3", f"{self.area_name(area)} is already {state.owner[area]}'s Shima")
        state.owner[area] = action.by
        state.picks += 1
        return self._settle(state)

    def _settle(self, state: MoyoState) -> Outcome:
        """Move through the phases and find the end (2.4, 3.1, 4.1, 5.2)."""
        if state.picks < 8:
            return QUIET
        if state.handicap_left and not self.placeable(state, AZUMAYA):
            state.handicap_left = 0  # 2.4: the Azumaya has no legal place left
        if state.handicap_left:
            return QUIET
        if self.opts["variant"] == "horikomi":
            if state.grid.options == 0:  # 5.2: no stone can be placed anywhere
                state.over = True
                state.winners = self.horikomi_winners(state)
        elif not self.can_place(state, state.turn):  # 4.1
            state.over = True
            state.winners = (other(state.turn),)
        if state.over:
            return Outcome(events=(self.result_text(state),))
        return QUIET

    # --- result ---------------------------------------------------------------------
    def own_moyo(self, state: MoyoState, seat: str) -> int:
        """5.3: Moyo stones in the seat's own Shima."""
        areas = set(self.shima(state, seat))
        return sum(1 for c in self.moyo_stones(state) if self.area_of(c) in areas)

    def empty_places(self, state: MoyoState, seat: str) -> int:
        """Empty places in the seat's own Shima (4.3 ruling: a Horikomi forfeit's loser
        gets a Moyo stone on each)."""
        cells = state.grid.cells
        return sum(1 for a in self.shima(state, seat) for c in AREA_CELLS[self.units][a] if not cells[c])

    def shima_with(self, state: MoyoState, seat: str) -> list[int]:
        """5.3 tie-breaks: how many of the seat's Shima hold 9 stones, 8, ... 1."""
        cells = state.grid.cells
        filled = [sum(1 for c in AREA_CELLS[self.units][a] if cells[c]) for a in self.shima(state, seat)]
        return [filled.count(n) for n in range(9, 0, -1)]

    def horikomi_key(self, state: MoyoState, seat: str) -> tuple[int, ...]:
        """5.3: smaller is better: Moyo stones, then fewer of the Shima with 9, 8, ... 1 stones."""
        return (self.own_moyo(state, seat),) + tuple(-n for n in self.shima_with(state, seat))

    def horikomi_winners(self, state: MoyoState) -> tuple[str, ...]:
        keys = {s: self.horikomi_key(state, s) for s in self.seats}
        best = min(keys.values())
        return tuple(s for s in self.seats if keys[s] == best)  # both: a draw

    def victory_points(self, state: MoyoState) -> dict[str, int]:
        """4.2 (revised ruling): the winner scores the most stones it could place one after
        another, alone, from the position right after the loser's last stone; a loser, a
        draw and Horikomi (nothing fits at its end) 0."""
        won = state.winners if len(state.winners) == 1 and self.opts["variant"] != "horikomi" else ()
        points = dict.fromkeys(self.seats, 0)
        for winner in won:
            # the winner's own run of stones ends the game: count from before it
            points[winner] = self.alone(state, winner, state.run_start if state.last_by == winner else None)
        return points

    def forfeit_points(self, state: MoyoState, loser: str) -> dict[str, int]:
        """4.3 ruling: a game lost by forfeit or timeout gives its winner the victory points
        of the position at that moment (counted as in 4.2, from that position)."""
        if self.opts["variant"] == "horikomi":
            return dict.fromkeys(self.seats, 0)
        return {s: 0 if s == loser else self.alone(state, s) for s in self.seats}

    def scores(self, state: MoyoState) -> dict[str, int]:
        """Horikomi: Moyo stones in one's own Shima (5.3). Standard: victory points once the
        game is over (4.2); while it runs, the stones each seat could still place alone -
        what a win by forfeit would give it now (4.3)."""
        if self.opts["variant"] == "horikomi":
            return {s: self.own_moyo(state, s) for s in self.seats}
        if state.over:
            return self.victory_points(state)
        return {s: self.alone(state, s) for s in self.seats}

    def result(self, state: MoyoState, now: datetime | None = None) -> Result:
        return Result(state.over, state.winners if state.over else (), self.scores(state))

    def result_text(self, state: MoyoState) -> str:
        if self.opts["variant"] == "horikomi":
            moyo = ", ".join(f"{s} {self.own_moyo(state, s)}" for s in self.seats)
            if len(state.winners) > 1:
                return f"no stone fits anywhere (5.2); Moyo stones in own Shima {moyo}: a draw (5.3)"
            keys = [self.horikomi_key(state, s) for s in self.seats]
            why = ""
            if keys[0][0] == keys[1][0]:
                level = next(i for i in range(1, 10) if keys[0][i] != keys[1][i])
                what = "completely filled Shima" if level == 1 else f"Shima with {counted(10 - level, 'stone')}"
                why = f", tie broken by more {what}"
            return f"no stone fits anywhere (5.2); Moyo stones in own Shima {moyo}: {state.winners[0]} wins (5.3{why})"
        winner = state.winners[0]
        points = self.victory_points(state)[winner]
        unit = "victory point" if points == 1 else "victory points"
        return f"{other(winner)} cannot place a stone (4.1): {winner} wins with {points} {unit} (4.2)"

    def view(self, state: MoyoState, viewer: str | None, now: datetime | None = None) -> Seen:
        """Everything is public: the phase, the areas and their owners (1.2, 2.3), the
        Moyo stones and the turned ones (1.5), what each area lacks, victory points once
        the game is over (4.2) and how it ended."""
        light = self.light_seat()
        data: dict[str, Any] = {
            "phase": self.phase(state),
            "variant": self.opts["variant"],
            "units": self.units,
            "light": light,
            "dark": other(light),
            "areas": {str(a): state.owner[a] for a in DIGITS},
            "moyo_stones": [name(c) for c in self.moyo_stones(state)],
            "turned": {str(a): t for a in DIGITS if (t := self.turned(state, a))},
            "stones_left": {str(a): self.lacks(state, a) for a in DIGITS},
            "handicap_left": state.handicap_left,
        }
        if self.opts["variant"] == "horikomi":
            data["empty_places"] = {s: self.empty_places(state, s) for s in self.seats}
        # 4.2: victory points exist once the game is over; the key is there from the start
        data["victory_points"] = self.victory_points(state) if state.over else None
        if state.over:
            data["end"] = self.result_text(state)
        return Seen(data, last_cell=state.last_cell)

    # --- 4.3 revenge and matches --------------------------------------------------------
    @classmethod
    def revenge_options(cls, options: dict[str, str]) -> dict[str, str]:
        return revenge_options(options)

    def match_points(self, state: MoyoState, forfeit: str | None = None) -> dict[str, Any]:
        """What a finished game adds to the match (4.3): victory points (4.2), or in
        Horikomi the Moyo stones in each seat's own Shima and, for the tie-breaks, how
        many of its Shima hold 9, 8, ... 1 stones (5.3). `forfeit`: the seat that lost by
        a timeout or a ruling; its game counts from the position at that moment (4.3
        rulings: in Horikomi every empty place of the loser's Shima is a Moyo stone)."""
        if self.opts["variant"] == "horikomi":
            moyo = {s: self.own_moyo(state, s) for s in self.seats}
            if forfeit is not None:
                moyo[forfeit] = self.empty_places(state, forfeit)
            return {"moyo_stones": moyo, "shima_with": {s: self.shima_with(state, s) for s in self.seats}}
        if forfeit is not None:
            return {"victory_points": self.forfeit_points(state, forfeit)}
        return {"victory_points": self.victory_points(state)}

    def match_winners(self, points: list[dict[str, Any]]) -> dict[str, Any]:
        return match_winners(points)


# --- 4.3 revenge and matches ---------------------------------------------------------
def revenge_options(options: dict[str, str]) -> dict[str, str]:
    """4.3: the rematch's options: the same puzzle and rules, every role swapped - light
    and dark, the first move and, after a draft, the first pick."""
    again = dict(options)
    again["light"] = other(options.get("light", "A"))
    again["first"] = other(options.get("first", "A"))
    again.pop("first_pick", None)
    if options.get("division") == "draft" and options.get("first_pick", "A") == "A":
        again["first_pick"] = "B"  # stored only when B (see Moyo.resolve_options)
    return again


def match_winners(points: list[dict[str, Any]]) -> dict[str, Any]:
    """4.3: the match of a game and its revenge. Standard: the most victory points over
    both games win. Horikomi (ruling): the fewest Moyo stones in one's own Shima over both
    games, then the tie-breaks of 5.3 over both games together (more Shima with 9 stones,
    then 8, ... 1); still tied, a draw (both seats win)."""
    if "victory_points" in points[0]:
        seats = sorted(points[0]["victory_points"])
        total = {s: sum(g["victory_points"][s] for g in points) for s in seats}
        best = max(total.values())
        winners = [s for s in seats if total[s] == best]
        decided_by = "most victory points (4.3)" if len(winners) == 1 else "equal victory points (4.3)"
        return {"total": total, "unit": "victory points", "winners": winners, "decided_by": decided_by}
    seats = sorted(points[0]["moyo_stones"])
    total = {s: sum(g["moyo_stones"][s] for g in points) for s in seats}
    shima_with = {s: [sum(g["shima_with"][s][i] for g in points) for i in range(9)] for s in seats}
    keys = {s: (total[s],) + tuple(-n for n in shima_with[s]) for s in seats}
    best = min(keys.values())
    winners = [s for s in seats if keys[s] == best]
    decided_by = "fewest Moyo stones in one's own Shima over both games (4.3)"
    if len(set(total.values())) == 1:
        level = next((i for i in range(1, 10) if len({k[i] for k in keys.values()}) > 1), None)
        if level is None:
            decided_by = "equal Moyo stones, and equal in every tie-break of 5.3 over both games (4.3)"
        else:
            what = "completely filled Shima" if level == 1 else f"Shima with {counted(10 - level, 'stone')}"
            decided_by = f"equal Moyo stones, more {what} over both games (4.3, 5.3)"
    return {"total": total, "unit": "Moyo stones", "shima_with": shima_with, "winners": winners,
            "decided_by": decided_by}
