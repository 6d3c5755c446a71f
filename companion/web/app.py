"""The Flask app of the table: the JSON API and the phone pages over a running table service.

``create_app`` builds one app per service (Flask's app factory), so tests build as many as they
like. Every API answer is JSON (the stream excepted), carries no CORS header (the phones load the
pages from this same server) and tells the browser not to sniff, cache or pass on a referrer.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, Response, request

from companion.network.hotspot import Hotspot
from companion.table.service import TableService
from companion.web import (
    calibration,  # noqa: F401  (its routes join the API's)
    errors,
    pages,
    static_files,
)
from companion.web.api import API, Serving
from companion.web.errors import ApiError, cut
from companion.web.hosts import answers, known_names
from companion.web.jsontext import JsonText
from companion.web.stream import STREAMS, Streams

MAX_BODY_BYTES = 16384
MAX_EXPORT_BYTES = 262144
"""The largest export ``/api/verify`` takes: a long game of four seats is about 130 KB."""
HEARTBEAT_S = 15.0

API_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
}
EVERY_HEADER = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def create_app(
    service: TableService,
    *,
    max_body_bytes: int = MAX_BODY_BYTES,
    max_export_bytes: int = MAX_EXPORT_BYTES,
    heartbeat_s: float = HEARTBEAT_S,
    public_url: str | None = None,
    streams: int = STREAMS,
    hotspot: Hotspot | None = None,
    names: Iterable[str] = (),
) -> Flask:
    """The app answering for ``service``; bodies over ``max_body_bytes`` are refused (413),
    an export to check over ``max_export_bytes``.
    ``public_url`` is where phones reach the table, for join links asked for on the loopback.
    At most ``streams`` status streams are open at once: fewer than the server's workers.
    ``hotspot`` is the table's own Wi-Fi network, when it made one. It answers only to the names
    it is known by (:mod:`.hosts`): any address, its own names, and ``names`` from its config."""
    app = Flask(__name__, static_folder=None)
    app.url_map.merge_slashes = False  # "//api//status" is a 404 in JSON, not an HTML redirect
    app.static_folder = "static"  # its route added now, so it does not merge slashes either
    app.add_url_rule("/static/<path:filename>", "static", static_files.send)
    app.json = JsonText(app)
    app.config["MAX_CONTENT_LENGTH"] = max_body_bytes
    app.extensions["companion"] = Serving(
        service, heartbeat_s, public_url, hotspot, max_export_bytes, Streams(streams)
    )
    app.register_blueprint(API)
    app.register_blueprint(pages.blueprint(lambda: service.read_only, hotspot is not None))
    app.register_error_handler(Exception, errors.handle)
    app.after_request(_headers)
    known = known_names(public_url, names)

    @app.before_request
    def _for_this_table() -> None:
        host = request.headers.get("Host", "")
        if not answers(host, known):
            where = f": open it at {public_url}" if public_url else ""
            raise ApiError(
                421,
                "unknown-host",
                f"This table answers to its own addresses and names, not to "
                f"{cut(host, 60)!r}{where}.",
            )

    return app


def _headers(response: Response) -> Response:
    response.headers.update(EVERY_HEADER)
    if request.path.startswith("/api/"):
        response.headers.update(API_HEADERS)
    return response
