"""Each worker child imports only what it runs, whatever ``__main__`` started the table."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

from child_modules import FOLDER

from companion import workers

SCRIPT = Path(__file__).with_name("console_main.py")
NOT_IN_A_CHILD = (
    "flask",
    "werkzeug",
    "waitress",
    "companion.web",
    "companion.table",
    "companion.cli",
)


def beyond(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    """The modules that are, or are inside, one of ``packages``."""
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)]


def test_each_worker_child_imports_only_its_own_modules(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT)],
        env={**os.environ, FOLDER: str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "CuesStarted" in done.stdout, done.stdout + done.stderr
    cues = json.loads((tmp_path / "cues.json").read_text())
    pads = json.loads((tmp_path / "hx711.json").read_text())
    assert beyond(cues, NOT_IN_A_CHILD) == []
    assert beyond(pads, NOT_IN_A_CHILD) == []
    assert "companion.cues.process" in cues and beyond(cues, ("companion.sensors",)) == []
    assert "companion.sensors.hx711" in pads and beyond(pads, ("companion.cues", "gpiozero")) == []
    assert "companion.config" not in cues, "the cue pins travel as plain numbers"


def test_starting_a_worker_leaves_this_process_main_as_it_was() -> None:
    main = sys.modules["__main__"]
    process = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(0,))
    workers.start(process)
    assert sys.modules["__main__"] is main
    process.join(60)
    assert process.exitcode == 0


def test_a_worker_takes_its_name_where_linux_shows_it(tmp_path: Path) -> None:
    comm = tmp_path / "comm"
    comm.write_text("python3\n")
    assert workers.name_this_process(comm) == "MainProcess"
    assert comm.read_text() == "MainProcess"
    assert workers.name_this_process(tmp_path / "no" / "comm") == "MainProcess"
