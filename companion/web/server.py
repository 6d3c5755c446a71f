"""The HTTP server under the app: waitress, whose own refusals are answered as the API's are.

Waitress refuses some requests itself, before the app sees them: one it cannot parse (a broken
request line or header, a ``Content-Length`` that is not a number, broken chunking), headers
over its limit, a declared body over its limit, and a ``Transfer-Encoding`` other than
``chunked``. It answers those in plain text, and the last with 501; :func:`create` makes it
answer each as the app answers a refusal: JSON of the one error shape, a 4xx status (400, 413
or 431) and the headers every API answer carries. A failure of the app that reaches waitress
(none should) is a 503, as the app answers one, never a 500.
"""

from __future__ import annotations

import json
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask

from companion.web.app import API_HEADERS, EVERY_HEADER
from companion.web.errors import TABLE_FAILED, error_body

DETAIL_CHARACTERS = 120
"""How much of waitress's own words on a malformed request an answer quotes."""


def refusal(code: int, detail: str, adj: Any) -> tuple[int, str, str]:
    """The status, code and sentence that answer one of waitress's refusals.

    >>> from waitress.adjustments import Adjustments
    >>> refusal(501, "Transfer-Encoding requested is not supported.", Adjustments())[:2]
    (400, 'bad-request')
    """
    if code == 413:
        return (
            413,
            "too-large",
            f"The request is larger than the {adj.max_request_body_size} bytes the table reads.",
        )
    if code == 431:
        return (
            431,
            "headers-too-large",
            f"The request's headers are larger than the {adj.max_request_header_size} bytes"
            " the table reads.",
        )
    if code == 501:
        return (
            400,
            "bad-request",
            "The table takes a body with a Content-Length, or chunked: not this Transfer-Encoding.",
        )
    if 400 <= code < 500:
        said = " ".join(detail.split()).rstrip(".")[:DETAIL_CHARACTERS]
        return 400, "bad-request", f"The request is not HTTP the table can read: {said}."
    return 503, "table-error", TABLE_FAILED


class JsonErrorTask(ErrorTask):
    """Waitress's answer to a request it refused, in the API's shape."""

    def execute(self) -> None:
        error = self.request.error
        status, code, message = refusal(error.code, str(error.body), self.channel.server.adj)
        body = json.dumps(error_body(code, message)).encode("utf-8")
        self.status = f"{status} {_REASONS.get(status, 'Error')}"
        self.response_headers.extend(
            [("Content-Type", "application/json"), *EVERY_HEADER.items(), *API_HEADERS.items()]
        )
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


_REASONS = {
    400: "Bad Request",
    413: "Content Too Large",
    431: "Request Header Fields Too Large",
    503: "Service Unavailable",
}


class JsonErrorChannel(HTTPChannel):
    """A connection whose refusals are :class:`JsonErrorTask`'s, and whose loop waits while
    its request's thread sends."""

    error_task_class = JsonErrorTask

    def writable(self) -> bool:
        """Not while a request's thread holds the output to send it itself: it wakes the loop
        when it leaves something unsent. Waitress would say yes, and its loop would spin in
        ``select`` through every send (about 100 turns a request, two thirds of a status
        request's CPU) whenever it also reads on during a request, as the table's does."""
        if self.requests and not self.outbuf_lock.acquire(False):
            return False
        if self.requests:
            self.outbuf_lock.release()
        return bool(super().writable())


def create(app: Any, **adjustments: Any) -> Any:
    """Waitress's server for ``app`` (``create_server`` with these adjustments), every
    listening socket's connections answering refusals in JSON."""
    server = create_server(app, **adjustments)
    for listener in [server, *getattr(server, "map", {}).values()]:
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = JsonErrorChannel
    return server
