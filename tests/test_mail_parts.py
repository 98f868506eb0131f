"""Both parts of a mailed move tell a player the same things (DESIGN 8): whose turn it
is, addressed to them when it is theirs; how to answer in this game, with a move they
could make now; the moves so far as their seat may read them; the result once the game
is over; and the board. Checked on real .eml bytes read back with the standard library,
and by following the instructions for real: the reply they describe goes through
`corr mail ingest` (and `corr mail send` over a real SMTP server) and the move lands."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable

import pytest

from conftest import Inbox, parse_message

from corr import engine
from corr.mail.compose import compose, subject
from corr.seatview import observe
from corr.mail.ingest import ingest_bytes
from corr.record_text import step_text

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>"]
EMAILS = {"A": "anna@example.org", "B": "ben@example.org", "C": "cleo@example.org"}
NAMES = {"A": "Anna", "B": "Ben", "C": "Cleo"}
HOST = "Host <host@example.org>"
SHORT_MOYO = ".34.78912.7219.34819834256785976.423426853791713924.56961537..42874196353452.6179"

#: (game, options, players, moves played first): every kind of game a message can be about
KINDS = {
    "combat": ("combat", {}, 2, 3),
    "combat-3": ("combat", {}, 3, 2),
    "moyo": ("moyo", {"puzzle": "1"}, 2, 2),
    "moyo-draft": ("moyo", {"puzzle": "1", "division": "draft"}, 2, 1),
    "war": ("war", {}, 2, 2),
    "domino-solo": ("domino", {"seed": "daily-2026-11-30", "time_limit": "none"}, 1, 2),
    "domino-public-duel": ("domino", {"seed": "daily-2026-11-30", "time_limit": "none"}, 2, 1),
    "cards": ("cards", {"deck": "1x1-9"}, 3, 2),
    "domino-duel": ("domino", {"time_limit": "none"}, 2, 1),
}
#: the kinds that take seat keys (a game with hidden information is played on the dealer's copy)
KEYED = ["combat", "combat-3", "moyo", "moyo-draft", "war", "domino-solo", "domino-public-duel"]


# ---------------------------------------------------------------------------------
# Reading a message back


def parts(raw: bytes) -> tuple[str, str]:
    """The text and HTML parts of a message's bytes, as a mail client decodes them."""
    msg = parse_message(raw)
    return (msg.get_body(preferencelist=("plain",)).get_content(),
            msg.get_body(preferencelist=("html",)).get_content())


class Document(HTMLParser):
    """An HTML part read with the standard library: its visible text, its tags (checked
    for balance), and every attribute value and style that could fetch something."""

    VOID = {"meta", "br", "img", "hr", "input", "link", "col", "area", "base", "wbr", "source"}

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.problems: list[str] = []
        self.attributes: list[str] = []
        self.doctype = 0
        self.hidden = 0
        self.feed(html)
        self.close()
        if self.stack:
            self.problems.append(f"unclosed {self.stack}")

    def handle_decl(self, decl: str) -> None:
        self.doctype += decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += [f"{name}={value}" for name, value in attrs]
        if tag in ("head", "title", "style", "script"):
            self.hidden += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag in ("head", "title", "style", "script"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.text.append(data)

    def visible(self) -> str:
        """The text a reader sees, every run of white space one space."""
        return " ".join("".join(self.text).split())


def flat(text: str) -> str:
    return " ".join(text.split())


def assert_complete_document(html: str) -> Document:
    """One whole, balanced, self-contained HTML document: nothing it shows is fetched."""
    doc = Document(html)
    assert doc.doctype == 1 and not doc.problems, doc.problems
    assert [doc.tags.count(t) for t in ("html", "head", "body", "title")] == [1, 1, 1, 1]
    assert doc.tags[0] == "html" and '<meta charset="utf-8">' in html and 'name="viewport"' in html
    assert not {"script", "link", "img", "iframe", "object", "style", "base"} & set(doc.tags)
    outside = re.compile(r"(https?:|ftp:|//|url\(|@import|\bsrc=)", re.IGNORECASE)
    assert not outside.search(html), outside.search(html)
    assert not [a for a in doc.attributes if a.startswith(("src=", "href=", "on"))]
    return doc


# ---------------------------------------------------------------------------------
# Games to write about


def play(path: Path, count: int) -> engine.Position:
    """`count` moves, each the first legal move of the first seat on turn."""
    rep = engine.load(path)
    for _ in range(count):
        seat = rep.on_turn()[0]
        rep, _ = engine.act(path, "move", by=seat, text=str(rep.game.legal_for(rep.state, seat)[0]))
    return rep


def new_game(folder: Path, kind: str, corr: Callable[..., Any] | None = None,
             keys: dict[str, Path] | None = None) -> Path:
    """A game of `kind` with its first moves played (signed, when `keys` are given)."""
    game, options, seats, moves = KINDS[kind]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}.corr"
    if keys is None:
        engine.new_game(path, game, PLAYERS[:seats], dict(options))
        play(path, moves)
        return path
    assert corr is not None
    args: list[Any] = ["new", game, path, "-f", "none"]
    for i in range(seats):
        args += ["-p", PLAYERS[i], "--key", f"{'ABC'[i]}={keys['ABC'[i]].with_suffix('.pub')}"]
    for key, value in options.items():
        args += ["-o", f"{key}={value}"]
    assert corr(*args).code == 0
    rep = engine.load(path)
    for _ in range(moves):
        seat = rep.on_turn()[0]
        rep, _ = engine.act(path, "move", by=seat, text=str(rep.game.legal_for(rep.state, seat)[0]), key=keys[seat])
    return path


