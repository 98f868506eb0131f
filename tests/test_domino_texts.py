"""Sudoku Domino's texts in its own words: a dealer who gives digits in a secret order,
boards, stones and jokers (domino 2.1, 7.2) - never the card game's cards or hands,
which the dealer's machinery shares with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PLAYERS = ("-p", "Anna <anna@example.org>", "-p", "Ben <ben@example.org>")
CARD_WORDS = re.compile(r"\b(cards?|hands?|pile)\b", re.IGNORECASE)


def card_words(text: str) -> list[str]:
    return CARD_WORDS.findall(text)


@pytest.mark.parametrize("example", ["domino-solo.corr", "domino-duel.corr"])
def test_domino_7_2_the_audit_says_the_start_and_every_digit_were_checked(corr, example: str) -> None:
    result = corr("audit", EXAMPLES / example)
    assert result.code == 0, result.err
    assert "the start and every digit given match the commitment (7.2)" in result.out
    assert card_words(result.out) == []


@pytest.fixture
def copies(corr, tmp_path: Path) -> tuple[Path, Path]:
    """The dealer's copy of a running duel, and Anna's copy made from its first message."""
    dealer = tmp_path / "duel.corr"
    assert corr("new", "domino", dealer, *PLAYERS, "-o", "time_limit=none", "-f", "none").code == 0
    assert corr("mail", "compose", dealer, "--to", "A", "--out", tmp_path / "first.eml").code == 0
    games = tmp_path / "anna"
    assert corr("mail", "ingest", tmp_path / "first.eml", "--games", games, "--new").code == 0
    (copy,) = games.glob("*.corr")
    return dealer, copy


def test_domino_7_2_a_players_copy_refuses_a_move_for_the_secret_digit_order(corr, copies) -> None:
    _, copy = copies
    moved = corr("move", copy, "5 (5,5)", "--by", "A")
    assert moved.code == 1 and "Sudoku Domino has a secret digit order" in moved.err
    legal = corr("legal", copy, "--for", "A")
    assert legal.code == 1 and "depend on a secret digit order" in legal.err
    assert card_words(moved.err + legal.err) == []


def test_domino_the_dealers_copy_keeps_no_panel_in_domino_words(corr, copies, tmp_path: Path) -> None:
    dealer, _ = copies
    result = corr("mail", "ingest", tmp_path / "first.eml", "--games", dealer.parent)
    assert result.code == 0, result.err
    assert "private panel ignored: this copy is the dealer's" in result.out
    assert card_words(result.out) == []


def test_domino_1_1_a_game_alone_is_finished_not_won_and_its_secret_seed_is_no_option(corr) -> None:
    solo = corr("log", EXAMPLES / "domino-solo.corr")
    assert solo.code == 0, solo.err
    assert '[Result "A finished"]' in solo.out and solo.out.rstrip().endswith("\nA finished")
    assert "wins" not in solo.out
    options = next(line for line in solo.out.splitlines() if line.startswith("[Options "))
    assert options.startswith('[Options "givens=60 ') and "seed=" not in options
    duel = corr("log", EXAMPLES / "domino-duel.corr")  # a duel is won (1.1)
    assert '[Result "A wins"]' in duel.out and "seed=" not in duel.out


def test_a_public_seed_stays_among_the_options(corr, tmp_path: Path) -> None:
    path = tmp_path / "daily.corr"
    assert corr("new", "domino", path, "-p", "Anna", "-o", "seed=daily-1", "-f", "none").code == 0
    assert '[Options "seed=daily-1 givens=30 ' in corr("log", path).out
