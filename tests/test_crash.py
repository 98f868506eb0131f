"""Crashes and races (issue "Hardening", item 7), with real processes.

Crashes: `corr move` and `corr mail ingest` run as separate processes and are killed
with SIGKILL at random moments, trial after trial on one log. After every kill the log
verifies (`corr audit` exit 0, or a torn last line that `corr repair` cuts, after which
it does), and nothing acknowledged is lost: every move whose process exited 0 is in the
log, at its seq. A message whose ingest was killed is taken in again, as the host takes
whatever is still in new/ on its next pass: the move lands exactly once.

Races, for the append paths tests/test_races.py does not cover (moves and challenges
are there; replies racing for one seq are in tests/test_mail_hostile.py):
`corr claim-timeout` (alone, and against the late move of the seat that ran out of
time), `corr vacation` against the move it would delay, and `corr referee rule`.
Exactly one record lands; every other writer is refused with exit 1 and a reason, and
the log audits intact. And the two paths that are not appends: `corr new` of one file
name (one game, with its own secret) and `corr repair` against moves on a torn log.

The counts run are printed in the terminal summary.
"""

from __future__ import annotations

import email.message
import email.utils
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from freezegun import freeze_time

from corr import engine, timecontrol
from corr.log import store

#: Kill trials per command.
TRIALS = 30
COUNTS: Counter[str] = Counter()
PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>"]
EMAILS = {"A": "anna@example.org", "B": "ben@example.org", "C": "cleo@example.org"}


class _Counts:
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if COUNTS:
            terminalreporter.write_line("test_crash: " + ", ".join(f"{k} {v}" for k, v in COUNTS.items()))


@pytest.fixture(scope="module", autouse=True)
def _print_counts(request: pytest.FixtureRequest) -> Iterator[None]:
    manager = request.config.pluginmanager
    if not manager.has_plugin("corr-crash-counts"):
        manager.register(_Counts(), "corr-crash-counts")
    yield


def spawn(args: list[str | Path], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "corr", *map(str, args)], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def timed_run(args: list[str | Path], cwd: Path) -> float:
    """Seconds a whole run of the command takes here (it must succeed)."""
    start = time.monotonic()
    proc = spawn(args, cwd)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    return time.monotonic() - start


def kill_at(proc: subprocess.Popen[bytes], delay: float) -> tuple[int, str]:
    """SIGKILL the process after `delay` seconds (harmless when it has ended: it is not
    reaped yet); its exit code (-9 when the kill ended it) and stderr."""
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err.decode("utf-8", "replace")


def delays(duration: float, rng: random.Random) -> Iterator[float]:
    """Kill moments: half spread over the whole run, half around its end, where the
    append happens."""
    for trial in range(TRIALS):
        yield rng.uniform(0, duration * 1.2) if trial % 2 else rng.uniform(duration * 0.7, duration * 1.05)


def verify(corr: Callable[..., Any], path: Path) -> None:
    """The log verifies: audit passes, or a torn last line is cut by repair and then it does."""
    r = corr("audit", path)
    if r.code != 0:
        log = store.read(path)
        assert log.torn is not None, f"a kill left the log corrupt, not merely torn: {r.out}"
        COUNTS["torn lines repaired"] += 1
        assert corr("repair", path).code == 0
        r = corr("audit", path)
        assert r.code == 0, r.out


def still_there(path: Path, acked: dict[int, str]) -> None:
    records = store.read(path).records
    for seq, move in acked.items():
        assert seq <= len(records) and records[seq - 1].move == move, f"acknowledged seq {seq} {move} is lost"


def next_move(path: Path, rng: random.Random) -> tuple[int, str] | None:
    rep = engine.load(path)
    if rep.to_move() is None:
        return None
    return rep.seq, str(rng.choice(rep.game.legal_moves(rep.state)))


# ---------------------------------------------------------------------------------
# kill -9


