"""The registry of games: each game is a package here, `corr.games.<name>`, found by its
folder and imported only when it is used.

A game's package holds its whole meaning: its `__init__` names the game's class
`GAME` (rules, record types, options, views), `bot` holds its computer opponents, and
any other module (Domino's deal, Moyo's puzzle advice) is its own. Its boards are
`templates/<name>/board.txt` and `board.html`. Nothing outside `corr.games` imports a
game by name: everything asks this registry.
"""

from __future__ import annotations

import pkgutil
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

from corr.errors import UsageError

if TYPE_CHECKING:
    from corr.games.base import Game


def names() -> list[str]:
    """Every registered game's name: the packages in this folder."""
    return list(_names())


@cache
def _names() -> tuple[str, ...]:
    """The folder's packages, listed once a process: every log read asks for its
    game, and an audit of many short logs would otherwise list this folder for each."""
    return tuple(sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg))


def _key(name: str) -> str:
    """The package a game name or alias names."""
    key = name.strip().lower()
    known = _names()
    if key in known:
        return key
    for candidate in known:  # an alias: the games say their own
        if key in import_module(f"{__name__}.{candidate}").GAME.aliases:
            return candidate
    raise UsageError(f"unknown game {name!r} (games: {', '.join(known)})")


def canonical(name: str) -> str:
    """The registered name a game name or alias stands for (`Sudoku-War` -> `war`); a
    game's package is imported only to ask its aliases, so a registered name costs no
    import (`corr rules` reads a file and needs no game)."""
    return _key(name)


def game_class(name: str) -> type[Game]:
    """The class of a game, by name or alias."""
    cls: type[Game] = import_module(f"{__name__}.{_key(name)}").GAME
    return cls


def part(name: str, module: str) -> ModuleType:
    """A module of a game's package (`bot`, `deal`, ...), by the game's name or alias;
    UsageError when the game has none."""
    key = _key(name)
    try:
        return import_module(f"{__name__}.{key}.{module}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{key}.{module}":
            raise
        raise UsageError(f"{game_class(key).title} has no {module}") from None


def tool(command: str) -> ModuleType:
    """The module that serves `corr puzzle COMMAND` (a game's `puzzle_tools`)."""
    for name in names():
        module = game_class(name).puzzle_tools.get(command)
        if module is not None:
            return part(name, module)
    raise UsageError(f"no game has a puzzle tool {command!r}")
