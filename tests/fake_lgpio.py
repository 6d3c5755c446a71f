"""A fake ``lgpio``, the module below rpi-lgpio's ``RPi.GPIO``, over gpiochips whose lines are
wired to bit-level chips.

It has what rpi-lgpio calls on a bit-banging reader's paths (open and close a chip, claim a line
as an input with its pull or as an output with its level, free it, read, write, a line's mode, a
chip's size), answering as lgpio 0.2 does (``lgGpio.c`` and ``lgpio.py``):

- a handle carries its chip's number from bit 16 up; every call masks it off;
- a mode is the kernel's line flags in the low byte (1 in use, 2 output, 32/64/128 the bias)
  and lgpio's claim above (256 input, 512 output), the claim only for the handle that holds it;
- claiming a line already claimed the same way does nothing; another handle's line is busy;
- reading a line this handle never claimed claims it as an input; writing one claims it as an
  output; freeing one it never claimed is not allowed;
- errors are lgpio's negative codes, raised as ``lgpio.error`` with lgpio's text while
  ``exceptions`` is true (its default, and what rpi-lgpio expects), returned otherwise.

Anything else rpi-lgpio could call (alerts, PWM) is missing, so a reader that needs it fails.

A :class:`Gpiochip` is a header: one clock line wired to every chip's clock input and one data
line per chip; an input line with nothing on it reads its pull, or noise without one. Its time
is ``timer`` (nanoseconds): the real ``perf_counter_ns``, or a ``FakeClock`` a test moves.
:func:`rpi_gpio` imports the real ``RPi.GPIO`` afresh over a fake lgpio.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final, Protocol

from chip_libraries import folder

from companion.sensors.hx711 import load_gpio

OKAY: Final = 0
BAD_HANDLE: Final = -5
NOT_PERMITTED: Final = -7
BAD_GPIO_NUMBER: Final = -73
CANNOT_OPEN_CHIP: Final = -78
GPIO_BUSY: Final = -79
GPIO_NOT_ALLOCATED: Final = -80
UNEXPECTED_ERROR: Final = -85
BAD_GPIOCHIP: Final = -89
ERROR_TEXT: Final = {
    OKAY: "No error",
    BAD_HANDLE: "unknown handle",
    NOT_PERMITTED: "GPIO operation not permitted",
    BAD_GPIO_NUMBER: "bad GPIO number",
    CANNOT_OPEN_CHIP: "can not open gpiochip",
    GPIO_BUSY: "GPIO busy",
    GPIO_NOT_ALLOCATED: "GPIO not allocated",
    UNEXPECTED_ERROR: "unexpected error",
    BAD_GPIOCHIP: "bad gpiochip",
}
"""lgpio's texts (``lgErr.c``) for the codes these calls can give."""

SET_ACTIVE_LOW: Final = 4
SET_OPEN_DRAIN: Final = 8
SET_OPEN_SOURCE: Final = 16
SET_PULL_UP: Final = 32
SET_PULL_DOWN: Final = 64
SET_PULL_NONE: Final = 128
LINE_FLAGS: Final = 0xFC
"""The line flags a claim passes to the kernel, which its mode reports while the line is held."""
KERNEL_IN_USE: Final = 1
KERNEL_OUTPUT: Final = 2
CLAIMED_INPUT: Final = 1
CLAIMED_OUTPUT: Final = 2
"""lgpio's claim of a line, reported in a mode shifted up by 8."""

RPI_5_REVISION: Final = "c04170"
"""The revision code of a Raspberry Pi 5 Model B (4 GB), which rpi-lgpio reads as it loads."""


class Wired(Protocol):
    """A chip on the header: its clock input sees the edges, its data output is read."""

    def rising(self, now: int) -> None: ...

    def falling(self, now: int) -> None: ...

    def dout(self, now: int) -> int: ...


@dataclass
class Line:
    """One line of a gpiochip as the kernel keeps it."""

    output: bool = False
    level: int = 0
    flags: int = 0
    """The line flags of its claim."""
    holder: int | None = None
    """The handle (without its chip bits) that claimed it."""
    claim: int = 0


