"""Templates and schemas travel with the package: an installed corr finds its own. The
checkout ignores what the README makes, and says which licence and Pythons it has."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import corr
from corr import games
from corr.resources import resource_dir

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parent.parent


def test_templates_and_schemas_are_found() -> None:
    templates, schemas = resource_dir("templates"), resource_dir("schemas")
    for name in games.names():
        assert (templates / name / "board.txt").is_file() and (templates / name / "board.html").is_file()
    assert (schemas / "header.schema.json").is_file() and (schemas / "record.schema.json").is_file()


def test_an_installed_corr_carries_its_templates_inside_the_package() -> None:
    package = Path(corr.__file__).resolve().parent
    if package.parent == REPO:  # a source checkout or editable install reads the repo's folders
        assert resource_dir("templates") == REPO / "templates"
    else:  # a wheel install: `pip install .` put them into corr/
        assert resource_dir("templates") == package / "templates"
        assert resource_dir("schemas") == package / "schemas"


def test_the_rules_ship_inside_the_package_where_corr_reads_them() -> None:
    """pyproject puts docs/rules into the wheel as corr/docs/rules, the folder
    `corr rules` reads in an installed corr; an installed corr has every game's there."""
    from corr.rulebook import folder

    wheel = pyproject()["tool"]["hatch"]["build"]["targets"]
    assert wheel["wheel"]["force-include"]["docs/rules"] == "corr/docs/rules"
    assert "docs" in wheel["sdist"]["include"]
    package = Path(corr.__file__).resolve().parent
    assert folder() == (REPO if package.parent == REPO else package) / "docs" / "rules"
    for name in games.names():
        assert (folder() / f"{name}.md").is_file()


@pytest.mark.skipif(not (os.environ.get("CI") or os.environ.get("CORR_FRESH_CLONE")),
                    reason="builds a wheel with pip: runs in CI or with CORR_FRESH_CLONE=1")
def test_a_built_wheel_carries_the_rules(tmp_path: Path) -> None:
    import zipfile

    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(REPO)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = tmp_path.glob("corr-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assert {f"corr/docs/rules/{name}.md" for name in games.names()} <= shipped
    assert "corr/templates/combat/board.txt" in shipped


def test_boards_render_when_the_cache_folder_cannot_be_made(tmp_path: Path, monkeypatch, corr) -> None:
    """The template cache is an optimisation: a cache path that cannot be a folder changes nothing."""
    from corr.render import environment

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("CORR_CACHE_DIR", str(blocker))
    environment.cache_clear()
    try:
        assert environment().bytecode_cache is None
        result = corr("new", "combat", tmp_path / "g.corr", "-p", "Anna", "-p", "Ben")
        assert result.code == 0 and "SUDOKU-Combat" in result.out
    finally:
        environment.cache_clear()


# ---------------------------------------------------------------------------------
# The checkout: what git ignores, the licence, the Pythons declared


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def git(*args: str) -> list[str]:
    done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr  # check-ignore answers 1 for "none ignored"
    return done.stdout.splitlines()


@pytest.fixture
def checkout() -> None:
    """Skip where the tests do not run from a git checkout (an unpacked sdist)."""
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=REPO, capture_output=True, text=True,
                             timeout=60)
    except FileNotFoundError:
        pytest.skip("git is not installed")
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != REPO:
        pytest.skip("not a git checkout")


def ignored(paths: list[str]) -> set[str]:
    """Those of `paths` (need not exist) that .gitignore keeps out of `git add`."""
    return set(git("check-ignore", "--no-index", "--", *paths)) if paths else set()


#: What the README's walkthroughs leave beside the log they name: the dealer's seed,
#: the mail and host sidecars (corr.mail), a torn line cut off by `corr repair`.
BESIDE_A_LOG = (".secret", ".mail.json", ".host.json", ".torn")
MADE = re.compile(r"[\w./-]+\.(?:corr|eml|key|pub|secret|toml|html|json|txt|mbox|torn)$")


