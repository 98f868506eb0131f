"""The host writes a game's message to bytes itself (`corr.mail.mime`), and those bytes
are, to the byte, what the outbox kept when every message was built as an EmailMessage
and written out by the standard library (`outbox._as_bytes`). Only the multipart
boundaries differ, drawn at random in both; they are named by their order of appearance
(as tests/test_host_pass_mail.py names them). Where a message is not of the shape mime
writes - a name beyond ASCII, a value too long for a line, an address needing quotes -
it says so (None) and the message is written by the email package, as before; the tests
check both that it declines those and that it writes the ordinary ones itself."""

from __future__ import annotations

import email.policy
import os
import random
import string
from email.message import EmailMessage, MIMEPart
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_host_pass_mail import boundaries_named
from test_mail_parts import KINDS, new_game

from corr import engine
from corr.mail import mime
from corr.mail.compose import Draft, SharedParts, draft
from corr.mail.outbox import Outbox, _as_bytes, as_sent, as_written, game_identity, identity

HOST = "Host <host@example.org>"
THREAD = [f"<{i}.{'7' * 20}.corr@example.org>" for i in range(25)]  # a long game's References


def kept(made: Draft) -> bytes:
    """What the outbox kept for the message before mime: the EmailMessage written out."""
    return boundaries_named(_as_bytes(made.message()))


def sent_as_written(made: Draft) -> bool:
    """Whether the flush sends the bytes mime wrote, their envelope given by their headers
    (`as_written`), as it sends them read back from the file (`as_sent`)."""
    data = made.written()
    envelope = made.envelope()
    assert data is not None and envelope is not None
    return as_written(data, envelope) == as_sent(data)


def fast(made: Draft) -> bytes:
    data = made.written()
    assert data is not None, made.headers
    return boundaries_named(data)


def drafts(rep: Any, sender: str | None = HOST, thread: int = 3) -> list[Draft]:
    """The messages of the position to every seat, threaded after `thread` earlier ones,
    sharing the position's boards and log as a host pass does."""
    boards = SharedParts(rep)
    ids = THREAD[:thread]
    return [draft(rep, seat.seat, previous_message_id=ids[-1] if ids else None, sender=sender,
                  references=ids[:-1], boards=boards) for seat in rep.header.seats]


def finish(path: Path) -> Any:
    """Play the game to its end with random legal moves (War, which random moves do not
    end soon, ends by resigning)."""
    rng = random.Random(7)
    rep = engine.load(path)
    for _ in range(80):
        if not rep.on_turn():
            break
        seat = rep.on_turn()[0]
        rep, _ = engine.act(path, "move", by=seat, text=str(rng.choice(rep.game.legal_for(rep.state, seat))))
    if not rep.result().over:
        rep, _ = engine.act(path, "resign", by=rep.on_turn()[0])
    assert rep.result().over
    return rep


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_of_game_at_its_start_mid_game_and_finished_is_written_as_the_email_package_writes_it(
        tmp_path: Path, kind: str) -> None:
    game, options, seats, _ = KINDS[kind]
    start = tmp_path / "start.corr"
    engine.new_game(start, game, ["Anna <anna@example.org>", "Ben <ben@example.org>",
                                  "Cleo <cleo@example.org>"][:seats], dict(options))
    mid = new_game(tmp_path, kind)
    positions = {"start": engine.load(start), "mid": engine.load(mid)}
    positions["finished"] = finish(mid)
    for when, rep in positions.items():
        for thread in (0, 1, 3, 25):  # no thread yet, one message, References folded over lines
            for made in drafts(rep, thread=thread):
                assert fast(made) == kept(made), (when, thread, made.value("To"))
                assert sent_as_written(made), (when, thread, made.value("To"))
    assert positions["finished"].result().over


def test_a_message_without_a_sender_comes_from_the_last_mover_as_before(tmp_path: Path) -> None:
    rep = engine.load(new_game(tmp_path, "combat-3"))
    for made in drafts(rep, sender=None):
        assert made.value("From") == "Ben <ben@example.org>"  # who made the last move
        assert fast(made) == kept(made)


def test_the_private_panel_of_cards_is_written_as_the_email_package_writes_it(tmp_path: Path) -> None:
    rep = engine.load(new_game(tmp_path, "cards"))
    for made in drafts(rep):
        assert made.value("X-Corr-Private") is not None and made.value("X-Corr-For") in ("A", "B", "C")
        assert fast(made) == kept(made)