@pytest.fixture
def keys(tmp_path: Path, corr: Callable[..., Any]) -> dict[str, Path]:
    """Each seat's key pair: seat -> its secret key file (the public one beside it)."""
    made = {}
    for seat, name in NAMES.items():
        folder = tmp_path / f"keys-{name.lower()}"
        folder.mkdir()
        assert corr("key", "new", "--out", folder / name.lower()).code == 0
        made[seat] = folder / f"{name.lower()}.key"
    return made


def messages(path: Path, sender: str | None = None) -> dict[str, bytes]:
    """The message to every seat, as the bytes that would leave."""
    rep = engine.load(path)
    return {seat.seat: compose(rep, seat.seat, sender=sender).as_bytes() for seat in rep.header.seats}


def example(text: str) -> str:
    """The example move a text part gives after "For example:"."""
    found = re.findall(r"^For example: (.+)$", text, re.MULTILINE)
    assert len(found) == 1, text
    return found[0]


def moves_seen(rep: engine.Position, seat: str) -> list[str]:
    """The move list's lines as `seat` may read them."""
    over = rep.result().over
    return [step_text(step, over) for step in rep.visible(seat)]


# ---------------------------------------------------------------------------------
# What both parts say


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_both_parts_say_whose_move_how_to_answer_and_the_moves_in_every_kind_of_game(tmp_path: Path, kind: str) -> None:
    path = new_game(tmp_path, kind)
    rep = engine.load(path)
    hidden = rep.game.is_hidden(rep.game.opts)
    duel = len(rep.on_turn()) > 1
    sent = messages(path, HOST if hidden else None)
    assert any(seat not in rep.on_turn() for seat in sent) or duel or len(sent) == 1
    for seat, raw in sent.items():
        text, html = parts(raw)
        shown = assert_complete_document(html).visible()
        label = f"{NAMES[seat]} ({seat})"
        if seat in rep.on_turn():
            turn = f"Your move, {label}" + (", on your own board." if duel else ".")
            move = example(text)
            assert move in [str(m) for m in rep.game.legal_for(rep.state, seat)]
            for said in (turn, "Reply to this message with your move on a line of its own.",
                         f"For example: {move}", f"Send it from {EMAILS[seat]}, your address in this game",
                         f"its seq {rep.seen_seq(seat)} tells corr which position your move answers"):
                assert said in flat(text) and said in shown, said
            attached = bool(list(parse_message(raw).iter_attachments()))
            assert ("attach your own copy" in text) == (attached and not hidden)
            assert "This game has keys" not in text + shown
        else:
            movers = [f"{NAMES[s]} ({s})" for s in rep.on_turn()]
            turn = f"{' and '.join(movers)} {'is' if len(movers) == 1 else 'are'} to move."
            for said in (turn, "Nothing for you to answer now."):
                assert said in text and said in shown, said
            assert "For example" not in text + shown and "Your move" not in text + shown
        lines = moves_seen(rep, seat)
        if not lines:  # a duel's seat that has not moved reads no other board's moves
            assert duel and "No moves yet." in shown
        for line in lines:
            assert line in text and flat(line) in shown, line
        assert text.index(turn) < text.index("Moves so far") and shown.index(turn) < shown.index("Moves so far")


