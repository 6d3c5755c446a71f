"""A real ``companion run`` whose wall clock steps mid-game, under libfaketime.

A Pi has no real-time clock: its clock starts where fake-hwclock left it and steps when a network
sets it. The daemon runs with libfaketime preloaded, its monotonic clock left alone and its wall
clock read from a file the test rewrites: back an hour, on a day, back a minute, while a game of
Cool Runnings runs on the simulated table. Its stream keeps sending snapshots (the longest
silence after a step is the long test's figure), ``/api/status`` keeps moving (its ``time``
jumps as far as the wall did and then goes on), and no cube's estimate jumps. Skipped, saying
so, where libfaketime is not installed (``apt-get install faketime``; ``.ci/run`` installs it).
"""

from __future__ import annotations

import http.client
import itertools
import json
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bench.daemon import Daemon, start
from bench.figures import record
from companion.table.sensing import LOOP_S
from companion.table.service import REFRESH_S

LIBFAKETIME = "/usr/$LIB/faketime/libfaketimeMT.so.1"
"""Where Debian puts it; the dynamic loader expands ``$LIB`` (lib/x86_64-linux-gnu, ...)."""
STEPS_S = (-3600.0, 86400.0, -60.0)
WATCH_S = 6.0
"""How long the test watches the table after each step: three refreshes."""
LONG_ROUNDS = 4
GOAL_S = REFRESH_S + LOOP_S
"""At most one refresh without a snapshot: the sensor loop looks every ``LOOP_S``, so a refresh
is sent between 2 and 2.25 s after the last snapshot."""
MOVING = 2
"""Snapshots made after a step that the stream must send within ``WATCH_S``: three refreshes
are due, and a loaded machine may delay one past the watch."""
MELT_G = 0.05
"""The most a cube's estimate may move between two snapshots a refresh apart at speed 1."""

needs_faketime = pytest.mark.skipif(
    shutil.which("faketime") is None
    or not any(Path("/usr").glob("lib*/**/faketime/libfaketimeMT.so.1")),
    reason="libfaketime is not installed (apt-get install faketime): no daemon on a stepped clock",
)


@dataclass
class Watch:
    """The daemon's stream, read in a thread: when each snapshot came (monotonic), and it."""

    daemon: Daemon
    seen: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _connection: http.client.HTTPConnection | None = None

    def start(self) -> Watch:
        host, port = self.daemon.url.removeprefix("http://").split(":")
        self._connection = http.client.HTTPConnection(host, int(port), timeout=30)
        self._connection.request("GET", "/api/stream")
        response = self._connection.getresponse()
        assert response.status == 200
        threading.Thread(target=self._read, args=(response,), daemon=True).start()
        return self

    def _read(self, response: http.client.HTTPResponse) -> None:
        try:
            for raw in response:
                line = raw.decode()
                if line.startswith("data: "):
                    with self._lock:
                        self.seen.append((time.monotonic(), json.loads(line[6:])))
        except (OSError, ValueError):
            pass

    def since(self, t: float) -> list[tuple[float, dict[str, Any]]]:
        with self._lock:
            return [(at, s) for at, s in self.seen if at >= t]

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()


def longest_silence(times: list[float], start: float, end: float) -> float:
    marks = [start, *times, end]
    return max(b - a for a, b in itertools.pairwise(marks))


def grams(snapshot: dict[str, Any]) -> dict[int, float]:
    """The seats' estimates that no weigh-in touches now."""
    return {
        s["seat"]: s["ice"]["grams"]
        for s in snapshot["seats"]
        if s["ice"] is not None and s["weigh_in"] is None
    }


