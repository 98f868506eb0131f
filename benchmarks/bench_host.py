"""How mail ingest and the host's idle pass grow with the number of games, in one run.

Run:  python benchmarks/bench_host.py [--games 10,100,1000] [--messages 50] [--rounds 5] [--quick]
                                      [--parts ingest,passes,replies,imap,floor]

For each folder size N (Combat games of three players, made with `engine.new_game`,
not timed) it prints:

  ingest     the time per reply message (a plain-text move on the first line, found by
             the game id in its Subject), beside the floor: parsing the same bytes once
             with the standard library's email parser. The two run interleaved (each
             ingest round on a fresh copy of the folder), CPU and wall time, the ratio
             as median (min-max) over the rounds. `ingest/parse` staying flat as N
             grows by 10x means a message costs the same whatever the folder holds
             (the game is found by its id, not by reading every header).
  host pass  `host run --once` over the folder with an empty Maildir: the first pass
             (each game announced by mail to a real SMTP server on 127.0.0.1, aiosmtpd)
             and an idle pass after it, which skips every game whose log has not changed.
             The aim: an idle pass over 1,000 games in under 0.5 s.
  replies    one pass over a Maildir holding a reply to each of 100 games (each move
             then mailed to the game's three seats): the SMTP connections it opened,
             beside the messages it sent. Before the outbox every message had a
             connection of its own; now the pass sends all of them over one.
  imap       the same pass taking 100 replies from an IMAP mailbox (a Dovecot started
             on 127.0.0.1, as the tests start it; skipped without one) beside the same
             pass over a Maildir: runs interleaved, wall and CPU time, the ratio
             IMAP/Maildir as median (min-max) over the rounds.
  floor      a pass taking a reply to each of 100 games in a folder of 1,000 (each game's
             three seats then mailed: 300 messages) beside its floor, what any such pass
             must at least do: list the games folder and the Maildir's new/ once, read
             each reply and parse it with the standard library's email parser, read
             the replied game's log (json.loads and SHA-256 of each line), and send as
             many messages of the same sizes (the pass's own, taken from its outbox)
             over one SMTP connection with smtplib. Runs interleaved, each on a fresh
             copy of the folder after its announcements, CPU and wall time, the ratio
             pass/floor as median (min-max). The SMTP sink (aiosmtpd) runs in a process
             of its own here, so the CPU clock counts the pass and the floor alone.
             The aim: at most 5x the floor's CPU time.
"""

from __future__ import annotations

import argparse
import email.policy
import email.utils
import hashlib
import io
import json
import mailbox
import os
import shutil
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Figure, fmt, interleaved, median, per, ratio  # noqa: E402

PLAYERS = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Cleo <cleo@example.org>"]
FIRST_MOVE = "7 (8,7)"


def make_games(folder: Path, n: int) -> list[str]:
    """N new games in `folder`; their ids."""
    from corr import engine

    folder.mkdir(parents=True)
    ids = []
    for i in range(n):
        path = folder / f"g{i:05d}.corr"
        engine.new_game(path, "combat", PLAYERS, {})
        ids.append(engine.load(path).header.id)
    return ids


