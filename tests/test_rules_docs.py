"""The rules ship with corr (docs/rules/<game>.md) and `corr rules` prints them: every
rule number corr cites - in a refusal, an option's help, a board, a comment, the README,
the rules themselves - is a rule or section of that game's rules, and `corr rules GAME
NUMBER` prints it."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from corr import games
from corr.rulebook import folder, load

REPO = Path(__file__).resolve().parent.parent
CORR = REPO / "corr"
TEMPLATES = REPO / "templates"
GAMES = games.names()

# ---------------------------------------------------------------------------------
# Finding every citation

#: A rule ("3.5", "4.1a") or a section ("3"), and a list or range of them ("3.1-3.3",
#: "2.3/5.2", "6 and 7", "2, 3.3, 7.1").
REF = r"\d+(?:\.\d+[a-z]?)?"
REFS = rf"{REF}(?:(?:, |/|-| and ){REF})*"
#: A rule named with its game: "combat 2.2", "Moyo rule 6", "docs/rules/domino.md 2, 3.3, 7.1".
NAMED = re.compile(rf"\b({'|'.join(GAMES)})(?:\.md)?(?: rules?)? ({REFS})\b", re.IGNORECASE)
#: Inside a game's own files a bare number cites that game: "(3.5)", "(5.2 ruling)",
#: "rule 3.1-3.2", "ruling 4.2". A cell `(5,4)` is no citation: its comma has no space.
BARE = (re.compile(rf"\(({REFS})(?:,? (?:as revised|ruling|rulings))?\)"),
        re.compile(rf"\b(?:rules?|rulings?) ({REFS})\b"))
#: A citation as one string: what IllegalMove's first argument and the games' `*_rule`
#: attributes hold.
CITATION = re.compile(rf"({'|'.join(GAMES)}) ({REF})")
#: Attributes and methods of a game that hold or return a citation.
RULE_ATTRIBUTES = ("turn_rule", "challenge_rule")
RULE_METHODS = ("end_rule", "turn_rule_for")


def refs(text: str) -> list[str]:
    """"3.1-3.3, 4.2 and 5" -> ["3.1", "3.3", "4.2", "5"]."""
    return re.findall(REF, text)


def owner(path: Path) -> str | None:
    """The game a file of corr belongs to: its package or its templates' folder."""
    for root in (CORR / "games", TEMPLATES):
        if root in path.parents and path.relative_to(root).parts[0] in GAMES:
            return path.relative_to(root).parts[0]
    return None


