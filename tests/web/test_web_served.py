"""The app served by waitress over a real socket, as ``companion run`` serves it: the stream
arrives event by event, a client that hangs up releases its place, and an oversized or chunked
body is refused with a JSON 413."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from apicheck import check, schema_at
from background import in_background
from waitress import wasyncore
from waitress.server import create_server
from werkzeug.datastructures import Headers

from companion.cli import run as run_command
from companion.table.service import TableService
from companion.web import create_app
from companion.web.app import MAX_BODY_BYTES
from companion.web.openapi import document

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
    with in_background(server) as port:
        yield watched, port


def test_the_stream_comes_event_by_event_and_a_hang_up_releases_the_place(
    served: tuple[Watched, int],
) -> None:
    watched, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: localhost\r\n\r\n")
        received = b""
        while b"event: beat\n" not in received:  # a beat: the status came before it
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


@pytest.fixture
def as_run(table: TableService) -> Iterator[int]:
    """The app served as ``companion run`` serves it, with its limits, on a free local port."""
    with in_background(run_command.make_server(create_app(table), "127.0.0.1", 0)) as port:
        yield port


def raw_answer(port: int, request: bytes) -> tuple[int, Headers, bytes]:
    """Send ``request`` as it is and read the answer to the end (the server closes it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    return int(status_line.split()[1]), Headers([tuple(x.split(": ", 1)) for x in lines]), body


POST = b"POST /api/actions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
GET = b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n\r\n"


@pytest.mark.parametrize(
    ("request_bytes", "status", "code", "words"),
    [
        (POST + b"Content-Length: 270000\r\n\r\n{", 413, "too-large", "262144 bytes"),
        (
            # exactly as long as the limit: the server reads it all before it answers, so the
            # answer is not lost to a reset (a server that closes with bytes unread sends one)
            GET.replace(b"\r\n\r\n", b"\r\nX-Pad: " + b"x" * (16384 - len(GET) - 9) + b"\r\n\r\n"),
            431,
            "headers-too-large",
            "16384 bytes",
        ),
        (POST + b"Content-Length: ten\r\n\r\n{}", 400, "bad-request", "Content-Length"),
        (POST + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400, "bad-request", ""),
        (POST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400, "bad-request", ""),
        (POST + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n", 400, "bad-request", ""),
        (
            POST + b"Transfer-Encoding: identity\r\n\r\n{}",
            400,
            "bad-request",
            "not this Transfer-Encoding",
        ),
        (GET.replace(b"\r\n\r\n", b"\r\nBad Header\r\n\r\n"), 400, "bad-request", ""),
        (GET.replace(b"HTTP/1.1", b"HTTP/1.1 extra"), 400, "bad-request", ""),
        (GET.replace(b"\r\n\r\n", b"\r\nX-A\rB: 1\r\n\r\n"), 400, "bad-request", ""),
    ],
)
def test_what_the_server_refuses_itself_is_a_json_4xx_like_the_apis(
    as_run: int, request_bytes: bytes, status: int, code: str, words: str
) -> None:
    got, headers, body = raw_answer(as_run, request_bytes)
    assert got == status, body
    assert headers["Content-Type"] == "application/json"
    error = json.loads(body)
    schema_at("/components/schemas/Error").validate(error)
    assert error["error"]["code"] == code
    assert words in error["error"]["message"]
    assert error["error"]["message"].endswith(".")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Cache-Control"] == "no-store"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert not any(h.lower().startswith("access-control-") for h in headers.keys())  # noqa: SIM118
    said = document()["info"]["description"]
    assert f"{got} {code}" in said


def test_the_document_gives_the_servers_own_limits() -> None:
    said = document()["info"]["description"]
    assert f"over {run_command.MAX_REQUEST_BYTES // 1024} KB" in said
    assert f"headers over {run_command.MAX_HEADER_BYTES // 1024} KB" in said
    assert f"own limit is {MAX_BODY_BYTES // 1024} KB" in said


def test_a_body_between_the_apps_limit_and_the_servers_is_the_apps_413(
    as_run: int, table: TableService
) -> None:
    body = json.dumps({"game": "ice-trays", "pad": "x" * 30000}).encode()
    head = b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    token = f"Authorization: Bearer {table.referee_token}\r\n".encode()
    length = b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
    got, _, answer = raw_answer(as_run, head + token + length + body)
    assert (got, json.loads(answer)["error"]["code"]) == (413, "too-large")


@pytest.fixture
def counted_turns(
    table: TableService, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[int, list[int]]]:
    """The app served as ``companion run`` serves it, its loop's turns (``poll`` calls) counted."""
    turns = [0]
    poll = wasyncore.poll

    def counted(*args: Any, **kwargs: Any) -> Any:
        turns[0] += 1
        return poll(*args, **kwargs)

    monkeypatch.setattr(wasyncore, "poll", counted)
    with in_background(run_command.make_server(create_app(table), "127.0.0.1", 0)) as port:
        yield port, turns


def test_the_servers_loop_waits_while_a_request_is_answered(
    counted_turns: tuple[int, list[int]],
) -> None:
    """Reading on during a request (as the server does, to see a stream's hang-up) made
    waitress's loop spin in ``select`` through every send: about 100 turns a request."""
    port, turns = counted_turns
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    requests = 50
    before = turns[0]
    for _ in range(requests):  # back to back, as a page's requests come
        connection.request("GET", "/api/status")
        answer = connection.getresponse()
        assert answer.status == 200 and answer.read()
    assert turns[0] - before <= 5 * requests
    connection.close()


def test_a_long_answer_to_a_slow_reader_arrives_whole(as_run: int) -> None:
    """A phone that reads slowly leaves the request's thread part of its answer unsent: the loop
    sends the rest."""
    whole = http.client.HTTPConnection("127.0.0.1", as_run, timeout=WAIT_S)
    whole.request("GET", "/api/openapi.json")
    expected = checked("GET", "/api/openapi.json", whole).body
    whole.close()
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.settimeout(WAIT_S)
        sock.connect(("127.0.0.1", as_run))
        sock.sendall(
            b"GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        received = b""
        while chunk := sock.recv(512):
            received += chunk
            time.sleep(0.001)
    assert received.split(b"\r\n\r\n", 1)[1] == expected
