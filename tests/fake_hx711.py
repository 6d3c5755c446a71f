"""Fake HX711 chips at the bit level, for the HX711 bank and its process.

A ``FakeHX711`` behaves as the datasheet says: a conversion every period (10 or 80 a second),
DOUT low when one is ready, the word shifted out MSB first on rising edges, 25/26/27 pulses
choosing the next conversion, a power-down when the clock stays high over 60 us and a reset when
it falls, and a few unsettled words after a reset or a gain change. A chip can be told to
saturate, to have its DOUT stuck, to never be ready, or to send given words.

On the Pi's side the chips sit behind the real rpi-lgpio: their pins are lines of a
``fake_lgpio.Gpiochip``, which the real ``RPi.GPIO`` reaches through a fake ``lgpio``. Time is a
``FakeClock`` the test moves (the reader's sleep moves it too), or real time in a spawned
process. ``table_of_four`` builds a whole table for the process tests.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Mapping
from types import ModuleType
from typing import Final

from fake_lgpio import FakeLgpio, Gpiochip, rpi_gpio

POWER_DOWN_NS: Final = 60_000
UNSETTLED_WORDS: Final = 4
GAIN_OF_PULSES: Final = {25: 128, 26: 32, 27: 64}


class FakeClock:
    """A nanosecond timer that moves only when told to, or when someone sleeps on it."""

    def __init__(self, ns: int = 1_000_000_000) -> None:
        self.ns = ns

    def __call__(self) -> int:
        return self.ns

    def sleep(self, seconds: float) -> None:
        self.ns += max(1, round(seconds * 1e9))

    def advance_us(self, us: float) -> None:
        self.ns += round(us * 1000)

    def monotonic(self) -> float:
        return self.ns / 1e9


class FakeHX711:
    """One HX711 on one data pin: converts, signals ready, shifts its words out.

    ``values`` gives the signed count at each gain (default: ``value`` at 128, half at 64 and a
    quarter at 32, as if channel B saw the same bridge); each word adds seeded noise of up to
    ``noise`` counts. ``phase_ns`` offsets its conversions from the other chips'.
    """

    def __init__(
        self,
        value: int = 74565,
        *,
        values: Mapping[int, int] | None = None,
        noise: int = 3,
        seed: int = 0,
        rate_hz: int = 10,
        phase_ns: int = 0,
    ) -> None:
        self.values = dict(values or {128: value, 64: value // 2, 32: value // 4})
        self.noise = noise
        self.random = random.Random(seed)
        self.period_ns = 1_000_000_000 // rate_hz
        self.phase_ns = phase_ns
        self.words: deque[int] = deque()
        """Raw 24-bit words to send next, once the chip has settled."""
        self.never_ready = False
        self.dout_stuck: int | None = None
        """0 or 1 to hold the DOUT line there whatever the chip does."""
        self.pulse_counts: list[int] = []
        """The pulses of every finished read, in order."""
        self.stray_pulses = 0
        self.resets = 0
        self.clock_high_since: int | None = None
        self._reset(0)
        self.resets = 0

    def _reset(self, now: int) -> None:
        self.gain = 128
        self.resets += 1
        self._t0 = now
        self._read_k = 0
        self._pulses = 0
        self._word = 0
        self._unsettled = UNSETTLED_WORDS

    def _conversions(self, now: int) -> int:
        return max(0, (now - self._t0 - self.phase_ns) // self.period_ns)

    def _new_word_ready(self, now: int) -> bool:
        return not self.never_ready and self._conversions(now) > self._read_k

    def _close_read(self) -> None:
        """Finish the read in progress: its pulse count chooses the next conversions."""
        self.pulse_counts.append(self._pulses)
        gain = GAIN_OF_PULSES.get(self._pulses)
        if gain is not None and gain != self.gain:
            self.gain = gain
            self._unsettled = UNSETTLED_WORDS
        self._pulses = 0

    def _latch(self, now: int) -> None:
        self._read_k = self._conversions(now)
        value = self.values[self.gain]
        if self._unsettled:
            self._unsettled -= 1
            self._word = (value + 10_000 * (self._unsettled + 1)) & 0xFFFFFF
        elif self.words:
            self._word = self.words.popleft()
        else:
            self._word = (value + self.random.randint(-self.noise, self.noise)) & 0xFFFFFF
        self._pulses = 1

    def rising(self, now: int) -> None:
        self.clock_high_since = now
        if 0 < self._pulses < 27:
            self._pulses += 1
        elif self._new_word_ready(now):
            if self._pulses:
                self._close_read()
            self._latch(now)
        else:
            self.stray_pulses += 1

    def falling(self, now: int) -> None:
        if self.clock_high_since is not None and now - self.clock_high_since > POWER_DOWN_NS:
            self._reset(now)
        self.clock_high_since = None

    def dout(self, now: int) -> int:
        if self.dout_stuck is not None:
            return self.dout_stuck
        if self.clock_high_since is not None and now - self.clock_high_since > POWER_DOWN_NS:
            return 1
        if 0 < self._pulses <= 24:
            return (self._word >> (24 - self._pulses)) & 1
        if self._pulses and self._new_word_ready(now):
            self._close_read()
        if self._pulses:
            return 1
        return 0 if self._new_word_ready(now) else 1


TABLE_CLOCK: Final = 5
TABLE_DATA: Final = (6, 13, 19, 26)
TABLE_VALUES: Final = (120_000, -45_000, 300_000)
"""Seats 1-3 weigh these counts; seat 4's pad is unplugged (its DOUT pulled high)."""
TABLE_NOISE: Final = 20
STRETCHED: Final = re.compile(r"fault: clock held high (\d+) us: the read was interrupted")


def pad_heard(status: str) -> bool:
    """Whether a status says its pad was read in real time: ``ok``, or the reader's rejection of
    a read whose clock stayed high past the chip's limit (a few reads in a hundred here; all of
    them on a machine too slow to bit-bang the clock within 60 us)."""
    found = STRETCHED.fullmatch(status)
    return status == "ok" or (found is not None and int(found[1]) * 1000 > POWER_DOWN_NS)


def table_pads() -> Gpiochip:
    """A header with the table's four pads at 80 samples a second, in real time; seat 4's is
    unplugged (its line pulled up)."""
    chips = {
        pin: FakeHX711(value, noise=TABLE_NOISE, seed=pin, rate_hz=80, phase_ns=seat * 1_500_000)
        for seat, (pin, value) in enumerate(zip(TABLE_DATA, TABLE_VALUES, strict=False), 1)
    }
    return Gpiochip(TABLE_CLOCK, chips, lazy=True)


def table_of_four() -> ModuleType:
    """The real ``RPi.GPIO`` of a Pi whose gpiochip0 is the table's header, in real time."""
    return rpi_gpio(FakeLgpio({0: table_pads()}))


def table_on_chip_4() -> ModuleType:
    """The real ``RPi.GPIO`` of a Pi whose header is gpiochip4 and which has no other gpiochip:
    rpi-lgpio opens the chip ``RPI_LGPIO_CHIP`` names (0 without it), which must be 4."""
    return rpi_gpio(FakeLgpio({4: table_pads()}))
