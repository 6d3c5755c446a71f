"""Waitress closes an idle connection after its timeout on the monotonic clock: a wall clock
stepped back an hour does not keep it open for the hour, nor does one stepped on a day close
a connection that was active a moment ago. The status stream's heartbeats keep their beat."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from background import in_background
from waitress.server import create_server

from companion.table.hub import Hub
from companion.web.server_clock import monotonic_connections
from companion.web.stream import HEARTBEAT, EventStream

IDLE_S = 3.0
CLEANUP_S = 0.1
LOOP_S = 1.0
"""Waitress's loop looks at its connections at least this often."""
WAIT_S = 20.0
"""How long a test waits for the server before it fails (it never measures how long it took)."""


def hello(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"hello"]


@pytest.fixture
def port() -> Iterator[int]:
    monotonic_connections()
    server = create_server(
        hello,
        host="127.0.0.1",
        port=0,
        threads=1,
        channel_timeout=IDLE_S,
        cleanup_interval=CLEANUP_S,
    )
    with in_background(server) as port:
        yield port


def step_wall(monkeypatch: pytest.MonkeyPatch, s: float) -> None:
    """Set the wall clock ``s`` seconds on (back, when negative), for everyone who reads it."""
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + s)


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds``."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False


@pytest.mark.parametrize("step_s", [-3600.0, -60.0], ids=["back an hour", "back a minute"])
def test_an_idle_connection_is_closed_after_its_timeout_when_the_wall_clock_steps_back(
    port: int, monkeypatch: pytest.MonkeyPatch, step_s: float
) -> None:
    with socket.create_connection(("127.0.0.1", port)) as idle:
        time.sleep(2 * CLEANUP_S)  # the server has seen it and swept since
        step_wall(monkeypatch, step_s)
        assert closed_within(idle, WAIT_S)


def test_a_connection_active_a_moment_ago_stays_open_when_the_wall_clock_steps_on(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.create_connection(("127.0.0.1", port)) as active:
        time.sleep(2 * CLEANUP_S)
        step_wall(monkeypatch, 86400.0)
        assert not closed_within(active, IDLE_S - LOOP_S - 3 * CLEANUP_S)
        assert closed_within(active, WAIT_S)  # and its own timeout still closes it


@pytest.mark.parametrize("step_s", [-3600.0, 86400.0], ids=["back an hour", "on a day"])
def test_the_streams_heartbeats_keep_coming_when_the_wall_clock_steps(
    monkeypatch: pytest.MonkeyPatch, step_s: float
) -> None:
    hub = Hub()
    hub.publish({"n": 1})
    stream = EventStream(hub.subscribe(None), heartbeat_s=0.05)
    assert next(stream).startswith("id: 1\n")
    step_wall(monkeypatch, step_s)
    began = time.monotonic()
    assert [next(stream) for _ in range(4)] == [HEARTBEAT] * 4  # and the stream goes on
    assert time.monotonic() - began >= 4 * 0.05
    hub.publish({"n": 2})
    assert next(stream).startswith("id: 2\n")
