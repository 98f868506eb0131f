"""The pydantic-free line codec agrees with the pydantic models on every line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st
from pydantic import ValidationError

from corr import randomplay
from corr.log import lines, models
from corr.log import store

REP = randomplay.play("combat", ["Anna", "Ben", "Cleo"], {"mode": "as-written"}, seed=4)
HEADER = json.loads(REP.log.header_raw)
RECORDS = [json.loads(raw) for raw in REP.log.raw]
RITA = {"name": "Rita", "email": "rita@example.org", "key": "ed25519:" + "A" * 43 + "="}
OFFICIATED = {**HEADER, "referee": RITA, "host": {"name": "corr host", "key": RITA["key"]}}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=5)
    | st.sampled_from(["A", "host", "move", "2026-01-01T00:00:00Z", "0" * 64, "combat", "abcd"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    data = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(0, 2))):
        action = draw(st.sampled_from(["drop", "set", "add"]))
        key = draw(st.sampled_from(keys))
        if action == "drop":
            data.pop(key, None)
        elif action == "set":
            data[key] = draw(json_values)
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
