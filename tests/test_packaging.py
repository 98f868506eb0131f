"""Templates and schemas travel with the package: an installed corr finds its own."""

from __future__ import annotations

from pathlib import Path

import corr
from corr import games
from corr.render import resource_dir

REPO = Path(__file__).resolve().parent.parent


def test_templates_and_schemas_are_found() -> None:
    templates, schemas = resource_dir("templates"), resource_dir("schemas")
    for name in games.names():
        assert (templates / f"{name}.txt").is_file() and (templates / f"{name}.html").is_file()
    assert (schemas / "header.schema.json").is_file() and (schemas / "record.schema.json").is_file()


def test_an_installed_corr_carries_its_templates_inside_the_package() -> None:
    package = Path(corr.__file__).resolve().parent
    if package.parent == REPO:  # a source checkout or editable install reads the repo's folders
        assert resource_dir("templates") == REPO / "templates"
    else:  # a wheel install: `pip install .` put them into corr/
        assert resource_dir("templates") == package / "templates"
        assert resource_dir("schemas") == package / "schemas"


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
