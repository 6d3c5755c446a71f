"""A sensor storm: every fault of every probe and pad, switched on and off at random (seeded)
while seats play Cool Runnings on a held clock that the test moves in half-second steps.

The table stays up (no failed pass of the sensor loop, no error logged), shows each seat's
faults for that seat within one sweep, carries every seat's estimate on (while a seat's pad is
faulted no weigh-in can happen, so its grams only fall and it grows less sure of them), and
keeps each ten-count's beats at their due times on the table's clock: beat n shows at its start
plus n - 1 paces, never a step before.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from seating import seated
from tabletime import WAIT_S, HeldClock, held_table

from bench.figures import record
from companion.errors import IllegalAction
from companion.games.messages import REFEREE
from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.pipeline import Pipeline
from companion.sensors.reading import OK, SCALE, THERMOMETER, Reading
from companion.sensors.sim import SCALE_FAULTS, THERMOMETER_FAULTS
from companion.table import sensing
from companion.table.service import TableService
from companion.table.station import Station

SEED = 10
SPEED = 256.0
"""A power of two, so the held clock's half-second steps add up exactly."""
SWEEP_S = 2.0
STEP_S = 0.5
STEPS = round(SWEEP_S / STEP_S)
PACE_S = 1.0
COUNTS = 10
TEN_S = 1.0
"""After "ten" the table lets the long tone sound this long before the count is over."""
SHORT_SWEEPS = 30
LONG_SWEEPS = 900
"""Half an hour of the table's time."""
CHANGES = 2
"""Faults switched on at each sweep (and each faulted sensor mended with ``MEND``'s odds)."""
MEND = 0.3
PLAY = 0.3
LONG_PLAY = 0.03
"""The odds that a seat acts at a step, when one may: the long storm's games last long."""
EPS = 0.011
HALF = 0.005
"""The status rounds grams and sigma to hundredths."""
SHOWN = {
    "crc": "CRC error",
    "power-on": "85 C power-on",
    "power": "127.94 C",
    "zeros": "all zeros",
    "ones": "all FF",
    "missing": "missing",
    "eio": "EIO",
    "saturated": "saturated",
    "stuck-low": "all-zero word",
    "stuck-high": "all-ones word",
    "no-data": "no data",
}
"""What the status says of each fault the simulated table can show."""
Sensor = tuple[int, str]


@pytest.fixture
def storm_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Storm]:
    monkeypatch.setattr(sensing, "LOOP_S", 0.01)  # the held clock's steps need no real wait
    clock = HeldClock(SPEED)
    table = held_table(tmp_path, clock)
    try:
        yield Storm(table, clock, random.Random(SEED))
    finally:
        table.close()