def test_kill_9_during_corr_move_loses_nothing_acknowledged(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    path = tmp_path / "k.corr"
    engine.new_game(path, "combat", ["Anna", "Ben", "Cleo"], {})
    acked: dict[int, str] = {}
    runs = []
    for _ in range(3):  # how long a whole, warm run takes here
        seq, move = next_move(path, rng)  # type: ignore[misc]
        runs.append(timed_run(["move", path, move, "--at", seq, "-f", "none"], tmp_path))
        acked[seq + 1] = move
    duration = sorted(runs)[1]
    for delay in delays(duration, rng):
        found = next_move(path, rng)
        if found is None:  # the game is over: go on in a new one
            path = tmp_path / f"k{len(acked)}.corr"
            engine.new_game(path, "combat", ["Anna", "Ben", "Cleo"], {})
            acked = {}
            found = next_move(path, rng)
        seq, move = found  # type: ignore[misc]
        code, err = kill_at(spawn(["move", path, move, "--at", seq, "-f", "none"], tmp_path), delay)
        COUNTS["move kill trials"] += 1
        assert code in (0, -signal.SIGKILL), f"corr move exited {code}: {err}"
        verify(corr, path)
        records = store.read(path).records
        assert len(records) in (seq, seq + 1)
        if len(records) == seq + 1:
            assert records[-1].move == move
        if code == 0:
            COUNTS["moves acknowledged before the kill"] += 1
            acked[seq + 1] = move
        elif len(records) == seq + 1:
            COUNTS["moves killed after their append"] += 1
        still_there(path, acked)


def reply(game_id: str, seq: int, seat: str, move: str, message_id: str) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"] = EMAILS[seat]
    msg["To"] = "host@example.org"
    msg["Subject"] = f"Re: [corr {game_id}] {seq}. x"
    msg["Message-ID"] = message_id
    msg["Date"] = email.utils.formatdate()
    msg.set_content(f"{move}\n")
    return msg.as_bytes()


def test_kill_9_during_corr_mail_ingest_loses_nothing_and_a_retry_lands_once(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    games = tmp_path / "games"
    games.mkdir()
    path = games / "g.corr"
    engine.new_game(path, "combat", PLAYERS, {})
    game_id = engine.load(path).header.id
    sidecar = games / "g.corr.mail.json"

    def message(n: int) -> tuple[Path, int, str]:
        rep = engine.load(path)
        move = str(rng.choice(rep.game.legal_moves(rep.state)))
        msg = tmp_path / f"m{n}.eml"
        msg.write_bytes(reply(game_id, rep.seq, rep.to_move(), move, f"<m{n}@example.org>"))  # type: ignore[arg-type]
        return msg, rep.seq, move

    acked: dict[int, str] = {}
    runs = []
    for n in range(3):  # how long a whole, warm run takes here
        msg, seq, move = message(n)
        runs.append(timed_run(["mail", "ingest", msg, "--games", games], tmp_path))
        acked[seq + 1] = move
    duration = sorted(runs)[1]
    for n, delay in enumerate(delays(duration, rng), start=3):
        if engine.load(path).to_move() is None:
            pytest.fail("the game ended before the trials did: use a longer game")
        msg, seq, move = message(n)
        code, err = kill_at(spawn(["mail", "ingest", msg, "--games", games], tmp_path), delay)
        COUNTS["ingest kill trials"] += 1
        assert code in (0, -signal.SIGKILL), f"corr mail ingest exited {code}: {err}"
        verify(corr, path)
        if sidecar.exists():
            json.loads(sidecar.read_text())  # replaced atomically: never half written
        leftovers = [p.name for p in games.iterdir() if p.name.startswith(".")]
        COUNTS["temporary files a kill left in the games folder"] = max(
            len(leftovers), COUNTS["temporary files a kill left in the games folder"])
        if code == 0:
            COUNTS["messages acknowledged before the kill"] += 1
            acked[seq + 1] = move
        still_there(path, acked)
        before = path.read_bytes()
        landed = len(store.read(path).records) == seq + 1
        # The host takes a message still in new/ again on its next pass.
        again = corr("mail", "ingest", msg, "--games", games)
        if landed:  # taken already: the retry is refused or a no-op, and changes no log
            COUNTS["messages killed after their append" if code else "acknowledged messages taken again"] += 1
            assert again.code in (0, 1) and path.read_bytes() == before, (again.code, again.out, again.err)
        else:
            assert again.code == 0, again.err
        records = store.read(path).records
        assert len(records) == seq + 1 and records[-1].move == move, "the message's move did not land exactly once"
        acked[seq + 1] = move
        still_there(path, acked)


# ---------------------------------------------------------------------------------
# Races


def race(commands: list[list[str | Path]], cwd: Path) -> list[subprocess.CompletedProcess[str]]:
    """Start every command at once (as separate processes) and wait for them all."""
    procs = [subprocess.Popen([sys.executable, "-m", "corr", *map(str, c)], cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for c in commands]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    COUNTS["race rounds"] += 1
    COUNTS["racing processes"] += len(commands)
    return out


def one_lands(results: list[subprocess.CompletedProcess[str]], path: Path, before: int, corr) -> list[Any]:  # type: ignore[no-untyped-def]
    """Exactly one writer won and appended; the others were refused with a reason."""
    won = [r for r in results if r.returncode == 0]
    assert len(won) == 1, [(r.args[3:], r.returncode, r.stderr) for r in results]
    for r in results:
        if r.returncode:
            assert r.returncode == 1 and r.stderr.startswith("corr: error:") and r.stderr.count("\n") == 1, r.stderr
    log = store.read(path)
    assert corr("audit", path).code == 0
    new = log.records[before:]
    assert len(new) == 1, [(x.type, x.by) for x in new]
    return new


def overdue_game(path: Path) -> None:
    """Three seats, a day per move, A's move made long ago: B is years overdue."""
    with freeze_time("2020-01-01 12:00:00"):
        engine.new_game(path, "combat", ["Anna", "Ben", "Cleo"], {}, time_control=timecontrol.parse("per-move:1"))
        engine.act(path, "move", text="7 (8,7)")


def test_racing_timeout_claims_record_one_forfeit(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    for n in (2, 4, 6):
        path = tmp_path / f"t{n}.corr"
        overdue_game(path)
        results = race([["claim-timeout", path.name, "--by", "AC"[i % 2]] for i in range(n)], tmp_path)
        (record,) = one_lands(results, path, 1, corr)
        assert record.type == "timeout"
        assert engine.load(path).forfeit == "B"


def test_a_timeout_claim_racing_the_late_move_lets_one_of_them_land(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    landed = Counter()
    for n in range(4):
        path = tmp_path / f"l{n}.corr"
        overdue_game(path)
        late = ["move", path.name, "8 (4,6)", "--by", "B", "--at", "1", "-f", "none"]
        claims = [["claim-timeout", path.name, "--by", seat] for seat in "AC"]
        results = race([late, *claims] if n % 2 else [*claims, late], tmp_path)
        (record,) = one_lands(results, path, 1, corr)
        landed[record.type] += 1
        rep = engine.load(path)
        assert (rep.forfeit == "B") == (record.type == "timeout")
    for kind, won in sorted(landed.items()):
        COUNTS[f"late move vs claim rounds won by the {kind}"] += won


def test_racing_vacations_and_the_move_they_would_delay_land_once(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    for n in range(3):
        path = tmp_path / f"v{n}.corr"
        engine.new_game(path, "combat", ["Anna", "Ben"], {}, time_control=timecontrol.parse("per-move:3,vacation=5"))
        engine.act(path, "move", text="7 (8,7)")
        vacations = [["vacation", path.name, "--by", "B", "--days", "3"] for _ in range(2 + n)]
        move = ["move", path.name, "8 (4,6)", "--by", "B", "--at", "1", "-f", "none"]
        results = race([*vacations, move], tmp_path)
        (record,) = one_lands(results, path, 1, corr)
        assert record.type in ("vacation", "move")


def test_racing_referee_rulings_on_one_record_land_once(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    assert corr("key", "new", "--out", tmp_path / "rita").code == 0
    key, pub = tmp_path / "rita.key", tmp_path / "rita.pub"
    for n in (2, 4):
        path = tmp_path / f"r{n}.corr"
        r = corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--referee", "Rita <rita@example.org>",
                 "--referee-key", pub, "-f", "none")
        assert r.code == 0, r.err
        for move in ("7 (8,7)", "8 (4,6)", "6 (8,4)"):
            engine.act(path, "move", text=move)
        results = race([["referee", "rule", path.name, "--seq", "3", "--void", "--reason", f"racer {i}", "--sign", key,
                         "-f", "none"] for i in range(n)], tmp_path)
        (record,) = one_lands(results, path, 3, corr)
        assert record.type == "ruling" and record.target == 3


def test_racing_new_games_on_one_file_name_make_one_game(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    """`corr new` on a name several processes pick at once: one game, and in a card game
    the dealer's secret is the one its header commits to."""
    for game, n in (("combat", 4), ("cards", 4)):
        name = f"{game}.corr"
        players = ["-p", "Anna", "-p", "Ben", "-p", "Cleo"]
        results = race([["new", game, name, *players, "-f", "none"] for _ in range(n)], tmp_path)
        won = [r for r in results if r.returncode == 0]
        assert len(won) == 1, [(r.returncode, r.stderr) for r in results]
        for r in results:
            if r.returncode:
                assert r.returncode == 1 and "already exists" in r.stderr, r.stderr
        report = json.loads(corr("audit", tmp_path / name, "--json").out)
        assert report["intact"], report
        if game == "cards":
            assert report["deal"]["checked"], report["deal"]  # the secret beside it matches the commitment


def test_repair_racing_moves_on_a_torn_log(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    """A torn last line, `corr repair` twice and moves for the seat on turn at once: the
    tear is cut once and kept in FILE.torn, at most one move lands, the log audits."""
    for round_no in range(3):
        path = tmp_path / f"t{round_no}.corr"
        engine.new_game(path, "combat", ["Anna", "Ben"], {})
        engine.act(path, "move", text="7 (8,7)")
        torn = b'{"seq":2,"type":"move","by":"B","at":"2026-'
        with open(path, "ab") as f:
            f.write(torn)
        repairs = [["repair", path.name] for _ in range(2)]
        moves = [["move", path.name, move, "--at", "1", "-f", "none"] for move in ("8 (4,6)", "6 (8,4)")]
        results = race([*repairs, *moves] if round_no % 2 else [*moves, *repairs], tmp_path)
        for r in results:
            if r.args[3] == "repair":
                assert r.returncode == 0, r.stderr
            else:
                assert r.returncode in (0, 1, 2) and "internal error" not in r.stderr, r.stderr
        assert Path(f"{path}.torn").read_bytes() == torn
        log = store.read(path)
        assert log.torn is None and len(log.records) in (1, 2)
        assert sum(r.returncode == 0 for r in results if r.args[3] == "move") == len(log.records) - 1
        assert corr("audit", path).code == 0
