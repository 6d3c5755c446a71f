"""Fake HX711 chips behind a fake RPi.GPIO module, for the HX711 bank and its process.

``FakeGPIO`` has the calls and constants of ``RPi.GPIO`` that a bit-banging driver uses, and
refuses what the real module refuses (no numbering mode, driving an input, reading a pin never
set up). Its clock pin drives ``FakeHX711`` chips, one per data pin, that behave as the
datasheet says: a conversion every period (10 or 80 a second), DOUT low when one is ready, the
word shifted out MSB first on rising edges, 25/26/27 pulses choosing the next conversion, a
power-down when the clock stays high over 60 us and a reset when it falls, and a few unsettled
words after a reset or a gain change. A chip can be told to saturate, to have its DOUT stuck,
to never be ready, or to send given words.

Time is a ``FakeClock`` the test moves (the driver's sleep moves it too), or real time in a
spawned process. ``table_of_four`` builds a whole table for the process tests.
"""

from __future__ import annotations

import os
import random
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Final

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


class FakeGPIO:
    """The RPi.GPIO calls a bit-banging driver uses, wired to fake HX711 chips on one clock."""

    BCM: Final = 11
    BOARD: Final = 10
    OUT: Final = 0
    IN: Final = 1
    LOW: Final = 0
    HIGH: Final = 1
    PUD_OFF: Final = 20
    PUD_DOWN: Final = 21
    PUD_UP: Final = 22

    def __init__(
        self,
        clock_pin: int,
        chips: Mapping[int, FakeHX711],
        timer: Callable[[], int] = time.perf_counter_ns,
    ) -> None:
        self.clock_pin = clock_pin
        self.chips = dict(chips)
        self.timer = timer
        self.mode: int | None = None
        self.directions: dict[int, int] = {}
        self.pulls: dict[int, int] = {}
        self.levels: dict[int, int] = {}
        self.rising_edges = 0
        self.cleaned: list[int] = []
        self._stretch_at: int | None = None
        self._stretch_us = 0.0

    def stretch(self, pulse: int, us: float) -> None:
        """Hold the clock high ``us`` longer on the ``pulse``-th rising edge from now (1: next).

        The timer must be a ``FakeClock``: it is moved while the clock is high, as if the
        driver's process had been paused there.
        """
        self._stretch_at = self.rising_edges + pulse
        self._stretch_us = us

    def setwarnings(self, flag: bool) -> None:
        pass

    def setmode(self, mode: int) -> None:
        if self.mode is not None and mode != self.mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def getmode(self) -> int | None:
        return self.mode

    def setup(
        self,
        channel: int | Iterable[int],
        direction: int,
        pull_up_down: int = PUD_OFF,
        initial: int | None = None,
    ) -> None:
        if self.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode first")
        for pin in [channel] if isinstance(channel, int) else channel:
            self.directions[pin] = direction
            self.pulls[pin] = pull_up_down
            if direction == self.OUT:
                self._drive(pin, self.LOW if initial is None else initial)

    def output(self, channel: int, value: int) -> None:
        if self.directions.get(channel) != self.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self._drive(channel, 1 if value else 0)

    def _drive(self, pin: int, level: int) -> None:
        before = self.levels.get(pin, 0)
        self.levels[pin] = level
        if pin != self.clock_pin or level == before:
            return
        now = self.timer()
        for chip in self.chips.values():
            (chip.rising if level else chip.falling)(now)
        if level:
            self.rising_edges += 1
            if self.rising_edges == self._stretch_at:
                self.timer.advance_us(self._stretch_us)  # type: ignore[attr-defined]
                self._stretch_at = None

    def input(self, channel: int) -> int:
        if channel not in self.directions:
            raise RuntimeError("You must setup() the GPIO channel first")
        if self.directions[channel] == self.OUT:
            return self.levels[channel]
        chip = self.chips.get(channel)
        if chip is None:
            return self.HIGH if self.pulls[channel] == self.PUD_UP else self.LOW
        return chip.dout(self.timer())

    def cleanup(self, channel: int | Iterable[int] | None = None) -> None:
        pins = list(self.directions) if channel is None else channel
        for pin in [pins] if isinstance(pins, int) else list(pins):
            self.directions.pop(pin, None)
            self.levels.pop(pin, None)
            self.cleaned.append(pin)


TABLE_CLOCK: Final = 5
TABLE_DATA: Final = (6, 13, 19, 26)
TABLE_VALUES: Final = (120_000, -45_000, 300_000)
"""Seats 1-3 weigh these counts; seat 4's pad is unplugged (its DOUT pulled high)."""
TABLE_NOISE: Final = 20


def table_of_four() -> FakeGPIO:
    """A table of four pads at 80 samples a second in real time; seat 4's pad is unplugged."""
    chips = {
        pin: FakeHX711(value, noise=TABLE_NOISE, seed=pin, rate_hz=80, phase_ns=seat * 1_500_000)
        for seat, (pin, value) in enumerate(zip(TABLE_DATA, TABLE_VALUES, strict=False), 1)
    }
    return FakeGPIO(TABLE_CLOCK, chips)


def table_on_chip_4() -> FakeGPIO:
    """The table of four, on a Pi whose header is gpiochip4: rpi-lgpio opens the chip that
    ``RPI_LGPIO_CHIP`` names, so the pads are there only when it says 4."""
    chip = os.environ.get("RPI_LGPIO_CHIP")
    if chip != "4":
        raise OSError(f"gpiochip{chip or 0} has no HX711 on it (the header is gpiochip4)")
    return table_of_four()
