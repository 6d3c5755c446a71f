"""The fake pod on a pseudo-terminal, as the host sees it through pyserial."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial
from fakepod import FakePod

from companion.sensors.pod_protocol import BadLine, Message, command, lost_between, parse

DEADLINE_S = 20.0


class Host:
    """The host's end: reads and parses lines, keeping the bad ones as BadLine."""

    def __init__(self, port: Path) -> None:
        self.serial = serial.Serial(str(port), timeout=0.05)
        self.heard: list[Message | BadLine] = []

    def until(self, wanted: Callable[[Message | BadLine], bool]) -> Message | BadLine:
        """Read until a line is wanted; fail after a generous deadline."""
        end = time.monotonic() + DEADLINE_S
        while time.monotonic() < end:
            raw = self.serial.readline()
            if not raw.endswith(b"\n"):
                continue
            try:
                item: Message | BadLine = parse(raw)
            except BadLine as error:
                item = error
            self.heard.append(item)
            if wanted(item):
                return item
        raise AssertionError(f"not heard within {DEADLINE_S} s; last: {self.heard[-3:]}")

    def message(self, wanted: Callable[[Message], bool]) -> Message:
        item = self.until(lambda m: isinstance(m, Message) and wanted(m))
        assert isinstance(item, Message)
        return item


@pytest.fixture
def pod(tmp_path: Path) -> Iterator[FakePod]:
    with FakePod(tmp_path).start() as pod:
        yield pod


def test_the_fake_pod_says_hello_and_streams_readings(pod: FakePod) -> None:
    host = Host(pod.port)
    hello = host.message(lambda m: m.kind == "hello")
    assert hello.seq == 0
    assert hello.values["proto"] == "1"
    assert (hello.values["probes"], hello.values["pads"]) == ("4", "6")
    assert hello.values["reset"] == "power-on"
    probes = host.message(lambda m: m.kind == "probes")
    assert sorted(probes.values) == [f"28-00000000000{n}" for n in (1, 2, 3, 4)]
    assert all(20_000 < v < 23_000 for v in probes.values.values())
    pads = host.message(lambda m: m.kind == "pads" and {1, 6} <= set(m.values))
    assert -20_100 < pads.values[1] < -19_900
    assert pads.values[6] == "!not-ready"
    host.serial.write(command("ping", 5))
    assert host.message(lambda m: m.kind == "pong").values["id"] == 5
    assert all(isinstance(item, Message) for item in host.heard)


def test_each_misbehaviour_shows_as_the_host_should_see_it(pod: FakePod) -> None:
    host = Host(pod.port)
    host.message(lambda m: m.kind == "pads")
    pod.send("corrupt")
    assert "does not match" in str(host.until(lambda m: isinstance(m, BadLine)))
    pod.send("garbage")
    host.until(lambda m: isinstance(m, BadLine))
    after = host.message(lambda m: True)
    pod.send("drop")
    gaps: list[int] = []

    def gap(m: Message) -> bool:
        nonlocal after
        gaps.append(lost_between(after.seq, m.seq))
        after = m
        return gaps[-1] > 0

    host.message(gap)
    assert gaps[-1] == 1
    pod.send("silence 1")
    host.message(gap)
    assert gaps[-1] >= 5
    pod.send("fault probe 2 crc")
    pod.send("fault pad 3 saturated")
    host.message(lambda m: m.kind == "pads" and m.values.get(3) == "!saturated")
    probes = host.message(lambda m: m.kind == "probes" and m.values["28-000000000002"] == "!crc")
    assert isinstance(probes.values["28-000000000001"], int)
    pod.send("fault clear")
    host.message(lambda m: m.kind == "probes" and isinstance(m.values["28-000000000002"], int))


def test_a_hung_pod_restarts_and_says_why(pod: FakePod) -> None:
    host = Host(pod.port)
    host.message(lambda m: m.kind == "probes")
    pod.send("hang")
    hello = host.message(lambda m: m.kind == "hello" and m.values["reset"] == "watchdog")
    assert hello.seq == 0


def test_unplugged_the_port_fails_and_plugged_back_the_pod_starts_over(pod: FakePod) -> None:
    host = Host(pod.port)
    host.message(lambda m: m.kind == "pads" and m.seq > 3)
    pod.unplug()
    with pytest.raises(serial.SerialException):
        end = time.monotonic() + DEADLINE_S
        while time.monotonic() < end:
            host.serial.read(100)
    assert not pod.port.exists()
    host.serial.close()
    pod.plug()
    again = Host(pod.port)
    hello = again.message(lambda m: m.kind == "hello")
    assert (hello.seq, hello.values["reset"]) == (0, "power-on")


def test_a_pod_of_another_protocol_says_so(tmp_path: Path) -> None:
    with FakePod(tmp_path, probes=2, pads=1, proto=2).start() as pod:
        hello = Host(pod.port).message(lambda m: m.kind == "hello")
    assert (hello.values["proto"], hello.values["probes"]) == ("2", "2")
