"""Sudoku Moyo (rules/moyo.md): two players fill their own areas (Shima) of a puzzle.

Rule numbers in messages and comments refer to rules/moyo.md. Areas are the nine fields
(or, with units=rows/columns, the nine rows or columns); area 5 is the Azumaya. An area's
stones are the digits it still lacks (1.4), so the grid alone says what each area has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corr.errors import IllegalMove, UsageError
from corr.games.base import QUIET, Action, Game, Option, Outcome, Result
from corr.games.grid import Grid, sudoku_break
from corr.geometry import ALL_DIGITS_MASK, COL_CELLS, DIGITS, FIELD_CELLS, FIELD_OF, ROW_CELLS, digits_of, name
from corr.notation import Placement, ShimaPick
from corr.puzzles.appendix import parse_puzzle, puzzle_text

AZUMAYA = 5  # 1.1 / 1.3: the centre field, or the middle row or column
#: 1.2 / 1.3: named divisions, as keypad-order strings of L (light), D (dark), N (neutral)
DIVISIONS = {"standard": "DLDDNLLDL", "corners": "LDLDNDLDL"}
#: 2.3: the draft order, A one, B two, A two, B two, A one (eight picks for eight Shima)
DRAFT_ORDER = "ABBAABBA"
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


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


class Moyo(Game):
    name = "moyo"
    title = "Sudoku Moyo"
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
    }
    record_types = frozenset({"move"})
    turn_types = frozenset({"move"})
    turn_rule = "moyo 2.2"

    @classmethod
    def resolve_options(cls, given: dict[str, str]) -> dict[str, str]:
        if not given.get("puzzle"):
            raise UsageError("moyo needs a puzzle: -o puzzle=1..6 (the appendix) or -o puzzle=<81 characters> (2.1)")
        opts = super().resolve_options(given)
        cells = parse_puzzle(opts["puzzle"])
        opts["puzzle"] = puzzle_text(cells)
        from corr.puzzles import solver  # only games that start need it

        if solver.solve(cells) is None:  # 6 (and a clash of givens, refused by the solver)
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
        if not (handicap.isdigit() and int(handicap) <= room):
            raise UsageError(f"handicap={handicap!r} is not a number 0-{room} (the Azumaya's empty places, 2.4)")
        opts["handicap"] = str(int(handicap))
        if int(handicap) and "handicap_by" not in given:
            raise UsageError("handicap needs the weaker seat: -o handicap_by=A or B (2.4)")
        return opts

    # --- position -------------------------------------------------------------------
    @property
    def units(self) -> str:
        return self.opts["units"]

    def light_seat(self) -> str:
        return self.opts["light"]

    def initial(self) -> MoyoState:
        cells = parse_puzzle(self.opts["puzzle"])
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
        )

    def phase(self, state: MoyoState) -> str:
        if state.picks < 8:
            return "draft"
        if state.handicap_left:
            return "handicap"
        if self.placeable(state, AZUMAYA):
            return "opening"  # 3.1
        return "shima"

    def to_move(self, state: MoyoState) -> str | None:
        if state.over:
            return None
        if state.picks < 8:
            return DRAFT_ORDER[state.picks]
        if state.handicap_left:
            return self.opts["handicap_by"]
        return state.turn

    def state_key(self, state: MoyoState) -> bytes:
        owners = "".join(o or "." for o in state.owner[1:])
        return bytes(state.grid.cells) + (
            f"|{owners}|{state.picks}|{state.handicap_left}|{state.turn}|{''.join(state.winners)}"
            f"|{'o' if state.over else ''}"
        ).encode()

    def board(self, state: MoyoState, seat: str | None = None) -> list[int]:
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
        cand = state.grid.cand
        mask = 0
        for c in AREA_CELLS[self.units][area]:
            mask |= cand[c]
        return mask

    def turned(self, state: MoyoState, area: int) -> list[int]:
        """1.5: stones the area still has that can go nowhere in it (turned face down)."""
        return digits_of(ALL_DIGITS_MASK & ~self.has(state, area) & ~self.placeable(state, area))

    def moyo_stones(self, state: MoyoState) -> list[int]:
        """1.5 / 5.2: empty places where no digit can legally go."""
        cells, cand = state.grid.cells, state.grid.cand
        return [c for c in range(81) if not cells[c] and not cand[c]]

    def shima(self, state: MoyoState, seat: str) -> list[int]:
        return [a for a in DIGITS if state.owner[a] == seat]

    def open_pairs(self, state: MoyoState, seat: str) -> int:
        """4.2 ruling: (own area, digit) pairs the area lacks with a legal place there."""
        return sum(bin(self.placeable(state, a)).count("1") for a in self.shima(state, seat))

    # --- moves ----------------------------------------------------------------------
    def target_areas(self, state: MoyoState, seat: str) -> list[int]:
        """The areas the seat on turn may place into now (2.4, 3.1, 3.2, 5.1)."""
        if self.phase(state) in ("handicap", "opening"):
            return [AZUMAYA]
        if self.opts["variant"] == "horikomi":
            return [a for a in DIGITS if a != AZUMAYA]
        return self.shima(state, seat)

    def legal_moves(self, state: MoyoState) -> list[Placement | ShimaPick]:
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
        return any(self.placeable(state, a) for a in self.target_areas(state, seat))

    def apply(self, state: MoyoState, action: Action) -> Outcome:
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

    def horikomi_key(self, state: MoyoState, seat: str) -> tuple[int, ...]:
        """5.3: smaller is better: Moyo stones, then fewer of the Shima with 9, 8, ... 1 stones."""
        cells = state.grid.cells
        filled = [sum(1 for c in AREA_CELLS[self.units][a] if cells[c]) for a in self.shima(state, seat)]
        return (self.own_moyo(state, seat),) + tuple(-filled.count(n) for n in range(9, 0, -1))

    def horikomi_winners(self, state: MoyoState) -> tuple[str, ...]:
        keys = {s: self.horikomi_key(state, s) for s in self.seats}
        best = min(keys.values())
        return tuple(s for s in self.seats if keys[s] == best)  # both: a draw

    # --- 4.3 revenge and matches --------------------------------------------------------
    match_options = ("puzzle",)

    @classmethod
    def revenge_options(cls, options: dict[str, str]) -> dict[str, str]:
        return revenge_options(options)

    def match_points(self, state: MoyoState) -> dict[str, int]:
        return self.victory_points(state)

    def match_winners(self, points: list[dict[str, int]]) -> tuple[tuple[str, ...], dict[str, int]]:
        return match_winners(points)

    def victory_points(self, state: MoyoState) -> dict[str, int]:
        """4.2: the winner scores the stones they could still place; a loser or a draw 0."""
        won = state.winners if len(state.winners) == 1 else ()
        return {s: self.open_pairs(state, s) if s in won else 0 for s in self.seats}

    def scores(self, state: MoyoState) -> dict[str, int]:
        if self.opts["variant"] == "horikomi":
            return {s: self.own_moyo(state, s) for s in self.seats}
        if state.over:
            return self.victory_points(state)
        return {s: self.open_pairs(state, s) for s in self.seats}

    def result(self, state: MoyoState) -> Result:
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
                what = "completely filled Shima" if level == 1 else f"Shima with {10 - level} stones"
                why = f", tie broken by more {what}"
            return f"no stone fits anywhere (5.2); Moyo stones in own Shima {moyo}: {state.winners[0]} wins (5.3{why})"
        winner = state.winners[0]
        points = self.victory_points(state)[winner]
        unit = "victory point" if points == 1 else "victory points"
        return f"{other(winner)} cannot place a stone (4.1): {winner} wins with {points} {unit} (4.2)"

    def describe(self, state: MoyoState) -> dict[str, Any]:
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
        if state.over:
            data["victory_points"] = self.victory_points(state)
            data["end"] = self.result_text(state)
        return data


# --- 4.3 revenge and matches ---------------------------------------------------------
def revenge_options(options: dict[str, str]) -> dict[str, str]:
    """4.3: the rematch's options: the same puzzle and rules, colours and first move swapped."""
    again = dict(options)
    again["light"] = other(options.get("light", "A"))
    again["first"] = other(options.get("first", "A"))
    return again


def match_winners(points: list[dict[str, int]]) -> tuple[tuple[str, ...], dict[str, int]]:
    """4.3: a match of two games is won on total victory points (both seats on a tie)."""
    total: dict[str, int] = {}
    for game in points:
        for seat, n in game.items():
            total[seat] = total.get(seat, 0) + n
    best = max(total.values())
    return tuple(s for s in sorted(total) if total[s] == best), total
