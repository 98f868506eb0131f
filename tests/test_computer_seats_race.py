"""A person's move is never recorded as the computer's, and the exit code of `corr move`
says what happened to the person's move, whatever the computer then does."""

from __future__ import annotations

from pathlib import Path

import pytest

from corr import engine
from corr.bots import base
from corr.games.combat import bot as combat


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combat, "BUDGET", 0.05)


def by_seats(path: Path) -> list[str]:
    return [r.by for r in engine.load(path).log.records]


def test_move_without_by_refuses_the_computers_seat_on_turn(tmp_path: Path, corr) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--bot", "B=greedy", "--format", "none").code == 0
    engine.act(path, "move", by="A", text="7 (8,7)")  # Anna's move landed; the computer has not answered yet
    before = path.read_bytes()
    r = corr("move", path, "5 (1,1)", "--format", "none")
    assert r.code == 1 and r.err.count("\n") == 1
    assert "seat B, the computer's, is on turn" in r.err and f"corr bot {path}" in r.err and "--by B" in r.err
    assert path.read_bytes() == before
    # named, the seat is played: a person may move for the computer on purpose
    assert corr("move", path, "5 (1,1)", "--by", "B", "--format", "none").code == 0
    assert by_seats(path) == ["A", "B"]


def test_a_computer_that_cannot_answer_leaves_the_persons_move_and_exit_zero(
    tmp_path: Path, corr, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    path = tmp_path / "g.corr"
    assert corr("new", "combat", path, "-p", "Anna", "-p", "Ben", "--bot", "B=greedy", "--format", "none").code == 0
    real = base.chooser

    def racing(game: str, level: str):  # type: ignore[no-untyped-def]
        choose = real(game, level)

        def chosen(view, rng):  # type: ignore[no-untyped-def]
            choice = choose(view, rng)
            engine.act(path, "move", by="B", text=str(choice.move))  # a second writer gets in first
            return choice

        return chosen

    monkeypatch.setattr(base, "chooser", racing)
    r = corr("move", path, "7 (8,7)", "--format", "none")
    assert r.code == 0, r.err
    assert r.err.startswith("corr: warning: the computer could not answer: ") and "stale" in r.err
    assert r.err.count("\n") == 1
    assert by_seats(path) == ["A", "B"]
