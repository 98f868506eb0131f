"""The README's first command, run as written in a fresh clone: a new player's first minute.

It installs corr into a new virtual environment with pip (a minute or so), so it runs
where CI runs (`CI` set) or when asked for (`CORR_FRESH_CLONE=1`), and is skipped
otherwise.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    not (os.environ.get("CI") or os.environ.get("CORR_FRESH_CLONE")) or shutil.which("git") is None
    or not (ROOT / ".git").exists(),
    reason="installs with pip into a fresh clone: runs in CI or with CORR_FRESH_CLONE=1, in a git checkout",
)


def install_block() -> str:
    """The shell block of "Install and play" that installs corr and plays the first move."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Install and play\n", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_the_readme_install_line_works_in_a_fresh_clone_and_leaves_it_clean(tmp_path: Path) -> None:
    clone = tmp_path / "corr"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    block = install_block()
    assert block.startswith("python3 -m venv .venv") and "pip install ." in block
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    done = subprocess.run(["bash", "-euc", block], cwd=clone, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "to move: B Ben" in done.stdout  # Anna's 7 is on the board, Ben is to move
    assert (clone / "game.corr").is_file() and (clone / ".venv" / "bin" / "corr").is_file()
    status = subprocess.run(["git", "status", "--porcelain", "--ignored=no"], cwd=clone, capture_output=True,
                            text=True, check=True)
    assert status.stdout == "", f"the walkthrough left files git would commit:\n{status.stdout}"