@pytest.mark.parametrize("kind", KEYED)
def test_in_a_game_with_keys_both_parts_say_to_sign_the_move_in_ones_copy(tmp_path: Path, corr, keys, kind: str) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path / "anna", kind, corr, keys)
    rep = engine.load(path)
    sent = messages(path, str(compose(rep, "A")["From"]))  # a player's own message
    copy = f"~/games/{rep.header.id}.corr"
    for seat, raw in sent.items():
        text, html = parts(raw)
        shown = assert_complete_document(html).visible()
        assert "Reply to this message with your move" not in text + shown and "For example" not in text
        if seat in rep.on_turn():
            move = str(observe(rep, seat, moves=True).example())  # the first that keeps the rules
            commands = ["corr mail ingest msg.eml --games ~/games --new",
                        f'corr move {copy} "{move}" --sign YOUR.key']
            sender = rep.steps[-1].record.by if rep.steps else None
            if sender is not None and sender != seat:
                commands += [f"corr mail send {copy} --to {other} --config smtp.toml"
                             for other in rep.game.seats if other != seat]
            for said in (f"Your move, {NAMES[seat]} ({seat})", "This game has keys",
                         "a move written in a reply is refused", *commands):
                assert said in text and said in shown, said
            assert re.findall(r"^    (corr .*)$", text, re.MULTILINE) == commands
        else:
            for said in ("is to move", "Keep your copy of the game in step",
                         "corr mail ingest msg.eml --games ~/games --new"):
                assert said in text and said in shown, said
            assert "--sign" not in text
        for line in moves_seen(rep, seat):
            assert line in text and flat(line) in shown


def test_the_result_once_the_game_is_over_in_both_parts(tmp_path: Path) -> None:
    path = tmp_path / "short.corr"
    engine.new_game(path, "moyo", PLAYERS[:2], {"puzzle": SHORT_MOYO})
    for move in ("1 (5,3)", "6 (1,1)", "5 (2,6)", "8 (8,8)", "8 (6,7)"):  # README: Ben cannot place
        engine.act(path, "move", text=move)
    rep = engine.load(path)
    assert rep.result().winners == ("A",)
    for seat, raw in messages(path).items():
        text, html = parts(raw)
        shown = assert_complete_document(html).visible()
        for said in ("Game over: Anna (A) wins.", "Nothing more to play.", "5. A  8 (6,7)"):
            assert said in text and flat(said) in shown, said
        assert "Your move" not in text + shown and "to move." not in text + shown


# ---------------------------------------------------------------------------------
# The instructions followed for real


def reply(seat: str, answering: bytes, body: str, attach: Path | None = None) -> bytes:
    """What a player's mail client sends: a reply from the seat's address, keeping the
    Subject, with `body` above the quoted message; `attach`ed as a file when given."""
    original = parse_message(answering)
    msg = EmailMessage()
    msg["From"] = PLAYERS["ABC".index(seat)]
    msg["To"] = str(original["From"])
    msg["Subject"] = f"Re: {original['Subject']}"
    msg["In-Reply-To"] = str(original["Message-ID"])
    quoted = "\n".join(f"> {line}" for line in parts(answering)[0].splitlines())
    msg.set_content(f"{body}\n\n{quoted}\n")
    if attach is not None:
        msg.add_attachment(attach.read_bytes(), maintype="application", subtype="octet-stream", filename=attach.name)
    return msg.as_bytes()


@pytest.mark.parametrize("kind", ["combat", "war", "moyo-draft", "cards", "domino-duel"])
def test_a_reply_as_the_message_describes_it_plays_the_example_move(tmp_path: Path, kind: str) -> None:
    path = new_game(tmp_path / "games", kind)
    rep = engine.load(path)
    seat = rep.on_turn()[-1]
    raw = compose(rep, seat, sender=HOST).as_bytes()
    move = example(parts(raw)[0])
    result = ingest_bytes(reply(seat, raw, move), path.parent, "reply")
    assert result.ok, result.message
    (record,) = [r for r in result.records if r.type == "move"]
    assert (record.by, record.move) == (seat, move)