def test_a_hosted_games_signed_panel_is_written_as_the_email_package_writes_it(
        tmp_path: Path, corr: Callable[..., Any]) -> None:
    assert corr("key", "new", "--out", tmp_path / "hal", "--role", "host").code == 0
    game = tmp_path / "g.corr"
    assert corr("new", "cards", game, "-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>",
                "--host", "Hal <hal@example.org>", "--host-key", tmp_path / "hal.pub", "--dealer-key",
                tmp_path / "hal.key", "--format", "none").code == 0
    rep = engine.load(game)
    for made in drafts(rep):
        assert made.value("X-Corr-Private-Sig"), made.headers
        data = made.written()
        assert data is None or boundaries_named(data) == kept(made)


@pytest.mark.parametrize("player", [
    "Ånna Ångström <anna@example.org>",  # a name beyond ASCII: an encoded word
    f"{'Anna' * 30} <anna@example.org>",  # a name too long for its line
    "Anna, the first <anna@example.org>",  # a name that needs quotes
])
def test_a_name_or_address_mime_does_not_write_is_left_to_the_email_package(tmp_path: Path, player: str) -> None:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", [player, "Ben <ben@example.org>"], {})
    rep = engine.load(path)
    to_anna, to_ben = drafts(rep)
    assert to_anna.written() is None
    assert fast(to_ben) == kept(to_ben)  # its headers name Ben alone


@pytest.mark.parametrize("sender", ["Hôte <host@example.org>", "Host <host@exämple.org>",
                                    f"Host <{'h' * 80}@example.org>"])
def test_a_sender_mime_does_not_write_is_left_to_the_email_package(tmp_path: Path, sender: str) -> None:
    rep = engine.load(new_game(tmp_path, "combat"))
    assert all(made.written() is None for made in drafts(rep, sender=sender))


def test_a_game_whose_subject_is_beyond_ascii_is_left_to_the_email_package(tmp_path: Path) -> None:
    rep = engine.load(new_game(tmp_path, "combat"))
    made = drafts(rep)[0]
    headers = [(name, f"{value} — Ünïcode" if name == "Subject" else value) for name, value in made.headers]
    changed = Draft(headers, made.text, made.html, made.log, made.rep, made.boards)
    assert changed.written() is None
    assert kept(changed)  # the email package writes it, as it always did


def test_a_header_set_twice_is_left_to_the_email_package_which_refuses_it(tmp_path: Path) -> None:
    rep = engine.load(new_game(tmp_path, "combat"))
    made = drafts(rep)[0]
    doubled = Draft([*made.headers, ("Subject", "again")], made.text, made.html, made.log, made.rep)
    assert doubled.written() is None
    with pytest.raises(ValueError):
        doubled.message()


def test_a_pass_s_bytes_and_an_emailmessage_of_the_same_message_are_one_message_to_the_outbox(
        tmp_path: Path) -> None:
    rep = engine.load(new_game(tmp_path, "combat"))
    outbox = Outbox(tmp_path)
    for made in drafts(rep):
        data = made.written()
        assert data is not None
        to, subject = made.value("To"), made.value("Subject")
        assert to is not None and subject is not None
        msg = made.message()
        assert game_identity(to, subject) == identity(msg)
        name = outbox.put_bytes(data, game_identity(to, subject))
        assert outbox.put(msg) == name
        assert (outbox.root / "new" / name).read_bytes() == data
    assert len(os.listdir(outbox.root / "new")) == len(rep.header.seats)


def test_a_message_put_in_the_outbox_is_fsynced_twice_the_file_and_new(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rep = engine.load(new_game(tmp_path, "combat"))
    outbox = Outbox(tmp_path)
    made = drafts(rep)
    outbox.put(made[0].message())  # the folders made (each made durable once)
    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    name = outbox.put(made[1].message())
    assert synced == [str(outbox.root / "tmp" / name), str(outbox.root / "new")]


# ---------------------------------------------------------------------------------
# Properties: any header value, any body


def email_package_header(name: str, value: str) -> str | None:
    """The header as the email package writes it in a message; None when it refuses it."""
    msg = EmailMessage()
    try:
        msg[name] = value
        head = msg.as_bytes().decode("utf-8", "surrogateescape")
    except Exception:  # noqa: BLE001 - a value it will not take
        return None
    return head[:-1]  # the blank line after the headers


WORD = st.text(alphabet=string.printable[:94] + "ÅéЖ", min_size=1, max_size=90)
VALUE = st.lists(WORD, min_size=1, max_size=12).map(" ".join) | st.text(max_size=200)
NAMES = st.sampled_from(["Subject", "References", "In-Reply-To", "X-Corr-Private", "X-Corr-Seq", "From", "To",
                         "Message-ID", "Date"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, value=VALUE)
def test_any_header_value_mime_writes_is_what_the_email_package_writes(name: str, value: str) -> None:
    line = mime.header(name, value)
    if line is not None:
        assert line == email_package_header(name, value)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.from_regex(r"<[a-z0-9.]{1,60}@[a-z.]{1,12}>", fullmatch=True), min_size=1, max_size=20),
       name=st.sampled_from(["References", "In-Reply-To", "Subject"]))
