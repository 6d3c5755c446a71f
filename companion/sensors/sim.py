"""A simulated table: cubes melting by the physics, drifting air, pads and probes with noise.

It stands in for the hardware off the Pi and in the tests. Each seat has a hidden heat-transfer
coefficient ``h`` (the estimator must learn it from weigh-ins, as at a real table), its own air
temperature that drifts slowly, a probe with a small true error, and a pad with its own tare and
slope, whose zero moves over a game as a real bar load cell's does (:mod:`.pad_drift`: warm-up,
wander, a cold cap's temperature, creep; ``drift`` scales them all, and 0 keeps it still). The
sources yield what the real drivers yield: w1 milli-degrees rounded to the probe's resolution
(the kernel's very text, parsed by the w1 driver's own classifier) and signed 24-bit HX711
counts, with faults on request, so the whole pipeline from filters to the estimator runs
unchanged.

The table is a function of time given to it (seconds, any origin), so a test drives it with a
plain number and the daemon with a clock that may run faster than the wall's.

>>> table = SimTable(seats=2, seed=7)
>>> table.start_cube(1, t=0.0, grams=6.0)
>>> table.place_cap(1, t=60.0, hold_s=5.0)
>>> 0 < table.ice_g(1, 60.0) < 6.0
True
"""

from __future__ import annotations

import errno
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from companion.melt.physics import melt_after
from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.ds18b20 import (
    POWER_FAULT_PAD_HEAD,
    POWER_ON_PAD,
    kernel_text,
    scratchpad,
    with_crc,
)
from companion.sensors.hx711 import NO_DATA, signed, word_fault
from companion.sensors.pad_drift import PadDrift
from companion.sensors.reading import OK, SCALE, THERMOMETER, Reading, fault
from companion.sensors.w1 import classify, missing, read_error

HX711_MAX = 2**23 - 1
HX711_MIN = -(2**23)
COUNTS_PER_GRAM = 21475.0
"""A 100 g bar at 1 mV/V on 3.3 V, through the HX711's gain of 128: 3.3 mV x 128 over +-1.65 V."""
STEP_S = 30.0
"""Melt is integrated in steps this long, with the air temperature of each step's middle."""

_FAULT_PADS = {
    "power-on": POWER_ON_PAD,
    "power": with_crc(POWER_FAULT_PAD_HEAD),
    "zeros": bytes(9),
    "ones": b"\xff" * 9,
}
THERMOMETER_FAULTS = ("crc", *_FAULT_PADS, "missing", "eio")
"""The probe faults the simulation can show, one per fault class of the w1 driver."""
_FAULT_WORDS: dict[str, int | None] = {
    "saturated": 0x7FFFFF,
    "stuck-low": 0x000000,
    "stuck-high": 0xFFFFFF,
    "no-data": None,
}
SCALE_FAULTS = tuple(_FAULT_WORDS)
"""The pad faults the simulation can show, one per fault class of the HX711 reader."""


@dataclass
class SimSeat:
    """One seat's hidden truth; the sources only ever show it through noisy raw values."""

    seat: int
    probe_id: str
    pad_id: str
    h_w_m2k: float
    air_offset_c: float
    probe_error_c: float
    tare_counts: float
    counts_per_gram: float
    cap_g: float
    phases: tuple[float, float]
    ice_g: float = 0.0
    ice_t: float | None = None
    on_pad: tuple[float, float] = (math.inf, math.inf)
    weight_g: float = 0.0
    warmed: tuple[float, float] | None = None
    bath_c: float | None = None
    rounds: tuple[float, float, float] | None = None
    faults: dict[str, str] = field(default_factory=dict)
    drift: PadDrift | None = None


