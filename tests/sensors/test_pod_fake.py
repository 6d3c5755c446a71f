"""The host's side end to end, against the pod's real firmware running on simulated sensors.

:class:`fakepod.FakePod` runs ``firmware/pod/code.py`` in a process of its own, its USB data
port on a pseudo-terminal, and misbehaves on request. Real time passes: every check waits for
its condition with a generous deadline.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fakepod import FakePod
from waiting import wait_until

from companion.config import parse_config
from companion.sensors.calibration import Calibration
from companion.sensors.pod_link import PodLink
from companion.sensors.pod_protocol import PROTOCOL
from companion.sensors.sources import Sources, open_sources

DEADLINE_S = 30.0
PROBES = [f"28-00000000000{n}" for n in range(1, 5)]
SEATS = {**{p: n for n, p in enumerate(PROBES, 1)}, **{f"pod:pad{n}": n for n in range(1, 5)}}


@pytest.fixture
def pod(tmp_path: Path) -> Iterator[FakePod]:
    with FakePod(tmp_path).start() as fake:
        yield fake


@pytest.fixture
def link(pod: FakePod) -> Iterator[PodLink]:
    with PodLink(str(pod.port), seat_of=SEATS.get, retry_s=0.2) as opened:
        wait_until(
            lambda: opened.sweeps and opened.status()["lines"] > 5,
            DEADLINE_S,
            what="the pod's first lines",
        )
        yield opened


def count(link: PodLink, key: str) -> int:
    value = link.status()[key]
    assert isinstance(value, int)
    return value


def open_pod_sources(port: Path) -> Sources:
    text = f'[sensors]\nthermometers = "pod"\nscales = "pod"\npod_port = "{port}"\nsweep_s = 1\n'
    return open_sources(parse_config("t.toml", text), Calibration())


def test_every_seat_reads_through_the_sources(pod: FakePod) -> None:
    sources = open_pod_sources(pod.port)
    try:
        assert sources.thermometers is not None and sources.scales is not None
        thermometers = sources.thermometers
        probes = thermometers.sweep()  # the pod's first sweep came before open_sources returned
        assert [(r.seat, r.id) for r in probes] == list(enumerate(PROBES, 1))

        def a_clean_sweep() -> bool:  # a probe may read a fault now and then, as a real one
            probes[:] = thermometers.sweep()
            return all(r.ok for r in probes)

        wait_until(a_clean_sweep, DEADLINE_S, what="a sweep without a fault")
        assert all(r.raw is not None and 15_000 < r.raw < 30_000 for r in probes)
        pads: dict[int | None, list[int | None]] = {}

        def five_rounds() -> bool:
            assert sources.scales is not None
            for reading in sources.scales.readings():
                pads.setdefault(reading.seat, []).append(reading.raw)
            return all(len(pads.get(n, ())) >= 5 for n in (1, 2, 3, 4))

        wait_until(five_rounds, DEADLINE_S, what="five rounds of the pads")
        for seat in (1, 2, 3, 4):
            expected = -20_000 + 1000 * (seat - 1)
            assert all(raw is not None and abs(raw - expected) < 500 for raw in pads[seat])
        assert None not in pads  # the channels without a pad are left out
        status = sources.pod.status() if sources.pod is not None else {}
        assert (status["firmware"], status["protocol"]) == ("1.0.0", str(PROTOCOL))
        assert (status["bad"], status["lost"]) == (0, 0)
    finally:
        sources.close()


def test_settings_are_acknowledged(pod: FakePod, link: PodLink) -> None:
    wait_until(
        lambda: any(line.startswith("ack ") for line in pod.lines), DEADLINE_S, what="the acks"
    )
    acked = {line.split()[4].split("*")[0] for line in pod.lines if line.startswith("ack ")}
    assert acked == {"resolution=11", "sweep_ms=2000", "gain=128", "pad_hz=10"}
    assert not any(line.startswith("nak ") for line in pod.lines)


def test_a_corrupt_and_a_dropped_line_are_counted(pod: FakePod, link: PodLink) -> None:
    bad, lost = count(link, "bad"), count(link, "lost")
    pod.send("corrupt")
    wait_until(lambda: count(link, "bad") == bad + 1, DEADLINE_S, what="the corrupt line")
    pod.send("drop")
    wait_until(
        lambda: count(link, "lost") == lost + 2,
        DEADLINE_S,
        what="the corrupt line and the dropped one lost",
    )
    assert link.trouble() is None


def test_a_line_of_garbage_is_counted(pod: FakePod, link: PodLink) -> None:
    bad, lines = count(link, "bad"), count(link, "lines")
    pod.send("garbage")
    wait_until(lambda: count(link, "bad") > bad, DEADLINE_S, what="the garbage")
    wait_until(lambda: count(link, "lines") > lines + 5, DEADLINE_S, what="good lines after it")


def test_silence_faults_then_each_seat_s_gap_is_reported(pod: FakePod, link: PodLink) -> None:
    pod.send("silence 3")
    wait_until(lambda: link.trouble() is not None, DEADLINE_S, what="the silence")
    assert str(link.trouble()).startswith("the pod is silent for ")
    wait_until(lambda: link.gaps, DEADLINE_S, what="the pod back")
    (back,) = link.gaps
    assert back.why == "silent" and set(back.gaps) == {1, 2, 3, 4}
    assert all(2.0 < gap < 6.0 for gap in back.gaps.values())


def test_unplugged_and_plugged_back(pod: FakePod, link: PodLink) -> None:
    pod.unplug()
    wait_until(
        lambda: link.trouble() == "the pod is unplugged: reconnecting",
        DEADLINE_S,
        what="the unplugging",
    )
    pod.plug()
    wait_until(lambda: link.gaps, DEADLINE_S, what="the pod back")
    (back,) = link.gaps
    assert back.why == "unplugged" and set(back.gaps) == {1, 2, 3, 4}
    assert link.trouble() is None


def test_a_hung_pod_restarts_and_is_set_up_again(pod: FakePod, link: PodLink) -> None:
    def acks() -> int:
        return sum(line.startswith("ack ") for line in pod.lines)

    before = acks()
    pod.send("hang")
    wait_until(
        lambda: link.status()["reset"] == "watchdog", DEADLINE_S, what="the watchdog's restart"
    )
    wait_until(lambda: acks() == before + 4, DEADLINE_S, what="the pod set up again")
    wait_until(lambda: link.trouble() is None, DEADLINE_S, what="readings again")


def test_a_sensor_fault_reaches_its_seat(pod: FakePod) -> None:
    sources = open_pod_sources(pod.port)
    try:
        assert sources.thermometers is not None
        pod.send("fault probe 2 crc")
        seen: dict[str, str] = {}
        wait_until(
            lambda: (
                seen.update({r.id: r.status for r in sources.thermometers.sweep()})
                or seen.get(PROBES[1], "").startswith("fault: CRC error")
            ),
            DEADLINE_S,
            what="probe 2's fault",
        )
        assert seen[PROBES[0]] == "ok"
    finally:
        sources.close()


def test_a_pod_of_another_protocol_is_refused(tmp_path: Path) -> None:
    with FakePod(tmp_path, proto=PROTOCOL + 1).start() as pod:
        sources = open_pod_sources(pod.port)
        try:
            assert sources.thermometers is not None and sources.scales is not None
            readings = sources.thermometers.sweep() + sources.scales.readings()
        finally:
            sources.close()
    assert {(r.seat, r.kind) for r in readings} == {
        (s, k) for s in (1, 2, 3, 4) for k in ("thermometer", "scale")
    }
    for reading in readings:
        assert f"protocol {PROTOCOL + 1}" in reading.status
        assert f"protocol {PROTOCOL}:" in reading.status
