"""The cue pins of the table's pin map: what the cues need of it, without gpiozero.

The daemon hands the cue child its pins as :class:`CuePinNumbers`, plain numbers that pickle
without the table's config, and it needs no gpiozero to do so: only the child opens pins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class CuePins(Protocol):
    """The part of the table's pin map the cues use (BCM numbers)."""

    @property
    def buzzer(self) -> int: ...
    @property
    def buzzer_kind(self) -> str: ...
    @property
    def seat_leds(self) -> tuple[int, ...]: ...
    @property
    def led_bar(self) -> tuple[int, ...]: ...
    @property
    def seat_buttons(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class CuePinNumbers:
    """The cue pins alone, as plain numbers.

    >>> from companion.config import Pins
    >>> CuePinNumbers.of(Pins()).seat_leds
    (9, 25, 11, 8)
    """

    buzzer: int
    buzzer_kind: str
    seat_leds: tuple[int, ...]
    led_bar: tuple[int, ...]
    seat_buttons: tuple[int, ...]

    @classmethod
    def of(cls, pins: CuePins) -> CuePinNumbers:
        return cls(
            pins.buzzer,
            pins.buzzer_kind,
            tuple(pins.seat_leds),
            tuple(pins.led_bar),
            tuple(pins.seat_buttons),
        )
