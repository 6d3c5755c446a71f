"""Ten-count timing: how late each count sounds against its ideal time while other threads are busy.

Count ``n`` of a count started at ``t0`` should sound at ``t0 + (n - 1) * pace``; the error is how
far it lands from that. The value is the p99 of those errors, in ms, for the player as shipped:
the cue process (``companion.cues.process``), on mock pins, while ``BUSY_THREADS`` Python
threads of the daemon's process encode and decode JSON the whole time, as the web server and
the estimator would. The goal is at most 2 ms.

The baseline is gpiozero's own ``Buzzer.beep(on_time, off_time, n=10)`` under the same load: its
blink thread sleeps a relative time after each write, so its errors pile up count by count. The
same player on a thread of the busy process is measured too: it keeps no drift, but waits for
the GIL (5 ms switch interval) behind the busy threads, which is why the cues run apart.
"""

from __future__ import annotations

import json
import queue
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from gpiozero import Buzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bench.report import BenchFailure, Result, p99, sig
from companion.cues.devices import CueDevices
from companion.cues.process import (
    Counted,
    CountEnded,
    CueEvent,
    CueProcess,
    CueSettings,
    CuesStarted,
)
from companion.cues.ten_count import COUNTS, TenCount

PACE_S = 0.1
QUICK_PACE_S = 0.05
RUNS = 5
QUICK_RUNS = 1
BUSY_THREADS = 3
GOAL_MS = 2.0
BUZZER = 18
BASELINE = "gpiozero beep(n=10)"
SHIPPED = "cue process"


class StampedPin(MockPWMPin):
    """A mock pin that keeps the monotonic time of every state it goes to."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        super().__init__(factory, info)
        self.stamps: list[tuple[float, float]] = []

    def _change_state(self, value: float) -> bool:
        changed = super()._change_state(value)
        if changed:
            self.stamps.append((time.monotonic(), float(value)))
        return changed

    def rising_edges(self) -> list[float]:
        """When the pin went from off to on, oldest first."""
        edges, last = [], 0.0
        for t, value in self.stamps:
            if value > 0 and last == 0:
                edges.append(t)
            last = value
        return edges


@dataclass(frozen=True)
class _Pins:
    buzzer: int = BUZZER
    buzzer_kind: str = "tonal"
    seat_leds: tuple[int, ...] = (17,)
    led_bar: tuple[int, ...] = (5, 6, 13, 19, 26, 12, 16, 20, 21, 7)
    seat_buttons: tuple[int, ...] = (24,)


@contextmanager
def busy(threads: int) -> Iterator[None]:
    """``threads`` threads doing pure-Python work (JSON round trips) until the block ends."""
    stop = threading.Event()
    doc = {"seats": [{"seat": i, "grams": 5.5, "sigma_g": 0.1, "air_c": 21.5} for i in range(8)]}

    def work() -> None:
        while not stop.is_set():
            json.loads(json.dumps(doc))

    workers = [threading.Thread(target=work, daemon=True) for _ in range(threads)]
    for w in workers:
        w.start()
    try:
        yield
    finally:
        stop.set()
        for w in workers:
            w.join()


def errors(edges: list[float], t0: float, pace: float, what: str) -> list[float]:
    """Each count's error in ms against ``t0 + i * pace``; ten edges or the bench fails."""
    if len(edges) != COUNTS:
        raise BenchFailure(f"ten-count: {what} gave {len(edges)} beeps, not {COUNTS}")
    return [abs(edge - (t0 + i * pace)) * 1000 for i, edge in enumerate(edges)]


def player_run(pace: float) -> list[float]:
    """One ten-count on stamped mock pins; its errors in ms."""
    factory = MockFactory(pin_class=StampedPin)
    devices = CueDevices.from_pins(_Pins(), 1, factory)
    try:
        player = TenCount(devices, pace, ten_s=pace / 2)
        done = threading.Event()
        t0 = time.monotonic()
        player.start(1, on_done=lambda finished: done.set())
        if not done.wait(60.0) or not player.join(60.0):
            raise BenchFailure("ten-count: the count did not finish")
        pin = factory.pin(BUZZER)
        assert isinstance(pin, StampedPin)
        return errors(pin.rising_edges(), t0, pace, "the player")
    finally:
        devices.close()