class SimTable:
    """The hidden state of a simulated table and the raw readings it would give."""

    def __init__(
        self,
        seats: int = 4,
        seed: int = 0,
        room_c: float = 23.0,
        resolution: int = 12,
        noise_c: float = 0.03,
        noise_g: float = 0.02,
        drift: float = 1.0,
    ) -> None:
        self._random = random.Random(seed)
        draw = self._random
        self.room_c = room_c
        self.resolution = resolution
        self.noise_c = noise_c
        self.noise_g = noise_g
        self.seats = {
            n: SimSeat(
                seat=n,
                probe_id=f"28-{draw.getrandbits(48):012x}",
                pad_id=f"sim:pad{n}",
                h_w_m2k=draw.uniform(14.0, 30.0),
                air_offset_c=draw.uniform(-0.8, 0.8),
                probe_error_c=draw.uniform(-0.4, 0.4),
                tare_counts=draw.uniform(-150_000.0, 150_000.0),
                counts_per_gram=COUNTS_PER_GRAM * draw.uniform(0.85, 1.15),
                cap_g=draw.uniform(2.5, 3.5),
                phases=(draw.uniform(0, 2 * math.pi), draw.uniform(0, 2 * math.pi)),
            )
            for n in range(1, seats + 1)
        }
        if drift:
            pads = random.Random(f"pad drift {seed}")
            for s in self.seats.values():
                s.drift = PadDrift.draw(pads, room_c, drift)

    def factory_calibration(self) -> Calibration:
        """The calibration that matches this table exactly, as if it had been calibrated well:
        what the simulation uses until ``companion calibrate`` writes one of its own."""
        return Calibration(
            {
                n: SeatCalibration(
                    n,
                    thermometer=s.probe_id,
                    probe_offset_c=-s.probe_error_c,
                    scale=s.pad_id,
                    tare_counts=s.tare_counts,
                    counts_per_gram=s.counts_per_gram,
                    cap_g=s.cap_g,
                )
                for n, s in self.seats.items()
            }
        )

    def air_c(self, seat: int, t: float) -> float:
        """The true air temperature by a seat: the room, the seat's offset and a slow drift."""
        s = self.seats[seat]
        drift = 0.6 * math.sin(2 * math.pi * t / 1800 + s.phases[0])
        drift += 0.25 * math.sin(2 * math.pi * t / 420 + s.phases[1])
        return self.room_c + s.air_offset_c + drift + self._warmth(s, t)

    def ice_g(self, seat: int, t: float) -> float:
        """The true grams of ice left at ``t`` (times must not go backwards)."""
        s = self.seats[seat]
        if s.ice_t is None:
            return 0.0
        while s.ice_t < t:
            dt = min(STEP_S, t - s.ice_t)
            air = self.air_c(seat, s.ice_t + dt / 2)
            s.ice_g = melt_after(s.ice_g, s.h_w_m2k, air, dt)
            s.ice_t += dt
        return s.ice_g

    def start_cube(self, seat: int, t: float, grams: float = 6.0) -> None:
        """A fresh cube is set out in the seat's cap."""
        s = self.seats[seat]
        s.ice_g, s.ice_t = grams, t

    def melt(self, seat: int, t: float, grams: float) -> None:
        """An attack melts ``grams`` more at once (a squeeze, a water bath)."""
        s = self.seats[seat]
        s.ice_g = max(self.ice_g(seat, t) - grams, 0.0)

    def place_cap(self, seat: int, t: float, hold_s: float = 5.0) -> None:
        """The player sets the cap (and what is left of the cube) on the pad for ``hold_s``."""
        self.seats[seat].on_pad = (t, t + hold_s)

    def play_along(self, t: float, every_s: float = 20.0, hold_s: float = 6.0) -> None:
        """Simulated players for a demo: a fresh cube at every seat from ``t``, and each seat in
        turn setting its cap on the pad every ``every_s`` for ``hold_s``."""
        for n, s in self.seats.items():
            self.start_cube(n, t)
            s.rounds = (t + (n - 1) * every_s / len(self.seats), every_s, hold_s)

    def put_weight(self, seat: int, grams: float) -> None:
        """A known weight stays on the pad until it is taken off with ``put_weight(seat, 0)``."""
        self.seats[seat].weight_g = grams

    def warm_probe(self, seat: int, t: float, hold_s: float = 20.0) -> None:
        """Fingers around the probe from ``t`` for ``hold_s``: it warms towards hand temperature."""
        self.seats[seat].warmed = (t, t + hold_s)

    def dip_probe(self, seat: int, celsius: float | None) -> None:
        """The probe stands in water at ``celsius`` (ice water: 0) until taken out with ``None``."""
        self.seats[seat].bath_c = celsius

    def fault(self, seat: int, kind: str, name: str | None) -> None:
        """Make a seat's thermometer or scale show a fault from the lists above (None: mend it)."""
        allowed = THERMOMETER_FAULTS if kind == THERMOMETER else SCALE_FAULTS
        if name is not None and name not in allowed:
            raise ValueError(f"unknown {kind} fault {name!r}: one of {', '.join(allowed)}")
        faults = self.seats[seat].faults
        if name is None:
            faults.pop(kind, None)
        else:
            faults[kind] = name

    def load_g(self, seat: int, t: float) -> float:
        """The true grams standing on a pad: the cap with its ice while it is set down, weights."""
        s = self.seats[seat]
        return s.weight_g + (s.cap_g + self.ice_g(seat, t) if self._cap_on(s, t) else 0.0)

    def zero_g(self, seat: int, t: float) -> float:
        """How far the pad's zero has moved from its tare at ``t``, in grams (times must not
        go backwards: the drift depends on what stood on the pad before)."""
        s = self.seats[seat]
        if s.drift is None:
            return 0.0
        cold = self._cap_on(s, t) and self.ice_g(seat, t) > 0
        return s.drift.zero_g(t, self.load_g(seat, t), cold, self.air_c(seat, t))

    @staticmethod
    def _cap_on(s: SimSeat, t: float) -> bool:
        in_round = (
            s.rounds is not None
            and t >= s.rounds[0]
            and ((t - s.rounds[0]) % s.rounds[1] < s.rounds[2])
        )
        return in_round or s.on_pad[0] <= t < s.on_pad[1]

    def probe_text(self, seat: int, t: float) -> str:
        """The probe's ``w1_slave`` as the kernel would print it: the air, the probe's own error
        and noise at its resolution, or the scratchpad of its fault; raises ``OSError`` for EIO."""
        s = self.seats[seat]
        name = s.faults.get(THERMOMETER)
        if name == "eio":
            raise OSError(errno.EIO, "Input/output error")
        if name in _FAULT_PADS:
            return kernel_text(_FAULT_PADS[name])
        true_c = self.air_c(seat, t) if s.bath_c is None else s.bath_c
        celsius = true_c + s.probe_error_c + self._random.gauss(0.0, self.noise_c)
        pad = scratchpad(celsius, self.resolution)
        if name == "crc":
            pad = pad[:8] + bytes([pad[8] ^ 0x5A])
        return kernel_text(pad)

    def pad_word(self, seat: int, t: float) -> int | None:
        """The 24-bit word the HX711 would shift out: tare plus slope times load, the drifted
        zero and noise, clipped to its range, or the word of its fault; ``None`` when it never
        gets ready."""
        s = self.seats[seat]
        name = s.faults.get(SCALE)
        if name in _FAULT_WORDS:
            return _FAULT_WORDS[name]
        grams = self.load_g(seat, t) + self.zero_g(seat, t) + self._random.gauss(0.0, self.noise_g)
        counts = round(s.tare_counts + s.counts_per_gram * grams)
        return min(max(counts, HX711_MIN), HX711_MAX) & 0xFFFFFF

    def _warmth(self, s: SimSeat, t: float) -> float:
        if s.warmed is None or t < s.warmed[0]:
            return 0.0
        start, end = s.warmed
        peak = 9.0 * (1 - math.exp(-(min(t, end) - start) / 6.0))
        return peak if t <= end else peak * math.exp(-(t - end) / 25.0)


