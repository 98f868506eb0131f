"""The log's two line shapes, header and record, as pydantic models.

These models define the log format: the JSON Schema in `schemas/` is generated from
them and `corr audit` validates every line with them. Everyday commands read lines
through `corr.log.lines`, which applies the same constraints without importing
pydantic; a property test keeps the two in agreement. A record line of the common
shape (`lines.plain_record`) is read off its bytes by either reader: tests hold that
shape to these models byte change by byte change.
"""

from __future__ import annotations

import json
import operator
from typing import Literal

from corr.log import lines

from pydantic import BaseModel, ConfigDict, Field, ValidationError

FORMAT_VERSION = lines.FORMAT_VERSION
HEX64 = r"^[0-9a-f]{64}$"
#: A UTC time that exists (no Feb 30, hour 24 or second 60): the codec's regex, so both
#: readers refuse the same stamps; pydantic-core matches it without calling Python.
STAMP = f"^{lines.STAMP_PATTERN}$"
STAMP_TEXT = "UTC time YYYY-MM-DDTHH:MM:SSZ that exists: no Feb 30, hour 24 or second 60."
SEAT = r"^[A-F]$"



class Seat(BaseModel):
    """One player's chair at the table: seat letter, name, and how to reach and verify them."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    seat: str = Field(pattern=SEAT, description="Seat letter: A moves first.")
    name: str = Field(min_length=1, max_length=200)
    email: str | None = Field(default=None, max_length=320)
    key: str | None = Field(default=None, description="Public key, when moves are signed.")


class Official(BaseModel):
    """A referee or the host: not a seat, but may append signed rulings."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1, max_length=200)
    email: str | None = Field(default=None, max_length=320)
    key: str = Field(description="Public key: every ruling is signed with it.")


class Header(BaseModel):
    """Line 1 of a log: what game, which options, who plays. Never rewritten."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    corr: int = Field(default=FORMAT_VERSION, ge=min(lines.FORMATS), le=max(lines.FORMATS),
                      description="Log format version: 2 is written, 1 is read (its Domino duels hash every board).")
    type: Literal["header"] = "header"
    id: str = Field(pattern=r"^[0-9a-z-]{4,64}$", description="Game id, used in mail subjects.")
    game: str = Field(pattern=r"^[a-z]+$", description="Registered game name.")
    options: dict[str, str] = Field(default_factory=dict, description="Rule options, all resolved.")
    seats: list[Seat] = Field(min_length=1, max_length=6)
    time_control: dict[str, int | str] | None = None
    referee: Official | None = Field(default=None, description="Who may rule on disputes (DESIGN 5).")
    host: Official | None = Field(default=None, description="The host running the game, who may rule too.")
    commitment: str | None = Field(
        default=None, pattern=HEX64,
        description="Games with hidden information: SHA-256 hex of the dealer's secret seed (DESIGN 6).",
    )
    created: str = Field(pattern=STAMP, description=STAMP_TEXT)


class Record(BaseModel):
    """One event after the header: a move, pass, challenge, ruling, ...

    `prev` chains each line to the exact bytes of the line before it; `state` is the hash
    of the position after the record, so replay can prove it reaches the same place.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    seq: int = Field(ge=1)
    type: str = Field(
        pattern=f"^{lines.TYPE_PATTERN}$",
        description="What the record is: the engine's comment, ruling, timeout and vacation, and each game's own "
        "(move, pass, challenge, reveal, resign, draw-offer, ...; `corr games --json` lists them).",
    )
    by: str = Field(pattern=r"^([A-F]|host|referee|dealer)$")
    at: str = Field(pattern=STAMP, description=STAMP_TEXT)
    move: str | None = Field(default=None, max_length=100)
    target: int | None = Field(default=None, ge=1, description="The seq a challenge or ruling is about.")
    note: str | None = Field(default=None, max_length=2000)
    seed: str | None = Field(
        default=None, pattern=r"^[0-9a-f]{32,128}$",
        description="A dealer's reveal: the seed the header's commitment binds.",
    )
    prev: str = Field(pattern=HEX64)
    state: str = Field(pattern=HEX64, description="SHA-256 of the public view after the record (format 2).")
    seal: str | None = Field(
        default=None, pattern=HEX64,
        description="A board the public does not see yet (a running Domino duel, format 2): HMAC-SHA-256 of the "
        "mover's board, keyed by a salt from the dealer's seed, so it shows nothing until the reveal.",
    )
    sig: str | None = None


def json_schemas() -> dict[str, dict]:
    """The JSON Schema of each line shape, as written to `schemas/`."""
    return {
        "header.schema.json": Header.model_json_schema(),
        "record.schema.json": Record.model_json_schema(),
    }


def dump(model: Header | Record) -> bytes:
    """The canonical one-line JSON of a model: field order, no nulls, no newline."""
    return json.dumps(model.model_dump(exclude_none=True), separators=(",", ":"), ensure_ascii=False).encode()


def _problem(err: ValidationError) -> lines.LineError:
    """The first fault pydantic found, as the codec's one-line error naming the field."""
    first = err.errors()[0]
    where = ".".join(str(x) for x in first.get("loc", ())) or "line"
    message = first.get("msg", "invalid")
    if first.get("type") == "string_pattern_mismatch":  # not the whole regex in the message
        if first.get("ctx", {}).get("pattern") == STAMP:
            message = f"{str(first.get('input'))[:40]!r} is not a real UTC time YYYY-MM-DDTHH:MM:SSZ"
        else:
            message = "does not match its pattern"
    return lines.LineError(where, message)


def read_header(raw: bytes) -> lines.Header:
    """A header line validated by the model, as the plain value everything else uses."""
    try:
        model = Header.__pydantic_validator__.validate_json(raw)
    except ValidationError as err:
        raise _problem(err) from None
    data = model.model_dump()
    data["seats"] = tuple(lines.Seat(**seat) for seat in data["seats"])
    for role in ("referee", "host"):
        if data[role] is not None:
            data[role] = lines.Official(**data[role])
    return lines.Header(**data)


def read_record(raw: bytes) -> lines.Record:
    """A record line validated by the model, as the plain value everything else uses."""
    try:
        m = _validate_record(raw)
    except ValidationError as err:
        raise _problem(err) from None
    return _new_tuple(lines.Record, _record_values(m.__dict__))  # lines.Record(m.seq, ...), at half the cost


_validate_record = Record.__pydantic_validator__.validate_json
_new_tuple = tuple.__new__
#: A validated model's field values (pydantic keeps them in its __dict__) in lines.Record order.
_record_values = operator.itemgetter(*lines.Record._fields)

#: The models as a reader: what the codec is held to (tests/test_lines.py), and what
#: names the fault of a line `corr audit` refuses (`store.CHECKED`).
STRICT = (read_header, read_record)
