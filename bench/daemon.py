"""A ``companion run`` daemon in a process of its own, and a small HTTP client for its API."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

START_S = 30.0
STOP_S = 20.0
"""Closing may take the sensor thread's 5 s and waitress's workers' 5 s on a loaded machine;
systemd allows 90 s."""


class StopHung(AssertionError):
    """A daemon that did not stop after SIGTERM, with what it printed: its threads' stacks."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Answer:
    status: int
    body: Any


@dataclass
class Served:
    """A table that serves: its address and the referee's token, and a small client for its API
    (a :class:`Daemon`, or a table a test serves on a thread of its own)."""

    url: str
    referee: str

    def call(self, method: str, path: str, token: str | None = None, body: Any = None) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return Answer(response.status, json.loads(response.read() or b"null"))
        except urllib.error.HTTPError as error:
            return Answer(error.code, json.loads(error.read() or b"null"))

    def phone(self) -> Phone:
        """A client that keeps its connection open between calls, as a phone's browser does."""
        return Phone(http.client.HTTPConnection(self.url.split("//", 1)[1], timeout=10))

    def seated(self, started: Answer) -> dict[str, str]:
        """Each seat's token by its number as text: the claims of ``started`` (a new game's
        answer) posted as each seat's phone does."""
        tokens = {}
        for seat, claim in started.body["seat_claims"].items():
            claimed = self.call("POST", "/api/claim", None, {"claim": claim})
            if claimed.status != 200:
                raise RuntimeError(f"seat {seat}'s claim was answered {claimed}")
            tokens[seat] = claimed.body["token"]
        return tokens


@dataclass
class Daemon(Served):
    """A running daemon: its process, its address, the referee's token and what it printed."""

    process: subprocess.Popen[str] = field(kw_only=True)
    lines: list[str] = field(default_factory=list, kw_only=True)

    def kill(self) -> None:
        """A power cut: no warning, nothing flushed."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> int:
        """What systemd does: SIGTERM, then wait; a daemon that will not stop is killed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(STOP_S)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            time.sleep(0.5)  # the reader thread takes in the last lines
            raise StopHung(
                f"the daemon did not stop {STOP_S:g} s after SIGTERM; where it was:\n"
                + "".join(self.lines[-200:])
            ) from None


@dataclass
class Phone:
    """One kept-alive connection to the daemon (see :meth:`Daemon.phone`)."""

    connection: http.client.HTTPConnection

    def call(self, method: str, path: str, token: str | None = None, body: Any = None) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        return Answer(response.status, json.loads(response.read() or b"null"))

    def close(self) -> None:
        self.connection.close()


def command() -> list[str]:
    """``companion`` as systemd runs it: its console script, whose file becomes the daemon's
    ``__main__`` (``python -m companion`` where the script is not installed)."""
    script = Path(sys.executable).with_name("companion")
    return [sys.executable, str(script)] if script.exists() else [sys.executable, "-m", "companion"]


def run_args(
    state_dir: Path, port: int, *args: str, simulate: bool = True, cues: bool = False
) -> list[str]:
    """``companion``'s arguments for :func:`start`'s table, on ``127.0.0.1:port``."""
    return [
        "run",
        *(["--simulate"] if simulate else []),
        *([] if cues else ["--no-cues"]),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--state-dir",
        str(state_dir),
        *args,
    ]


def start(
    state_dir: Path,
    *args: str,
    port: int | None = None,
    simulate: bool = True,
    cues: bool = False,
) -> Daemon:
    """Start ``companion run`` on the simulated table, without cues unless ``cues`` (then on
    mock pins), and wait until it serves; on ``port`` when given (a restart where the phones
    expect it), else on a free one. ``simulate=False`` runs the table its ``--config`` (among
    ``args``) describes."""
    port = port or free_port()
    process = subprocess.Popen(
        [*command(), *run_args(state_dir, port, *args, simulate=simulate, cues=cues)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"},
    )
    assert process.stdout is not None
    lines: list[str] = []
    referee = ""
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "referee token" in line:
            referee = line.rsplit(" ", 1)[1].strip()
        if line.startswith("companion: cues"):
            threading.Thread(target=lines.extend, args=(process.stdout,), daemon=True).start()
            return Daemon(f"http://127.0.0.1:{port}", referee, process=process, lines=lines)
    process.kill()
    raise AssertionError("the daemon did not start:\n" + "".join(lines))
