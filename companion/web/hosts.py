"""The names the table answers to, and no other: a defence against DNS rebinding.

A web page a player opens elsewhere could point a name of its own at the table's address and
then read what the table serves, as if it were that page's own site. Such a request carries
the page's name in its ``Host``, so the table serves only the names it is known by: any address
(an IP address cannot be rebound), ``localhost``, the machine's own name and its ``.local``
name (mDNS), the name in its public address, and the names listed in its config
(``[network] names``). Links the table gives out are built from its own address.

>>> names = known_names("http://192.168.1.20:8080/", ["tisch.lan"], hostname="pi.home.arpa")
>>> [answers(h, names) for h in ("192.168.1.20:8080", "[::1]:8080", "pi.local", "TISCH.lan.")]
[True, True, True, True]
>>> answers("evil.example", names), answers("", names)
(False, False)
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from companion.network.addresses import local_name


def known_names(
    public_url: str | None, listed: Iterable[str] = (), hostname: str | None = None
) -> frozenset[str]:
    """The names (not addresses) this table answers to, in lower case."""
    own = (hostname if hostname is not None else socket.gethostname()).lower().rstrip(".")
    names = {"localhost", own}
    names.add((local_name(own) or "").lower())  # the name mDNS announces: the first label's
    if public_url:
        names.add((urlsplit(public_url).hostname or "").lower())
    names.update(name.lower().rstrip(".") for name in listed)
    return frozenset(name for name in names if name)


def answers(host_header: str, names: frozenset[str]) -> bool:
    """Whether a request whose ``Host`` is ``host_header`` is for this table."""
    try:
        host = urlsplit(f"//{host_header}").hostname
    except ValueError:
        return False
    if not host:
        return False
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    host = host.lower().rstrip(".")
    return host in names or host.endswith(".localhost")
