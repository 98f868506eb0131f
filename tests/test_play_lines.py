"""`corr play` fed its lines from a script, as from a pipe: the listing of moves, the
board once a turn, the coach, keys typed where lines are not edited, and leaving.
(tests/test_terminal.py plays it in a real pseudo-terminal.)"""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path
from typing import Any, Callable

import pytest

#: The README's opening: after it field 8's 2 has one place left, and Anna may take it.
FIELD_8_OPENING = ("7 (8,7)", "8 (4,6)", "6 (8,4)", "2 (5,3)", "9 (1,3)", "1 (3,9)")
#: Where a board starts: its title line.
BOARD = re.compile(r"^SUDOKU-Combat   combat-", re.M)


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


@pytest.fixture
def combat(tmp_path: Path, corr: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert corr("new", "combat", "game.corr", "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    return Path("game.corr")


@pytest.fixture
def field_8(combat: Path, corr: Callable[..., Any]) -> Path:
    """Anna to move, and field 8 hers for the taking: `2 (7,3) !` (combat 3.1)."""
    for move in FIELD_8_OPENING:
        assert corr("move", combat, move, "--format", "none").code == 0
    return combat


def play(corr: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, path: Path, lines: str, *args: str) -> str:
    """`corr play FILE ARGS` typed `lines`; what it printed (it must end well)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    result = corr("play", path, *args, "--color", "never")
    assert (result.code, result.err) == (0, ""), result.err
    return str(result.out)


def listed(text: str) -> list[str]:
    """The moves of the pages a `legal` printed after the first prompt (their lines are
    indented by two spaces; those of its conquests, deeper or after `conquers`)."""
    pages = text.split("A Anna> ", 1)[1].splitlines()
    return [m for line in pages if line.startswith("  ") and not line.startswith(("   ", "  conquers"))
            for m in line.strip().rstrip(",").split(", ")]


# --- legal: a page at a time ---------------------------------------------------------
def test_legal_shows_a_count_and_a_page_and_more_goes_on(combat: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, combat, "legal\nlegal more\nquit\n", "--as", "A")
    assert "moves 1-64 of 504:" in out and "moves 65-128 of 504:" in out
    assert "legal more: moves 65-128" in out and "legal more: moves 129-192" in out
    assert "..." not in out  # nothing cut off without a word


def test_legal_pages_show_every_move_once(combat: Path, corr, monkeypatch) -> None:
    every = json.loads(corr("legal", combat, "--json").out)["moves"]
    pages = (len(every) + 63) // 64
    out = play(corr, monkeypatch, combat, "legal\n" + "legal more\n" * pages + "quit\n", "--as", "A")
    assert listed(out) == every
    assert "that was the last of them: `legal` lists them again" in out
    assert listed(play(corr, monkeypatch, combat, "legal all\nquit\n", "--as", "A")) == every


def test_legal_field_keeps_the_moves_of_one_field(combat: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, combat, "legal 5\nlegal more\nquit\n", "--as", "A")
    moves = listed(out)
    assert "56 moves in field 5:" in out and len(moves) == 56  # one page holds a field's moves
    assert "that was the last of them: `legal 5` lists them again" in out
    assert moves == [m for m in json.loads(corr("legal", combat, "--json").out)["moves"] if "(5," in m]


def test_legal_says_what_it_takes_when_given_something_else(combat: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, combat, "legal 10\nlegal foo\nquit\n", "--as", "A")
    assert out.count("legal takes a field 1-9, more or all") == 2
    assert "refused" not in out


def test_combat_3_5_legal_lists_the_conquests_first_with_their_claim(field_8: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, field_8, "legal\nlegal 8\nquit\n", "--as", "A")
    assert "these 11 moves conquer, played with the claim (combat 3.5):" in out
    assert "conquers field 8: 2 (7,1) !, 2 (7,2) !, 2 (7,3) !," in out
    assert "these 5 moves conquer" in out  # in field 8 itself: the other tile on (8,1)
    assert "1 (8,1) !, 2 (8,1), 3 (8,1) !," in out.split("28 moves in field 8:")[1]


# --- one board a turn ----------------------------------------------------------------
def test_one_board_a_turn_and_a_line_for_each_move(combat: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, combat, "7 (8,7)\n3 (1,1)\nquit\n", "--bot", "B=random")
    # the computer's tile is drawn at random and may bar 3 (1,1): then the prompt refuses it
    took = [m for m in ("7 (8,7)", "3 (1,1)") if f"A Anna plays {m}\n" in out]
    assert took[0] == "7 (8,7)"
    assert len(BOARD.findall(out)) == 1 + len(took)  # the start, then one after each of Anna's turns
    assert len(re.findall(r"B Ben \(computer, random\) plays", out)) == len(took)
    assert [r["by"] for r in records(combat)] == ["A", "B"] * len(took)


def test_a_seat_played_here_alone_sees_the_board_before_the_others_turn(combat: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, combat, "7 (8,7)\n", "--as", "A")
    assert len(BOARD.findall(out)) == 2
    assert out.rstrip().endswith("B Ben to move: send them game.corr, or play that seat here with --as")


def test_a_conquest_is_said_in_the_movers_line(field_8: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, field_8, "2 (7,3) !\nquit\n", "--as", "A")
    assert "A Anna plays 2 (7,3) !: conquers field 8\n" in out


# --- rule 3.5 and the coach -----------------------------------------------------------
def test_combat_3_5_plain_play_keeps_the_rule_an_unclaimed_conquest_is_missed(field_8: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, field_8, "2 (7,3)\nquit\n", "--as", "A")
    assert "coach" not in out and "misses" not in out  # noticing it is the other players' part
    assert records(field_8)[-1]["move"] == "2 (7,3)"
    assert json.loads(corr("show", field_8, "--format", "json").out)["conquered"] == {}


def test_combat_3_5_the_coach_asks_before_a_conquest_goes_unclaimed(field_8: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, field_8, "2 (7,3)\nn\n2 (7,3)\n2 (7,3) !\nquit\n", "--as", "A", "--coach")
    assert out.count("coach: 2 (7,3) misses field 8; written 2 (7,3) ! it conquers field 8 (combat 3.5)") == 2
    assert "play 2 (7,3) as typed? [y/N, or type 2 (7,3) !] " in out
    assert "2 (7,3) not played" in out
    assert [r["move"] for r in records(field_8)][len(FIELD_8_OPENING):] == ["2 (7,3) !"]
    assert json.loads(corr("show", field_8, "--format", "json").out)["conquered"] == {"8": "A"}


def test_combat_3_5_the_coach_plays_the_unclaimed_move_when_told_yes(field_8: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, field_8, "2 (7,3)\ny\nquit\n", "--as", "A", "--coach")
    assert "A Anna plays 2 (7,3)\n" in out
    assert [r["move"] for r in records(field_8)][len(FIELD_8_OPENING):] == ["2 (7,3)"]
    assert json.loads(corr("show", field_8, "--format", "json").out)["conquered"] == {}  # missed, as asked


def test_combat_3_5_the_coach_lets_a_move_that_misses_nothing_through(field_8: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, field_8, "3 (7,3)\nquit\n", "--as", "A", "--coach")
    assert "coach" not in out and "A Anna plays 3 (7,3)\n" in out


# --- keys, help, leaving ----------------------------------------------------------------
def test_a_special_keys_codes_are_no_bad_notation(combat: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, combat, "\x1b[A\n7 (8,)\x1b[D7\nquit\n", "--as", "A")
    assert "bad notation" not in out and "refused" not in out
    assert out.count("ignored a special key (an arrow, Home, a function key): lines are not edited or "
                     "recalled here; type a move, or help") == 2
    assert records(combat) == []


def test_help_names_the_ways_to_list_moves(combat: Path, corr, monkeypatch) -> None:
    out = play(corr, monkeypatch, combat, "help\nquit\n", "--as", "A")
    for command in ("legal more", "legal 1-9", "legal all", "hint", "board", "quit"):
        assert command in out
    assert "Up and Down" not in out  # no line editing from a script


@pytest.mark.parametrize("leaving", ["quit\n", ""])
def test_quit_says_where_the_game_is_kept_and_how_to_go_on(combat: Path, corr, monkeypatch, leaving: str) -> None:
    out = play(corr, monkeypatch, combat, "7 (8,7)\n" + leaving, "--bot", "B=greedy", "--coach")
    said = out.rstrip().splitlines()[-1].split("> ")[-1]  # after the prompt: no echo from a script
    assert said == "game kept in game.corr; go on with: corr play game.corr --bot B=greedy --coach"
    again = shlex.split(said.split("go on with: ")[1])
    assert again[:3] == ["corr", "play", str(combat)]
    out = play(corr, monkeypatch, combat, "quit\n", *again[3:])
    assert "A Anna> " in out and [r["by"] for r in records(combat)] == ["A", "B"]


def test_going_on_names_the_seats_played_here(tmp_path: Path, corr, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = "my game.corr"
    made = corr("new", "combat", path, "-p", "Anna", "-p", "Computer", "--bot", "B=greedy", "--format", "none")
    assert made.code == 0, made.err
    out = play(corr, monkeypatch, Path(path), "quit\n", "--as", "A")
    assert out.rstrip().endswith("go on with: corr play 'my game.corr' --as A")  # the game's own bot it knows


# --- the card game, as written: a card that fits nowhere -----------------------------
def both_hold_a_five(path: Path) -> None:
    """A card game as written whose deck left is a 3 and two 5s, dealt until both seats
    hold a 5: a 5 on (1,3) breaks the rule and leaves the other 5 no cell (cards 4.1)."""
    from corr import engine
    from corr.engine.dealer import secret_path

    puzzle = "42.8761.916853924775921436869.321784381947526274685931517462893842193675936758412"
    for _ in range(60):
        rep = engine.new_game(path, "cards", ["Anna", "Ben"], {"puzzle": puzzle, "mode": "as-written"})
        if list(rep.state.hands) == [5, 5]:
            return
        path.unlink()
        secret_path(path).unlink()
    pytest.fail("no deal gave both seats a 5")


def test_a_seat_whose_card_fits_nowhere_passes_and_the_dealer_reveals(tmp_path: Path, corr, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    both_hold_a_five(Path("cards.corr"))
    out = play(corr, monkeypatch, Path("cards.corr"), "5 (1,3)\npass\n")
    assert "B Ben: B passes: no free cell takes the card held" in out
    assert [r["type"] for r in records(Path("cards.corr"))] == ["move", "pass", "reveal"]


def test_a_seat_whose_card_fits_nowhere_challenges_and_plays_on(tmp_path: Path, corr, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    both_hold_a_five(Path("cards.corr"))
    out = play(corr, monkeypatch, Path("cards.corr"), "5 (1,3)\nchallenge\nquit\n")
    assert "challenge upheld" in out
    assert [r["type"] for r in records(Path("cards.corr"))] == ["move", "challenge"]
    assert "B Ben> " in out.rsplit("challenge upheld", 1)[1]  # B on turn again, its 5 in hand


def test_a_computer_whose_card_fits_nowhere_passes(tmp_path: Path, corr, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    both_hold_a_five(Path("cards.corr"))
    out = play(corr, monkeypatch, Path("cards.corr"), "5 (1,3)\n", "--bot", "B=greedy")
    assert "(computer, greedy) passes" in out
    assert [r["type"] for r in records(Path("cards.corr"))] == ["move", "pass", "reveal"]
