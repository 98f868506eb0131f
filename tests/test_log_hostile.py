"""Hostile log files (issue "Hardening"): every reader refuses what `corr audit` refuses.

A log reaches corr from other people's machines and mail, so each test here hands the
commands a file someone edited: an impossible date, a byte order mark, UTF-16, a lone
surrogate, a second spelling of a line (spaces, escapes, a duplicate key). The everyday
reader (`corr.log.lines`) and the audit's pydantic reader (`corr.log.models`) must give
the same verdict, and every command a clean one-line error, never a crash, never an
append after a line audit calls corrupt.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corr import engine
from corr.errors import CorruptLog
from corr.log import lines, models, store

# The impossible and the real, as the readers must see them.
IMPOSSIBLE = [
    "2026-02-30T12:00:00Z",  # no Feb 30
    "2025-02-29T12:00:00Z",  # not a leap year
    "2100-02-29T12:00:00Z",  # a century is not, unless divisible by 400
    "2026-04-31T12:00:00Z",
    "2026-13-01T12:00:00Z",
    "2026-00-10T12:00:00Z",
    "2026-01-00T12:00:00Z",
    "0000-01-01T12:00:00Z",  # no year 0
    "2026-01-01T24:00:00Z",
    "2026-01-01T12:60:00Z",
    "2026-01-01T23:59:60Z",  # a leap second: datetime has none
    "2026-01-01T12:00:61Z",
    "２０２６-01-01T12:00:00Z",  # fullwidth digits: pydantic's \d took them
]
REAL = [
    "2024-02-29T23:59:59Z",
    "2000-02-29T00:00:00Z",
    "2026-04-30T12:00:00Z",
    "2026-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
]
READERS = {"lines": store.FAST, "models": models.STRICT, "audit": store.CHECKED}


def new_game(tmp_path: Path, moves: tuple[str, ...] = ("7 (5,4)", "3 (1,2)"), tc: dict | None = None) -> Path:
    path = tmp_path / "g.corr"
    engine.new_game(path, "combat", ["Anna", "Ben"], {}, time_control=tc)
    for move in moves:
        engine.act(path, "move", text=move)
    return path


def rows(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def put(path: Path, lines_: list[bytes]) -> bytes:
    data = b"".join(raw + b"\n" for raw in lines_)
    path.write_bytes(data)
    return data


def verdict(data: bytes, reader: store.Reader) -> tuple:
    """What a reader makes of a whole file: its lines, or (kind, seq) of the refusal."""
    try:
        log = store.parse(data, Path("hostile.corr"), reader)
    except CorruptLog as err:
        assert "\n" not in str(err)
        return ("corrupt", err.kind, err.seq)
    return ("ok", log.header, tuple(log.records))


def both_refuse(data: bytes, kind: str, seq: int | None, line: int) -> None:
    """Both readers refuse the file alike, with one line naming the bad line."""
    for name, reader in READERS.items():
        with pytest.raises(CorruptLog) as caught:
            store.parse(data, Path("hostile.corr"), reader)
        err = caught.value
        assert (err.kind, err.seq) == (kind, seq), (name, str(err))
        assert f"line {line}" in str(err) and "\n" not in str(err), (name, str(err))


def edit_last(path: Path, old: bytes, new: bytes) -> bytes:
    """Replace `old` by `new` in the last line (its chain is covered by no later line)."""
    lines_ = rows(path)
    assert old in lines_[-1]
    lines_[-1] = lines_[-1].replace(old, new, 1)
    return put(path, lines_)


def refused_everywhere(corr, path: Path, line: int, words: str = "") -> None:  # type: ignore[no-untyped-def]
    """show and audit report the file corrupt (exit 2); move refuses and appends nothing.
    The everyday commands' one-line error names the line and says `words`."""
    before = path.read_bytes()
    for args in (("show", path), ("move", path, "1 (1,1)", "-f", "none"), ("audit", path)):
        result = corr(*args)
        assert result.code == 2, (args, result.out, result.err)
        said = result.err + result.out
        assert f"line {line}" in said and "internal error" not in said, (args, said)
        if args[0] != "audit":  # audit words it as pydantic does
            assert words in result.err and result.err.count("\n") == 1, (args, result.err)
    assert path.read_bytes() == before


