"""The pod's probes: one conversion for all per sweep, kernel values, every fault on its own."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from companion.sensors.pod_protocol import PROBE_FAULTS, Message, command, parse


def sweeps(world: Any) -> list[Message]:
    return [parse(line) for line in world.port.lines() if line.startswith("probes")]


def kernel(raw: int) -> int:
    """w1_therm's milli-degrees: (int)t * 1000 / 16 in C, truncating toward zero."""
    signed = raw - 0x10000 if raw & 0x8000 else raw
    return int(signed * 1000 / 16)


def test_the_pod_says_hello_first(world: Any) -> None:
    pod = world.start()
    world.run(pod, 1000)
    hello = parse(world.port.lines()[0])
    assert (hello.kind, hello.seq) == ("hello", 0)
    assert hello.values == {
        "fw": "1.0.0",
        "proto": "1",
        "board": "raspberry_pi_pico",
        "uid": "E6614C311B4A5F2E",
        "probes": "4",
        "pads": "6",
        "reset": "power-on",
    }


def test_each_sweep_converts_every_probe_at_once_and_reads_its_value(world: Any) -> None:
    pod = world.start()
    world.run(pod, 2100)
    (first,) = sweeps(world)
    assert world.bus.converts == 1
    assert world.bus.single_converts == 0
    assert first.values == {p.id: kernel(p.raw) for p in world.bus.probes}
    assert all(abs(first.values[f"28-{n:012x}"] - (21000 + 250 * n)) < 400 for n in range(1, 5))
    world.run(pod, 8100)
    assert world.bus.converts == len(sweeps(world)) == 4
    assert all(375 <= wait < 385 for wait in waits(world))
    times = [m.ms for m in sweeps(world)]
    assert all(abs(later - earlier - 2000) < 50 for earlier, later in pairwise(times[1:]))


def waits(world: Any) -> list[float]:
    """Milliseconds from each CONVERT T on the bus to the first scratchpad read after it."""
    events = world.bus.events
    return [
        (next(t for t, what in events[i:] if what == "read") - start) / 1e6
        for i, (start, what) in enumerate(events)
        if what == "convert" and any(w == "read" for _, w in events[i:])
    ]


def test_the_probes_read_at_the_resolution_set(world: Any) -> None:
    pod = world.start()
    world.run(pod, 1000)
    assert [p.bits for p in world.bus.probes] == [11] * 4
    world.talk(pod, command("set", 3, "resolution=9"))
    assert [p.bits for p in world.bus.probes] == [9] * 4
    world.run(pod, 4100)
    for message in sweeps(world)[1:]:
        assert all(value % 500 == 0 for value in message.values.values())


def test_the_line_comes_when_the_conversion_time_passed(world: Any) -> None:
    pod = world.start()
    world.talk(pod, command("set", 3, "sweep_ms=1000", "resolution=12"))
    world.run(pod, 6000)
    times = [m.ms for m in sweeps(world)]
    assert len(times) == 5
    assert all(abs(later - earlier - 1000) < 50 for earlier, later in pairwise(times[1:]))
    assert all(750 <= wait < 760 for wait in waits(world))
    world.talk(pod, command("set", 4, "resolution=9"))
    world.bus.events.clear()
    world.run(pod, 9000)
    assert all(93.75 <= wait < 104 for wait in waits(world))


@pytest.mark.parametrize("celsius, raw", [(-1.25, 0xFFEC), (-0.0625, 0xFFFF), (0.0, 0)])
def test_negative_and_zero_values_are_the_kernels(world: Any, celsius: float, raw: int) -> None:
    probe = world.bus.probes[0]
    probe.celsius = celsius
    world.rng.gauss = lambda mu, sigma: 0.0
    pod = world.start()
    world.talk(pod, command("set", 3, "resolution=12"))
    world.run(pod, 4100)
    assert probe.raw == raw
    assert sweeps(world)[-1].values[probe.id] == kernel(raw)


def test_the_kernels_division_truncates_toward_zero(world: Any) -> None:
    probes = world.load("pod_probes")
    scratch = bytes([0xFF, 0xFF, 0x4B, 0x46, 0x7F, 0xFF, 0x01, 0x10])
    assert probes.millidegrees(scratch, 0x28) == -62
    assert probes.millidegrees(bytes([0x50, 0x01]), 0x28) == 21000


@pytest.mark.parametrize("code", list(PROBE_FAULTS))
def test_a_fault_shows_for_its_probe_only(world: Any, code: str) -> None:
    pod = world.start()
    world.run(pod, 2100)
    world.fault("probe", 2, code)
    world.run(pod, 6100)
    last = sweeps(world)[-1].values
    sick = world.bus.probes[1].id
    assert last[sick] == f"!{code}"
    others = {key: value for key, value in last.items() if key != sick}
    assert len(others) == 3
    assert all(isinstance(value, int) for value in others.values())


def test_a_probe_that_reset_gets_its_resolution_again(world: Any) -> None:
    pod = world.start()
    world.run(pod, 2100)
    probe = world.bus.probes[2]
    writes = probe.writes
    world.fault("probe", 3, "power-on")
    world.run(pod, 6100)
    assert probe.writes > writes
    world.clear()
    world.run(pod, 10100)
    assert probe.bits == 11
    assert isinstance(sweeps(world)[-1].values[probe.id], int)


def test_a_missing_probe_is_looked_for_at_once_and_comes_back(world: Any) -> None:
    pod = world.start()
    world.run(pod, 2100)
    scans = world.bus.resets
    world.fault("probe", 4, "missing")
    world.run(pod, 4100)
    assert sweeps(world)[-1].values["28-000000000004"] == "!missing"
    assert world.bus.resets > scans
    world.clear()
    world.run(pod, 22100)
    assert isinstance(sweeps(world)[-1].values["28-000000000004"], int)
    hello = [m for m in map(parse, world.talk(pod, command("hello", 9))) if m.kind == "hello"]
    assert hello[0].values["probes"] == "4"


def test_a_new_probe_is_found_within_ten_sweeps(world: Any) -> None:
    world.bus.probes[3].fault = "missing"
    pod = world.start()
    world.run(pod, 2100)
    assert len(sweeps(world)[-1].values) == 3
    world.clear()
    world.run(pod, 24100)
    assert len(sweeps(world)[-1].values) == 4


def test_a_cut_bus_loses_every_probe_and_finds_them_when_mended(world: Any) -> None:
    pod = world.start()
    world.run(pod, 2100)
    world.fault("bus", 1, "cut")
    world.run(pod, 4100)
    assert set(sweeps(world)[-1].values.values()) == {"!missing"}
    world.clear()
    world.run(pod, 24100)
    assert all(isinstance(value, int) for value in sweeps(world)[-1].values.values())
