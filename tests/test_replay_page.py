"""`corr replay --format html`: one self-contained page to step through a game, checked
in headless Chromium (the browser of tests/test_browser.py): stepping shows the next
position's digits, the move list follows, the keys and the slider work, the result is
at the end, and at a phone's width nothing scrolls sideways."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from test_browser import CONTRAST_JS, OVERFLOW_JS, browser  # noqa: F401 - the module's browser fixture

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: The digits of the board shown now: cell name -> text, read off the visible section.
SHOWN_JS = r"""
const shown = Array.from(document.querySelectorAll('#boards > section')).filter(s => !s.hidden);
const cells = {};
for (const td of shown[0].querySelectorAll('td[title]')) {
  const m = td.title.match(/^\(\d,\d\)/);
  if (!m) continue;
  const skipped = Array.from(td.querySelectorAll('[aria-hidden="true"]'));
  for (const e of skipped) e.style.display = 'none';
  cells[m[0]] = td.innerText.trim();
  for (const e of skipped) e.style.display = '';
}
const current = document.querySelector('#moves button[aria-current=step]');
return {count: shown.length, seq: shown[0].dataset.seq, cells: cells, slider: document.getElementById('slider').value,
        line: current ? current.innerText : null, where: document.getElementById('where').innerText,
        scroll_width: document.documentElement.scrollWidth};
"""


def digits(position: dict[str, Any]) -> dict[str, str]:
    """What a board cell shows for each digit of the JSON position's 81-character board."""
    from corr.geometry import name

    return {name(i): ch for i, ch in enumerate(position["board"]) if ch != "."}


def shown_digits(cells: dict[str, str]) -> dict[str, str]:
    return {cell: text[0] for cell, text in cells.items() if text[:1].isdigit()}


@pytest.fixture
def game(corr: Any, tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """A finished two-player Combat game from the examples, its page and its positions."""
    log = tmp_path / "game.corr"
    log.write_bytes((EXAMPLES / "combat-2p-anna-ben.corr").read_bytes())
    r = corr("replay", log, "--format", "html")
    assert r.code == 0, r.err
    page = tmp_path / "game.html"
    page.write_text(r.out)
    positions = json.loads(corr("replay", log, "--format", "json").out)
    return page, positions


def test_the_page_is_one_file_that_fetches_nothing(game: tuple[Path, list[dict[str, Any]]]) -> None:
    page, positions = game
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html) and "@import" not in html
    assert "<link" not in html and "url(" not in html
    assert html.count('<section class="position"') == len(positions)
    assert f"Result: {positions[-1]['winners'][0]} wins" in html


def test_stepping_forward_shows_the_next_position_s_digits(browser: Any,  # noqa: F811
                                                           game: tuple[Path, list[dict[str, Any]]]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page, positions = game
    browser.set_window_size(1000, 800)
    browser.get(page.as_uri())
    got = browser.execute_script(SHOWN_JS)
    assert got["count"] == 1 and got["seq"] == "0" and got["line"] == "start"
    assert shown_digits(got["cells"]) == digits(positions[0])
    browser.find_element(By.ID, "next").click()
    got = browser.execute_script(SHOWN_JS)
    assert got["seq"] == "1" and got["slider"] == "1"
    assert shown_digits(got["cells"]) == digits(positions[1])
    assert got["line"].startswith("1. A")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    got = browser.execute_script(SHOWN_JS)
    assert got["seq"] == "2" and shown_digits(got["cells"]) == digits(positions[2])
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    got = browser.execute_script(SHOWN_JS)
    assert got["seq"] == str(positions[-1]["seq"]) and shown_digits(got["cells"]) == digits(positions[-1])
    browser.find_element(By.ID, "first").click()
    assert browser.execute_script(SHOWN_JS)["seq"] == "0"
    middle = len(positions) // 2
    browser.execute_script("const s = document.getElementById('slider'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('input'));", middle)
    got = browser.execute_script(SHOWN_JS)
    assert got["seq"] == str(positions[middle]["seq"]) and shown_digits(got["cells"]) == digits(positions[middle])
    browser.find_elements(By.CSS_SELECTOR, "#moves button")[3].click()
    assert browser.execute_script(SHOWN_JS)["seq"] == str(positions[3]["seq"])


def test_a_link_to_a_position_opens_there(browser: Any, game: tuple[Path, list[dict[str, Any]]]) -> None:  # noqa: F811
    page, positions = game
    browser.get(page.as_uri() + f"#seq={positions[5]['seq']}")
    got = browser.execute_script(SHOWN_JS)
    assert got["seq"] == str(positions[5]["seq"]) and shown_digits(got["cells"]) == digits(positions[5])


@pytest.mark.parametrize("example", ["combat-2p-anna-ben", "war-pieces", "moyo-horikomi", "cards-3p", "domino-duel"])
def test_at_a_phone_s_width_nothing_scrolls_sideways_and_every_text_is_readable(browser: Any, corr: Any, tmp_path: Path,  # noqa: F811
                                                    example: str) -> None:
    log = EXAMPLES / f"{example}.corr"
    if not log.exists():
        pytest.fail(f"examples/{example}.corr is missing")
    copy = tmp_path / log.name
    copy.write_bytes(log.read_bytes())
    r = corr("replay", copy, "--format", "html")
    assert r.code == 0, r.err
    page = tmp_path / "page.html"
    page.write_text(r.out)
    browser.set_window_size(375, 800)
    browser.get(page.as_uri())
    browser.execute_script("document.getElementById('last').click()")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 375
    assert browser.execute_script(OVERFLOW_JS) == []
    assert browser.execute_script(CONTRAST_JS) == []  # WCAG AA, the controls and the move list too