# ---------------------------------------------------------------------------------
# 1. impossible dates


@pytest.mark.parametrize("stamp", IMPOSSIBLE)
def test_an_impossible_record_time_is_a_schema_error_in_both_readers(tmp_path: Path, stamp: str) -> None:
    path = new_game(tmp_path)
    lines_ = rows(path)
    lines_[-1] = json.dumps({**json.loads(lines_[-1]), "at": stamp}, separators=(",", ":"), ensure_ascii=False).encode()
    data = put(path, lines_)
    for read in (lines.read_record, models.read_record):
        with pytest.raises(lines.LineError, match="at: .*not a real UTC time"):
            read(lines_[-1])
    both_refuse(data, "schema", 2, 3)


@pytest.mark.parametrize("stamp", IMPOSSIBLE)
def test_an_impossible_creation_time_is_a_schema_error_in_both_readers(tmp_path: Path, stamp: str) -> None:
    path = new_game(tmp_path, moves=())
    header = json.loads(rows(path)[0])
    header["created"] = stamp
    data = put(path, [json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()])
    both_refuse(data, "schema", None, 1)


@pytest.mark.parametrize("stamp", REAL)
def test_real_times_at_the_edges_of_the_calendar_pass_both_readers(tmp_path: Path, stamp: str) -> None:
    path = new_game(tmp_path, moves=())
    header = json.loads(rows(path)[0])
    header["created"] = stamp
    data = put(path, [json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()])
    assert verdict(data, store.FAST) == verdict(data, models.STRICT)
    assert verdict(data, store.FAST)[1].created == stamp


def test_the_readers_agree_with_the_calendar_on_every_day() -> None:
    from datetime import datetime

    base = json.loads(lines.dump(lines.Record(1, "move", "A", REAL[0], "0" * 64, "0" * 64, "1 (1,1)")))
    for year in ("0000", "0001", "0004", "0100", "0400", "1900", "2000", "2024", "2025", "2100", "9999"):
        for month in range(0, 14):
            for day in range(0, 33):
                for clock_ in ("00:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60"):
                    stamp = f"{year}-{month:02d}-{day:02d}T{clock_}Z"
                    try:
                        datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ")
                        real = True
                    except ValueError:
                        real = False
                    raw = json.dumps({**base, "at": stamp}, separators=(",", ":")).encode()
                    verdicts = []
                    for read in (lines.read_record, models.read_record):
                        try:
                            verdicts.append(read(raw).at == stamp)
                        except lines.LineError:
                            verdicts.append(False)
                    assert verdicts == [real, real], stamp


