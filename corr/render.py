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


def _template_name(game: str, fmt: str) -> str:
    """A game's board template: `templates/<game>/board.txt` or `board.html`."""
    return f"{game}/board.{'txt' if fmt == 'text' else 'html'}"


def render(view: SeatView, fmt: str = "text", colour: bool = False) -> str:
    """A seat view in one of FORMATS; `colour`: a text board coloured for a terminal
    (corr.term)."""
    if fmt == "json":
        return json.dumps(view.position, indent=2, ensure_ascii=False) + "\n"
    context: dict[str, Any] = {"p": view.position, "rows": cells(view.rows)}
    template = _template_name(view.position["game"], fmt)
    return environment(colour and fmt == "text").get_template(template).render(context)


def render_position(table: Position, fmt: str = "text", seat: str | None = None, colour: bool = False) -> str:
    """A position in one of FORMATS, as `seat` sees it (None: the public view)."""
    return render(observe(table, seat), fmt, colour)