@dataclass
class Storm:
    """The table, its clock, the faults switched on now and what was seen."""

    table: TableService
    clock: HeldClock
    rnd: random.Random
    faults: dict[Sensor, str] = field(default_factory=dict)
    pad_faulted_since: dict[int, float] = field(default_factory=dict)
    """Since when (the table's time) each seat's pad has been faulted without a break."""
    queue: list[tuple[int, str, str]] = field(default_factory=list)
    switched_on: set[tuple[int, str, str]] = field(default_factory=set)
    shown: int = 0
    """Fault switches (on or off) checked on the status within one sweep."""
    beats: int = 0
    counts: int = 0
    games: int = 0
    snapshots: list[tuple[float, dict[str, Any], frozenset[int]]] = field(default_factory=list)
    """Every snapshot checked: its table time, itself, and the seats whose pads were faulted
    throughout the step before it."""
    count_from: float | None = None
    play_odds: float = PLAY
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def now(self) -> float:
        return self.clock.now()

    def switch(self) -> None:
        """At a sweep: mend some faulted sensors, then switch the next faults of the schedule on.
        The schedule holds every fault of every sensor, shuffled, and begins again when used."""
        seats = sorted(self.table.sim.seats) if self.table.sim else []
        for sensor in sorted(self.faults):
            if self.rnd.random() < MEND:
                self._set(sensor, None)
        for _ in range(CHANGES):
            if not self.queue:
                self.queue = [
                    (seat, kind, name)
                    for seat in seats
                    for kind, names in ((THERMOMETER, THERMOMETER_FAULTS), (SCALE, SCALE_FAULTS))
                    for name in names
                ]
                self.rnd.shuffle(self.queue)
            seat, kind, name = self.queue.pop()
            self._set((seat, kind), name)

    def _set(self, sensor: Sensor, name: str | None) -> None:
        assert self.table.sim is not None
        seat, kind = sensor
        if self.faults.get(sensor) != name:
            self.shown += 1
        self.table.sim.fault(seat, kind, name)
        if name is None:
            self.faults.pop(sensor, None)
            if kind == SCALE:
                self.pad_faulted_since.pop(seat, None)
        else:
            self.faults[sensor] = name
            self.switched_on.add((seat, kind, name))
            if kind == SCALE:
                self.pad_faulted_since.setdefault(seat, self.now)

    def play(self) -> None:
        """A new game when there is none (or it is over); else, at random, a seat acts."""
        game = self.table.status()["game"]
        if game is None or game["over"]:
            body = {"game": "cool-runnings", "options": {"count_pace_s": PACE_S}}
            self.tokens = seated(self.table, self.table.start_game(REFEREE, body))
            self.games += 1
            return
        if self.count_from is not None or self.rnd.random() > self.play_odds:
            return
        melted = {s["seat"] for s in self.table.status()["seats"] if (s["ice"] or {}).get("melted")}
        choices = [
            (int(seat), action)
            for seat in self.tokens
            for action in self.table.view(int(seat))["legal_actions"]
            if action["type"] != "melted" or int(seat) in melted
        ]
        if not choices:
            return
        seat, action = self.rnd.choice(choices)
        try:
            self.table.act(seat, action)
        except IllegalAction:
            return  # the table's count ended between the view and the action
        if self.table.status()["count"] is not None:
            self.count_from = self.now
            self.counts += 1

    def step(self, sweep_done: bool) -> None:
        """Let a half-second of the table's time pass, then wait for what it must show."""
        before = frozenset(s for s, since in self.pad_faulted_since.items() if since < self.now)
        self.clock.advance(STEP_S / SPEED)
        checks: list[Callable[[dict[str, Any]], bool]] = []
        if sweep_done:
            checks.append(self._shows_faults)
        if self.count_from is not None:
            checks.append(self._on_the_beat)
        snapshot = self._wait(checks)
        if snapshot["time"] == round(self.clock.wall(), 3):
            self.snapshots.append((self.now, snapshot, before))

    def _wait(self, checks: list[Callable[[dict[str, Any]], bool]]) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT_S
        while True:
            snapshot = self.table.status()
            if all(check(snapshot) for check in checks):
                return snapshot
            assert time.monotonic() < deadline, f"at {self.now:g} s: {snapshot}"
            time.sleep(0.002)

    def _shows_faults(self, snapshot: dict[str, Any]) -> bool:
        for seat in snapshot["seats"]:
            for kind in (THERMOMETER, SCALE):
                status = seat["sensors"][kind]
                name = self.faults.get((seat["seat"], kind))
                wanted = "ok" if name is None else "fault: "
                if not status.startswith(wanted) or (name and SHOWN[name] not in status):
                    return False
        return True

    def _on_the_beat(self, snapshot: dict[str, Any]) -> bool:
        """Whether the count shows the beat due now; a beat shown early fails the test."""
        assert self.count_from is not None
        elapsed = self.now - self.count_from
        due = min(math.floor(elapsed / PACE_S) + 1, COUNTS)
        count = snapshot["count"]
        if elapsed >= (COUNTS - 1) * PACE_S + TEN_S:
            if count is None:
                self.count_from = None
                self.beats += COUNTS
                return True
            return False
        assert count is not None, f"the count ended early, {elapsed:g} s after its start"
        assert count["n"] <= due, f"beat {count['n']} shown {elapsed:g} s after the start"
        return bool(count["n"] == due)


def run_storm(storm: Storm, sweeps: int) -> None:
    for step in range(sweeps * STEPS):
        if step % STEPS == 0:
            storm.switch()
        storm.play()
        storm.step(sweep_done=step % STEPS == STEPS - 1)