def prose(path: Path) -> list[str]:
    """The text a reader of a file sees: a module's strings and comments, a template whole."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":  # a template: its words and comments, not its code
        return [re.sub(r"{{.*?}}|{%.*?%}", " ", text, flags=re.S)]
    kinds = (tokenize.STRING, tokenize.COMMENT, *([tokenize.FSTRING_MIDDLE] if sys.version_info >= (3, 12) else []))
    return [tok.string for tok in tokenize.generate_tokens(io.StringIO(text).readline) if tok.type in kinds]


def cited_in_text(texts: list[str], game: str | None) -> set[tuple[str, str]]:
    """The citations in some prose: those naming their game, and, in a game's own files,
    the bare numbers."""
    found: set[tuple[str, str]] = set()
    for text in texts:
        text = " ".join(text.split())  # a citation broken over two lines is one
        for match in NAMED.finditer(text):
            found |= {(match.group(1).lower(), n) for n in refs(match.group(2))}
        if game is not None:
            for pattern in BARE:
                for match in pattern.finditer(text):
                    found |= {(game, n) for n in refs(match.group(1))}
    return found


class UnknownCitation(AssertionError):
    """An IllegalMove whose rule the scan cannot read: teach `cited_in_code` the new form."""


def cited_in_code(tree: ast.Module, where: str) -> set[tuple[str, str]]:
    """The rules a module's code cites: IllegalMove's first argument, read through an
    f-string over a module-level table (`f"war {_RULE[kind]}"`), and what the games'
    rule attributes and methods hold or return."""
    tables = {target.id: node.value for node in tree.body if isinstance(node, ast.Assign)
              for target in node.targets if isinstance(target, ast.Name) and isinstance(node.value, ast.Dict)}
    found: set[tuple[str, str]] = set()

    def citation(text: object, line: int) -> None:
        if text == "":
            return
        match = CITATION.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise UnknownCitation(f"{where}:{line}: {text!r} is not a rule citation like 'combat 2.2'")
        found.add((match.group(1), match.group(2)))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "IllegalMove":
            rule = node.args[0] if node.args else next(k.value for k in node.keywords if k.arg == "rule")
            if isinstance(rule, ast.Constant):
                citation(rule.value, node.lineno)
            elif isinstance(rule, ast.JoinedStr):
                head, tail = rule.values[0], rule.values[1:]
                if not (isinstance(head, ast.Constant) and len(tail) == 1 and isinstance(tail[0], ast.FormattedValue)
                        and isinstance(tail[0].value, ast.Subscript) and isinstance(tail[0].value.value, ast.Name)
                        and tail[0].value.value.id in tables):
                    raise UnknownCitation(f"{where}:{node.lineno}: IllegalMove cites {ast.unparse(rule)}")
                for value in tables[tail[0].value.value.id].values:
                    assert isinstance(value, ast.Constant), ast.unparse(value)
                    citation(f"{head.value}{value.value}", node.lineno)
            elif not isinstance(rule, (ast.Name, ast.Attribute, ast.Call)):
                raise UnknownCitation(f"{where}:{node.lineno}: IllegalMove cites {ast.unparse(rule)}")
            # a name, an attribute or a call passes on a rule cited elsewhere: below
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) in RULE_ATTRIBUTES for t in node.targets):
            citation(getattr(node.value, "value", ast.unparse(node.value)), node.lineno)
        elif isinstance(node, ast.FunctionDef) and node.name in RULE_METHODS:
            for returned in (n for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None):
                for constant in results(returned.value):
                    citation(constant.value, constant.lineno)
    return found


def results(value: ast.expr) -> list[ast.Constant]:
    """The constants an expression can give: `"a" if x == "b" else "c"` gives "a" and "c"."""
    if isinstance(value, ast.IfExp):
        return results(value.body) + results(value.orelse)
    return [value] if isinstance(value, ast.Constant) else []


def citations() -> tuple[dict[tuple[str, str], set[str]], list[str]]:
    """Every (game, number) corr cites, with the files that cite it; and the citations
    the scan could not read."""
    where: dict[tuple[str, str], set[str]] = {}
    unread: list[str] = []
    files = sorted(CORR.rglob("*.py")) + sorted(p for p in TEMPLATES.rglob("*") if p.is_file())
    for path in files:
        name = str(path.relative_to(REPO))
        found = cited_in_text(prose(path), owner(path))
        if path.suffix == ".py":
            try:
                found |= cited_in_code(ast.parse(path.read_text(encoding="utf-8"), name), name)
            except UnknownCitation as err:
                unread.append(str(err))
        for cited in found:
            where.setdefault(cited, set()).add(name)
    # what the README and the rules themselves cite: "Combat 2.3/5.2", "(3.1)" in combat.md
    for path in [REPO / "README.md", *sorted((REPO / "docs" / "rules").glob("*.md"))]:
        name = str(path.relative_to(REPO))
        for cited in cited_in_text(prose(path), path.stem if path.stem in GAMES else None):
            where.setdefault(cited, set()).add(name)
    for cls in map(games.game_class, GAMES):  # the games as they run, beside their source
        for attribute in RULE_ATTRIBUTES:
            if getattr(cls, attribute, ""):
                game, number = getattr(cls, attribute).split(" ")
                where.setdefault((game, number), set()).add(f"{cls.__name__}.{attribute}")
    return where, unread


CITED, UNREAD = citations()


def test_the_scan_reads_every_citation_in_corr() -> None:
    assert UNREAD == []


def test_the_scan_finds_the_citations_of_every_kind() -> None:
    """The scan is no check if it finds nothing: each way corr cites a rule is seen."""
    assert {
        ("combat", "2.2"),  # sudoku_break(..., "combat 2.2"): the Sudoku rule's refusal
        ("combat", "3.5"),  # IllegalMove("combat 3.5", ...)
        ("combat", "1.3"), ("cards", "4.1"),  # turn_rule, challenge_rule
        ("combat", "5.1"), ("moyo", "5.2"), ("moyo", "2.4"),  # end_rule, turn_rule_for
        ("war", "2.5"),  # IllegalMove(f"war {_RULE[kind]}", ...): the Knight's
        ("war", "3.1"),  # "(3.1)" on War's boards
        ("moyo", "6"), ("domino", "7.1"),  # "Moyo rule 6", "(domino 7.1)"
    } <= set(CITED)
    assert len(CITED) >= 60


def test_the_scan_reads_each_form_and_refuses_one_it_does_not_know() -> None:
    sample = ('raise IllegalMove("combat 4.2", "x")\n'
              'T = {1: "2.2", 2: "2.6"}\n'
              'e = IllegalMove(f"war {T[kind]}", "y")\n'
              'class G:\n    turn_rule = "moyo 2.2"\n'
              '    def end_rule(self, s):\n        return "cards 5.1" if s else "cards 5.2"\n')
    assert cited_in_code(ast.parse(sample), "sample") == {
        ("combat", "4.2"), ("war", "2.2"), ("war", "2.6"), ("moyo", "2.2"), ("cards", "5.1"), ("cards", "5.2")}
    with pytest.raises(UnknownCitation):
        cited_in_code(ast.parse('IllegalMove("combat rule two", "x")'), "sample")
    with pytest.raises(UnknownCitation):
        cited_in_code(ast.parse('IllegalMove("combat " + n, "x")'), "sample")
    text = ["a card (3.1); (5.2 ruling); rule 3.1-3.2; moyo 2.2-2.4; Combat 2.3/5.2; 7 (5,4)"]
    assert cited_in_text(text, "cards") == {
        ("cards", "3.1"), ("cards", "5.2"), ("cards", "3.2"), ("moyo", "2.2"), ("moyo", "2.4"),
        ("combat", "2.3"), ("combat", "5.2")}


@pytest.mark.parametrize("game, number", sorted(CITED), ids=[" ".join(c) for c in sorted(CITED)])
def test_every_rule_corr_cites_is_in_the_rules(corr, game: str, number: str) -> None:
    r = corr("rules", game, number)
    assert r.code == 0, f"{game} {number}, cited in {sorted(CITED[game, number])}: {r.err}"
    assert r.out.startswith(f"{number} "), r.out[:80]


# ---------------------------------------------------------------------------------
# The rules files


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_rules_numbered_in_order(game: str) -> None:
    """Sections 1, 2, 3 ... and in each the rules N.1, N.2 ... (N.1a after N.1), every
    one with text, and at least one ruling marked as the project's."""
    assert games.game_class(game).rules == game
    book = load(game)
    sections = [n for n in book.parts if "." not in n]
    assert sections == [str(i) for i in range(1, len(sections) + 1)]
    for section in sections:
        numbers = [n for n in book.parts if "." in n and n.split(".")[0] == section]
        plain = [n for n in numbers if n[-1].isdigit()]
        assert plain == [f"{section}.{i}" for i in range(1, len(plain) + 1)], numbers
        assert all(n[:-1] in plain for n in numbers if not n[-1].isdigit())
    assert list(book.parts) == sorted(book.parts, key=lambda n: [int(x) if x.isdigit() else x
                                                                 for x in re.findall(r"\d+|[a-z]", n)])
    assert all(len(" ".join(lines)) > 30 for lines in book.parts.values())
    assert "**Ruling" in book.text


