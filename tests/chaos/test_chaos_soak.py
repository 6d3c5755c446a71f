"""A soak: ``companion run --simulate --speed 60`` for half an hour of the table's time (half a
minute of real time) with 8 phones holding ``/api/stream`` open while a game is played.

The daemon stays up, every phone keeps receiving snapshots to the end, and (the long version)
its resident memory grows by less than 2 MB from after a warm-up to the end. Memory on a
shared machine is noisy, so only the long version asserts it; both write what they measured.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bench.daemon import Daemon, start
from bench.figures import record
from bench.memory import rss_mb

SPEED = 60.0
STREAMS = 8
WARM_S = 5.0
"""Real seconds (five table minutes) before the first measurement of memory."""
LONG_S = 30.0
"""Real seconds measured after the warm-up: thirty table minutes."""
SHORT_WARM_S = SHORT_S = 2.5
"""The short soak's: five table minutes in all."""
GROWTH_MB = 2.0
ACTION_EVERY_S = 0.5
"""A seat acts every half a real second: every half a minute of the table's time."""


class Phone:
    """One stream client: how many snapshots it received and the last one."""

    def __init__(self, port: int) -> None:
        self.received = 0
        self.last: dict[str, Any] | None = None
        self.error: str | None = None
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self._connection.request("GET", "/api/stream")
        self._response = self._connection.getresponse()
        assert self._response.status == 200
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        data: list[str] = []
        try:
            for raw in self._response:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("data:"):
                    data.append(line[5:].strip())
                elif not line and data:
                    self.last = json.loads("\n".join(data))
                    self.received += 1
                    data = []
        except (OSError, ValueError, http.client.HTTPException) as exc:
            self.error = repr(exc)

    def close(self) -> None:
        self._connection.close()


class Player:
    """A seat's legal action now and then, a new game of Cool Runnings when one is over."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.rnd = random.Random(10)
        self.tokens: dict[str, str] = {}
        self.answered = 0
        self.refused: list[Any] = []
        self.stop = threading.Event()
        self._thread = threading.Thread(target=self._play, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def join(self) -> None:
        self.stop.set()
        self._thread.join(30)

    def _play(self) -> None:
        while not self.stop.wait(ACTION_EVERY_S):
            game = self.daemon.call("GET", "/api/status").body["game"]
            if game is None or game["over"]:
                started = self.daemon.call(
                    "POST", "/api/games", self.daemon.referee, {"game": "cool-runnings"}
                )
                self.tokens = self.daemon.seated(started)
                continue
            choices = [
                (seat, action)
                for seat, token in self.tokens.items()
                for action in self.daemon.call("GET", "/api/view", token).body["legal_actions"]
                if action["type"] != "melted"
            ]
            if choices:
                seat, action = self.rnd.choice(choices)
                answer = self.daemon.call("POST", "/api/actions", self.tokens[seat], action)
                if answer.status == 200:
                    self.answered += 1
                elif answer.status != 409:  # 409: the table's count ended meanwhile
                    self.refused.append(answer.body)


def soak(tmp_path: Path, warm_s: float, measured_s: float) -> dict[str, Any]:
    """Run the daemon with its phones and a player; what was measured."""
    daemon = start(tmp_path, "--speed", f"{SPEED:g}", "--seed", "10")
    pid = daemon.process.pid
    port = int(daemon.url.rsplit(":", 1)[1])
    try:
        phones = [Phone(port) for _ in range(STREAMS)]
        player = Player(daemon)
        player.start()
        time.sleep(warm_s)
        counted = [p.received for p in phones]
        before = rss_mb(pid)
        time.sleep(measured_s)
        after = rss_mb(pid)
        player.join()
        status = daemon.call("GET", "/api/status").body
        alive = daemon.process.poll() is None
        for p in phones:
            p.close()
    finally:
        code = daemon.stop()
    log = "".join(daemon.lines)
    assert alive and code == 0, log
    assert "Traceback" not in log and "failed a pass" not in log, log
    assert not player.refused and player.answered > 0
    for p, then in zip(phones, counted, strict=True):
        assert p.received > then, "a phone stopped receiving snapshots"
        assert p.last is not None and p.last["time"] >= status["time"] - 10.0
    return {
        "before_mb": before,
        "after_mb": after,
        "growth_mb": after - before,
        "snapshots": min(p.received for p in phones),
        "answered": player.answered,
    }


def test_five_table_minutes_with_eight_phones(tmp_path: Path) -> None:
    soak(tmp_path, SHORT_WARM_S, SHORT_S)


@pytest.mark.long
def test_half_an_hour_with_eight_phones_grows_memory_by_under_2_mb(tmp_path: Path) -> None:
    seen = soak(tmp_path, WARM_S, LONG_S)
    growth = round(seen["growth_mb"], 3)
    record(
        "chaos: soak memory growth",
        growth,
        "MB",
        goal=GROWTH_MB,
        better="lower",
        note=(
            f"resident memory {seen['before_mb']:.2f} MB after a {WARM_S * SPEED / 60:g}-minute "
            f"warm-up, {seen['after_mb']:.2f} MB after {LONG_S * SPEED / 60:g} more table "
            f"minutes at --speed {SPEED:g}, with {STREAMS} streams (each got "
            f"{seen['snapshots']}+ snapshots) and {seen['answered']} actions played"
        ),
        before_mb=round(seen["before_mb"], 3),
        after_mb=round(seen["after_mb"], 3),
    )
    assert growth < GROWTH_MB
