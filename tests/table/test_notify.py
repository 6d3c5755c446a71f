"""sd_notify: the exact datagrams systemd receives, on a real socket, and silence without one."""

from __future__ import annotations

import logging
import os
import secrets
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table.notify import Notifier, watchdog_interval

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs AF_UNIX sockets")


def listening(address: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(5)
    return sock


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    """A notify socket in a folder of its own, as systemd makes one: its path and its end."""
    path = str(tmp_path / "notify")
    with listening(path) as sock:
        yield path, sock


def test_each_message_is_one_datagram_of_exactly_its_assignment(
    systemd: tuple[str, socket.socket],
) -> None:
    path, sock = systemd
    notifier = Notifier(path)
    assert notifier.ready() and notifier.watchdog()
    assert notifier.status("serving at http://192.168.1.20:8080/") and notifier.stopping()
    got = [sock.recv(4096) for _ in range(4)]
    assert got == [
        b"READY=1",
        b"WATCHDOG=1",
        b"STATUS=serving at http://192.168.1.20:8080/",
        b"STOPPING=1",
    ]


def test_a_status_stays_one_line_and_send_joins_assignments(
    systemd: tuple[str, socket.socket],
) -> None:
    path, sock = systemd
    notifier = Notifier(path)
    notifier.status("probe 2 missing\nscale 3 saturated")
    notifier.send("READY=1", "STATUS=up")
    assert sock.recv(4096) == b"STATUS=probe 2 missing scale 3 saturated"
    assert sock.recv(4096) == b"READY=1\nSTATUS=up"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="abstract sockets are Linux's")
def test_an_at_sign_names_an_abstract_socket() -> None:
    name = f"companion-test-{secrets.token_hex(8)}"
    with listening("\0" + name) as sock:
        assert Notifier("@" + name).ready()
        assert sock.recv(4096) == b"READY=1"


def test_the_socket_comes_from_the_environment_when_made(
    systemd: tuple[str, socket.socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, sock = systemd
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    notifier = Notifier()
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert notifier.enabled and notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert not Notifier().enabled


def test_without_a_socket_every_call_does_nothing(caplog: pytest.LogCaptureFixture) -> None:
    for notifier in (Notifier(None), Notifier("")):
        assert not notifier.enabled
        assert not any((notifier.ready(), notifier.watchdog(), notifier.status("x")))
        assert not notifier.stopping()
    assert caplog.records == []


def test_a_failed_send_never_raises_and_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    notifier = Notifier(str(tmp_path / "gone"))
    with caplog.at_level(logging.WARNING, logger="companion.table.notify"):
        assert not notifier.ready()
        assert not notifier.watchdog()
        assert not notifier.stopping()
    assert len(caplog.records) == 1
    assert "cannot tell systemd" in caplog.records[0].getMessage()


def test_a_socket_nobody_reads_any_more_is_a_failed_send(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    listening(path).close()
    assert not Notifier(path).watchdog()


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),
        ({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "OWN"}, 0.25),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),
        ({}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "thirty"}, None),
    ],
)
def test_the_watchdog_interval_is_half_the_period_for_the_watched_process(
    environ: dict[str, str], expected: float | None
) -> None:
    own = {k: str(os.getpid()) if v == "OWN" else v for k, v in environ.items()}
    if own.get("WATCHDOG_PID") == "1" and os.getpid() == 1:
        own["WATCHDOG_PID"] = "2"
    assert watchdog_interval(own) == expected
