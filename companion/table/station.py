"""One seat's ice station as the table keeps it: its probe, its pad, its weigh-ins, its cube.

The sensing feeds it the states of its probe and pad as the pipeline made them: degrees, grams,
and the pad's weigh-ins in grams of ice (:mod:`companion.sensors.pipeline` makes each gram and
detects each weigh-in, once), which it takes as they come; the game's effects feed it the cube's
start and the attacks; it keeps the melt estimator, the latest estimate, and says what the
status shows for the seat. A faulted sensor is a status here and the estimate carries on from
the model.

>>> station = Station(1)
>>> station.start_cube(0.0, 6.0)
>>> station.estimate(60.0, air_c=22.0).grams < 6.0
True
>>> station.ice().grams < 6.0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.melt.attacks import DEFAULT_CONFIG
from companion.melt.estimator import Estimate, SeatMelt
from companion.sensors.pipeline import SensorState
from companion.sensors.reading import THERMOMETER
from companion.sensors.weigh_in import NotACap, Placed, Removed, Unsettled, Weighed
from companion.table.status import Ice, Lacks, Sensors, WeighIn

ABSENT = "absent"
"""The status of a sensor the table has not heard from (yet, or any more)."""
NONE = "none"
"""The status of a sensor the table has not got at a seat: phones only, or a seat left out."""
CUBE_G = 6.0
"""A fresh cube: 6 ml of water from the game's tray, 6 g (until the first weigh-in says more)."""


@dataclass
class Station:
    """What the service knows of one seat's station; changed only under the service's lock."""

    seat: int
    probe: bool = True
    """Whether the seat has a probe; without one its air is the table's, or the room's."""
    pad: bool = True
    """Whether the seat has a pad; without one it is never asked to weigh in, shows no grams,
    and only its player says when its cube has melted."""
    air_c: float | None = None
    thermometer: str = ABSENT
    scale: str = ABSENT
    pad_g: float | None = None
    pad_zero_g: float | None = None
    """The pad's tracked zero, grams from its tare (rounded to the milligram)."""
    uncalibrated: Lacks = ()
    """What the pad still lacks to weigh ice: until it has all, the pipeline weighs nothing in
    on it, whose grams would be wrong."""
    weigh_in: WeighIn | None = None
    last_weigh_in_g: float | None = None
    asked_at: float = -math.inf
    """When (game seconds) a weigh-in was last asked for or made."""
    melt: SeatMelt | None = None
    latest: Estimate | None = None
    """The estimate the sensing made last: what the status shows."""

    def __post_init__(self) -> None:
        self._asked = False
        """A weigh-in was asked for when the pad's load was set down."""
        self.unheard()

    def unheard(self) -> None:
        """No sensor heard from yet: each is absent, or ``none`` where the seat has none."""
        self.thermometer = ABSENT if self.probe else NONE
        self.scale = ABSENT if self.pad else NONE
        self.air_c = self.pad_g = None

    def sense(self, state: SensorState, origin: float = 0.0) -> bool:
        """Take one sensor state, with its pad's weigh-in events; whether a weigh-in completed
        (the estimate changed). The estimate runs on game time: the reading's table time less
        the game's ``origin``. A state of a sensor the seat has not got (a pad wired but left
        out) is not taken."""
        if not (self.probe if state.kind == THERMOMETER else self.pad):
            return False
        if state.kind == THERMOMETER:
            self.thermometer = state.status
            self.air_c = state.value if state.ok_value else None
            return False
        self.scale = state.status
        self.pad_g = state.value if state.ok_value else None
        self.pad_zero_g = None if state.zero_g is None else round(state.zero_g, 3)
        weighed = False
        for event in state.events:
            if isinstance(event, Placed):
                self._asked, self.weigh_in = self.weigh_in == "requested", "weighing"
            elif isinstance(event, Unsettled):
                self.weigh_in = "unsettled"
            elif isinstance(event, NotACap):
                self.weigh_in = "requested" if self._asked else None
            elif isinstance(event, Weighed):
                self.weigh_in = None
                self.last_weigh_in_g = event.ice_g
                if self.melt is not None:
                    # a snapshot made since the pad's last sample (an action's, a beat's) has
                    # already carried the estimate past it: the weigh-in counts as of then
                    at = max(event.t - origin, self.melt.t_s)
                    self.melt = self.melt.weigh_in(at, self.last_weigh_in_g)
                    self.asked_at = at
                weighed = True
            elif isinstance(event, Removed) and self.weigh_in == "weighing":
                self.weigh_in = None
        return weighed

    def lacking(self, lacks: Lacks) -> bool:
        """Take what the seat's pad lacks now (``SeatCalibration.pad_lacks``), for the status;
        whether it changed. A seat without a pad lacks nothing: it weighs nothing."""
        lacks = lacks if self.pad else ()
        changed, self.uncalibrated = lacks != self.uncalibrated, lacks
        return changed

    def start_cube(self, t: float, grams: float = CUBE_G) -> None:
        """A game starts: a fresh cube is set out (a weigh-in will say how big it really is)."""
        self.melt = SeatMelt.start(t, grams)
        self.latest = None

    def clear(self) -> None:
        """A new game: no cube and no weigh-in until the game sets one out."""
        self.melt = self.latest = None
        self.weigh_in = None

    def attack(self, t: float, kind: str, air_c: float) -> None:
        """An attack on this seat's cube has been carried out."""
        if self.melt is not None and kind in DEFAULT_CONFIG.attacks:
            self.melt = self.melt.predict(t, air_c).attack(t, kind)

    def estimate(self, t: float, air_c: float) -> Estimate | None:
        """The estimate now at ``air_c`` (the seat's air, or the table's when its probe is out),
        kept as the latest."""
        if self.melt is None:
            return None
        self.melt = self.melt.predict(t, air_c)
        self.latest = self.melt.estimate(t, air_c)
        return self.latest

    def ice(self) -> Ice | None:
        """The latest estimate as the status shows it: for a seat without a pad, the countdown
        alone (the table makes one only where it knows the air)."""
        e = self.latest
        if e is None:
            return None
        eta = None if e.eta_s is None else round(e.eta_s)
        span = None
        if e.eta_low_s is not None and e.eta_high_s is not None:
            span = (round(e.eta_low_s), round(e.eta_high_s))
        if not self.pad:
            return Ice(None, None, None, None, eta, span, e.learning, False, "air")
        band = (0.0, 0.0)
        if self.melt is not None and not e.melted:
            gone, full = self.melt.config.gone_g, self.melt.start_g

            def share(grams: float) -> float:
                return round(min(max(100 * (grams - gone) / (full - gone), 0.0), 100.0), 1)

            band = (share(e.grams - 2 * e.sigma_g), share(e.grams + 2 * e.sigma_g))
        return Ice(
            round(e.grams, 2),
            round(e.sigma_g, 2),
            round(e.percent, 1),
            band,
            eta,
            span,
            e.learning,
            e.melted,
        )

    def sensors(self) -> Sensors:
        return Sensors(self.thermometer, self.scale)
