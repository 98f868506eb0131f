"""The architecture holds: what a seat may see is decided in one place, a game's meaning
lives in its package, and corr's modules import one another in one direction.

These tests read corr's source (the AST, not the text), so a new module is held to them
the day it is written."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORR = Path(__file__).resolve().parent.parent / "corr"
#: A position's hidden state and the parts of a game that know it: a hand, the pile,
#: the deal, the digits to come, the positions kept for rulings, the panels a player's
#: copy keeps. Outside the engine and the seat view nobody reads them.
HIDDEN_ATTRIBUTES = frozenset({"state", "deal", "pile", "hands", "snapshots", "private"})
#: The hooks by which a game, or the engine's position, says what a seat may see or do:
#: only the seat view asks them (the engine judges with them).
SEAT_HOOKS = frozenset({
    "view", "board", "shows", "legal_for", "legal_moves", "given", "automatic", "reads", "last_seen", "seen_seq",
    "visible", "claim_for",
})
#: Where hidden state is read: the games themselves, the engine (which judges every
#: record), the seat view (the one place that decides what a seat sees), and random
#: play, a simulation that plays every seat at once, as the dealer.
ALLOWED = ("games/", "engine/", "seatview.py", "randomplay.py")


def modules() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(CORR)), ast.parse(path.read_text(), str(path))) for path in sorted(CORR.rglob("*.py"))]


def test_nothing_but_the_engine_and_the_seat_view_reaches_for_a_games_hidden_state() -> None:
    found = []
    for name, tree in modules():
        if name.startswith(ALLOWED):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in HIDDEN_ATTRIBUTES:
                found.append(f"{name}:{node.lineno}: .{node.attr}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SEAT_HOOKS:
                found.append(f"{name}:{node.lineno}: .{node.func.attr}()")
    assert not found, "only corr.seatview may ask what a seat sees:\n" + "\n".join(found)


def test_the_check_sees_a_reach_for_hidden_state(tmp_path: Path) -> None:
    """The check above is no check if it passes anything: a module that reads a table's
    state, or asks a game for a seat's view, is caught."""
    for source in ("x = table.state.hands\n", "rows = game.view(state, 'B', now)\n"):
        tree = ast.parse(source)
        hits = [n for n in ast.walk(tree) if (isinstance(n, ast.Attribute) and n.attr in HIDDEN_ATTRIBUTES)
                or (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in SEAT_HOOKS)]
        assert hits, source


GAMES = ("cards", "combat", "domino", "moyo", "war")


def imported(tree: ast.Module, name: str, names: set[str] | None = None) -> set[str]:
    """Every module `name` imports, at the top or inside a function, as a dotted name;
    `from package import module` imports the module (with `names`, the modules there are)."""
    package = name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names}
            if names is not None and submodules <= names:
                found.update(submodules)
            else:
                found.add(base)
                found.update(submodules)
    return {m for m in found if m == "corr" or m.startswith("corr.")}


def dotted(name: str) -> str:
    parts = ["corr", *Path(name).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("game", GAMES)
def test_nothing_outside_the_games_imports_a_game(game: str) -> None:
    """A game is found through the registry (`corr.games`), never imported by name."""
    found = []
    for name, tree in modules():
        if name.startswith("games/"):
            continue
        for module in imported(tree, dotted(name)):
            if module == f"corr.games.{game}" or module.startswith(f"corr.games.{game}."):
                found.append(f"{name} imports {module}")
    assert not found, "\n".join(found)


def test_no_two_modules_import_each_other_in_a_circle() -> None:
    """Layers one way: following imports (those inside functions too) from any module
    never leads back to it."""
    graph: dict[str, set[str]] = {}
    names = {dotted(name) for name, _ in modules()}
    for name, tree in modules():
        me = dotted(name)
        targets = set()
        for module in imported(tree, me, names):
            while module not in names and "." in module:  # `from corr.x import name` names a module or a name
                module = module.rsplit(".", 1)[0]
            if module in names and module != me:
                targets.add(module)
        graph[me] = targets
    circles = []
    for start in sorted(graph):
        stack = [(start, [start])]
        seen: set[str] = set()
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    circles.append(" -> ".join([*path, start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert not circles, "import circles:\n" + "\n".join(sorted(set(circles))[:20])


def test_mypy_finds_no_error_in_corr(tmp_path: Path) -> None:
    """Type hints throughout, and they hold: `mypy corr` with its default settings."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), str(CORR)],
                          capture_output=True, text=True, timeout=600, cwd=CORR.parent)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
