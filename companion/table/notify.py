"""Telling systemd how the service is doing: the sd_notify protocol in a few lines.

Under ``Type=notify`` systemd passes a socket in ``NOTIFY_SOCKET``; the service sends it one
datagram of ``KEY=value`` lines per message: ``READY=1`` once it serves, ``WATCHDOG=1`` at least
every half ``WatchdogSec`` from the loop that must not hang, ``STATUS=...`` for ``systemctl
status``, ``STOPPING=1`` on the way out. A name starting with ``@`` is an abstract socket (a
leading NUL byte). Outside systemd there is no socket and every call does nothing; a send that
fails is logged once and never raised, since the table matters more than its supervisor.

>>> Notifier(None).ready()
False
>>> watchdog_interval({"WATCHDOG_USEC": "30000000"})
15.0
"""

from __future__ import annotations

import enum
import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class _Source(enum.Enum):
    ENVIRONMENT = "NOTIFY_SOCKET"


FROM_ENVIRONMENT = _Source.ENVIRONMENT
"""The default socket: ``NOTIFY_SOCKET`` as it is when the notifier is made."""


class Notifier:
    """Sends state changes to systemd's notify socket; a no-op without one, never raises."""

    def __init__(self, socket_path: str | _Source | None = FROM_ENVIRONMENT) -> None:
        if socket_path is FROM_ENVIRONMENT:
            socket_path = os.environ.get(FROM_ENVIRONMENT.value)
        self.socket_path: str | None = socket_path or None
        self._failed = False

    @property
    def enabled(self) -> bool:
        """Whether there is a socket to tell."""
        return self.socket_path is not None

    def ready(self) -> bool:
        """The service has started and serves."""
        return self.send("READY=1")

    def watchdog(self) -> bool:
        """The watched loop is alive."""
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """One line for ``systemctl status`` (line breaks become spaces)."""
        return self.send("STATUS=" + " ".join(text.splitlines()))

    def stopping(self) -> bool:
        """The service is shutting down."""
        return self.send("STOPPING=1")

    def send(self, *assignments: str) -> bool:
        """Send ``KEY=value`` assignments in one datagram; whether it went."""
        if self.socket_path is None:
            return False
        address = self.socket_path
        if address.startswith("@"):
            address = "\0" + address[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto("\n".join(assignments).encode(), address)
        except (OSError, ValueError) as exc:
            if not self._failed:
                self._failed = True
                log.warning("cannot tell systemd at %s: %s", self.socket_path, exc)
            return False
        return True


def watchdog_interval(
    environ: Mapping[str, str] = os.environ, pid: int | None = None
) -> float | None:
    """Seconds between watchdog pings: half of ``WATCHDOG_USEC``, or ``None`` when unwatched.

    ``WATCHDOG_PID``, when set, names the process being watched; any other process (a worker
    that inherited the environment) is not. Half the period is what systemd advises, so one
    late ping does not get the service killed.

    >>> watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
    True
    """
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    watched = environ.get("WATCHDOG_PID")
    if watched is not None and watched.strip() != str(os.getpid() if pid is None else pid):
        return None
    return usec / 2_000_000
