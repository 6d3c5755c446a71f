"""No number of streams, stale streams, idle sockets or half-sent requests stops the table
answering: over a real waitress server with few workers, more streams than workers are
opened and never read, and ``/api/status`` still answers; a device's new stream ends its old
one; a stream whose client does not receive what it is sent ends; a request that trickles in is
dropped, and idle sockets do not keep a new client out."""

from __future__ import annotations

import http.client
import itertools
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from background import in_background
from waitress.server import create_server

from companion.table.hub import Hub
from companion.table.service import TableService
from companion.web import create_app
from companion.web.serving import guard
from companion.web.stream import HEARTBEAT, EventStream, Streams, WaitressClient

WAIT_S = 10.0
"""How long a test waits for an answer before it fails (it never measures how long it took)."""
THREADS = 6
CAP = 3
LIMIT = 30


@pytest.fixture
def served(table: TableService) -> Iterator[int]:
    """The app over the table, served as ``companion run`` serves it but smaller."""
    server = create_server(
        create_app(table, heartbeat_s=0.2, streams=CAP),
        host="127.0.0.1",
        port=0,
        threads=THREADS,
        connection_limit=LIMIT,
        cleanup_interval=0.2,
        channel_request_lookahead=1,
    )
    assert guard(server, request_s=1.0, spare=5)
    with in_background(server) as port:
        yield port


def status(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    try:
        connection.request("GET", "/api/status")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def open_stream(port: int, path: str = "/api/stream") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    return sock


def read_until(sock: socket.socket, wanted: Callable[[bytes], bool]) -> bytes:
    received = b""
    deadline = time.monotonic() + WAIT_S
    while not wanted(received) and time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return received + b"<closed>"
        received += chunk
    return received


def test_more_streams_than_workers_leave_the_status_answering(served: int) -> None:
    streams = [open_stream(served) for _ in range(THREADS * 2)]
    try:
        assert status(served) == 200
        fresh = open_stream(served)
        streams.append(fresh)
        assert b"event: status" in read_until(fresh, lambda got: b"event: status" in got)
        assert status(served) == 200
    finally:
        for sock in streams:
            sock.close()


def test_a_devices_new_stream_ends_its_old_one(served: int) -> None:
    path = "/api/stream?device=phone-0123456789"
    with open_stream(served, path) as old:
        assert b"event: status" in read_until(old, lambda got: b"event: status" in got)
        with open_stream(served, path) as new:
            assert read_until(old, lambda got: False).endswith(b"<closed>")
            assert b"event: status" in read_until(new, lambda got: b"event: status" in got)


def test_a_request_that_trickles_in_is_dropped(served: int) -> None:
    with socket.create_connection(("127.0.0.1", served), timeout=WAIT_S) as sock:
        sock.sendall(b"GET /api/status HTTP/1.1\r\n")
        closed = False
        deadline = time.monotonic() + WAIT_S
        for n in itertools.count():
            if time.monotonic() > deadline:
                break
            try:
                sock.sendall(f"X-Slow-{n}: {n}\r\n".encode())
                sock.settimeout(0.2)
                closed = sock.recv(1024) == b""
            except TimeoutError:
                continue
            except OSError:
                closed = True
            if closed:
                break
        assert closed, "a request that never ends kept its connection"


def test_idle_sockets_do_not_keep_a_new_client_out(served: int) -> None:
    idle = [socket.create_connection(("127.0.0.1", served), timeout=WAIT_S) for _ in range(LIMIT)]
    try:
        assert status(served) == 200
    finally:
        for sock in idle:
            sock.close()


def test_the_oldest_stream_ends_first_and_a_device_keeps_one() -> None:
    hub = Hub()
    hub.publish({"n": 1})
    streams = Streams(2)
    first = streams.admit(None, hub.subscribe(1))
    second = streams.admit("phone-aaaaaaaa", hub.subscribe(1))
    assert len(streams) == 2
    third = streams.admit("phone-bbbbbbbb", hub.subscribe(1))
    assert first.next(WAIT_S) is None, "the oldest stream was not ended"
    again = streams.admit("phone-aaaaaaaa", hub.subscribe(1))
    assert second.next(WAIT_S) is None, "the device's old stream was not ended"
    assert len(streams) == 2
    hub.publish({"n": 2})
    assert third.next(0.0) == (2, {"n": 2})
    assert again.next(0.0) == (2, {"n": 2})
    for place in (first, second, third, again):
        place.close()
    assert len(streams) == 0


class Behind:
    """A client that has received all but what ``behind`` says."""

    def __init__(self, behind: int) -> None:
        self.behind = behind

    def gone(self) -> bool:
        return False

    def unsent(self) -> int:
        return self.behind

    def hang_up(self) -> None:
        pass


def test_past_the_cap_a_stream_that_is_behind_ends_before_the_oldest() -> None:
    hub = Hub()
    hub.publish({"n": 1})
    streams = Streams(2)
    oldest = streams.admit(None, hub.subscribe(1), Behind(0))
    gone = streams.admit(None, hub.subscribe(1), Behind(3000))
    newest = streams.admit(None, hub.subscribe(1), Behind(0))
    assert gone.next(WAIT_S) is None, "the stream that was behind was not ended"
    hub.publish({"n": 2})
    assert oldest.next(0.0) == (2, {"n": 2}) and newest.next(0.0) == (2, {"n": 2})


class Quiet:
    """A table where nothing changes: each wait lasts as long as it is told."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock

    def next(self, timeout: float) -> Any:
        self.clock[0] += timeout
        return None

    def close(self) -> None:
        pass


class Unread:
    """A client that receives nothing it is sent."""

    def __init__(self, stream: list[EventStream]) -> None:
        self.stream = stream
        self.hung_up = False

    def gone(self) -> bool:
        return False

    def unsent(self) -> int:
        return self.stream[0].sent if self.stream else 0

    def hang_up(self) -> None:
        self.hung_up = True


def test_a_stream_whose_client_receives_nothing_ends_within_two_heartbeats() -> None:
    clock = [0.0]
    holder: list[EventStream] = []
    client = Unread(holder)
    stream = EventStream(Quiet(clock), 15.0, monotonic=lambda: clock[0], client=client)
    holder.append(stream)
    stream.sent = 10_000  # a first snapshot it never took
    beats = list(itertools.islice(stream, 10))
    assert beats == [HEARTBEAT] * len(beats) and len(beats) <= 2
    assert clock[0] <= 2 * 15.0 and client.hung_up and stream.closed


class Channel:
    """What a stream reads of waitress's channel: here a real socket and an empty buffer."""

    def __init__(self, sock: socket.socket) -> None:
        self.socket = sock
        self.connected = True
        self.total_outbufs_len = 0

    def check_client_disconnected(self) -> bool:
        return not self.connected


def test_the_bytes_a_client_has_not_received_are_counted() -> None:
    with (
        socket.create_server(("127.0.0.1", 0)) as listener,
        socket.create_connection(listener.getsockname()),  # a reader that never reads
    ):
        writer, _ = listener.accept()
        with writer:
            client = WaitressClient.of(
                {"waitress.client_disconnected": Channel(writer).check_client_disconnected}
            )
            assert client is not None and not client.gone()
            assert client.unsent() == 0
            writer.setblocking(False)
            sent = 0
            try:
                while sent < 64 << 20:
                    sent += writer.send(b"x" * 65536)
            except BlockingIOError:
                pass  # the reader's buffer and the writer's are full
            assert client.unsent() > 0
    assert WaitressClient.of({}) is None
