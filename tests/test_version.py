"""Which companion is running: the package's version, and the commit of the checkout it runs
from or the one install-service recorded in its virtual environment; never an error."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from companion import __version__
from companion.host.version import COMMIT_FILE, checkout_commit, recorded_commit, running

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def git(where: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(where), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_an_installed_copy_says_the_commit_install_service_recorded(tmp_path: Path) -> None:
    package = tmp_path / "lib" / "site-packages" / "companion"
    package.mkdir(parents=True)
    (tmp_path / COMMIT_FILE).write_text(f"{COMMIT}\n", encoding="utf-8")
    assert running(package, prefix=tmp_path) == {"package": __version__, "commit": COMMIT}


def test_a_checkout_says_its_own_head(tmp_path: Path) -> None:
    (tmp_path / "companion").mkdir()
    git(tmp_path, "init", "-q")
    git(tmp_path, "commit", "-q", "--allow-empty", "-m", "a commit")
    head = git(tmp_path, "rev-parse", "HEAD")
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / COMMIT_FILE).write_text(f"{COMMIT}\n", encoding="utf-8")
    assert running(tmp_path / "companion", prefix=tmp_path / "venv")["commit"] == head


@pytest.mark.parametrize("recorded", [None, "", "not a commit\n", COMMIT[:7]])
def test_a_commit_that_cannot_be_known_is_left_out(tmp_path: Path, recorded: str | None) -> None:
    if recorded is not None:
        (tmp_path / COMMIT_FILE).write_text(recorded, encoding="utf-8")
    assert running(tmp_path / "companion", prefix=tmp_path) == {"package": __version__}


def test_a_checkout_git_cannot_read_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()  # no repository in it
    assert checkout_commit(tmp_path) is None
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))  # no git at all
    assert checkout_commit(tmp_path) is None
    assert recorded_commit(tmp_path / "no-such-venv") is None