def test_a_rule_number_twice_is_a_broken_file() -> None:
    from corr.rulebook import parse

    with pytest.raises(ValueError, match="3.1"):
        parse("combat", "# C\n\n## 3 S\n\n**3.1** one\n\n**3.1** two\n")


def test_the_rules_are_read_through_the_package_resources() -> None:
    """corr finds its rules where it finds its templates: inside the installed package,
    else in the checkout (tests/test_packaging.py holds the wheel to it)."""
    for game in GAMES:
        assert (folder() / f"{game}.md").is_file()
    package = Path(games.__file__).resolve().parent.parent
    assert folder() in (package / "docs" / "rules", REPO / "docs" / "rules")


# ---------------------------------------------------------------------------------
# corr rules


def test_rules_prints_a_whole_game_as_plain_text(corr) -> None:
    r = corr("rules", "combat")
    assert r.code == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[:2] == ["SUDOKU-Combat", "=" * len("SUDOKU-Combat")]
    for heading in ("1 Material and setup", "3 Conquering a field", "5 End and result"):
        assert heading in lines and lines[lines.index(heading) + 1] == "-" * len(heading)
    for number in ("1.1", "2.2", "3.5", "4.1", "5.4"):
        assert any(line.startswith(f"{number} ") for line in lines)
    assert "**" not in r.out and "```" not in r.out
    assert all(len(line) <= 79 for line in lines if not line.startswith("    "))