class Gpiochip:
    """A gpiochip of ``lines`` lines: ``clock_pin`` drives the clock of every chip of ``wired``
    (data pin -> chip). ``stretch`` holds a clock-high period longer, on a ``FakeClock``.

    A real chip's logic costs the host no time; here it does. ``lazy`` (for real time) keeps it
    off the time the reader measures: each clock edge is timed as it is driven, and handed to
    the chips when a line is next read, so not between the reader's two writes that it times
    as one clock-high period. Without it (on a fake clock, where no host time is measured) the
    chips see each edge at once, so a test may change a chip between any two calls.
    """

    def __init__(
        self,
        clock_pin: int,
        wired: Mapping[int, Wired],
        timer: Callable[[], int] = time.perf_counter_ns,
        lines: int = 54,
        label: str = "pinctrl-rp1",
        seed: int = 0,
        lazy: bool = False,
    ) -> None:
        self.clock_pin = clock_pin
        self.wired = dict(wired)
        self.timer = timer
        self.lines = [Line() for _ in range(lines)]
        self.label = label
        self.noise = random.Random(seed)
        self.lazy = lazy
        self.rising_edges = 0
        self._edges: list[tuple[int, int]] = []
        self._stretch_at: int | None = None
        self._stretch_us = 0.0

    def stretch(self, pulse: int, us: float) -> None:
        """Hold the clock high ``us`` longer on the ``pulse``-th rising edge from now (1: next).

        The timer must be a ``FakeClock``: it is moved while the clock is high, as if the
        reader's process had been paused there.
        """
        self._stretch_at = self.rising_edges + pulse
        self._stretch_us = us

    def claimed(self) -> dict[int, tuple[str, int]]:
        """The lines held now: ``"in"`` or ``"out"``, and the flags they were claimed with."""
        return {
            gpio: ("out" if line.output else "in", line.flags)
            for gpio, line in enumerate(self.lines)
            if line.holder is not None
        }

    def drive(self, gpio: int, level: int) -> None:
        """Set an output line; an edge on the clock line reaches every chip, timed now."""
        line = self.lines[gpio]
        before = line.level
        line.level = level
        if gpio != self.clock_pin or level == before:
            return
        self._edges.append((level, self.timer()))
        if not self.lazy:
            self._catch_up()
        if level:
            self.rising_edges += 1
            if self.rising_edges == self._stretch_at:
                self.timer.advance_us(self._stretch_us)  # type: ignore[attr-defined]
                self._stretch_at = None

    def _catch_up(self) -> None:
        """Hand the chips the clock's edges so far, in order, each at the time it was driven."""
        for level, now in self._edges:
            for chip in self.wired.values():
                (chip.rising if level else chip.falling)(now)
        self._edges.clear()

    def sense(self, gpio: int) -> int:
        """The level on a line: what it drives, its chip's data output, or its pull."""
        line = self.lines[gpio]
        if line.output:
            return line.level
        self._catch_up()
        chip = self.wired.get(gpio)
        if chip is not None:
            return chip.dout(self.timer())
        if line.flags & SET_PULL_UP:
            return 1
        if line.flags & SET_PULL_DOWN:
            return 0
        return self.noise.getrandbits(1)


