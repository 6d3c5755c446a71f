"""The table's buzzer, LEDs and buttons, played by the cue child (:mod:`companion.cues.process`).

The table asks for cues and counts; the child says what it played. A table without cues, or
whose cue child failed, plays nothing and carries on: the count keeps its own time then.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Sequence

from companion.config import TableConfig
from companion.cues.process import (
    Counted,
    CountEnded,
    CueEvent,
    CueProcess,
    CueSettings,
    CuesFailed,
    CuesStarted,
    Held,
    Pressed,
)
from companion.cues.tunes import CueName
from companion.errors import CompanionError
from companion.table.clock import TableClock
from companion.table.count import CountKeeper
from companion.table.happenings import Happenings

log = logging.getLogger(__name__)

START_S = 5.0
"""How long start-up waits to hear whether the cue player opened its pins."""
REFEREE_SEAT = 1
REFEREE_CODE_S = 30.0
"""How long seat 1's held button shows the referee's code on the table page: being at the
table is the authority, as a router's WPS button is (SECURITY.md says what that lets in)."""


class CodeHidden(CompanionError):
    """The referee's code is asked for while no held button shows it (404)."""


def cue_settings(config: TableConfig, simulate: bool) -> CueSettings:
    """How the cue child opens the table's cues: on mock pins for a simulated table."""
    pins = "mock" if simulate else None
    return CueSettings(
        config.pins, len(config.seats), config.cues.pace_s, pin_factory=pins, chip=config.pins.chip
    )


class CuePlayer:
    """The cue child's handle as the table uses it; its events change the table under ``lock``."""

    def __init__(
        self,
        settings: CueSettings | None,
        clock: TableClock,
        lock: threading.RLock,
        keeper: CountKeeper,
        happenings: Happenings,
    ) -> None:
        self.clock = clock
        self._happenings = happenings
        self.ok = False
        self.note = "cues: none; the count is seen and heard on the table page"
        self._lock = lock
        self._keeper = keeper
        self._answered = threading.Event()
        self._started_at = time.monotonic()
        self._code_until = -math.inf
        self._on_mock_pins = settings is not None and settings.pin_factory == "mock"
        self._process = CueProcess(settings, self.heard) if settings is not None else None

    def start(self) -> None:
        """Start the cue child and wait a little to hear whether it could open its pins; a
        child slower than that (a Pi Zero, an emulated Pi) is waited for, not given up: its
        cues come when it answers."""
        if self._process is not None:
            self._started_at = time.monotonic()
            self._process.start()
            if not self._answered.wait(START_S):
                with self._lock:
                    if not self._answered.is_set():
                        self.note = (
                            f"cues: starting (the cue player has not answered in {START_S:g} s; "
                            "the buzzer and lights come when it does)"
                        )
                        log.warning("%s", self.note)

    def close(self) -> None:
        if self._process is not None:
            self._process.close()

    @property
    def referee_code_shown(self) -> bool:
        """Whether the table page shows the referee's code now (real seconds, not game's)."""
        return time.monotonic() < self._code_until

    def cue(self, name: CueName, seats: Sequence[int]) -> None:
        if self._process is not None and self.ok:
            self._process.cue(name, seats)

    def count(self, seat: int, pace_s: float) -> bool:
        """Play a count for ``seat`` at ``pace_s`` table seconds a count; whether it plays."""
        if self._process is None or not self.ok:
            return False
        self._process.count(seat, self.clock.real_s(pace_s), self.clock.real_s(1.0))
        return True

    def cancel(self) -> None:
        if self._process is not None and self.ok:
            self._process.cancel()

    def heard(self, event: CueEvent) -> None:
        """An event from the cue child (on its listening thread)."""
        with self._lock:
            if isinstance(event, CuesStarted):
                self.ok = True
                pins = "mock pins" if self._on_mock_pins else "GPIO"
                self.note = f"cues: buzzer, LEDs and buttons on {pins} ({event.priority})"
                took = time.monotonic() - self._started_at
                if took > START_S:
                    log.info("cues: the cue player answered after %.1f s: %s", took, self.note)
                self._answered.set()
            elif isinstance(event, CuesFailed):
                self.ok = False
                self.note = f"cues: none ({event.reason})"
                self._answered.set()
                log.warning("cues: %s; the game goes on without buzzer and lights", event.reason)
                self._keeper.uncued()
            elif isinstance(event, Counted):
                self._keeper.counted(event.seat, event.n)
            elif isinstance(event, CountEnded) and event.finished:
                self._keeper.cue_ended(event.seat)
            if isinstance(event, Pressed | Held):
                press = "long" if isinstance(event, Held) else "short"
                self._happenings.note("button", self.clock.wall(), seat=event.seat, press=press)
            if isinstance(event, Held) and event.seat == REFEREE_SEAT:
                self._code_until = time.monotonic() + REFEREE_CODE_S
                log.info(
                    "seat %d held its button: the referee's code shows for %g s",
                    event.seat,
                    REFEREE_CODE_S,
                )
            elif isinstance(event, Pressed):
                log.info("seat %d pressed its button", event.seat)
