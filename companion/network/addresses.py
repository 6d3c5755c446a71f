"""Where the phones reach the table: its address on the network, and its name there.

Raspberry Pi OS answers multicast DNS (avahi), as macOS and most Linux desktops do, so a phone on
the same network also finds the table at ``<hostname>.local``: a name that stays when the router
hands the table another address.
"""

from __future__ import annotations

import re
import socket

DEFAULT_PORT = 8080
"""Where ``companion run`` listens, and so the service (its unit gives no ``--port``)."""
LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
"""A host name's first part as DNS takes it, which is what mDNS announces."""


def lan_address() -> str:
    """The address other devices on the LAN reach this one at (no packet is sent to learn it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def local_name(hostname: str | None = None) -> str | None:
    """This machine's name on the network, ``<hostname>.local`` (``hostname``: this machine's
    own), or ``None`` for a host name mDNS cannot announce (``localhost``, an empty one).

    >>> [local_name(h) for h in ("tisch", "tisch.local", "tisch.example.org", "localhost")]
    ['tisch.local', 'tisch.local', 'tisch.local', None]
    """
    given = socket.gethostname() if hostname is None else hostname
    label = given.strip().split(".")[0]
    if not LABEL.fullmatch(label) or label.lower() == "localhost":
        return None
    return f"{label}.local"


def local_url(port: int, hostname: str | None = None) -> str | None:
    """The table's page by this machine's name on the network, when it has one.

    >>> local_url(8080, "tisch")
    'http://tisch.local:8080/'
    """
    name = local_name(hostname)
    return None if name is None else f"http://{name}:{port}/"
