"""Sudoku Domino, rule by rule (docs/rules/domino.md); each test names the rule it pins.

Games are dealt from public seeds chosen here (every copy knows the order) or, for the
duel and the dealer's part, from `randomplay`'s secret seeds on the dealer's copy. Near-full
boards (`givens` 74-80) reach the ends and every line of the points table in a move or
two; the seeds below were picked for the relations of their empty cells, and each test
checks the relation it relies on before it plays. Expected points are added up here from
the rule's words and the deal's solution, not taken from the game's own scoring.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from freezegun import freeze_time

from corr import engine, randomplay
from corr.engine import dealer
from corr.audit import audit
from corr.errors import IllegalMove
from corr.geometry import cell_of, name
from corr.log import store
from corr.notation import parse
from corr.puzzles.appendix import puzzle_text
from corr.games.domino.deal import any_docking, docking_cells, docks, generate, occupied, unreachable_cells
from corr.seatview import position

T0 = "2026-03-01 12:00:00"  # every game here is made at this time, default limit 600 s
AT_LIMIT = "2026-03-01 12:10:00"
PAST_LIMIT = "2026-03-01 12:10:01"
GREY, GOLD = 10, 11

# --- helpers ---------------------------------------------------------------------------


def practice(seed: str = "practice-1", players: tuple[str, ...] = ("Ann",), **options: str) -> engine.Position:
    """A game dealt from a public seed, in memory."""
    return randomplay.start("domino", list(players), {"seed": seed, **options}, seed=0)


def secret(players: tuple[str, ...] = ("Ann", "Ben"), deal: int = 3, **options: str) -> engine.Position:
    """The dealer's copy of a game dealt from a secret seed, in memory."""
    return randomplay.start("domino", list(players), dict(options), seed=deal)


def play(rep: engine.Position, text: str, by: str = "A") -> list:  # type: ignore[type-arg]
    records = rep.add("move", by, move=parse(text))
    return records


def refused(rep: engine.Position, text: str, rule: str, by: str = "A") -> IllegalMove:
    """The move is refused under `rule` and changes nothing."""
    before = (rep.game.state_key(rep.state), len(rep.log.records), len(rep.steps))
    with pytest.raises(IllegalMove) as err:
        play(rep, text, by)
    assert err.value.rule == rule, str(err.value)
    assert (rep.game.state_key(rep.state), len(rep.log.records), len(rep.steps)) == before
    return err.value


def board(rep: engine.Position, seat: str = "A"):  # type: ignore[no-untyped-def]
    return rep.game.board_of(rep.state, seat)


def points(rep: engine.Position, seat: str = "A") -> int:
    return board(rep, seat).points


