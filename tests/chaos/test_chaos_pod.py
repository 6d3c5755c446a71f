"""The sensor pod unplugged and plugged back, again and again, during a game.

A real ``companion run`` reads a fake pod (the pod's firmware on simulated sensors, behind a
pseudo-terminal's symlink, as ``/dev/companion-pod``) while a scripted game of Cool Runnings is
played through the API. Every time the cable is pulled every seat's probe and pad show it in
``/api/status``; every time it is pushed back every seat reads again; the actions posted
meanwhile are all answered, and the daemon never dies nor logs a traceback.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fakepod import FakePod

from bench.daemon import Daemon, start
from bench.figures import record

SHORT_CYCLES = 2
LONG_CYCLES = 12
SHORT_ACTIONS = 1
LONG_ACTIONS = 3
"""Actions posted before each unplug, while unplugged, and after each plug."""
WAIT_S = 60.0
"""How long the test waits at most for the status to show a change (a loaded machine)."""
PACE_S = 0.2
"""The quickest ten-count the game allows: the script waits through the counts."""
KINDS = ("thermometer", "scale")


def pod_table(tmp_path: Path, port: Path) -> Path:
    config = tmp_path / "table.toml"
    config.write_text(f'[sensors]\nthermometers = "pod"\nscales = "pod"\npod_port = "{port}"\n')
    return config


class Script:
    """Plays the game through the API, one legal action of a seat at a time."""

    def __init__(self, daemon: Daemon, rnd: random.Random) -> None:
        self.daemon = daemon
        self.rnd = rnd
        self.tokens: dict[str, str] = {}
        self.answered = 0
        self.games = 0

    def act(self, count: int) -> None:
        """Post ``count`` legal actions, starting a new game whenever there is none to play."""
        done = 0
        deadline = time.monotonic() + WAIT_S
        while done < count:
            assert time.monotonic() < deadline, "no legal action for a minute"
            game = self.daemon.call("GET", "/api/status").body["game"]
            if game is None or game["over"]:
                body = {"game": "cool-runnings", "options": {"count_pace_s": PACE_S}}
                started = self.daemon.call("POST", "/api/games", self.daemon.referee, body)
                assert started.status == 201, started.body
                self.tokens = self.daemon.seated(started)
                self.games += 1
                continue
            choices = [
                (seat, action)
                for seat, token in self.tokens.items()
                for action in self.daemon.call("GET", "/api/view", token).body["legal_actions"]
                if action["type"] != "melted"
            ]
            if not choices:
                time.sleep(0.05)  # a ten-count runs: the table ends it
                continue
            seat, action = self.rnd.choice(choices)
            answer = self.daemon.call("POST", "/api/actions", self.tokens[seat], action)
            assert answer.status in (200, 409), answer.body  # 409: the count ended meanwhile
            if answer.status == 200:
                done += 1
                self.answered += 1
                deadline = time.monotonic() + WAIT_S


def wait_status(daemon: Daemon, ok: Callable[[list[dict[str, Any]]], bool]) -> float:
    """Seconds until ``/api/status``'s seats satisfy ``ok``; fails after ``WAIT_S``."""
    began = time.monotonic()
    while True:
        seats = daemon.call("GET", "/api/status").body["seats"]
        if ok(seats):
            return time.monotonic() - began
        assert daemon.process.poll() is None, "".join(daemon.lines)
        assert time.monotonic() - began < WAIT_S, seats
        time.sleep(0.05)


def unplugged(seats: list[dict[str, Any]]) -> bool:
    """Every seat's probe and pad say the pod is gone."""
    return len(seats) == 4 and all(
        s["sensors"][k].startswith("fault: ") and "pod" in s["sensors"][k]
        for s in seats
        for k in KINDS
    )


def reading(seats: list[dict[str, Any]]) -> bool:
    """Every seat's probe and pad read again, and every seat has its air."""
    return len(seats) == 4 and all(
        s["sensors"][k] == "ok" and s["air_c"] is not None for s in seats for k in KINDS
    )


def unplug_and_plug(tmp_path: Path, cycles: int, actions: int) -> dict[str, Any]:
    """Play through ``cycles`` unplugs and plugs, ``actions`` before, during and after each;
    what was measured."""
    with FakePod(tmp_path).start() as pod:
        config = pod_table(tmp_path, pod.port)
        daemon = start(tmp_path / "state", "--config", str(config), simulate=False)
        try:
            script = Script(daemon, random.Random(10))
            wait_status(daemon, reading)
            shown, back = [], []
            for _ in range(cycles):
                script.act(actions)
                pod.unplug()
                shown.append(wait_status(daemon, unplugged))
                script.act(actions)
                pod.plug()
                back.append(wait_status(daemon, reading))
                script.act(actions)
            assert daemon.process.poll() is None
        finally:
            code = daemon.stop()
    log = "".join(daemon.lines)
    assert code == 0, log
    assert "Traceback" not in log and "failed a pass" not in log, log
    assert log.count("the pod is back") >= cycles, log
    return {"shown": shown, "back": back, "answered": script.answered, "games": script.games}


def test_the_pod_unplugged_twice_in_a_game(tmp_path: Path) -> None:
    seen = unplug_and_plug(tmp_path, SHORT_CYCLES, SHORT_ACTIONS)
    assert seen["answered"] == 3 * SHORT_ACTIONS * SHORT_CYCLES


@pytest.mark.long
def test_the_pod_unplugged_a_dozen_times_in_a_game(tmp_path: Path) -> None:
    seen = unplug_and_plug(tmp_path, LONG_CYCLES, LONG_ACTIONS)
    shown, back = sorted(seen["shown"]), sorted(seen["back"])
    played = f"{seen['answered']} actions all answered; the daemon never died"
    record(
        "chaos: pod unplugged, shown",
        round(shown[-1], 2),
        "s",
        goal=5.0,
        better="lower",
        note=f"the slowest of {LONG_CYCLES} unplugs to show on every seat in /api/status "
        f"(median {shown[LONG_CYCLES // 2]:.2f} s); {played}",
    )
    record(
        "chaos: pod plugged, reading",
        round(back[-1], 2),
        "s",
        goal=5.0,
        better="lower",
        note=f"the slowest of {LONG_CYCLES} plugs until every seat reads again "
        f"(median {back[LONG_CYCLES // 2]:.2f} s)",
    )
    assert seen["answered"] == 3 * LONG_ACTIONS * LONG_CYCLES
