"""A bank of HX711 load-cell amplifiers on one shared clock, bit-banged through the RPi.GPIO API.

Every seat's pad has its own HX711 with its own data pin (DOUT); all of them share one clock pin
(PD_SCK), so all are read together: wait until every live DOUT is low (a conversion is ready),
then clock out 24 bits, MSB first, reading every data pin after each pulse, and end with 1 to 3
more pulses that choose the next conversion (25: channel A gain 128, 26: channel B gain 32,
27: channel A gain 64). One read is 24 + n pulses however many pads there are.

The chip powers down when the clock stays high over 60 us, which corrupts the word being read,
and Linux can pause a process for longer than that at any moment. So every clock-high period is
timed and a read with one too long is rejected for every pad (they share the clock); the chips
may have reset, so every pad settles again. Words that cannot be a weight are rejected too:
the two saturated ends, all zeros and all ones (a DOUT line stuck low or high), and the same
word many times in a row (a chip that stopped converting). A pad whose DOUT never goes low is
reported and no longer waited for, so a dead pad costs one timeout, not one per read; the data
pins are pulled up, so an unplugged wire reads as no data rather than a floating line.

The GPIO module is injected (in the tests, rpi-lgpio over a fake lgpio); ``RPi.GPIO`` is
imported only when none is given, which ``rpi-lgpio`` provides on a Raspberry Pi 5.

>>> signed(0x7FFFFE), signed(0x800001), signed(0xFFFFFE)
(8388606, -8388607, -2)
>>> word_fault(0x800000)
'saturated: check the load cell wiring or the load'
>>> word_fault(0x012345) is None
True
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Final

from companion.errors import CompanionError
from companion.sensors.reading import OK, SCALE, Reading, fault

Word = int | str | None
"""What one read gives for one pad: a signed count, a fault reason, or ``None`` while settling."""

PULSES: Final = {128: 25, 32: 26, 64: 27}
"""Clock pulses per read for each gain: 24 data bits, then 1-3 that choose the next conversion.
Gain 32 is channel B; 128 and 64 are channel A."""
RATES_HZ: Final = (10, 80)
"""The chip's two output rates, set by its RATE pin (low: 10 samples a second)."""
CLOCK_HIGH_LIMIT_NS: Final = 60_000
"""A clock held high longer than this powers the chip down mid-read (datasheet: 60 us)."""
RESET_HIGH_S: Final = 0.0002
"""How long the clock is held high to power the chips down, so that they reset on its fall."""
SETTLING_READS: Final = 4
"""Words discarded after a reset or a gain change: 400 ms at 10 samples/s, 50 ms at 80."""
STUCK_REPEATS: Final = 10
"""The same word this many times in a row is a chip that stopped converting. A live HX711 has
tens of counts of noise at gain 128 (50 nV rms at 10 samples/s, a count is about 2 nV), and even
at gain 32 two equal consecutive words come about one time in twenty, so nine equal steps in a
row come by chance about twice in 10^12 reads."""
TIMEOUT_PERIODS: Final = 5
"""A read waits this many conversion periods for the pads to be ready (covers the settling)."""
POLL_PERIODS: Final = 20
"""DOUT is polled this many times per conversion period while waiting."""

SATURATED: Final = "saturated: check the load cell wiring or the load"
STUCK_LOW: Final = "all-zero word: DOUT stuck low; check the DOUT wire"
STUCK_HIGH: Final = "all-ones word: DOUT stuck high; check the DOUT wire and power"
NO_DATA: Final = "no data: check DOUT and power"


class GPIOUnavailable(CompanionError):
    """The GPIO module for the pads cannot be loaded (not a Raspberry Pi, or a wrong path)."""


def load_gpio(path: str) -> Any:
    """The GPIO module named by ``path``: ``"RPi.GPIO"``, or ``"module:factory"`` called.

    >>> load_gpio("nowhere.GPIO")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.hx711.GPIOUnavailable: cannot load the GPIO module 'nowhere.GPIO' ...
    """
    module_name, _, attribute = path.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
        for name in filter(None, attribute.split(".")):
            found = getattr(found, name)
    except (ImportError, AttributeError) as error:
        raise GPIOUnavailable(
            f"cannot load the GPIO module {path!r} ({error}): on a Raspberry Pi install "
            'rpi-lgpio (or RPi.GPIO); elsewhere set scales = "sim"'
        ) from error
    return found if isinstance(found, ModuleType) else found()