def sees(a: int, b: int) -> bool:
    """Two different cells share a row, a column or a field (written out afresh)."""
    ra, ca, rb, cb = a // 9, a % 9, b // 9, b % 9
    return a != b and (ra == rb or ca == cb or (ra // 3, ca // 3) == (rb // 3, cb // 3))


def breaks(cells: list[int], cell: int, digit: int) -> bool:
    """The digit on `cell` would repeat a stone's digit in a row, column or field."""
    return any(cells[c] == digit for c in range(81) if sees(c, cell))


def units_of(cell: int) -> dict[str, set[int]]:
    r, c = cell // 9, cell % 9
    return {
        "row": {r * 9 + j for j in range(9)},
        "column": {i * 9 + c for i in range(9)},
        "field": {i * 9 + j for i in range(r // 3 * 3, r // 3 * 3 + 3) for j in range(c // 3 * 3, c // 3 * 3 + 3)},
    }


def shared(a: int, b: int) -> set[str]:
    """The kinds of unit two cells share."""
    return {kind for kind, cells in units_of(a).items() if b in cells}


def order_moves(rep: engine.Position) -> list[str]:
    """The given digits on the cells they were peeled from: the solving moves (7.1)."""
    assert rep.game.deal is not None
    return [f"{digit} {name(cell)}" for cell, digit in rep.game.deal.order]


def diagram(*rows: str) -> list[int]:
    """A board from nine rows of nine: `#` a stone, `.` an empty cell."""
    assert len(rows) == 9 and all(len(r) == 9 for r in rows)
    return [1 if ch == "#" else 0 for ch in "".join(rows)]


def cells_named(*names: str) -> list[int]:
    return sorted(cell_of(*map(int, n.strip("()").split(","))) for n in names)


def assert_error(r, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Exit 1, exactly one stderr line `corr: error: ...` holding every word."""
    assert r.code == 1, f"exit {r.code}; stderr: {r.err!r}"
    assert "Traceback" not in r.err + r.out
    assert r.err.startswith("corr: error: ") and r.err.count("\n") == 1, r.err
    for word in words:
        assert word in r.err, f"{word!r} not in {r.err!r}"


def cli_refused(corr, path: Path, *args: str | Path, words: tuple[str, ...] = ()) -> None:  # type: ignore[no-untyped-def]
    """`corr ARGS` gives a one-line error and leaves the log (and the secret) as they were."""
    secret_file = dealer.secret_path(path)
    before = path.read_bytes(), secret_file.read_bytes() if secret_file.exists() else None
    assert_error(corr(*args), *words)
    assert (path.read_bytes(), secret_file.read_bytes() if secret_file.exists() else None) == before


def new_game(corr, path: Path, *options: str, players: tuple[str, ...] = ("Ann",)) -> Path:  # type: ignore[no-untyped-def]
    args: list[str | Path] = ["new", "domino", path]
    for p in players:
        args += ["--player", p]
    for o in options:
        args += ["-o", o]
    r = corr(*args, "--format", "none")
    assert r.code == 0, r.err
    return path


# --- 1 Winner and duel -----------------------------------------------------------------


def test_domino_1_1_the_duel_board_with_most_points_wins() -> None:
    with freeze_time(T0):
        rep = secret(givens="80")
    (cell, digit), = rep.game.deal.order
    with freeze_time("2026-03-01 12:01:00"):  # 540 s left
        play(rep, f"{digit} {name(cell)}", "A")
    with freeze_time("2026-03-01 12:02:00"):  # 480 s left
        play(rep, f"grey {name(cell)}", "B")
    # A: the stone, row, column and field (450 each), three units at once, the puzzle, the time
    assert points(rep, "A") == 5 + 3 * 450 + 100 + 500 + 10 * 540
    # B: a grey joker scores nothing and voids its units; the puzzle and the time still count
    assert points(rep, "B") == 500 + 10 * 480
    result = rep.result()
    assert result.over and result.winners == ("A",)
    assert result.scores == {"A": points(rep, "A"), "B": points(rep, "B")}
    with freeze_time("2026-03-01 12:02:00"):
        view = position(rep)
    assert view["over"] and view["winners"] == ["A"]


def test_domino_1_1_equal_points_share_the_win() -> None:
    with freeze_time(T0):
        rep = secret(givens="80", time_limit="none")
        (cell, digit), = rep.game.deal.order
        play(rep, f"{digit} {name(cell)}", "A")
        play(rep, f"{digit} {name(cell)}", "B")
    assert points(rep, "A") == points(rep, "B") == 5 + 3 * 450 + 100 + 500
    assert rep.result().winners == ("A", "B")


def test_domino_1_2_every_seat_starts_alike_and_is_given_the_same_digits_in_any_interleaving() -> None:
    with freeze_time(T0):
        rep = secret(givens="78")
        start = list(rep.game.start)
        assert board(rep, "A").cells == board(rep, "B").cells == start
        first, second, third = order_moves(rep)
        digits = [d for _, d in rep.game.deal.order]
        assert rep.game.given(rep.state, "A") == rep.game.given(rep.state, "B") == digits[0]
        assert set(rep.on_turn()) == {"A", "B"}
        play(rep, first, "A")
        play(rep, second, "A")  # A twice: B has not moved and need not
        assert rep.game.given(rep.state, "A") == digits[2]
        assert rep.game.given(rep.state, "B") == digits[0]  # B's own board, its own pace
        assert board(rep, "B").cells == start
        play(rep, first, "B")
        assert rep.game.given(rep.state, "B") == digits[1]
        assert board(rep, "B").cells != board(rep, "A").cells
        assert [r.by for r in rep.log.records] == ["A", "A", "B"]


def test_domino_1_2_each_boards_hash_spells_its_cells_as_they_stand() -> None:
    """The text a board's hash spells is kept beside its cells as stones and jokers go
    on: after every record of random duels it is the cells read afresh, every board's."""
    from corr.games.domino.rules import board_text

    seen = 0
    for n in range(6):
        log = randomplay.play("domino", ["Ann", "Ben", "Cleo"][: 2 + n % 2], {"givens": "70"}, seed=n).log

        def spelled(pos: engine.Position) -> None:
            nonlocal seen
            for board in pos.state.boards:
                assert board.key().split(b"|")[0].decode() == board_text(board.cells)
                seen += 1

        engine.replay(store.parse(store.text(log), Path("copy.corr")), each=spelled)
    assert seen > 100


def test_domino_1_2_a_running_duel_shows_no_seat_anything_of_another_board() -> None:
    with freeze_time(T0):
        rep = secret(givens="78")
        first, second, third = order_moves(rep)
        play(rep, first, "A")
        play(rep, second, "A")
        start = puzzle_text(list(rep.game.start))
        # B has not moved: nothing of A's board, moves or score reaches B
        view_b = position(rep, "B")
        assert list(view_b["boards"]) == ["B"]
        assert view_b["board"] == start and view_b["last"] is None and view_b["seq"] == 0
        assert set(view_b["scores"]) == {"B"} and set(view_b["lives"]) == {"B"}
        assert rep.visible("B") == []
        play(rep, first, "B")
        view_b = position(rep, "B")
        assert view_b["last"]["by"] == "B" and view_b["seq"] == 3
        assert all(step.record.by == "B" for step in rep.visible("B"))
        assert "B" not in position(rep, "A")["boards"]
        # the public sees the start and nobody's records
        public = position(rep)
        assert public["board"] == start and public["boards"] == {} and public["last"] is None
        assert rep.visible(None) == []
        assert public["scores"] == {}


def test_domino_1_2_once_the_duel_is_over_every_board_and_record_shows() -> None:
    with freeze_time(T0):
        rep = secret(givens="80")
        (only,) = order_moves(rep)
        play(rep, only, "A")
        assert list(position(rep, "B")["boards"]) == ["B"]  # B still plays
        play(rep, f"grey {name(rep.game.deal.order[0][0])}", "B")
        assert rep.log.records[-1].type == "reveal"  # every board over: the dealer reveals (7.2)
        for seat in ("A", "B", None):
            view = position(rep, seat)
            assert set(view["boards"]) == {"A", "B"}
            assert view["over"]
            assert [s.record.seq for s in rep.visible(seat)] == [1, 2, 3]
        assert position(rep, "B")["boards"]["A"]["board"] == puzzle_text(list(rep.game.deal.solution))
        assert "g" in position(rep, "A")["boards"]["B"]["board"]


def test_domino_1_2_a_public_duel_over_by_the_time_shows_every_board_and_record() -> None:
    with freeze_time(T0):
        rep = practice("duel", players=("Ann", "Ben"))
        first = order_moves(rep)[0]
        play(rep, first, "A")
        assert rep.visible("B") == []
    with freeze_time(PAST_LIMIT):  # the duel is over at the limit (1.3, 6.1)
        view = position(rep, "B")
        assert view["over"] and set(view["boards"]) == {"A", "B"}
        assert [step.record.by for step in rep.visible("B")] == ["A"]
        assert view["last"] is not None and view["last"]["by"] == "A"


def test_domino_1_3_the_game_is_over_when_the_puzzle_is_complete() -> None:
    with freeze_time(T0):
        rep = practice(givens="80")
        (only,) = order_moves(rep)
        play(rep, only)
        assert all(board(rep).cells)
        assert "complete" in board(rep).ended
        assert rep.to_move() is None and position(rep)["over"]
        with pytest.raises(IllegalMove, match="over"):
            play(rep, f"grey {name(rep.game.deal.order[0][0])}")


def test_domino_1_3_the_game_is_over_after_three_misplacements() -> None:
    with freeze_time(T0):
        rep = practice()
        digit = rep.game.given(rep.state, "A")
        cells = list(board(rep).cells)
        wrong = [c for c in rep.game.docking(board(rep)) if breaks(cells, c, digit)]
        assert len(wrong) >= 3
        for lost, cell in enumerate(wrong[:3], start=1):
            assert rep.to_move() == "A"
            play(rep, f"{digit} {name(cell)}")
            assert board(rep).lives == 3 - lost
        assert board(rep).ended and "three misplacements" in board(rep).ended
        assert rep.to_move() is None and rep.result().over
        view = position(rep, "A")
        assert view["over"] and view["lives"] == {"A": 0}


def test_domino_1_3_the_game_is_over_when_the_time_has_run_out() -> None:
    with freeze_time(T0):
        rep = practice()
    with freeze_time(AT_LIMIT):
        assert not position(rep)["over"]
        assert position(rep, "A")["playing"] == ["A"]
    with freeze_time(PAST_LIMIT):
        view = position(rep, "A")
        assert view["over"] and view["playing"] == [] and view["to_move"] is None
        assert view["boards"]["A"]["ended"] == "the time has run out (6.1)"
        assert position(rep)["over"]


def test_domino_1_3_the_public_view_names_no_seat_to_move_after_the_time() -> None:
    """A public-seed game over by the time (the view says over): no seat is to move."""
    with freeze_time(T0):
        rep = practice()
    with freeze_time(PAST_LIMIT):
        assert position(rep)["over"]
        assert position(rep)["to_move"] is None
        assert rep.to_move() is None


# Seed "s0", 74 givens: seven empty cells; the first digit, a 5, breaks the Sudoku rule
# on (7,4) (a 1 in the solution). Jokers on the six others leave (7,4) a docking cell
# where the given digit fits nowhere, and no joker.
PASS_SEED, PASS_LEFT = "s0", "(7,4)"


def test_domino_1_3_the_game_is_over_when_no_more_stones_can_be_placed(tmp_path: Path) -> None:
    with freeze_time(T0):
        rep = practice(PASS_SEED, givens="74")
        order = rep.game.deal.order
        digit = rep.game.given(rep.state, "A")
        left = cells_named(PASS_LEFT)[0]
        others = [c for c, _ in order if c != left]
        assert len(others) == 6 and left in [c for c, _ in order]
        kinds = ["grey"] * 4 + ["gold"] * 2
        for kind, cell in zip(kinds[:-1], others[:-1]):
            play(rep, f"{kind} {name(cell)}")
            assert not rep.game.blocked(rep.state, "A") and rep.log.records[-1].type == "move"
        records = play(rep, f"{kinds[-1]} {name(others[-1])}")
        cells = board(rep).cells
        assert [c for c in range(81) if not cells[c]] == [left]
        assert rep.game.docking(board(rep)) == [left] and breaks(cells, left, digit)
        assert [r.type for r in records] == ["move", "pass"] and records[1].by == "A"
        assert "no more stones can be placed" in board(rep).ended
        assert rep.to_move() is None and rep.result().over
        assert rep.game.blocked(rep.state, "A") is False  # over now
    path = tmp_path / "passed.corr"
    path.write_bytes(store.text(rep.log))
    assert audit(path)["intact"]


def test_domino_1_3_a_pass_is_refused_while_the_given_digit_still_fits() -> None:
    # the same deal, jokers on six cells but the given digit's own: it still docks there
    with freeze_time(T0):
        rep = practice(PASS_SEED, givens="74")
        (first, digit), *rest = rep.game.deal.order
        for kind, (cell, _) in zip(["grey"] * 4 + ["gold"] * 2, rest):
            play(rep, f"{kind} {name(cell)}")
        assert rep.log.records[-1].type == "move" and not board(rep).ended
        assert board(rep).jokers == {"grey": 0, "gold": 0}
        with pytest.raises(IllegalMove) as err:
            rep.add("pass", "A")
        assert err.value.rule == "domino 1.3"
        play(rep, f"{digit} {name(first)}")
        assert "complete" in board(rep).ended


def test_domino_1_3_a_pass_is_refused_while_a_joker_is_left() -> None:
    with freeze_time(T0):
        rep = practice()
        with pytest.raises(IllegalMove) as err:
            rep.add("pass", "A")
        assert err.value.rule == "domino 1.3"


def test_domino_1_3_the_dealer_reveals_the_seed_once_every_board_is_over() -> None:
    with freeze_time(T0):
        rep = secret(players=("Ann",), givens="80")
        (only,) = order_moves(rep)
        records = play(rep, only)
    assert [(r.type, r.by) for r in records] == [("move", "A"), ("reveal", dealer.DEALER)]
    assert records[1].seed == rep.game.seed == randomplay.deal_seed(3)
    assert rep.on_turn() == ()


def test_domino_1_3_three_misplacements_in_a_secret_game_bring_the_reveal() -> None:
    with freeze_time(T0):
        rep = secret(players=("Ann",))
        digit = rep.game.given(rep.state, "A")
        cells = list(board(rep).cells)
        wrong = [c for c in rep.game.docking(board(rep)) if breaks(cells, c, digit)][:3]
        assert len(wrong) == 3
        records = [r for cell in wrong for r in play(rep, f"{digit} {name(cell)}")]
    assert [r.type for r in records] == ["move", "move", "move", "reveal"]
    assert records[-1].seed == randomplay.deal_seed(3)


def test_domino_1_3_a_duel_reveals_only_when_the_last_board_is_over() -> None:
    with freeze_time(T0):
        rep = secret(givens="80")
        (only,) = order_moves(rep)
        records = play(rep, only, "A")
        assert [r.type for r in records] == ["move"] and rep.on_turn() == ("B",)
        records = play(rep, only, "B")
        assert [r.type for r in records] == ["move", "reveal"]


# --- 2 Placing stones ------------------------------------------------------------------


def test_domino_2_1_a_digit_other_than_the_given_one_is_refused() -> None:
    with freeze_time(T0):
        rep = practice()
        digit = rep.game.given(rep.state, "A")
        cell = rep.game.deal.order[0][0]
        other = digit % 9 + 1
        err = refused(rep, f"{other} {name(cell)}", "domino 2.1")
        assert str(digit) in str(err)
        play(rep, f"{digit} {name(cell)}")
        assert board(rep).cells[cell] == digit


def test_domino_2_2_a_stone_docks_on_the_last_empty_cell_before_a_stone_from_each_side() -> None:
    cells = diagram(
        ".........",
        ".........",
        ".........",
        ".........",
        "....#....",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    # row 5 from the left and right, column 5 from above and below
    assert docking_cells(cells) == sorted([4 * 9 + 3, 4 * 9 + 5, 3 * 9 + 4, 5 * 9 + 4])


def test_domino_2_3_a_line_without_stones_offers_nothing() -> None:
    assert docking_cells([0] * 81) == []
    cells = diagram(
        ".........",
        "..#......",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    # the one stone, on row 2 column 3: only its row and its column offer docking cells,
    # one at each end of each; the other sixteen lines offer nothing
    assert docking_cells(cells) == sorted([9 + 1, 9 + 3, 2, 2 * 9 + 2])


def test_domino_2_3_an_occupied_edge_cell_offers_nothing_from_its_side() -> None:
    cells = diagram(
        "#........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "........#",
    )
    # row 1 from the right docks at (1,2) and column 1 from below at (1,4), against the top
    # left stone; row 9 from the left at (9,8) and column 9 from above at (9,6), against the
    # bottom right one. From the corners' own sides nothing is pushed in.
    assert docking_cells(cells) == cells_named("(1,2)", "(1,4)", "(9,8)", "(9,6)") == [1, 9, 71, 79]


def test_domino_2_3_a_line_offers_at_most_two_docking_cells() -> None:
    cells = diagram(
        ".........",
        ".........",
        ".........",
        ".........",
        ".#.#.#.#.",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    row5 = [c for c in docking_cells(cells) if c // 9 == 4]
    assert row5 == [36, 44]  # the two ends: the gaps between the stones are not reached along the row
    # every row and column of a board made at random: at most the two ends dock along it
    rng = random.Random(7)
    for _ in range(50):
        cells = [1 if rng.random() < 0.3 else 0 for _ in range(81)]
        for line in [list(range(r * 9, r * 9 + 9)) for r in range(9)] + [list(range(c, 81, 9)) for c in range(9)]:
            along = set()
            for entry in (line, line[::-1]):
                if cells[entry[0]]:
                    continue
                for before, nxt in zip(entry, entry[1:]):
                    if cells[nxt]:
                        along.add(before)
                        break
            assert len(along) <= 2
            assert along <= set(docking_cells(cells))


def test_domino_2_2_the_docking_cells_are_every_stone_slid_in_from_every_edge() -> None:
    """The docking cells, read line by line from bit masks, are exactly the cells a stone
    slides to from each end of each row and column (2.2), on boards from empty to full,
    jokers counting as occupied; and a board's kept masks give the same after every move."""
    rng = random.Random(11)
    for density in (0.0, 0.02, 0.1, 0.3, 0.6, 0.9, 1.0):
        for _ in range(60):
            cells = [rng.choice((1, 5, 9, GREY, GOLD)) if rng.random() < density else 0 for _ in range(81)]
            slid = set()
            for line in [list(range(r * 9, r * 9 + 9)) for r in range(9)] + [list(range(c, 81, 9)) for c in range(9)]:
                for entry in (line, line[::-1]):
                    stones = [i for i, c in enumerate(entry) if cells[c]]
                    if stones and stones[0] > 0:
                        slid.add(entry[stones[0] - 1])
            assert docking_cells(cells) == sorted(slid)
            assert [c for c in range(81) if docks(*occupied(cells), c)] == sorted(slid)  # cell by cell
            assert any_docking(*occupied(cells)) == bool(slid)  # whether there is one at all
    with freeze_time(T0):
        rep = practice("slide", givens="17")
        turns = 0
        while rep.to_move() == "A":
            assert rep.game.docking(board(rep)) == docking_cells(board(rep).cells)
            rep.add("move", "A", move=rng.choice(rep.game.legal_moves(rep.state)))
            turns += 1
        assert turns > 5 and rep.game.docking(board(rep)) == docking_cells(board(rep).cells)


def test_domino_2_3_the_docking_cells_are_shown_in_the_view() -> None:
    with freeze_time(T0):
        rep = practice()
        view = position(rep, "A")
    assert view["docking"] == [name(c) for c in docking_cells(list(rep.game.start))]
    assert view["docking"]


def test_domino_2_4_a_cell_that_is_not_docking_is_refused() -> None:
    with freeze_time(T0):
        rep = practice()
        digit = rep.game.given(rep.state, "A")
        cells = board(rep).cells
        docking = set(docking_cells(cells))
        inner = [c for c in range(81) if not cells[c] and c not in docking and not breaks(cells, c, digit)]
        assert inner
        err = refused(rep, f"{digit} {name(inner[0])}", "domino 2.4")
        assert "not a docking cell" in str(err)


def test_domino_2_4_an_occupied_cell_is_refused() -> None:
    with freeze_time(T0):
        rep = practice()
        digit = rep.game.given(rep.state, "A")
        stone = next(c for c in range(81) if rep.game.start[c])
        refused(rep, f"{digit} {name(stone)}", "domino 2.4")


def test_domino_2_2_a_placed_stone_never_moves() -> None:
    with freeze_time(T0):
        rep = practice(givens="78")
        moves = order_moves(rep)
        play(rep, moves[0])
        first = list(board(rep).cells)
        play(rep, moves[1])
        after = board(rep).cells
        assert all(after[c] == first[c] for c in range(81) if first[c])


# --- 3 Misplacements and unreachable cells ---------------------------------------------


def test_domino_3_1_a_misplacement_costs_a_life_and_the_same_digit_comes_again() -> None:
    with freeze_time(T0):
        rep = practice()
        digit = rep.game.given(rep.state, "A")
        cells = list(board(rep).cells)
        cell = next(c for c in rep.game.docking(board(rep)) if breaks(cells, c, digit))
        records = play(rep, f"{digit} {name(cell)}")
        assert [r.type for r in records] == ["move"]
        assert rep.log.records[-1].move == f"{digit} {name(cell)}"  # the record stays in the log
        b = board(rep)
        assert b.lives == 2 and b.points == 0 and not b.ended
        assert b.cells == cells and b.cells[cell] == 0  # the stone disappeared
        assert rep.game.given(rep.state, "A") == digit  # given again
        assert rep.steps[-1].outcome.misplaced
        view = position(rep, "A")
        assert view["lives"] == {"A": 2} and view["given"] == digit
        assert name(cell) in view["docking"]
        # the right cell still takes it
        play(rep, order_moves(rep)[0])
        assert board(rep).lives == 2 and board(rep).points == 5


def test_domino_3_1_a_misplacement_survives_replay_of_the_log() -> None:
    with freeze_time(T0):
        rep = practice()
        digit = rep.game.given(rep.state, "A")
        cells = list(board(rep).cells)
        cell = next(c for c in rep.game.docking(board(rep)) if breaks(cells, c, digit))
        play(rep, f"{digit} {name(cell)}")
        again = engine.replay(store.parse(store.text(rep.log), Path("copy.corr")))
    assert again.game.board_of(again.state, "A").lives == 2


def test_domino_3_3_unreachable_cells_from_hand_built_boards() -> None:
    # the centre cell: a stone on each of its four paths (not next to it)
    cells = diagram(
        "....#....",
        ".........",
        ".........",
        ".........",
        "##.....##",
        ".........",
        ".........",
        ".........",
        "....#....",
    )
    assert unreachable_cells(cells) == [40]
    # an edge cell is never unreachable, however closed in
    cells = diagram(
        ".#.......",
        "#........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    )
    assert unreachable_cells(cells) == []
    # a cell closed in on all four sides by neighbours
    cells = diagram(
        ".........",
        ".........",
        ".........",
        "....#....",
        "...#.#...",
        "....#....",
        ".........",
        ".........",
        ".........",
    )
    assert unreachable_cells(cells) == [40]
    assert 40 not in docking_cells(cells)


def test_domino_3_2_cells_sealed_by_jokers_are_marked_in_the_view() -> None:
    # Seed "s5", 74 givens: seven empty cells. A joker on (1,4) closes (1,5) in on all
    # four paths: the first given digit's own cell, so the puzzle can no longer be
    # completed. Jokers on the other five leave no docking cell and no joker: over.
    with freeze_time(T0):
        rep = practice("s5", givens="74")
        sealed, closer = cells_named("(1,5)")[0], cells_named("(1,4)")[0]
        assert rep.game.deal.order[0][0] == sealed
        assert position(rep, "A")["unreachable"] == []
        play(rep, f"grey {name(closer)}")
        view = position(rep, "A")
        assert view["unreachable"] == [name(sealed)]
        assert view["boards"]["A"]["unreachable"] == [name(sealed)]
        assert name(sealed) not in view["docking"]
        assert not board(rep).ended and rep.to_move() == "A"  # jokers left: play goes on
        others = [c for c, _ in rep.game.deal.order if c not in (sealed, closer)]
        for kind, cell in zip(["grey", "grey", "grey", "gold", "gold"], others):
            play(rep, f"{kind} {name(cell)}")
        assert unreachable_cells(board(rep).cells) == [sealed]
        assert docking_cells(board(rep).cells) == []
        assert "no more stones can be placed" in board(rep).ended
        assert not all(board(rep).cells)
        view = position(rep, "A")
        assert view["over"] and view["unreachable"] == [name(sealed)]
        assert rep.log.records[-1].type == "move"  # over by the move itself: no pass needed


# --- 4 Jokers --------------------------------------------------------------------------


def test_domino_4_1_jokers_go_on_any_empty_cell_also_one_that_is_not_docking() -> None:
    with freeze_time(T0):
        rep = practice()
        digit = rep.game.given(rep.state, "A")
        cells = board(rep).cells
        docking = set(rep.game.docking(board(rep)))
        inner = [c for c in range(81) if not cells[c] and c not in docking]
        assert len(inner) >= 2
        play(rep, f"grey {name(inner[0])}")
        play(rep, f"gold {name(inner[1])}")
        b = board(rep)
        assert b.cells[inner[0]] == GREY and b.cells[inner[1]] == GOLD
        assert b.jokers == {"grey": 3, "gold": 1}
        assert rep.game.given(rep.state, "A") == digit  # the given digit stays pending
        assert b.lives == 3


def test_domino_4_1_four_grey_and_two_gold_jokers_and_no_more() -> None:
    with freeze_time(T0):
        rep = practice()
        assert board(rep).jokers == {"grey": 4, "gold": 2}
        empty = [c for c in range(81) if not rep.game.start[c]]
        for cell in empty[:4]:
            play(rep, f"grey {name(cell)}")
        err = refused(rep, f"grey {name(empty[4])}", "domino 4.1")
        assert "no grey joker" in str(err)
        for cell in empty[4:6]:
            play(rep, f"gold {name(cell)}")
        refused(rep, f"gold {name(empty[6])}", "domino 4.1")
        assert board(rep).jokers == {"grey": 0, "gold": 0}


def test_domino_4_1_a_joker_on_an_occupied_cell_is_refused() -> None:
    with freeze_time(T0):
        rep = practice()
        stone = next(c for c in range(81) if rep.game.start[c])
        refused(rep, f"grey {name(stone)}", "domino 4.1")
        refused(rep, f"gold {name(stone)}", "domino 4.1")
        empty = next(c for c in range(81) if not rep.game.start[c])
        play(rep, f"grey {name(empty)}")
        refused(rep, f"gold {name(empty)}", "domino 4.1")  # on a joker too


def test_domino_4_1_a_joker_opens_a_new_docking_cell() -> None:
    with freeze_time(T0):
        rep = practice()
        cells = board(rep).cells
        docking = set(rep.game.docking(board(rep)))
        empty = [c for c in range(81) if not cells[c] and c not in docking]
        for cell in empty:
            trial = list(cells)
            trial[cell] = GREY
            new = set(docking_cells(trial)) - docking
            if new:
                play(rep, f"grey {name(cell)}")
                assert new <= set(rep.game.docking(board(rep)))
                return
    pytest.fail("no joker opened a docking cell")


# Seed "s6", 79 givens: two empty cells sharing only their row; the first to be given is
# the corner (9,9), the second (8,9).
TWO_SEED = "s6"


def _two_cells(rep: engine.Position) -> tuple[int, int, int, int]:
    (c1, d1), (c2, d2) = rep.game.deal.order
    assert shared(c1, c2) == {"row"}
    return c1, d1, c2, d2


def test_domino_4_2_a_grey_joker_scores_nothing_and_voids_its_units() -> None:
    with freeze_time(T0):
        rep = practice(TWO_SEED, givens="79")
        c1, d1, c2, d2 = _two_cells(rep)
        play(rep, f"grey {name(c2)}")  # completes its column and field: no bonus, the grey joker is in them
        assert points(rep) == 0
        assert rep.game.given(rep.state, "A") == d1
    with freeze_time("2026-03-01 12:05:00"):  # 300 s left
        play(rep, f"{d1} {name(c1)}")
    # column and field of c1 complete (two units, +50); the row holds the grey joker: no bonus
    assert points(rep) == 0 + 5 + 2 * 450 + 50 + 500 + 10 * 300
    field = c1 // 27 * 3 + c1 % 9 // 3 + 1
    assert set(rep.steps[-1].outcome.completed) == {f"column {c1 % 9 + 1}", f"field {field}"}


def test_domino_4_2_a_gold_joker_completes_its_units_counting_zero() -> None:
    with freeze_time(T0):
        rep = practice(TWO_SEED, givens="79")
        c1, d1, c2, d2 = _two_cells(rep)
        solution = rep.game.deal.solution
        play(rep, f"gold {name(c2)}")
        # its column and field complete, the joker counting 0; +5 for the gold joker; +50 for two
        column, field = units_of(c2)["column"], units_of(c2)["field"]
        gold_units = sum(10 * sum(solution[c] for c in unit if c != c2) for unit in (column, field))
        assert gold_units == 2 * 10 * (45 - d2)
        assert points(rep) == 5 + gold_units + 50
        assert rep.game.given(rep.state, "A") == d1
        after_gold = points(rep)
        play(rep, f"{d1} {name(c1)}")
    row = units_of(c1)["row"]
    row_points = 10 * sum(solution[c] for c in row if c != c2)
    assert points(rep) - after_gold == 5 + row_points + 450 + 450 + 100 + 500 + 10 * 600


def test_domino_4_2_a_gold_joker_completing_a_unit_with_a_grey_joker_gets_no_bonus_for_it() -> None:
    with freeze_time(T0):
        rep = practice(TWO_SEED, givens="79", time_limit="none")
        c1, d1, c2, d2 = _two_cells(rep)
        play(rep, f"grey {name(c2)}")
        play(rep, f"gold {name(c1)}")
    # the shared row holds the grey joker: void; column and field of c1 count, the gold joker at 0
    solution = rep.game.deal.solution
    units = units_of(c1)
    gold_units = sum(10 * sum(solution[c] for c in units[kind] if c != c1) for kind in ("column", "field"))
    assert points(rep) == 5 + gold_units + 50 + 500
    assert len(rep.steps[-1].outcome.completed) == 2


def test_domino_4_2_a_gold_joker_completing_the_puzzle() -> None:
    with freeze_time(T0):
        rep = practice(givens="80", time_limit="none")
        (cell, digit), = rep.game.deal.order
        play(rep, f"gold {name(cell)}")
    # three units, each 450 - digit with the joker at 0, +5, +100, +500; no clock, no time bonus
    assert points(rep) == 5 + 3 * 10 * (45 - digit) + 100 + 500
    assert board(rep).cells[cell] == GOLD and "complete" in board(rep).ended


# --- 5 Points --------------------------------------------------------------------------


def test_domino_5_a_correctly_placed_stone_scores_5() -> None:
    with freeze_time(T0):
        rep = practice()
        cell, digit = rep.game.deal.order[0]
        cells = board(rep).cells
        assert not any(all(cells[c] or c == cell for c in unit) for unit in units_of(cell).values())
        play(rep, f"{digit} {name(cell)}")
    assert points(rep) == 5
    assert position(rep, "A")["scores"] == {"A": 5}


def test_domino_5_a_completed_unit_scores_ten_times_its_digits() -> None:
    # Seed "s12", 79 givens: the two empty cells share their column and field, so the
    # first stone completes its row alone.
    with freeze_time(T0):
        rep = practice("s12", givens="79")
        (c1, d1), (c2, d2) = rep.game.deal.order
        assert shared(c1, c2) == {"column", "field"}
        play(rep, f"{d1} {name(c1)}")
    row = units_of(c1)["row"]
    assert points(rep) == 5 + 10 * sum(rep.game.deal.solution[c] for c in row) == 455
    assert rep.steps[-1].outcome.completed == (f"row {c1 // 9 + 1}",)


def test_domino_5_one_stone_completing_two_units_scores_50_more() -> None:
    with freeze_time(T0):
        rep = practice(TWO_SEED, givens="79")
        c1, d1, c2, d2 = _two_cells(rep)
        play(rep, f"{d1} {name(c1)}")
    assert points(rep) == 5 + 450 + 450 + 50
    assert len(rep.steps[-1].outcome.completed) == 2


def test_domino_5_one_stone_completing_three_units_scores_100_more() -> None:
    # Seed "s0", 79 givens: the two empty cells share no unit.
    with freeze_time(T0):
        rep = practice("s0", givens="79")
        (c1, d1), (c2, d2) = rep.game.deal.order
        assert shared(c1, c2) == set()
        play(rep, f"{d1} {name(c1)}")
    assert points(rep) == 5 + 3 * 450 + 100
    assert not board(rep).ended


def test_domino_5_the_complete_puzzle_scores_500_and_the_time_bonus() -> None:
    with freeze_time(T0):
        rep = practice(givens="80")
        (cell, digit), = rep.game.deal.order
    with freeze_time("2026-03-01 12:03:20"):  # 400 s left
        play(rep, f"{digit} {name(cell)}")
    assert points(rep) == 5 + 3 * 450 + 100 + 500 + 10 * 400


def test_domino_5_the_time_bonus_is_only_for_a_complete_puzzle() -> None:
    with freeze_time(T0):
        rep = practice("s0", givens="79")
        (c1, d1), (c2, d2) = rep.game.deal.order
        play(rep, f"{d1} {name(c1)}")  # 600 s left, but the puzzle is not complete
    assert points(rep) == 5 + 3 * 450 + 100


def test_domino_5_no_time_bonus_without_a_time_limit() -> None:
    with freeze_time(T0):
        rep = practice(givens="80", time_limit="none")
        (only,) = order_moves(rep)
    with freeze_time("2026-03-20 12:00:00"):  # days later: no limit, no bonus
        play(rep, only)
    assert points(rep) == 5 + 3 * 450 + 100 + 500
    assert position(rep)["clock"]["limit"] is None


def test_domino_5_a_whole_game_adds_up() -> None:
    # 78 givens, solved in the given order: every point written out from the rule
    with freeze_time(T0):
        rep = practice("whole", givens="78")
        solution = rep.game.deal.solution
        cells = list(rep.game.start)
        expected = 0
        for cell, digit in rep.game.deal.order:
            cells[cell] = digit
            done = [u for u in units_of(cell).values() if all(cells[c] for c in u)]
            expected += 5 + sum(10 * sum(solution[c] for c in u) for u in done) + {2: 50, 3: 100}.get(len(done), 0)
            play(rep, f"{digit} {name(cell)}")
            assert points(rep) == expected + (500 + 6000 if all(cells) else 0)


# --- 6 Time ----------------------------------------------------------------------------


def test_domino_6_1_a_move_at_the_limit_counts_and_one_after_it_is_refused() -> None:
    with freeze_time(T0):
        rep = practice()
        moves = order_moves(rep)
    with freeze_time(AT_LIMIT):
        play(rep, moves[0])
        assert rep.log.records[-1].at == "2026-03-01T12:10:00Z"
    with freeze_time(PAST_LIMIT):
        err = refused(rep, moves[1], "domino 6.1")
        assert "time ran out" in str(err)
        refused(rep, f"grey {moves[1].split(' ', 1)[1]}", "domino 6.1")


def test_domino_6_1_the_limit_is_an_option() -> None:
    with freeze_time(T0):
        rep = practice(time_limit="60")
        moves = order_moves(rep)
    with freeze_time("2026-03-01 12:01:00"):
        play(rep, moves[0])
    with freeze_time("2026-03-01 12:01:01"):
        refused(rep, moves[1], "domino 6.1")
        assert position(rep)["over"]


def test_domino_6_1_without_a_limit_the_clock_never_runs_out() -> None:
    with freeze_time(T0):
        rep = practice(time_limit="none")
        (first, *_) = order_moves(rep)
    with freeze_time("2027-03-01 12:00:00"):
        play(rep, first)
        assert not position(rep)["over"]
        assert position(rep)["clock"]["deadline"] is None


def test_domino_6_1_the_view_counts_the_seconds_left() -> None:
    with freeze_time(T0):
        rep = practice()
    with freeze_time("2026-03-01 12:04:00"):
        clock = position(rep, "A")["clock"]
    assert clock == {"limit": 600, "started": "2026-03-01T12:00:00Z", "deadline": "2026-03-01T12:10:00Z",
                     "left": 360}


def test_domino_6_2_the_time_bonus_uses_the_seconds_left_at_the_records_time() -> None:
    with freeze_time(T0):
        rep = practice(givens="80")
        (only,) = order_moves(rep)
    with freeze_time("2026-03-01 12:09:59"):
        play(rep, only)
    assert rep.log.records[-1].at == "2026-03-01T12:09:59Z"
    assert points(rep) == 1955 + 10
    # replayed later, long after the limit, the record's time still decides
    with freeze_time("2026-04-01 00:00:00"):
        again = engine.replay(store.parse(store.text(rep.log), Path("copy.corr")))
    assert again.game.board_of(again.state, "A").points == 1955 + 10


def test_domino_6_1_the_seconds_left_are_those_at_each_time_asked() -> None:
    """Each record's time decides its seconds left, a time asked again after another
    as much as a new one (the last answer is kept for the next record of its second)."""
    with freeze_time(T0):
        game = practice().game
    times = ["2026-03-01T12:00:00Z", "2026-03-01T12:04:00Z", "2026-03-01T12:04:00Z", "2026-03-01T12:00:00Z",
             "2026-03-01T12:10:01Z", "2026-03-01T12:09:59Z", "2026-03-01T12:04:00Z"]
    assert [game.seconds_left(at) for at in times] == [600, 360, 360, 600, -1, 1, 360]
    assert game.seconds_left(None) is None


def test_domino_6_2_completion_exactly_at_the_limit_has_no_time_bonus() -> None:
    with freeze_time(T0):
        rep = practice(givens="80")
        (only,) = order_moves(rep)
    with freeze_time(AT_LIMIT):
        play(rep, only)
    assert points(rep) == 5 + 3 * 450 + 100 + 500


def test_domino_6_1_claim_timeout_reveals_the_seed_after_the_limit_only(corr, tmp_path: Path) -> None:
    path = tmp_path / "duel.corr"
    with freeze_time(T0):
        new_game(corr, path, players=("Ann", "Ben"))
    with freeze_time(AT_LIMIT):
        cli_refused(corr, path, "claim-timeout", path, words=("nothing to claim",))
    with freeze_time(PAST_LIMIT):
        r = corr("claim-timeout", path)
        assert r.code == 0, r.err
    header, *records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(r["type"], r["by"]) for r in records] == [("reveal", dealer.DEALER)]
    seed = json.loads(dealer.secret_path(path).read_text())["seed"]
    assert records[0]["seed"] == seed
    with freeze_time(PAST_LIMIT):
        cli_refused(corr, path, "claim-timeout", path)  # once only
        view = json.loads(corr("show", path, "--format", "json").out)
    assert view["over"] and set(view["boards"]) == {"A", "B"}
    assert audit(path)["intact"]


def test_domino_6_1_claim_timeout_in_a_public_game_claims_nothing(corr, tmp_path: Path) -> None:
    path = tmp_path / "public.corr"
    with freeze_time(T0):
        new_game(corr, path, "seed=practice-1")
    with freeze_time(PAST_LIMIT):
        cli_refused(corr, path, "claim-timeout", path, words=("nothing to claim",))


# --- 7 Generating a game ---------------------------------------------------------------


def test_domino_7_1_the_start_is_the_generators_and_in_the_header() -> None:
    with freeze_time(T0):
        rep = practice("daily-2026-03-01", givens="40")
    dealt = generate("daily-2026-03-01", 40)
    assert rep.game.start == dealt.start
    assert rep.header.options["start"] == puzzle_text(list(dealt.start))
    assert rep.game.deal.order == dealt.order
    with freeze_time(T0):
        hidden = secret()
    dealt = generate(randomplay.deal_seed(3), 30)
    assert hidden.game.start == dealt.start
    assert hidden.header.options["start"] == puzzle_text(list(dealt.start))


def test_domino_7_1_placing_the_given_digits_where_they_were_peeled_solves_the_game() -> None:
    with freeze_time(T0):
        rep = practice("peel", givens="60")
        for move in order_moves(rep):
            play(rep, move)
    assert list(board(rep).cells) == list(rep.game.deal.solution)
    assert board(rep).lives == 3 and "complete" in board(rep).ended


def test_domino_7_1_the_start_option_is_not_chosen(corr, tmp_path: Path) -> None:
    path = tmp_path / "start.corr"
    r = corr("new", "domino", path, "-p", "Ann", "-o", "start=" + "." * 81, "--format", "none")
    assert_error(r, "start")
    assert not path.exists()


def test_domino_7_2_the_header_commits_to_the_seed_it_reveals_at_the_end(corr, tmp_path: Path) -> None:
    path = tmp_path / "secret.corr"
    with freeze_time(T0):
        new_game(corr, path, "givens=80")
    seed = json.loads(dealer.secret_path(path).read_text())["seed"]
    header = json.loads(path.read_text().splitlines()[0])
    assert header["commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    assert seed not in path.read_text()  # not in the log before the reveal
    # a player's copy (no secret) knows the start, not the order
    copy = tmp_path / "copy.corr"
    copy.write_bytes(path.read_bytes())
    view = json.loads(corr("show", copy, "--for", "A", "--format", "json").out)
    assert view["board"].count(".") == 1 and view.get("given") is None
    (cell, digit), = generate(seed, 80).order
    with freeze_time("2026-03-01 12:01:00"):
        r = corr("move", path, f"{digit} {name(cell)}", "--format", "none")
        assert r.code == 0, r.err
    *_, move, reveal = [json.loads(line) for line in path.read_text().splitlines()]
    assert (move["type"], reveal["type"], reveal["seed"]) == ("move", "reveal", seed)
    assert hashlib.sha256(reveal["seed"].encode()).hexdigest() == header["commitment"]
    report = audit(path)
    assert report["intact"], report["findings"]
    # the copy without the secret checks out as well once it has the records
    copy.write_bytes(path.read_bytes())
    assert audit(copy)["intact"]


def test_domino_7_2_the_dealer_reveals_nothing_while_a_board_plays_in_time() -> None:
    with freeze_time(T0):
        rep = secret(givens="80")
        play(rep, order_moves(rep)[0], "A")
    with freeze_time(AT_LIMIT):
        with pytest.raises(IllegalMove) as err:
            rep.add("reveal", dealer.DEALER)
        assert err.value.rule == "domino 7.2"
        assert randomplay.deal_seed(3) not in store.text(rep.log).decode()
    with freeze_time(PAST_LIMIT):  # the time is over: the reveal is due (6.1)
        (record,) = rep.add("reveal", dealer.DEALER)
    assert record.seed == randomplay.deal_seed(3)
    assert hashlib.sha256(record.seed.encode()).hexdigest() == rep.header.commitment


def test_domino_7_2_a_public_seed_needs_no_commitment_or_secret(corr, tmp_path: Path) -> None:
    path = tmp_path / "public.corr"
    with freeze_time(T0):
        new_game(corr, path, "seed=practice-1")
    header = json.loads(path.read_text().splitlines()[0])
    assert header.get("commitment") is None
    assert not dealer.secret_path(path).exists()


# --- Bad input through the command line -------------------------------------------------


@pytest.fixture
def public(corr, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "practice.corr"
    with freeze_time(T0):
        return new_game(corr, path, "seed=practice-1")


def _practice_deal():  # type: ignore[no-untyped-def]
    return generate("practice-1", 30)


def test_domino_2_4_cli_refuses_a_cell_that_is_not_docking(corr, public: Path) -> None:
    deal = _practice_deal()
    digit = deal.order[0][1]
    cells = list(deal.start)
    inner = next(c for c in range(81) if not cells[c] and c not in docking_cells(cells))
    with freeze_time("2026-03-01 12:01:00"):
        cli_refused(corr, public, "move", public, f"{digit} {name(inner)}", words=("domino 2.4", "docking"))


def test_domino_2_1_cli_refuses_the_wrong_digit(corr, public: Path) -> None:
    cell, digit = _practice_deal().order[0]
    with freeze_time("2026-03-01 12:01:00"):
        cli_refused(corr, public, "move", public, f"{digit % 9 + 1} {name(cell)}", words=("domino 2.1",))


def test_domino_4_1_cli_refuses_a_joker_when_none_is_left(corr, public: Path) -> None:
    empty = [c for c in range(81) if not _practice_deal().start[c]]
    with freeze_time("2026-03-01 12:01:00"):
        for cell in empty[:4]:
            assert corr("move", public, f"grey {name(cell)}", "--format", "none").code == 0
        cli_refused(corr, public, "move", public, f"grey {name(empty[4])}", words=("domino 4.1", "grey"))


def test_domino_1_3_cli_refuses_a_move_after_the_game_is_over(corr, tmp_path: Path) -> None:
    path = tmp_path / "done.corr"
    with freeze_time(T0):
        new_game(corr, path, "seed=done", "givens=80")
        (cell, digit), = generate("done", 80).order
        assert corr("move", path, f"{digit} {name(cell)}", "--format", "none").code == 0
        cli_refused(corr, path, "move", path, f"grey {name(cell)}", words=("over",))


def test_domino_6_1_cli_refuses_a_move_after_the_time(corr, public: Path) -> None:
    cell, digit = _practice_deal().order[0]
    with freeze_time(PAST_LIMIT):
        cli_refused(corr, public, "move", public, f"{digit} {name(cell)}", words=("domino 6.1",))
    with freeze_time(AT_LIMIT):
        assert corr("move", public, f"{digit} {name(cell)}", "--format", "none").code == 0


@pytest.mark.parametrize(
    "args, words",
    [
        (("-o", "givens=5"), ("givens", "17")),
        (("-o", "givens=81"), ("givens",)),
        (("-o", "time_limit=abc"), ("time_limit",)),
        (("-o", "time_limit=0"), ("time_limit",)),
        (("-o", "seed=a b"), ("seed",)),
        (("--time", "per-move:3"), ("own time",)),
        (("-p", "B2", "-p", "C3", "-p", "D4", "-p", "E5", "-p", "F6", "-p", "G7"), ("6",)),
    ],
)
def test_domino_7_1_6_1_new_refuses_bad_options_and_writes_nothing(corr, tmp_path: Path, args, words) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.corr"
    assert_error(corr("new", "domino", path, "-p", "Ann", *args, "--format", "none"), *words)
    assert not path.exists() and not dealer.secret_path(path).exists()


def test_domino_1_2_cli_a_duel_move_needs_by(corr, tmp_path: Path) -> None:
    path = tmp_path / "duel.corr"
    with freeze_time(T0):
        new_game(corr, path, "seed=duel", players=("Ann", "Ben"))
        cell, digit = generate("duel", 30).order[0]
        cli_refused(corr, path, "move", path, f"{digit} {name(cell)}", words=("--by",))
        assert corr("move", path, f"{digit} {name(cell)}", "--by", "B", "--format", "none").code == 0
        assert corr("move", path, f"{digit} {name(cell)}", "--by", "A", "--format", "none").code == 0
        cli_refused(corr, path, "legal", path, "--json", words=("--for",))


# --- JSON ------------------------------------------------------------------------------


def test_domino_2_3_json_show_for_a_seat_has_given_docking_unreachable_lives_jokers_scores(corr, public: Path) -> None:
    deal = _practice_deal()
    (c1, d1), (c2, d2) = deal.order[:2]
    empty = [c for c in range(81) if not deal.start[c] and c not in (c1, c2)]
    with freeze_time("2026-03-01 12:01:00"):
        for move in (f"{d1} {name(c1)}", f"grey {name(empty[0])}", f"gold {name(empty[1])}"):
            assert corr("move", public, move, "--format", "none").code == 0
        r = corr("show", public, "--for", "A", "--format", "json")
    assert r.code == 0, r.err
    view = json.loads(r.out)
    assert view["given"] == d2
    expected = list(deal.start)
    expected[c1] = d1
    text = "".join(str(d) if d else "." for d in expected)
    text = text[: empty[0]] + "g" + text[empty[0] + 1 :]
    text = text[: empty[1]] + "G" + text[empty[1] + 1 :]
    assert view["board"] == text
    cells = [d if d else 0 for d in expected]
    cells[empty[0]], cells[empty[1]] = GREY, GOLD
    assert view["docking"] == [name(c) for c in docking_cells(cells)]
    assert view["unreachable"] == [name(c) for c in unreachable_cells(cells)]
    assert all(isinstance(n, str) and n.startswith("(") for n in view["docking"])
    assert view["lives"] == {"A": 3}
    assert view["jokers"] == {"A": {"grey": 3, "gold": 1}}
    assert view["scores"] == {"A": 5 + 0 + 5}  # a stone, a grey joker, a gold joker; no unit is complete


def test_domino_2_4_json_legal_lists_the_docking_moves_and_the_jokers(corr, public: Path) -> None:
    deal = _practice_deal()
    digit = deal.order[0][1]
    cells = list(deal.start)
    with freeze_time("2026-03-01 12:01:00"):
        r = corr("legal", public, "--json", "--for", "A")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["seat"] == "A"
    moves = data["moves"]
    placements = [m for m in moves if m[0].isdigit()]
    # every docking cell: where the digit breaks the Sudoku rule it is taken and costs a life (3.1)
    assert placements == [f"{digit} {name(c)}" for c in docking_cells(cells)]
    assert any(breaks(cells, c, digit) for c in docking_cells(cells))
    empty = [c for c in range(81) if not cells[c]]
    assert [m for m in moves if m.startswith("grey")] == [f"grey {name(c)}" for c in empty]
    assert [m for m in moves if m.startswith("gold")] == [f"gold {name(c)}" for c in empty]
    assert len(moves) == len(placements) + 2 * len(empty)


def test_domino_6_1_json_legal_after_the_time_lists_nothing(corr, public: Path) -> None:
    with freeze_time(PAST_LIMIT):
        r = corr("legal", public, "--json", "--for", "A")
    assert r.code == 0, r.err
    assert json.loads(r.out) == {"seat": None, "moves": []}


def test_domino_7_2_json_the_public_view_of_a_secret_game_hides_the_given_digit(corr, tmp_path: Path) -> None:
    path = tmp_path / "hidden.corr"
    with freeze_time(T0):
        new_game(corr, path)
        public_view = json.loads(corr("show", path, "--format", "json").out)
        own = json.loads(corr("show", path, "--for", "A", "--format", "json").out)
    seed = json.loads(dealer.secret_path(path).read_text())["seed"]
    assert "given" not in public_view or public_view["given"] is None
    assert own["given"] == generate(seed, 30).order[0][1]


def test_domino_7_2_nothing_public_and_no_other_seat_depends_on_the_digit_order() -> None:
    """The order is the one hidden part of a deal, and it lives in the game, not in the
    state: the same records on a game given another order (same start, same solution)
    keep the state hash and the public bytes; a seat's bytes change only by its digit."""
    import dataclasses

    from corr.render import render_position

    with freeze_time(T0):
        rep = secret(("Ann", "Ben"), deal=5)
        for _ in range(3):
            for seat in ("A", "B"):
                moves = [m for m in rep.game.legal_for(rep.state, seat) if not str(m).startswith(("grey", "gold"))]
                play(rep, str(moves[0]), seat)
        game = rep.game
        order = list(game.deal.order)
        done = {b.placed for b in rep.state.boards}
        kept, rest = order[: max(done)], order[max(done):]
        rotated = kept + rest[1:] + rest[:1]  # the digits still to come in another order
        assert [d for _, d in rotated] != [d for _, d in order]
        other_game = engine.make_game(rep.header, game.seed)
        other_game.deal = dataclasses.replace(game.deal, order=tuple(rotated))
        other = dataclasses.replace(rep, game=other_game)
        assert other_game.state_key(rep.state) == game.state_key(rep.state)
        for fmt in ("text", "html", "json"):
            assert render_position(other, fmt) == render_position(rep, fmt), f"public {fmt} shows the order"
        for seat in ("A", "B"):
            own, changed = position(rep, seat), position(other, seat)
            assert {k: v for k, v in own.items() if k != "given"} == {k: v for k, v in changed.items() if k != "given"}
        assert any(position(rep, s)["given"] != position(other, s)["given"] for s in ("A", "B"))
