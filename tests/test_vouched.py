"""A game that names a host is vouched for by it (format 2, DESIGN 6): every record its
seat does not sign carries the host's signature, and so does what a seat alone is
told; a player's copy takes no record, and keeps no panel, that neither signs."""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest

from corr import engine
from corr.engine.keys import vouched
from corr.identity import load_private, verify
from corr.log import store

PLAYERS = ("-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>")
HOST = "Hal <hal@example.org>"


@pytest.fixture
def keys(tmp_path: Path, corr) -> Path:  # type: ignore[no-untyped-def]
    assert corr("key", "new", "--out", tmp_path / "hal", "--role", "host").code == 0
    assert corr("key", "new", "--out", tmp_path / "eve").code == 0
    return tmp_path


def hosted_combat(corr, keys: Path) -> Path:  # type: ignore[no-untyped-def]
    path = keys / "games" / "club.corr"
    result = corr("new", "combat", path, *PLAYERS, "--host", HOST, "--host-key", keys / "hal.pub", "-f", "none")
    assert result.code == 0, result.err
    return path


def test_a_record_of_a_hosted_game_is_refused_without_the_hosts_key(corr, keys: Path) -> None:
    path = hosted_combat(corr, keys)
    before = path.read_bytes()
    result = corr("move", path, "7 (8,7)")
    assert result.code == 1 and "host" in result.err and "--sign" in result.err
    assert path.read_bytes() == before
    result = corr("move", path, "7 (8,7)", "--sign", keys / "eve.key")
    assert result.code == 1 and "not the key of any seat" in result.err
    assert path.read_bytes() == before


def test_the_host_signs_a_keyless_seats_move_and_every_copy_checks_it(corr, keys: Path) -> None:
    path = hosted_combat(corr, keys)
    assert vouched(store.read(path).header)
    result = corr("move", path, "7 (8,7)", "--sign", keys / "hal.key", "--format", "none")
    assert result.code == 0, result.err
    log = store.read(path)
    (record,) = log.records
    assert record.by == "A" and record.sig is not None
    verify(log.header.host.key, log.header.id, record, "host")  # type: ignore[union-attr]
    assert corr("audit", path).code == 0


def test_an_unsigned_record_in_a_hosted_game_makes_the_log_corrupt(corr, keys: Path) -> None:
    """A record nobody signed, appended by hand to a game the host vouches for: every
    copy refuses the log, as it would a forged signature."""
    path = hosted_combat(corr, keys)
    assert corr("move", path, "7 (8,7)", "--sign", keys / "hal.key", "-f", "none").code == 0
    rows = path.read_bytes().split(b"\n")[:-1]
    record = json.loads(rows[-1])
    del record["sig"]
    rows[-1] = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
    path.write_bytes(b"".join(row + b"\n" for row in rows))
    result = corr("audit", path, "--json")
    assert result.code == 2
    assert json.loads(result.out)["findings"][-1]["kind"] == "signature"


def test_the_host_vouches_for_the_moves_it_takes_by_mail(corr, keys: Path, smtp_server) -> None:  # type: ignore[no-untyped-def]
    """A hosted game played by plain-text replies: the host takes Anna's move with its key
    (`corr host run --key`), and the copy Ben keeps from the host's mail verifies it."""
    inbox, port = smtp_server
    path = hosted_combat(corr, keys)
    maildir = keys / "Maildir"
    mailbox.Maildir(maildir, create=True)
    config = keys / "smtp.toml"
    config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\ntimeout = 10\n')

    def run(*extra: str):  # type: ignore[no-untyped-def]
        return corr("host", "run", "--maildir", maildir, "--games", keys / "games", "--smtp", config, "--once", *extra)

    assert run("--key", keys / "hal.key").code == 0
    inbox.take()
    game_id = store.read(path).header.id
    reply = EmailMessage()
    reply["From"] = "Anna <anna@example.org>"
    reply["To"] = HOST
    reply["Subject"] = f"Re: [corr {game_id}] 0. new game"
    reply["Message-ID"] = "<anna-1@example.org>"
    reply.set_content("7 (8,7)\n")
    mailbox.Maildir(maildir, create=False).add(reply)
    result = run("--key", keys / "hal.key")
    assert result.code == 0, result.out + result.err
    assert "played seq 1 A 7 (8,7)" in result.out
    (record,) = store.read(path).records
    assert record.sig is not None
    to_ben = next(msg for rcpt, msg in inbox.messages() if rcpt == ["ben@example.org"])
    eml = keys / "to-ben.eml"
    eml.write_bytes(to_ben.as_bytes())
    bens = keys / "bens"
    assert corr("mail", "ingest", eml, "--games", bens, "--new").code == 0
    assert corr("audit", bens / f"{game_id}.corr").code == 0


