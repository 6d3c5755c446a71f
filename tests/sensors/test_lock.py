"""The pads' lock between processes: the second is told to stop the first; a dead holder frees."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.sensors.lock import LOCK_FILE, SensorsBusy, pads_lock

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60.0
"""How long a test waits at most for a child to answer before it fails."""

HOLD = """
import sys
from pathlib import Path
from companion.sensors.lock import pads_lock
with pads_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()
"""
TRY = """
import sys
from pathlib import Path
from companion.sensors.lock import SensorsBusy, pads_lock
try:
    with pads_lock(Path(sys.argv[1])):
        print("got it")
except SensorsBusy as busy:
    print(busy)
"""


def python(code: str, state_dir: Path, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, str(state_dir)],
        cwd=ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        **kwargs,
    )


@contextmanager
def holder(state_dir: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process that holds the lock until its input ends (or it is killed)."""
    child = python(HOLD, state_dir)
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "held\n"
        yield child
    finally:
        child.kill()
        child.wait(WAIT_S)
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()


def attempt(state_dir: Path) -> str:
    """What a second process says when it tries to take the lock."""
    child = python(TRY, state_dir)
    out, _ = child.communicate(timeout=WAIT_S)
    return out.strip()


def test_a_second_process_is_told_to_stop_the_daemon(tmp_path: Path) -> None:
    with pads_lock(tmp_path):
        said = attempt(tmp_path)
    assert said.startswith("the daemon is reading the pads: stop it first")
    assert "sudo systemctl stop companion" in said and "new calibration" in said
    assert attempt(tmp_path) == "got it"


def test_the_lock_is_refused_here_while_another_process_holds_it(tmp_path: Path) -> None:
    with holder(tmp_path) as child:
        with pytest.raises(SensorsBusy, match="stop it first"), pads_lock(tmp_path):
            pass
        assert child.stdin is not None
        child.stdin.close()  # the holder leaves its with-block and exits
        assert child.wait(WAIT_S) == 0
    with pads_lock(tmp_path):
        pass


def test_a_killed_holder_frees_the_lock(tmp_path: Path) -> None:
    with holder(tmp_path) as child:
        assert attempt(tmp_path).startswith("the daemon is reading the pads")
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(WAIT_S) == -signal.SIGKILL
        assert attempt(tmp_path) == "got it"


def test_the_lock_file_and_folder_are_made_and_left(tmp_path: Path) -> None:
    state_dir = tmp_path / "new" / "state"
    with pads_lock(state_dir) as path:
        assert path == state_dir / LOCK_FILE
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert (state_dir / LOCK_FILE).exists()  # removing it would race with the next taker
    with pads_lock(state_dir):
        pass


def test_a_lock_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("a file where the folder should be")
    failing = pads_lock(tmp_path / "state")
    with pytest.raises(CompanionError, match=r"sensors\.lock: cannot be opened"), failing:
        pass


def test_a_failure_inside_the_block_releases_the_lock(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), pads_lock(tmp_path):
        raise RuntimeError("the calibration failed")
    assert attempt(tmp_path) == "got it"
