"""Every seat's station and cube: the estimates, the curves, and what they are made from.

The sensing's states feed the stations; the pass then estimates every cube, so the estimates,
the curves and the cubes newly proposed melted all come from it, and a status made from them
changes nothing. The game's effects reach the cubes here (a cube set out, a weigh-in asked, an
attack's melt). Estimates run on the game's time, which starts with the game and runs on across
restarts: what they are made from is noted in a :class:`~.melt_log.MeltLog` for the table to
store, and after a restart :meth:`Cubes.rebuild` makes them again from what was stored.

On a simulated table the players obey the device: a cap is set on the pad a little after a
weigh-in is asked for, and an attack melts the simulated cube as it melts the estimate.
Changed only under the table's lock.
"""

from __future__ import annotations

import logging
import statistics
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from companion.config import TableConfig
from companion.melt.asking import changes_cube, too_unsure
from companion.melt.attacks import DEFAULT_CONFIG
from companion.sensors.calibration import Calibration
from companion.sensors.pipeline import SensorState
from companion.sensors.sim import SimTable
from companion.table.clock import TableClock
from companion.table.curves import Curves
from companion.table.disk import StoreError
from companion.table.happenings import Happenings
from companion.table.melt_log import MeltLog, rebuild
from companion.table.station import CUBE_G, Station
from companion.table.status import Restart
from companion.table.store import Store
from companion.table.stored import MeltInput

log = logging.getLogger(__name__)

ROOM_C = 21.0
"""The air temperature assumed while no probe of the table reads."""
SIM_REACTION_S = 3.0
SIM_HOLD_S = 6.0
"""A simulated player sets the cap down this long after being asked, for this long."""


@dataclass(frozen=True)
class Estimated:
    """What a pass's estimates ask of the table: seats whose cube seems gone since the last
    pass (proposed melted once; the seat or the referee confirms), and seats too unsure."""

    melted: list[int]
    unsure: list[int]


