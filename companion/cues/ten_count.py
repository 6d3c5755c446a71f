"""The ten-count player: "one ice cube" ... "ten ice cubes" on the buzzer, the bar and a seat LED.

Each count is a short beep, one more bar LED and a blink of the attacked seat's LED; "ten" is a
long, lower tone. Every step is due at an absolute time, ``start + offset`` on a monotonic
clock, never "a pace after the last one": time spent by a step (the callbacks, the pin writes,
a late wake-up) does not push the later ones back, so ten counts take ten paces. A step that is
late runs at once, and the next is due on the original grid again.

The count runs on its own thread, which touches only the outputs and the callbacks, never a
sensor. :meth:`TenCount.cancel` wakes it at once; whether cancelled or finished, it ends with
the buzzer silent and every light off, then calls ``on_done(finished)``.

Only one count runs at a time, and starting another meanwhile raises :class:`CountRunning`
rather than cutting the first short: by the rules one attack is counted out at a time, so a
second start is a double press or a fault in the caller, and the players timing their squeeze
by the running count must not lose it. A caller that means to restart cancels first.

>>> [(b.at, b.what, b.n) for b in plan(0.8)[:4]]
[(0.0, 'count', 1), (0.08, 'quiet', 1), (0.4, 'dim', 1), (0.8, 'count', 2)]
>>> [(round(b.at, 2), b.what) for b in plan(0.8)[-2:]]
[(7.2, 'ten'), (8.2, 'end')]
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from companion.cues.stage import Stage
from companion.cues.tunes import COUNT_NOTE, TEN_NOTE
from companion.errors import CompanionError

if TYPE_CHECKING:  # the daemon reads the count's plan and pace without gpiozero
    from gpiozero import LED

    from companion.cues.devices import CueDevices

COUNTS: Final = 10
DEFAULT_PACE_S: Final = 0.8
"""Seconds a count by default (the rules' ruling 10; the table config may change it)."""
BEEP_S: Final = 0.08
"""A count's beep; shortened to a quarter of the pace when the pace is very quick."""
TEN_S: Final = 1.0
"""The long tone on "ten"."""

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Wait = Callable[[threading.Event, float], bool]
"""Wait up to ``seconds`` for ``event``; whether it was set (``Event.wait``'s contract)."""


class CountRunning(CompanionError):
    """A ten-count was started while another still runs."""


@dataclass(frozen=True)
class Beat:
    """One timed step of a count: ``what`` happens ``at`` seconds after the start, for count ``n``.

    ``count`` beeps, lights bar LED ``n`` and the seat LED; ``quiet`` ends the beep; ``dim``
    puts the seat LED out; ``ten`` starts the long tone; ``end`` puts everything out.
    """

    at: float
    what: Literal["count", "quiet", "dim", "ten", "end"]
    n: int


def plan(pace: float, ten_s: float = TEN_S, counts: int = COUNTS) -> tuple[Beat, ...]:
    """Every step of a count to ``counts`` at ``pace`` seconds a count, in time order; the last
    count is the long tone."""
    if not pace > 0 or not ten_s > 0 or counts < 1:
        raise ValueError(f"the pace and the long tone must be positive, not {pace} and {ten_s}")
    beep_s = min(BEEP_S, pace / 4)
    beats: list[Beat] = []
    for n in range(1, counts):
        at = (n - 1) * pace
        beats += [Beat(at, "count", n), Beat(at + beep_s, "quiet", n)]
        beats.append(Beat(at + pace / 2, "dim", n))
    last = (counts - 1) * pace
    return (*beats, Beat(last, "ten", counts), Beat(last + ten_s, "end", counts))


def _event_wait(event: threading.Event, seconds: float) -> bool:
    return event.wait(seconds)


class TenCount:
    """Counts to ten for an attacked seat on its own thread; see the module's description.

    ``clock`` and ``wait`` are injectable so tests run a count on a fake clock, instantly.
    """

    def __init__(
        self,
        devices: CueDevices,
        pace: float = DEFAULT_PACE_S,
        *,
        ten_s: float = TEN_S,
        stage: Stage | None = None,
        clock: Clock = time.monotonic,
        wait: Wait = _event_wait,
    ) -> None:
        self.devices = devices
        self.beats = plan(pace, ten_s)
        self.pace = pace
        self.ten_s = ten_s
        self.stage = stage or Stage()
        self._clock = clock
        self._wait = wait
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._active = False
        self._cancel = threading.Event()
        self.started_at: float | None = None
        """The clock's time the running (or last) count started: step offsets count from it."""

    @property
    def running(self) -> bool:
        """Whether a count is under way (its ``on_done`` may still be running)."""
        return self._active

    def start(
        self,
        seat: int,
        on_count: Callable[[int], object] | None = None,
        on_done: Callable[[bool], object] | None = None,
    ) -> None:
        """Start counting for ``seat``; returns at once.

        ``on_count(n)`` is called as count ``n`` sounds, ``on_done(finished)`` once at the end
        (``False`` when cancelled). Both run on the count's thread: keep them short (a queue
        put), or the next count sounds late. Raises :class:`CountRunning` if a count runs.
        """
        led = self.devices.seat_led(seat)
        with self._lock:
            if self.running:
                raise CountRunning("a ten-count is already running: cancel it before starting one")
            self.stage.take()
            self._active = True
            self._cancel = threading.Event()
            self.started_at = self._clock()
            self._thread = threading.Thread(
                target=self._run,
                args=(self.started_at, led, self._cancel, on_count, on_done),
                name=f"ten-count seat {seat}",
                daemon=True,
            )
            self._thread.start()

    def cancel(self) -> bool:
        """Stop the running count, lights and buzzer off; whether one was running.

        Returns once the count has ended (at once: its thread waits on the cancel event). Called
        from a callback on the count's own thread, it returns without waiting for the end.
        """
        with self._lock:
            thread = self._thread
            if not self._active or thread is None:
                return False
            self._cancel.set()
        if thread is not threading.current_thread():
            thread.join()
        return True

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the last count to end, its ``on_done`` included; whether it has."""
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return not self._active
        thread.join(timeout)
        return not thread.is_alive()

    def _until(self, deadline: float, cancel: threading.Event) -> bool:
        """Wait for ``deadline`` on the clock; ``False`` when cancelled first."""
        while (left := deadline - self._clock()) > 0:
            if self._wait(cancel, left):
                return False
        return not cancel.is_set()

    def _run(
        self,
        start: float,
        led: LED,
        cancel: threading.Event,
        on_count: Callable[[int], object] | None,
        on_done: Callable[[bool], object] | None,
    ) -> None:
        devices = self.devices
        finished = False
        try:
            devices.all_off()
            for beat in self.beats:
                if not self._until(start + beat.at, cancel):
                    break
                if beat.what in ("count", "ten"):
                    devices.sound(COUNT_NOTE if beat.what == "count" else TEN_NOTE)
                    devices.bar[beat.n - 1].on()
                    led.on()
                    _call(on_count, beat.n)
                elif beat.what == "quiet":
                    devices.silence()
                elif beat.what == "dim":
                    led.off()
            else:
                finished = True
        finally:
            devices.all_off()
            self.stage.give_back()
            with self._lock:
                self._active = False
            _call(on_done, finished)


def _call(callback: Callable[[Any], object] | None, arg: int | bool) -> None:
    """Run a caller's callback; its failure is logged, and the count goes on regardless."""
    if callback is None:
        return
    try:
        callback(arg)
    except Exception:
        log.exception("a ten-count callback failed")