def pad_id(data_pin: int) -> str:
    """The sensor id of the pad on ``data_pin``.

    >>> pad_id(22)
    'hx711:gpio22'
    """
    return f"hx711:gpio{data_pin}"


def signed(word: int) -> int:
    """The signed value of a 24-bit two's complement word."""
    return word - (1 << 24) if word & 0x800000 else word


def word_fault(word: int) -> str | None:
    """Why a 24-bit word cannot be a weight, or ``None`` when it can."""
    if word in (0x7FFFFF, 0x800000):
        return SATURATED
    if word == 0x000000:
        return STUCK_LOW
    if word == 0xFFFFFF:
        return STUCK_HIGH
    return None


def stretched(high_ns: int) -> str:
    """The reason a read is rejected when a clock-high period lasted ``high_ns``."""
    return f"clock held high {-(-high_ns // 1000)} us: the read was interrupted"


def repeated(times: int) -> str:
    """The reason for a word that came ``times`` times in a row."""
    return f"the same word {times} times in a row: the chip stopped converting; check its power"


class HX711Bank:
    """The HX711 boards of a table: one clock pin, one data pin per pad, read together.

    ``seats`` maps a data pin to its seat (default: the first pin is seat 1, and so on).
    ``timer`` (nanoseconds) times the clock pulses and the waits; ``sleep`` paces the polling.
    """

    def __init__(
        self,
        gpio: Any | None,
        clock_pin: int,
        data_pins: Sequence[int],
        gain: int = 128,
        rate_hz: int = 10,
        seats: Mapping[int, int] | None = None,
        timer: Callable[[], int] = time.perf_counter_ns,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if gain not in PULSES:
            raise ValueError(f"HX711 gain {gain}: choose 128 or 64 (channel A) or 32 (channel B)")
        if rate_hz not in RATES_HZ:
            raise ValueError(f"HX711 rate {rate_hz} Hz: the chip runs at 10 or 80 samples a second")
        if not data_pins or len(set(data_pins)) != len(data_pins) or clock_pin in data_pins:
            raise ValueError(f"HX711 pins: clock {clock_pin}, data {list(data_pins)} must differ")
        self.gpio = gpio if gpio is not None else load_gpio("RPi.GPIO")
        self.clock_pin = clock_pin
        self.data_pins = tuple(data_pins)
        self.seats = {pin: (seats or {}).get(pin, n) for n, pin in enumerate(self.data_pins, 1)}
        self.gain = gain
        self.pulses = PULSES[gain]
        self.period_ns = 1_000_000_000 // rate_hz
        self._timer = timer
        self._sleep = sleep
        self._live = [True] * len(self.data_pins)
        self._settling = [0] * len(self.data_pins)
        self._last = [-1] * len(self.data_pins)
        self._repeats = [0] * len(self.data_pins)
        self._last_start = timer() - self.period_ns
        self._setup()

    @property
    def ids(self) -> tuple[str, ...]:
        """Each pad's sensor id, in data-pin order."""
        return tuple(pad_id(pin) for pin in self.data_pins)

    def _setup(self) -> None:
        gpio = self.gpio
        if hasattr(gpio, "setwarnings"):
            gpio.setwarnings(False)
        gpio.setmode(gpio.BCM)
        gpio.setup(self.clock_pin, gpio.OUT, initial=gpio.LOW)
        for pin in self.data_pins:
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)
        self.reset()

    def reset(self) -> None:
        """Power every chip down and up (clock high past 60 us, then low), then let them settle.

        A reset leaves each chip on channel A at gain 128 and ends any read a previous process
        broke off half way, so the pulse count of the next read is right.
        """
        self.gpio.output(self.clock_pin, self.gpio.HIGH)
        self._sleep(RESET_HIGH_S)
        self.gpio.output(self.clock_pin, self.gpio.LOW)
        for n in range(len(self.data_pins)):
            self._resettle(n, at_gain=128)

    def _resettle(self, n: int, at_gain: int | None = None) -> None:
        """Discard pad ``n``'s next words: the chip converts ``at_gain`` (``None``: unknown).

        The first read after a reset, or after stray pulses while the chip was not ready,
        may be at another gain; its pulses select ours, and settling starts from there.
        """
        self._settling[n] = SETTLING_READS + (at_gain != self.gain)
        self._repeats[n] = 0

    def read(self, timeout_s: float | None = None) -> list[Word]:
        """Read every pad once: a signed count, a fault reason, or ``None`` while settling.

        Waits up to ``timeout_s`` (default five conversion periods) for the live pads; a pad
        that is not ready then is reported as ``no data`` and not waited for again until its
        DOUT is seen low.
        """
        timeout_ns = self.period_ns * TIMEOUT_PERIODS if timeout_s is None else int(timeout_s * 1e9)
        ready = self._wait(timeout_ns)
        self._last_start = self._timer()
        words: list[Word] = [None if r else NO_DATA for r in ready]
        for n, r in enumerate(ready):
            if r and not self._live[n]:
                self._resettle(n)
            self._live[n] = r
        if not any(ready):
            return words
        raws, longest_ns = self._shift([n for n, r in enumerate(ready) if r])
        if longest_ns > CLOCK_HIGH_LIMIT_NS:
            for n in range(len(self.data_pins)):
                self._resettle(n)
            return [stretched(longest_ns) if r else NO_DATA for r in ready]
        for n, raw in raws.items():
            words[n] = self._judge(n, raw)
        return words

    def _wait(self, timeout_ns: int) -> list[bool]:
        """Poll until every live pad is ready (any pad when none is live) or the time is up."""
        gpio, pins = self.gpio, self.data_pins
        poll_s = self.period_ns / POLL_PERIODS / 1e9
        # The next word cannot be ready much sooner than a period after the last read began:
        # waiting half a period keeps a pad stuck low from making the reader spin.
        earliest = self._last_start + self.period_ns // 2
        now = self._timer()
        if now < earliest:
            self._sleep((earliest - now) / 1e9)
        deadline = self._timer() + timeout_ns
        while True:
            ready = [gpio.input(pin) == gpio.LOW for pin in pins]
            waited = [r for r, live in zip(ready, self._live, strict=True) if live]
            if (all(waited) if waited else any(ready)) or self._timer() >= deadline:
                return ready
            self._sleep(poll_s)

    def _shift(self, pads: list[int]) -> tuple[dict[int, int], int]:
        """Clock one word out of the ready pads: their raw words and the longest clock-high time.

        The data pins are read after the clock falls: DOUT changes only on a rising edge, and
        the clock's high time stays two calls long. The clock is first written low, where it
        is (no edge for the chips): after the wait for DOUT the output path runs cold, and
        the first clock-high period took three times the others through rpi-lgpio.
        """
        output, read_pin, timer = self.gpio.output, self.gpio.input, self._timer
        clock, high, low = self.clock_pin, self.gpio.HIGH, self.gpio.LOW
        pins = [self.data_pins[n] for n in pads]
        raws = [0] * len(pins)
        longest = 0
        output(clock, low)
        for pulse in range(self.pulses):
            start = timer()
            output(clock, high)
            output(clock, low)
            took = timer() - start
            if took > longest:
                longest = took
            if pulse < 24:
                for i, pin in enumerate(pins):
                    raws[i] = (raws[i] << 1) | (read_pin(pin) != low)
        return dict(zip(pads, raws, strict=True)), longest

    def _judge(self, n: int, raw: int) -> Word:
        """The word of pad ``n``: settling, a fault, or its signed count."""
        if self._settling[n]:
            self._settling[n] -= 1
            self._last[n] = raw
            return None
        self._repeats[n] = self._repeats[n] + 1 if raw == self._last[n] else 1
        self._last[n] = raw
        reason = word_fault(raw)
        if reason is not None:
            return reason
        if self._repeats[n] >= STUCK_REPEATS:
            return repeated(self._repeats[n])
        return signed(raw)

    def sweep(
        self, now: Callable[[], float] = time.monotonic, timeout_s: float | None = None
    ) -> list[Reading]:
        """Read every pad once as Readings stamped ``now()``; settling pads give none."""
        words = self.read(timeout_s)
        t = now()
        readings = []
        for pin, id_, word in zip(self.data_pins, self.ids, words, strict=True):
            if isinstance(word, int):
                readings.append(Reading(self.seats[pin], SCALE, id_, word, OK, t))
            elif word is not None:
                readings.append(Reading(self.seats[pin], SCALE, id_, None, fault(word), t))
        return readings

    def close(self) -> None:
        """Give the pins back (the chips keep whatever state the pins float to)."""
        self.gpio.cleanup([self.clock_pin, *self.data_pins])

    def __enter__(self) -> HX711Bank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
