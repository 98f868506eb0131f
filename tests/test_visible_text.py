"""Text from a player, a referee or a log reaches the terminal with its control
characters made visible (`corr.names.visible`): a name's OSC 52 (a clipboard write) and
BEL, a ruling's reason with an escape and a newline that would print a fake
`result: B wins` line. Black-box through the CLI, on real games."""

from __future__ import annotations

import unicodedata

import pytest

from corr.names import visible

# ---------------------------------------------------------------------------------
# visible itself


@pytest.mark.parametrize("text, shown", [
    ("Anna\x1b]52;c;aGk=\x07", "Anna\\x1b]52;c;aGk=\\x07"),  # OSC 52: a clipboard write, ended by BEL
    ("fine\nresult: B wins", "fine\\nresult: B wins"),
    ("a\tb\rc\x00d\x7fe", "a\\tb\\rc\\x00d\\x7fe"),
    ("C1 \x85 \x9b", "C1 \\x85 \\x9b"),  # NEL and the one-byte CSI
    ("line\u2028para\u2029", "line\\u2028para\\u2029"),  # Zl, Zp
    ("\u202eevil \u200b\ufeff", "\\u202eevil \\u200b\\ufeff"),  # Cf: a bidi override, zero-width ones
    ("tag \U000e0041", "tag \\U000e0041"),  # Cf beyond the BMP
    ("lone \ud800", "lone \\ud800"),  # Cs: a lone surrogate, which no terminal could even be sent
])
def test_visible_writes_each_control_character_as_its_escape(text: str, shown: str) -> None:
    assert visible(text) == shown
    assert not [ch for ch in visible(text) if unicodedata.category(ch)[0] == "C"]


@pytest.mark.parametrize("text", ["Anna", "Юлия Смирнова", "山田太郎", "Zoë Ågren", "😀 Dara", "a\\x1b b", "", " ",
                                  "\u00a0no-break", "e\u0301"])
def test_visible_leaves_printable_text_of_any_script_as_it_is(text: str) -> None:
    assert visible(text) == text
