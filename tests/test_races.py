"""Writers racing one log: for every append path, exactly one record lands per seq, and
the others are refused with a reason rather than played for the next seat."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from corr import engine
from corr.log import store



def race(commands: list[list[str]], cwd: Path) -> list[subprocess.CompletedProcess[str]]:
    """Start every command at once (as separate processes) and wait for them all."""
    procs = [subprocess.Popen([sys.executable, "-m", "corr", *c], cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for c in commands]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


def test_racing_moves_for_one_seq_land_exactly_once(tmp_path: Path) -> None:
    engine.new_game(tmp_path / "r.corr", "combat", ["Anna", "Ben"], {})
    for n in range(2, 9, 3):
        current = engine.load(tmp_path / "r.corr")
        before = current.seq
        moves = [str(m) for m in current.game.legal_moves(current.state)[::7][:n]]  # each legal now
        results = race([["move", "r.corr", m, "--at", str(before), "-f", "none"] for m in moves], tmp_path)
        won = [r for r in results if r.returncode == 0]
        assert len(won) == 1, [r.stderr for r in results]
        for r in results:
            if r.returncode:
                assert r.returncode == 1 and ("stale" in r.stderr or "changed while" in r.stderr), r.stderr
        log = store.read(tmp_path / "r.corr")
        assert len(log.records) == before + 1
        engine.replay(log)


def test_racing_challenges_of_one_move_decide_it_once(tmp_path: Path) -> None:
    path = tmp_path / "c.corr"
    engine.new_game(path, "combat", ["Anna", "Ben", "Cleo"], {"mode": "as-written"})
    engine.act(path, "move", text="7 (8,7)")
    engine.act(path, "move", text="7 (8,8)")  # B repeats A's 7 in field 8: illegal, unseen
    results = race([["challenge", "c.corr", "--by", seat, "--seq", "2", "-f", "none"] for seat in "AC"], tmp_path)
    assert sorted(r.returncode for r in results) == [0, 1], [r.stderr for r in results]
    log = store.read(path)
    assert [r.type for r in log.records] == ["move", "move", "challenge"]
    report = json.loads(subprocess.run([sys.executable, "-m", "corr", "audit", "c.corr", "--json"], cwd=tmp_path,
                                       capture_output=True, text=True).stdout)
    assert report["intact"]


def test_racing_host_passes_take_one_reply_per_seq(tmp_path: Path, smtp_server) -> None:  # type: ignore[no-untyped-def]
    """Two host processes over one Maildir, and every seat's address sending a move for
    seq 0 (only Anna's may count): one record lands, whichever pass reads it first."""
    import mailbox
    from email.message import EmailMessage

    _, port = smtp_server
    games = tmp_path / "games"
    games.mkdir()
    maildir = tmp_path / "Maildir"
    box = mailbox.Maildir(maildir, create=True)
    (tmp_path / "smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "host@example.org"\n')
    rep = engine.new_game(games / "g.corr", "combat", ["Anna <anna@example.org>", "Ben <ben@example.org>"], {})
    moves = [str(m) for m in rep.game.legal_moves(rep.state)[::9][:6]]
    for i, move in enumerate(moves):
        msg = EmailMessage()
        msg["From"] = "anna@example.org"
        msg["To"] = "host@example.org"
        msg["Subject"] = f"Re: [corr {rep.header.id}] 0. new game"
        msg["Message-ID"] = f"<race-{i}@example.org>"
        msg.set_content(move + "\n")
        box.add(msg)
    run = ["host", "run", "--maildir", str(maildir), "--games", str(games), "--smtp", "smtp.toml", "--once"]
    results = race([run, run], tmp_path)
    assert all(r.returncode in (0, 1) for r in results), [r.stderr for r in results]
    assert "internal error" not in "".join(r.stdout + r.stderr for r in results)
    log = store.read(games / "g.corr")
    assert len(log.records) == 1 and log.records[0].move in moves
    engine.replay(log)
    assert not any((maildir / "new").iterdir())  # every message was handled by one pass or the other
