"""The ten-count as the table keeps it: which count it is at, and its end, taken as an action.

A count is timed on :func:`companion.cues.ten_count.plan`, the same plan the cue player plays:
count ``n`` is due at the count's start plus its beat's offset on the table's clock, so a late
wake-up does not push the later counts back and a faster simulated clock is kept. While the cue
player plays the count, its beats say where the count is and its end ends it; without cues, or
once they fail, the keeper's own timer does. One thread a count does both, and when the count's
end cannot be stored (a full disk) it tries again until it can: the count stays shown at ten
meanwhile, and no action of the game is lost or skipped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.cues.ten_count import TEN_S, plan
from companion.games.effects import StartCount
from companion.table.clock import TableClock
from companion.table.status import CountStatus

log = logging.getLogger(__name__)

STORE_RETRY_S = 1.0
"""Real seconds between two tries at storing a count's end while the disk refuses writes."""
CUE_GRACE_S = 2.0
"""Table seconds the keeper waits past a count's end for the cue player to say it ended."""


@dataclass
class Count:
    """A count under way: for ``seat``, at ``n`` of ``of``; ``then`` is taken when it ends."""

    seat: int
    of: int
    pace_s: float
    then: Any
    started_at: float
    n: int = 0
    cued: bool = False
    """Whether the cue player counts it (its beats move ``n``, its end ends it)."""
    heard_end: bool = False

    def status(self) -> CountStatus:
        return CountStatus(self.seat, self.n, self.of, self.pace_s)


class CountKeeper:
    """The table's one count at a time; every method runs under the table's ``lock``.

    ``on_beat()`` is called under the lock when the count moves (the status changed);
    ``on_end(count)`` outside it when the count is over, and says whether its end is stored.
    """

    def __init__(
        self,
        clock: TableClock,
        lock: threading.RLock,
        on_beat: Callable[[], None],
        on_end: Callable[[Count], bool],
    ) -> None:
        self.clock = clock
        self.count: Count | None = None
        self._woken = threading.Condition(lock)
        self._on_beat = on_beat
        self._on_end = on_end
        self._stopped = False

    def start(self, effect: StartCount, cued: bool) -> Count:
        """Start counting ``effect``'s count (ending a count that runs); ``cued`` when the cue
        player plays it."""
        self.cancel()
        count = Count(
            effect.seat, effect.counts, effect.pace_s, effect.then, self.clock.now(), cued=cued
        )
        self.count = count
        threading.Thread(
            target=self._keep, args=(count,), name="ten-count timer", daemon=True
        ).start()
        return count

    def cancel(self) -> Count | None:
        """End the running count without its action; the count it was, if any."""
        count, self.count = self.count, None
        self._woken.notify_all()
        return count

    def counted(self, seat: int, n: int) -> None:
        """The cue player sounded count ``n`` for ``seat``."""
        count = self.count
        if count is not None and count.cued and count.seat == seat:
            count.n = n
            self._on_beat()

    def cue_ended(self, seat: int) -> None:
        """The cue player played ``seat``'s count to its end."""
        count = self.count
        if count is not None and count.cued and count.seat == seat:
            count.heard_end = True
            self._woken.notify_all()

    def uncued(self) -> None:
        """The cue player failed: the keeper's own timer counts from here on."""
        if self.count is not None:
            self.count.cued = False
            self._woken.notify_all()

    def stop(self) -> None:
        """The table stops: every count's thread ends."""
        self._stopped = True
        self._woken.notify_all()

    def _keep(self, count: Count) -> None:
        with self._woken:
            for beat in plan(count.pace_s, TEN_S, count.of):
                if beat.what not in ("count", "ten", "end"):
                    continue
                if not self._wait(count, count.started_at + beat.at):
                    return
                if not count.cued and beat.what != "end":
                    count.n = beat.n
                    self._on_beat()
            if count.cued and not self._wait(count, self.clock.now() + CUE_GRACE_S):
                return
        self._finish(count)

    def _wait(self, count: Count, t: float) -> bool:
        """Wait (the lock released) until the table's time ``t``, or until woken early;
        ``False`` once the count is no longer the running one or the table stops."""
        while self.count is count and not self._stopped:
            left = t - self.clock.now()
            if left <= 0 or (count.cued and count.heard_end):
                return True
            self._woken.wait(self.clock.real_s(left))
        return False

    def _finish(self, count: Count) -> None:
        """Take the count's action until it is stored, then let the count go."""
        retrying = False
        while True:
            with self._woken:
                if self.count is not count or self._stopped:
                    return
            if self._on_end(count):
                break
            if not retrying:
                log.warning("the count's end is not stored yet: trying again")
                retrying = True
            with self._woken:
                self._woken.wait(STORE_RETRY_S)
        with self._woken:
            if self.count is count:
                self.count = None
                self._on_beat()
