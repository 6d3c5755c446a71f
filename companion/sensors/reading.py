"""One raw reading of one sensor: what every driver yields, real or simulated.

A driver reports what it read and nothing more: a thermometer's raw value is milli-degrees
Celsius as the kernel prints it, a scale's is the HX711's signed 24-bit count. Turning them into
degrees and grams is the filters' and the calibration's job. A fault is a status, never a
number: ``raw`` is ``None`` then.

>>> Reading(1, THERMOMETER, "28-0316a2794aff", 21375, OK, 12.5).ok
True
>>> fault("85 C power-on value")
'fault: 85 C power-on value'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

Kind = Literal["thermometer", "scale"]
THERMOMETER: Final = "thermometer"
SCALE: Final = "scale"

OK: Final = "ok"
"""The status of a good reading; every other status is ``fault: <reason>``."""


def fault(reason: str) -> str:
    """The status of a reading that failed, with the reason a maker can act on."""
    return f"fault: {reason}"


@dataclass(frozen=True)
class Reading:
    """A sensor's raw value at monotonic time ``t`` (seconds), or its fault.

    ``seat`` is ``None`` for a sensor found on the bus that no seat claims yet (the calibration
    CLI's identify step looks for those).
    """

    seat: int | None
    kind: Kind
    id: str
    raw: int | None
    status: str
    t: float

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "id": self.id,
            "raw": self.raw,
            "status": self.status,
            "t": self.t,
        }
