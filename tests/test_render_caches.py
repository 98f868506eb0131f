"""What the boards and messages keep between draws changes nothing drawn: a board row
kept by `drawn_row` is the row its macro draws afresh, a text wrapped before is the text
Jinja's `wordwrap` wraps, the text board's cells (`plain_cells`) are what each cell
shows, a seat with hidden cards still sees only its own after boards of other viewers
were drawn, and the parts a position's messages share say what each message alone says."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from jinja2.filters import do_wordwrap

from corr import engine, randomplay, render
from corr.mail import mime
from corr.mail.compose import SharedParts, draft
from corr.render import ROWS_KEPT, cells, environment, plain_cells
from corr.seatview import observe
from corr.term import strip
from test_mail_parts import KINDS, new_game

HOST = "Host <host@example.org>"


def positions(game: str, seats: int, count: int, options: dict[str, str] | None = None) -> list[object]:
    """Tables of `game` played at random to different lengths: two games, each seen
    every few records, so that rows recur with other marks (a field conquered since)."""
    return [randomplay.play(game, ["Anna", "Ben", "Cleo"][:seats], options, seed=i % 2, max_records=i * 4)
            for i in range(count)]


def fresh(view: object, fmt: str, colour: bool = False) -> str:
    """The board drawn with nothing kept from earlier draws."""
    render._rows_drawn.clear()
    render._wrapped.cache_clear()
    return render.render(view, fmt, colour)


@pytest.mark.parametrize("game, seats, options", [("combat", 3, None), ("cards", 3, {"deck": "1x1-9"})])
def test_a_kept_row_is_the_row_drawn_afresh(game: str, seats: int, options: dict[str, str] | None) -> None:
    row_cells = environment().get_template("_board.html").module.row_cells
    tables = positions(game, seats, 50, options)
    render._rows_drawn.clear()
    for table in tables:  # every row drawn or taken from what the boards before kept
        for row in cells(observe(table).rows):
            assert render.drawn_row(row, row_cells) == row_cells(row)
    assert 0 < len(render._rows_drawn) < 50 * 9  # rows of the same marks are drawn once
    assert game != "combat" or any(c.owner for table in tables for row in cells(observe(table).rows) for c in row)
    boards = [render.render(observe(table), "html") for table in tables]
    assert boards == [fresh(observe(table), "html") for table in tables]


def test_rows_that_differ_in_one_mark_are_drawn_apart() -> None:
    import copy

    draw = environment().get_template("_board.html").module.row_cells
    rows = cells(observe(positions("combat", 3, 8)[-1]).rows)
    for r, row in enumerate(rows):
        below = copy.deepcopy(rows[(r + 1) % 9])  # the same marks one row further down
        for c, above in zip(below, row):
            c.digit, c.owner, c.last, c.given, c.blank = above.digit, above.owner, above.last, above.given, above.blank
        variants = [below]
        for mark, value in [("digit", 5), ("owner", "B"), ("last", True), ("given", True)]:
            changed = copy.deepcopy(row)
            setattr(changed[r % 9], mark, value)
            changed[r % 9].blank = False
            variants.append(changed)
        for changed in variants:
            render._rows_drawn.clear()
            assert render.drawn_row(row, draw) == draw(row)  # kept
            assert render.drawn_row(changed, draw) == draw(changed), r


def test_the_rows_kept_are_at_most_rows_kept() -> None:
    draw = environment().get_template("_board.html").module.row_cells
    render._rows_drawn.clear()
    for table in positions("combat", 2, 40):
        rows = cells(observe(table).rows)
        for digit in range(10):  # rows no board would draw, to fill what is kept
            for r, row in enumerate(rows):
                row[0].digit = digit
                row[0].index = r * 9 + (digit * 7) % 9
                render.drawn_row(row, draw)
    assert len(render._rows_drawn) == ROWS_KEPT


def test_a_wrapped_text_is_the_text_wordwrap_wraps() -> None:
    env = environment()
    rng = random.Random(3)
    words = ["a", "move", "Reply-to", "(5,4)", "x" * 90, "seq", "\n", "anna@example.org"]
    texts = [" ".join(rng.choice(words) for _ in range(rng.randrange(1, 60))) for _ in range(200)]
    for text in texts + texts:  # the second time from what the first kept
        for width, long_words, hyphens, wrapstring in [(76, False, False, None), (72, True, True, "\n        "),
                                                       (20, True, False, None)]:
            assert render.wordwrap(env, text, width, long_words, wrapstring, hyphens) == \
                do_wordwrap(env, text, width, long_words, wrapstring, hyphens)


@pytest.mark.parametrize("colour", [False, True])
def test_the_text_cells_show_each_cell_as_it_stands(colour: bool) -> None:
    env = environment(colour)
    for table in positions("combat", 3, 10):
        rows = cells(observe(table).rows)
        drawn = plain_cells(env, rows)
        assert len(drawn) == 81
        for cell, text in zip((c for row in rows for c in row), drawn):
            shown = strip(text)
            if cell.last:
                assert shown == f"[{cell.digit}]"
            else:
                assert shown == (f" {cell.digit} " if cell.digit else " . ")
            coloured = text != shown
            assert coloured == (colour and (cell.last or (bool(cell.digit) and cell.owner is not None))), cell
        text = render.render(observe(table), "text", colour)
        assert text == fresh(observe(table), "text", colour)


def test_a_seat_with_hidden_cards_sees_only_its_own_after_other_boards_were_drawn() -> None:
    shown = 0
    for table in positions("cards", 3, 6, {"deck": "1x1-9"}):
        for fmt in ("text", "html"):
            alone = {seat: fresh(observe(table, seat), fmt) for seat in table.game.seats}
            for viewer in (None, *table.game.seats):  # the boards drawn one after the other, rows kept
                render.render(observe(table, viewer), fmt)
            assert "holds" not in render.render(observe(table), "text")  # the public sees no hand
            for seat in table.game.seats:
                drawn = render.render(observe(table, seat), fmt)
                assert drawn == alone[seat]
                if fmt == "text":
                    hand = observe(table, seat).position["hand"]
                    held = [line for line in drawn.splitlines() if " holds " in line]
                    assert held == [f"hand:   {seat} holds {', '.join(map(str, hand)) or 'no card'}"]
                    shown += bool(hand)
    assert shown


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_position_s_messages_say_what_each_seat_s_message_alone_says(tmp_path: Path, kind: str) -> None:
    """The parts a host shares among a position's messages (`SharedParts.part`, the last
    text part written) change no word of any: each seat's text and HTML are those of
    its message composed alone, and a seat told the same as the one before is given
    that part again."""
    rep = engine.load(new_game(tmp_path, kind))
    shared = SharedParts(rep)
    drafts = {seat: draft(rep, seat, sender=HOST, boards=shared) for seat in rep.game.seats}
    for seat, made in drafts.items():
        alone = draft(rep, seat, sender=HOST)
        assert (made.text, made.html) == (alone.text, alone.html), seat
        assert made.written() is not None
        assert mime._new_text_part(made.html, "html", True) == mime._text_part(made.html, "html", True)
    made = list(drafts.values())
    for i, one in enumerate(made):
        for other in made[i + 1:]:
            if one.text == other.text:
                assert one.text is other.text  # the part made for the seat before


def test_a_text_part_is_written_again_for_another_text() -> None:
    for text in ["one\n", "two\n", "two\n", "x" * 300 + "\n", "one\n", "caf\u00e9\n", *map("{}\n".format, range(20)),
                 "one\n"]:
        for subtype, version in (("plain", False), ("html", True)):
            assert mime._text_part(text, subtype, version) == mime._new_text_part(text, subtype, version)
    assert len(mime._PARTS) == mime._PARTS_KEPT


@pytest.mark.parametrize("colour", [False, True])
def test_the_text_board_frames_each_row_of_cells_by_fields(colour: bool) -> None:
    env = environment(colour)
    for table in positions("combat", 3, 6):
        drawn = plain_cells(env, cells(observe(table).rows))
        rows = render.framed_rows(drawn)
        assert [strip(row) for row in rows] == [
            "|" + "|".join("".join(strip(c) for c in drawn[r * 9 + f * 3:r * 9 + f * 3 + 3]) for f in range(3)) + "|"
            for r in range(9)]
        assert all(len(strip(row)) == 31 for row in rows)
        board = render.render(observe(table), "text", colour).splitlines()
        framed = [line for line in board if line.startswith("|")]
        assert [line[:len(row)] for line, row in zip(framed, rows)] == rows and len(framed) == 9
