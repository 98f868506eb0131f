"""SUDOKU-Combat (docs/rules/combat.md): place tiles from a common supply, conquer fields.

Rule numbers in messages and comments refer to docs/rules/combat.md.
"""

from __future__ import annotations

from datetime import datetime
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from corr.errors import IllegalMove
from corr.games.aswritten import AsWritten, Window
from corr.games.base import Action, Claim, Game, Option, Outcome, Result, Seen
from corr.games.grid import Grid, sudoku_break
from corr.geometry import ALL_DIGITS_MASK, DIGITS, FIELD_CELLS, FIELD_OF, cell_of, digits_of, name
from corr.notation import Move, Placement

#: each field's nine cells read at once (index 0 unused): after every placement the
#: game asks whether its field is full (5.4)
_FIELD_READ: list[Any] = [None] + [itemgetter(*FIELD_CELLS[f]) for f in DIGITS]

TILES_PER_DIGIT = 9  # 1.1
#: The cells in the order the legal moves list them: field by field, each by its places.
_BY_FIELD = tuple(sorted(range(81), key=lambda c: (c // 27, c % 9 // 3, c // 9 % 3, c % 3)))


@dataclass
class CombatState:
    grid: Grid
    conquered: dict[int, str] = field(default_factory=dict)  # field -> seat (3.5)
    turn: int = 0  # index of the seat on turn (1.3)
    placed: int = 0  # tiles placed in the current turn
    bonus: dict[str, int] = field(default_factory=dict)  # extra tiles owed to a challenger (4.1)
    last: Window | None = None  # the placement a challenge can still reach (4.1)
    decided: bool = False  # 5.1: the leader can no longer be overtaken
    over: bool = False
    last_cell: int | None = None


@dataclass(frozen=True, slots=True)
class Conquest(Outcome):
    """A placement that conquered fields (3.1-3.3), credited or missed (3.5)."""

    conquered: tuple[int, ...] = ()  # fields credited by this placement
    missed: tuple[int, ...] = ()  # fields conquered but not claimed (conquest=claim)

    def told(self) -> tuple[str, ...]:
        return (f"conquers {fields_text(self.conquered)}",) if self.conquered else ()

    def untold(self) -> tuple[str, ...]:
        # noticing a missed conquest is the other players' part of the game (3.5)
        return (f"misses {fields_text(self.missed)}",) if self.missed else ()

    def gained(self) -> tuple[int, ...]:
        return self.conquered

    def findings(self) -> tuple[tuple[str, str], ...]:
        if not self.missed:
            return ()
        return (("missed-conquest", f"conquered {fields_text(self.missed)} without claiming "
                 f"{'it' if len(self.missed) == 1 else 'them'} (combat 3.5)"),)

    def highlights(self) -> dict[str, dict[str, Any]]:
        return {"conquests": {"fields": list(self.conquered)}} if self.conquered else {}


def fields_text(fields: tuple[int, ...]) -> str:
    """`field 3`, `fields 3 and 6`, `fields 1, 4 and 7`: fields as a sentence says them."""
    names = [str(f) for f in fields]
    if len(names) == 1:
        return f"field {names[0]}"
    return f"fields {', '.join(names[:-1])} and {names[-1]}"


#: A placement that conquered nothing (most of them).
NO_CONQUEST = Conquest()


def setup_cells() -> list[int]:
    """1.2: the centre of every field holds that field's number."""
    cells = [0] * 81
    for f in DIGITS:
        cells[cell_of(f, 5)] = f
    return cells


class Combat(AsWritten, Game[CombatState]):
    name = "combat"
    title = "SUDOKU-Combat"
    aliases = ("sudoku-combat",)
    rules = "combat"
    min_seats = 2
    max_seats = 4
    options = {
        "conquest": Option(
            "claim",
            ("claim", "auto"),
            "claim: a conquest counts only when its move carries `!` (3.5); auto: every conquest counts",
        ),
        "mode": Option(
            "strict",
            ("strict", "as-written"),
            "strict: Sudoku-rule breaks are refused; as-written: they stand unless challenged (4.1)",
        ),
    }
    record_types = frozenset({"move", "challenge"})
    turn_types = frozenset({"move"})
    turn_rule = "combat 1.3"
    highlight_lists = ("conquests",)
    challenge_rule = "combat 4.1"
    move_word = "placement"
    upheld_words = "the tile went back to the supply"
    main_rule = "the Sudoku rule"

    # --- position -------------------------------------------------------------------
    def initial(self) -> CombatState:
        return CombatState(grid=Grid(setup_cells()), bonus={s: 0 for s in self.seats})

    def clone(self, state: CombatState) -> CombatState:
        return CombatState(
            grid=state.grid.copy(),
            conquered=dict(state.conquered),
            turn=state.turn,
            placed=state.placed,
            bonus=dict(state.bonus),
            last=state.last,
            decided=state.decided,
            over=state.over,
            last_cell=state.last_cell,
        )

    def on_turn(self, state: CombatState) -> tuple[str, ...]:
        return () if state.over else (self.seats[state.turn],)

    def supply(self, state: CombatState) -> dict[int, int]:
        """1.1/1.2: tiles of each digit not on the board."""
        counts = state.grid.counts
        return {d: TILES_PER_DIGIT - counts[d] for d in DIGITS}

    def _supply_mask(self, state: CombatState) -> int:
        counts = state.grid.counts
        if max(counts) < TILES_PER_DIGIT:
            return ALL_DIGITS_MASK
        mask = 0
        for d in DIGITS:
            if counts[d] < TILES_PER_DIGIT:
                mask |= 1 << d
        return mask

    def state_key(self, state: CombatState) -> bytes:
        # cells as raw bytes 0-9, then owners, turn, owed tiles, challenge window, flags
        conquered = "".join(map(state.conquered.get, DIGITS, "." * 9)) if state.conquered else "........."
        bonus = "0" * len(self.seats) if not any(state.bonus.values()) else "".join(
            map(str, map(state.bonus.__getitem__, self.seats)))
        last = state.last
        window = "-" if last is None else f"{last.seq}{'c' if last.challenged else ''}"
        flags = ("d" if state.decided else "") + ("o" if state.over else "")
        return state.grid.cell_bytes() + f"|{conquered}|{state.turn}.{state.placed}|{bonus}|{window}|{flags}".encode()

    def board(self, state: CombatState, seat: str | None = None, now: datetime | None = None) -> list[int]:
        return state.grid.cells

    # --- moves ----------------------------------------------------------------------
    def legal_moves(self, state: CombatState) -> list[Move]:
        if state.over:
            return []
        supply = self._supply_mask(state)
        cand = state.grid.cand
        return [Placement(d, c) for c in _BY_FIELD for d in digits_of(cand[c] & supply)]

    def example_for(self, state: CombatState, seat: str) -> Move | None:
        """The first legal move, found without listing them all: a legal placement puts a
        candidate from the supply, which breaks no rule (`check_placement`), so the first
        one keeps it."""
        if seat not in self.on_turn(state) or state.over:
            return None
        supply, cand = self._supply_mask(state), state.grid.cand
        for c in _BY_FIELD:
            mask = cand[c] & supply
            if mask:
                return Placement((mask & -mask).bit_length() - 1, c)  # its lowest digit
        return None

    def apply(self, state: CombatState, action: Action) -> Outcome:
        if action.type == "move":
            return self._place(state, action)
        return self.challenge(state, action)

    def check(self, state: CombatState, move: Move, seat: str | None = None) -> IllegalMove | None:
        if not isinstance(move, Placement):
            return None
        return self.check_placement(state, move)

    def check_placement(self, state: CombatState, move: Placement) -> IllegalMove | None:
        """The Sudoku-rule break a placement would make (2.2), or None; raises for moves
        that cannot be made at all (occupied place, empty supply)."""
        grid = state.grid
        if grid.cand[move.cell] >> move.digit & 1 and grid.counts[move.digit] < TILES_PER_DIGIT:
            return None  # most placements: a candidate of an empty place, from the supply
        occupant = grid.cells[move.cell]
        if occupant:
            raise IllegalMove("combat 2.1", f"{name(move.cell)} is occupied by a {occupant}", (move.cell,))
        if grid.counts[move.digit] >= TILES_PER_DIGIT:
            raise IllegalMove("combat 1.1", f"no {move.digit} is left in the supply: all nine are on the board")
        return sudoku_break(grid, move.cell, move.digit, "combat 2.2")

    def _place(self, state: CombatState, action: Action) -> Outcome:
        move = action.move
        if not isinstance(move, Placement):
            raise IllegalMove("combat 2.1", f"a Combat move places a tile, written like 7 (5,4); got {move}")
        grid = state.grid
        illegal = self.check_placement(state, move)
        if illegal is not None and self.opts["mode"] == "strict":
            raise illegal
        zeroed = grid.place(move.cell, move.digit)
        conquests = self._conquests(state, zeroed) if zeroed else ()
        # most placements conquer nothing and claim nothing: nothing to credit (3.5)
        credited = self._credit(state, move, conquests) if conquests or move.claim is not None else ()
        for f in credited:
            state.conquered[f] = action.by
        self.open(state, action, credited, illegal)  # as-written: challengeable until the next move (4.1)
        state.last_cell = move.cell
        if conquests or illegal is not None:
            outcome = Conquest(
                illegal=illegal, conquered=credited, missed=tuple(f for f in conquests if f not in credited)
            )
        else:
            outcome = NO_CONQUEST
        state.placed += 1
        if state.placed >= 1 + state.bonus.get(action.by, 0):
            self._end_turn(state)
        # 5.4: a field filled without a conquest can no longer be conquered either
        filled = FIELD_OF[move.cell] not in state.conquered and self._full(state, FIELD_OF[move.cell])
        self._check_end(state, fields_changed=bool(credited) or filled)
        return outcome

    def _conquests(self, state: CombatState, zeroed: list[tuple[int, int]]) -> tuple[int, ...]:
        """3.1-3.3: open fields where this placement removed a lacking digit's last place,
        or the last place of any digit at all."""
        if not zeroed:
            return ()
        grid = state.grid
        found: set[int] = set()
        for f, d in zeroed:
            if f in state.conquered or f in found:
                continue
            if not grid.field_has(f) >> d & 1:  # 3.1: the field still lacks d, now nowhere to go
                found.add(f)
            elif not grid.placeable(f):  # 3.2: the last tile that could go into the field
                found.add(f)
        return tuple(sorted(found))

    def _credit(self, state: CombatState, move: Placement, conquests: tuple[int, ...]) -> tuple[int, ...]:
        """3.5: which conquests count, given the claim mark and the `conquest` option."""
        claim = move.claim
        if claim is not None:
            if not claim and not conquests:
                raise IllegalMove("combat 3.5", f"{move} claims a conquest, but the move conquers no field")
            for f in claim:
                if f not in conquests:
                    raise IllegalMove(
                        "combat 3.5",
                        f"{move} claims field {f}, which the move does not conquer: {self.open_places(state, f)}",
                    )
        if self.opts["conquest"] == "auto" or claim == ():
            return conquests
        if claim is None:
            return ()
        return tuple(f for f in conquests if f in claim)

    def claim_for(self, state: CombatState, move: Move) -> Claim | None:
        """3.5 with conquest=claim: the fields a placement would conquer but not claim,
        judged as `_place` judges it on a copy of the board; written with a bare `!`
        it claims them all. None for a move the rules refuse: its refusal says why."""
        if self.opts["conquest"] != "claim" or not isinstance(move, Placement) or move.claim == () or state.over:
            return None
        try:
            illegal = self.check_placement(state, move)
        except IllegalMove:
            return None
        if illegal is not None and self.opts["mode"] == "strict":
            return None
        grid = state.grid.copy()
        conquests = self._conquests(CombatState(grid, state.conquered), grid.place(move.cell, move.digit))
        claim = move.claim or ()
        if any(f not in conquests for f in claim):
            return None  # a claim of a field the move does not conquer is refused (3.5)
        missed = tuple(f for f in conquests if f not in claim)
        if not missed:
            return None
        return Claim(Placement(move.digit, move.cell, ()), conquests, f"conquers {fields_text(conquests)}",
                     f"misses {fields_text(missed)}", "combat 3.5")

    def open_places(self, state: CombatState, f: int) -> str:
        """Where each digit field f lacks can still go: the evidence for a refused claim."""
        if f in state.conquered:
            return f"field {f} was conquered before, by {state.conquered[f]}"
        grid = state.grid
        parts = []
        for d in digits_of(ALL_DIGITS_MASK & ~grid.field_has(f)):
            places = grid.places_for(f, d)
            parts.append(f"{d} at " + ",".join(name(c) for c in places) if places else f"{d} nowhere")
        return "; ".join(parts) if parts else "the field is full"

    def _end_turn(self, state: CombatState) -> None:
        seat = self.seats[state.turn]
        state.bonus[seat] = 0
        state.placed = 0
        state.turn = (state.turn + 1) % len(self.seats)
        if state.decided and state.turn == 0:  # 5.1: the round is complete
            state.over = True

    def end_rule(self, state: CombatState) -> str:
        """5.1 when the leader could no longer be overtaken, else 5.2 (every field
        conquered, or no tile fits)."""
        return "combat 5.1" if state.decided and len(state.conquered) < 9 else "combat 5.2"

    @staticmethod
    def _full(state: CombatState, f: int) -> bool:
        """Whether every place of field f holds a tile."""
        return 0 not in _FIELD_READ[f](state.grid.cells)

    def open_fields(self, state: CombatState) -> int:
        """5.1/5.4: the fields still unconquered that can still be conquered; a field
        filled without anyone conquering it (a missed conquest, 3.5) never can be."""
        return sum(1 for f in DIGITS if f not in state.conquered and not self._full(state, f))

    def leader_safe(self, state: CombatState) -> bool:
        """5.1: some seat's fields can no longer be overtaken by anyone else's."""
        owners = list(state.conquered.values())
        counts = sorted(map(owners.count, self.seats))
        # the leader is safe when the runner-up plus every open field cannot pass it
        return counts[-2] + self.open_fields(state) <= counts[-1]

    def _check_end(self, state: CombatState, fields_changed: bool = True) -> None:
        if not state.decided and fields_changed and self.leader_safe(state):
            state.decided = True
            if state.placed == 0 and state.turn == 0:  # decided by the round's last turn
                state.over = True
        if len(state.conquered) == 9:  # 5.2
            state.over = True
        # 2.3/5.2: board and supply are shared, so when the seat on turn cannot place,
        # no seat can: the pass of 2.3 would go round for ever, and the game ends instead.
        elif not (state.grid.options if max(state.grid.counts) < TILES_PER_DIGIT
                  else state.grid.any_candidate(self._supply_mask(state))):
            state.over = True

    def moved(self, window: Window) -> str:
        move = window.move
        return f"{move.digit} {name(move.cell)}"  # type: ignore[union-attr]

    def take_back(self, state: CombatState, window: Window, challenger: str) -> str:
        """4.1 upheld: the tile goes back to the supply, its conquests are revoked, and
        the challenger places two tiles on their next turn.

        5.4: the offender's turn is spent all the same (it never gets a replacement
        turn). When the game is still decided (5.1) and the round is complete - the
        challenged move was made after the decision, or ended the game, as the round's
        last turn - the game ends there and the two tiles are not owed; otherwise play
        goes on, the challenger's two tiles included."""
        cell = window.move.cell  # type: ignore[union-attr]
        if state.grid.cells[cell] != window.move.digit:  # type: ignore[union-attr]
            raise IllegalMove("combat 4.1", f"the tile of seq {window.seq} is no longer on the board")
        state.grid.remove(cell)
        revoked = [f for f in window.credited if state.conquered.get(f) == window.by]
        for f in revoked:
            del state.conquered[f]
        lost = f"; conquest of field {','.join(map(str, revoked))} revoked" if revoked else ""
        # taking a tile back never decides a game: it can only reopen one (5.1, 5.4)
        state.decided = self.leader_safe(state)
        if state.decided and state.turn == 0 and state.placed == 0:  # 5.4: the round is complete
            state.over = True
            return (f"{self.moved(window)} goes back to the supply{lost}; the game is still decided and "
                    "the round is complete: it ends, and no tiles are owed (combat 5.4)")
        state.over = False
        state.bonus[challenger] = state.bonus.get(challenger, 0) + 1
        self._check_end(state, fields_changed=False)  # 5.2
        return (f"{self.moved(window)} goes back to the supply{lost}; "
                f"{challenger} places two tiles on their next turn")

    # --- result ---------------------------------------------------------------------
    def scores(self, state: CombatState) -> dict[str, int]:
        owned = {s: 0 for s in self.seats}
        for seat in state.conquered.values():
            owned[seat] += 1
        return owned

    def result(self, state: CombatState, now: datetime | None = None) -> Result:
        return self.most_points(self.scores(state), state.over)  # 5.3

    def view(self, state: CombatState, viewer: str | None, now: datetime | None = None) -> Seen:
        """Everything is public: the conquered fields (every cell of one is its
        conqueror's, 3.5), the supply (1.1), the tiles left in this turn (4.1)."""
        shown = {
            "conquered": {str(f): s for f, s in sorted(state.conquered.items())},
            "supply": {str(d): n for d, n in self.supply(state).items()},
            "tiles_this_turn": 1 + state.bonus.get(self.seats[state.turn], 0) - state.placed
            if not state.over
            else 0,
        }
        owners = {c: seat for f, seat in state.conquered.items() for c in FIELD_CELLS[f]}
        return Seen(shown, owners, state.last_cell)
