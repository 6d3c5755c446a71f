"""The status as server-sent events: every new snapshot an event, a comment while nothing changes.

Each snapshot is sent whole, with its number as the event id, so a phone that reconnects with
``Last-Event-ID`` gets the latest one it has not seen, not a backlog. While nothing changes a
``: ping`` comment goes out every heartbeat, which keeps proxies and phones from thinking the
connection dead and lets the server notice a client that has gone.

>>> event_text(7, "status", {"game": None})
'id: 7\\nevent: status\\ndata: {"game":null}\\n\\n'
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from companion.web.jsontext import SnapshotText, dumps

log = logging.getLogger(__name__)

HEARTBEAT = ": ping\n\n"


class Subscription(Protocol):
    """One stream client's place in the table's snapshots."""

    def next(self, timeout: float) -> tuple[int, dict[str, Any]] | None: ...

    def close(self) -> None: ...


def event_text(number: int, name: str, data: Any, texts: SnapshotText | None = None) -> str:
    """One event: its id, its name and its data on one line (JSON has no raw newlines)."""
    line = texts.of(data) if texts is not None else dumps(data)
    return f"id: {number}\nevent: {name}\ndata: {line}\n\n"


class EventStream:
    """The body of a stream response, iterated by the server, closed when the client goes.

    A class rather than a generator, so that ``close`` releases the subscription even when the
    server closes the body before it asked for the first chunk. A subscription that gives
    nothing back long before its timeout has been closed (the table is stopping): the stream
    ends, and the phone reconnects.
    """

    def __init__(
        self,
        subscription: Subscription,
        heartbeat_s: float,
        monotonic: Callable[[], float] = time.monotonic,
        texts: SnapshotText | None = None,
    ) -> None:
        self.subscription = subscription
        self.texts = texts
        self.heartbeat_s = heartbeat_s
        self.monotonic = monotonic
        self.closed = False

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        if self.closed:
            raise StopIteration
        began = self.monotonic()
        try:
            got = self.subscription.next(self.heartbeat_s)
            if got is not None:
                return event_text(got[0], "status", got[1], self.texts)
        except Exception:
            log.exception("the status stream failed; the client will reconnect")
            self.close()
            raise StopIteration from None
        if self.monotonic() - began < self.heartbeat_s / 2:
            self.close()
            raise StopIteration
        return HEARTBEAT

    def close(self) -> None:
        """Release the subscription (once); the server calls this when the client has gone."""
        if not self.closed:
            self.closed = True
            self.subscription.close()
