"""Every HTML page corr makes, opened in a real browser (headless Chromium) at a phone's
width (375 px) and a desktop's (1000 px), and checked on the page itself by JavaScript:

- a player finds what they need in the page's text: whose turn or the result, every
  seat's score, their own card or digit to place, and in each board cell the digit (or
  piece) the JSON position has there, with a conquered field's owner by letter;
- nothing sticks out sideways: the page does not scroll horizontally and no element
  reaches past the window, except inside a box made to scroll (overflow-x:auto); and at
  375 px every board fits whole, without such a box;
- every text meets WCAG AA contrast (4.5:1, large text 3:1) against the colours behind
  it: the nearest opaque background up the tree and every colour of a background image
  (hatching) on the way.

A PNG screenshot of every page at both widths goes to artifacts/screenshots/ at the
repository root (CORR_ARTIFACTS names another folder for artifacts/). The pages are in
browser_pages.py. Chromium and its driver are Debian's `chromium` and `chromium-driver`;
without them the tests skip, or fail when CI is set.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from browser_pages import Page, example_pages

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
INSTALL = ("apt-get install -y --no-install-recommends chromium chromium-driver, "
           "and pip install selenium (the test extra)")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
WIDTHS = (375, 1000)
HEIGHT = 800
PAGES = example_pages()

#: What the page shows, measured in the page: its text, the text of every board cell (a
#: cell is a <td> whose title starts with its name, "(5,4)") without what screen readers
#: skip (a field's number in its corner), each board a list of cells; and how far right
#: each board's table reaches, and how wide the page is.
MEASURE_JS = r"""
const boards = [], edges = [];
for (const table of document.querySelectorAll('table')) {
  const cells = {};
  for (const td of table.querySelectorAll(':scope > tbody > tr > td[title], :scope > tr > td[title]')) {
    const m = td.title.match(/^\(\d,\d\)/);
    if (!m) continue;
    const skipped = Array.from(td.querySelectorAll('[aria-hidden="true"]'));
    for (const e of skipped) e.style.display = 'none';
    cells[m[0]] = td.innerText;
    for (const e of skipped) e.style.display = '';
  }
  if (Object.keys(cells).length) {
    boards.push(cells);
    edges.push(table.getBoundingClientRect().right);
  }
}
return {text: document.body.innerText, boards: boards, edges: edges,
        scroll_width: document.documentElement.scrollWidth};
"""

#: Everything that reaches past the window sideways, outside any box made to scroll.
OVERFLOW_JS = r"""
const W = window.innerWidth, bad = [];
const scroller = document.scrollingElement;
if (scroller.scrollWidth > W) bad.push('the page scrolls sideways: ' + scroller.scrollWidth + ' px wide');
function scrolls(node) {
  for (let e = node.parentElement; e && e !== document.body; e = e.parentElement) {
    const x = getComputedStyle(e).overflowX;
    if (x === 'auto' || x === 'scroll') return true;
  }
  return false;
}
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if ((r.right > W + 0.5 || r.left < -0.5) && !scrolls(el)) {
    const what = el.tagName.toLowerCase() + (el.title ? '[' + el.title + ']' : '');
    bad.push(what + ' "' + (el.innerText || '').trim().slice(0, 40) + '" spans ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
}
// Text that runs out of its box: the box stays inside, its lines do not.
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (!node.textContent.trim() || scrolls(node)) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  for (const r of range.getClientRects()) {
    if (r.right > W + 0.5 || r.left < -0.5) {
      bad.push('text "' + node.textContent.trim().slice(0, 40) + '" spans ' + Math.round(r.left) + '..' + Math.round(r.right));
      break;
    }
  }
}
return bad;
"""

#: Every text below WCAG AA contrast against what is behind it.
CONTRAST_JS = r"""
function rgba(text) {
  const m = text.match(/rgba?\(([^)]*)\)/);
  if (!m) return null;
  const v = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
}
function over(top, below) {  // a colour with alpha laid over an opaque one
  const a = top[3];
  return [0, 1, 2].map(i => top[i] * a + below[i] * (1 - a)).concat([1]);
}
function luminance(c) {
  const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}
