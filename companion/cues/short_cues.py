"""The short cues (game start, your turn, weigh-in, melt warning, winner), on their own thread.

Callers never block: :meth:`ShortCues.play` queues the cue and returns. The cue thread plays the
queue in order through the :class:`~companion.cues.stage.Stage`, which gives a ten-count
priority. A cue queued while a count runs waits for the count's end, then plays: a turn or a
weigh-in request is still news eight seconds later, and dropping it would leave a player
unasked. A cue that is playing when a count starts is cut off at once and not replayed (it
was partly heard, and the count's own lights would mix with it).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence
from functools import partial
from typing import Final

from companion.cues.devices import CueDevices
from companion.cues.stage import Stage
from companion.cues.tunes import TUNES, CueName, Step

_STOP: Final = None
log = logging.getLogger(__name__)


class ShortCues:
    """A queue of short cues and the thread that plays them.

    ``time_scale`` multiplies every step's length (tests play the cues quickly with it).
    """

    def __init__(self, devices: CueDevices, stage: Stage, *, time_scale: float = 1.0) -> None:
        self.devices = devices
        self.stage = stage
        self.time_scale = time_scale
        self._queue: queue.Queue[tuple[CueName, tuple[int, ...]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="short cues", daemon=True)
        self._thread.start()

    def play(self, name: CueName, seats: Sequence[int]) -> None:
        """Queue cue ``name`` lighting the LEDs of ``seats``; ``ValueError`` for a stranger."""
        if name not in TUNES:
            raise ValueError(f"no cue called {name!r}: one of {', '.join(TUNES)}")
        for seat in seats:
            self.devices.seat_led(seat)
        self._queue.put((name, tuple(seats)))

    def game_start(self) -> None:
        """Every seat's LED with a rising triad."""
        self.play("game-start", range(1, len(self.devices.seat_leds) + 1))

    def your_turn(self, seat: int) -> None:
        """Two beeps with ``seat``'s LED."""
        self.play("your-turn", (seat,))

    def weigh_in(self, seat: int) -> None:
        """Three quick blinks of ``seat``'s LED: set the cap on the pad."""
        self.play("weigh-in", (seat,))

    def melt_warning(self, seat: int) -> None:
        """Two low notes with ``seat``'s LED: its cube is nearly gone."""
        self.play("melt-warning", (seat,))

    def winner(self, seat: int) -> None:
        """A fanfare with the winner's LED, which then blinks."""
        self.play("winner", (seat,))

    def drain(self) -> None:
        """Block until every queued cue has played (or been dropped)."""
        self._queue.join()

    def close(self) -> None:
        """Stop the thread after the cue that plays now is cut off; queued cues are dropped."""
        self.stage.close()
        self._queue.put(_STOP)
        self._thread.join()

    def _run(self) -> None:
        while (item := self._queue.get()) is not _STOP:
            try:
                name, seats = item
                self._play(TUNES[name], seats)
            except Exception:  # a broken pin must not silence every later cue
                log.exception("the %s cue failed", item[0])
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def _play(self, cue: tuple[Step, ...], seats: tuple[int, ...]) -> None:
        """Play one cue step by step, giving way the moment a count starts."""
        devices = self.devices

        def write(step: Step) -> None:
            devices.light(seats, step.lit)
            if step.note is None:
                devices.silence()
            else:
                devices.sound(step.note)

        first, *rest = cue
        while (turn := self.stage.cue_begin(lambda: write(first))) is None:
            if not self.stage.wait_free():  # a count runs: wait for its end, unless closing
                return
        held = first
        for step in (*rest, Step(0.0)):  # the last, empty step puts the cue out
            if self.stage.cue_pause(held.seconds * self.time_scale, turn):
                return
            if not self.stage.cue_step(partial(write, step), turn):
                return
            held = step
