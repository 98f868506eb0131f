"""The registry of games, found by name; modules load only when a game is used."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from corr.errors import UsageError

if TYPE_CHECKING:
    from corr.games.base import Game

_REGISTRY: dict[str, str] = {
    "cards": "corr.games.cards:Cards",
    "combat": "corr.games.combat:Combat",
    "domino": "corr.games.domino:Domino",
    "moyo": "corr.games.moyo:Moyo",
    "war": "corr.games.war:War",
}
ALIASES: dict[str, str] = {
    "sudoku-combat": "combat",
    "sudoku-domino": "domino",
    "sudoku-war": "war",
    "судоку": "cards",
}


def names() -> list[str]:
    """Registered game names."""
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    """The plug-in class of a game, by name or alias."""
    key = ALIASES.get(name.lower(), name.lower())
    try:
        module, attr = _REGISTRY[key].split(":")
    except KeyError:
        raise UsageError(f"unknown game {name!r} (games: {', '.join(names())})") from None
    return getattr(import_module(module), attr)
