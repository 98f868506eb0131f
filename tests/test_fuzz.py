"""Hostile input, generated (issue "Hardening", item 6): move notation, log lines, whole
logs and mail messages, through the real `corr` command line (run in-process: `corr
move`, every reading command, `corr mail ingest`, one `corr host run --once` pass with a
real Maildir and SMTP server) and the library (`corr.audit.audit` against
`corr.engine.replay`).

For every generated input:

- no traceback and no `internal error`: `main` returns or exits with 0, 1 or 2;
- a refusal changes nothing: every file in the folder byte for byte, and no new file
  beyond what the command documents (`corr repair`: FILE.torn; `corr mail ingest
  --new`: the adopted `<game-id>.corr` and its FILE.mail.json);
- what is taken is only appended, and leaves a log that `corr audit` calls intact; a
  log `corr audit` calls intact has every line in canonical form (DESIGN 2: "a record
  has one valid encoding"); a log it calls corrupt is never extended by `corr move`.

Budgets are fixed and derandomized (no example database): CI runs the same examples on
every run (see BUDGET; the counts run are printed in the terminal summary). By hand,
CORR_FUZZ_SCALE=N runs N times as many and CORR_FUZZ_RANDOM=1 draws new ones.

Every input that ever made one of these tests fail is kept in tests/corpus/: when a
check fails, the final (shrunk) example is written there as `move-*.txt`, `log-*.corr`
or `mail-*.eml` (with CORR_FUZZ_KEEP=1, so that ordinary runs never write into the
checkout), and `test_corpus` replays every
corpus file through the same checks on every run.
"""

from __future__ import annotations

import base64
import contextlib
import email
import email.policy
import functools
import hashlib
import io
import json
import mailbox
import os
import random
import re
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from freezegun import freeze_time
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from corr import audit as corr_audit
from corr import engine, randomplay
from corr.engine import dealer
from corr.cli import main
from corr.errors import CorrError
from corr.log import lines, store
from corr.mail.host import PASS_LOCK

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent / "examples"
CORPUS = HERE / "corpus"

#: Examples per strategy (each runs a handful of commands in-process); CORR_FUZZ_SCALE=N
#: runs N times as many, for a deeper search by hand.
BUDGET = {k: v * int(os.environ.get("CORR_FUZZ_SCALE", "1"))
          for k, v in {"notation": 800, "log": 500, "whole": 400, "mail": 500, "host": 100,
                                       "spelling": 150}.items()}
#: Examples actually run, per strategy, and corpus files replayed: printed at the end.
COUNTS: Counter[str] = Counter()

#: CORR_FUZZ_RANDOM=1 draws new examples on every run, for a search by hand; CI leaves it unset.
FUZZ = settings(
    deadline=None,
    derandomize=os.environ.get("CORR_FUZZ_RANDOM") != "1",
    database=None,
    print_blob=False,
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
                           HealthCheck.filter_too_much],
)


def fuzz(strategy: str) -> settings:
    """The fixed, derandomized settings with the strategy's budget."""
    return settings(FUZZ, max_examples=BUDGET[strategy])


class _Counts:
    """Prints the counts run in pytest's terminal summary."""

    def __init__(self, title: str, counts: Counter[str]) -> None:
        self.title, self.counts = title, counts

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.counts:
            terminalreporter.write_line(f"{self.title}: " + ", ".join(f"{k} {v}" for k, v in self.counts.items()))


@pytest.fixture(scope="module", autouse=True)
def _print_counts(request: pytest.FixtureRequest) -> Iterator[None]:
    manager = request.config.pluginmanager
    if not manager.has_plugin("corr-fuzz-counts"):
        manager.register(_Counts("test_fuzz: examples run", COUNTS), "corr-fuzz-counts")
    yield


# ---------------------------------------------------------------------------------
# Running corr and checking what it did


@dataclass
class Run:
    args: list[str]
    code: int | None
    out: str
    err: str
    crash: str | None = None  # the traceback of an exception that got out of main

    def what(self) -> str:
        text = " ".join(self.args)
        return f"`corr {text[:300]}{' ...' if len(text) > 300 else ''}`"


