"""Each worker child imports only what it runs, whatever ``__main__`` started the table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from pathlib import Path

from child_modules import FOLDER

from companion.host import workers

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


def echo(prefix: str, connection: Connection) -> None:
    """A worker's target: answer each message with ``prefix`` before it, until told ``None``."""
    while (message := connection.recv()) is not None:
        connection.send(f"{prefix} {message}")


def test_a_worker_runs_its_target_with_its_end_of_the_pair() -> None:
    worker = workers.Worker("companion-echo", echo, ("heard",))
    worker.start()
    assert worker.connection is not None
    worker.connection.send("hello")
    assert worker.connection.poll(60)
    assert worker.connection.recv() == "heard hello"
    assert worker.is_alive()
    worker.connection.send(None)
    worker.join(60)
    assert worker.exitcode == 0
    assert not worker.is_alive()


def test_a_worker_brings_no_resource_tracker_and_ends_when_its_parent_goes() -> None:
    children = Path(f"/proc/{os.getpid()}/task/{threading.get_native_id()}/children")
    before = set(children.read_text().split())
    worker = workers.Worker("companion-echo", echo, ("heard",))
    worker.start()
    assert worker.connection is not None and worker.pid is not None
    started = set(children.read_text().split()) - before
    assert started == {str(worker.pid)}, "the worker alone: no resource tracker beside it"
    worker.connection.close()  # what the parent's death does to the child's end
    worker.join(60)
    assert worker.exitcode is not None and not worker.is_alive()


def test_a_worker_that_is_killed_says_how_it_ended() -> None:
    worker = workers.Worker("companion-echo", echo, ("heard",))
    worker.start()
    worker.kill()
    worker.join(60)
    assert worker.exitcode == -9


def test_a_worker_takes_its_name_where_linux_shows_it(tmp_path: Path) -> None:
    comm = tmp_path / "comm"
    comm.write_text("python3\n")
    assert workers.name_this_process("companion-a-long-name", comm) == "companion-a-lon"
    assert comm.read_text() == "companion-a-lon"
    assert workers.name_this_process("companion-x", tmp_path / "no" / "comm") == "companion-x"
