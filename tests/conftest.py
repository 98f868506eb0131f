"""Shared fixtures: run the CLI in-process, make games, freeze time."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from corr.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def corr(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run `corr ARGS...` in-process; returns exit code, stdout and stderr."""

    def run(*args: str | Path) -> Run:
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def game_file(tmp_path: Path, corr: Callable[..., Run]) -> Callable[..., Path]:
    """Make a new game log and play the given moves into it (each must be accepted)."""

    def make(*moves: str, game: str = "combat", players: int = 2, options: tuple[str, ...] = ()) -> Path:
        path = tmp_path / f"{game}.corr"
        args: list[str] = ["new", game, str(path)]
        for i in range(players):
            args += ["--player", "Anna Ben Cleo Dara".split()[i]]
        for opt in options:
            args += ["-o", opt]
        result = corr(*args, "--format", "json")
        assert result.code == 0, result.err
        for m in moves:
            result = corr("move", path, m, "--format", "none")
            assert result.code == 0, f"{m}: {result.err}"
        return path

    return make