class Cubes:
    """The stations of one table and the game's time; see the module's description."""

    def __init__(self, config: TableConfig, clock: TableClock, happenings: Happenings) -> None:
        self.clock = clock
        self.happenings = happenings
        sensors = config.sensors
        self.stations = {
            s.seat: Station(
                s.seat,
                probe=sensors.thermometers != "none" and s.probe,
                pad=sensors.scales != "none" and s.pad,
            )
            for s in config.seats
        }
        self.given_air_c = sensors.air_c
        """The room's air as the table was told it (``--air-c``), for seats no probe reads."""
        self.curves = Curves(self.stations, 0.0, clock.wall())
        self.sim: SimTable | None = None
        self.log = MeltLog()
        self.game_id: int | None = None
        """The game the noted inputs belong to."""
        self.restart: Restart | None = None
        """Set when the game was rebuilt after a restart: how long the table was off."""
        self._origin = clock.now()
        self.asking = True
        """Whether the game under way may ask its seats for weigh-ins (not once it is over)."""
        self._proposed: set[int] = set()

    def now(self) -> float:
        """The game's time: seconds since it started, on across restarts."""
        return self.clock.now() - self._origin

    def store_inputs(self, store: Store | None, lock: threading.RLock) -> None:
        """Store the inputs noted since the last time in ``store`` (``None``: a table that stores
        nothing lets them go), outside ``lock``, the table's; what the disk refuses is kept for
        the next time, and said once in a row."""
        with lock:
            game_id, inputs = self.game_id, self.log.take()
        if not inputs or game_id is None or store is None:
            return
        try:
            store.append_melt(game_id, inputs)
            self.log.stored()
        except StoreError as exc:
            with lock:
                first = self.game_id == game_id and self.log.give_back(inputs)
            if first:
                log.warning("the ice estimates' inputs are not stored yet (%s)", exc)

    # -- the pass

    def unheard(self) -> None:
        """The sensors were opened again: none is heard from yet."""
        for station in self.stations.values():
            station.unheard()

    def feed(
        self, states: Sequence[SensorState], calibration: Calibration, reopened: bool = False
    ) -> bool:
        """Feed the sensor states to their seats' stations (after none was heard, when the
        sensors were ``reopened``), and what each pad lacks of ``calibration``; whether anything
        shown changed."""
        if reopened:
            self.unheard()
        changed = reopened
        for number, kept in self.stations.items():
            changed = kept.lacking(calibration.seat(number).pad_lacks()) or changed
        for state in states:
            station = self.stations.get(state.seat) if state.seat is not None else None
            if station is None:
                continue
            before = (station.thermometer, station.scale, station.weigh_in)
            if station.sense(state, self._origin):
                changed = True
                if station.last_weigh_in_g is not None:
                    grams = round(station.last_weigh_in_g, 3)
                    self._note(station.seat, "weigh_in_g", grams)
                    self.happenings.note(
                        "weigh-in", self.clock.wall(), seat=station.seat, grams=grams
                    )
            changed = changed or before != (station.thermometer, station.scale, station.weigh_in)
        return changed

    def estimate(self) -> Estimated:
        """Estimate every cube now and record the curves; what the estimates ask."""
        t = self.now()
        newly = []
        unsure = []
        for number, station in self.stations.items():
            if not station.pad and self.known_air(number) is None:
                station.latest = None  # no figure at all: a countdown would rest on a guess
                continue
            estimate = station.estimate(t, self.air(number))
            noted = station.air_c if station.air_c is not None else self.given_air_c
            if estimate is not None and noted is not None and self.game_id is not None:
                self.log.air(number, t, self.clock.wall(), noted)  # a restart replays it
            if not station.pad:
                continue  # no grams, no proposal and no weigh-in: its player says when it melts
            if estimate is not None:
                self.curves.record(number, t, estimate.grams, estimate.sigma_g)
            if estimate is not None and estimate.melted:
                if number not in self._proposed:
                    self._proposed.add(number)
                    newly.append(number)
            else:
                self._proposed.discard(number)
            if (
                estimate is not None
                and station.weigh_in is None
                and too_unsure(estimate, t - station.asked_at)
            ):
                unsure.append(number)
        return Estimated(newly, unsure)

    def air(self, seat: int) -> float:
        """A seat's air as far as the table knows it (:meth:`known_air`), else a room's."""
        known = self.known_air(seat)
        return ROOM_C if known is None else known

    def known_air(self, seat: int) -> float | None:
        """A seat's air, else the median of the others', else the room's as given, else
        ``None``: the table does not know it."""
        own = self.stations[seat].air_c if seat in self.stations else None
        if own is not None:
            return own
        others = [s.air_c for s in self.stations.values() if s.air_c is not None]
        return statistics.median(others) if others else self.given_air_c

    def table_air(self) -> float | None:
        """The mean air of the seats whose probes read now, else the room's as given."""
        airs = [s.air_c for s in self.stations.values() if s.air_c is not None]
        return round(statistics.fmean(airs), 2) if airs else self.given_air_c

    # -- what the game asks

    def new_game(self, game_id: int) -> None:
        """A game starts: its time starts, no cubes until it sets them out, new curves."""
        for station in self.stations.values():
            station.clear()
        self._proposed.clear()
        self.log.forget()
        self.restart = None
        self.game_id = game_id
        self.asking = True
        self._origin = self.clock.now()
        self.curves.reset(0.0, self.clock.wall())

    def game_over(self) -> None:
        """The game is over: what it asked of its seats is withdrawn, and nothing more asked."""
        self.asking = False
        for station in self.stations.values():
            if station.weigh_in == "requested":
                station.weigh_in = None

    def rebuild(self, game_id: int, inputs: Sequence[MeltInput]) -> float | None:
        """After a restart: the game's time, estimates and curves as the stored ``inputs`` leave
        them; how long the table was off (``None``: the wall clock cannot say, and every cube's
        estimate widens until its next weigh-in)."""
        self.new_game(game_id)
        back = rebuild(inputs, self.clock.wall(), self.curves.interval_s)
        self._origin = self.clock.now() - back.now_s
        self.curves.reset(0.0, self.clock.wall() - back.now_s)
        for seat, points in back.curve.items():
            for t, grams, sigma_g in points:
                self.curves.record(seat, t, grams, sigma_g)
        for seat, melt in back.seats.items():
            if seat in self.stations:
                self.stations[seat].melt = melt
        self.restart = Restart(None if back.off_s is None else round(back.off_s, 1))
        return back.off_s

    def cube_out(self, seat: int) -> None:
        """A cube stands at ``seat``: a fresh one starts its estimate (one rebuilt after a
        restart goes on); on a simulated table, the simulated cube is set out as estimated."""
        station = self.stations.get(seat)
        if station is None:
            return
        grams = CUBE_G
        if station.melt is None:
            station.start_cube(self.now(), grams)
            self._note(seat, "start_g", grams)
        else:
            grams = station.melt.grams
        if self.sim is not None and seat in self.sim.seats and grams > 0:
            self.sim.start_cube(seat, self.clock.now(), grams)

    def ask_weigh_in(self, seat: int) -> bool:
        """Ask ``seat`` for a weigh-in; whether it has a station to weigh in on."""
        station = self.stations.get(seat)
        if station is None or not station.pad or not self.asking:
            return False
        station.weigh_in = "requested"
        station.asked_at = self.now()
        if self.sim is not None and seat in self.sim.seats:
            self.sim.place_cap(seat, self.clock.now() + SIM_REACTION_S, SIM_HOLD_S)
        return True

    def melt(self, seat: int, kind: str) -> bool:
        """An attack of ``kind`` melted ``seat``'s cube; whether it changed the cube (its grams
        or the water on it), so that a weigh-in should be asked for: the estimate knows an
        attack's melt only give or take its spread."""
        station = self.stations.get(seat)
        known = DEFAULT_CONFIG.attacks.get(kind)
        if station is not None and station.melt is not None and known is not None:
            station.attack(self.now(), kind, self.air(seat))
            self._note(seat, "attack", kind)
        if self.sim is not None and seat in self.sim.seats and known is not None:
            self.sim.melt(seat, self.clock.now(), known.mean_g)
        return known is not None and changes_cube(known)

    def _note(self, seat: int, kind: str, value: float | str) -> None:
        if self.game_id is not None:
            self.log.note(MeltInput(self.now(), self.clock.wall(), seat, kind, value))
