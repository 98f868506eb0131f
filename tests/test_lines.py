"""The pydantic-free line codec agrees with the pydantic models on every line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st
from pydantic import ValidationError

from corr import randomplay
from corr.errors import CorruptLog
from corr.log import lines, models
from corr.log import store

REP = randomplay.play("combat", ["Anna", "Ben", "Cleo"], {"mode": "as-written"}, seed=4)
HEADER = json.loads(REP.log.header_raw)
RECORDS = [json.loads(raw) for raw in REP.log.raw]
RITA = {"name": "Rita", "email": "rita@example.org", "key": "ed25519:" + "A" * 43 + "="}
OFFICIATED = {**HEADER, "referee": RITA, "host": {"name": "corr host", "key": RITA["key"]}}

#: Times real and impossible: every field by its range and a little beyond (month 13,
#: Feb 30, hour 24, second 60 and 61, year 0), and the edges of the calendar.
stamps = st.builds(
    "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}Z".format,
    st.integers(0, 9999) | st.sampled_from([1900, 2000, 2024, 2025, 2100]), st.integers(0, 13),
    st.integers(0, 32), st.integers(0, 25), st.integers(0, 61), st.integers(0, 61),
) | st.sampled_from([
    "2026-02-30T12:00:00Z", "2024-02-29T12:00:00Z", "2025-02-29T12:00:00Z", "2100-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-01-01T24:00:00Z",
    "２０２６-01-01T00:00:00Z", "2026-1-01T00:00:00Z", "2026-01-01T00:00:00z",
])
#: Strings no text is: lone surrogates, and a BOM character (which is text, inside a line).
odd_text = st.sampled_from([chr(0xD800), "a" + chr(0xDFFF), chr(0xDC00) + chr(0xD83D), "\ufeff", "\u2028", "\x00"])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=5)
    | st.sampled_from(["A", "host", "move", "2026-01-01T00:00:00Z", "0" * 64, "combat", "abcd"]) | stamps | odd_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4) | odd_text, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    data = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(0, 2))):
        stamped = [k for k in ("at", "created") if k in keys]
        action = draw(st.sampled_from(["drop", "set", "add", "stamp"] if stamped else ["drop", "set", "add"]))
        key = draw(st.sampled_from(keys))
        if action == "drop":
            data.pop(key, None)
        elif action == "set":
            data[key] = draw(json_values)
        elif action == "stamp":  # the time fields, which hold most of the ways to be impossible
            data[draw(st.sampled_from(stamped))] = draw(stamps)
        else:
            data[draw(st.text(min_size=1, max_size=6))] = draw(json_values)
    return data


def pydantic_verdict(model: type, data: Any) -> Any:
    try:
        return model.model_validate_json(json.dumps(data))
    except ValidationError:
        return None


def fast_verdict(parse: Any, data: Any) -> Any:
    try:
        return parse(lines.decode(json.dumps(data).encode()))
    except lines.LineError:
        return None


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(RECORDS).flatmap(lambda r: mutated(r, lines.RECORD_KEYS)))
def test_record_codec_agrees_with_the_pydantic_model(data: dict[str, Any]) -> None:
    slow = pydantic_verdict(models.Record, data)
    fast = fast_verdict(lines.record_from, data)
    assert (slow is None) == (fast is None), data
    if fast is not None:
        assert lines.dump(fast) == models.dump(slow)


@settings(max_examples=300, deadline=None)
@given(mutated(HEADER, lines.HEADER_KEYS))
def test_header_codec_agrees_with_the_pydantic_model(data: dict[str, Any]) -> None:
    slow = pydantic_verdict(models.Header, data)
    fast = fast_verdict(lines.header_from, data)
    assert (slow is None) == (fast is None), data
    if fast is not None:
        assert lines.dump(fast) == models.dump(slow)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["referee", "host"]).flatmap(
    lambda role: mutated(OFFICIATED[role], lines.OFFICIAL_KEYS).map(lambda o: {**OFFICIATED, role: o})))
def test_header_officials_agree_with_the_pydantic_model(data: dict[str, Any]) -> None:
    slow = pydantic_verdict(models.Header, data)
    fast = fast_verdict(lines.header_from, data)
    assert (slow is None) == (fast is None), data
    if fast is not None:
        assert lines.dump(fast) == models.dump(slow)
        assert models.read_header(lines.dump(fast)) == fast


@pytest.mark.parametrize("raw", [REP.log.header_raw, *REP.log.raw[:20]])
def test_real_lines_round_trip_byte_for_byte(raw: bytes) -> None:
    data = lines.decode(raw)
    value = lines.header_from(data) if data.get("type") == "header" else lines.record_from(data)
    assert lines.dump(value) == raw


# ---------------------------------------------------------------------------------
# Whole lines as bytes: one reader, one verdict (issue "Hardening")

READERS = (store.FAST, models.STRICT)


@st.composite
def respelt(draw: st.DrawFn, raw: bytes) -> bytes:
    """A canonical line made hostile at the byte level: a BOM, another encoding, spaces,
    escapes, lone surrogates, duplicate or reordered keys, nulls, bad bytes, other times."""
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["bom", "encoding", "space", "escape", "surrogate", "duplicate", "reorder",
                                   "null", "bytes", "stamp", "pair"]))
        at = draw(st.integers(0, len(raw)))
        if op == "bom":
            raw = b"\xef\xbb\xbf" + raw
        elif op == "encoding":
            codec = draw(st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1"]))
            raw = raw.decode("utf-8", "replace").encode(codec, "replace")
        elif op == "space":
            raw = raw[:at] + draw(st.sampled_from([b" ", b"\t", b"\r", b"  "])) + raw[at:]
        elif op == "escape":  # one character of the line as \\uXXXX (upper or lower case hex)
            char = raw[at:at + 1]
            if char and char.isalnum():
                raw = raw[:at] + (draw(st.sampled_from([b"\\u%04x", b"\\u%04X"])) % char[0]) + raw[at + 1:]
        elif op == "surrogate":
            raw = raw[:at] + draw(st.sampled_from([b"\\ud800", b"\\udfff", b"\\uDBFF", b"\\udc00\\ud800"])) + raw[at:]
        elif op == "pair":  # a valid escaped pair or an escaped control character: text, spelt long
            raw = raw[:at] + draw(st.sampled_from([b"\\ud83d\\ude00", b"\\u0009", b"\\n", b"\\/"])) + raw[at:]
        elif op == "bytes":
            raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe2\x80\xa8",
                                                   b"\x7f", b"\x00", b"\xef\xbb\xbf"])) + raw[at:]
        else:
            try:
                data = json.loads(raw)
            except ValueError:
                continue
            if type(data) is not dict or not data:
                continue
            key = draw(st.sampled_from(sorted(data)))
            if op == "duplicate":  # the key twice: once with another value, first or last
                other = json.dumps(draw(json_values | st.just(data[key])), separators=(",", ":"))
                pair = json.dumps(key).encode() + b":" + other.encode()
                raw = b"{" + pair + b"," + raw[1:] if draw(st.booleans()) else raw[:-1] + b"," + pair + b"}"
            elif op == "reorder":
                data = {key: data.pop(key), **data}
                raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
            elif op == "null":
                extra = draw(st.sampled_from(["target", "note", "sig", "seed", "time_control", "commitment", "move"]))
                raw = raw[:-1] + b',"' + extra.encode() + b'":null}'
            elif op == "stamp" and ("at" in data or "created" in data):
                data["at" if "at" in data else "created"] = draw(stamps)
                raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    return raw


def log_verdict(data: bytes, reader: store.Reader) -> tuple[Any, ...]:
    """A whole file as a reader sees it: the lines read, or the kind and seq of the refusal."""
    try:
        log = store.parse(data, Path("mutated.corr"), reader)
    except CorruptLog as err:
        assert "\n" not in str(err)
        return ("corrupt", err.kind, err.seq)
    assert store.text(log) == data.rsplit(b"\n", 1)[0] + b"\n"  # what was read is its one spelling
    return ("ok", log.header, tuple(log.records))


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 12).flatmap(lambda i: st.tuples(st.just(i), respelt(REP.log.raw[i]))))
def test_both_readers_give_one_verdict_on_a_respelt_record(case: tuple[int, bytes]) -> None:
    i, raw = case
    data = b"".join(line + b"\n" for line in [REP.log.header_raw, *REP.log.raw[:i], raw])
    fast, strict = (log_verdict(data, reader) for reader in READERS)
    assert fast == strict, raw


@settings(max_examples=300, deadline=None)
@given(respelt(REP.log.header_raw), st.integers(0, 2))
def test_both_readers_give_one_verdict_on_a_respelt_header(raw: bytes, records: int) -> None:
    data = b"".join(line + b"\n" for line in [raw, *REP.log.raw[:records]])
    fast, strict = (log_verdict(data, reader) for reader in READERS)
    assert fast == strict, raw


def refusal(data: bytes, reader: store.Reader) -> str | None:
    """The words a reader refuses a whole file with, or None when it takes it."""
    try:
        store.parse(data, Path("mutated.corr"), reader)
    except CorruptLog as err:
        return str(err)
    return None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 12).flatmap(lambda i: st.tuples(st.just(i), respelt(REP.log.raw[i]))))
def test_an_audit_refuses_a_line_in_the_models_words(case: tuple[int, bytes]) -> None:
    """`corr audit` reads with the codec and has the models read a line it refuses:
    its verdict and the finding's words are the models' own."""
    i, raw = case
    data = b"".join(line + b"\n" for line in [REP.log.header_raw, *REP.log.raw[:i], raw])
    assert log_verdict(data, store.CHECKED) == log_verdict(data, models.STRICT), raw
    assert refusal(data, store.CHECKED) == refusal(data, models.STRICT), raw


def test_an_audit_of_a_sound_log_builds_no_models(tmp_path: Path) -> None:
    """Building the pydantic models costs an audit more time and memory than a long
    log's records: a log the codec takes whole never needs them."""
    path = tmp_path / "g.corr"
    path.write_bytes(store.text(REP.log))
    probe = ("import sys; from corr.audit import audit; "
             f"report = audit({str(path)!r}); print(report['intact'], 'pydantic' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.stdout.split() == ["True", "False"]


record_text = st.text(max_size=30) | st.sampled_from(['"', "\\", "\x00\x1f\x7f", "\u2028\u2029", "é✓😀", "\ufeff", "a/b"])


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(RECORDS),
    st.none() | record_text.filter(lambda t: len(t) <= 100),
    st.none() | st.integers(1, 10**30),
    st.none() | record_text,
    st.none() | record_text,
)
def test_the_fast_canonical_form_is_dump(base: dict[str, Any], move: Any, target: Any, note: Any, sig: Any) -> None:
    """store.parse holds each record line to canonical_record(record): the same bytes as
    lines.dump and the models' dump, for every record a reader accepts."""
    record = lines.record_from(base)._replace(move=move, target=target, note=note, sig=sig)
    raw = lines.canonical_record(record)
    assert raw == lines.dump(record) == models.dump(models.Record.model_validate_json(raw))
    assert lines.read_record(raw) == models.read_record(raw) == record


