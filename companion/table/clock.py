"""The service's clock: monotonic seconds, run faster on a simulated table.

Everything the service times (sensor sweeps, refreshes, the estimator, a ten-count's pace) reads
one :class:`TableClock`, so ``companion run --simulate --speed 60`` plays an hour of melting in a
minute, and the game's timers keep step with it. Its :meth:`~TableClock.now` is monotonic: a Pi
has no real-time clock, so its wall clock starts wherever it was last saved and steps when a
network sets it, and an interval timed with it would stall or rush. The wall clock only labels
what people read and what is stored (a status's ``time``, a curve's start, an action's time).

>>> clock = TableClock(speed=60.0, monotonic=iter([100.0, 101.0]).__next__, wall=lambda: 5.0)
>>> clock.now()
60.0
>>> clock.real_s(60.0)
1.0
>>> clock.wall()
5.0
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TableClock:
    """Table seconds since the service started: real seconds times ``speed``."""

    def __init__(
        self,
        speed: float = 1.0,
        monotonic: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        if not speed > 0:
            raise ValueError(f"the speed must be positive, not {speed}")
        self.speed = speed
        self._monotonic = monotonic
        self._wall = wall
        self._origin = monotonic()

    def now(self) -> float:
        """Table seconds since the start."""
        return (self._monotonic() - self._origin) * self.speed

    def real_s(self, table_s: float) -> float:
        """How many real seconds ``table_s`` table seconds take."""
        return table_s / self.speed

    def wall(self) -> float:
        """The wall clock (Unix seconds), for what people read and what is stored: never
        scaled, and never used to time an interval (it may step either way)."""
        return self._wall()
