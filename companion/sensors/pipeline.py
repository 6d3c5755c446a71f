"""From raw readings to what the table knows of each sensor: filters, calibration, zero
tracking, weigh-ins. A gram is made here, and a weigh-in detected here, once for the table.

Every sensor gets its own filter chain, built from the config's list for its kind, so one
pad's median never mixes with another's; every calibrated pad its own zero tracking
(:mod:`.zero_tracking`), begun anew when the calibration changes, since its tare is the
reference. A pad whose zero moved out of the tracking's range is a fault until it comes back or
is tared again. A faulted reading does not enter the chain: the
sensor's status says what is wrong, its value is ``None``, and the filters carry on where they
were once it reads again.

Every pad whose seat's calibration lacks no step has its weigh-in detector
(:mod:`.weigh_in`); its state carries the events it completed, a settled load in grams of ice.
The detector is kept across a new calibration: the load on the pad is the same load, and a cap
that had settled would be weighed in twice.

>>> from companion.sensors.reading import Reading
>>> pipeline = Pipeline({"thermometer": [("median", {"window_size": 3, "send_every": 1})]})
>>> pipeline.push(Reading(1, "thermometer", "28-0316a2794aff", 21500, "ok", 0.0)).value
21.5
>>> pipeline.push(Reading(1, "thermometer", "28-0316a2794aff", None, "fault: CRC", 2.0)).value
>>> from companion.sensors.calibration import Calibration, SeatCalibration
>>> pad = SeatCalibration(2, tare_counts=0.0, counts_per_gram=1000.0, cap_g=3.1)
>>> pipeline = Pipeline({}, Calibration({2: pad}))
>>> loads = [0.0] * 5 + [9.0] * 30 + [0.0] * 10
>>> states = [pipeline.push(Reading(2, "scale", "pad2", round(g * 1000), "ok", k / 10))
...           for k, g in enumerate(loads)]
>>> [e for s in states for e in s.events]
[Placed(t=0.5), Weighed(t=1.9, ice_g=5.9), Removed(t=4.0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.filters import Chain, build_chain
from companion.sensors.reading import OK, SCALE, THERMOMETER, Kind, Reading, fault
from companion.sensors.weigh_in import Event, NotACap, PadEvent, Settled, Weighed, WeighIn
from companion.sensors.zero_tracking import ZeroTracking, beyond_range

NOT_A_CAP_G = 0.5
"""A load this much lighter than the seat's empty cap is not its cap (an empty pad whose zero
moved, an elbow): it is not weighed in as a melted cube."""


@dataclass(frozen=True)
class SensorState:
    """One sensor now: its last raw value, its filtered and calibrated value, and its status.

    ``value`` is degrees Celsius for a thermometer and grams on the pad for a scale; ``None``
    while faulted, while the filters wait for their window, or for a pad not yet calibrated.
    ``zero_g`` is a calibrated pad's tracked zero, grams from its tare (else ``None``).
    ``events`` are the weigh-in events of a calibrated pad this state completed, in order.
    """

    seat: int | None
    kind: Kind
    id: str
    raw: int | None
    value: float | None
    status: str
    t: float
    zero_g: float | None = None
    events: tuple[PadEvent, ...] = ()

    def order(self) -> tuple[bool, int, bool, str]:
        """How a table of sensors lists them: by seat (unclaimed last), thermometers first."""
        return (self.seat is None, self.seat or 0, self.kind != THERMOMETER, self.id)

    @property
    def ok_value(self) -> bool:
        """Whether the sensor reads well and has a value to give."""
        return self.status == OK and self.value is not None

    def to_json(self) -> dict[str, Any]:
        value = None if self.value is None else round(self.value, 3)
        return {
            "seat": self.seat,
            "kind": self.kind,
            "id": self.id,
            "raw": self.raw,
            "value": value,
            "status": self.status,
            "zero_g": None if self.zero_g is None else round(self.zero_g, 3),
        }


class Pipeline:
    """Filters and calibrates the readings of every sensor of a table, and detects the
    weigh-ins on its pads."""

    def __init__(
        self,
        filters: Mapping[str, Iterable[Any]],
        calibration: Calibration | None = None,
        zero_tracking: bool = True,
    ) -> None:
        self._filters = filters
        self._calibration = calibration or Calibration()
        self.zero_tracking = zero_tracking
        self._chains: dict[tuple[str, str], Chain] = {}
        self._zeros: dict[str, ZeroTracking] = {}
        self._weigh_ins: dict[str, WeighIn] = {}
        self._states: dict[tuple[str, str], SensorState] = {}

    @property
    def calibration(self) -> Calibration:
        return self._calibration

    @calibration.setter
    def calibration(self, calibration: Calibration) -> None:
        """A new calibration: its tares are the reference, so every tracked zero begins anew
        (the weigh-in detectors go on: see the module's description)."""
        self._calibration = calibration
        self._zeros.clear()

    def push(self, reading: Reading) -> SensorState:
        """Take one reading; return the sensor's new state, with the weigh-in events it
        completed (:meth:`measure`, then :meth:`weigh`)."""
        return self.weigh(self.measure(reading))

    def measure(self, reading: Reading) -> SensorState:
        """Take one reading; return the sensor's new state without weighing it in: the table
        weighs in only what its set-up does not hold (a pressed pad is no weigh-in)."""
        key = (reading.kind, reading.id)
        before = self._states.get(key)
        value = before.value if before is not None and before.status == reading.status else None
        zero = self._zeros.get(reading.id) if reading.kind == SCALE else None
        if reading.ok and reading.raw is not None:
            chain = self._chains.get(key)
            if chain is None:
                chain = self._chains[key] = build_chain(self._filters.get(reading.kind, ()))
            filtered = chain(float(reading.raw))
            if filtered is not None:
                value = self._calibrated(reading, filtered)
                if value is not None and reading.kind == SCALE and self.zero_tracking:
                    if zero is None:
                        zero = self._zeros[reading.id] = ZeroTracking()
                    value = zero.push(reading.t, value)
        else:
            value = None
        status = reading.status
        if zero is not None and zero.beyond is not None and reading.ok:
            status, value = fault(beyond_range(reading.seat, zero.beyond)), None
        state = SensorState(
            reading.seat,
            reading.kind,
            reading.id,
            reading.raw,
            value,
            status,
            reading.t,
            None if zero is None else zero.zero_g,
        )
        self._states[key] = state
        return state

    def push_all(self, readings: Iterable[Reading]) -> list[SensorState]:
        return [self.push(r) for r in readings]

    def weigh(self, state: SensorState) -> SensorState:
        """Feed a pad's state to its weigh-in detector; the state with the events it completed.
        Only a pad that reads, and whose seat's calibration lacks no step, is weighed: its
        grams would be wrong."""
        if state.kind != SCALE or state.seat is None or state.value is None or state.status != OK:
            return state
        seat = self.calibration.seat(state.seat)
        if seat.pad_lacks():
            return state
        detector = self._weigh_ins.get(state.id)
        if detector is None:
            detector = self._weigh_ins[state.id] = WeighIn()
        events = tuple(_of_ice(e, seat) for e in detector.push(state.t, state.value))
        return replace(state, events=events) if events else state

    def states(self) -> list[SensorState]:
        """The latest state of every sensor seen, by seat (unclaimed last), thermometers first."""
        return sorted(self._states.values(), key=SensorState.order)

    def _calibrated(self, reading: Reading, filtered: float) -> float | None:
        if reading.seat is None:
            return filtered / 1000.0 if reading.kind == THERMOMETER else None
        if reading.kind == THERMOMETER:
            return self.calibration.celsius(reading.seat, filtered)
        return self.calibration.grams(reading.seat, filtered)


def _of_ice(event: Event, seat: SeatCalibration) -> PadEvent:
    """A detector's event as the table takes it: a settled load in grams of ice (the seat's
    empty cap taken off), or no cap at all if lighter than the cap less :data:`NOT_A_CAP_G`.

    >>> cap = SeatCalibration(1, cap_g=3.0)
    >>> _of_ice(Settled(9.0, 8.5, 0.01), cap), _of_ice(Settled(9.0, 1.3, 0.01), cap)
    (Weighed(t=9.0, ice_g=5.5), NotACap(t=9.0, grams=1.3))
    """
    if not isinstance(event, Settled):
        return event
    if event.grams < seat.cap_g - NOT_A_CAP_G:
        return NotACap(event.t, event.grams)
    return Weighed(event.t, seat.ice_g(event.grams))
