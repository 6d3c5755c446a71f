"""The short cues as data: which notes, for how long, and when the seat's LED is lit.

A cue is a tuple of :class:`Step`: ``note`` is a note name a passive buzzer plays (an active
buzzer just sounds) or ``None`` for silence, ``lit`` lights the LEDs of the cue's seats.
Pure data, so the patterns can be read and tested without any pin.

>>> [step.note for step in TUNES["winner"]]
['C5', 'E5', 'G5', 'C6', None, None, None, None]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

CueName = Literal["game-start", "your-turn", "weigh-in", "melt-warning", "winner"]

COUNT_NOTE: Final = "A5"
"""A count's short beep (A5, 880 Hz) on a passive buzzer."""
TEN_NOTE: Final = "A4"
"""The long tone on "ten": an octave below the count, so it is heard as the end."""
MID_NOTE: Final = "A4"
"""A passive buzzer plays two octaves either side of this: A2 to A6."""


@dataclass(frozen=True)
class Step:
    """One step of a cue: ``seconds`` long, a note or silence, the seat LEDs lit or not."""

    seconds: float
    note: str | None = None
    lit: bool = False


def _blinks(times: int, note: str | None, on_s: float, off_s: float) -> tuple[Step, ...]:
    return (Step(on_s, note, True), Step(off_s)) * times


TUNES: Final[dict[CueName, tuple[Step, ...]]] = {
    # every seat lit while a rising triad plays: the game is on
    "game-start": (
        Step(0.15, "C5", True),
        Step(0.15, "E5", True),
        Step(0.15, "G5", True),
        Step(0.4, "C6", True),
    ),
    # two beeps and the seat's LED held: whose turn it is
    "your-turn": (Step(0.1, "E5", True), Step(0.1, None, True), Step(0.5, "A5", True)),
    # three quick blinks: set your cap on the pad
    "weigh-in": _blinks(3, "G5", 0.12, 0.12),
    # two low, long notes: a cube is nearly gone
    "melt-warning": _blinks(2, "E4", 0.4, 0.2),
    # a little fanfare with the winner's LED, then the LED blinks on alone
    "winner": (
        Step(0.15, "C5", True),
        Step(0.15, "E5", True),
        Step(0.15, "G5", True),
        Step(0.6, "C6", True),
        *_blinks(2, None, 0.25, 0.25),
    ),
}