def files_the_readme_makes() -> set[str]:
    """Every file or folder a reader makes by running the README's shell examples from the
    top of the checkout: named files, `--out` and `--games` targets, `> FILE`, and what
    corr writes beside each log. Paths in the home folder (`~/...`) are not the checkout's."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    tracked = set(git("ls-files"))
    made: set[str] = set()
    for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            try:
                words = shlex.split(line, comments=True)
            except ValueError:
                words = line.split()
            for before, word in zip([""] + words, words):
                if word.startswith(("~", "<", "-")) or "<" in word or word in {".", ".."}:
                    continue
                if before == "--out" and "." not in Path(word).name:  # corr key new --out NAME
                    made |= {f"{word}.key", f"{word}.pub"}
                elif before in {"--out", "--games", "--maildir", "--mbox", "venv"} or MADE.match(word):
                    made.add(word.rstrip("/") + ("/x" if before in {"--games", "--maildir", "venv"} else ""))
                if MADE.match(word) and word.endswith(".corr") and word not in tracked:
                    made |= {word + suffix for suffix in BESIDE_A_LOG}
    return {m for m in made if m not in tracked and not m.startswith(("./", "/"))}


def test_what_the_readme_makes_is_ignored(checkout: None) -> None:
    made = files_the_readme_makes()
    assert {"game.corr", "anna.key", "anna.pub", "move1.eml", "smtp.toml", "cards.corr.secret"} <= made
    extras = [".venv/bin/python", ".venv-3.10/bin/python", "artifacts/board.png", ".corr-cache/t.py",
              "game.corr.mail.json", "games/club.corr.host.json", "Maildir/new/1", "mail.mbox", "corr.toml"]
    every = sorted(made | set(extras))
    missing = sorted(set(every) - ignored(every))
    assert not missing, f"add these to .gitignore: {missing}"


def test_no_file_of_the_project_is_ignored(checkout: None) -> None:
    assert git("ls-files", "--cached", "--ignored", "--exclude-standard") == []
    # nor one not yet added: everything in the project's folders but bytecode
    folders = ["corr", "tests", "templates", "schemas", "examples", "benchmarks", "docs", ".ci"]
    ours = [p for p in git("ls-files", "--others", "--ignored", "--exclude-standard", "--", *folders)
            if "__pycache__" not in p and not p.endswith(".pyc")]
    assert ours == []
    # data like the walkthroughs' files, kept in the project's folders, stays addable
    assert ignored(["examples/new.corr", "tests/corpus/new.eml", "tests/data/new.key", "examples/new.corr.secret"]) == set()


#: The first words of the licence texts pyproject's `license` may name.
LICENCES = {"MIT": ("MIT License", "Permission is hereby granted, free of charge, to any person obtaining a copy")}


def test_the_licence_file_is_the_licence_pyproject_names() -> None:
    project = pyproject()["project"]
    spdx = project["license"]
    assert spdx in LICENCES, f"pyproject names licence {spdx!r}: add its text to LICENSE and here"
    assert project["license-files"] == ["LICENSE"]
    title, grant = LICENCES[spdx]
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith(title + "\n") and grant in " ".join(text.split())
    assert re.search(r"^Copyright \(c\) \d{4} \S", text, flags=re.M)


def test_an_installed_wheel_carries_the_licence() -> None:
    from importlib import metadata

    dist = metadata.distribution("corr")
    direct = json.loads(dist.read_text("direct_url.json") or "{}")
    if direct.get("dir_info", {}).get("editable"):
        pytest.skip("an editable install: its metadata is as old as its last `pip install -e`")
    assert dist.metadata["License-Expression"] == pyproject()["project"]["license"]
    shipped = [f for f in dist.files or [] if f.name == "LICENSE"]
    assert shipped and LICENCES["MIT"][0] in shipped[0].read_text(encoding="utf-8")


def test_this_python_is_one_the_package_declares() -> None:
    project = pyproject()["project"]
    lowest = re.fullmatch(r">=\s*3\.(\d+)", project["requires-python"])
    assert lowest, project["requires-python"]
    declared = sorted(int(c.rsplit(".", 1)[1]) for c in project["classifiers"]
                      if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert declared[0] == int(lowest.group(1)), "requires-python and the classifiers disagree"
    assert declared == list(range(declared[0], declared[-1] + 1))
    assert sys.version_info[:2] >= (3, declared[0])


# ---------------------------------------------------------------------------------
# ./run-tests, the README's test command


def run_tests(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    environ = {k: v for k, v in os.environ.items() if not k.startswith("CORR_TEST_") and k != "VIRTUAL_ENV"}
    return subprocess.run(["bash", str(REPO / "run-tests"), *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={**environ, **(env or {})})


def test_run_tests_lists_the_supported_pythons_it_finds() -> None:
    done = run_tests("--list-pythons")
    assert done.returncode == 0, done.stderr
    rows = [line.split(" ", 1) for line in done.stdout.splitlines()]
    assert rows and [v for v, _ in rows] == sorted({v for v, _ in rows}, key=lambda v: -int(v.split(".")[1]))
    for version, path in rows:
        told = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=60).stdout.strip()
        assert told == version and int(version.split(".")[1]) >= 10


def test_run_tests_never_installs_into_a_python_that_is_not_a_venv(tmp_path: Path) -> None:
    """A folder whose bin/python is the system's interpreter itself is refused before pip runs."""
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    if not base.exists():
        pytest.skip(f"no {base}")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").symlink_to(base)
    done = run_tests("--venv", str(tmp_path), "-x")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"run-tests: error: {tmp_path} is not a virtual environment; "
                                            "tests are never installed into the system's Python")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["bin", "python"]


@pytest.mark.parametrize("args, env, words", [
    (["--python", "2.7"], {}, "Python 2.7 is not supported: corr needs 3.10 or newer"),
    (["--python", "python3.99"], {}, "Python 3.99 not found (--list-pythons shows what is)"),
    (["--python", str(REPO / "README.md")], {}, "is not a Python 3.10 or newer that runs"),
    ([], {"CORR_TEST_INSTALL": "sometimes"}, "CORR_TEST_INSTALL must be editable or wheel"),
])
def test_run_tests_says_what_is_wrong_in_one_line(args: list[str], env: dict[str, str], words: str) -> None:
    done = run_tests(*args, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("run-tests: error: ") and words in done.stderr


def test_a_frozen_clock_leaves_pytests_timer_alone() -> None:
    """`--durations` and the run's total keep real time while a test freezes it."""
    from _pytest import timing
    from freezegun import freeze_time

    real = timing.perf_counter
    with freeze_time("2026-03-01 12:00:00"):
        assert timing.perf_counter is real


def test_the_closing_summary_names_every_skip_and_why(tmp_path: Path) -> None:
    """pyproject's pytest options: a run's last lines say what was skipped and why."""
    test = tmp_path / "test_skipped.py"
    test.write_text("import pytest\n\n\n@pytest.mark.skip(reason='no Dovecot on this machine')\n"
                    "def test_imap() -> None:\n    pass\n")
    project = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "pytest", "-c", str(project / "pyproject.toml"), "--rootdir",
                           str(tmp_path), "-p", "no:cacheprovider", str(test)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert re.search(r"^SKIPPED \[1\] \S*test_skipped\.py:4: no Dovecot on this machine$", done.stdout, re.M), done.stdout
