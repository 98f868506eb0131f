"""`corr tournament standings --format html` in headless Chromium (the browser of
tests/test_browser.py), at a phone's width and a desktop's: every player's points can
be read, nothing reaches past the window, every text meets WCAG AA."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from test_browser import CONTRAST_JS, OVERFLOW_JS, browser  # noqa: F401 - the module's browser fixture
from test_tournament_event import new_event, run_event

NAMES = ["Anna Maria Lindqvist-Oyelaran", "Ben <ben@example.org>", "Cleo", "Dan", "Eve"]


@pytest.fixture
def event_page(tmp_path: Path, corr: Any) -> tuple[Path, dict[str, Any]]:
    """A five-player round robin of Combat played to its end: its standings page and JSON."""
    event, games = new_event(corr, tmp_path, "--game", "combat", "--system", "round-robin", players=NAMES)
    assert run_event(corr, event, games) == 5
    page = tmp_path / "standings.html"
    page.write_text(corr("tournament", "standings", event, "--format", "html").out)
    return page, json.loads(corr("tournament", "standings", event, "--format", "json").out)


@pytest.mark.parametrize("width", [375, 1000])
def test_the_standings_page_reads_whole_on_a_phone_and_a_desktop(browser: Any, width: int,  # noqa: F811
                                                                 event_page: tuple[Path, dict[str, Any]]) -> None:
    page, data = event_page
    browser.set_window_size(width, 900)
    browser.get(page.as_uri())
    from corr.tournament.standings import half

    points = browser.execute_script(
        "return Array.from(document.querySelectorAll('tr')).map(tr => Array.from(tr.cells).map(c => c.innerText))")
    by_name = {cells[1]: cells for cells in points if len(cells) > 2}
    for row in data["standings"]:
        assert half(row["points"]) in by_name[row["name"]], (row, by_name)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    assert browser.execute_script(OVERFLOW_JS) == []
    assert browser.execute_script(CONTRAST_JS) == []