def _models_verdict(raw: bytes) -> Any:
    """What the models' reader and the canonical form make of a record line: the record,
    or the name of the refusal."""
    try:
        record = models.read_record(raw)
    except lines.LineError:
        return "invalid"
    return record if lines.canonical_record(record) == raw else "noncanonical"


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(REP.log.raw),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 3),
                       st.sampled_from([b'"', b"\\", b"\x00", b"\x1f", b" ", b"0", b"1", b"a", b"\xc3\xa9", b"\xff",
                                        b"\xed\xa0\x80", b",", b":", b"}", b"{", b'"move":"x",', b"Z", b"-", b"A", b"F", b"G"])),
             max_size=4),
    record_text,
)
def test_a_plain_line_is_read_as_the_models_read_it(raw: bytes, edits: list[tuple[int, int, bytes]], move: str) -> None:
    """store.parse takes a line of the common shape off its bytes (lines.plain_record)
    without the models; whatever such a line becomes after edits - a byte dropped or
    put in, a field respelt, a move of odd text - the shape accepts it only where the
    models' reader gives the same record and the line is canonical."""
    if move and b'"move":"' in raw:
        head, rest = raw.split(b'"move":"', 1)
        raw = head + b'"move":' + json.dumps(move, ensure_ascii=False).encode() + rest.split(b'"', 1)[1]
    line = bytearray(raw)
    for at, cut, put in edits:
        at = min(at, len(line))
        line[at:at + cut] = put
    data = bytes(line)
    fast = lines.plain_record(data)
    if fast is not None:
        assert _models_verdict(data) == fast, data


