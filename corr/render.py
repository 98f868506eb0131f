"""Boards as text or HTML through the Jinja2 templates in `templates/`.

Templates ship inside the wheel as `corr/templates`; in a source checkout they are read
from the repository's top-level `templates/`. HTML output is autoescaped; text from the
log that the seat view leaves as written (a record's move) goes through the `visible`
filter (`corr.names.visible`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from corr.counts import counted
from corr.engine import Position
from corr.names import visible
from corr.resources import resource_dir
from corr.seatview import SeatView, observe

FORMATS = ("text", "html", "json")


def _bytecode_cache(colour: bool = False):  # -> jinja2.BytecodeCache | None
    """Compiled templates kept between runs: corr runs once per move, and compiling the
    templates anew each time costs more than the move itself. Coloured boards keep
    theirs apart: Jinja computes a filter of constants once, when it compiles."""
    import jinja2

    from corr import __version__, cache

    kept = cache.folder(f"templates-{__version__}{'-colour' if colour else ''}")
    return None if kept is None else jinja2.FileSystemBytecodeCache(str(kept))


@lru_cache(maxsize=2)
def environment(colour: bool = False):  # -> jinja2.Environment; jinja2 is imported only when rendering
    """The template environment; `colour` gives the text boards filters that colour them
    on a terminal (corr.term), the identity without it."""
    import jinja2

    from corr.term import filters

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resource_dir("templates"))),
        bytecode_cache=_bytecode_cache(colour),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html",), default=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # built once per process: the shipped templates do not change under it
        extensions=["jinja2.ext.do"],  # `{% do cells.append(...) %}`: a board's cells drawn in one loop
    )
    env.filters.update(filters(colour))
    env.filters["visible"] = visible  # text from the log, as a move written by hand
    env.filters["counted"] = counted  # `3|counted("stone")`: 3 stones, 1 stone
    env.filters["plain_cells"] = jinja2.pass_environment(plain_cells)  # reads the colour filters
    env.filters["framed_rows"] = framed_rows
    env.filters["drawn_row"] = drawn_row
    env.filters["wordwrap"] = jinja2.pass_environment(wordwrap)  # Jinja's own takes the environment
    return env


@dataclass(slots=True)
class Cell:
    """A cell of a seat view's board (`SeatView.rows`), read by attribute: Jinja looks
    an attribute up first, and finds a dict's key only after that failed, which 81
    cells with several marks each pay on every board."""

    index: int  # 0-80, row by row
    digit: int
    field: int
    place: int
    name: str
    row: int
    col: int
    last: bool
    given: bool
    owner: str | None
    blank: bool  # nothing stands there and nobody holds its field: drawn alike on every board


def cells(rows: list[list[dict[str, Any]]]) -> list[list[Cell]]:
    """The board's rows as the templates read them: the seat view's cells, as they are."""
    return [[Cell(index=r * 9 + c, blank=not (cell["digit"] or cell["owner"] or cell["last"] or cell["given"]), **cell)
             for c, cell in enumerate(row)] for r, row in enumerate(rows)]


def plain_cells(env: Any, rows: list[list[Cell]]) -> list[str]:
    """The text board's 81 cells, 3 characters each, row by row: the last move's tile in
    brackets, an empty place as `.`, each through the environment's colour filters (the
    identity without colour). Drawn here rather than in the template: 81 cells a board."""
    last, seat_colour = env.filters["last_move"], env.filters["seat_colour"]
    return [last(f"[{c.digit or '.'}]") if c.last else (f" {seat_colour(c.digit, c.owner)} " if c.digit else " . ")
            for row in rows for c in row]


def framed_rows(cells: list[Any]) -> list[str]:
    """The text board's nine rows of drawn cells (81, row by row), each framed as the
    fields are: `|` before every third cell and after the last."""
    drawn = [str(cell) for cell in cells]
    return ["|" + "|".join("".join(drawn[i:i + 3]) for i in range(row, row + 9, 3)) + "|" for row in range(0, 81, 9)]


#: How many drawn rows `drawn_row` keeps: a host mailing many games meets the same rows again.
ROWS_KEPT = 1024
_rows_drawn: dict[tuple[Any, ...], Any] = {}


def drawn_row(row: list[Cell], draw: Any) -> Any:
    """`draw(row)`, the macro that draws a board's row, kept for the next row of the same
    marks: a macro of a template imported without context sees only its arguments and
    its template's constants, so the same marks draw the same row. The marks are all a
    cell's that `cells` does not work out from its index; the macro itself is part of
    the key, so another template's (or environment's) is never mixed up with it. At
    most ROWS_KEPT rows are kept, the oldest dropped first."""
    key = (draw, *((c.index, c.digit, c.owner, c.last, c.given) for c in row))
    drawn = _rows_drawn.get(key)
    if drawn is None:
        drawn = draw(row)
        if len(_rows_drawn) >= ROWS_KEPT:
            del _rows_drawn[next(iter(_rows_drawn))]
        _rows_drawn[key] = drawn
    return drawn


#: How many wrapped texts `wordwrap` keeps: a message's sentences recur in every message.
WRAPS_KEPT = 1024


def wordwrap(env: Any, text: Any, width: int = 79, break_long_words: bool = True, wrapstring: str | None = None,
             break_on_hyphens: bool = True) -> str:
    """Jinja's `wordwrap`, a text wrapped before kept for the next time it comes."""
    if type(text) is not str or (wrapstring is not None and type(wrapstring) is not str):
        from jinja2.filters import do_wordwrap

        return do_wordwrap(env, text, width, break_long_words, wrapstring, break_on_hyphens)
    return _wrapped(env, text, width, break_long_words, wrapstring, break_on_hyphens)


@lru_cache(maxsize=WRAPS_KEPT)
def _wrapped(env: Any, text: str, width: int, break_long_words: bool, wrapstring: str | None,
             break_on_hyphens: bool) -> str:
    from jinja2.filters import do_wordwrap

    return do_wordwrap(env, text, width, break_long_words, wrapstring, break_on_hyphens)


def _template_name(game: str, fmt: str) -> str:
    """A game's board template: `templates/<game>/board.txt` or `board.html`."""
    return f"{game}/board.{'txt' if fmt == 'text' else 'html'}"


def render(view: SeatView, fmt: str = "text", colour: bool = False, drawn: list[list[Cell]] | None = None) -> str:
    """A seat view in one of FORMATS; `colour`: a text board coloured for a terminal
    (corr.term). `drawn`: the view's `cells`, made once by a caller that draws the board
    in several formats."""
    if fmt == "json":
        return json.dumps(view.position, indent=2, ensure_ascii=False) + "\n"
    context: dict[str, Any] = {"p": view.position, "rows": cells(view.rows) if drawn is None else drawn}
    template = _template_name(view.position["game"], fmt)
    return environment(colour and fmt == "text").get_template(template).render(context)


def render_position(table: Position, fmt: str = "text", seat: str | None = None, colour: bool = False) -> str:
    """A position in one of FORMATS, as `seat` sees it (None: the public view)."""
    return render(observe(table, seat), fmt, colour)
