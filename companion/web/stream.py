"""The status as server-sent events: every new snapshot an event, a beat while nothing changes.

Each snapshot is sent whole, with its number as the event id, so a phone that reconnects with
``Last-Event-ID`` gets the latest one it has not seen, not a backlog. While nothing changes a
``beat`` event (with no id) goes out every heartbeat, which keeps proxies and phones from
thinking the connection dead, lets the server notice a client that has gone, and lets a page
tell a live stream from one its Wi-Fi dropped without a word (it hears no beat).

A stream holds one of the server's worker threads for as long as it is open, so the open
streams are kept in :class:`Streams`: at most one per device (a page names itself with
``?device=``, and its new stream ends its old one) and at most a cap in all (the oldest ends
first), well below the workers, so the rest always answer the API. A stream also ends as soon
as its client has hung up, and when what it was sent a heartbeat ago has still not been
received (a phone gone from the Wi-Fi, or one that stopped reading): see :class:`Client`.

>>> event_text(7, "status", {"game": None})
'id: 7\\nevent: status\\ndata: {"game":null}\\n\\n'
"""

from __future__ import annotations

import logging
import re
import struct
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from companion.web.jsontext import SnapshotText, dumps

try:
    import fcntl
    import termios
except ImportError:  # pragma: no cover - not Linux: waitress's own buffers only
    termios = None  # type: ignore[assignment]
TIOCOUTQ: int = getattr(termios, "TIOCOUTQ", 0)
"""SIOCOUTQ on Linux: the bytes a socket has sent but not had acknowledged (0: not known)."""

log = logging.getLogger(__name__)

HEARTBEAT = "event: beat\ndata: \n\n"
STREAMS = 16
"""Open streams at most, all devices together: half of ``companion run``'s 32 workers."""
CHECK_S = 1.0
"""How often a waiting stream looks whether its client has hung up or its place was taken."""
DEVICE = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""A page's name for itself: anything else counts as no name."""
UNSENT_SLACK = 4096
"""Bytes a reading client may still have in flight beyond what it was sent since the last
check (the response's head and the chunks' framing)."""


class Subscription(Protocol):
    """One stream client's place in the table's snapshots."""

    def next(self, timeout: float) -> tuple[int, dict[str, Any]] | None: ...

    def close(self) -> None: ...


class Client(Protocol):
    """The connection a stream is written to, as far as the server lets the stream see it."""

    def gone(self) -> bool:
        """The client has hung up."""
        ...

    def unsent(self) -> int:
        """Bytes written to the client that it has not received yet."""
        ...

    def hang_up(self) -> None:
        """Close the connection once the stream has ended (safe from a worker thread)."""
        ...


class WaitressClient:
    """A stream's connection under waitress: its channel, found through the
    ``waitress.client_disconnected`` callable waitress puts in every request's environ.

    Bytes not received are those in waitress's output buffers plus those in the kernel's send
    queue (``SIOCOUTQ``: sent but not acknowledged). A client that reads, even over a poor
    Wi-Fi, acknowledges within a heartbeat everything sent before it; a phone gone without a
    word acknowledges nothing, and one that stops reading stops once its own buffer is full.
    """

    def __init__(self, channel: Any) -> None:
        self.channel = channel

    @classmethod
    def of(cls, environ: Mapping[str, Any]) -> WaitressClient | None:
        channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
        if channel is None or not hasattr(channel, "total_outbufs_len"):
            return None
        return cls(channel)

    def gone(self) -> bool:
        return not self.channel.connected

    def unsent(self) -> int:
        unsent = int(self.channel.total_outbufs_len)
        if not TIOCOUTQ:
            return unsent
        try:
            queued = fcntl.ioctl(self.channel.socket.fileno(), TIOCOUTQ, b"\0" * 4)
            unsent += int(struct.unpack("i", queued)[0])
        except (OSError, ValueError, AttributeError, TypeError):
            pass
        return unsent

    def hang_up(self) -> None:
        self.channel.will_close = True  # what waitress's own idle timeout does
        self.channel.server.pull_trigger()


