"""The table's snapshots, numbered, for every stream client to wait on.

The service publishes a new snapshot (the public status) whenever anything changes; a client
waits for one newer than the last it saw. Snapshots are whole, so a client that comes back
with ``Last-Event-ID`` needs only the latest one, and a slow client skips the ones it missed
instead of holding them in memory.

>>> hub = Hub()
>>> hub.publish({"n": 1})
1
>>> hub.subscribe(None).next(0.0)
(1, {'n': 1})
>>> hub.subscribe(1).next(0.0) is None
True
"""

from __future__ import annotations

import threading
from typing import Any


class Hub:
    """The latest snapshot and its number; wakes every waiting client on a new one."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._id = 0
        self._snapshot: dict[str, Any] | None = None
        self._closed = False

    @property
    def snapshot(self) -> dict[str, Any]:
        """The latest snapshot (empty before the first), read without the lock: it is replaced
        whole, never changed."""
        return self._snapshot or {}

    @property
    def latest(self) -> tuple[int, dict[str, Any] | None]:
        with self._changed:
            return self._id, self._snapshot

    def publish(self, snapshot: dict[str, Any]) -> int:
        """Make ``snapshot`` the latest; its event id."""
        with self._changed:
            self._id += 1
            self._snapshot = snapshot
            self._changed.notify_all()
            return self._id

    def subscribe(self, last_event_id: int | None) -> Subscription:
        """A client that has seen up to ``last_event_id`` (``None``: nothing yet)."""
        return Subscription(self, last_event_id or 0)

    def close(self) -> None:
        """Wake every client for good: the service is stopping."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _wait_newer(self, place: Subscription, timeout: float) -> tuple[int, dict[str, Any]] | None:
        with self._changed:
            self._changed.wait_for(
                lambda: (
                    self._closed
                    or place._ended
                    or (self._id != place._seen and self._snapshot is not None)
                ),
                timeout,
            )
            if self._closed or place._ended or self._id == place._seen or self._snapshot is None:
                return None
            return self._id, self._snapshot

    def _end(self, place: Subscription) -> None:
        with self._changed:
            place._ended = True
            self._changed.notify_all()


class Subscription:
    """One stream client's place: :meth:`next` gives each snapshot newer than the last."""

    def __init__(self, hub: Hub, seen: int) -> None:
        self._hub = hub
        self._seen = seen
        self._ended = False

    @property
    def closed(self) -> bool:
        return self._hub._closed or self._ended

    def next(self, timeout: float) -> tuple[int, dict[str, Any]] | None:
        """The next snapshot, or ``None`` after ``timeout`` seconds (time for a heartbeat)."""
        found = self._hub._wait_newer(self, timeout)
        if found is not None:
            self._seen = found[0]
        return found

    def end(self) -> None:
        """End this client's wait at once, and every later one: its stream is to be closed
        (another stream took its place). Safe from any thread."""
        self._hub._end(self)

    def close(self) -> None:
        """Nothing to release: a subscription holds no more than its place."""