def test_with_keys_the_commands_the_message_gives_play_the_move_and_mail_it_back(
        tmp_path: Path, corr, keys, smtp_server: tuple[Inbox, int]) -> None:  # type: ignore[no-untyped-def]
    """Ben follows his message word for word: saves it, runs the commands it lists (his
    key, his folder, his SMTP settings for the placeholders), and Anna's copy takes the
    signed move from the mail that arrives. The move in a plain reply is refused, as the
    message says."""
    inbox, port = smtp_server
    anna_log = new_game(tmp_path / "anna", "combat", corr, keys)
    raw = compose(engine.load(anna_log), "B").as_bytes()
    text = parts(raw)[0]
    ben = tmp_path / "ben"
    (ben / "games").mkdir(parents=True)
    (ben / "msg.eml").write_bytes(raw)
    (ben / "smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\ntimeout = 10\n')
    places = {"msg.eml": ben / "msg.eml", "~/games": ben / "games", "YOUR.key": keys["B"],
              "smtp.toml": ben / "smtp.toml"}
    commands = re.findall(r"^    (corr .*)$", text, re.MULTILINE)
    assert [c.split()[:3] for c in commands] == [["corr", "mail", "ingest"], ["corr", "move", f"~/games/{engine.load(anna_log).header.id}.corr"], ["corr", "mail", "send"]]
    for command in commands:
        args = [str(places.get(word, word)) for word in shlex.split(command)[1:]]
        args = [a.replace("~/games", str(ben / "games")) for a in args]
        done = corr(*args)
        assert done.code == 0, (command, done.err)
    move = shlex.split(commands[1])[3]
    (envelope,) = inbox.take_envelopes()
    assert envelope.rcpt_tos == [EMAILS["A"]]
    mailed = tmp_path / "mailed.eml"
    mailed.write_bytes(envelope.original_content)
    before = anna_log.read_bytes()
    refused = ingest_bytes(reply("B", raw, move), anna_log.parent, "plain reply")
    assert not refused.ok and "keys" in refused.message and anna_log.read_bytes() == before
    taken = corr("mail", "ingest", mailed, "--games", anna_log.parent)
    assert taken.code == 0, taken.err
    last = engine.load(anna_log).log.records[-1]
    assert (last.seq, last.by, last.move) == (4, "B", move) and last.sig
    assert anna_log.read_bytes() == next((ben / "games").glob("*.corr")).read_bytes()


def test_with_keys_and_a_host_the_message_says_to_reply_with_ones_copy_attached(
        tmp_path: Path, corr, keys) -> None:  # type: ignore[no-untyped-def]
    """A message from a host (no seat's address) cannot name a `corr mail send` target:
    it says to reply with one's copy attached, and that reply lands in the host's copy."""
    hosted = new_game(tmp_path / "host", "war", corr, keys)
    raw = compose(engine.load(hosted), "A", sender=HOST).as_bytes()
    text, html = parts(raw)
    assert "corr mail send" not in text + html
    assert "Then reply to this message with your copy attached." in flat(text)
    commands = re.findall(r"^    (corr .*)$", text, re.MULTILINE)
    assert len(commands) == 2
    anna = tmp_path / "anna-games"
    anna.mkdir()
    (tmp_path / "msg.eml").write_bytes(raw)
    for command in commands:
        words = [w.replace("~/games", str(anna)) for w in shlex.split(command)[1:]]
        words = [str(tmp_path / "msg.eml") if w == "msg.eml" else str(keys["A"]) if w == "YOUR.key" else w
                 for w in words]
        assert corr(*words).code == 0
    copy = next(anna.glob("*.corr"))
    result = ingest_bytes(reply("A", raw, "", attach=copy), hosted.parent, "reply")
    assert result.ok, result.message
    assert hosted.read_bytes() == copy.read_bytes() and engine.load(hosted).log.records[-1].by == "A"


# ---------------------------------------------------------------------------------
# What a seat may not see


def test_a_hidden_card_never_reaches_another_seats_message(tmp_path: Path) -> None:
    """СуДоку dealt on the host's copy, nine different cards: the seat on turn is shown
    its card as the example move; no other seat's message, in either part, holds that
    move or a line about that seat's hand."""
    path = new_game(tmp_path, "cards")
    rep = engine.load(path)
    hands = dict(zip(rep.game.seats, rep.state.hands))
    assert len(set(hands.values())) == 3
    on_turn = rep.to_move()
    sent = messages(path, HOST)
    own_move = example(parts(sent[on_turn])[0])
    assert own_move.split()[0] == str(hands[on_turn])
    for seat, raw in sent.items():
        text, html = parts(raw)
        every = text + html
        for other in rep.game.seats:
            if other == seat:
                continue
            assert f"{other} holds" not in every and f"Your card ({other} " not in every
            assert f"for seat {other} " not in every
        if seat != on_turn:
            assert own_move not in every and "For example" not in every


def test_a_running_duel_tells_a_seat_nothing_of_another_board(tmp_path: Path) -> None:
    path = new_game(tmp_path, "domino-duel")
    rep = engine.load(path)
    a_moves = [step.record.move for step in rep.steps if step.record.by == "A"]
    assert a_moves
    text, html = parts(compose(rep, "B", sender=HOST).as_bytes())
    for move in a_moves:
        assert f"A  {move}" not in text and f"A {move}" not in flat(Document(html).visible())
    assert "once the game is over" in text and not list(parse_message(compose(rep, "B").as_bytes()).iter_attachments())


# ---------------------------------------------------------------------------------
# The HTML part


def test_the_html_part_escapes_what_players_wrote(tmp_path: Path) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ['"Ben <b>&amp;" <ben@example.org>', PLAYERS[0]], {})
    rep = engine.load(path)
    html = parts(compose(rep, "A").as_bytes())[1]
    doc = assert_complete_document(html)
    assert "<b>&amp;" not in html and "&lt;b&gt;&amp;amp;" in html
    assert "Your move, Ben <b>&amp; (A)." in doc.visible()


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

