"""The app served by waitress over a real socket, as ``companion run`` serves it: the stream
arrives event by event, a client that hangs up releases its place, and an oversized or chunked
body is refused with a JSON 413."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from apicheck import check
from waitress.server import create_server
from werkzeug.datastructures import Headers

from companion.table.service import TableService
from companion.web import create_app

WAIT_S = 20.0
"""How long a test waits for the server before it fails (it never measures how long it took)."""


class Watched:
    """The table, with a record of the stream places handed out and released."""

    def __init__(self, table: TableService) -> None:
        self.table = table
        self.released = threading.Event()

    def subscribe(self, last_event_id: int | None) -> Any:
        place = self.table.subscribe(last_event_id)
        watched = self

        class Place:
            def next(self, timeout: float) -> Any:
                return place.next(timeout)

            def close(self) -> None:
                place.close()
                watched.released.set()

        return Place()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)


@pytest.fixture
def served(table: TableService) -> Iterator[tuple[Watched, int]]:
    """The app over the watched table, served on a free local port."""
    watched = Watched(table)
    server = create_server(
        create_app(watched, heartbeat_s=0.05), host="127.0.0.1", port=0, threads=4
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield watched, server.effective_port
    server.close()
    thread.join(WAIT_S)


def test_the_stream_comes_event_by_event_and_a_hang_up_releases_the_place(
    served: tuple[Watched, int],
) -> None:
    watched, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: table\r\n\r\n")
        received = b""
        while b": ping\n\n" not in received:
            chunk = sock.recv(65536)
            assert chunk, "the server closed the stream"
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode().split("\r\n")
    headers = Headers([tuple(line.split(": ", 1)) for line in lines])
    check("GET", "/api/stream", int(status_line.split()[1]), headers, None)
    assert int(status_line.split()[1]) == 200
    assert b"id: " in body and b"\nevent: status\ndata: {" in body
    assert watched.released.wait(WAIT_S), "the place of a client that hung up was kept"


def test_a_long_body_and_a_chunked_long_body_are_413_json(served: tuple[Watched, int]) -> None:
    watched, port = served
    token = watched.table.referee_token
    big = json.dumps({"game": "ice-trays", "pad": "x" * 20000}).encode()
    for chunked in (False, True):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        body: Any = iter([big[:5000], big[5000:]]) if chunked else big
        connection.request("POST", "/api/games", body=body, headers=headers, encode_chunked=chunked)
        response = checked("POST", "/api/games", connection)
        assert response.status == 413
        assert json.loads(response.body)["error"]["code"] == "too-large"
        connection.close()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    connection.request("GET", "/api/status")
    assert json.loads(checked("GET", "/api/status", connection).body)["game"] is None
    connection.close()


def checked(method: str, path: str, connection: http.client.HTTPConnection) -> Any:
    """The connection's answer, read and checked against the document; its body as ``body``."""
    response = connection.getresponse()
    response.body = response.read()
    headers = Headers(list(response.getheaders()))
    check(method, path, response.status, headers, response.body)
    return response
