"""What a dealer's message told one seat of its hidden state (its hand), as a player's
copy keeps it beside its log, in `FILE.mail.json` under `private`.

A copy that cannot deal knows a seat's card only from the dealer's message to that seat
(`X-Corr-For`, `X-Corr-Private`, and in a hosted game the host's signature of it,
`X-Corr-Private-Sig`). The seat view shows it to that seat only, while it still holds.
A panel arrives by mail: it is checked like any input before it is kept, and read back
as hostile input too (the file may have been edited).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from corr.log.sidecars import read_json, write_json

#: The sidecar a game's mail state is kept in, beside its log.
SIDECAR_SUFFIX = ".mail.json"
#: What a private panel may hold (it arrives by mail, so it is checked like any input):
#: the header's length, the number of keys, a key's length, a list's length.
MAX_PANEL_TEXT = 1000
MAX_PANEL_KEYS = 8
MAX_PANEL_KEY = 32
MAX_PANEL_LIST = 100
_PANEL_KEY = re.compile(r"[a-z_][a-z0-9_-]{0,%d}" % (MAX_PANEL_KEY - 1))
_PANEL_INT = 1 << 53




def sidecar_path(log_path: Path | str) -> Path:
    return Path(f"{log_path}{SIDECAR_SUFFIX}")


def read_sidecar(log_path: Path | str) -> dict[str, Any]:
    """The game's mail state: last_message_id, references, seen (ids of ingested
    messages), private (the kept panels)."""
    return read_json(sidecar_path(log_path), "corr mail sidecar", "delete it to start a new thread")


def write_sidecar(log_path: Path | str, data: dict[str, Any], sync_folder: bool = True) -> None:
    """Replace the sidecar (`sidecars.write_json`; without `sync_folder` the caller fsyncs
    the games folder)."""
    write_json(sidecar_path(log_path), data, sync_folder)


def panel_problem(view: Any) -> str | None:
    """Why `view` is not a private panel corr keeps, or None when it is one: a JSON
    object of at most MAX_PANEL_KEYS short keys whose values are ints, strings, bools or
    lists of at most MAX_PANEL_LIST ints (a panel arrives by mail: hostile until checked)."""
    if not isinstance(view, dict):
        return "not a JSON object"
    if len(view) > MAX_PANEL_KEYS:
        return f"{len(view)} keys, at most {MAX_PANEL_KEYS}"
    for key, value in view.items():
        if not isinstance(key, str) or not _PANEL_KEY.fullmatch(key):
            return f"key {str(key)[:MAX_PANEL_KEY]!r} is not a short lower-case name"
        if isinstance(value, list):
            if len(value) > MAX_PANEL_LIST:
                return f"{key}: a list of {len(value)} items, at most {MAX_PANEL_LIST}"
            if not all(type(item) is int and abs(item) < _PANEL_INT for item in value):
                return f"{key}: a list holds something other than whole numbers"
        elif type(value) is int:
            if abs(value) >= _PANEL_INT:
                return f"{key}: number out of range"
        elif isinstance(value, str):
            if len(value) > MAX_PANEL_TEXT or any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in value):
                return f"{key}: a text with control characters or too long"
        elif not isinstance(value, bool):
            return f"{key}: a {type(value).__name__}, not a number, text, true/false or list of numbers"
    return None


def private_views(log_path: Path | str) -> dict[str, dict[str, Any]]:
    """What the dealer's messages told the seats of this copy (`corr mail ingest` keeps
    them in the sidecar): seat -> {"seq": N, "view": {...}}, for the seat view; {} when
    none. An entry that is not well formed (the sidecar was edited) is left out."""
    kept = read_sidecar(log_path).get("private")
    if not isinstance(kept, dict):
        return {}
    views: dict[str, dict[str, Any]] = {}
    for seat, entry in kept.items():
        if not (isinstance(seat, str) and isinstance(entry, dict)):
            continue
        seq, view = entry.get("seq"), entry.get("view")
        if type(seq) is not int or seq < 0 or not isinstance(view, dict) or panel_problem(view) is not None:
            continue
        views[seat] = {"seq": seq, "view": dict(view)}
    return views


def keep_private(log_path: Path | str, seat: str, seq: int, view: dict[str, Any]) -> bool:
    """Keep what a message at `seq` told `seat`, unless a later message's panel is kept
    already (messages may arrive out of order); True if it was kept."""
    data = read_sidecar(log_path)
    kept = data.get("private")
    kept = dict(kept) if isinstance(kept, dict) else {}
    old = kept.get(seat)
    if isinstance(old, dict) and type(old.get("seq")) is int and old["seq"] > seq:
        return False
    kept[seat] = {"seq": seq, "view": view}
    data["private"] = kept
    write_sidecar(log_path, data)
    return True
