"""The pod's link over a real pseudo-terminal pair: the test plays the pod on the master side.

Real time passes here (the link reads in a thread), so every check waits for its condition
with a generous deadline; the readings' times come from a clock the test sets.
"""

from __future__ import annotations

import os
import select
import threading
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from waiting import wait_until

from companion.sensors.pod_link import UNPLUGGED, PodBusy, PodLink, find_pod
from companion.sensors.pod_protocol import PROTOCOL, encode, unseal
from companion.sensors.pod_stream import Settings

DEADLINE_S = 10.0


class PtyPod:
    """The pod's end of a pseudo-terminal pair, behind the symlink ``path``: the test writes
    the pod's lines to the master; what the host sends collects in ``received``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.received = bytearray()
        self._master = -1
        self._slave = -1
        self._reading: threading.Thread | None = None
        self._stop = threading.Event()
        self.plug()

    def plug(self) -> None:
        """A new pair, the symlink pointed at its slave; what the host sent is forgotten."""
        self.received = bytearray()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing, before the host opens it
        self.path.unlink(missing_ok=True)
        self.path.symlink_to(os.ttyname(self._slave))
        self._stop.clear()
        self._reading = threading.Thread(target=self._read, args=(self._master,), daemon=True)
        self._reading.start()

    def _read(self, master: int) -> None:
        while not self._stop.is_set():
            if select.select([master], [], [], 0.02)[0]:
                try:
                    data = os.read(master, 4096)
                except OSError:
                    return
                self.received += data

    def unplug(self) -> None:
        """Close the pair: the host's reads fail as when the pod's cable is pulled."""
        self._stop.set()
        if self._reading is not None:
            self._reading.join()
        os.close(self._master)
        os.close(self._slave)

    def write(self, data: bytes) -> None:
        os.write(self._master, data)

    def send(self, kind: str, seq: int, ms: int, *words: str) -> None:
        self.write((encode(kind, seq, ms, list(words)) + "\n").encode("ascii"))

    def hello(self, seq: int = 0, ms: int = 800, proto: int = PROTOCOL) -> None:
        self.send(
            "hello", seq, ms, f"fw={proto}.0.0", f"proto={proto}", "board=raspberry_pi_pico",
            "probes=2", "pads=2", "reset=power-on",
        )  # fmt: skip

    def commands(self) -> list[list[str]]:
        """The host's commands so far, as words (each checked against its checksum)."""
        return [unseal(line) for line in bytes(self.received).splitlines()]


class FakeClock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def pod(tmp_path: Path) -> Iterator[PtyPod]:
    pty = PtyPod(tmp_path / "pod")
    yield pty
    pty.unplug()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def link(pod: PtyPod, clock: FakeClock) -> Iterator[PodLink]:
    seats = {"pod:pad1": 1, "pod:pad2": 2}
    opened = PodLink(str(pod.path), Settings(), seats.get, clock, retry_s=0.05).start()
    yield opened
    opened.close()


def status(link: PodLink, key: str) -> object:
    return link.status()[key]


def test_the_host_says_hello_and_sets_the_pod_up_after_its_hello(
    pod: PtyPod, clock: FakeClock
) -> None:
    settings = Settings(resolution=10, sweep_ms=3000, gain=64, pad_hz=80)
    with PodLink(str(pod.path), settings, clock=clock):
        wait_until(lambda: pod.commands(), DEADLINE_S, what="the host's hello")
        assert pod.commands() == [["hello", "1"]]
        pod.hello()
        wait_until(lambda: len(pod.commands()) == 5, DEADLINE_S, what="the host's settings")
    assert pod.commands()[1:] == [
        ["set", "2", "resolution=10"],
        ["set", "3", "sweep_ms=3000"],
        ["set", "4", "gain=64"],
        ["set", "5", "pad_hz=80"],
    ]