function ratio(a, b) {
  const x = luminance(a), y = luminance(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
// The colours that may stand behind el: the first opaque background colour up the tree
// (translucent ones laid over it), and every colour of a background image on the way.
function behind(el) {
  const images = [], veils = [];
  let base = [255, 255, 255, 1];
  for (let e = el; e; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.backgroundImage && s.backgroundImage !== 'none')
      for (const m of s.backgroundImage.matchAll(/rgba?\([^)]*\)/g)) images.push(rgba(m[0]));
    const c = rgba(s.backgroundColor);
    if (c && c[3] >= 1) { base = c; break; }
    if (c && c[3] > 0) veils.push(c);
  }
  let solid = base;
  for (const v of veils.reverse()) solid = over(v, solid);
  return [solid].concat(images.map(c => over(c, solid)));
}
const bad = [];
for (const el of document.body.querySelectorAll('*')) {
  const own = Array.from(el.childNodes).filter(n => n.nodeType === 3 && n.textContent.trim()).map(n => n.textContent.trim()).join(' ');
  if (!own || !el.getClientRects().length) continue;
  const s = getComputedStyle(el);
  if (s.visibility === 'hidden' || s.display === 'none') continue;
  const size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight, 10) >= 700;
  const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
  const bgs = behind(el);
  const fg = over(rgba(s.color), bgs[0]);
  const worst = Math.min(...bgs.map(b => ratio(fg, b)));
  if (worst < need) bad.push('"' + own.slice(0, 30) + '" ' + s.color + ' on ' + bgs.map(b => 'rgb(' + b.slice(0, 3).join(',') + ')').join('/') + ': ' + worst.toFixed(2) + ' < ' + need);
}
return bad;
"""


def screenshots() -> Path:
    folder = Path(os.environ.get("CORR_ARTIFACTS") or Path(__file__).resolve().parent.parent / "artifacts") / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole module, with a fresh profile."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("the selenium package")
    if missing:
        message = f"no browser to test the HTML pages in: {', '.join(missing)} missing; install with {INSTALL}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    profile = tempfile.mkdtemp(prefix="corr-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Page]:
    """Each page built once, on first use (the mail pages play a game first)."""
    folder = tmp_path_factory.mktemp("pages")

    class Built(dict):  # type: ignore[type-arg]
        def __missing__(self, name: str) -> Page:
            self[name] = PAGES[name](folder)
            return self[name]

    return Built()


@pytest.fixture(scope="module")
def looked(browser: Any, pages: dict[str, Page], tmp_path_factory: pytest.TempPathFactory) -> Any:
    """`looked(name, width)`: what the browser measured on the page at that window width
    (its text, boards, overflow and contrast findings), each page and width loaded once
    and screenshotted as NAME-WIDTH.png."""
    folder = tmp_path_factory.mktemp("html")
    shots = screenshots()
    seen: dict[tuple[str, int], dict[str, Any]] = {}

    def look(name: str, width: int) -> dict[str, Any]:
        if (name, width) not in seen:
            page = pages[name]
            file = folder / f"{name}.html"
            file.write_text(page.html, encoding="utf-8")
            metrics = {"width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False}
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            browser.get(file.as_uri())
            got = browser.execute_script(MEASURE_JS)
            got["overflow"] = browser.execute_script(OVERFLOW_JS)
            got["contrast"] = browser.execute_script(CONTRAST_JS)
            height = max(HEIGHT, int(browser.execute_script("return document.scrollingElement.scrollHeight")))
            shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
            })
            (shots / f"{name}-{width}.png").write_bytes(base64.b64decode(shot["data"]))
            seen[name, width] = got
        return seen[name, width]

    return look


def lines_with(text: str, words: tuple[str, ...]) -> list[str]:
    """The lines of `text` that hold every one of `words` (a number as a whole number)."""
    def has(line: str, word: str) -> bool:
        if not word[:1].isdigit():
            return word in line
        return re.search(rf"(?<![\d.]){re.escape(word)}(?!\d)", line) is not None

    return [line for line in text.splitlines() if all(has(line, w) for w in words)]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_a_player_reads_the_turn_the_scores_and_every_digit(looked: Any, pages: dict[str, Page], name: str,
                                                            width: int) -> None:
    page, got = pages[name], looked(name, width)
    missing = [" + ".join(words) for words in page.lines if not lines_with(got["text"], words)]
    assert not missing, f"{name} at {width} px: no line with {missing}"
    assert len(got["boards"]) == len(page.boards), f"{name}: {len(got['boards'])} boards, expected {len(page.boards)}"
    for shown, expected in zip(got["boards"], page.boards):
        assert set(shown) == set(expected), f"{name}: the board has cells {sorted(set(shown) ^ set(expected))} wrong"
        wrong = {
            cell: (text, expected[cell]) for cell, text in shown.items()
            if "".join(ch for ch in text if ch in page.pieces) != expected[cell]
        }
        assert not wrong, f"{name} at {width} px: cells show (text, expected) {wrong}"
    unmarked = {cell: mark for cell, mark in page.marks.items() if mark not in got["boards"][0][cell]}
    assert not unmarked, f"{name} at {width} px: cells without their owner's letter {unmarked}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_nothing_reaches_past_the_window(looked: Any, name: str, width: int) -> None:
    overflow = looked(name, width)["overflow"]
    assert not overflow, f"{name} at {width} px: " + "; ".join(overflow[:8])


@pytest.mark.parametrize("name", PAGES)
def test_every_board_fits_a_phone_without_scrolling(looked: Any, name: str) -> None:
    """At 375 px the page is no wider than the window and every board, War's nine
    36 px cells too, is whole inside it: nobody scrolls sideways to see a field."""
    got = looked(name, 375)
    assert got["scroll_width"] <= 375, f"{name}: the page is {got['scroll_width']} px wide"
    wide = [round(edge) for edge in got["edges"] if edge > 375.5]
    assert not wide, f"{name}: a board reaches {wide} px"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_every_text_meets_wcag_aa_contrast(looked: Any, name: str, width: int) -> None:
    contrast = looked(name, width)["contrast"]
    assert not contrast, f"{name} at {width} px: " + "; ".join(sorted(set(contrast))[:8])


#: A page with one of each defect the checks look for, and the same things done right.
FLAWED = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>flawed</title></head>
<body style="margin:0;padding:12px;background:#ffffff;color:#1a1a1a;font-size:14px;">
<p style="color:#999999;">pale text</p>
<p style="color:#525252;background:#c9c9c9;">dark enough</p>
<p><span style="color:#444444;background-image:repeating-linear-gradient(45deg,#e4e4e4 0,#e4e4e4 4px,#b0b0b0 4px);">on hatching</span></p>
<p style="color:#777777;font-size:24px;">large grey</p>
<div style="width:600px;">too wide</div>
<div style="overflow-x:auto;"><div style="width:600px;">scrolls in its box</div></div>
<div style="width:100px;white-space:nowrap;">a line of text far too long for its narrow box, and for the window it stands in</div>
</body></html>
"""


def test_the_checks_find_pale_text_and_what_sticks_out(browser: Any, tmp_path: Path) -> None:
    """The measurements can fail: pale text, text on hatching darker than it can bear, a
    box and a line wider than the window are found; large text, a box that scrolls on
    its own and dark enough text pass."""
    file = tmp_path / "flawed.html"
    file.write_text(FLAWED, encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 375, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    browser.get(file.as_uri())
    contrast = browser.execute_script(CONTRAST_JS)
    assert [c.split('"')[1] for c in contrast] == ["pale text", "on hatching"], contrast
    overflow = browser.execute_script(OVERFLOW_JS)
    assert overflow[0].startswith("the page scrolls sideways")
    assert any('"too wide"' in o for o in overflow) and any('text "a line of text' in o for o in overflow)
    assert not any("scrolls in its box" in o for o in overflow), overflow
