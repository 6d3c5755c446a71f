"""All the table asks of its cues, as one object: devices, ten-count, short cues, buttons.

The running service builds one :class:`CueBoard` from the table's pin map and closes it when it
stops. The ten-count and the short cues share the outputs through one
:class:`~companion.cues.stage.Stage`, so a count always has them at once.
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero.pins import Factory

from companion.cues.devices import CueDevices
from companion.cues.pins import CuePins
from companion.cues.short_cues import ShortCues
from companion.cues.stage import Stage
from companion.cues.ten_count import DEFAULT_PACE_S, TEN_S, TenCount


class CueBoard:
    """The devices of ``seats`` seats with a ten-count player and a short-cue player."""

    def __init__(
        self, devices: CueDevices, pace: float = DEFAULT_PACE_S, ten_s: float = TEN_S
    ) -> None:
        self.devices = devices
        self.stage = Stage()
        self.ten_count = TenCount(devices, pace, ten_s=ten_s, stage=self.stage)
        self.cues = ShortCues(devices, self.stage)

    @classmethod
    def from_pins(
        cls,
        pins: CuePins,
        seats: int,
        pace: float = DEFAULT_PACE_S,
        pin_factory: Factory | None = None,
        ten_s: float = TEN_S,
    ) -> CueBoard:
        """Open the devices on ``pins`` (gpiozero chooses the factory when it is ``None``)."""
        return cls(CueDevices.from_pins(pins, seats, pin_factory), pace, ten_s)

    def on_press(self, seat: int, callback: Callable[[int], object] | None) -> None:
        """Call ``callback(seat)`` when ``seat``'s button is pressed."""
        self.devices.on_press(seat, callback)

    def on_hold(self, seat: int, callback: Callable[[int], object]) -> None:
        """Call ``callback(seat)`` when ``seat``'s button is held down."""
        self.devices.on_hold(seat, callback)

    def close(self) -> None:
        """Cancel a running count, stop the cues, everything off, release the pins."""
        self.ten_count.cancel()
        self.cues.close()
        self.devices.close()
