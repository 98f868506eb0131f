"""`corr host run --tournaments DIR`: the host runs an event - pairs each round into
its games folder, announces the games, takes their results as they end, mails every
player the standings after each round and at the end. With real parts: a Maildir, an
SMTP server on 127.0.0.1 (aiosmtpd), the games played to their ends on disk."""

from __future__ import annotations

import json
import mailbox
from pathlib import Path
from typing import Any

from test_tournament_event import play_round

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>", "Dan <dan@example.org>"]


def setup(tmp_path: Path, corr: Any, port: int) -> tuple[Path, Path, list[str]]:
    events, games = tmp_path / "events", tmp_path / "games"
    events.mkdir()
    games.mkdir()
    mailbox.Maildir(tmp_path / "Maildir", create=True)
    (tmp_path / "smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Club <club@example.org>"\n')
    made = corr("tournament", "new", events / "club.tour", "--game", "combat", "--system", "round-robin",
                *(a for p in PLAYERS for a in ("-p", p)))
    assert made.code == 0, made.err
    argv = ["host", "run", "--maildir", tmp_path / "Maildir", "--games", games, "--smtp", tmp_path / "smtp.toml",
            "--tournaments", events, "--once"]
    return events, games, argv


def test_the_host_runs_a_round_robin_from_pairing_to_final_standings(tmp_path: Path, corr: Any,
                                                                      smtp_server: Any) -> None:
    inbox, port = smtp_server
    events, games, argv = setup(tmp_path, corr, port)
    r = corr(*argv)
    assert r.code == 0, r.err
    assert "club.tour: round 1 paired: 2 games" in r.out
    got = inbox.take()
    assert sorted(rcpt[0] for rcpt, _ in got) == sorted(p.split("<")[1][:-1] for p in PLAYERS)
    assert all("new game" in str(m["Subject"]) for _, m in got)  # each player's game announced
    for number in (1, 2, 3):
        play_round(games, number)  # the players finish the round's games
        r = corr(*argv)
        assert r.code == 0, r.err
        assert r.out.count("result taken") == 2
        got = inbox.take()
        standings = [m for _, m in got if "standings" in str(m["Subject"])]
        assert len(standings) == 4 and all(m["Auto-Submitted"] == "auto-generated" for m in standings)
        final = number == 3
        assert all(("final standings" if final else f"standings after round {number}") in str(m["Subject"])
                   for m in standings)
        body = standings[0].get_body(("plain",)).get_content()
        assert "Pts" in body and "Anna" in body
        assert standings[0].get_body(("html",)) is not None
        if not final:
            assert f"round {number + 1} paired" in r.out
            assert sum("new game" in str(m["Subject"]) for _, m in got) == 4
    data = json.loads(corr("tournament", "standings", events / "club.tour", "--format", "json").out)
    assert data["finished"] and sum(row["points"] for row in data["standings"]) == 6
    assert corr("audit", events / "club.tour", "--games", games).code == 0
    r = corr(*argv)  # over: nothing more to pair, and the standings go out once
    assert r.code == 0 and "standings" not in r.out and "paired" not in r.out
    assert [m for _, m in inbox.take() if "standings" in str(m["Subject"])] == []


def test_a_broken_event_is_said_and_the_games_still_run(tmp_path: Path, corr: Any, smtp_server: Any) -> None:
    inbox, port = smtp_server
    events, games, argv = setup(tmp_path, corr, port)
    (events / "broken.tour").write_text("not an event\n")
    r = corr(*argv)
    assert r.code == 1
    assert "broken.tour: skipped:" in r.out and "club.tour: round 1 paired" in r.out
    assert len(inbox.take()) == 4
    r = corr("host", "run", "--maildir", tmp_path / "Maildir", "--games", games, "--smtp", tmp_path / "smtp.toml",
             "--tournaments", tmp_path / "nowhere", "--once")
    assert r.code == 1 and "--tournaments" in r.err and r.err.count("\n") == 1
