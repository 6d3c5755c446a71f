"""Running the ``companion`` command inside the test process, as the CLI tests do."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence

import pytest

from companion.cli import main

Companion = Callable[..., "subprocess.CompletedProcess[str]"]
"""The ``companion_process`` fixture: ``companion ARGV`` run as a process of its own."""


def run(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``companion ARGV`` in this process: the exit status, stdout and stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code  # argparse refuses the arguments before a command runs
    out, err = capsys.readouterr()
    assert isinstance(code, int)
    return code, out, err