def less_sure(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether the estimate may have grown less sure, sigma over the grams left, as far as the
    rounding tells. (Sigma in grams alone may fall as the cube shrinks: the estimator is sure of
    the cube's side to within a length that grows, and a side's error weighs less on less ice.)"""
    if after["grams"] <= HALF:
        return True
    most = (after["sigma_g"] + HALF) / (after["grams"] - HALF)
    return most >= (before["sigma_g"] - HALF) / (before["grams"] + HALF)


def check_estimates(storm: Storm) -> int:
    """Every playing seat has an estimate in every snapshot; while its pad was faulted, its
    grams only fell and its sigma only grew against them. How many such stretches were checked."""
    checked = 0
    previous: dict[str, Any] | None = None
    for _, snapshot, pads_out in storm.snapshots:
        game = snapshot["game"]
        for seat in snapshot["seats"]:
            if game is not None and not game["over"] and seat["playing"]:
                ice = seat["ice"]
                assert ice is not None and 0.0 <= ice["grams"] <= 7.0, seat
                assert math.isfinite(ice["sigma_g"]), seat
        same_game = (
            previous is not None
            and game is not None
            and previous["game"] is not None
            and previous["game"]["commitment"] == game["commitment"]
            and not game["over"]
        )
        if same_game:
            assert previous is not None
            for before, after in zip(previous["seats"], snapshot["seats"], strict=True):
                if after["seat"] in pads_out and before["ice"] and after["ice"]:
                    assert after["ice"]["grams"] <= before["ice"]["grams"] + EPS, (before, after)
                    assert less_sure(before["ice"], after["ice"]), (before, after)
                    checked += 1
        previous = snapshot
    return checked


def test_a_short_storm_is_shown_seat_by_seat_and_the_counts_keep_time(
    storm_table: Storm, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    run_storm(storm_table, SHORT_SWEEPS)
    stretches = check_estimates(storm_table)
    assert storm_table.switched_on == set(_every_fault(storm_table))
    assert stretches > 0 and storm_table.games >= 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.long
def test_a_half_hour_storm_through_every_fault(
    storm_table: Storm, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    began = time.monotonic()
    storm_table.play_odds = LONG_PLAY
    run_storm(storm_table, LONG_SWEEPS)
    stretches = check_estimates(storm_table)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    first, last = storm_table.snapshots[0][1], storm_table.snapshots[-1][1]
    fell = [
        (a["seat"], a["ice"]["grams"], b["ice"]["grams"])
        for a, b in zip(first["seats"], last["seats"], strict=True)
        if first["game"]["commitment"] == last["game"]["commitment"]
    ]
    record(
        "chaos: sensor storm",
        storm_table.shown,
        "faults shown within a sweep",
        goal=len(_every_fault(storm_table)),
        note=(
            f"{LONG_SWEEPS * SWEEP_S / 60:g} table minutes of a game, every fault of every "
            f"probe and pad switched on or off at random, each shown for its seat within one "
            f"sweep; {storm_table.counts} ten-counts, every beat at its due time; "
            f"{stretches} faulted-pad stretches where the grams only fell; "
            f"{len(errors)} errors; {time.monotonic() - began:.0f} s real"
        ),
        counts=storm_table.counts,
        stretches=stretches,
    )
    assert storm_table.switched_on == set(_every_fault(storm_table))
    assert all(after < before for _, before, after in fell), fell
    assert stretches > 100 and storm_table.counts > 0
    assert not errors


def _every_fault(storm: Storm) -> list[tuple[int, str, str]]:
    assert storm.table.sim is not None
    return [
        (seat, kind, name)
        for seat in storm.table.sim.seats
        for kind, names in ((THERMOMETER, THERMOMETER_FAULTS), (SCALE, SCALE_FAULTS))
        for name in names
    ]


def test_a_weigh_in_that_settled_before_the_last_snapshot_still_counts() -> None:
    """A snapshot made between two passes of the sensor loop (an action's, a beat's) carries
    the estimate past the pad's last sample; the weigh-in those samples settle is taken as of
    the estimate's time, instead of failing the pass that read them (as the storm once found)."""
    pad = SeatCalibration(1, tare_counts=0.0, counts_per_gram=1000.0, cap_g=3.0)
    pipeline = Pipeline({}, Calibration({1: pad}))
    station = Station(1)
    station.start_cube(0.0)
    station.estimate(100.0, air_c=22.0)
    weighed = False
    for i in range(100):
        t = 80.0 + i * 0.2
        reading = Reading(1, SCALE, "sim:pad1", 0 if t < 90.0 else 8000, OK, t)
        weighed = station.sense(pipeline.push(reading)) or weighed
    assert weighed and station.last_weigh_in_g == 5.0
    estimate = station.estimate(100.0, air_c=22.0)
    assert estimate is not None and 5.0 < estimate.grams < 5.9
