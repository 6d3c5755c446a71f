"""A stream storm: a real daemon on 127.0.0.1 with 8 live phones (each following the stream as a
page does, polling ``/api/status``, one of them a player posting offered actions unchanged)
while, for a minute, 300 streams are opened and abandoned without being closed, 100 are opened
and never read, and 150 sockets keep sending half a request a line at a time (``bench/storm.py``,
in a process of its own, so that its hundreds of sockets do not slow the threads that measure).

No request of the live phones times out or stalls, every phone keeps receiving snapshots, and
the daemon is fine at the end. Their status and action p99 are recorded against the goal of
50 ms (a figure, not an assertion: the bench runs two long tests side by side on a shared
machine), with the largest number of streams the table held open at once.

A minute rather than the two of the issue: the same counts in half the time are a denser
storm, and the long tests of ``make bench`` share ten minutes.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bench.daemon import Daemon, start
from bench.figures import record

PHONES = 8
STORM_S = 60.0
ABANDONED = 300
UNREAD = 100
TRICKLERS = 150
TRICKLE_EVERY_S = 2.0
"""A header line this often on each half-sent request (the issue's were every 5 s: this is
harsher, and a request still arriving is dropped after 10 s either way)."""
TRICKLE_OPENS = 1500
"""Half-sent requests opened in all: one dropped by the table is replaced, up to this."""
POLL_EVERY_S = 0.5
ACT_EVERY_S = 0.5
TIMEOUT_S = 10.0
STALL_S = 1.0
"""An answer slower than this is a stall (the table locked), whatever the machine."""
SILENCE_S = 20.0
"""The longest a live phone may go without a snapshot (the table refreshes every 2 s)."""
GOAL_MS = 50.0


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)


def stream_request(device: str | None) -> bytes:
    path = "/api/stream" + (f"?device={device}" if device else "")
    return f"GET {path} HTTP/1.1\r\nHost: table\r\n\r\n".encode()


class Timings:
    """Answer times in milliseconds, timeouts and errors, shared by threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ms: list[float] = []
        self.timeouts = 0
        self.errors: list[str] = []

    def add(self, ms: float) -> None:
        with self.lock:
            self.ms.append(ms)

    def p99(self) -> float:
        with self.lock:
            ordered = sorted(self.ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def call(
    port: int, method: str, path: str, timings: Timings, token: str | None = None, body: Any = None
) -> tuple[int, Any] | None:
    """One request on a new connection, as a phone's fetch; timed; ``None`` when it failed."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
    began = time.perf_counter()
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read()
        timings.add((time.perf_counter() - began) * 1000)
        return response.status, json.loads(text or b"null")
    except TimeoutError:
        with timings.lock:
            timings.timeouts += 1
    except (OSError, http.client.HTTPException, ValueError) as exc:
        with timings.lock:
            timings.errors.append(f"{method} {path}: {exc!r}")
    finally:
        connection.close()
    return None


class Phone:
    """A live page: its stream, opened again whenever it ends (as EventSource does), and a poll
    of the status."""

    def __init__(self, port: int, n: int, status: Timings, stop: threading.Event) -> None:
        self.port = port
        self.device = f"{n:02d}" + "ab" * 15
        self.status = status
        self.stop = stop
        self.snapshots = 0
        self.opened = 0
        self.last_heard = time.monotonic()
        self.longest_silence = 0.0
        self.failures: list[str] = []
        self.sock: socket.socket | None = None
        self.threads = [
            threading.Thread(target=self._follow, daemon=True),
            threading.Thread(target=self._poll, daemon=True),
        ]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def join(self) -> None:
        for thread in self.threads:
            thread.join(TIMEOUT_S * 2)

    def heard(self) -> None:
        now = time.monotonic()
        self.longest_silence = max(self.longest_silence, now - self.last_heard)
        self.last_heard = now

    def _follow(self) -> None:
        while not self.stop.is_set():
            try:
                with connect(self.port) as sock:
                    self.sock = sock
                    sock.sendall(stream_request(self.device))
                    self.opened += 1
                    buffered = b""
                    while not self.stop.is_set():
                        chunk = sock.recv(65536)
                        if not chunk:
                            break
                        buffered += chunk
                        while b"\n\n" in buffered:
                            block, buffered = buffered.split(b"\n\n", 1)
                            if b"event: status" in block:
                                self.snapshots += 1
                                self.heard()
            except TimeoutError:
                self.failures.append("the stream went silent for 10 s")
            except OSError as exc:
                self.failures.append(f"stream: {exc!r}")
            self.sock = None
            self.stop.wait(0.5)  # EventSource waits a little before it opens the stream again

    def _poll(self) -> None:
        while not self.stop.wait(POLL_EVERY_S):
            answer = call(self.port, "GET", "/api/status", self.status)
            if answer is not None and answer[0] != 200:
                self.failures.append(f"status answered {answer[0]}")


class Player:
    """The seats' phones posting offered actions, unchanged, a new game when one is over."""

    def __init__(self, daemon: Daemon, port: int, stop: threading.Event) -> None:
        self.daemon = daemon
        self.port = port
        self.stop = stop
        self.actions = Timings()
        self.other = Timings()
        self.tokens: dict[str, str] = {}
        self.answered = 0
        self.refused: list[Any] = []
        self.rnd = random.Random(17)
        self.thread = threading.Thread(target=self._play, daemon=True)

    def _new_game(self) -> None:
        started = call(
            self.port,
            "POST",
            "/api/games",
            self.other,
            self.daemon.referee,
            {"game": "cool-runnings", "replace": True},
        )
        assert started is not None and started[0] == 201, started
        self.tokens = {}
        for seat, claim in started[1]["seat_claims"].items():
            claimed = call(self.port, "POST", "/api/claim", self.other, None, {"claim": claim})
            assert claimed is not None and claimed[0] == 200, claimed
            self.tokens[seat] = claimed[1]["token"]

    def _play(self) -> None:
        while not self.stop.wait(ACT_EVERY_S):
            status = call(self.port, "GET", "/api/status", self.other)
            if status is None:
                continue
            game = status[1]["game"]
            if game is None or game["over"]:
                self._new_game()
                continue
            offered = []
            for seat, token in self.tokens.items():
                view = call(self.port, "GET", "/api/view", self.other, token)
                if view is not None and view[0] == 200:
                    offered += [
                        (seat, a) for a in view[1]["legal_actions"] if a["type"] != "melted"
                    ]
            if not offered:
                continue
            seat, action = self.rnd.choice(offered)
            answer = call(
                self.port, "POST", "/api/actions", self.actions, self.tokens[seat], action
            )
            if answer is None:
                continue
            if answer[0] == 200:
                self.answered += 1
            elif answer[0] != 409:  # the game moved on meanwhile (a count ended)
                self.refused.append(answer)


def storm(port: int) -> subprocess.Popen[str]:
    """The storm, in a process of its own (its sockets must not slow the phones measuring)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.storm",
            *("--port", str(port), "--seconds", f"{STORM_S:g}"),
            *("--abandoned", str(ABANDONED), "--unread", str(UNREAD)),
            *("--tricklers", str(TRICKLERS), "--trickle-opens", str(TRICKLE_OPENS)),
            *("--every", f"{TRICKLE_EVERY_S:g}"),
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )


@pytest.mark.long
def test_a_stream_storm_leaves_the_live_phones_answered(tmp_path: Path) -> None:
    daemon = start(tmp_path, "--speed", "10", "--seed", "17")
    port = int(daemon.url.rsplit(":", 1)[1])
    stop = threading.Event()
    status = Timings()
    phones = [Phone(port, n, status, stop) for n in range(PHONES)]
    player = Player(daemon, port, stop)
    held = 0
    done: dict[str, int] = {}
    attack: subprocess.Popen[str] | None = None
    try:
        for phone in phones:
            phone.start()
        player.thread.start()
        time.sleep(2.0)  # the phones settle before the storm
        attack = storm(port)
        assert attack.stdout is not None
        for line in attack.stdout:
            seen = json.loads(line)
            if "done" in seen:
                done = seen["done"]
                break
            held = max(held, seen["held"] + sum(1 for p in phones if p.sock is not None))
        attack.wait(TIMEOUT_S * 3)
        stop.set()
        player.thread.join(TIMEOUT_S * 2)
        for phone in phones:
            phone.join()
        after = call(port, "GET", "/api/status", Timings())
        alive = daemon.process.poll() is None
    finally:
        stop.set()
        if attack is not None and attack.poll() is None:
            attack.kill()
            attack.wait(TIMEOUT_S)
        code = daemon.stop()
    log = "".join(daemon.lines)
    assert alive and code == 0, log
    assert "Traceback" not in log, log
    assert after is not None and after[0] == 200
    status_p99, action_p99 = round(status.p99(), 1), round(player.actions.p99(), 1)
    note = (
        f"{PHONES} phones, {len(status.ms)} status polls and {len(player.actions.ms)} actions "
        f"({player.answered} taken) while over {STORM_S:g} s {ABANDONED} streams were "
        f"abandoned, {UNREAD} never read and {done.get('trickle_opens')} half-sent requests "
        f"trickled ({TRICKLERS} at once, {done.get('trickles_dropped')} dropped by the table); "
        f"timeouts: {status.timeouts + player.actions.timeouts}"
    )
    record(
        "chaos: stream storm, status p99", status_p99, "ms", goal=GOAL_MS, better="lower", note=note
    )
    record(
        "chaos: stream storm, action p99", action_p99, "ms", goal=GOAL_MS, better="lower", note=note
    )
    silence = max(p.longest_silence for p in phones)
    record(
        "chaos: stream storm, open streams held",
        held,
        "streams",
        goal=PHONES,
        note=(
            f"the most open at once (the table keeps 16, ending one that is behind, else the "
            f"oldest); every live phone kept receiving: {min(p.snapshots for p in phones)}+ "
            f"snapshots each, at most {silence:.1f} s without one, streams opened again up to "
            f"{max(p.opened for p in phones)} times"
        ),
    )
    assert status.timeouts == 0 and player.actions.timeouts == 0 and player.other.timeouts == 0
    assert not status.errors and not player.actions.errors and not player.other.errors, (
        status.errors + player.actions.errors + player.other.errors
    )
    assert max(status.ms) < STALL_S * 1000 and max(player.actions.ms) < STALL_S * 1000
    assert done and done["unanswered"] == 0, f"a new stream was not answered: {done}"
    assert not player.refused and player.answered > 0
    for phone in phones:
        assert not [f for f in phone.failures if "status" in f], phone.failures
        assert phone.snapshots > 0 and phone.longest_silence < SILENCE_S
