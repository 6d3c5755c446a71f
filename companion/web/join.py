"""The seats' join links and their QR codes: what the referee's page shows each player to scan.

A link carries the seat's one-time claim in its fragment (``/seat#claim=<claim>``), which a
browser never sends to a server, so a link preview that fetches the page claims nothing; the
seat's page posts it to ``/api/claim``. It leads to where a phone reaches the table, which is
not the table's own loopback.
"""

from __future__ import annotations

import io
from typing import Any

import segno


def seat_link(entry: dict[str, Any], base: str) -> dict[str, Any]:
    """A seat of the referee's list (see :func:`companion.table.seat_keys.links`) as the web
    gives it: its link and QR code while its claim is open, neither once a phone holds it.

    >>> seat_link({"seat": 1, "joined": True, "claim": None}, "http://t")
    {'seat': 1, 'joined': True}
    >>> seat_link({"seat": 1, "joined": False, "claim": "c"}, "http://t")["url"]
    'http://t/seat#claim=c'
    """
    shown = {k: v for k, v in entry.items() if k != "claim"}
    if entry["claim"] is None:
        return shown
    url = f"{base}/seat#claim={entry['claim']}"
    return {**shown, "url": url, "svg": qr_svg(url)}


def join_base(host_url: str, public_url: str | None) -> str:
    """Where a phone reaches the table, without a trailing slash: the table's own address,
    never the request's ``Host`` (which a page elsewhere may have chosen: :mod:`.hosts`); the
    request's only for an app given no address of its own (a test's).

    >>> join_base("http://tisch.lan:8080/", "http://192.168.1.20:8080/")
    'http://192.168.1.20:8080'
    >>> join_base("http://[::1]:8080/", None)
    'http://[::1]:8080'
    """
    return (public_url or host_url).rstrip("/")


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG: sized by a viewBox (CSS sets the size), dark modules
    on a white quiet zone, readable from a phone held over the referee's screen."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        omitsize=True,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        nl=False,
    )
    return out.getvalue().decode("utf-8")


def qr_text(url: str) -> str:
    """The QR code of ``url`` for a terminal: two rows of modules a line in half blocks, light
    modules drawn (a terminal's text is light on dark), with a quiet zone of two modules."""
    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()
