"""Mock pins for the cue tests: the cue part of a pin map, and devices opened on a MockFactory."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cues.devices import CueDevices


@dataclass(frozen=True)
class CuePinMap:
    """The cue part of a pin map, as the table config holds it (BCM numbers), for 4 seats."""

    buzzer: int = 18
    buzzer_kind: str = "tonal"
    seat_leds: tuple[int, ...] = (17, 27, 22, 23)
    led_bar: tuple[int, ...] = (5, 6, 13, 19, 26, 12, 16, 20, 21, 7)
    seat_buttons: tuple[int, ...] = (24, 25, 8, 9)


@contextmanager
def mock_factory() -> Iterator[MockFactory]:
    """Mock pins that can do PWM, released afterwards."""
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield factory
    finally:
        factory.reset()


@contextmanager
def opened(factory: MockFactory, pin_map: CuePinMap | None = None) -> Iterator[CueDevices]:
    """A 4-seat table's devices with every pin's record cleared; closed afterwards."""
    devices = CueDevices.from_pins(pin_map or CuePinMap(), 4, factory)
    for pin in factory.pins.values():
        pin.clear_states()
    try:
        yield devices
    finally:
        devices.close()


START = 1000.0
"""Where a fake clock starts: not 0, so a time mistaken for an offset shows."""


class FakeClock:
    """Time that moves only when the count waits (or a test says so), never by itself.

    With ``hold_at`` set, the wait that would pass that time blocks on the real cancel event
    instead, so a test can cancel a count in the middle from its own thread.
    """

    def __init__(self, hold_at: float | None = None) -> None:
        self.now = START
        self.hold_at = hold_at
        self.held = threading.Event()

    def __call__(self) -> float:
        return self.now

    def wait(self, event: threading.Event, seconds: float) -> bool:
        if self.hold_at is not None and self.now + seconds >= self.hold_at:
            self.held.set()
            return event.wait(30.0)
        if not event.is_set():
            self.now += seconds
        return event.is_set()