def test_without_the_hosts_key_the_host_takes_no_move_and_says_why(corr, keys: Path, smtp_server) -> None:  # type: ignore[no-untyped-def]
    inbox, port = smtp_server
    path = hosted_combat(corr, keys)
    maildir = keys / "Maildir"
    mailbox.Maildir(maildir, create=True)
    config = keys / "smtp.toml"
    config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\ntimeout = 10\n')
    game_id = store.read(path).header.id
    reply = EmailMessage()
    reply["From"] = "Anna <anna@example.org>"
    reply["Subject"] = f"Re: [corr {game_id}] 0. new game"
    reply["Message-ID"] = "<anna-1@example.org>"
    reply.set_content("7 (8,7)\n")
    mailbox.Maildir(maildir, create=False).add(reply)
    before = path.read_bytes()
    result = corr("host", "run", "--maildir", maildir, "--games", keys / "games", "--smtp", config, "--once")
    assert result.code == 1 and "host" in result.out
    assert path.read_bytes() == before


def test_a_strangers_panel_is_not_kept_by_a_players_copy(corr, keys: Path) -> None:
    """The host's message to Ben, with its private panel swapped for a stranger's: the
    log is the host's own (nothing to refuse there), the panel is not signed by the
    host, so Ben's copy keeps the card the host told him."""
    game = keys / "games" / "cards.corr"
    result = corr("new", "cards", game, *PLAYERS, "--host", HOST, "--host-key", keys / "hal.pub", "--dealer-key",
                  keys / "hal.key", "-f", "none")
    assert result.code == 0, result.err
    assert corr("mail", "compose", game, "--to", "B", "--out", keys / "m.eml").code == 0
    raw = (keys / "m.eml").read_bytes()
    bens = keys / "bens"
    assert corr("mail", "ingest", keys / "m.eml", "--games", bens, "--new").code == 0
    (copy,) = bens.glob("*.corr")
    told = json.loads(corr("show", copy, "--for", "B", "-f", "json").out)["hand"]
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    fake = [1 if told != [1] else 2]
    del msg["X-Corr-Private"]
    msg["X-Corr-Private"] = json.dumps({"hand": fake}, separators=(",", ":"))
    del msg["Message-ID"]
    msg["Message-ID"] = "<eve-1@example.org>"
    (keys / "eve.eml").write_bytes(msg.as_bytes())
    result = corr("mail", "ingest", keys / "eve.eml", "--games", bens)
    assert result.code == 0 and "private panel ignored" in result.out and "host's signature" in result.out
    assert json.loads(corr("show", copy, "--for", "B", "-f", "json").out)["hand"] == told
    del msg["X-Corr-Private-Sig"]
    (keys / "eve.eml").write_bytes(msg.as_bytes())
    result = corr("mail", "ingest", keys / "eve.eml", "--games", bens)
    assert "private panel ignored" in result.out
    assert json.loads(corr("show", copy, "--for", "B", "-f", "json").out)["hand"] == told


def test_a_format_1_hosted_log_is_read_as_before(tmp_path: Path) -> None:
    """Logs written before format 2 keep their rules: a hosted game's keyless records
    carry no signature there, and it verifies."""
    from corr.engine.header import make_header
    from corr.identity import new_key, read_public

    key, pub = new_key(tmp_path / "hal")
    header = make_header("combat", ["Anna", "Ben"], {}, officials={"host": (HOST, read_public(str(pub)))})
    old = header._replace(corr=1)
    raw = store.dump(old)
    log = store.GameLog(path=tmp_path / "old.corr", header=old, header_raw=raw, size=len(raw) + 1)
    table = engine.replay(log)
    records = table.add("move", "A", "7 (8,7)")
    assert records[0].sig is None
    (tmp_path / "old.corr").write_bytes(store.text(table.log))
    assert engine.load(tmp_path / "old.corr").seq == 1
    assert load_private(key) is not None