class SimThermometers:
    """The simulated table's probes as a thermometer source: ``sweep()`` like the w1 driver's."""

    def __init__(self, table: SimTable, clock: Callable[[], float]) -> None:
        self.table = table
        self.clock = clock

    def sweep(self) -> list[Reading]:
        t = self.clock()
        readings = []
        for n, s in self.table.seats.items():
            if s.faults.get(THERMOMETER) == "missing":
                raw, status = None, missing(s.probe_id)
            else:
                try:
                    raw, status = classify(self.table.probe_text(n, t))
                except OSError as exc:
                    raw, status = None, read_error(exc)
            readings.append(Reading(n, THERMOMETER, s.probe_id, raw, status, t))
        return readings


class SimScales:
    """The simulated pads as a scale source: every sample since the last call, at ``rate_hz``."""

    def __init__(
        self,
        table: SimTable,
        clock: Callable[[], float],
        rate_hz: float = 10.0,
        backlog_s: float = 5.0,
    ) -> None:
        self.table = table
        self.clock = clock
        self.period = 1.0 / rate_hz
        self.backlog_s = backlog_s
        self._next: float | None = None

    def readings(self) -> list[Reading]:
        now = self.clock()
        if self._next is None or self._next < now - self.backlog_s:
            self._next = now
        readings = []
        for t in self._times(now):
            for n, s in self.table.seats.items():
                raw, status = _pad_reading(self.table.pad_word(n, t))
                readings.append(Reading(n, SCALE, s.pad_id, raw, status, t))
        return readings

    def _times(self, now: float) -> Iterator[float]:
        assert self._next is not None
        while self._next <= now:
            yield self._next
            self._next += self.period


def _pad_reading(word: int | None) -> tuple[int | None, str]:
    """The raw count and status the HX711 reader gives for one word, by its own rules."""
    if word is None:
        return None, fault(NO_DATA)
    reason = word_fault(word)
    return (None, fault(reason)) if reason else (signed(word), OK)
