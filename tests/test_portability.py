"""corr on another platform or Python: importing it needs no POSIX-only module, the log
lock is the platform's own (flock here, tested for real across processes), and the
TOML reader falls back to tomli on Python 3.10.

Windows and macOS are not run here: `locking.MsvcrtLock` is only chosen, never called.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from corr.log import locking


def python(code: str, cwd: Path, *, block: str | None = None, **kwargs) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter (outside the checkout, so the installed corr is
    what it imports), with the module `block` made unimportable first, as on a platform
    that lacks it."""
    prelude = f"import sys; sys.modules[{block!r}] = None\n" if block else ""
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], cwd=cwd, capture_output=True,
                          text=True, timeout=120, **kwargs)


def test_every_corr_module_imports_without_fcntl(tmp_path: Path) -> None:
    """Windows has no fcntl: importing any part of corr must not need it."""
    done = python("""
        import importlib, pkgutil, corr
        names = [m.name for m in pkgutil.walk_packages(corr.__path__, "corr.") if not m.name.endswith("__main__")]
        for name in names:
            importlib.import_module(name)
        print(len(names))
    """, tmp_path, block="fcntl")
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 20  # the walk found the package, not an empty path


def test_without_any_lock_module_a_command_fails_in_one_line_and_changes_nothing(tmp_path: Path) -> None:
    game = tmp_path / "g.corr"
    made = subprocess.run([sys.executable, "-m", "corr", "new", "combat", str(game), "-p", "Anna", "-p", "Ben",
                           "-f", "none"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    before = game.read_bytes()
    done = python(f"""
        from corr.cli import main
        main(["move", {str(game)!r}, "7 (8,7)"])
    """, tmp_path, block="fcntl")
    assert done.returncode == 1
    assert done.stderr.startswith("corr: error: cannot lock the log") and "fcntl" in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert game.read_bytes() == before


def test_the_platform_picks_its_own_lock_calls() -> None:
    assert isinstance(locking.backend("nt"), locking.MsvcrtLock)
    assert isinstance(locking.backend("posix"), locking.Flock)
    assert isinstance(locking.backend(os.name), locking.MsvcrtLock if os.name == "nt" else locking.Flock)


HOLDER = """
    import sys
    from corr.log import locking
    with open(sys.argv[1], "r+b") as f, locking.held(f, exclusive=sys.argv[2] == "exclusive"):
        print("held", flush=True)
        sys.stdin.readline()  # hold the lock until told to let go
    print("released", flush=True)
"""


def hold(path: Path, kind: str) -> subprocess.Popen[str]:
    """A process that takes a `kind` lock on `path` and keeps it until its stdin gets a line."""
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOLDER), str(path), kind], cwd=path.parent,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def holds_within(proc: subprocess.Popen[str], seconds: float) -> bool:
    """Whether `proc` says it holds its lock within `seconds`."""
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]
        if not sel.select(timeout=seconds):
            return False
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == "held\n", (line, proc.stderr.read() if proc.stderr else "")
    return True


def let_go(proc: subprocess.Popen[str]) -> None:
    out, err = proc.communicate("\n", timeout=60)
    assert proc.returncode == 0 and "released" in out, err


@pytest.mark.skipif(os.name == "nt", reason="the POSIX lock; Windows's msvcrt lock is not run here")
@pytest.mark.parametrize("second", ["exclusive", "shared"])
def test_an_exclusive_lock_keeps_every_other_process_waiting_until_released(tmp_path: Path, second: str) -> None:
    log = tmp_path / "g.corr"
    log.write_bytes(b"{}\n")
    first = hold(log, "exclusive")
    try:
        assert holds_within(first, 60)
        waiting = hold(log, second)
        try:
            assert not holds_within(waiting, 1.0)  # blocked, not refused: it is still running
            assert waiting.poll() is None
            started = time.monotonic()
            let_go(first)
            assert holds_within(waiting, 60)
            assert time.monotonic() - started < 30
        finally:
            let_go(waiting)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()


@pytest.mark.skipif(os.name == "nt", reason="shared locks are exclusive on Windows")
def test_readers_share_the_lock(tmp_path: Path) -> None:
    log = tmp_path / "g.corr"
    log.write_bytes(b"{}\n")
    readers = [hold(log, "shared") for _ in range(2)]
    try:
        assert all(holds_within(r, 60) for r in readers)  # both at once: neither waits
    finally:
        for r in readers:
            let_go(r)


def test_the_smtp_config_is_read_with_tomli_where_python_has_no_tomllib(tmp_path: Path) -> None:
    """Python 3.10 has no tomllib; pyproject installs tomli there. Where tomli is installed,
    corr reads the config with it when tomllib is missing."""
    pytest.importorskip("tomli")
    (tmp_path / "smtp.toml").write_text('[smtp]\nhost = "mail.example.org"\nport = 2525\n', encoding="utf-8")
    (tmp_path / "bad.toml").write_text('[smtp\nhost = "x"\n', encoding="utf-8")
    done = python("""
        from corr.errors import UsageError
        from corr.mail.smtp import load_config
        config = load_config("smtp.toml")
        print(config.host, config.port)
        try:
            load_config("bad.toml")
        except UsageError as err:
            print(err)
    """, tmp_path, block="tomllib")
    assert done.returncode == 0, done.stderr
    found, refused = done.stdout.splitlines()
    assert found == "mail.example.org 2525"
    assert refused.startswith("SMTP config bad.toml: not valid TOML")

