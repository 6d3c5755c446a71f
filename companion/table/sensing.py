"""The table's sensing: the probes and pads, their pipeline, every seat's station and curve.

A pass reads what is due (the probes at their sweep, the pads as they come), filters and
calibrates it, feeds each seat's station, and then estimates every cube: the estimates, the
curves and the cubes newly proposed melted all come from the pass, so the status made from them
changes nothing. The game's effects reach the stations here too (a cube set out, a weigh-in
asked, an attack's melt). One :class:`Calibration` is held, the file's with a simulated table's
own for its simulated parts; a changed ``calibration.toml`` is taken up at the next pass
(:mod:`.calibration_watch`).

On a simulated table the players obey the device: a cap is set on the pad a little after a
weigh-in is asked for, and an attack melts the simulated cube as it melts the estimate.

Changed only under the table's lock, except the reading itself (:meth:`Sensing.read`), which
only the sensor loop does.
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from companion.config import TableConfig
from companion.melt.attacks import DEFAULT_CONFIG
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
from companion.table.calibration_watch import CalibrationWatch, moved
from companion.table.clock import TableClock
from companion.table.curves import Curves
from companion.table.station import ABSENT, Station

log = logging.getLogger(__name__)

LOOP_S = 0.25
"""Real seconds between two passes of the sensor loop."""
ROOM_C = 21.0
"""The air temperature assumed while no probe of the table reads."""
SIM_REACTION_S = 3.0
SIM_HOLD_S = 6.0
"""A simulated player sets the cap down this long after being asked, for this long."""
BUSY = (
    "another process is reading the pads (companion calibrate, or a second daemon): "
    "let it finish, or stop it, then start companion again"
)


class Sensing:
    """The sensors and stations of one table; see the module's description."""

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
        self.stations = {s.seat: Station(s.seat) for s in config.seats}
        self.curves = Curves(self.stations, clock.now(), clock.wall())
        self.calibration = Calibration()
        """The calibration in use: the file's, and a simulated table's own for its parts."""
        self._watch = CalibrationWatch(state_dir / FILENAME)
        self._sources: Sources | None = None
        self._pipeline: Pipeline | None = None
        self._held = ExitStack()
        """The pads' lock, held while real HX711 pads are open."""
        self._next_sweep = 0.0
        self._unheard = False
        self._proposed: set[int] = set()

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
        self._pipeline = Pipeline(self.config.filters, self.calibration)

    def close(self) -> None:
        if self._sources is not None:
            self._sources.close()
        self._held.close()

    @property
    def sim(self) -> SimTable | None:
        return self._sources.sim if self._sources is not None else None

    # -- the pass

    def read(self) -> list[SensorState]:
        """Read what is due and filter it (the sensor loop's thread only)."""
        self._recalibrate()
        assert self._sources is not None and self._pipeline is not None
        readings = []
        if self._sources.thermometers is not None and self.clock.now() >= self._next_sweep:
            readings += self._sources.thermometers.sweep()
            self._next_sweep = self.clock.now() + self.config.sensors.sweep_s
        if self._sources.scales is not None:
            readings += self._sources.scales.readings()
        return self._pipeline.push_all(readings)

    def feed(self, states: Sequence[SensorState]) -> bool:
        """Feed the sensor states to their seats' stations; whether anything shown changed."""
        changed = self._unheard
        if self._unheard:  # the sensors were opened again: none is heard from yet
            self._unheard = False
            for unheard in self.stations.values():
                unheard.thermometer = unheard.scale = ABSENT
                unheard.air_c = unheard.pad_g = None
        for state in states:
            station = self.stations.get(state.seat) if state.seat is not None else None
            if station is None:
                continue
            before = (station.thermometer, station.scale, station.weigh_in)
            if station.sense(state, self.calibration.seat(station.seat)):
                changed = True
            changed = changed or before != (station.thermometer, station.scale, station.weigh_in)
        return changed

    def estimate(self) -> list[int]:
        """Estimate every cube now and record the curves; the seats whose cube seems gone
        since the last estimate (proposed melted once; the seat or referee confirms)."""
        t = self.clock.now()
        newly = []
        for number, station in self.stations.items():
            estimate = station.estimate(t, self.air(number))
            if estimate is not None:
                self.curves.record(number, t, estimate.grams, estimate.sigma_g)
            if estimate is not None and estimate.melted:
                if number not in self._proposed:
                    self._proposed.add(number)
                    newly.append(number)
            else:
                self._proposed.discard(number)
        return newly

    def air(self, seat: int) -> float:
        """A seat's air, else the median of the others', else a room's."""
        own = self.stations[seat].air_c if seat in self.stations else None
        if own is not None:
            return own
        others = [s.air_c for s in self.stations.values() if s.air_c is not None]
        return statistics.median(others) if others else ROOM_C

    def table_air(self) -> float | None:
        """The mean air of the seats whose probes read now."""
        airs = [s.air_c for s in self.stations.values() if s.air_c is not None]
        return round(statistics.fmean(airs), 2) if airs else None

    # -- what the game asks

    def new_game(self) -> None:
        """A game starts: no cubes until it sets them out, and the curves begin again."""
        for station in self.stations.values():
            station.clear()
        self._proposed.clear()
        self.curves.reset(self.clock.now(), self.clock.wall())

    def cube_out(self, seat: int) -> None:
        """A fresh cube stands at ``seat``: its estimate starts; on a simulated table, the cube."""
        station = self.stations.get(seat)
        if station is None:
            return
        t = self.clock.now()
        station.start_cube(t)
        if self.sim is not None and seat in self.sim.seats:
            self.sim.start_cube(seat, t)

    def ask_weigh_in(self, seat: int) -> bool:
        """Ask ``seat`` for a weigh-in; whether it has a station to weigh in on."""
        station = self.stations.get(seat)
        if station is None:
            return False
        station.weigh_in = "requested"
        if self.sim is not None and seat in self.sim.seats:
            self.sim.place_cap(seat, self.clock.now() + SIM_REACTION_S, SIM_HOLD_S)
        return True

    def melt(self, seat: int, kind: str) -> bool:
        """An attack of ``kind`` melted ``seat``'s cube; whether it left the cube wet (a
        weigh-in now would weigh the water: the next one should be asked for)."""
        t = self.clock.now()
        station = self.stations.get(seat)
        if station is not None:
            station.attack(t, kind, self.air(seat))
        known = DEFAULT_CONFIG.attacks.get(kind)
        if self.sim is not None and seat in self.sim.seats and known is not None:
            self.sim.melt(seat, t, known.mean_g)
        return known is not None and known.wet

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
        self._unheard = True

    def _real(self, kind: str) -> bool:
        """Whether the table reads real ``kind`` ("thermometers", "scales"): w1 probes, HX711s,
        or either through the pod."""
        real = {"thermometers": ("w1", "pod"), "scales": ("hx711", "pod")}[kind]
        return not self.simulate and getattr(self.config.sensors, kind) in real

    def _simulated(self, kind: str) -> bool:
        return self.simulate or getattr(self.config.sensors, kind) == "sim"

    def found(self) -> list[str]:
        """What the table has, in lines a maker reads at start: each faulty part with its fix."""
        lines = []
        for kind in ("thermometer", "scale"):
            statuses = {n: getattr(st, kind) for n, st in sorted(self.stations.items())}
            good = [n for n, status in statuses.items() if status == "ok"]
            source = getattr(self.config.sensors, f"{kind}s")
            where = "simulated" if self.simulate else source
            lines.append(f"{kind}s ({where}): {len(good)} of {len(statuses)} seats read")
            unheard = NO_PROBE if kind == "thermometer" else NO_PAD
            lines += [
                f"  seat {n}'s {kind}: {unheard if status == ABSENT else status}"
                for n, status in statuses.items()
                if status != "ok" and source != "none"
            ]
        return lines