def test_readings_carry_the_pod_s_time_mapped_to_the_host_s_clock(
    pod: PtyPod, link: PodLink, clock: FakeClock
) -> None:
    pod.hello(ms=1000)
    wait_until(lambda: status(link, "lines") == 1, DEADLINE_S, what="the hello")
    clock.t = 100.25  # arrives 0.15 s later than the hello did: the hello's delay stands
    pod.send("pads", 1, 1100, "1=-20412", "2=!saturated")
    wait_until(lambda: status(link, "lines") == 2, DEADLINE_S, what="the pads")
    clock.t = 100.31
    pod.send("probes", 2, 1300, "28-000000000001=21375")
    wait_until(lambda: link.sweeps == 1, DEADLINE_S, what="the probes")
    assert link.take_pads() == [(100.1, "pod:pad1", -20412), (100.1, "pod:pad2", "!saturated")]
    assert link.probes() == {"28-000000000001": (100.3, 21375, 100.31)}
    assert link.status() | {"port": None} == {
        "port": None,
        "firmware": f"{PROTOCOL}.0.0",
        "protocol": str(PROTOCOL),
        "board": "raspberry_pi_pico",
        "reset": "power-on",
        "lines": 3,
        "bad": 0,
        "lost": 0,
        "reconnects": 0,
        "last_gap": None,
        "trouble": None,
    }


def test_bad_checksums_garbage_and_dropped_lines_are_counted(pod: PtyPod, link: PodLink) -> None:
    pod.hello()
    pod.write(b"pads 1 900 1=-20412*0000\n")  # its checksum does not match
    pod.write(bytes(range(256)).replace(b"\n", b"") + b"\n")  # garbage
    pod.write(b"z" * 700 + b"\n")  # too long for a line
    pod.send("pads", 2, 1000, "1=-20410")
    pod.send("pads", 4, 1200, "1=-20411")  # 3 dropped
    wait_until(lambda: status(link, "lines") == 3, DEADLINE_S, what="the good lines")
    assert (status(link, "bad"), status(link, "lost")) == (3, 2)
    assert [v for _, _, v in link.take_pads()] == [-20410, -20411]


def test_silence_makes_every_seat_fault_until_lines_come_again(pod: PtyPod, tmp_path: Path) -> None:
    seats = {"pod:pad1": 1, "pod:pad2": 2}
    with PodLink(str(pod.path), seat_of=seats.get, silent_s=0.3) as link:
        pod.hello()
        pod.send("pads", 1, 900, "1=5", "2=6")
        wait_until(lambda: link.trouble() is not None, DEADLINE_S, what="silence")
        assert str(link.trouble()).startswith("the pod is silent for ")
        pod.send("pads", 2, 2900, "1=7")
        wait_until(lambda: link.gaps, DEADLINE_S, what="the gap")
        assert link.trouble() is None
    (back,) = link.gaps
    assert back.why == "silent" and set(back.gaps) == {1, 2}
    assert all(gap > 0.3 for gap in back.gaps.values())


def test_a_pod_of_another_protocol_is_refused(pod: PtyPod, link: PodLink) -> None:
    pod.hello(proto=PROTOCOL + 1)
    wait_until(lambda: link.trouble() is not None, DEADLINE_S, what="the refusal")
    trouble = str(link.trouble())
    assert f"protocol {PROTOCOL + 1}" in trouble and f"protocol {PROTOCOL}:" in trouble
    assert "firmware/pod/" in trouble
    wait_until(
        pod.commands, DEADLINE_S, what="the host's hello"
    )  # the pty's reader may not have seen it yet
    assert pod.commands() == [["hello", "1"]]  # nothing is set on a pod that is refused


