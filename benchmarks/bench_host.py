"""How mail ingest and the host's idle pass grow with the number of games, in one run.

Run:  python benchmarks/bench_host.py [--games 10,100,1000] [--messages 50] [--quick]

For each folder size N (Combat games of three players, made with `engine.new_game`,
not timed) it prints:

  ingest     the time per reply message (a plain-text move on the first line, found by
             the game id in its Subject), beside the floor: parsing the same bytes once
             with the standard library's email parser. `ingest/parse` staying flat as N
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
"""

from __future__ import annotations

import argparse
import email.policy
import email.utils
import mailbox
import socket
import statistics
import sys
import tempfile
import time
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import fmt, ratio  # noqa: E402

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


def time_ingest(folder: Path, ids: list[str], k: int) -> tuple[float, float]:
    """(seconds per message ingested, seconds per message parsed) over k replies."""
    from corr.mail.ingest import ingest_bytes

    messages = [reply(game_id, i) for i, game_id in enumerate(ids[:k])]
    parser = BytesParser(policy=email.policy.default)
    t0 = time.perf_counter()
    for data in messages:
        parser.parsebytes(data)
    parse = (time.perf_counter() - t0) / len(messages)
    t0 = time.perf_counter()
    for data in messages:
        result = ingest_bytes(data, folder)
        if not result.ok:
            raise SystemExit(f"ingest refused a benchmark reply: {result.detail}")
    return (time.perf_counter() - t0) / len(messages), parse


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="10,100,1000", help="folder sizes (comma-separated)")
    parser.add_argument("--messages", type=int, default=50, help="replies ingested per folder size")
    parser.add_argument("--quick", action="store_true", help="folder sizes 10 and 100, 20 replies")
    args = parser.parse_args(argv)
    sizes = [10, 100] if args.quick else [int(n) for n in args.games.split(",")]
    k = 20 if args.quick else args.messages

    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        rows = []
        with tempfile.TemporaryDirectory(prefix="corr-bench-host-") as tmp:
            for n in sizes:
                root = Path(tmp) / f"n{n}"
                ids = make_games(root / "ingest", n)
                per_msg, per_parse = time_ingest(root / "ingest", ids, min(k, n))
                make_games(root / "host", n)
                first, idle = time_passes(root, root / "host", port)
                rows.append((n, per_msg, per_parse, first, statistics.median(idle)))
            replies = 20 if args.quick else 100
            connections, sent, seconds = reply_pass(Path(tmp) / "replies", port, sink, replies)
            compared = imap_vs_maildir(Path(tmp) / "imap", port, replies, 3 if args.quick else 5)
    finally:
        controller.stop()

    print(f"{'games':>6} {'ingest/msg':>11} {'parse/msg':>10} {'ingest/parse':>13}"
          f" {'first pass':>11} {'idle pass':>10} {'idle/first':>11} {'idle/game':>10}")
    for n, per_msg, per_parse, first, idle in rows:
        print(f"{n:>6} {per_msg * 1e3:>9.2f}ms {per_parse * 1e3:>8.2f}ms {per_msg / per_parse:>12.1f}x"
              f" {first:>10.2f}s {idle:>9.3f}s {idle / first:>10.3f}x {idle / n * 1e6:>8.0f}us")
    flat = rows[-1][1] / rows[0][1]
    print(f"ingest per message, {rows[-1][0]} games / {rows[0][0]} games = {flat:.2f}x (flat: found by id)")
    for n, _, _, _, idle in rows:
        if n >= 1000:
            print(f"idle pass over {n} games: {idle:.3f} s (aim < 0.5 s for 1,000: "
                  f"{'ok' if idle * 1000 / n < 0.5 else 'MISSED'})")
    print(f"a pass taking {replies} replies: {sent} messages sent over {connections} SMTP connection"
          f"{'s' if connections != 1 else ''} in {seconds:.2f} s (one connection a message before the outbox: "
          f"{sent} connections, {sent / max(connections, 1):.0f}x as many)")
    if compared is None:
        print("imap: skipped (no Dovecot: Debian's dovecot-imapd)")
    else:
        imap_wall, imap_cpu = (statistics.median(t[i] for t in compared["imap"]) for i in (0, 1))
        maildir_wall, maildir_cpu = (statistics.median(t[i] for t in compared["maildir"]) for i in (0, 1))
        print(f"a pass taking {replies} replies: IMAP {imap_cpu:.2f} s CPU ({imap_wall:.2f} s wall), "
              f"Maildir {maildir_cpu:.2f} s CPU ({maildir_wall:.2f} s wall), medians; IMAP/Maildir "
              f"{fmt(ratio(compared['imap'], compared['maildir']))} over {len(compared['imap'])} interleaved rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
