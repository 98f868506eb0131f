"""The README's walkthrough is a real game: every `corr` line in it runs as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def walkthrough(heading: str = "Install and play") -> list[list[str]]:
    """The `corr ...` commands of one README section, in order."""
    text = README.read_text()
    section = re.split(r"\n#{2,} ", text.split(f"## {heading}\n", 1)[1], maxsplit=1)[0]
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0] == "corr":
                    commands.append(words[1:])
    return commands


def test_readme_walkthrough_plays_a_real_game(tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    commands = walkthrough()
    assert commands[0][:2] == ["new", "combat"] and len(commands) >= 10
    for args in commands:
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    final = corr("show", "game.corr", "--format", "json")
    assert '"8": "A"' in final.out  # Anna's conquest of field 8


def test_readme_refused_move_example_is_refused(tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for args in walkthrough():
        corr(*args)
    before = (tmp_path / "game.corr").read_bytes()
    result = corr("move", "game.corr", "8 (5,6)")
    assert result.code == 1 and "combat 2.2" in result.err
    assert (tmp_path / "game.corr").read_bytes() == before


def test_readme_moyo_and_puzzle_sections_run_as_written(tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    moyo = [args for args in walkthrough("Sudoku Moyo") if "revenge.corr" not in args]
    assert moyo[0][:2] == ["new", "moyo"]
    for args in moyo + walkthrough("Puzzles"):
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"


def test_readme_email_section_plays_a_signed_game_by_messages(tmp_path: Path, corr, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    games = tmp_path / "games"
    games.mkdir()
    game_id = None
    for args in walkthrough("Playing by email"):
        if args[:2] == ["mail", "send"]:
            continue  # needs an SMTP server: tests/test_mail.py sends to a real one
        args = [a.replace("~/games", str(games)) for a in args]
        if game_id is None and any("<game-id>" in a for a in args):
            game_id = next(games.glob("*.corr")).stem
        args = [a.replace("<game-id>", game_id or "") for a in args]
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    assert corr("mail", "ingest", "move2.eml", "--games", ".").code == 0
    assert (tmp_path / "match.corr").read_bytes() == (games / f"{game_id}.corr").read_bytes()


def test_readme_time_control_section_runs(tmp_path: Path, corr, monkeypatch) -> None:
    from freezegun import freeze_time

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("Time control")
    with freeze_time("2026-05-01 10:00:00") as frozen:
        for args in commands:
            if args[0] == "claim-timeout":
                frozen.move_to("2026-05-11 10:00:00")  # 3 days + 7 vacation days: not yet late
                assert corr(*args).code == 1
                frozen.move_to("2026-05-11 10:00:01")
            result = corr(*args)
            assert result.code == 0, f"corr {' '.join(args)}: {result.err}"


def test_readme_referee_section_settles_a_dispute(tmp_path: Path, corr, monkeypatch) -> None:
    import json
    import shutil

    shutil.copytree(README.parent / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    for args in walkthrough("Referees"):
        if args[0] == "compare":
            continue  # needs two players' copies: tests/test_referee.py compares real ones
        target = None
        if ">" in args:
            args, target = args[: args.index(">")], args[args.index(">") + 1]
        result = corr(*args)
        if args[0] == "challenge":
            assert result.code == 1 and "too late" in result.err
            continue
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
        if target is not None:
            Path(target).write_text(result.out)
    assert "<!DOCTYPE html>" in Path("report.html").read_text()
    position = json.loads(corr("show", "dispute.corr", "--format", "json").out)
    assert position["board"][0] == "." and position["to_move"] == "A"
    assert "ruling" in Path("audit.html").read_text()


def test_readme_card_game_section_deals_and_plays(tmp_path: Path, corr, monkeypatch) -> None:
    """The dealer's walkthrough; `<card>` is the card Anna holds, as `show --for A` tells her."""
    import json

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("СуДоку, the card game")
    assert commands[0][:2] == ["new", "cards"]
    for args in commands:
        if any("<card>" in a for a in args):
            card = json.loads(corr("show", "cards.corr", "--for", "A", "--format", "json").out)["hand"][0]
            args = [a.replace("<card>", str(card)) for a in args]
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    view = json.loads(result.out)
    assert view["viewer"] == "B" and len(view["hand"]) == 1 and view["pile"] == 81 - 4
    assert (tmp_path / "cards.corr.secret").exists()