def test_unplugged_then_plugged_back_behind_the_same_path(
    pod: PtyPod, link: PodLink, clock: FakeClock
) -> None:
    pod.hello()
    pod.send("pads", 1, 900, "1=5", "2=6")
    wait_until(lambda: status(link, "lines") == 2, DEADLINE_S, what="the first lines")
    pod.unplug()
    wait_until(lambda: link.trouble() is not None, DEADLINE_S, what="the unplugging")
    assert link.trouble() == "the pod is unplugged: reconnecting"
    clock.t = 104.5
    pod.plug()
    wait_until(
        lambda: len(pod.commands()) == 1, DEADLINE_S, what="the host's hello on the new port"
    )
    pod.hello(ms=600)
    pod.send("pads", 1, 700, "1=5")
    wait_until(lambda: link.gaps, DEADLINE_S, what="the gap")
    assert link.trouble() is None
    (back,) = link.gaps
    assert back.why == "unplugged" and back.gaps == {1: 4.5, 2: 4.5}
    assert status(link, "last_gap") == {"why": "unplugged", "seats": {"1": 4.5, "2": 4.5}}


def test_a_missing_port_is_a_fault_until_the_pod_appears(tmp_path: Path) -> None:
    path = tmp_path / "pod"
    with PodLink(str(path), retry_s=0.05) as link:
        assert str(link.trouble()).startswith(f"no sensor pod at {path}")
        pod = PtyPod(path)
        try:
            wait_until(lambda: pod.commands(), DEADLINE_S, what="the host's hello")
            pod.hello()
            wait_until(lambda: status(link, "lines") == 1, DEADLINE_S, what="the hello")
            assert link.trouble() is None
        finally:
            pod.unplug()


def test_a_second_opener_is_told_the_port_is_busy(pod: PtyPod, link: PodLink) -> None:
    with pytest.raises(PodBusy, match="in use by another program"):
        PodLink(str(pod.path)).start()


def test_close_stops_the_thread(pod: PtyPod) -> None:
    link = PodLink(str(pod.path)).start()
    pod.hello()
    link.close()  # it waits for the thread a little while, no longer
    assert not any(t.name == "companion-pod" and t.is_alive() for t in threading.enumerate())


class Port:
    def __init__(self, device: str, product: str | None, interface: str | None) -> None:
        self.device, self.product, self.interface = device, product, interface


def test_the_pod_is_found_by_its_product_and_data_interface() -> None:
    ports = [
        Port("/dev/ttyACM0", "companion sensor pod", "CircuitPython CDC control"),
        Port("/dev/ttyACM1", "companion sensor pod", "CircuitPython CDC2 control"),
        Port("/dev/ttyUSB0", "FT232R USB UART", None),
    ]
    assert find_pod(ports) == "/dev/ttyACM1"
    assert find_pod(ports[:1] + ports[2:]) is None


def test_a_pod_found_by_its_usb_identity_is_looked_for_again_after_it_left(tmp_path: Path) -> None:
    pod = PtyPod(tmp_path / "pod")
    looked: list[str | None] = []
    where: dict[str, str | None] = {"port": str(pod.path)}

    def find() -> str | None:
        looked.append(where["port"])
        return where["port"]

    with PodLink(find=find, retry_s=0.05) as link:
        wait_until(lambda: pod.commands(), DEADLINE_S, what="the host's hello")
        pod.hello()
        pod.send("pads", 1, 900, "1=5")
        wait_until(lambda: status(link, "lines") == 2, DEADLINE_S, what="the first lines")
        where["port"] = None
        pod.unplug()
        wait_until(
            lambda: looked[-3:] == [None] * 3, DEADLINE_S, what="three looks that found nothing"
        )
        assert link.trouble() == UNPLUGGED  # not "no pod found": it was here a moment ago
        pod.plug()
        where["port"] = str(pod.path)
        wait_until(lambda: pod.commands(), DEADLINE_S, what="the host's hello on the new port")
        pod.hello()
        pod.send("pads", 1, 900, "1=5")
        wait_until(lambda: link.gaps, DEADLINE_S, what="the pod back")
    pod.unplug()
    assert link.status()["port"] == str(pod.path)