def test_a_long_list_of_message_ids_folds_as_the_email_package_folds_it(words: list[str], name: str) -> None:
    value = " ".join(words)
    line = mime.header(name, value)
    assert line is not None
    assert line == email_package_header(name, value)


ADDRESS = st.tuples(st.from_regex(r"[A-Za-z0-9'+_-]{1,12}( [A-Za-z0-9!#-]{1,12}){0,3}", fullmatch=True),
                    st.from_regex(r"[a-z0-9._+-]{1,20}@[a-z0-9-]{1,10}(\.[a-z]{2,5}){0,2}", fullmatch=True))


@settings(max_examples=200, deadline=None)
@given(pair=ADDRESS, bare=st.booleans())
def test_an_address_mime_writes_reads_back_as_the_email_package_reads_it(pair: tuple[str, str], bare: bool) -> None:
    value = pair[1] if bare else f"{pair[0]} <{pair[1]}>"
    line = mime.header("To", value)
    if line is None:
        return
    assert line == email_package_header("To", value)
    msg = EmailMessage()
    msg["To"] = value
    assert str(msg["To"]) == value  # so the outbox's identity of it is the same
    assert mime.address_domain(value) == msg["To"].addresses[0].domain


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sender=ADDRESS, to=ADDRESS, bare=st.tuples(st.booleans(), st.booleans()))
def test_the_envelope_of_a_message_mime_writes_is_what_the_flush_reads_back(
        tmp_path: Path, sender: tuple[str, str], to: tuple[str, str], bare: tuple[bool, bool]) -> None:
    path = tmp_path / "combat.corr"
    if not path.exists():
        new_game(tmp_path, "combat")
    made = drafts(engine.load(path))[0]
    addresses = {"From": sender[1] if bare[0] else f"{sender[0]} <{sender[1]}>",
                 "To": to[1] if bare[1] else f"{to[0]} <{to[1]}>"}
    changed = Draft([(name, addresses.get(name, value)) for name, value in made.headers], made.text, made.html,
                    made.log, made.rep, None)
    if changed.written() is not None:
        assert sent_as_written(changed)


BODY = st.text(alphabet=st.characters(codec="utf-8"), max_size=600) | st.lists(
    st.text(alphabet=string.printable + "é=Ж \t", max_size=120), max_size=20).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(text=BODY, subtype=st.sampled_from(["plain", "html"]))
def test_any_text_part_is_encoded_as_set_content_encodes_it(text: str, subtype: str) -> None:
    version = subtype == "html"  # the part add_alternative made carries MIME-Version
    part = (EmailMessage if version else MIMEPart)(policy=email.policy.default)
    try:
        part.set_content(text, subtype=subtype, charset="utf-8")
    except UnicodeEncodeError:  # a lone surrogate: mime declines it as well
        assert mime._text_part(text, subtype, version) is None
        return
    assert mime._text_part(text, subtype, version) == part.as_bytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=BODY, html=BODY, subject=st.lists(WORD, min_size=1, max_size=14).map(" ".join),
       log=st.binary(min_size=1, max_size=400) | st.none())
def test_any_message_of_corrs_shape_is_written_as_the_email_package_writes_it(
        tmp_path: Path, text: str, html: str, subject: str, log: bytes | None) -> None:
    path = tmp_path / "combat.corr"
    if not path.exists():
        new_game(tmp_path, "combat")
    made = drafts(engine.load(path))[0]
    headers = [(name, subject if name == "Subject" else value) for name, value in made.headers]
    try:
        changed = Draft(headers, text, html, log, made.rep, None)
        expected = kept(changed)
    except Exception:  # noqa: BLE001 - a message the email package refuses: mime must decline it
        assert changed.written() is None
        return
    data = changed.written()
    if data is not None:
        assert boundaries_named(data) == expected
        assert sent_as_written(changed)


LINE = (st.binary(max_size=200).map(lambda b: b.replace(b"\n", b"").replace(b"\r", b""))
        | st.text(alphabet=string.printable[:95] + "=\tЖ", max_size=200).map(str.encode)
        | st.tuples(st.integers(60, 90), st.sampled_from([" ", "\t", "=", "é", "a"])).map(
            lambda n: ("x" * n[0] + n[1]).encode()))


@settings(max_examples=500, deadline=None)
@given(lines=st.lists(LINE, min_size=1, max_size=12))
def test_quoted_printable_is_quoprimimes(lines: list[bytes]) -> None:
    from email import quoprimime

    body = b"\n".join(lines) + b"\n"
    assert mime._quoted_printable(lines) == quoprimime.body_encode(body.decode("latin-1"), 78).encode("ascii")