def test_readme_card_game_by_mail_is_dealt_and_played_through_the_host(tmp_path: Path, corr, monkeypatch,
                                                                         smtp_server) -> None:
    """The host deals a 3-player card game; each seat is mailed its own card; the seats
    answer by mail until the host's reveal; Ben's copy, fed the host's messages, shows his
    card and audits every card at the end."""
    import email
    import email.policy
    import json
    import mailbox
    from email.message import EmailMessage

    inbox, port = smtp_server
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    ben_games = tmp_path / "ben"
    ben_games.mkdir()
    maildir = tmp_path / "Maildir"
    mailbox.Maildir(maildir, create=True)
    Path("smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "hal@example.org"\n')
    addresses = {"A": "anna@example.org", "B": "ben@example.org", "C": "cleo@example.org"}
    game = tmp_path / "games" / "club-cards.corr"

    def bens_mail() -> list[bytes]:
        got = [e.original_content for e in inbox.envelopes if e.rcpt_tos == [addresses["B"]]]
        inbox.envelopes.clear()
        return got

    def dealer() -> dict:
        return json.loads(corr("legal", game, "--json").out)

    game_id = None
    for args in walkthrough("A card game by mail"):
        args = [a.replace("~/Maildir", str(maildir)).replace("~/games", str(ben_games)) for a in args]
        if args[:2] == ["mail", "ingest"]:
            Path("msg.eml").write_bytes(bens_mail()[-1])
        if game_id is None and any("<game-id>" in a for a in args):
            game_id = json.loads(game.read_text().splitlines()[0])["id"]
        args = [a.replace("<game-id>", game_id or "") for a in args]
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
        if args[0] == "show":
            held = json.loads(corr("show", game, "--for", "B", "--format", "json").out)["hand"]
            assert f"hand:   B holds {held[0]}" in result.out
    # play on by mail: the seat on turn answers the host's latest message with its card
    seen = 0
    while (turn := dealer())["seat"] is not None:
        seen += 1
        head = json.loads(corr("show", game, "--format", "json").out)
        answer = EmailMessage()
        answer["From"] = addresses[turn["seat"]]
        answer["To"] = "hal@example.org"
        answer["Subject"] = f"Re: [corr {game_id}] {head['seq']}. your move"
        answer["Message-ID"] = f"<answer-{seen}@example.org>"
        answer.set_content(f"{turn['moves'][0]}\n")
        mailbox.Maildir(maildir, create=False).add(answer)
        result = corr("host", "run", "--maildir", maildir, "--games", "games", "--smtp", "smtp.toml", "--once")
        assert result.code == 0, result.err
        for raw in bens_mail():
            Path("msg.eml").write_bytes(raw)
            took = corr("mail", "ingest", "msg.eml", "--games", ben_games)
            assert took.code == 0, took.err
    last = email.message_from_bytes(Path("msg.eml").read_bytes(), policy=email.policy.default)
    assert "reveal" in str(last["Subject"])
    ben = ben_games / f"{game_id}.corr"
    assert ben.read_bytes() == game.read_bytes()
    audit = json.loads(corr("audit", ben, "--json").out)
    assert audit["intact"] and audit["deal"]["checked"] and audit["result"]["over"]


def test_readme_domino_section_plays_as_written(tmp_path: Path, corr, monkeypatch) -> None:
    """The practice game: a stone, a misplacement (a life), a grey joker, the 6 again."""
    import json

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("Sudoku Domino")
    assert commands[0][:2] == ["new", "domino"]
    for args in commands:
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    view = json.loads(result.out)
    assert view["lives"] == {"A": 2} and view["jokers"] == {"A": {"grey": 3, "gold": 2}}
    assert view["scores"] == {"A": 10} and "g" in view["board"] and view["given"] is not None
    assert not (tmp_path / "practice.corr.secret").exists(), "a public seed needs no dealer"


def test_readme_domino_duel_by_mail_is_played_through_the_host(tmp_path: Path, corr, monkeypatch,
                                                                 smtp_server) -> None:
    """The host deals a duel; each seat answers its own board's messages at its own pace
    until the reveal, and nobody's mail carries the other board's moves before it."""
    import email
    import email.policy
    import json
    import mailbox
    from email.message import EmailMessage

    inbox, port = smtp_server
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    maildir = tmp_path / "Maildir"
    mailbox.Maildir(maildir, create=True)
    Path("smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "hal@example.org"\n')
    assert corr("key", "new", "--out", "hal").code == 0
    addresses = {"A": "anna@example.org", "B": "ben@example.org"}
    seat_of = {v: k for k, v in addresses.items()}
    game = tmp_path / "games" / "duel.corr"
    for args in walkthrough("A Domino duel by mail"):
        args = [a.replace("~/Maildir", str(maildir)) for a in args]
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    latest: dict[str, EmailMessage] = {}
    for turn in range(200):
        for envelope in inbox.take_envelopes():
            msg = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
            latest[seat_of[envelope.rcpt_tos[0]]] = msg  # type: ignore[assignment]
        head = json.loads(corr("show", game, "--format", "json").out)
        if head["over"]:
            break
        seat = "AB"[turn % 2]  # they take turns here, but nothing makes them
        if seat not in head["playing"]:
            continue
        moves = json.loads(corr("legal", game, "--json", "--for", seat).out)["moves"]
        answer = EmailMessage()
        answer["From"] = addresses[seat]
        answer["To"] = "hal@example.org"
        answer["Subject"] = f"Re: {latest[seat]['Subject']}"
        answer["Message-ID"] = f"<answer-{turn}@example.org>"
        answer.set_content(f"{moves[0]}\n")
        mailbox.Maildir(maildir, create=False).add(answer)
        result = corr("host", "run", "--maildir", maildir, "--games", "games", "--smtp", "smtp.toml", "--once")
        assert result.code == 0, result.err
    else:
        pytest.fail("the duel did not end")
    final = latest["B"]
    assert "reveal" in str(final["Subject"])
    (attachment,) = final.iter_attachments()
    assert attachment.get_payload(decode=True) == game.read_bytes()
    audit = json.loads(corr("audit", game, "--json").out)
    assert audit["intact"] and audit["deal"]["checked"] and audit["result"]["over"]


def test_readme_war_section_plays_an_opening_and_copies_the_position(tmp_path: Path, corr, monkeypatch) -> None:
    """The opening as written; `<position>` is the string `corr show` printed, and the new
    game starts from exactly that position."""
    import json

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("Sudoku War")
    assert commands[0][:2] == ["new", "war"]
    position = None
    for args in commands:
        if any("<position>" in a for a in args):
            position = json.loads(corr("show", "war.corr", "--format", "json").out)["position"]
            args = [a.replace("<position>", position) for a in args]
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
        if args[:1] == ["show"] and "--format" not in args:
            shown = json.loads(corr("show", "war.corr", "--format", "json").out)["position"]
            assert shown in result.out, "the text board prints the position string"
    again = json.loads(corr("show", "again.corr", "--format", "json").out)
    assert position is not None and again["position"] == position and again["to_move"] == "B"
    default = README.read_text().split("The default is\n\n", 1)[1].split("\n", 1)[0].strip()
    from corr.games.war.rules import DEFAULT_SETUP

    assert default == DEFAULT_SETUP


def test_readme_moyo_match_runs_as_written(tmp_path: Path, corr, monkeypatch) -> None:
    """moyo 4.2, 4.3: a game, its revenge with every role swapped, and the match."""
    import json

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("A Moyo match")
    assert commands[0][:2] == ["new", "moyo"] and ["match", "short.corr", "revenge.corr"] in commands
    for args in commands:
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    report = json.loads(result.out)
    assert [g["victory_points"] for g in report["games"]] == [{"A": 3, "B": 0}, {"A": 0, "B": 1}]
    assert report["total"] == {"A": 3, "B": 1} and report["winners"] == ["A"]
    revenge = json.loads(corr("show", "revenge.corr", "--format", "json").out)["options"]
    assert (revenge["light"], revenge["first"]) == ("B", "B")
    assert corr("match", "short.corr", "short.corr").code == 1  # one game twice: refused (4.3)


def test_readme_horikomi_match_runs_as_written(tmp_path: Path, corr, monkeypatch) -> None:
    """moyo 4.3 ruling: a Horikomi match goes to the fewest Moyo stones in one's own Shima."""
    import json

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("A Horikomi match")
    assert commands[0][:2] == ["new", "moyo"] and "variant=horikomi" in commands[0]
    for args in commands:
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    assert "total Moyo stones: A 3, B 5: A wins the match" in result.out
    report = json.loads(corr("match", "h.corr", "h-revenge.corr", "--format", "json").out)
    assert [g["moyo_stones"] for g in report["games"]] == [{"A": 3, "B": 1}, {"A": 0, "B": 4}]
    assert [g["winners"] for g in report["games"]] == [["B"], ["A"]] and report["winners"] == ["A"]


def test_readme_forfeited_moyo_game_runs_as_written(tmp_path: Path, corr, monkeypatch) -> None:
    """moyo 4.3 rulings: a game lost by a ruling shows like any other, and its winner
    has the victory points of the position at that moment."""
    import json

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("A forfeited Moyo game")
    assert any(args[:2] == ["referee", "rule"] and "--forfeit" in args for args in commands)
    shown = ""
    for args in commands:
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
        if args == ["show", "ruled.corr"]:
            shown = result.out
    assert "B Ben lost by a ruling" in shown and "game over: A Anna wins with 3 victory points" in shown
    data = json.loads(result.out)
    assert data["over"] and data["winners"] == ["A"] and data["forfeit"] == {"seat": "B", "cause": "by a ruling"}
    assert data["scores"]["A"] == 3


def test_readme_hosting_section_runs_as_written(tmp_path: Path, corr, monkeypatch, smtp_server) -> None:
    """The host's games folder and Maildir need not exist before: `corr new` makes the
    one, the host the other. The endless `host run` line is run as its `--once` pass."""
    inbox, port = smtp_server
    monkeypatch.chdir(tmp_path)
    Path("smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "hal@example.org"\n')
    for args in walkthrough("Hosting"):
        args = [a.replace("~/Maildir", str(tmp_path / "Maildir")) for a in args]
        if args[:2] == ["host", "run"] and "--once" not in args:
            continue
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    # the club game to its three seats, then the game the host vouches for to its two
    assert sorted(e.rcpt_tos[0] for e in inbox.envelopes) == ["anna@example.org", "anna@example.org",
                                                              "ben@example.org", "ben@example.org",
                                                              "cleo@example.org"]
    from corr.log import store

    hosted = store.read(tmp_path / "games" / "hosted.corr")
    assert hosted.header.host is not None and hosted.header.corr == 2


def test_readme_hosting_on_a_mailbox_runs_as_written(tmp_path: Path, corr, monkeypatch, smtp_server) -> None:
    """The section's two settings files, pointed at a Dovecot and an SMTP server on
    127.0.0.1 (and the password file at the test user's), and its commands: the new game
    is announced, and a reply APPENDed to the mailbox is taken by one pass into done."""
    import json

    from dovecot import PASSWORD, USER, dovecot
    from test_host import reply

    from corr import engine
    from corr.mail.settings import read_toml

    section = README.read_text().split("## Hosting on a mailbox\n", 1)[1].split("\n### ", 1)[0]
    imap_toml, smtp_toml = re.findall(r"```toml\n(.*?)```", section, re.S)
    monkeypatch.chdir(tmp_path)
    Path("readme-imap.toml").write_text(imap_toml)
    Path("readme-smtp.toml").write_text(smtp_toml)
    imap, smtp = read_toml("readme-imap.toml", "IMAP", "imap"), read_toml("readme-smtp.toml", "SMTP", "smtp")
    assert imap["tls"] == "implicit" and smtp["starttls"] is True
    inbox, port = smtp_server
    Path("pass").write_text(PASSWORD + "\n")
    with dovecot() as server:
        kept = "".join(f'{key} = "{imap[key]}"\n' for key in ("folder", "done_folder", "bad_folder"))
        Path("imap.toml").write_text(f'[imap]\n{kept}host = "127.0.0.1"\nport = {server.port}\ntls = "none"\n'
                                     f'username = "{USER}"\npassword_file = "pass"\n')
        Path("smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "{smtp["from"]}"\n')
        commands = walkthrough("Hosting on a mailbox")
        assert [args[:2] for args in commands] == [["new", "combat"], ["host", "run"]]
        for args in commands:
            result = corr(*args)
            assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
        assert sorted(e.rcpt_tos[0] for e in inbox.envelopes) == ["anna@example.org", "ben@example.org"]
        path = tmp_path / "games" / "club.corr"
        first = json.loads(corr("legal", path, "--json").out)["moves"][0]
        game_id = engine.load(path).header.id
        server.append(reply(game_id, 0, "Anna <anna@example.org>", first + "\n", "<readme@example.org>").as_bytes())
        result = corr(*commands[1])
        assert result.code == 0, result.err
        assert engine.load(path).seq == 1
        assert server.messages("INBOX") == [] and len(server.messages("corr.done")) == 1


def test_readme_computer_sections_run_as_written(tmp_path: Path, corr, monkeypatch, smtp_server) -> None:
    """A game against strong, the terminal (a move typed, then quit: every move made is
    in the file) and a game against the computer by mail through the host."""
    import io
    import json
    import mailbox

    inbox, port = smtp_server
    monkeypatch.chdir(tmp_path)
    Path("smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "hal@example.org"\n')
    maildir = tmp_path / "Maildir"
    for args in walkthrough("Play against the computer") + walkthrough("At the terminal"):
        args = [a.replace("~/Maildir", str(maildir)) for a in args]
        if args[:2] == ["host", "run"]:
            args.append("--once")  # the README's line runs until stopped
        if args[0] == "play":
            monkeypatch.setattr("sys.stdin", io.StringIO("legal\n2 (5,3)\nquit\n"))
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    played = [json.loads(line) for line in Path("table.corr").read_text().splitlines()[1:]]
    assert [r["by"] for r in played] == ["A", "B"]  # typed at the terminal, and the computer's answer
    moves = [json.loads(line) for line in Path("vs.corr").read_text().splitlines()[1:]]
    assert [r["by"] for r in moves] == ["A", "B"]  # Anna's move and the computer's answer
    assert mailbox.Maildir(maildir, create=False) is not None
    assert [e.rcpt_tos for e in inbox.envelopes] == [["anna@example.org"]]  # the computer gets no mail


def test_readme_status_section_lists_the_games(tmp_path: Path, corr, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    games = tmp_path / "games"
    assert corr("new", "combat", games / "club.corr", "-p", "Anna", "-p", "Ben", "-f", "none").code == 0
    (args,) = walkthrough("Your games at a glance")
    result = corr(*[a.replace("~/games", str(games)) for a in args])
    assert result.code == 0 and "club.corr" in result.out and "(you)" in result.out


def test_readme_ratings_section_prints_what_it_shows(tmp_path: Path, corr, monkeypatch) -> None:
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copytree(README.parent / "examples", tmp_path / "examples")
    (args,) = walkthrough("Ratings")
    result = corr(*args)
    section = README.read_text().split("## Ratings\n", 1)[1]
    shown = re.search(r"```\n(combat, 2 seats.*?)```", section, re.S)
    assert result.code == 0 and shown and result.out == shown.group(1)


def test_every_readme_section_with_commands_is_run_by_a_test() -> None:
    """Each section holding `corr` commands is walked through by a test of this file."""
    text = README.read_text()
    own = Path(__file__).read_text()
    for heading in re.findall(r"\n#{2,} (.+)\n", text):
        if walkthrough(heading) and heading != "Install and play":
            assert f'walkthrough("{heading}")' in own, f"no test runs the README section {heading!r}"


def test_readme_text_board_is_what_corr_prints(tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board the README shows after the walkthrough's first move is the one corr
    prints, line for line."""
    monkeypatch.chdir(tmp_path)
    first = walkthrough()[:2]
    assert first[1] == ["move", "game.corr", "7 (8,7)"]
    for args in first:
        assert corr(*args).code == 0
    printed = corr("show", "game.corr").out.splitlines()
    start = printed.index("+-1-------+-2-------+-3-------+")
    shown = re.search(r"\n```\n(\+-1-.*?)```", README.read_text(), re.S)
    assert shown and shown.group(1).splitlines() == printed[start:start + 13]


def test_readme_step_through_page_is_made_as_written(tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch) -> None:
    """The section's one line, its `> moyo.html` done by the test: a page with a position
    for every record and seq 0, and the result at the end."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").mkdir()
    example = README.parent / "examples" / "moyo-standard.corr"
    (tmp_path / "examples" / "moyo-standard.corr").write_bytes(example.read_bytes())
    (args,) = walkthrough("A game to step through")
    assert args[-2:] == [">", "moyo.html"]
    result = corr(*args[:-2])
    assert result.code == 0, result.err
    Path("moyo.html").write_text(result.out)
    from corr import engine

    records = engine.load(tmp_path / "examples" / "moyo-standard.corr").seq
    assert result.out.count('<section class="position"') == records + 1
    assert "Result: B wins" in result.out


def test_readme_tournament_section_runs_an_event(tmp_path: Path, corr, monkeypatch) -> None:
    """The director's walkthrough; the players' games are played to their end by the
    computer before each `record`."""
    import json
    import random

    from corr import engine, randomplay

    monkeypatch.chdir(tmp_path)
    commands = walkthrough("Running a tournament")
    assert commands[1][:2] == ["tournament", "new"]
    for number, args in enumerate(commands):
        target = None
        if ">" in args:
            args, target = args[: args.index(">")], args[args.index(">") + 1]
        if args[:2] == ["tournament", "record"]:
            for path in sorted(Path("games").glob("*.corr")):
                with engine.writing(path) as table:
                    randomplay.play_on(table, random.Random(number))
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
        if target is not None:
            Path(target).write_text(result.out)
    assert "Sonneborn-Berger" in Path("standings.html").read_text()
    data = json.loads(corr("tournament", "standings", "club.tour", "--format", "json").out)
    assert data["played"] == 2 and sum(r["points"] for r in data["standings"]) == 4


def test_readme_host_runs_the_event_as_written(tmp_path: Path, corr, monkeypatch, smtp_server) -> None:
    """The section's pass over an event of four players waiting for its first round:
    the round is paired into games/ and each player's game announced."""
    inbox, port = smtp_server
    monkeypatch.chdir(tmp_path)
    Path("smtp.toml").write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nfrom = "club@example.org"\n')
    Path("events").mkdir()
    Path("games").mkdir()  # the host's games folder, as in the Hosting section
    players = [f"{n} <{n.lower()}@example.org>" for n in ("Anna", "Ben", "Cleo", "Dan")]
    made = corr("tournament", "new", "events/club.tour", "--game", "combat", "--system", "round-robin",
                *(a for p in players for a in ("-p", p)))
    assert made.code == 0, made.err
    (args,) = walkthrough("The host runs the event")
    args = [a.replace("~/Maildir", str(tmp_path / "Maildir")) for a in args]
    result = corr(*args)
    assert result.code == 0, result.err
    assert "round 1 paired: 2 games" in result.out
    assert sorted(e.rcpt_tos[0] for e in inbox.envelopes) == sorted(p.split("<")[1][:-1] for p in players)


def test_readme_archive_section_runs_as_written(tmp_path: Path, corr, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The archive section imports the examples, searches, counts, exports and reads back."""
    import shutil

    monkeypatch.chdir(tmp_path)
    shutil.copytree(README.parent / "examples", tmp_path / "examples")
    commands = walkthrough("The archive")
    assert [args[:2] for args in commands][0] == ["archive", "import"] and len(commands) == 6
    for args in commands:
        result = corr(*args)
        assert result.code == 0, f"corr {' '.join(args)}: {result.err}"
    assert corr("archive", "search", "--db", "copy.sqlite").out == corr("archive", "search", "--db", "games.sqlite").out
