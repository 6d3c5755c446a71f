"""What waitress does not bound by itself: how long a request may take to arrive, and who gets
the last free connections.

Waitress reads requests on its own loop and hands only whole ones to its workers, so a
half-sent request costs a connection, not a worker; but a client that trickles a header line
now and then is never idle long enough for ``channel_timeout``, and ``connection_limit`` such
clients (or as many idle sockets) make the server stop accepting anyone. :func:`guard` adds to
the server's own periodic clean-up (every ``cleanup_interval``):

- a request still arriving ``request_s`` after its first byte is dropped;
- when fewer than ``spare`` connections are left before the limit, the connections that are
  doing nothing for anyone (no request being answered: idle, half-sent, or left with output a
  client will not read) are closed, the longest silent first, until ``2 * spare`` are free.

Connections being answered (a stream, a request at a worker) are left alone: the streams
bound themselves (:mod:`companion.web.stream`).
"""

from __future__ import annotations

import logging
import time
from typing import Any

log = logging.getLogger(__name__)

REQUEST_S = 10.0
"""A request must have arrived whole this long after its first byte (a phone's takes
milliseconds, a poor Wi-Fi's a second or two)."""
SPARE = 20


def guard(server: Any, request_s: float = REQUEST_S, spare: int = SPARE) -> bool:
    """Add the bounds to ``server`` (waitress's ``create_server``); ``False`` when it is not a
    server this knows (several listening sockets), which then runs with waitress's own."""
    maintenance = getattr(server, "maintenance", None)
    if maintenance is None or not hasattr(server, "active_channels"):
        log.warning("the connection guard does not know this server; waitress's limits only")
        return False
    arriving: dict[int, tuple[object, float]] = {}

    def guarded(now: float) -> None:
        maintenance(now)
        trim(server, arriving, time.monotonic(), request_s, spare)

    server.maintenance = guarded
    return True


def trim(
    server: Any,
    arriving: dict[int, tuple[object, float]],
    now: float,
    request_s: float,
    spare: int,
) -> None:
    """One pass of the bounds over the server's connections, on its own loop."""
    channels = list(server.active_channels.values())
    closing = sum(1 for channel in channels if channel.will_close)
    doing_nothing = []
    seen = set()
    for channel in channels:
        if channel.will_close or channel.requests:
            continue
        partial = channel.request
        if partial is not None:
            key = id(channel)
            seen.add(key)
            first = arriving.get(key)
            if first is None or first[0] is not partial:
                arriving[key] = (partial, now)
            elif now - first[1] > request_s:
                channel.will_close = True
                closing += 1
                continue
        doing_nothing.append(channel)
    for key in set(arriving) - seen:
        del arriving[key]
    limit = server.adj.connection_limit
    if len(channels) - closing <= limit - spare:
        return
    doing_nothing.sort(key=lambda channel: channel.last_activity)
    for channel in doing_nothing[: len(channels) - closing - (limit - 2 * spare)]:
        channel.will_close = True