def test_the_plain_shape_takes_most_records_and_leaves_the_rest_to_the_readers() -> None:
    """The common record lines (moves, passes, challenges) take the plain path; a line with
    a target, a note or an escaped move does not, and is read field by field."""
    plain = [raw for raw in REP.log.raw if lines.plain_record(raw) is not None]
    assert len(plain) == len(REP.log.raw)
    for raw in plain:
        assert lines.plain_record(raw) == models.read_record(raw)
    record = models.read_record(REP.log.raw[0])
    for other in (record._replace(target=1), record._replace(note="n"), record._replace(move='7 "(5,4)"'),
                  record._replace(move="\u00e9" * 101)):
        assert lines.plain_record(lines.canonical_record(other)) is None


def test_every_one_byte_change_of_a_plain_line_is_read_as_the_models_read_it() -> None:
    """Each byte of a move line replaced, dropped or doubled, one at a time, with bytes
    that matter to JSON, to the fields' patterns and to UTF-8: the plain shape accepts
    a changed line only where the models' reader gives the same record."""
    raw = next(r for r in REP.log.raw if b'"move":"' in r)
    swaps = [b'"', b"\\", b"\x00", b"\x1f", b" ", b"0", b"9", b"a", b"f", b"g", b"A", b"F", b"Z", b"z", b"T", b"-",
             b":", b",", b"{", b"}", b"\xc3", b"\xff", b"\xc3\xa9", b""]
    accepted = 0
    for at in range(len(raw)):
        for put in swaps + [raw[at:at + 1] * 2]:
            data = raw[:at] + put + raw[at + 1:]
            fast = lines.plain_record(data)
            if fast is not None:
                accepted += 1
                assert _models_verdict(data) == fast, data
    assert accepted > len(raw)  # digits, hex and move text may change and stay valid
