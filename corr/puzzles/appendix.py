"""The six puzzles of the Sudoku Moyo rulebook's appendix (docs/rules/moyo.md 7), and puzzle strings."""

from __future__ import annotations

from corr.errors import UsageError

#: Appendix puzzles 1-6, row by row, `.` for empty (copied from the rulebook).
APPENDIX: dict[int, str] = {
    1: "...8....916...92...59.1..6......17.43.1...5.62.46......1..6.89...21...759....8...",
    2: "45..9..32..73..1.9.....75......38.6...8...3...6.42......65.....2.5..34..13..7..58",
    3: "2.86.31.4.54......1....4..3........59..1.6..74........5..3....1......46.8.17.25.9",
    4: "...63..191.248.3.6......4......7.....25...76.....6......7......3.4.286.728..47...",
    5: "...2..6..6.38.951.....35...84...273...6...4...924...58...74.....645.18.2..7..6...",
    6: ".6.3.98....8.4.7532.........1...2.84...9.1...78.6...3.........7831.6.9....71.3.6.",
}


def parse_puzzle(text: str) -> list[int]:
    """81 cells (0 for empty) from an appendix number `1`..`6` or an 81-character string
    of digits and `.`/`0`; whitespace is ignored. Raises UsageError naming the fault."""
    raw = "".join(text.split())
    if len(raw) == 1 and raw in "0123456789":  # ASCII only: `²` is a digit to str.isdigit
        number = int(raw)
        if number not in APPENDIX:
            raise UsageError(f"there is no appendix puzzle {number} (puzzles 1-6)")
        raw = APPENDIX[number]
    if len(raw) != 81:
        raise UsageError(f"a puzzle string has 81 characters, this one {len(raw)}")
    cells = []
    for i, ch in enumerate(raw):
        if ch in ".0":
            cells.append(0)
        elif ch in "123456789":
            cells.append(int(ch))
        else:
            raise UsageError(f"puzzle character {i + 1} is {ch!r}: only digits 1-9 and '.' or '0' for empty")
    return cells


def puzzle_text(cells: list[int]) -> str:
    """The canonical 81-character string of a puzzle."""
    return "".join(str(d) if d else "." for d in cells)
