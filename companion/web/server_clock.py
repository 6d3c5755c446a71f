"""Waitress's idle connections timed on the monotonic clock, not the wall's.

Waitress dates each connection's last activity, and its next sweep for idle ones, with
``time.time()``. A Pi has no real-time clock, and its wall clock steps when a network sets it:
stepped back an hour, no idle connection was closed for that hour (each one keeping a place
under the connection limit, where idle sockets can lock the table); stepped on a day, every
idle keep-alive connection was dropped at once. Waitress reads the clock through its modules'
``time``; :func:`monotonic_connections` gives its connection and server modules one whose
``time()`` is ``time.monotonic()`` (the rest of it is the ``time`` module itself). The ``Date``
header, a label, keeps the wall clock: it is read elsewhere (``waitress.task``).

>>> monotonic_connections()
>>> from waitress import channel, server
>>> channel.time.time is server.time.time is time.monotonic, server.time.sleep is time.sleep
(True, True)
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

from waitress import channel, server


class _MonotonicTime:
    """The ``time`` module, but for ``time()``: monotonic seconds."""

    time = staticmethod(time.monotonic)

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


MONOTONIC_TIME = _MonotonicTime()
TIMED: tuple[ModuleType, ...] = (channel, server)
"""Waitress's modules that time connections: each reads only ``time.time()``."""


def monotonic_connections() -> None:
    """Time waitress's idle connections and their sweeps on the monotonic clock (at once for
    every server of the process; doing it again changes nothing)."""
    for module in TIMED:
        vars(module)["time"] = MONOTONIC_TIME
