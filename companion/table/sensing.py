"""The table's sensing: the probes and pads, their sources and their pipeline.

A pass reads what is due (the probes at their sweep, the pads as they come) and filters and
calibrates it; the pipeline weighs in the states the set-up does not hold, and they go to the
seats' stations (:mod:`.cubes`). One :class:`Calibration` is held, the file's with a simulated
table's own for its simulated parts; a changed ``calibration.toml`` is taken up at the next
pass (:mod:`.calibration_reload`). Only the sensor loop's thread reads; what the stations show
is changed under the table's lock.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from pathlib import Path

from companion.config import TableConfig
from companion.sensors.calibration import FILENAME, Calibration
from companion.sensors.lock import SensorsBusy, pads_lock
from companion.sensors.pipeline import Pipeline, SensorState
from companion.sensors.sim import SimScales, SimTable
from companion.sensors.sources import (
    NO_PAD,
    NO_PROBE,
    Sources,
    open_sources,
    with_factory_calibration,
)
from companion.table.calibration_reload import CalibrationWatch, moved
from companion.table.clock import TableClock
from companion.table.setting_up import SettingUp
from companion.table.station import ABSENT, NONE, Station

log = logging.getLogger(__name__)

LOOP_S = 0.25
"""Real seconds between two passes of the sensor loop."""
BUSY = (
    "another process is reading the pads (companion calibrate, or a second daemon): "
    "let it finish, or stop it, then start companion again"
)


class Sensing:
    """The sensors of one table; see the module's description."""

    def __init__(
        self,
        config: TableConfig,
        state_dir: Path,
        clock: TableClock,
        *,
        simulate: bool,
        seed: int,
        gpio: str,
    ) -> None:
        self.config = config
        self.state_dir = state_dir
        self.clock = clock
        self.simulate = simulate
        self.seed = seed
        self.gpio = gpio
        self.calibration = Calibration()
        """The calibration in use: the file's, and a simulated table's own for its parts."""
        self._watch = CalibrationWatch(state_dir / FILENAME)
        self._sources: Sources | None = None
        self._pipeline: Pipeline | None = None
        self._held = ExitStack()
        """The pads' lock, held while real HX711 pads are open."""
        self._next_sweep = 0.0
        self._reopened = False
        sensors, seats = config.sensors, config.seats
        self.setting_up = SettingUp(
            [s.seat for s in seats],
            state_dir / FILENAME,
            probe_seats=[s.seat for s in seats if s.probe and sensors.thermometers != "none"],
            pad_seats=[s.seat for s in seats if s.pad and sensors.scales != "none"],
            sweep_s=max(sensors.sweep_s, LOOP_S * clock.speed),  # a sweep a pass at most
            clock=clock.now,
            wall=clock.wall,
            sim=lambda: self.sim,
        )
        """The referee's set-up (:mod:`.setting_up`): it reads every pass's states first."""

    # -- lifecycle

    def open(self) -> None:
        """Take the pads' lock (real pads), read the calibration, open the sensors."""
        if self._real("scales"):
            try:
                self._held.enter_context(pads_lock(self.state_dir))
            except SensorsBusy:
                raise SensorsBusy(BUSY) from None
        self._open_sources(self._watch.load())
        assert self._sources is not None
        if isinstance(self._sources.scales, SimScales):
            self._sources.scales.backlog_s = max(5.0, 4 * LOOP_S * self.clock.speed)
        self._pipeline = Pipeline(
            self.config.filters, self.calibration, self.config.sensors.zero_tracking
        )

    def close(self) -> None:
        if self._sources is not None:
            self._sources.close()
        self._held.close()

    @property
    def sim(self) -> SimTable | None:
        return self._sources.sim if self._sources is not None else None

    # -- the pass

    def read(self) -> list[SensorState]:
        """Read what is due, filter it and weigh it in (the sensor loop's thread only); the
        states of the sensors a set-up step reads are its own, not the stations', and no
        weigh-in's: a pressed pad is none."""
        self._recalibrate()
        assert self._sources is not None and self._pipeline is not None
        readings = []
        if self._sources.thermometers is not None and self.clock.now() >= self._next_sweep:
            readings += self._sources.thermometers.sweep()
            self._next_sweep = self.clock.now() + self.config.sensors.sweep_s
        if self._sources.scales is not None:
            readings += self._sources.scales.readings()
        states = [self._pipeline.measure(r) for r in readings]
        return [self._pipeline.weigh(s) for s in self.setting_up.feed(states, self.clock.now())]

    # -- the calibration

    def _recalibrate(self) -> None:
        """Use a changed ``calibration.toml`` from the next reading on. A file that gives a real
        probe or pad to another seat opens the sensors again, as at start (the pads' lock stays
        held); a simulated table's readings carry their seats already, so only its values
        change, and a move of its real parts waits for a restart."""
        calibration = self._watch.changed()
        if calibration is None:
            return
        real = {kind for kind in ("thermometers", "scales") if self._real(kind)}
        before, self._watch.calibration = self._watch.calibration, calibration
        shifted = moved(self.config, before, calibration, real, self.gpio)
        if shifted and self.sim is not None:
            self._watch.calibration = before
            log.warning(
                "%s gives %s to other seats: restart companion to read them so; until then "
                "the table goes on with the calibration it had",
                self._watch.path,
                " and ".join(shifted),
            )
            return
        if shifted:
            self._reopen(calibration)
        elif self.sim is not None:
            self.calibration = with_factory_calibration(
                calibration, self.sim, self._simulated("thermometers"), self._simulated("scales")
            )
        else:
            self.calibration = calibration
        assert self._pipeline is not None
        self._pipeline.calibration = self.calibration
        how = ", the sensors opened again" if shifted else ""
        log.info("%s: the new calibration is in use%s", self._watch.path, how)

    def _open_sources(self, calibration: Calibration) -> None:
        self._sources = open_sources(
            self.config,
            calibration,
            simulate=self.simulate,
            clock=self.clock.now,
            seed=self.seed,
            gpio=self.gpio,
        )
        self.calibration = self._sources.calibration

    def _reopen(self, calibration: Calibration) -> None:
        """Close the sensors and open them with ``calibration``'s seats; every seat's sensors
        read as absent until they are heard from again, as at start."""
        assert self._sources is not None
        self._sources.close()
        self._open_sources(calibration)
        self._next_sweep = 0.0
        self._reopened = True

    def take_reopened(self) -> bool:
        """Whether the sensors were opened again since the last call: none is heard from yet."""
        reopened, self._reopened = self._reopened, False
        return reopened

    def _real(self, kind: str) -> bool:
        """Whether the table reads real ``kind`` ("thermometers", "scales"): w1 probes, HX711s,
        or either through the pod."""
        real = {"thermometers": ("w1", "pod"), "scales": ("hx711", "pod")}[kind]
        return not self.simulate and getattr(self.config.sensors, kind) in real

    def _simulated(self, kind: str) -> bool:
        return self.simulate or getattr(self.config.sensors, kind) == "sim"

    def found(self, stations: Mapping[int, Station]) -> list[str]:
        """What the table has, in lines a maker reads at start: which of the three ways to play
        it is, what each seat lacks, and each faulty part with its fix."""
        sensors = self.config.sensors
        air = sensors.air_c
        given = (
            f"the room's air is {air:g} C as given, so a seat without a pad shows a countdown "
            "from the air alone"
            if air is not None
            else "no countdown without a pad (--air-c gives the room's air for one)"
        )
        if not sensors.any:
            return [
                "no probes or pads: each seat says on its phone when its cube has melted, "
                f"and {given}"
            ]
        lines = []
        for kind, has in (("thermometer", "probe"), ("scale", "pad")):
            source = getattr(sensors, f"{kind}s")
            if source == "none":
                without = "each seat says when its cube has melted"
                lines.append(f"{kind}s: none; {given if kind == 'thermometer' else without}")
                continue
            statuses = {n: getattr(st, kind) for n, st in sorted(stations.items())}
            good = [n for n, status in statuses.items() if status == "ok"]
            with_one = [n for n, st in stations.items() if getattr(st, has)]
            where = "simulated" if self.simulate else source
            lines.append(f"{kind}s ({where}): {len(good)} of {len(with_one)} seats read")
            unheard = NO_PROBE if kind == "thermometer" else NO_PAD
            for n, status in statuses.items():
                if status == NONE and kind == "scale":
                    lines.append(f"  seat {n} has no pad: its player says when its cube has melted")
                elif status == NONE:
                    lines.append(f"  seat {n} has no probe: it takes the other seats' air")
                elif status != "ok":
                    lines.append(f"  seat {n}'s {kind}: {unheard if status == ABSENT else status}")
        return lines


class SensorLoop:
    """The sensor loop's thread: ``one_pass`` every :data:`LOOP_S`, then ``tick`` (the
    watchdog's ping); a pass that fails is logged, and the loop goes on."""

    def __init__(self, one_pass: Callable[[], object], tick: Callable[[], object] | None) -> None:
        self.one_pass = one_pass
        self.tick = tick
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sensors", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, wait_s: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(wait_s)

    def _run(self) -> None:
        while not self._stop.wait(LOOP_S):
            try:
                self.one_pass()
            except Exception:
                log.exception("the sensor loop failed a pass; it goes on")
            if self.tick is not None:
                self.tick()
