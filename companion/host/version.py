"""Which companion is running: the package's version, and the commit it came from.

Run from a checkout (``make run``: an editable install), the commit is the checkout's ``HEAD``.
Installed as the service, the package is a copy in the service's virtual environment, so
``companion install-service`` records the checkout's commit there, in ``COMMIT_FILE``. A commit
that cannot be known (no git, a copy without its history) is left out, never an error.
"""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

from companion import __version__

COMMIT_FILE = "installed-from-commit"
"""In the virtual environment's folder (``sys.prefix``): the commit install-service installed."""
PACKAGE = Path(__file__).resolve().parents[1]
"""The companion package's folder, in a checkout or a venv."""
COMMIT = re.compile(r"[0-9a-f]{40}")
GIT_S = 5.0


def checkout_commit(checkout: Path) -> str | None:
    """The commit ``checkout`` has out, when it is a git checkout and git answers.

    Under ``sudo`` a checkout belongs to another user, which git refuses to read unless told
    the folder is safe: this one is, for this one question."""
    if not (checkout / ".git").exists():
        return None
    try:
        answer = subprocess.run(
            [
                *("git", "-c", f"safe.directory={checkout}", "-C", str(checkout)),
                *("rev-parse", "--verify", "--quiet", "HEAD"),
            ],
            capture_output=True,
            text=True,
            timeout=GIT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = answer.stdout.strip()
    return commit if answer.returncode == 0 and COMMIT.fullmatch(commit) else None


def recorded_commit(prefix: Path) -> str | None:
    """The commit install-service recorded in the virtual environment ``prefix``."""
    try:
        commit = (prefix / COMMIT_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return commit if COMMIT.fullmatch(commit) else None


def running(package: Path = PACKAGE, prefix: Path | None = None) -> dict[str, Any]:
    """``{"package": "0.1.0", "commit": "<40 hex digits>"}``, without ``commit`` when it is not
    known: the checkout's that ``package`` is in, else the one recorded in ``prefix`` (this
    Python's virtual environment unless given)."""
    commit = checkout_commit(package.parent) or recorded_commit(
        Path(sys.prefix) if prefix is None else prefix
    )
    return {"package": __version__, **({"commit": commit} if commit else {})}


@cache
def this_one() -> dict[str, Any]:
    """:func:`running` for this process, asked once."""
    return running()