@pytest.fixture
def stepped_daemon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stepper]:
    offset = tmp_path / "faketime"
    offset.write_text("+0\n")
    monkeypatch.setenv("LD_PRELOAD", LIBFAKETIME)
    monkeypatch.setenv("FAKETIME_TIMESTAMP_FILE", str(offset))
    # a step is seen within a second; reading the file at every clock read instead
    # (FAKETIME_NO_CACHE) cost the daemon most of a core and slowed its answers to seconds
    monkeypatch.setenv("FAKETIME_CACHE_DURATION", "1")
    monkeypatch.setenv("FAKETIME_DONT_FAKE_MONOTONIC", "1")  # as a real step leaves it
    daemon = start(tmp_path / "state")
    monkeypatch.delenv("LD_PRELOAD")  # the test's own children run on the real clock
    try:
        yield Stepper(daemon, offset)
    finally:
        daemon.stop()


@dataclass
class Stepper:
    """The daemon and the file its wall clock is read from."""

    daemon: Daemon
    offset: Path
    stepped_s: float = 0.0
    silences: list[float] = field(default_factory=list)
    """The longest stretch without a snapshot after each step (seconds)."""

    def step(self, s: float, watch: Watch) -> None:
        """Step the daemon's wall clock ``s`` seconds and watch the table for ``WATCH_S``."""
        before = self.daemon.call("GET", "/api/status").body
        self.stepped_s += s
        self.offset.write_text(f"{self.stepped_s:+.0f}\n")
        stepped_at = time.monotonic()
        polled = []
        while time.monotonic() < stepped_at + WATCH_S:
            polled.append(self.daemon.call("GET", "/api/status").body["time"])
            time.sleep(0.2)
        end = time.monotonic()
        came = watch.since(stepped_at)
        self.silences.append(longest_silence([at for at, _ in came], stepped_at, end))

        def made_since(t: float) -> bool:  # the steps are far longer than the watch
            return abs(t - (before["time"] + s)) <= WATCH_S + 3.0

        # /api/status kept moving: its time jumped as far as the wall did, then went on
        polled = [t for t in polled if made_since(t)]
        assert len(set(polled)) >= 2, polled
        assert polled == sorted(polled), polled
        # the stream went on sending: a refresh a step stopped would leave at most the one
        # snapshot already on its way (how long each silence was is a figure, not a limit)
        shown = [snapshot["time"] for _, snapshot in came if made_since(snapshot["time"])]
        assert len(shown) >= MOVING, [at - stepped_at for at, _ in came]
        assert len(shown) >= len(came) - 1 and shown == sorted(shown), shown
        # and no cube's estimate jumped
        previous = grams(before)
        for _, snapshot in came:
            now = grams(snapshot)
            for seat in previous.keys() & now.keys():
                assert abs(now[seat] - previous[seat]) <= MELT_G, (seat, previous, now)
            previous = now


def play(stepper: Stepper, rounds: int) -> float:
    """A game, the wall clock stepped every way ``rounds`` times; the longest silence (s)."""
    daemon = stepper.daemon
    answer = daemon.call("POST", "/api/games", daemon.referee, {"game": "cool-runnings"})
    assert answer.status == 201, answer.body
    watch = Watch(daemon).start()
    try:
        time.sleep(2 * REFRESH_S)  # the stream has begun, the cubes have estimates
        for _ in range(rounds):
            for s in STEPS_S:
                stepper.step(s, watch)
    finally:
        watch.close()
    return max(stepper.silences)


@needs_faketime
def test_a_daemon_whose_wall_clock_steps_keeps_its_status_moving(stepped_daemon: Stepper) -> None:
    play(stepped_daemon, rounds=1)


@needs_faketime
@pytest.mark.long
def test_a_daemon_whose_wall_clock_steps_again_and_again_misses_no_refresh(
    stepped_daemon: Stepper,
) -> None:
    longest = play(stepped_daemon, rounds=LONG_ROUNDS)
    steps = len(stepped_daemon.silences)
    record(
        "clock steps: seconds without a snapshot",
        round(longest, 2),
        "s",
        goal=GOAL_S,
        better="lower",
        note=(
            f"a real daemon under libfaketime, its wall clock stepped {steps} times "
            "(back 1 h, on 1 day, back 60 s): the longest silence of its stream after a step; "
            f"a refresh every {REFRESH_S:g} s, seen by a sensor loop that looks every {LOOP_S:g} s"
        ),
    )