def beep_run(pace: float) -> list[float]:
    """gpiozero's ``Buzzer.beep(n=10)`` at the same pace; its errors in ms."""
    factory = MockFactory(pin_class=StampedPin)
    buzzer = Buzzer(BUZZER, pin_factory=factory)
    try:
        t0 = time.monotonic()
        buzzer.beep(on_time=min(0.08, pace / 4), off_time=pace - min(0.08, pace / 4), n=COUNTS)
        thread = buzzer._blink_thread
        if thread is not None:
            thread.join(60.0)
        pin = factory.pin(BUZZER)
        assert isinstance(pin, StampedPin)
        return errors(pin.rising_edges(), t0, pace, "gpiozero's beep")
    finally:
        buzzer.close()


def measure(runs: int, make: Callable[[], list[float]], load: int = BUSY_THREADS) -> list[float]:
    """``runs`` runs of ``make`` with ``load`` busy threads, pooled."""
    pooled: list[float] = []
    with busy(load):
        for _ in range(runs):
            pooled += make()
    return pooled


def summary(errs: list[float]) -> dict[str, float]:
    """p99, max and median error, and the mean error of the tenth count, in ms."""
    return {
        "p99_ms": sig(p99(errs)),
        "max_ms": sig(max(errs)),
        "median_ms": sig(statistics.median(errs)),
        "tenth_count_ms": sig(statistics.mean(errs[COUNTS - 1 :: COUNTS])),
    }


def process_runs(runs: int, pace: float) -> list[float]:
    """``runs`` counts by the cue process while this process is busy; errors in ms."""
    events: queue.Queue[CueEvent] = queue.Queue()
    settings = CueSettings(_Pins(), seats=1, pace_s=pace, ten_s=pace / 2, pin_factory="mock")
    pooled: list[float] = []
    with CueProcess(settings, events.put) as cues:
        if not isinstance(events.get(timeout=60.0), CuesStarted):
            raise BenchFailure("ten-count: the cue process did not start")
        with busy(BUSY_THREADS):
            for _ in range(runs):
                cues.count(1)
                counts = []
                while not isinstance(event := events.get(timeout=60.0), CountEnded):
                    if isinstance(event, Counted):
                        counts.append(abs(event.late_s) * 1000)
                if not event.finished or len(counts) != COUNTS:
                    raise BenchFailure(f"ten-count: the cue process gave {len(counts)} counts")
                pooled += counts
    return pooled


def run(quick: bool = False) -> Result:
    """Measure gpiozero's beep and the player, as shipped and on a busy thread."""
    pace = QUICK_PACE_S if quick else PACE_S
    runs = QUICK_RUNS if quick else RUNS
    table = {
        BASELINE: summary(measure(runs, lambda: beep_run(pace))),
        SHIPPED: summary(process_runs(runs, pace)),
        "player on a thread of the busy process": summary(measure(runs, lambda: player_run(pace))),
        "player on a thread, no busy threads": summary(
            measure(runs, lambda: player_run(pace), load=0)
        ),
    }
    return Result(
        name="ten-count timing",
        value=table[SHIPPED]["p99_ms"],
        unit="ms",
        baseline=table[BASELINE]["p99_ms"],
        goal=GOAL_MS,
        better="lower",
        note=(
            f"p99 error of {runs * COUNTS} counts at {pace:g} s a count, {BUSY_THREADS} busy "
            "threads: " + "; ".join(f"{name} {v['p99_ms']:g} ms" for name, v in table.items())
        ),
        extra={"pace_s": pace, "counts": runs * COUNTS, "variants": table},
    )
