"""From raw readings to what the table knows of each sensor: filters, calibration, zero tracking.

Every sensor gets its own filter chain, built from the config's list for its kind, so one
pad's median never mixes with another's; every calibrated pad its own zero tracking
(:mod:`.zero_tracking`), begun anew when the calibration changes, since its tare is the
reference. A pad whose zero moved out of the tracking's range is a fault until it comes back or
is tared again. A faulted reading does not enter the chain: the
sensor's status says what is wrong, its value is ``None``, and the filters carry on where they
were once it reads again.

>>> from companion.sensors.reading import Reading
>>> pipeline = Pipeline({"thermometer": [("median", {"window_size": 3, "send_every": 1})]})
>>> pipeline.push(Reading(1, "thermometer", "28-0316a2794aff", 21500, "ok", 0.0)).value
21.5
>>> pipeline.push(Reading(1, "thermometer", "28-0316a2794aff", None, "fault: CRC", 2.0)).value
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.sensors.calibration import Calibration
from companion.sensors.filters import Chain, build_chain
from companion.sensors.reading import OK, SCALE, THERMOMETER, Kind, Reading, fault
from companion.sensors.zero_tracking import ZeroTracking, beyond_range


@dataclass(frozen=True)
class SensorState:
    """One sensor now: its last raw value, its filtered and calibrated value, and its status.

    ``value`` is degrees Celsius for a thermometer and grams on the pad for a scale; ``None``
    while faulted, while the filters wait for their window, or for a pad not yet calibrated.
    ``zero_g`` is a calibrated pad's tracked zero, grams from its tare (else ``None``).
    """

    seat: int | None
    kind: Kind
    id: str
    raw: int | None
    value: float | None
    status: str
    t: float
    zero_g: float | None = None

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
    """Filters and calibrates the readings of every sensor of a table."""

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
        self._states: dict[tuple[str, str], SensorState] = {}

    @property
    def calibration(self) -> Calibration:
        return self._calibration

    @calibration.setter
    def calibration(self, calibration: Calibration) -> None:
        """A new calibration: its tares are the reference, so every tracked zero begins anew."""
        self._calibration = calibration
        self._zeros.clear()

    def push(self, reading: Reading) -> SensorState:
        """Take one reading; return the sensor's new state."""
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

    def states(self) -> list[SensorState]:
        """The latest state of every sensor seen, by seat (unclaimed last), thermometers first."""
        return sorted(self._states.values(), key=SensorState.order)

    def _calibrated(self, reading: Reading, filtered: float) -> float | None:
        if reading.seat is None:
            return filtered / 1000.0 if reading.kind == THERMOMETER else None
        if reading.kind == THERMOMETER:
            return self.calibration.celsius(reading.seat, filtered)
        return self.calibration.grams(reading.seat, filtered)
