"""The pod's pads: each pad's HX711 behind two digitalio pins, simulated edge by edge.

A ``Chip`` is ``tests/fake_hx711.py``'s chip model (``FakeHX711``) on the world's clock
(``podsim.World``), wired to a DOUT and an SCK pin: the fake ``digitalio`` hands it every edge
of its clock pin and reads its DOUT. The faults (``PAD_FAULTS``, and a DOUT wire come loose)
are what the chip and its wires do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fake_hx711 import POWER_DOWN_NS, FakeHX711

if TYPE_CHECKING:
    from podsim import World

PAD_FAULTS = ("saturated", "stuck", "not-ready")


class Chip:
    """A pad's HX711 on its DOUT and SCK pins: ``fake_hx711.FakeHX711`` on the world's clock.

    ``level`` is its count at gain 128 (channel A at 64: half, channel B: a quarter); ``hz`` its
    RATE pin (a new ``hz`` is a board that starts from power-on). The world's faults: ``not-ready``
    (it never converts), ``saturated`` (every word 0x7FFFFF), ``stuck`` (the same word again and
    again); ``loosen()`` its DOUT wire. It keeps what was clocked out: ``word``, ``reads``,
    ``pulses`` (the pulse count of every finished read) and ``longest_high_ns``.
    """

    def __init__(self, world: World, number: int, level: int, hz: int = 10) -> None:
        self.world = world
        self.dout_pin = f"GP{2 + 2 * number}"
        self.sck_pin = f"GP{3 + 2 * number}"
        self._level = level
        self._seed = world.rng.randrange(1 << 30)
        self.fault: str | None = None
        self.loose = False
        self._touch = False
        self.word = 0
        self.reads = 0
        self.longest_high_ns = 0
        self._bits = 0
        self._pulse = 0
        self._high_since: int | None = None
        self.hz = hz

    @property
    def hz(self) -> int:
        return self._hz

    @hz.setter
    def hz(self, hz: int) -> None:
        self._hz = hz
        self._pulse, self._high_since = 0, None
        period = 1_000_000_000 // hz
        self.hx = FakeHX711(
            values=self._values(),
            seed=self._seed,
            rate_hz=hz,
            phase_ns=self.world.rng.randrange(period),
        )

    @property
    def level(self) -> int:
        return self._level

    @level.setter
    def level(self, level: int) -> None:
        self._level = level
        self.hx.values = self._values()

    def _values(self) -> dict[int, int]:
        return {128: self._level, 64: self._level // 2, 32: self._level // 4}

    @property
    def pulses(self) -> list[int]:
        return self.hx.pulse_counts

    def loosen(self) -> None:
        """Its DOUT wire comes loose: it touches once more (a low the pod reads as ready), then
        floats high on the pod's pull-up until the pod restarts."""
        self.loose = True
        self._touch = True

    def clear(self) -> None:
        self.fault = None
        self.loose = False
        self.hx.never_ready = False
        self.hx.words.clear()

    def set_fault(self, code: str) -> None:
        self.clear()
        self.fault = code
        self.hx.never_ready = code == "not-ready"

    def clock(self, high: bool, now: int) -> None:
        """An edge on SCK."""
        if high:
            starting = self._pulse in (0, 25, 26, 27) and self.hx.dout(now) == 0
            if starting:
                self._pulse, self._bits = 0, 0
                if self.fault in ("saturated", "stuck") and not self.hx.words:
                    self.hx.words.append(0x7FFFFF if self.fault == "saturated" else self.word)
            self.hx.rising(now)
            self._high_since = now
            if starting or 0 < self._pulse < 27:
                self._pulse += 1
            if 0 < self._pulse <= 24:
                self._bits = self._bits << 1 | self.hx.dout(now)
                if self._pulse == 24:
                    self.word = self._bits
                    self.reads += 1
            return
        since, self._high_since = self._high_since, None
        if since is None:
            return
        if now - since > POWER_DOWN_NS:
            self._pulse = 0
        elif self._pulse:
            self.longest_high_ns = max(self.longest_high_ns, now - since)
        self.hx.falling(now)

    def dout(self, now: int) -> int:
        """DOUT's level as the pod's pin reads it."""
        if self.loose:
            touch = self._touch and self._high_since is None
            if touch:
                self._touch = False
            return 0 if touch else 1
        return self.hx.dout(now)
