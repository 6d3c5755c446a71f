"""One seat's ice station as the service keeps it: its probe, its pad, its weigh-ins, its cube.

The sensor loop feeds it the filtered, calibrated states of its probe and pad; the game feeds
it the cube's start and the attacks; it keeps the melt estimator and says what the status page
shows for the seat. A faulted sensor is a status here and the estimate carries on from the model.

>>> station = Station(1)
>>> station.start_cube(0.0, 6.0)
>>> station.estimate(60.0, air_c=22.0).grams < 6.0
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from companion.melt.attacks import DEFAULT_CONFIG
from companion.melt.estimator import Estimate, SeatMelt
from companion.sensors.pipeline import SensorState
from companion.sensors.reading import THERMOMETER
from companion.sensors.weigh_in import Placed, Removed, Settled, Unsettled, WeighIn

ABSENT = "absent"
"""The status of a sensor the table has not got (or has not heard from yet)."""
CUBE_G = 6.0
"""A fresh cube: 6 ml of water from the game's tray, 6 g (until the first weigh-in says more)."""

WeighInState = Literal["requested", "weighing", "unsettled"]


@dataclass
class Station:
    """What the service knows of one seat's station; changed only under the service's lock."""

    seat: int
    air_c: float | None = None
    thermometer: str = ABSENT
    scale: str = ABSENT
    pad_g: float | None = None
    weigh_in: WeighInState | None = None
    last_weigh_in_g: float | None = None
    melt: SeatMelt | None = None

    def __post_init__(self) -> None:
        self._detector = WeighIn()

    def sense(self, state: SensorState, cap_g: float) -> bool:
        """Take one sensor state; whether a weigh-in completed (the estimate changed)."""
        if state.kind == THERMOMETER:
            self.thermometer = state.status
            self.air_c = state.value if state.ok_value else None
            return False
        self.scale = state.status
        self.pad_g = state.value if state.ok_value else None
        if self.pad_g is None:
            return False
        weighed = False
        for event in self._detector.push(state.t, self.pad_g):
            if isinstance(event, Placed):
                self.weigh_in = "weighing"
            elif isinstance(event, Unsettled):
                self.weigh_in = "unsettled"
            elif isinstance(event, Settled):
                self.weigh_in = None
                self.last_weigh_in_g = max(event.grams - cap_g, 0.0)
                if self.melt is not None:
                    # a snapshot made since the pad's last sample (an action's, a beat's) has
                    # already carried the estimate past it: the weigh-in counts as of then
                    at = max(event.t, self.melt.t_s)
                    self.melt = self.melt.weigh_in(at, self.last_weigh_in_g)
                weighed = True
            elif isinstance(event, Removed) and self.weigh_in == "weighing":
                self.weigh_in = None
        return weighed

    def start_cube(self, t: float, grams: float = CUBE_G) -> None:
        """A game starts: a fresh cube is set out (a weigh-in will say how big it really is)."""
        self.melt = SeatMelt.start(t, grams)

    def attack(self, t: float, kind: str, air_c: float) -> None:
        """An attack on this seat's cube has been carried out."""
        if self.melt is not None and kind in DEFAULT_CONFIG.attacks:
            self.melt = self.melt.predict(t, air_c).attack(t, kind)

    def estimate(self, t: float, air_c: float) -> Estimate | None:
        """The estimate now at ``air_c`` (the seat's air, or the table's when its probe is out)."""
        if self.melt is None:
            return None
        self.melt = self.melt.predict(t, air_c)
        return self.melt.estimate(t, air_c)

    def to_json(self, estimate: Estimate | None) -> dict[str, Any]:
        """The seat's part of the status (without its name and colour, which the game knows)."""
        ice = None
        if estimate is not None:
            ice = {
                "grams": round(estimate.grams, 2),
                "sigma_g": round(estimate.sigma_g, 2),
                "percent": round(estimate.percent, 1),
                "eta_s": None if estimate.eta_s is None else round(estimate.eta_s),
                "melted": estimate.melted,
            }
        return {
            "seat": self.seat,
            "ice": ice,
            "air_c": None if self.air_c is None else round(self.air_c, 2),
            "sensors": {"thermometer": self.thermometer, "scale": self.scale},
            "weigh_in": self.weigh_in,
        }