def reply(game_id: str, i: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg["To"] = "host@example.org"
    msg["Subject"] = f"Re: [corr {game_id}] 0. new game"
    msg["Message-ID"] = f"<r{i}@example.org>"
    msg["Date"] = email.utils.formatdate()
    msg.set_content(f"{FIRST_MOVE}\n")
    return msg.as_bytes()


def time_ingest(folder: Path, ids: list[str], k: int, rounds: int) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds per message of ingesting k replies and of parsing them,
    interleaved over `rounds`; each ingest round takes them into a fresh copy of the
    folder (untimed), so every round plays the same moves."""
    from corr.mail.ingest import ingest_bytes

    messages = [reply(game_id, i) for i, game_id in enumerate(ids[:k])]
    parser = BytesParser(policy=email.policy.default)
    base = folder.with_name(folder.name + "-base")
    shutil.copytree(folder, base)

    def restore(name: str) -> None:
        if name == "ingest":
            shutil.rmtree(folder)
            shutil.copytree(base, folder)

    def parse() -> None:
        for data in messages:
            parser.parsebytes(data)

    def ingest() -> None:
        for data in messages:
            result = ingest_bytes(data, folder)
            if not result.ok:
                raise SystemExit(f"ingest refused a benchmark reply: {result.message}")

    times = interleaved({"ingest": ingest, "parse": parse}, rounds, prepare=restore)
    return {name: per(samples, len(messages)) for name, samples in times.items()}


#: An SMTP sink in a process of its own (argv: its port): takes every message, stops
#: when its stdin closes.
SINK = """
import sys
from aiosmtpd.controller import Controller

class Sink:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"

controller = Controller(Sink(), hostname="127.0.0.1", port=int(sys.argv[1]))
controller.start()
print("ready", flush=True)
sys.stdin.read()
controller.stop()
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def smtp_config(path: Path, port: int):  # type: ignore[no-untyped-def]
    from corr.mail import smtp

    path.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Host <host@example.org>"\n')
    return smtp.load_config(path)


def pass_vs_floor(root: Path, n: int, k: int, rounds: int) -> tuple[dict[str, list[tuple[float, float]]], int, int]:
    """(wall, CPU) seconds of a host pass taking a reply to each of k of n games and of
    its floor (see the module's docstring), interleaved over `rounds`; and the messages
    each sends, and their bytes."""
    from corr.mail import host
    from corr.mail.ingest import find_game

    quiet = lambda text: None  # noqa: E731
    port = free_port()
    sink = subprocess.Popen([sys.executable, "-c", SINK, str(port)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    try:
        if sink.stdout is None or sink.stdout.readline().strip() != "ready":
            raise SystemExit("the SMTP sink did not start")
        root.mkdir(parents=True)
        config = smtp_config(root / "smtp.toml", port)
        base, games, maildir = root / "base", root / "games", root / "Maildir"
        ids = make_games(base, n)
        mailbox.Maildir(root / "Maildir-announce", create=True)
        host.run_pass(root / "Maildir-announce", base, config, echo=quiet)  # the announcements, untimed
        replies = [reply(game_id, i) for i, game_id in enumerate(ids[:k])]
        logs = {game_id: find_game(base, game_id).name for game_id in ids[:k]}

        def restore(name: str) -> None:
            """The folder as the announcements left it, and the replies waiting. A copied
            log has a new inode, which a pass takes for a changed log: an idle pass over
            the copy first notes every game idle again, as it was."""
            for folder in (games, maildir):
                if folder.exists():
                    shutil.rmtree(folder)
            shutil.copytree(base, games)
            box = mailbox.Maildir(maildir, create=True)
            host.run_pass(maildir, games, config, echo=quiet)
            for data in replies:
                box.add(data)

        # what the pass sends: its messages, kept in its outbox by a pass with no server
        restore("capture")
        closed = smtp_config(root / "closed.toml", free_port())
        host.run_pass(maildir, games, closed, echo=quiet)
        outbox = games / ".outbox" / "new"
        sent = [(outbox / name).read_bytes() for name in sorted(os.listdir(outbox))]
        if len(sent) != 3 * k:
            raise SystemExit(f"the pass wrote {len(sent)} messages, not {3 * k}")
        envelopes = []  # each as smtplib's send_message puts it on the wire
        for data in sent:
            msg = BytesParser(policy=email.policy.default).parsebytes(data)
            wire = io.BytesIO()
            BytesGenerator(wire, policy=msg.policy.clone(linesep="\r\n")).flatten(msg, linesep="\r\n")
            envelopes.append((msg["From"].addresses[0].addr_spec, [msg["To"].addresses[0].addr_spec],
                              wire.getvalue()))

        def real() -> None:
            report = host.run_pass(maildir, games, config, echo=quiet)
            if report.ingested != k or report.sent != 3 * k:
                raise SystemExit(f"the pass took {report.ingested} of {k} replies and sent {report.sent} messages")

        def floor() -> None:
            os.listdir(games)
            new = maildir / "new"
            parser = BytesParser(policy=email.policy.default)
            for name in sorted(os.listdir(new)):
                msg = parser.parsebytes((new / name).read_bytes())
                game_id = str(msg["Subject"]).split("]")[0].rsplit(" ", 1)[1]
                with open(games / logs[game_id], "rb") as f:
                    for line in f:
                        json.loads(line)
                        hashlib.sha256(line).digest()
            with smtplib.SMTP("127.0.0.1", port) as server:
                for sender, to, data in envelopes:
                    server.sendmail(sender, to, data)

        times = interleaved({"pass": real, "floor": floor}, rounds, prepare=restore)
    finally:
        if sink.stdin is not None:
            sink.stdin.close()
        sink.wait(timeout=30)
    return times, len(envelopes), sum(len(data) for _, _, data in envelopes)


class Sink:
    """Takes every message; counts the connections (one EHLO each) and the messages."""

    def __init__(self) -> None:
        self.connections = 0
        self.messages = 0

    async def handle_EHLO(self, server, session, envelope, hostname, responses):  # type: ignore[no-untyped-def]
        self.connections += 1
        session.host_name = hostname
        return responses

    async def handle_DATA(self, server, session, envelope):  # type: ignore[no-untyped-def]
        self.messages += 1
        return "250 OK"


def reply_pass(root: Path, port: int, sink: Sink, n: int) -> tuple[int, int, float]:
    """(connections, messages sent, seconds) of one host pass taking a reply to each of
    n games, after a first pass that announced them."""
    from corr.mail import host, smtp

    folder = root / "replies"
    ids = make_games(folder, n)
    maildir = root / "Maildir-replies"
    mailbox.Maildir(maildir, create=True)
    config_file = root / "smtp-replies.toml"
    config_file.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Host <host@example.org>"\n')
    config = smtp.load_config(config_file)
    quiet = lambda text: None  # noqa: E731
    host.run_pass(maildir, folder, config, echo=quiet)  # the announcements
    box = mailbox.Maildir(maildir, create=False)
    for i, game_id in enumerate(ids):
        box.add(reply(game_id, i))
    connections, messages = sink.connections, sink.messages
    t0 = time.perf_counter()
    report = host.run_pass(maildir, folder, config, echo=quiet)
    seconds = time.perf_counter() - t0
    if report.ingested != n or getattr(report, "queued", 0):  # getattr: the bench runs on older checkouts too
        raise SystemExit(f"the reply pass took {report.ingested} of {n} replies, or left some unsent")
    return sink.connections - connections, sink.messages - messages, seconds


def imap_vs_maildir(root: Path, port: int, n: int, rounds: int) -> dict[str, list[tuple[float, float]]] | None:
    """(wall, CPU) seconds of a pass taking a reply to each of n games, from a Maildir
    and from an IMAP mailbox, interleaved over `rounds`; None without Dovecot."""
    import os

    sys.path.insert(0, str(ROOT / "tests"))
    from dovecot import DOVECOT, PASSWORD, USER, running

    from corr.mail import host, imap, smtp

    if not os.access(DOVECOT, os.X_OK):
        return None
    quiet = lambda text: None  # noqa: E731
    config_file = root / "smtp.toml"
    root.mkdir(parents=True)
    config_file.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Host <host@example.org>"\n')
    config = smtp.load_config(config_file)
    times: dict[str, list[tuple[float, float]]] = {"maildir": [], "imap": []}
    with running() as server:
        (root / "pass").write_text(PASSWORD + "\n")
        imap_file = root / "imap.toml"
        imap_file.write_text(f'host = "127.0.0.1"\nport = {server.port}\ntls = "none"\nusername = "{USER}"\n'
                             f'password_file = "{root / "pass"}"\n')
        for r in range(rounds):
            for kind in ("maildir", "imap") if r % 2 == 0 else ("imap", "maildir"):
                folder = root / f"{kind}-{r}"
                ids = make_games(folder, n)
                if kind == "maildir":
                    source: object = root / f"Maildir-{r}"
                    mailbox.Maildir(source, create=True)
                else:
                    source = imap.ImapInbox(imap.load_config(imap_file))
                host.run_pass(source, folder, config, echo=quiet)  # the announcements
                if kind == "maildir":
                    box = mailbox.Maildir(source, create=False)
                    for i, game_id in enumerate(ids):
                        box.add(reply(game_id, i))
                else:
                    with server.client() as client:
                        for i, game_id in enumerate(ids):
                            client.append("INBOX", reply(game_id, i))
                wall, cpu = time.perf_counter(), time.process_time()
                report = host.run_pass(source, folder, config, echo=quiet)
                times[kind].append((time.perf_counter() - wall, time.process_time() - cpu))
                if kind == "imap":
                    source.close()  # type: ignore[attr-defined]
                if report.ingested != n:
                    raise SystemExit(f"the {kind} pass took {report.ingested} of {n} replies")
    return times


def time_passes(root: Path, folder: Path, port: int) -> tuple[float, list[float]]:
    """(first pass, [idle passes]) seconds of one host pass over `folder`."""
    from corr.mail import host, smtp

    maildir = root / "Maildir"
    mailbox.Maildir(maildir, create=True)
    config_file = root / "smtp.toml"
    config_file.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "Host <host@example.org>"\n')
    config = smtp.load_config(config_file)
    quiet = lambda text: None  # noqa: E731
    t0 = time.perf_counter()
    host.run_pass(maildir, folder, config, echo=quiet)
    first = time.perf_counter() - t0
    idle = []
    for _ in range(3):
        t0 = time.perf_counter()
        host.run_pass(maildir, folder, config, echo=quiet)
        idle.append(time.perf_counter() - t0)
    return first, idle


PARTS = ("ingest", "passes", "replies", "imap", "floor")


#: A pass taking 100 replies in a folder of 1,000 games, over its floor's CPU time
PASS_AIM = 5.0


def figures(quick: bool = False) -> list[Figure]:
    """The verdict `benchmarks/bench.py` prints: a reply pass over its floor."""
    games, replies, rounds = (100, 20, 3) if quick else (1000, 100, 5)
    with tempfile.TemporaryDirectory(prefix="corr-bench-host-") as tmp:
        times, _, _ = pass_vs_floor(Path(tmp) / "floor", games, replies, rounds)
    pass_cpu, floor_cpu = median(times["pass"])[1], median(times["floor"])[1]
    return [Figure(f"host pass, {replies} replies in {games:,} games", f"{pass_cpu:.2f} s",
                   f"floor: {floor_cpu:.3f} s", ratio(times["pass"], times["floor"]), PASS_AIM)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="10,100,1000", help="folder sizes (comma-separated)")
    parser.add_argument("--messages", type=int, default=50, help="replies ingested per folder size")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of each comparison")
    parser.add_argument("--quick", action="store_true", help="folder sizes 10 and 100, 20 replies, 3 rounds")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"what to run (comma-separated: {', '.join(PARTS)})")
    args = parser.parse_args(argv)
    sizes = [10, 100] if args.quick else [int(n) for n in args.games.split(",")]
    k = 20 if args.quick else args.messages
    rounds = 3 if args.quick else args.rounds
    parts = set(args.parts.split(","))
    if parts - set(PARTS):
        parser.error(f"--parts: no part {', '.join(sorted(parts - set(PARTS)))} (parts: {', '.join(PARTS)})")

    from aiosmtpd.controller import Controller

    port = free_port()
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    replies = 20 if args.quick else 100
    rows = []
    reply_counts = compared = floor_times = None
    try:
        with tempfile.TemporaryDirectory(prefix="corr-bench-host-") as tmp:
            for n in sizes if parts & {"ingest", "passes"} else []:
                root = Path(tmp) / f"n{n}"
                ingest = passes = None
                if "ingest" in parts:
                    ids = make_games(root / "ingest", n)
                    ingest = time_ingest(root / "ingest", ids, min(k, n), rounds)
                if "passes" in parts:
                    make_games(root / "host", n)
                    passes = time_passes(root, root / "host", port)
                rows.append((n, ingest, passes))
            if "replies" in parts:
                reply_counts = reply_pass(Path(tmp) / "replies", port, sink, replies)
            if "imap" in parts:
                compared = imap_vs_maildir(Path(tmp) / "imap", port, replies, rounds)
            if "floor" in parts:
                floor_times = pass_vs_floor(Path(tmp) / "floor", 100 if args.quick else 1000, replies, rounds)
    finally:
        controller.stop()

    ingested = [(n, ingest) for n, ingest, _ in rows if ingest is not None]
    if ingested:
        print(f"{'games':>6} {'ingest/msg':>11} {'parse/msg':>10}  ingest/parse (CPU, {rounds} interleaved rounds)")
        for n, ingest in ingested:
            (_, ingest_cpu), (_, parse_cpu) = median(ingest["ingest"]), median(ingest["parse"])
            print(f"{n:>6} {ingest_cpu * 1e3:>9.2f}ms {parse_cpu * 1e3:>8.2f}ms  "
                  f"{fmt(ratio(ingest['ingest'], ingest['parse']))}")
        if len(ingested) > 1:
            (big, most), (small, fewest) = ingested[-1], ingested[0]
            flat = median(most["ingest"])[1] / median(fewest["ingest"])[1]
            print(f"ingest CPU per message, {big} games / {small} games = {flat:.2f}x (flat: found by id)")
    passed = [(n, passes) for n, _, passes in rows if passes is not None]
    if passed:
        print(f"{'games':>6} {'first pass':>11} {'idle pass':>10} {'idle/first':>11} {'idle/game':>10}")
        for n, (first, idle) in passed:
            still = statistics.median(idle)
            print(f"{n:>6} {first:>10.2f}s {still:>9.3f}s {still / first:>10.3f}x {still / n * 1e6:>8.0f}us")
            if n >= 1000:
                print(f"idle pass over {n} games: {still:.3f} s (aim < 0.5 s for 1,000: "
                      f"{'ok' if still * 1000 / n < 0.5 else 'MISSED'})")
    if reply_counts is not None:
        connections, sent, seconds = reply_counts
        print(f"a pass taking {replies} replies: {sent} messages sent over {connections} SMTP connection"
              f"{'s' if connections != 1 else ''} in {seconds:.2f} s (one connection a message before the outbox: "
              f"{sent} connections, {sent / max(connections, 1):.0f}x as many)")
    if "imap" in parts and compared is None:
        print("imap: skipped (no Dovecot: Debian's dovecot-imapd)")
    elif compared is not None:
        imap_wall, imap_cpu = median(compared["imap"])
        maildir_wall, maildir_cpu = median(compared["maildir"])
        print(f"a pass taking {replies} replies: IMAP {imap_cpu:.2f} s CPU ({imap_wall:.2f} s wall), "
              f"Maildir {maildir_cpu:.2f} s CPU ({maildir_wall:.2f} s wall), medians; IMAP/Maildir "
              f"{fmt(ratio(compared['imap'], compared['maildir']))} over {len(compared['imap'])} interleaved rounds")
    if floor_times is not None:
        times, count, size = floor_times
        (pass_wall, pass_cpu), (floor_wall, floor_cpu) = median(times["pass"]), median(times["floor"])
        print(f"a pass taking {replies} replies in a folder of {100 if args.quick else 1000} games, {count} messages "
              f"({size / count / 1024:.1f} KB each) sent: {pass_cpu:.2f} s CPU ({pass_wall:.2f} s wall); its floor "
              f"{floor_cpu:.3f} s CPU ({floor_wall:.3f} s wall), medians; pass/floor "
              f"{fmt(ratio(times['pass'], times['floor']), aim=PASS_AIM)} over {rounds} interleaved rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