#: Everything that reaches past the window sideways, outside a box made to scroll (a
#: board wider than a phone scrolls inside its own box, never the page).
OVERFLOW_JS = r"""
const W = window.innerWidth, bad = [];
if (document.scrollingElement.scrollWidth > W) bad.push('page ' + document.scrollingElement.scrollWidth);
function scrolls(el) {
  for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
    if (['auto', 'scroll'].includes(getComputedStyle(e).overflowX)) return true;
  }
  return false;
}
for (const el of document.body.querySelectorAll('*')) {
  const r = el.getBoundingClientRect();
  if ((r.width || r.height) && (r.right > W + 0.5 || r.left < -0.5) && !scrolls(el)) {
    bad.push(el.tagName + ' ' + Math.round(r.right));
  }
}
return {bad: bad, text: document.body.innerText};
"""


@pytest.fixture(scope="module")
def browser() -> Any:
    """Headless Chromium at a phone's width, 375 px (Debian's chromium and chromium-driver)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        if os.environ.get("CI"):
            pytest.fail("Chromium and chromedriver are needed: apt-get install chromium chromium-driver")
        pytest.skip("no Chromium here")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--window-size=375,800"):
        options.add_argument(flag)
    from selenium.webdriver.chrome.service import Service

    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_window_size(375, 800)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.parametrize("kind", ["combat-3", "war", "domino-public-duel"])
def test_the_html_part_reads_at_375_px_in_a_real_browser(tmp_path: Path, corr, keys, browser, kind: str) -> None:  # type: ignore[no-untyped-def]
    """The longest instructions (a game with keys and three seats) wrap inside the
    window: nothing reaches past 375 px, and the instructions are in the page's text."""
    path = new_game(tmp_path / "games", kind, corr, keys)
    rep = engine.load(path)
    seat = rep.on_turn()[-1]
    html = parts(compose(rep, seat, sender=str(compose(rep, "A")["From"])).as_bytes())[1]
    page = tmp_path / "mail.html"
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri())
    width = browser.execute_script("return window.innerWidth")
    assert width <= 375
    seen = browser.execute_script(OVERFLOW_JS)
    assert not seen["bad"], seen["bad"][:5]
    said = " ".join(seen["text"].split())
    assert f"Your move, {NAMES[seat]} ({seat})" in said and "--sign YOUR.key" in said


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_html_part_s_letter_taken_from_the_text_part_s_is_the_one_made_afresh(tmp_path: Path, kind: str) -> None:
    """A message's HTML letter reuses its text letter's words (`letter(..., other=)`):
    it must say exactly what the HTML letter made on its own says, for every seat."""
    from corr.mail.compose import _view, letter

    rep = engine.load(new_game(tmp_path, kind))
    for seat in rep.game.seats:
        view = _view(rep, seat)
        text = letter(rep, seat, 0, HOST, "text", view)
        assert letter(rep, seat, None, HOST, "html", view, other=text) == letter(rep, seat, None, HOST, "html", view)