def cli(*args: str | Path) -> Run:
    """`corr ARGS...` in-process, with a stdout as strict as a real UTF-8 terminal's."""
    argv = [str(a) for a in args]
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    crash = None
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            main(argv)
            code: int | None = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:  # noqa: BLE001 - the contract is that nothing gets out of main
            code, crash = None, traceback.format_exc()
    return Run(argv, code, out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace"), crash)


INTERNAL = "internal error, a bug in corr"
#: What no output may hold raw: a terminal acts on it (ESC starts an escape sequence, BEL
#: rings, CR overwrites a line). Newlines and tabs lay out corr's own lines.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def clean(run: Run, codes: tuple[int, ...] = (0, 1, 2)) -> None:
    """No traceback, no internal error, an exit code the README documents."""
    assert run.crash is None, f"{run.what()} raised out of main:\n{run.crash}"
    for stream in (run.out, run.err):
        assert INTERNAL not in stream, f"{run.what()}: {stream.strip()[-600:]}"
        raw = RAW_CONTROL.search(stream)
        assert raw is None, f"{run.what()} printed a raw control character {raw and raw.group()!r}: {stream[-600:]!r}"
        assert "Traceback (most recent call last)" not in stream, f"{run.what()} printed a traceback:\n{stream}"
    assert run.code in codes, f"{run.what()} exited {run.code} (expected one of {codes}): {run.err.strip()[-600:]}"


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path, with its bytes; not the host's idle
    notes (FILE.idle.json), a cache of what a pass found to do, which any pass may write."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".idle.json")}


def unchanged(folder: Path, before: dict[str, bytes], run: Run) -> None:
    after = snapshot(folder)
    assert set(after) == set(before), f"{run.what()} (exit {run.code}) added or removed files: " \
        f"{sorted(set(after) ^ set(before))}"
    for name in before:
        assert after[name] == before[name], f"{run.what()} (exit {run.code}) changed {name}: {run.err.strip()[-300:]}"


def canonical(data: bytes) -> None:
    """Every complete line is exactly its canonical encoding and every signature is one
    that is checked, in canonical base64 (DESIGN 2: a record has one valid encoding); for
    logs audit calls intact."""
    rows = data.split(b"\n")
    assert rows[-1] == b"", "a log audit calls intact ends with a torn line"
    try:
        header = lines.read_header(rows[0])
    except lines.LineError as err:
        raise AssertionError(f"audit calls a log intact whose header the everyday reader refuses: {err}") from None
    assert lines.dump(header) == rows[0], f"audit calls a log intact whose header is not canonical: {rows[0][:200]!r}"
    from corr.engine.keys import signer_of
    named = {role for role, there in (("referee", header.referee), ("host", header.host),
                                      ("dealer", header.commitment)) if there is not None}
    authors = {s.seat for s in header.seats} | named
    for number, raw in enumerate(rows[1:-1], start=2):
        try:
            record = lines.read_record(raw)
        except lines.LineError as err:
            raise AssertionError(f"audit calls a log intact whose line {number} the reader refuses: {err}") from None
        assert lines.dump(record) == raw, f"audit calls a log intact whose line {number} is not canonical: {raw[:300]!r}"
        spelt(record, number)
        assert record.by in authors, f"audit calls a log intact whose line {number} is by {record.by!r}, not in the game"
        if record.sig is None:
            continue
        assert signer_of(header, record.by) is not None, (
            f"audit calls a log intact whose line {number} carries a signature nobody checks "
            f"({record.by} has no key): any `sig` passes, {record.sig[:40]!r}")
        try:
            again = base64.b64encode(base64.b64decode(record.sig, validate=True)).decode()
        except ValueError:
            again = None
        assert again == record.sig, (f"audit calls a log intact whose line {number} has a signature in "
                                     f"non-canonical base64: {record.sig!r}")


def spelt(record: lines.Record, number: int) -> None:
    """Each text field of a record in an intact log in its one spelling: the move as
    the notation writes it, a ruling's decision as `Decision` writes it and its reason
    without surrounding spaces, a vacation's days in ASCII digits without a leading zero."""
    from corr.decisions import parse_decision
    from corr.notation import parse

    where = f"audit calls a log intact whose line {number}"
    if record.move is not None:
        written = str(parse_decision(record.move) if record.type == "ruling" else parse(record.move))
        assert written == record.move, f"{where} spells {written!r} as {record.move!r}"
    if record.type == "ruling":
        assert record.note == (record.note or "").strip(), f"{where} has a reason with spaces around it"
    if record.type == "vacation":
        assert re.fullmatch(r"[1-9][0-9]*", record.note or ""), f"{where} has vacation days {record.note!r}"


def audited(path: Path) -> tuple[Run, dict[str, Any] | None]:
    """`corr audit FILE --json`: a verdict (0 intact, 2 corrupt) and the report."""
    run = cli("audit", path, "--json")
    clean(run, (0, 2))
    try:
        report = json.loads(run.out)
    except ValueError:
        raise AssertionError(f"{run.what()} printed no JSON report: {run.out[:300]!r} {run.err[-300:]!r}") from None
    assert report.get("intact") is (run.code == 0), f"{run.what()} exit {run.code}, report intact={report.get('intact')}"
    return run, report


def grown_and_intact(path: Path, before: bytes, run: Run) -> None:
    """What a command took was only appended, and the log still audits intact."""
    after = path.read_bytes()
    assert after.startswith(before) and len(after) > len(before), f"{run.what()} rewrote {path.name} instead of appending"
    verdict, report = audited(path)
    assert verdict.code == 0, f"{run.what()} left a log audit calls corrupt: {report and report['findings'][:1]}"
    canonical(after)


# ---------------------------------------------------------------------------------
# The corpus


def keep(kind: str, suffix: str, data: bytes) -> None:
    """Put a failing input into the corpus, named by its hash (so only once)."""
    if os.environ.get("CORR_FUZZ_KEEP") != "1":
        return
    CORPUS.mkdir(exist_ok=True)
    path = CORPUS / f"{kind}-{hashlib.sha256(data).hexdigest()[:12]}{suffix}"
    if not path.exists():
        path.write_bytes(data)


def _final_example() -> bool:
    """True while hypothesis replays the shrunk example it reports."""
    try:
        from hypothesis.control import current_build_context

        return bool(current_build_context().is_final)
    except Exception:  # noqa: BLE001 - outside a test, or a hypothesis without it
        return False


def keeping(kind: str, suffix: str, data: bytes, check: Callable[[], None]) -> None:
    """Run a check; the reported failing example goes into the corpus."""
    try:
        check()
    except BaseException:
        if _final_example():
            keep(kind, suffix, data)
        raise


# ---------------------------------------------------------------------------------
# Games to attack


MAIL_PLAYERS = ("Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>")
#: Fixed ids, so corpus messages find their game.
COMBAT_ID, DEALER_ID, PLAYER_ID = "combat-f022c001", "cards-f022d001", "cards-f022p001"


@dataclass(frozen=True)
class Game:
    """A game log (and the dealer's seed where this copy deals) ready to be put in a folder."""

    file: str
    data: bytes
    seed: str | None = None  # FILE.secret
    id: str = ""
    seq: int = 0
    on_turn: str | None = None  # its address
    other: str | None = None  # another seat's address
    move: str = "7 (5,4)"  # a legal move of the seat on turn
    extended: bytes = b""  # the log with the next record(s), as another copy would mail it
    moves: tuple[str, ...] = ()  # legal moves of the seat on turn

    def put(self, folder: Path) -> Path:
        path = folder / self.file
        path.write_bytes(self.data)
        if self.seed is not None:
            dealer.write_secret(path, dealer.Secret(self.seed))
        return path


def _game_from(rep: engine.Position, file: str, seed: str | None, extend: Callable[[engine.Position], None]) -> Game:
    data = store.text(rep.log)
    on_turn = rep.to_move()
    emails = {s.seat: s.email for s in rep.header.seats}
    moves = rep.game.legal_moves(rep.state) if on_turn and rep.game.dealt else []
    move = str(moves[0]) if moves else "7 (5,4)"
    other = next(e for s, e in emails.items() if s != on_turn)
    seq = rep.seq
    extend(rep)
    return Game(file, data, seed, rep.header.id, seq, emails.get(on_turn), other, move, store.text(rep.log))


@functools.cache
def mail_games() -> tuple[Game, ...]:
    """Three games of one games folder, always the same bytes: Combat without keys (body
    moves from the seats' addresses), a card game on the dealer's copy (FILE.secret) and
    a card game on a player's copy (no secret: the dealer's private panels are kept)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "combat.corr"
        with freeze_time("2026-03-01 10:00:00"):
            store.create(path, engine.make_header("combat", list(MAIL_PLAYERS), {})._replace(id=COMBAT_ID))
        for hour, move in ((11, "7 (8,7)"), (12, "8 (4,6)")):
            with freeze_time(f"2026-03-01 {hour}:00:00"):
                engine.act(path, "move", text=move)
        rep = engine.load(path)

        def one_more(rep: engine.Position) -> None:
            with freeze_time("2026-03-01 13:00:00"):
                rep.add("move", move=rep.game.legal_moves(rep.state)[0])

        out.append(_game_from(rep, "combat.corr", None, one_more))
    for file, game_id, seed, dealt in (("cards.corr", DEALER_ID, 7, True), ("mine.corr", PLAYER_ID, 8, False)):
        rng = random.Random(seed)
        with freeze_time("2026-03-02 10:00:00"):
            rep = randomplay.start("cards", list(MAIL_PLAYERS), {}, seed, game_id=game_id)
            randomplay.play_on(rep, rng, max_records=len(rep.log.records) + 3)

        def later(rep: engine.Position, rng: random.Random = rng) -> None:
            with freeze_time("2026-03-02 11:00:00"):
                randomplay.play_on(rep, rng, max_records=len(rep.log.records) + 1)

        game = _game_from(rep, file, randomplay.deal_seed(seed) if dealt else None, later)
        out.append(game)
    return tuple(out)


def _key(folder: Path, name: str, byte: int) -> tuple[Path, str]:
    """A fixed Ed25519 key pair (NAME.key, and the public key line)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    from corr.identity import public_text

    private = ed25519.Ed25519PrivateKey.from_private_bytes(bytes([byte]) * 32)
    path = folder / f"{name}.key"
    path.write_bytes(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    path.chmod(0o600)
    return path, public_text(private)


def _made(name: str, game: str, players: list[str], options: dict[str, str], moves: list[tuple[str, str]],
          keys: dict[str, int] | None = None, time_control: str | None = None,
          claim: tuple[str, str] | None = None) -> bytes:
    """A log made by the engine at fixed times: `moves` are (time, move) in turn."""
    from corr import timecontrol

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / f"{name}.corr"
        signers = {seat: _key(folder, seat, byte) for seat, byte in (keys or {}).items()}
        tc = timecontrol.parse(time_control) if time_control else None
        with freeze_time("2026-03-01 09:00:00"):
            header = engine.make_header(game, players, options, {s: k[1] for s, k in signers.items()}, tc)
            store.create(path, header._replace(id=f"{game}-f022{name[:4]}"))
        for when, move in moves:
            with freeze_time(when):
                on_turn = engine.load(path).to_move()
                key = signers[on_turn][0] if on_turn in signers else None
                engine.act(path, "move", text=move, key=key)
        if claim is not None:
            with freeze_time(claim[0]):
                engine.act(path, "timeout", by=claim[1])
        return path.read_bytes()


@functools.cache
def base_logs() -> tuple[tuple[str, bytes], ...]:
    """Real logs to mutate: every example, and logs with what the examples lack - a time
    control and a timeout, signatures, a header alone."""
    logs = [(p.stem, p.read_bytes()) for p in sorted(EXAMPLES.glob("*.corr"))]
    logs.append(("timed", _made("timed", "combat", ["Anna", "Ben", "Cleo"], {},
                                [("2026-03-01 10:00:00", "7 (8,7)"), ("2026-03-01 11:00:00", "8 (4,6)")],
                                time_control="per-move:3,vacation=14", claim=("2026-03-06 12:00:00", "A"))))
    logs.append(("signed", _made("signed", "combat", ["Anna", "Ben"], {},
                                 [("2026-03-01 10:00:00", "7 (8,7)"), ("2026-03-01 11:00:00", "8 (4,6)"),
                                  ("2026-03-01 12:00:00", "6 (8,4)")], keys={"A": 1, "B": 2})))
    logs.append(("fresh", _made("fresh", "moyo", ["Anna", "Ben"], {"puzzle": "1"}, [])))
    return tuple(logs)


@functools.cache
def notation_games() -> tuple[Game, ...]:
    """Intact games in progress that take moves: Combat (strict and as-written), Moyo,
    and a card game on the dealer's copy; each with its legal moves."""
    games = []
    for name, rows in (("combat-2p-anna-ben", 12), ("combat-as-written-challenge", 9), ("moyo-standard", 8)):
        data = b"".join(line + b"\n" for line in (EXAMPLES / f"{name}.corr").read_bytes().split(b"\n")[:rows])
        games.append(Game(f"{name}.corr", data))
    games.append(next(g for g in mail_games() if g.id == DEALER_ID))
    out = []
    for game in games:
        with tempfile.TemporaryDirectory() as tmp:
            rep = engine.load(game.put(Path(tmp)))
            moves = tuple(str(m) for m in rep.game.legal_moves(rep.state))
        out.append(Game(game.file, game.data, game.seed, moves=moves))
    return tuple(out)


# ---------------------------------------------------------------------------------
# The checks (shared by the fuzz tests and the corpus)


def check_move(text: str, game: Game) -> None:
    """`corr move FILE TEXT` on an intact game: refused with exit 1 and nothing changed,
    or taken (appended, still intact)."""
    with tempfile.TemporaryDirectory(prefix="corr-fuzz-") as tmp:
        folder = Path(tmp)
        path = game.put(folder)
        before = snapshot(folder)
        run = cli("move", path, text, "--format", "text")
        clean(run, (0, 1))
        if run.code:
            unchanged(folder, before, run)
        else:
            COUNTS["moves taken"] += 1
            grown_and_intact(path, game.data, run)


#: What the read-only commands are run as.
READERS = (("show",), ("show", "--format", "json"), ("show", "--format", "html"), ("log",), ("legal", "--json"),
           ("replay",), ("clock", "--json"), ("audit", "--format", "html"), ("audit",))


def candidate_move(path: Path) -> str:
    """A move that is legal at the end of the longest prefix of the log that replays:
    offered to `corr move`, so that a damaged log the engine took for intact would be
    extended."""
    rows = path.read_bytes().split(b"\n")[:-1]
    keep_rows = len(rows)
    for _ in range(6):
        try:
            log = dealer.attach(store.parse(b"".join(r + b"\n" for r in rows[:keep_rows]), path))
            rep = engine.replay(log)
            moves = rep.game.legal_moves(rep.state) if rep.to_move() is not None else []
            return str(moves[0]) if moves else "7 (5,4)"
        except CorrError as err:
            seq = getattr(err, "seq", None)
            if not isinstance(seq, int) or seq < 1 or seq >= keep_rows:
                break
            keep_rows = seq  # the header and the records before the bad one
        except Exception:  # noqa: BLE001 - only a guess for the check; the commands are checked
            break
    return "7 (5,4)"


def check_log(data: bytes) -> None:
    """Every command on a log of these bytes: read-only ones change nothing; audit gives a
    verdict; an intact log is canonical; a corrupt one is never extended by `corr move`;
    `corr repair` cuts exactly a torn last line."""
    with tempfile.TemporaryDirectory(prefix="corr-fuzz-") as tmp:
        folder = Path(tmp)
        path = folder / "game.corr"
        path.write_bytes(data)
        before = snapshot(folder)
        for command in READERS:
            run = cli(command[0], path, *command[1:])
            clean(run)
            unchanged(folder, before, run)
            if "html" in command:
                assert "<script>alert(" not in run.out, f"{run.what()} put a text of the log into HTML unescaped"
        verdict, report = audited(path)
        unchanged(folder, before, verdict)
        intact = verdict.code == 0
        if intact:
            COUNTS["logs intact"] += 1
            canonical(data)
        move = candidate_move(path)
        run = cli("move", path, move, "--format", "none")
        clean(run)
        if run.code:
            unchanged(folder, before, run)
        else:
            assert intact, (f"{run.what()} extended a log that `corr audit` calls corrupt: "
                            f"{report and report['findings'][:1]}")
            COUNTS["logs extended"] += 1
            grown_and_intact(path, data, run)
            path.write_bytes(data)
        run = cli("repair", path)
        clean(run)
        # repair also undoes an editor's CRLF line endings and byte order mark (when the
        # log then verifies): what it mends is this
        mended = (data[3:] if data.startswith(b"\xef\xbb\xbf") else data).replace(b"\r\n", b"\n")
        if run.code == 0 and mended != data:
            now = path.read_bytes()
            cut = mended[mended.rfind(b"\n") + 1:]
            assert now in (mended, mended[: len(mended) - len(cut)], mended + b"\n"), (
                f"{run.what()} mended more than line endings")
            return
        torn = data[data.rfind(b"\n") + 1:]
        if run.code == 0 and torn and data.count(b"\n") and path.read_bytes() == data + b"\n":
            # a whole last record but for its newline, kept because the log then verifies
            assert audited(path)[0].code == 0, f"{run.what()} kept a last line that does not verify"
        elif run.code == 0 and torn and data.count(b"\n"):
            assert path.read_bytes() == data[: len(data) - len(torn)], f"{run.what()} cut more than the torn line"
            assert (folder / "game.corr.torn").read_bytes() == torn
        else:
            unchanged(folder, before, run)


def check_agreement(data: bytes) -> None:
    """`corr.audit.audit` and `corr.engine.replay` call the same log intact or corrupt."""
    with tempfile.TemporaryDirectory(prefix="corr-fuzz-") as tmp:
        path = Path(tmp) / "game.corr"
        path.write_bytes(data)
        try:
            report = corr_audit.audit(path)
        except Exception:  # noqa: BLE001
            raise AssertionError(f"corr.audit.audit raised:\n{traceback.format_exc()}") from None
        try:
            log = dealer.attach(store.read(path))
            engine.replay(log)
            replayed, why = log.torn is None, "torn" if log.torn is not None else ""
        except CorrError as err:
            replayed, why = False, str(err)
        except Exception:  # noqa: BLE001
            raise AssertionError(f"corr.engine.replay raised:\n{traceback.format_exc()}") from None
        COUNTS["whole logs intact"] += replayed
        assert report["intact"] == replayed, (
            f"audit says intact={report['intact']} ({report['findings'][:1]}), replay says intact={replayed} ({why})")
        if replayed:
            canonical(data)


ALLOWED_HEADERS = {
    "from", "to", "subject", "date", "message-id", "in-reply-to", "references", "auto-submitted", "mime-version",
    "content-type", "content-transfer-encoding", "content-disposition", "x-corr-game", "x-corr-seq", "x-corr-for",
    "x-corr-private",
}


MSGID = re.compile(r"<[^\s<>]+@[^\s<>]+>")


def own_lines(run: Run, *prefixes: str) -> None:
    """Every line the command printed is one of its own: nothing from a message broke a
    line (one line per message, DESIGN 8 and the README)."""
    for line in re.split(r"\r\n|\r|\n", (run.out + run.err).rstrip("\n")):
        assert not line or line.startswith(("corr: ", *prefixes)), \
            f"{run.what()} printed a line that is not its own (a line break from the message?): {line[:300]!r}"


def hygienic(raw: bytes, where: str, rcpts: list[str] | None = None) -> None:
    """A message corr wrote: known headers only, each once, on one line, one recipient."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    names = [k.lower() for k in msg.keys()]
    extra = set(names) - ALLOWED_HEADERS
    assert not extra, f"{where}: headers corr never writes (an injection?): {sorted(extra)}\n{raw[:1500]!r}"
    for name in ("from", "to", "subject", "message-id", "in-reply-to", "references"):
        assert names.count(name) <= 1, f"{where}: {name} given {names.count(name)} times"
    for name, value in msg.items():
        assert "\r" not in str(value) and "\n" not in str(value), f"{where}: {name} holds a line break: {str(value)!r}"
    for name in ("In-Reply-To", "References"):
        for ref in str(msg[name] or "").split():
            assert MSGID.fullmatch(ref), f"{where}: {name} holds {ref!r}, not a message id"
    to = msg["To"].addresses
    assert len(to) == 1, f"{where}: To names {len(to)} addresses: {msg['To']!r}"
    if rcpts is not None:
        assert rcpts == [to[0].addr_spec], f"{where}: sent to {rcpts}, To says {to[0].addr_spec!r}"


def put_games(folder: Path) -> None:
    folder.mkdir()
    for game in mail_games():
        game.put(folder)


def check_mail(eml: bytes, new: bool = False) -> None:
    """`corr mail ingest MSG --games DIR [--new] --reply`: the games folder unchanged
    unless exit 0; what is taken is appended and intact; the same message again changes
    no log; every refusal reply is one clean message to one address."""
    with tempfile.TemporaryDirectory(prefix="corr-fuzz-") as tmp:
        games, msg, outbox = Path(tmp) / "games", Path(tmp) / "msg.eml", Path(tmp) / "outbox"
        put_games(games)
        msg.write_bytes(eml)
        before = snapshot(games)
        args = ["mail", "ingest", msg, "--games", games, "--reply", "--reply-dir", outbox, *(["--new"] if new else [])]
        run = cli(*args)
        clean(run)
        own_lines(run, str(msg))
        if run.code:
            unchanged(games, before, run)
        else:
            COUNTS["messages taken"] += 1
            after = snapshot(games)
            logs = {n for n in before if n.endswith(".corr")}
            added = set(after) - set(before)
            for name in added:
                stem = name.removesuffix(".mail.json")
                adopted = new and stem not in before and re.fullmatch(r"[0-9a-z-]{4,64}\.corr", stem)
                assert stem in logs or adopted, f"{run.what()} made {name}"
            assert set(before) <= set(after), f"{run.what()} removed {sorted(set(before) - set(after))}"
            for name in sorted(n for n in after if n.endswith(".corr")):
                if name in before and after[name] != before[name]:
                    grown_and_intact(games / name, before[name], run)
                    from_its_seat(eml, games / name, before[name], run)
                elif name not in before:
                    verdict, report = audited(games / name)
                    assert verdict.code == 0, f"{run.what()} adopted a log audit calls corrupt: {report['findings'][:1]}"
                    canonical(after[name])
            taken = snapshot(games)
            again = cli(*args)
            clean(again)
            for name in taken:
                if name.endswith(".corr"):
                    assert snapshot(games)[name] == taken[name], f"the same message ingested twice changed {name}"
        if outbox.exists():
            for reply in sorted(outbox.iterdir()):
                hygienic(reply.read_bytes(), f"{run.what()} reply {reply.name}")


HOST = "Host <host@example.org>"


def from_its_seat(eml: bytes, path: Path, before: bytes, run: Run) -> None:
    """In a game without keys, a seat's record is taken by mail only from that seat's own
    address (DESIGN 8, a weak guard); a player's copy of a card game follows the dealer's
    copy whoever forwards its log."""
    header = lines.read_header(before.split(b"\n")[0])
    if header.commitment is not None and not (path.parent / f"{path.name}.secret").exists():
        return
    try:
        senders = [a.addr_spec.lower() for a in email.message_from_bytes(eml, policy=email.policy.default)["From"].addresses]
    except Exception:  # noqa: BLE001 - a From the parser cannot read is nobody's
        senders = []
    emails = {s.seat: (s.email or "").lower() for s in header.seats if not s.key}
    for raw in path.read_bytes()[len(before):].split(b"\n")[:-1]:
        by = lines.read_record(raw).by
        if by in emails:
            assert senders == [emails[by]], f"{run.what()} took a record by {by} from {senders}, not {emails[by]!r}"


def check_host(eml: bytes, smtp: tuple[Any, int]) -> None:
    """One `corr host run --once` pass over a Maildir holding the message: no internal
    error; one line per action; the message leaves new/ (for cur/, or bad/ when it
    cannot be handled at all); games change only when it is ingested (the pass's lock
    file aside); every message sent is one clean message to one address."""
    inbox, port = smtp
    with tempfile.TemporaryDirectory(prefix="corr-fuzz-") as tmp:
        games, maildir, config = Path(tmp) / "games", Path(tmp) / "Maildir", Path(tmp) / "smtp.toml"
        put_games(games)
        for game in mail_games():  # every seat has seen the game as it is: no announcements
            mailed = {s.seat: game.seq for s in lines.read_header(game.data.split(b"\n")[0]).seats}
            (games / f"{game.file}.host.json").write_text(json.dumps({"mailed": mailed}))
        mailbox.Maildir(maildir, create=True)
        (maildir / "new" / "1700000000.fuzz.host").write_bytes(eml)
        config.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{HOST}"\ntimeout = 10\n')
        before = snapshot(games)
        inbox.take()
        run = cli("host", "run", "--maildir", maildir, "--games", games, "--smtp", config, "--once")
        clean(run, (0, 1))
        own_lines(run, "ingested ", "refused ", "set aside ", "Maildir/", "pass: ", "outbox: ",
                  *(f"{g.file}: " for g in mail_games()))
        (games / PASS_LOCK).unlink()  # the one file a pass documents it makes: one pass at a time
        assert os.listdir(maildir / "new") == [], f"{run.what()} left the message in new/"
        if "ingested" not in run.out:
            unchanged(games, before, run)
        after = snapshot(games)
        for name in set(after) - set(before):
            assert name.removesuffix(".mail.json") in before, f"{run.what()} made {name}"
        assert set(before) <= set(after), f"{run.what()} removed {sorted(set(before) - set(after))}"
        for name, data in before.items():
            if name.endswith(".corr") and after[name] != data:
                grown_and_intact(games / name, data, run)
        for envelope in inbox.take_envelopes():
            hygienic(envelope.original_content, f"{run.what()} sent", list(envelope.rcpt_tos))


# ---------------------------------------------------------------------------------
# Notation


PIECES = {
    "digit": ["7", "0", "10", "٧", "７", "⁷", "𝟕", "Ⅶ", "-1", "+7", "7.0", "1e3", "9" * 40, "9" * 4301, ""],
    "coord": ["(5,4)", "(5.4)", "(5 ,4)", "( 5,4 )", "r5c4", "R5C4", "(5,4", "5,4)", "(0,0)", "(10,1)", "(٥,٤)",
              "(５,４)", "(5,4)(5,4)", f"({'9' * 4301},4)", "(5,-4)", "(8,2)-(4,9)", "()", "(,)", "(5,4,3)",
              "(5;4)", "[5,4]", "(5,４)", f"(5,{'0' * 5000}4)"],
    "suffix": ["", " !", " !1,4", " !0", " !" + "1," * 500 + "1", " !" + "9" * 5000, " !!", "=6", " ! !", "!1,,4"],
    "prefix": ["", "grey ", "N ", "pass ", "resign ", " ", "\t", "7 ", "grey"],
    "noise": ["\r", "\n", "\x1b[31m", "\u202e", "\u200b", "\ufeff", "\x7f", "\x85", "\u2028", "\udcff", "\u0301",
              "\U0001F600", "\\", "'", '"', "%s", "{}", "\x01", "\t"],
}


#: How a legal `D (F,P)` may be written: the forgiving forms, and near misses.
FORMS = ["{d} ({f},{p})", "{d}({f},{p})", "{d} ({f}.{p})", "{d} r{f}c{p}", " {d} ( {f} , {p} ) ", "{d} ({f},{p}) !",
         "{d} ({f},{p})!", "{d} ({f},{p}) !1", "{d} R{f}C{p}", "{d}r{f}c{p}", "{d} ({f},{p}", "{d} {f},{p}",
         "{d} ({p},{f})", "({f},{p}) {d}", "{d} ({f},{p}) ({f},{p})", "{d} ({f},{p})=6", "{d}{d} ({f},{p})",
         "{d} ({f},{p}) !{f},{p}", "{d} ({f}{f},{p})", "0{d} (0{f},0{p})", "{d} ({f},{p}) !" + "1," * 200 + "1"]
#: Digits that look like digits.
LOOKALIKES = {"0": "٠０𝟎", "1": "١１¹", "2": "٢２²", "3": "٣３³", "4": "٤４⁴", "5": "٥５⁵", "6": "٦６⁶", "7": "٧７⁷",
              "8": "٨８⁸", "9": "٩９⁹"}


@st.composite
def near_misses(draw: st.DrawFn, game: Game) -> str:
    """A legal move of the game written in a forgiving form or nearly right: one part
    bent, a look-alike digit, control characters."""
    digit, rest = draw(st.sampled_from(game.moves or ("7 (5,4)",))).split(" ", 1)
    f, p = rest.strip("()").split(",")
    text = draw(st.sampled_from(FORMS)).format(d=digit, f=f, p=p)
    if draw(st.integers(0, 3)) == 3:
        at = draw(st.sampled_from([i for i, ch in enumerate(text) if ch.isdigit()] or [0]))
        if text[at:at + 1].isdigit():
            text = text[:at] + draw(st.sampled_from(LOOKALIKES[text[at]])) + text[at + 1:]
    if draw(st.integers(0, 3)) == 3:
        text = text.replace(draw(st.sampled_from([digit, f, p])), draw(st.sampled_from(PIECES["digit"])), 1)
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(PIECES["noise"])) + text[at:]
    return text


@st.composite
def bent(draw: st.DrawFn) -> str:
    """Moves put together from bent parts."""
    text = (draw(st.sampled_from(PIECES["prefix"])) + draw(st.sampled_from(PIECES["digit"]))
            + draw(st.sampled_from([" ", "", "  ", "\t"])) + draw(st.sampled_from(PIECES["coord"]))
            + draw(st.sampled_from(PIECES["suffix"])))
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(PIECES["noise"])) + text[at:]
    return text


def notations(game: Game) -> st.SearchStrategy[str]:
    return st.one_of(
        near_misses(game),
        near_misses(game),
        bent(),
        st.text(st.characters(blacklist_characters="\x00"), max_size=60),
        st.text(st.sampled_from("0123456789(),.! rcgreyN-=\t"), max_size=30),
        st.builds(lambda ch, n: ch * n, st.sampled_from(["(", "9", "!", " ", "é"]), st.integers(1000, 100_000)),
    )


@fuzz("notation")
@given(data=st.data())
def test_fuzz_notation(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(notation_games()), label="game")
    text = data.draw(notations(game), label="move")
    COUNTS["notation"] += 1
    keeping("move", ".txt", text.encode("utf-8", "surrogatepass"), lambda: check_move(text, game))


# ---------------------------------------------------------------------------------
# Log lines, mutated at byte and JSON level

BOM = b"\xef\xbb\xbf"
DATES = ["2026-02-30T12:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "0000-01-01T00:00:00Z",
         "2026-01-01T24:00:00Z", "2026-01-01T23:60:00Z", "2026-01-01T23:59:60Z", "2026-02-29T12:00:00Z",
         "2024-02-29T12:00:00Z", "9999-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2026-01-01T00:00:00+01:00",
         "2026-01-01 00:00:00Z", "2026-1-1T0:0:0Z", "٢٠٢٦-٠١-٠١T00:00:00Z", "2026-03-01T10:00:00z", ""]
#: Raw JSON texts for a field's value.
VALUES = ["0", "-1", "1", "2", "1.0", "1e400", "NaN", "-Infinity", "true", "false", "null", '""', "[]", "{}",
          "9" * 30, "9" * 4301, "-" + "9" * 5000, "18446744073709551617", '"A"', '"host"', '"dealer"', '"referee"',
          '"move"', '"reveal"', '"ruling"', '"timeout"', '"comment"', '"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"',
          '"A\\u0000"', '"\\u0041"', '"x' + "y" * 100_000 + '"', "[" * 100_000 + "]" * 100_000,
          '{"a":' * 5000 + "1" + "}" * 5000, '"7 (5,4)"', '"' + "0" * 64 + '"', '"' + "f" * 64 + '"', '"\u00e9"',
          '"\\u00e9"', '"a\\/b"', '"\u2028"', '"ed25519:' + "A" * 43 + '="', '{"kind":"per-move","days":0}',
          '{"kind":"per-move","days":' + "9" * 40 + "}", '{"kind":"bank","days":3,"cap":1}',
          '[{"seat":"A","name":"x"}]', '{"puzzle":"99"}', '"combat"', '"domino"']
FIELDS = ["seq", "type", "by", "at", "move", "target", "note", "seed", "prev", "state", "sig", "corr", "id", "game",
          "options", "seats", "time_control", "referee", "host", "commitment", "created", "extra", ""]


def _line_index(draw: st.DrawFn, rows: list[bytes]) -> int:
    return draw(st.one_of(st.just(len(rows) - 1), st.integers(0, len(rows) - 1)))


def _rechain(rows: list[bytes], start: int) -> list[bytes]:
    """Make the lines after `start` chain again (as a forger would), where they parse."""
    rows = list(rows)
    for i in range(max(start, 0) + 1, len(rows)):
        try:
            data = json.loads(rows[i])
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict) and "prev" in data:
            data["prev"] = hashlib.sha256(rows[i - 1]).hexdigest()
            rows[i] = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    return rows


def _items(raw: bytes) -> list[tuple[str, str]] | None:
    """A line's (key, raw JSON value) pairs, in order; None when it is not an object."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    return [(k, json.dumps(v, separators=(",", ":"), ensure_ascii=False)) for k, v in data.items()]


def _join(items: list[tuple[str, str]], sep: str = ",", colon: str = ":") -> bytes:
    body = sep.join(f"{json.dumps(k, ensure_ascii=False)}{colon}{v}" for k, v in items)
    return ("{" + body + "}").encode("utf-8", "surrogatepass")


@st.composite
def line_mutation(draw: st.DrawFn, rows: list[bytes]) -> list[bytes]:
    """One mutation of one line, at byte or JSON level."""
    rows = list(rows)
    i = _line_index(draw, rows)
    raw = rows[i]
    kind = draw(st.sampled_from(["flip", "insert", "delete", "utf16", "bom", "trail", "set", "drop", "dup",
                                 "spaces", "escape", "reorder", "set", "dup", "respell", "respell"]))
    items = _items(raw)
    if kind == "flip" and raw:
        at = draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + bytes([raw[at] ^ (1 << draw(st.integers(0, 7)))]) + raw[at + 1:]
    elif kind == "insert":
        at = draw(st.integers(0, len(raw)))
        junk = draw(st.sampled_from([BOM, b"\xff", b"\x00", b" ", b"\r", b"\t", b"\\", b'"', b"\xc0\x80",
                                     b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x1b", b",", b"}", b"\xe2\x80\xa8"]))
        raw = raw[:at] + junk + raw[at:]
    elif kind == "delete" and raw:
        at = draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + raw[at + draw(st.integers(1, 40)):]
    elif kind == "utf16":
        codec = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32"]))
        raw = raw.decode("utf-8", "surrogateescape").encode(codec, "surrogatepass").replace(b"\n", b"")
    elif kind == "bom":
        raw = BOM + raw
    elif kind == "trail":
        raw = raw + draw(st.sampled_from([b"\r", b" ", b"\t", b"\x00", b"  "]))
    elif items is not None and kind == "set":
        key = draw(st.sampled_from([k for k, _ in items] + FIELDS))
        value = draw(st.one_of(st.sampled_from(VALUES), st.sampled_from(DATES).map(json.dumps)))
        items = [(k, value if k == key else v) for k, v in items]
        if key not in dict(items):
            items.append((key, value))
        raw = _join(items)
    elif items is not None and kind == "drop" and items:
        del items[draw(st.integers(0, len(items) - 1))]
        raw = _join(items)
    elif items is not None and kind == "dup" and items:
        key, value = items[draw(st.integers(0, len(items) - 1))]
        other = draw(st.sampled_from(VALUES[:30] + [json.dumps("9 (9,9)"), value]))
        at = draw(st.integers(0, len(items)))
        items.insert(at, (key, other))
        raw = _join(items)
    elif items is not None and kind == "spaces":
        raw = _join(items, draw(st.sampled_from([", ", ",", " ,"])), draw(st.sampled_from([": ", ":", " :"])))
    elif items is not None and kind == "escape":
        text = raw.decode("utf-8", "surrogateescape")
        how = draw(st.sampled_from(["ascii", "slash", "letter"]))
        if how == "ascii":
            text = json.dumps(json.loads(raw), separators=(",", ":"), ensure_ascii=True)
        elif how == "slash":
            text = text.replace("/", "\\/") if "/" in text else text.replace('"A"', '"\\u0041"')
        else:
            text = text.replace('"seq"', '"s\\u0065q"').replace('"by"', '"\\u0062y"')
        raw = text.encode("utf-8", "surrogateescape")
    elif items is not None and kind == "respell":
        key = draw(st.sampled_from(["move", "move", "move", "note"]))
        found = [v for k, v in items if k == key]
        if found and found[0].startswith('"'):
            text = draw(st.sampled_from(RESPELLINGS))(json.loads(found[0]))
            items = [(k, json.dumps(text, ensure_ascii=False) if k == key else v) for k, v in items]
            rows[i] = _join(items)
            return _rechain(rows, i)  # the same record to a forgiving reader: only its spelling tells
    elif items is not None and kind == "reorder" and len(items) > 1:
        items = draw(st.permutations(items))
        raw = _join(list(items))
    rows[i] = raw
    if draw(st.booleans()):
        rows = _rechain(rows, i)
    return rows


#: Another spelling of a record's text that a forgiving reader would take as the same:
#: a move as a player may type it, days or a clock adjustment in other digits.
_WIDE = {ord(d): chr(0xFF10 + int(d)) for d in "0123456789"}
_ARABIC = {ord(d): chr(0x0660 + int(d)) for d in "0123456789"}
RESPELLINGS: list[Callable[[str], str]] = [
    lambda t: t.replace(" ", "", 1), lambda t: t.replace(",", ".", 1), lambda t: f" {t} ", lambda t: t + "\n",
    lambda t: t.replace(",", ", "), lambda t: t.swapcase(), lambda t: t.replace("-", "x").replace("x", "X"),
    lambda t: t.translate(_WIDE), lambda t: t.translate(_ARABIC), lambda t: re.sub(r"(\d+)", r"0\1", t, count=1),
    lambda t: t.replace("!", " ! ").strip() + "", lambda t: t.replace("+", "+0"),
]

#: Texts for the fields of a record a forger appends: what renders and what escapes.
TEXTS = ["<script>alert(1)</script>", "{{ 7 * 7 }}", "{% raw %}", "\u202eevil", "\x1b[2J\x1b[31mred", "A" * 2000,
         "A" * 2001, "\ud800", "\x00", "line\nbreak", "\r", "é" * 700, "\U0001F600" * 600, "&amp; &lt;", "\\", '"',
         "", " ", "9 (9,9)", "7 (5,4) !", "\u2028\u2029", "\x85", "\ufeff", "%s%n"]


@st.composite
def appended(draw: st.DrawFn, rows: list[bytes]) -> list[bytes]:
    """A record a forger adds at the end: chained, with the position's state hash (a
    comment changes nothing), hostile texts and times; valid as often as not."""
    last = _items(rows[-1]) if len(rows) > 1 else None
    if not last:
        return rows
    state = dict(last).get("state", '""')
    fields = {"seq": str(len(rows)), "type": json.dumps(draw(st.sampled_from(["comment"] * 4 + ["move", "pass", "resign",
                                                                                        "vacation", "reveal"]))),
              "by": json.dumps(draw(st.sampled_from(["A", "B", "C", "F", "host", "referee", "dealer"]))),
              "at": json.dumps(draw(st.sampled_from(["2026-12-01T10:00:00Z", "2027-01-01T00:00:00Z", *DATES])))}
    for key, odds in (("note", 3 / 4), ("move", 1 / 8), ("target", 1 / 8), ("seed", 1 / 8), ("sig", 1 / 8)):
        if draw(st.integers(0, 7)) < 8 * odds:
            fields[key] = draw(st.one_of(st.sampled_from(TEXTS).map(lambda t: json.dumps(t, ensure_ascii=False)),
                                         st.sampled_from(VALUES[:20])))
    fields["prev"] = json.dumps(hashlib.sha256(rows[-1]).hexdigest())
    fields["state"] = state
    order = [k for k in lines.RECORD_KEYS if k in fields]
    return [*rows, _join([(k, fields[k]) for k in order])]


@st.composite
def mutated_logs(draw: st.DrawFn) -> bytes:
    """A prefix of a real log (a game in progress), a record appended by a forger and/or
    mutated once or twice, maybe torn."""
    _, data = draw(st.sampled_from(base_logs()))
    rows = data.split(b"\n")[:-1]
    rows = rows[: draw(st.integers(1, len(rows)))]
    plan = draw(st.sampled_from(["append", "append", "mutate", "mutate", "mutate", "both", "twice"]))
    if plan in ("append", "both"):
        rows = draw(appended(rows))
    for _ in range({"append": 0, "mutate": 1, "both": 1, "twice": 2}[plan]):
        rows = draw(line_mutation(rows))
    out = b"".join(r + b"\n" for r in rows)
    tear = draw(st.sampled_from(["", "", "", "cut", "crlf", "extra"]))
    if tear == "cut" and len(out) > 2:
        out = out[: draw(st.integers(1, len(out) - 1))]
    elif tear == "crlf":
        out = out.replace(b"\n", b"\r\n")
    elif tear == "extra":
        out += draw(st.sampled_from([b"\n", b"\n\n", b" \n", b"{}\n", b"null\n", BOM + b"\n"]))
    return out


@st.composite
def respelt_logs(draw: st.DrawFn) -> tuple[bytes, bool]:
    """A real log with one record's move (or a vacation's days) in another spelling,
    re-chained as a forger would; and whether the text differs from what was there."""
    _, data = draw(st.sampled_from(base_logs()))
    rows = data.split(b"\n")[:-1]
    texts = []
    for i, raw in enumerate(rows[1:], start=1):
        items = dict(_items(raw) or [])
        if items.get("move", "").startswith('"'):
            texts.append((i, "move"))
        if items.get("type") == '"vacation"' and items.get("note", "").startswith('"'):
            texts.append((i, "note"))
    if not texts:
        return data, False
    i, key = draw(st.sampled_from(texts))
    items = _items(rows[i]) or []
    before = json.loads(dict(items)[key])
    after = draw(st.sampled_from(RESPELLINGS))(before)
    rows[i] = _join([(k, json.dumps(after, ensure_ascii=False) if k == key else v) for k, v in items])
    return b"".join(r + b"\n" for r in _rechain(rows, i)), after != before


@fuzz("spelling")
@given(case=respelt_logs())
def test_fuzz_respelt_records(case: tuple[bytes, bool]) -> None:
    """A move or a vacation's days in another spelling is never taken as the same
    record: audit calls the log corrupt (one spelling per record)."""
    data, changed = case
    COUNTS["spelling"] += 1

    def check() -> None:
        with tempfile.TemporaryDirectory(prefix="corr-fuzz-") as tmp:
            path = Path(tmp) / "game.corr"
            path.write_bytes(data)
            verdict, _ = audited(path)
            if verdict.code == 0:
                canonical(data)
            assert not (changed and verdict.code == 0), f"{verdict.what()} calls a respelt record intact"

    keeping("log", ".corr", data, check)


@fuzz("log")
@given(data=mutated_logs())
def test_fuzz_log_lines(data: bytes) -> None:
    COUNTS["log"] += 1
    keeping("log", ".corr", data, lambda: check_log(data))


# ---------------------------------------------------------------------------------
# Whole logs: random games, truncated, spliced, records swapped

WHOLE = [("combat", 2, {}, 0.0), ("combat", 3, {"conquest": "auto"}, 0.0), ("combat", 3, {"mode": "as-written"}, 0.3),
         ("moyo", 2, {"puzzle": "1"}, 0.0), ("cards", 3, {}, 0.0), ("cards", 2, {"mode": "as-written"}, 0.3)]


@functools.cache
def whole_game(index: int, seed: int) -> bytes:
    """Random game `index` of WHOLE, played from `seed`; games of one index share a
    header (same id, same time), so their records can be spliced."""
    name, players, options, mischief = WHOLE[index]
    with freeze_time("2026-04-01 12:00:00"):
        rep = randomplay.play(name, ["Anna", "Ben", "Cleo"][:players], options, seed, mischief=mischief,
                              game_id=f"{name}-f022w{index:03d}")
    return store.text(rep.log)


def _renumber(rows: list[bytes]) -> list[bytes]:
    out = [rows[0]]
    for seq, raw in enumerate(rows[1:], start=1):
        data = json.loads(raw)
        data["seq"] = seq
        out.append(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())
    return _rechain(out, 0)


@st.composite
def whole_logs(draw: st.DrawFn) -> bytes:
    index = draw(st.integers(0, len(WHOLE) - 1))
    rows = whole_game(index, draw(st.integers(0, 3))).split(b"\n")[:-1]
    for _ in range(draw(st.integers(1, 2))):
        op = draw(st.sampled_from(["truncate", "splice", "swap", "drop", "duplicate", "splice", "swap"]))
        forged = draw(st.booleans())  # renumbered and chained again, as a forger would
        n = len(rows)
        if op == "truncate":
            rows = rows[: draw(st.integers(1, n))]
            forged = False
        elif op == "splice":
            other = whole_game(index, draw(st.integers(0, 3))).split(b"\n")[:-1]
            cut = draw(st.integers(1, n))
            rows = rows[:cut] + other[draw(st.integers(1, max(1, len(other)))):]
        elif n > 2 and op == "swap":
            i, j = draw(st.integers(1, n - 1)), draw(st.integers(1, n - 1))
            rows[i], rows[j] = rows[j], rows[i]
        elif n > 1 and op == "drop":
            del rows[draw(st.integers(1, n - 1))]
        elif n > 1 and op == "duplicate":
            i = draw(st.integers(1, n - 1))
            rows.insert(draw(st.integers(i, n)), rows[i])
        if forged and len(rows) > 1:
            rows = _renumber(rows)
    out = b"".join(r + b"\n" for r in rows)
    if draw(st.integers(0, 5)) == 0:
        out = out[: draw(st.integers(1, len(out)))]  # torn anywhere
    return out


@fuzz("whole")
@given(data=whole_logs())
def test_fuzz_whole_logs(data: bytes) -> None:
    COUNTS["whole"] += 1
    keeping("log", ".corr", data, lambda: check_agreement(data))


def test_whole_games_are_intact_and_canonical() -> None:
    """The unmutated material the fuzzers start from passes every check."""
    for index in range(len(WHOLE)):
        check_agreement(whole_game(index, 0))
    for name, data in base_logs():
        rows = data.split(b"\n")
        check_log(data)
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "g.corr").write_bytes(data)
            assert corr_audit.audit(Path(tmp) / "g.corr")["intact"], name
        canonical(data)
        assert rows[-1] == b""


# ---------------------------------------------------------------------------------
# Mail messages

CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "utf-16", "utf-7", "koi8-r", "x-unknown", "", "utf-8''", "../x",
            "UTF-8", "big5", "latin1", "cp1252", "utf-32"]
ADDRESSES = ["anna@example.org", "ben@example.org", "cleo@example.org", "ANNA@EXAMPLE.ORG", "eve@evil.example",
             "host@example.org", "", "<>", "anna@example.org, eve@evil.example", "undisclosed-recipients:;",
             "\"anna@example.org\" <eve@evil.example>", "anna@example.org (Anna)", "@", "a@b@c", "anna@example.org\x00"]
INJECT = ["\r\nBcc: eve@evil.example", "\r\n", "\n", "\r", "\r\nX-Injected: 1", "\r\n\r\nbody", "\x00", "\u2028"]


def encoded_word(text: str, charset: str, how: str) -> str:
    data = text.encode("utf-8", "surrogatepass")
    if how == "B":
        payload = base64.b64encode(data).decode()
    else:
        payload = "".join(chr(b) if 33 <= b < 127 and chr(b) not in "=?_" else f"={b:02X}" for b in data)
    return f"=?{charset}?{how}?{payload}?="


@st.composite
def header_value(draw: st.DrawFn, plain: str) -> str:
    """A header value as sent: plain, or an encoded word whose decoded text may hold a
    line break and a second header."""
    form = draw(st.sampled_from(["plain", "plain", "encoded", "split", "raw8"]))
    if form == "plain":
        return plain
    if form == "raw8":
        return plain + draw(st.sampled_from(["é", "\udcff", "\x7f", " \t"]))
    injected = plain + draw(st.sampled_from(INJECT)) if draw(st.booleans()) else plain
    word = encoded_word(injected, draw(st.sampled_from(CHARSETS)), draw(st.sampled_from("BQ")))
    if form == "split":
        return f"{word} {encoded_word(draw(st.sampled_from(INJECT)), 'utf-8', 'Q')}"
    return word


@st.composite
def sender(draw: st.DrawFn, game: Game, plausible: bool) -> str:
    if plausible:
        address = game.on_turn or game.other or "anna@example.org"
        return draw(st.sampled_from([address, f"Player <{address}>", f"=?utf-8?q?Pl=C3=A4yer?= <{address}>"]))
    address = draw(st.sampled_from([a for a in (game.on_turn, game.other) if a] + ADDRESSES))
    name = draw(header_value(draw(st.sampled_from(["Anna", "Ben", "", "Eve \"the\" Evil", "x" * 300]))))
    if draw(st.booleans()) or not name:
        return address
    return f"{name} <{address}>"


SEQS = ["{seq}", "{seq}", "{before}", "{after}", "0", "-1", "9" * 4301, "9" * 40, "١", "٣", "00{seq}", "{seq}{seq}"]


@st.composite
def subject(draw: st.DrawFn, game: Game, plausible: bool) -> str:
    if plausible:
        text = f"Re: [corr {game.id}] {game.seq}. {draw(st.sampled_from(['7 (8,7)', 'new game', '']))}"
        return draw(st.sampled_from([text, text, encoded_word(text, "utf-8", "Q"), encoded_word(text, "utf-8", "B")]))
    game_id = draw(st.sampled_from([game.id, game.id, COMBAT_ID, "unknown-0000", game.id.upper(), "../../x", ""]))
    seq = draw(st.sampled_from(SEQS)).format(seq=game.seq, before=game.seq - 1, after=game.seq + 1)
    text = f"{draw(st.sampled_from(['', 'Re: ', 'RE: Fwd: ', 'Re:Re:']))}[corr {game_id}] {seq}. " \
           f"{draw(st.sampled_from(['7 (8,7)', 'reminder', '', 'x' * 2000]))}"
    return draw(header_value(text))


@st.composite
def log_bytes(draw: st.DrawFn, game: Game, plausible: bool = False) -> bytes:
    """What an attached `.corr` holds: the log, the log with the next record, that
    mutated, another game's log, junk."""
    choice = draw(st.sampled_from(["extended", "extended", "same", "mutated", "mutated", "other", "junk", "empty",
                                   "header"]))
    if plausible:
        choice = draw(st.sampled_from(["extended", "extended", "extended", "same", "mutated"]))
    if choice == "extended":
        return game.extended
    if choice == "same":
        return game.data
    if choice == "mutated":
        rows = game.extended.split(b"\n")[:-1]
        for _ in range(draw(st.integers(1, 2))):
            rows = draw(line_mutation(rows))
        return b"".join(r + b"\n" for r in rows)
    if choice == "other":
        return draw(st.sampled_from([g.extended for g in mail_games()] + [d for _, d in base_logs()[:3]]))
    if choice == "junk":
        return draw(st.binary(max_size=300))
    if choice == "header":
        return game.data.split(b"\n")[0] + b"\n"
    return b""


def _encode(draw: st.DrawFn, content: bytes, headers: list[tuple[str, str]], plausible: bool) -> bytes:
    """The body in a transfer encoding (its header added), at times a broken one."""
    if plausible:
        encoding = draw(st.sampled_from(["base64", "quoted-printable", "7bit", "8bit", ""]))
    else:
        encoding = draw(st.sampled_from(["base64", "base64", "quoted-printable", "7bit", "8bit", "binary", "", "x-uue",
                                         "base64-broken"]))
    if encoding.startswith("base64"):
        body = base64.encodebytes(content)
        if encoding == "base64-broken" and body:
            at = draw(st.integers(0, len(body) - 1))
            body = body[:at] + draw(st.sampled_from([b"=", b"!", b"\n", b"==="])) + body[at + 1:]
        encoding = "base64"
    elif encoding == "quoted-printable":
        import quopri

        body = quopri.encodestring(content)
    else:
        body = content
    if encoding:
        headers.append(("Content-Transfer-Encoding", encoding))
    return body


@st.composite
def leaf(draw: st.DrawFn, game: Game, plausible: bool = False, kind: str | None = None
         ) -> tuple[list[tuple[str, str]], bytes]:
    """A non-multipart MIME part: (headers, encoded body)."""
    kind = kind or draw(st.sampled_from(["plain", "plain", "html", "attachment", "attachment", "empty", "junk"]))
    charset = draw(st.sampled_from(["utf-8", "us-ascii"] if plausible else CHARSETS))
    headers: list[tuple[str, str]] = []
    if kind == "attachment":
        content = draw(log_bytes(game, plausible))
        name = f"{game.id}.corr" if plausible else draw(st.sampled_from(
            [f"{game.id}.corr", f"{game.id}.corr", "x.corr", "../../evil.corr", "", f"{COMBAT_ID}.corr",
             f"=?utf-8?q?{game.id}.corr?="]))
        ctype = "application/octet-stream" if plausible else draw(st.sampled_from(
            ["application/octet-stream", "application/x-corr", "text/plain"]))
        headers.append(("Content-Type", f'{ctype}; name="{name}"'))
        headers.append(("Content-Disposition", f'attachment; filename="{name}"' if plausible else draw(st.sampled_from(
            [f'attachment; filename="{name}"', f"attachment; filename*=utf-8''{name}", "inline", "attachment"]))))
    elif kind == "html":
        content = f"<p>{game.move}</p>".encode()
        headers.append(("Content-Type", f"text/html; charset={charset}"))
    elif kind == "plain":
        choices = [game.move, game.move, "> " + game.move, "7 (5,4)", "", "hello", "-- ", "x" * 1000,
                   game.move + "\r", "٧ (٥,٤)", "pass"]
        body_lines = draw(st.lists(st.sampled_from(choices), min_size=0, max_size=4))
        if plausible:
            body_lines = [game.move, *body_lines]
        content = "\n".join(body_lines).encode("utf-8")
        headers.append(("Content-Type", f"text/plain; charset={charset}" if plausible else draw(st.sampled_from(
            [f"text/plain; charset={charset}", "text/plain", 'text/plain; charset="utf-8', "text/plain; format=flowed"]))))
    elif kind == "junk":
        content = draw(st.binary(max_size=200))
        headers.append(("Content-Type", draw(st.sampled_from(["text/plain; charset=utf-8", "application/x-corr",
                                                               "message/rfc822", "text/x-unknown", "/", ""]))))
    else:
        content = b""
        headers.append(("Content-Type", "text/plain"))
    return headers, _encode(draw, content, headers, plausible)


def _multipart(draw: st.DrawFn, parts: list[tuple[list[tuple[str, str]], bytes]], boundary: str, subtype: str,
               closed: bool = True, preamble: bytes = b"") -> tuple[list[tuple[str, str]], bytes]:
    chunks = [preamble]
    for headers, body in parts:
        chunks.append(f"--{boundary}".encode())
        chunks.append(b"".join(f"{k}: {v}\n".encode("utf-8", "surrogatepass") for k, v in headers) + b"\n" + body)
    if closed:
        chunks.append(f"--{boundary}--".encode())
    return [("Content-Type", f'multipart/{subtype}; boundary="{boundary}"')], b"\n".join(chunks) + b"\n"


@st.composite
def mime(draw: st.DrawFn, game: Game, depth: int = 0, plausible: bool = False) -> tuple[list[tuple[str, str]], bytes]:
    if plausible:
        shape = draw(st.sampled_from(["plain", "attached", "both"]))
        if shape == "plain":
            return draw(leaf(game, True, "plain"))
        parts = [draw(leaf(game, True, "plain"))] if shape == "both" else []
        parts.append(draw(leaf(game, True, "attachment")))
        return _multipart(draw, parts, "=_corr_b1", "mixed")
    if depth >= 4 or not draw(st.integers(0, 2)):
        return draw(leaf(game))
    boundary = draw(st.sampled_from(["b1", f"b{depth}", "b0", "=_x", "", "a" * 100, "b1--", '"q"']))
    parts = [draw(mime(game, depth + 1)) for _ in range(draw(st.integers(0, 3)))]
    subtype = draw(st.sampled_from(["mixed", "alternative", "related", "digest", "x-unknown"]))
    return _multipart(draw, parts, boundary, subtype, closed=bool(draw(st.integers(0, 4))),
                      preamble=draw(st.sampled_from([b"", b"preamble"])))


@st.composite
def messages(draw: st.DrawFn) -> bytes:
    """An .eml for one of the games in the folder: half of them plausible replies (the
    right sender, seq and move, or the log attached) with one hostile extra at most,
    half hostile throughout."""
    game = draw(st.sampled_from(mail_games()))
    plausible = draw(st.booleans())
    headers = [("From", draw(sender(game, plausible))), ("To", HOST if plausible else draw(header_value(HOST))),
               ("Subject", draw(subject(game, plausible)))]
    message_id = draw(st.sampled_from(["<m1@example.org>", "<m1@example.org>", "", "m2", "<a@b> <c@d>",
                                       "=?utf-8?q?<x=0D=0ABcc:_e@x>?=", "<" + "x" * 2000 + "@y>"]))
    if message_id:
        headers.append(("Message-ID", message_id))
    extras = (("Reply-To", ["eve@evil.example", "=?utf-8?q?a=0D=0ABcc:_eve@evil.example?= <e@x>"]),
              ("In-Reply-To", ["<m0@example.org>", "<\r\n>"]),
              ("References", ["<m0@example.org> <m1@example.org>", "x " * 300]),
              ("Auto-Submitted", ["auto-replied", "no"]),
              ("X-Corr-For", ["A", "B", "Z", "a", "A\r\nX: y"]),
              ("X-Corr-Private", ['{"hand":[1,2]}', '{"card":3}', "[]", "{", '{"seat":"A"}',
                                  '{"x":' * 500 + "1" + "}" * 500, '{"hand":[' + "9," * 300 + "9]}"]),
              ("X-Corr-Seq", [str(game.seq), "x"]),
              ("Subject", ["second subject"]))
    for name, values in extras[:-1] if plausible else extras:
        if draw(st.integers(0, 12 if plausible else 6)) == 5:
            headers.append((name, draw(header_value(draw(st.sampled_from(values))))))
    if draw(st.integers(0, 3)) == 0:
        headers.append(("MIME-Version", "1.0"))
    part_headers, body = draw(mime(game, plausible=plausible))
    eol = draw(st.sampled_from([b"\n", b"\n", b"\r\n"]))
    head = b"".join(f"{k}: {v}".encode("utf-8", "surrogatepass") + b"\n" for k, v in headers + part_headers)
    return (head + b"\n" + body).replace(b"\n", eol) if eol != b"\n" else head + b"\n" + body


@fuzz("mail")
@given(eml=messages(), new=st.booleans())
def test_fuzz_mail_ingest(eml: bytes, new: bool) -> None:
    COUNTS["mail"] += 1
    keeping("mail", ".eml", eml, lambda: check_mail(eml, new))


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Any, int]]:
    """One real SMTP server (aiosmtpd on 127.0.0.1) for the module's host passes."""
    from conftest import smtp_on_loopback

    with smtp_on_loopback() as served:
        yield served


@fuzz("host")
@given(eml=messages())
def test_fuzz_host_pass(smtp: tuple[Any, int], eml: bytes) -> None:
    COUNTS["host"] += 1
    keeping("mail", ".eml", eml, lambda: check_host(eml, smtp))


# ---------------------------------------------------------------------------------
# The corpus, replayed on every run


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*") if p.is_file() and p.name != "README.md")


def test_corpus_is_not_empty() -> None:
    kinds = {p.name.split("-")[0] for p in corpus_files()}
    assert {"mail", "log", "move"} <= kinds, kinds


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus(path: Path, smtp: tuple[Any, int]) -> None:
    """Every input that ever broke corr, through the same checks as when it was found."""
    COUNTS["corpus files"] += 1
    data = path.read_bytes()
    kind = path.name.split("-")[0]
    if kind == "move":
        text = data.decode("utf-8", "surrogatepass")
        for game in notation_games():
            check_move(text, game)
    elif kind == "log":
        check_log(data)
        check_agreement(data)
    elif kind == "mail":
        check_mail(data, new=False)
        check_mail(data, new=True)
        check_host(data, smtp)
    else:
        pytest.fail(f"{path.name}: a corpus file is named move-*, log-* or mail-*")
