"""The table's gpiozero devices, built from the pin map: buzzer, seat LEDs, LED bar, buttons.

The pin factory is injected (``MockFactory`` in tests); with ``None`` gpiozero picks one
itself and honours ``GPIOZERO_PIN_FACTORY``. The buzzer is either a passive piezo on a PWM
pin (``TonalBuzzer``, which plays notes) or an active one (``Buzzer``, on or off): the rest of
the package only asks it to :meth:`CueDevices.sound` a note or to :meth:`CueDevices.silence`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Literal

from gpiozero import LED, Button, Buzzer, CallbackSetToNone, LEDBarGraph, TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from companion.cues.pins import CuePins
from companion.cues.tunes import MID_NOTE

BuzzerKind = Literal["tonal", "active"]
BUZZER_KINDS: tuple[BuzzerKind, ...] = ("tonal", "active")
BOUNCE_S = 0.05
"""Button debounce: a press closer than this to the last edge is contact bounce."""
HOLD_S = 3.0
"""A button held this long is a hold (seat 1's shows the referee's code, as a router's WPS
button: being at the table is the authority)."""


@dataclass
class CueDevices:
    """The open devices; seat ``n`` is ``seat_leds[n - 1]`` and ``buttons[n - 1]``."""

    buzzer: TonalBuzzer | Buzzer
    seat_leds: tuple[LED, ...]
    bar: LEDBarGraph
    buttons: tuple[Button, ...]
    _closed: bool = field(default=False, repr=False)

    @classmethod
    def from_pins(
        cls,
        pins: CuePins,
        seats: int,
        pin_factory: Factory | None = None,
        hold_s: float = HOLD_S,
    ) -> CueDevices:
        """Open the devices of ``seats`` seats; a ``ValueError`` when the map is short of pins."""
        kind = pins.buzzer_kind
        if kind not in BUZZER_KINDS:
            raise ValueError(f"buzzer_kind must be 'tonal' or 'active', not {kind!r}")
        for name in ("seat_leds", "seat_buttons"):
            if len(getattr(pins, name)) < seats:
                raise ValueError(f"{name} has {len(getattr(pins, name))} pins for {seats} seats")
        with ExitStack() as opened:  # a pin already taken closes what was opened before it
            keep = opened.enter_context
            buzzer: TonalBuzzer | Buzzer = keep(
                TonalBuzzer(pins.buzzer, mid_tone=MID_NOTE, octaves=2, pin_factory=pin_factory)
                if kind == "tonal"
                else Buzzer(pins.buzzer, pin_factory=pin_factory)
            )
            leds = tuple(keep(LED(p, pin_factory=pin_factory)) for p in pins.seat_leds[:seats])
            bar = keep(LEDBarGraph(*pins.led_bar, pin_factory=pin_factory))
            buttons = tuple(
                keep(
                    Button(
                        p,
                        pull_up=True,
                        bounce_time=BOUNCE_S,
                        hold_time=hold_s,
                        pin_factory=pin_factory,
                    )
                )
                for p in pins.seat_buttons[:seats]
            )
            opened.pop_all()
        return cls(buzzer, leds, bar, buttons)

    @property
    def tonal(self) -> bool:
        """Whether the buzzer plays notes (a passive piezo) or only sounds (an active one)."""
        return isinstance(self.buzzer, TonalBuzzer)

    def sound(self, note: str) -> None:
        """Play ``note`` ("A5") on a passive buzzer; switch an active one on."""
        if isinstance(self.buzzer, TonalBuzzer):
            self.buzzer.play(Tone(note))
        else:
            self.buzzer.on()

    def silence(self) -> None:
        """Stop the buzzer."""
        if isinstance(self.buzzer, TonalBuzzer):
            self.buzzer.stop()
        else:
            self.buzzer.off()

    def seat_led(self, seat: int) -> LED:
        """The LED of seat ``seat`` (1-based); ``ValueError`` for a seat the table lacks."""
        if not 1 <= seat <= len(self.seat_leds):
            raise ValueError(f"seat {seat} is not at this table (seats 1-{len(self.seat_leds)})")
        return self.seat_leds[seat - 1]

    def light(self, seats: Sequence[int], on: bool) -> None:
        """Switch the LEDs of ``seats`` on or off."""
        for seat in seats:
            self.seat_led(seat).value = on

    def all_off(self) -> None:
        """Buzzer silent, every seat LED and bar LED off."""
        self.silence()
        for led in self.seat_leds:
            led.off()
        self.bar.off()

    def on_press(self, seat: int, callback: Callable[[int], object] | None) -> None:
        """Call ``callback(seat)`` when the seat's button is pressed (``None`` stops it).

        It runs on gpiozero's event thread: keep it short (hand the press to a queue).
        """
        if not 1 <= seat <= len(self.buttons):
            raise ValueError(f"seat {seat} is not at this table (seats 1-{len(self.buttons)})")
        button = self.buttons[seat - 1]
        if callback is None:
            with warnings.catch_warnings():  # gpiozero warns in case None was a slip
                warnings.simplefilter("ignore", CallbackSetToNone)
                button.when_pressed = None
        else:
            button.when_pressed = lambda: callback(seat)

    def on_hold(self, seat: int, callback: Callable[[int], object]) -> None:
        """Call ``callback(seat)`` when the seat's button has been held down for its hold time
        (once a hold), on gpiozero's event thread."""
        if not 1 <= seat <= len(self.buttons):
            raise ValueError(f"seat {seat} is not at this table (seats 1-{len(self.buttons)})")
        self.buttons[seat - 1].when_held = lambda: callback(seat)

    def close(self) -> None:
        """Switch everything off and release the pins; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        self.all_off()
        for device in (*self.buttons, self.bar, *self.seat_leds, self.buzzer):
            device.close()