def test_an_impossible_time_in_a_timed_game_is_reported_not_a_crash(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    """audit, clock and vacation used to die with `ValueError: day is out of range for month`."""
    path = new_game(tmp_path, moves=("7 (5,4)",), tc={"kind": "per-move", "days": 3, "vacation_days": 14})
    at = json.loads(rows(path)[-1])["at"].encode()
    edit_last(path, at, b"2026-02-30T12:00:00Z")
    before = path.read_bytes()
    for args in (("audit", path), ("clock", path), ("vacation", path, "--by", "B", "--days", "2"), ("show", path)):
        result = corr(*args)
        said = result.err + result.out
        assert result.code == 2, (args, said)
        assert "line 2" in said and "not a real UTC time" in said and "internal error" not in said, (args, said)
    assert path.read_bytes() == before


def test_an_impossible_creation_time_in_a_timed_game_is_reported_not_a_crash(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path, moves=(), tc={"kind": "per-move", "days": 3})
    header = json.loads(rows(path)[0])
    header["created"] = "2026-02-30T12:00:00Z"
    put(path, [json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()])
    for args in (("audit", path), ("clock", path)):
        result = corr(*args)
        said = result.err + result.out
        assert result.code == 2 and "line 1" in said and "created" in said, (args, said)
        assert "internal error" not in said


def test_a_copy_never_accepts_a_record_with_an_impossible_time(tmp_path: Path) -> None:
    """`mail ingest` takes a player's records into an existing copy through engine.accept:
    the date refused there never reaches a later host pass."""
    path = new_game(tmp_path, tc={"kind": "per-move", "days": 3})
    theirs = rows(path)
    mine = put(path, theirs[:-1])
    record = json.loads(theirs[-1])
    record["at"] = "2026-02-30T12:00:00Z"
    raw = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
    with pytest.raises(CorruptLog, match="not a real UTC time") as caught:
        engine.accept(path, [raw])
    assert caught.value.kind == "schema"
    assert path.read_bytes() == mine


# ---------------------------------------------------------------------------------
# 2. bytes that are not UTF-8 text


def test_a_byte_order_mark_is_refused_by_every_command(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path)
    data = b"\xef\xbb\xbf" + path.read_bytes()
    path.write_bytes(data)
    both_refuse(data, "schema", None, 1)
    refused_everywhere(corr, path, 1)
    assert "byte order mark" in corr("show", path).err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_log_in_utf16_or_utf32_is_refused_by_every_command(tmp_path: Path, corr, encoding: str) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path, moves=())
    data = path.read_bytes().decode().encode(encoding)
    path.write_bytes(data)
    assert verdict(data, store.FAST)[0] == verdict(data, models.STRICT)[0] == "corrupt"
    for args in (("show", path), ("audit", path), ("move", path, "7 (5,4)")):
        result = corr(*args)
        assert result.code == 2 and "internal error" not in result.err + result.out, (args, result.err)
    assert path.read_bytes() == data


@pytest.mark.parametrize("text", [b"\\ud800", b"\\udfff", b"x\\ud83dy", b"\\ude00\\ud83d"])
def test_a_lone_surrogate_escape_is_refused_by_every_command(tmp_path: Path, corr, text: bytes) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path)
    data = edit_last(path, b'"prev"', b'"note":"' + text + b'","prev"')
    both_refuse(data, "schema", 2, 3)
    refused_everywhere(corr, path, 3, "surrogate")


def test_a_surrogate_encoded_as_bytes_is_refused(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path)
    data = edit_last(path, b'"prev"', b'"note":"\xed\xa0\x80","prev"')
    both_refuse(data, "schema", 2, 3)
    refused_everywhere(corr, path, 3, "UTF-8")


def test_a_lone_surrogate_in_the_header_is_refused(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path, moves=())
    data = put(path, [rows(path)[0].replace(b'"name":"Anna"', b'"name":"Anna\\udc00"')])
    both_refuse(data, "schema", None, 1)
    refused_everywhere(corr, path, 1)


def test_a_copy_refuses_an_incoming_line_with_a_lone_surrogate(tmp_path: Path) -> None:
    """engine.accept used to crash on it (UnicodeEncodeError) instead of refusing it."""
    path = new_game(tmp_path)
    theirs = rows(path)
    mine = put(path, theirs[:-1])
    raw = theirs[-1].replace(b'"prev"', b'"note":"\\ud800","prev"')
    with pytest.raises(CorruptLog, match="surrogate"):
        engine.accept(path, [raw])
    assert path.read_bytes() == mine


# ---------------------------------------------------------------------------------
# 3. one byte form per line

RECORD_SPELLINGS = {
    "space after a colon": (b'"by":"', b'"by": "'),
    "space after a comma": (b',"at"', b', "at"'),
    "tab before the end": (b'"}', b'"\t}'),
    "an escaped letter": (b'"by":"B"', b'"by":"\\u0042"'),
    "an escaped digit": (b'"move":"3', b'"move":"\\u0033'),
    "an escaped solidus": (b'"prev"', b'"note":"a\\/b","prev"'),
    "a long escape for a tab": (b'"prev"', b'"note":"a\\u0009b","prev"'),
    "an upper-case escape": (b'"prev"', b'"note":"a\\u001Fb","prev"'),
    "an escaped surrogate pair": (b'"prev"', b'"note":"\\ud83d\\ude00","prev"'),
    "a duplicate key": (b'"move":"', b'"move":"9 (9,9)","move":"'),
    "keys out of order": None,
    "an explicit null": (b'"prev"', b'"target":null,"prev"'),
}