class Streams:
    """The open streams, oldest first: one per device, ``cap`` in all.

    A new stream ends the open one of its device (a phone that woke and opened a new one while
    its old one was never closed) and, when ``cap`` are open, the oldest: an ended stream's
    worker is free at once, and a live page opens its stream again by itself.
    """

    def __init__(self, cap: int = STREAMS) -> None:
        if cap < 1:
            raise ValueError("at least one stream must be allowed")
        self.cap = cap
        self._lock = threading.Lock()
        self._open: OrderedDict[object, tuple[str | None, Subscription, Client | None]] = (
            OrderedDict()
        )

    def __len__(self) -> int:
        with self._lock:
            return len(self._open)

    def admit(
        self, device: str | None, subscription: Subscription, client: Client | None = None
    ) -> Subscription:
        """``subscription`` as an open stream (its ``close`` lets it go); the streams it ends
        have been told to end before this returns. Past the cap, a stream whose ``client``
        has bytes it has not received (a phone gone from the Wi-Fi) ends before the oldest."""
        device = device if device is not None and DEVICE.fullmatch(device) else None
        key = object()
        with self._lock:
            ending = [k for k, (named, _, _) in self._open.items() if device and named == device]
            over = len(self._open) - len(ending) + 1 - self.cap
            if over > 0:
                others = [k for k in self._open if k not in ending]
                others.sort(key=lambda k: not _behind(self._open[k][2]))  # stable: oldest first
                ending += others[:over]
            ended = [self._open.pop(k)[1] for k in ending]
            self._open[key] = (device, subscription, client)
        for old in ended:
            end = getattr(old, "end", None)
            if end is not None:
                end()
        return _Admitted(self, key, subscription)

    def _release(self, key: object) -> None:
        with self._lock:
            self._open.pop(key, None)


def _behind(client: Client | None) -> bool:
    """Whether ``client`` has not received all it was sent (or has gone)."""
    try:
        return client is not None and (client.gone() or client.unsent() > 0)
    except Exception:  # a connection closing meanwhile: not one to prefer
        return False


class _Admitted:
    """A subscription counted among the open streams until it is closed."""

    def __init__(self, streams: Streams, key: object, subscription: Subscription) -> None:
        self._streams = streams
        self._key = key
        self._subscription = subscription

    def next(self, timeout: float) -> tuple[int, dict[str, Any]] | None:
        return self._subscription.next(timeout)

    def close(self) -> None:
        self._streams._release(self._key)
        self._subscription.close()


def event_text(number: int, name: str, data: Any, texts: SnapshotText | None = None) -> str:
    """One event: its id, its name and its data on one line (JSON has no raw newlines)."""
    line = texts.of(data) if texts is not None else dumps(data)
    return f"id: {number}\nevent: {name}\ndata: {line}\n\n"


class EventStream:
    """The body of a stream response, iterated by the server, closed when the client goes.

    A class rather than a generator, so that ``close`` releases the subscription even when the
    server closes the body before it asked for the first chunk. A subscription that gives
    nothing back long before its timeout has been closed (the table is stopping, or another
    stream took this one's place): the stream ends, and the phone reconnects. With a
    ``client`` it waits ``CHECK_S`` at a time and ends when the client has hung up, or when
    what it was sent before the last check, a heartbeat ago, has still not been received.
    """

    def __init__(
        self,
        subscription: Subscription,
        heartbeat_s: float,
        monotonic: Callable[[], float] = time.monotonic,
        texts: SnapshotText | None = None,
        client: Client | None = None,
    ) -> None:
        self.subscription = subscription
        self.texts = texts
        self.heartbeat_s = heartbeat_s
        self.monotonic = monotonic
        self.client = client
        self.closed = False
        self.sent = 0
        self._checked_at = monotonic()
        self._sent_then = 0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        if self.closed:
            raise StopIteration
        chunk = self._next()
        if chunk is None:
            self.close()
            raise StopIteration
        self.sent += len(chunk.encode()) + 16  # with the chunk's framing
        return chunk

    def _next(self) -> str | None:
        began = self.monotonic()
        step = self.heartbeat_s if self.client is None else min(CHECK_S, self.heartbeat_s)
        while True:
            if not self._client_keeps_up():
                return None
            asked = self.monotonic()
            left = began + self.heartbeat_s - asked
            try:
                got = self.subscription.next(
                    step if self.client is None else min(step, max(left, 0.0))
                )
                if got is not None:
                    return event_text(got[0], "status", got[1], self.texts)
            except Exception:
                log.exception("the status stream failed; the client will reconnect")
                return None
            now = self.monotonic()
            if now - asked < step / 2 and left > step / 2:
                return None
            if now - began >= self.heartbeat_s or self.client is None:
                return HEARTBEAT

    def _client_keeps_up(self) -> bool:
        """Whether the client is still there and receiving what it is sent."""
        if self.client is None:
            return True
        if self.client.gone():
            return False
        now = self.monotonic()
        if now - self._checked_at < self.heartbeat_s:
            return True
        unsent = self.client.unsent()
        keeps_up = unsent <= self.sent - self._sent_then + UNSENT_SLACK
        self._checked_at, self._sent_then = now, self.sent
        return keeps_up

    def close(self) -> None:
        """Release the subscription (once); the server calls this when the client has gone."""
        if not self.closed:
            self.closed = True
            self.subscription.close()
            if self.client is not None:
                self.client.hang_up()
