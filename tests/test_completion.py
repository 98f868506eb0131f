"""`corr completion SHELL`: a static script that completes commands, options, their
values, game names and files, without ever running corr."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from corr.cli import COMMANDS


def completions(script: Path, cwd: Path, *words: str) -> list[str]:
    """What bash offers after `words` (the last one being typed), with the script loaded."""
    line = " ".join(f"'{w}'" for w in words)
    program = (f"source {script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMPREPLY=(); _corr\n"
               'printf "%s\\n" "${COMPREPLY[@]}"\n')
    done = subprocess.run(["bash", "--norc", "-c", program], cwd=cwd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return sorted(filter(None, done.stdout.splitlines()))


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_bash_completes_commands_options_values_games_and_files(corr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = corr("completion", "bash")
    assert r.code == 0, r.err
    assert "_CORR_COMPLETE" not in r.out and "$(corr" not in r.out and "`corr " not in r.out.split("\n", 1)[1]
    script = tmp_path / "corr.bash"
    script.write_text(r.out)
    (tmp_path / "game.corr").write_text("")
    assert completions(script, tmp_path, "corr", "") == sorted(COMMANDS)
    assert completions(script, tmp_path, "corr", "mo") == ["move"]
    assert completions(script, tmp_path, "corr", "draw", "") == ["accept", "decline", "offer"]
    assert "--by" in completions(script, tmp_path, "corr", "move", "game.corr", "--")
    assert completions(script, tmp_path, "corr", "move", "game.corr", "--format", "") == ["html", "json", "none",
                                                                                            "text"]
    assert completions(script, tmp_path, "corr", "bot", "game.corr", "--level", "g") == ["greedy"]
    assert completions(script, tmp_path, "corr", "show", "ga") == ["game.corr"]
    assert {"cards", "combat", "domino", "moyo", "war"} <= set(completions(script, tmp_path, "corr", "new", ""))


def test_zsh_and_fish_scripts_name_every_command(corr) -> None:  # type: ignore[no-untyped-def]
    zsh = corr("completion", "zsh").out
    assert zsh.startswith("#compdef corr\n") and "bashcompinit" in zsh and "complete -o filenames -F _corr corr" in zsh
    fish = corr("completion", "fish").out
    for name in COMMANDS:
        assert f"-a '{name}'" in fish
    assert "complete -c corr -n '__fish_seen_subcommand_from move' -l format -x -a 'text html json none'" in fish


def test_an_unknown_shell_is_refused_in_one_line(corr) -> None:  # type: ignore[no-untyped-def]
    r = corr("completion", "tcsh")
    assert r.code == 1 and r.err == "corr: error: unknown shell 'tcsh' (shells: bash, zsh, fish)\n"