@pytest.mark.parametrize("spelling", list(RECORD_SPELLINGS))
def test_a_second_spelling_of_a_record_is_refused_by_both_readers(tmp_path: Path, corr, spelling: str) -> None:  # type: ignore[no-untyped-def]
    path = new_game(tmp_path)
    if RECORD_SPELLINGS[spelling] is None:
        lines_ = rows(path)
        record = json.loads(lines_[-1])
        lines_[-1] = json.dumps({"at": record.pop("at"), **record}, separators=(",", ":")).encode()
        data = put(path, lines_)
    else:
        data = edit_last(path, *RECORD_SPELLINGS[spelling])
    raw = rows(path)[-1]
    assert lines.read_record(raw) == models.read_record(raw)  # a valid record, spelt another way
    both_refuse(data, "noncanonical", 2, 3)
    refused_everywhere(corr, path, 3, "canonical")


def test_the_duplicate_key_fork_is_closed(tmp_path: Path) -> None:
    """`"move":"9 (9,9)","move":"4 (6,1)"`: corr reads the last, another reader the first.
    Both of corr's readers now refuse the line, so no copy can hold it."""
    path = new_game(tmp_path)
    real = json.loads(rows(path)[-1])["move"]
    data = edit_last(path, f'"move":"{real}"'.encode(), f'"move":"9 (9,9)","move":"{real}"'.encode())
    assert lines.read_record(rows(path)[-1]).move == real  # the codec alone takes the last
    both_refuse(data, "noncanonical", 2, 3)


HEADER_SPELLINGS = {
    "space after a colon": (b'"game":"combat"', b'"game": "combat"'),
    "an escaped letter": (b'"name":"Anna"', b'"name":"\\u0041nna"'),
    "an escaped slash": (b'"name":"Anna"', b'"name":"Anna\\/Ben"'),
    "a duplicate key": (b'"game":"combat"', b'"game":"moyo","game":"combat"'),
    "an explicit null": (b'"created"', b'"commitment":null,"created"'),
    "defaults left out": (b'"corr":2,"type":"header",', b""),
}


@pytest.mark.parametrize("spelling", list(HEADER_SPELLINGS))
def test_a_second_spelling_of_the_header_is_refused_by_both_readers(tmp_path: Path, corr, spelling: str) -> None:  # type: ignore[no-untyped-def]
    """Before the first move nothing chains to the header: two spellings would fork the game."""
    path = new_game(tmp_path, moves=())
    old, new = HEADER_SPELLINGS[spelling]
    header = rows(path)[0]
    assert old in header
    data = put(path, [header.replace(old, new, 1)])
    if spelling == "an escaped slash":  # a real name with a slash, escaped: still a second spelling
        data = put(path, [header.replace(old, b'"name":"Anna/Ben"', 1)])
        assert verdict(data, store.FAST)[0] == "ok"
        data = put(path, [header.replace(old, new, 1)])
    both_refuse(data, "noncanonical", None, 1)
    refused_everywhere(corr, path, 1, "canonical")


def test_what_corr_writes_is_canonical_and_reads_back(tmp_path: Path) -> None:
    """The other side: text corr writes with escapes it needs (quotes, backslashes, control
    characters, non-ASCII) is its canonical form and passes both readers."""
    path = new_game(tmp_path, moves=())
    engine.act(path, "comment", note='she said "\\ tab\there\n" - Ærø ✓ \u2028 \x7f')
    data = path.read_bytes()
    assert verdict(data, store.FAST) == verdict(data, models.STRICT)
    assert verdict(data, store.FAST)[0] == "ok"
    assert store.read(path).records[-1].note == 'she said "\\ tab\there\n" - Ærø ✓ \u2028 \x7f'


def test_a_copy_refuses_a_second_spelling_of_a_record_it_has(tmp_path: Path) -> None:
    path = new_game(tmp_path)
    before = path.read_bytes()
    spaced = rows(path)[-1].replace(b'"by":"', b'"by": "')
    with pytest.raises(CorruptLog):
        engine.accept(path, [spaced])
    assert path.read_bytes() == before