def test_rules_combat_3_5_prints_that_rule_with_its_number(corr) -> None:
    r = corr("rules", "combat", "3.5")
    assert r.code == 0 and r.out.startswith("3.5 The conqueror")
    assert "`7 (3,4) !1,4`" in r.out and "Ruling: a conquest that is not claimed" in r.out
    assert not re.search(r"^(3\.4|4\.1|4) ", r.out, flags=re.M)


def test_rules_with_a_section_number_prints_the_section(corr) -> None:
    r = corr("rules", "combat", "3")
    assert r.code == 0 and r.out.startswith("3 Conquering a field\n")
    assert [n for n in ("3.1", "3.2", "3.3", "3.4", "3.5", "4.1") if re.search(rf"^{n} ", r.out, flags=re.M)] == [
        "3.1", "3.2", "3.3", "3.4", "3.5"]


def test_rules_takes_the_citation_a_refusal_prints(corr, tmp_path: Path) -> None:
    """A refused move names the rule it breaks, combat 2.2, and that citation, pasted as
    it stands, prints the rule."""
    game = tmp_path / "game.corr"
    assert corr("new", "combat", game, "-p", "Anna", "-p", "Ben", "--format", "none").code == 0
    refusal = corr("move", game, "5 (5,4)").err  # field 5 has its 5 on (5,5)
    cited = re.match(r"corr: error: (\w+ [\d.]+):", refusal)
    assert cited and cited.group(1) == "combat 2.2", refusal
    for form in (cited.group(1), cited.group(1) + ":", "Combat 2.2", "sudoku-combat 2.2"):
        r = corr("rules", form)
        assert r.code == 0 and r.out.startswith("2.2 ") and "Sudoku rule" in r.out, (form, r.err)
    assert corr("rules", "combat", "(2.2)").out == corr("rules", "combat 2.2").out


def test_rules_take_a_games_other_names(corr) -> None:
    assert corr("rules", "Sudoku-War", "2.4").out == corr("rules", "war", "2.4").out != ""
    assert corr("rules", "судоку").out.startswith("СуДоку, the card game\n")


@pytest.mark.parametrize("args, words", [
    (("combat", "9.9"), ("combat has no rule 9.9;", "1 (1.1-1.3)", "3 (3.1-3.5)", "5 (5.1-5.4)")),
    (("moyo", "3.9"), ("moyo has no rule 3.9;", "5 (5.1-5.3), 6, 7")),
    (("domino", "conquest"), ("domino has no rule 'conquest';", "4 (4.1, 4.1a, 4.2)")),
    (("chess",), ("unknown game 'chess'", "cards, combat, domino, moyo, war")),
    (("chess 2.2",), ("unknown game 'chess'",)),
    (("combat 2.2", "3.1"), ("'combat 2.2 3.1': name a game and at most one rule",)),
    (("combat 2.2 9 at (9,9)",), ("name a game and at most one rule",)),
])
def test_rules_refuses_an_unknown_game_or_rule_in_one_line_listing_what_exists(corr, args: tuple[str, ...],
                                                                                words: tuple[str, ...]) -> None:
    r = corr("rules", *args)
    assert r.code == 1 and r.out == ""
    assert r.err.count("\n") == 1 and r.err.startswith("corr: error: ")
    for word in words:
        assert word in r.err


def test_rules_starts_without_the_engine_or_a_game() -> None:
    """`corr rules` reads a file: it imports no game, no engine, no pydantic or jinja2."""
    probe = ("import sys\nfrom corr.cli import main\ntry:\n    main(['rules', 'combat', '3.5'])\n"
             "except SystemExit as e:\n    assert not e.code, e.code\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'jinja2', 'cryptography')\n"
             "               or m.startswith(('corr.engine', 'corr.games.', 'corr.render', 'corr.seatview')))\n"
             "print('heavy:', heavy)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "heavy: []"