class error(Exception):
    """lgpio's exception: its value is lgpio's text for the error."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value

    def __str__(self) -> str:
        return repr(self.value)


class FakeLgpio(ModuleType):
    """The ``lgpio`` module over ``chips`` (gpiochip number -> chip); no other chip exists."""

    error = error
    OKAY = OKAY
    BAD_HANDLE = BAD_HANDLE
    NOT_PERMITTED = NOT_PERMITTED
    BAD_GPIO_NUMBER = BAD_GPIO_NUMBER
    CANNOT_OPEN_CHIP = CANNOT_OPEN_CHIP
    GPIO_BUSY = GPIO_BUSY
    GPIO_NOT_ALLOCATED = GPIO_NOT_ALLOCATED
    BAD_GPIOCHIP = BAD_GPIOCHIP
    LOW = 0
    HIGH = 1
    SET_ACTIVE_LOW = SET_ACTIVE_LOW
    SET_OPEN_DRAIN = SET_OPEN_DRAIN
    SET_OPEN_SOURCE = SET_OPEN_SOURCE
    SET_PULL_UP = SET_PULL_UP
    SET_PULL_DOWN = SET_PULL_DOWN
    SET_PULL_NONE = SET_PULL_NONE

    def __init__(self, chips: Mapping[int, Gpiochip]) -> None:
        super().__init__("lgpio", __doc__)
        self.chips = dict(chips)
        self.exceptions = True
        self._opened: dict[int, int] = {}
        """Open handles (without their chip bits) and the chip each opened."""
        self._next_handle = 0

    def _answer(self, status: int) -> int:
        if status < 0 and self.exceptions:
            raise error(self.error_text(status))
        return status

    def _chip(self, handle: int) -> Gpiochip | None:
        number = self._opened.get(handle & 0xFFFF)
        return None if number is None else self.chips[number]

    def _checked(self, handle: int, gpio: int) -> Gpiochip | int:
        """The chip ``handle`` opened, with ``gpio`` on it, or lgpio's status refusing them."""
        chip = self._chip(handle)
        if chip is None:
            return BAD_HANDLE
        return chip if 0 <= gpio < len(chip.lines) else BAD_GPIO_NUMBER

    def error_text(self, errnum: int) -> str:
        return ERROR_TEXT.get(errnum, "unknown error")

    def gpiochip_open(self, gpiochip: int) -> int:
        if gpiochip < 0:
            return self._answer(BAD_GPIOCHIP)
        if gpiochip not in self.chips:
            return self._answer(CANNOT_OPEN_CHIP)
        handle = self._next_handle
        self._next_handle += 1
        self._opened[handle] = gpiochip
        return handle | (gpiochip << 16)

    def gpiochip_close(self, handle: int) -> int:
        chip = self._chip(handle)
        if chip is None:
            return self._answer(BAD_HANDLE)
        for line in chip.lines:
            if line.holder == handle & 0xFFFF:
                self._release(line)
        del self._opened[handle & 0xFFFF]
        return OKAY

    def gpio_get_chip_info(self, handle: int) -> list[Any]:
        chip = self._chip(handle)
        if chip is None:
            return [self._answer(BAD_HANDLE), 0, "", ""]
        return [OKAY, len(chip.lines), f"gpiochip{handle >> 16}", chip.label]

    def gpio_get_mode(self, handle: int, gpio: int) -> int:
        chip = self._checked(handle, gpio)
        if isinstance(chip, int):
            return self._answer(chip)
        line = chip.lines[gpio]
        kernel = KERNEL_OUTPUT if line.output else 0
        if line.holder is not None:
            kernel |= KERNEL_IN_USE | (line.flags & LINE_FLAGS)
        return kernel | (line.claim << 8 if line.holder == handle & 0xFFFF else 0)

    def gpio_claim_input(self, handle: int, gpio: int, lFlags: int = 0) -> int:
        return self._answer(self._claim(handle, gpio, lFlags, None))

    def gpio_claim_output(
        self,
        handle: int,
        gpio: int,
        level: int = 0,
        lFlags: int = 0,
    ) -> int:
        return self._answer(self._claim(handle, gpio, lFlags, level))

    def gpio_free(self, handle: int, gpio: int) -> int:
        chip = self._checked(handle, gpio)
        if isinstance(chip, int):
            return self._answer(chip)
        line = chip.lines[gpio]
        if line.holder != handle & 0xFFFF:
            return self._answer(GPIO_NOT_ALLOCATED)
        self._release(line)
        return OKAY

    def gpio_read(self, handle: int, gpio: int) -> int:
        chip = self._checked(handle, gpio)
        if isinstance(chip, int):
            return self._answer(chip)
        if chip.lines[gpio].holder != handle & 0xFFFF and self._claim(handle, gpio, 0, None):
            return self._answer(GPIO_NOT_ALLOCATED)
        return chip.sense(gpio)

    def gpio_write(self, handle: int, gpio: int, level: int) -> int:
        chip = self._checked(handle, gpio)
        if isinstance(chip, int):
            return self._answer(chip)
        line = chip.lines[gpio]
        if line.holder == handle & 0xFFFF and line.claim == CLAIMED_OUTPUT:
            chip.drive(gpio, 1 if level else 0)
            return OKAY
        return self._answer(self._claim(handle, gpio, 0, level))

    def _claim(self, handle: int, gpio: int, flags: int, level: int | None) -> int:
        """Claim a line as an input (``level`` None) or an output: lgpio's status."""
        chip = self._chip(handle)
        if chip is None:
            return BAD_HANDLE
        holder = handle & 0xFFFF
        claim = CLAIMED_INPUT if level is None else CLAIMED_OUTPUT
        if gpio < 0 or gpio > len(chip.lines):
            return NOT_PERMITTED
        if gpio == len(chip.lines):
            return UNEXPECTED_ERROR  # lgpio lets it through, and the kernel refuses it
        line = chip.lines[gpio]
        if line.holder == holder:
            if line.claim == claim:
                return OKAY
            self._release(line)
        elif line.holder is not None:
            return GPIO_BUSY
        line.holder, line.claim, line.flags = holder, claim, flags
        line.output = level is not None
        if level is not None:
            chip.drive(gpio, 1 if level else 0)
        return OKAY

    @staticmethod
    def _release(line: Line) -> None:
        line.holder, line.claim, line.flags = None, 0, 0


@contextmanager
def _importable(lgpio: FakeLgpio, revision: str) -> Iterator[None]:
    """rpi-lgpio importable anew over ``lgpio`` on a Pi of ``revision``; all as it was after."""
    names = ("lgpio", "RPi", "RPi.GPIO")
    saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    saved_revision = os.environ.get("RPI_LGPIO_REVISION")
    place = str(folder())
    sys.modules["lgpio"] = lgpio
    sys.path.insert(0, place)
    os.environ["RPI_LGPIO_REVISION"] = revision
    try:
        yield
    finally:
        sys.path.remove(place)
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
        if saved_revision is None:
            os.environ.pop("RPI_LGPIO_REVISION", None)
        else:
            os.environ["RPI_LGPIO_REVISION"] = saved_revision


def rpi_gpio(lgpio: FakeLgpio, revision: str = RPI_5_REVISION) -> ModuleType:
    """rpi-lgpio's ``RPi.GPIO`` over ``lgpio``, loaded as the reader loads it, and afresh: its
    own module, whose ``_chip`` and ``_mode`` no other test has touched."""
    with _importable(lgpio, revision):
        gpio: ModuleType = load_gpio("RPi.GPIO")
    return gpio
