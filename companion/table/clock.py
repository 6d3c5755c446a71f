"""The service's clock: monotonic seconds, run faster on a simulated table.

Everything the service times (sensor sweeps, the estimator, a ten-count's pace) reads one
:class:`TableClock`, so ``companion run --simulate --speed 60`` plays an hour of melting in a
minute, and the game's timers keep step with it.

>>> clock = TableClock(speed=60.0, monotonic=iter([100.0, 101.0]).__next__)
>>> clock.now()
60.0
>>> clock.real_s(60.0)
1.0
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TableClock:
    """Table seconds since the service started: real seconds times ``speed``."""

    def __init__(self, speed: float = 1.0, monotonic: Callable[[], float] = time.monotonic) -> None:
        if not speed > 0:
            raise ValueError(f"the speed must be positive, not {speed}")
        self.speed = speed
        self._monotonic = monotonic
        self._origin = monotonic()

    def now(self) -> float:
        """Table seconds since the start."""
        return (self._monotonic() - self._origin) * self.speed

    def real_s(self, table_s: float) -> float:
        """How many real seconds ``table_s`` table seconds take."""
        return table_s / self.speed

    def wall(self) -> float:
        """The wall clock (Unix seconds), for what people read: never scaled."""
        return time.time()
