"""The pod's pads: a round per period, newest words, signed counts, faults per pad, never a wait."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from companion.sensors.pod_protocol import PAD_FAULTS, Message, command, parse


def rounds(world: Any) -> list[Message]:
    return [parse(line) for line in world.port.lines() if line.startswith("pads")]


def test_a_round_every_tenth_of_a_second_with_every_pad(world: Any) -> None:
    pod = world.start()
    world.run(pod, 3000)
    later = [m for m in rounds(world) if m.ms > 1500]
    assert 14 <= len(later) <= 15
    gaps = [b.ms - a.ms for a, b in pairwise(later)]
    assert all(95 <= gap <= 105 for gap in gaps)
    for message in later:
        assert message.values[5] == message.values[6] == "!not-ready"
        for channel in (1, 2, 3, 4):
            value = message.values.get(channel)
            assert value is None or abs(value - (-21_000 + 1000 * channel)) < 30


def test_every_conversion_is_read_once_and_the_newest_one_is_sent(world: Any) -> None:
    pod = world.start()
    world.run(pod, 5000)
    chip = world.chips["GP2"]
    sent = [m.values[1] for m in rounds(world) if 1 in m.values]
    assert chip.reads - 4 - len(sent) <= 2
    assert -20_030 < sent[-1] < -19_970
    assert abs(sent[-1] - (chip.word - 0x1000000)) < 30


@pytest.mark.parametrize("code", list(PAD_FAULTS))
def test_a_fault_shows_for_its_pad_only(world: Any, code: str) -> None:
    pod = world.start()
    world.run(pod, 2000)
    world.fault("pad", 3, code)
    world.run(pod, 4000)
    last = rounds(world)[-3:]
    assert all(m.values[3] == f"!{code}" for m in last)
    assert all(isinstance(m.values.get(1, 0), int) for m in last)
    assert sum(1 in m.values and 2 in m.values and 4 in m.values for m in last) >= 2
    world.clear()
    world.run(pod, 5000)
    assert isinstance(rounds(world)[-1].values.get(3, 0), int)


def test_stuck_needs_ten_words_and_a_tare_forgets_it(world: Any) -> None:
    pod = world.start()
    world.run(pod, 2000)
    world.fault("pad", 2, "stuck")
    world.run(pod, 2850)
    assert all(isinstance(m.values.get(2, 0), int) for m in rounds(world))
    world.run(pod, 3300)
    assert rounds(world)[-1].values[2] == "!stuck"
    (ack,) = [
        m for m in map(parse, world.talk(pod, command("tare", 5, 2), ms=1)) if m.kind == "ack"
    ]
    assert ack.values["detail"].startswith("tare ch=2 raw=")
    world.run(pod, 3500)
    assert isinstance(rounds(world)[-1].values.get(2, 0), int)


def test_a_missing_pad_never_holds_the_loop(world: Any) -> None:
    world.chips.clear()
    pod = world.start()
    world.run(pod, 10_000)
    assert all(len(m.values) == 6 for m in rounds(world) if m.ms > 1400)
    assert all(set(m.values.values()) == {"!not-ready"} for m in rounds(world) if m.ms > 1400)
    probes = [line for line in world.port.lines() if line.startswith("probes")]
    assert len(probes) == 5


def test_at_80_hz_the_rounds_stop_at_40_a_second(world: Any) -> None:
    for chip in world.chips.values():
        chip.hz = 80
    pod = world.start()
    world.talk(pod, command("set", 6, "pad_hz=80"))
    world.run(pod, 3000)
    later = [m for m in rounds(world) if m.ms > 2000]
    assert 39 <= len(later) <= 41
    assert all(set(m.values) == {1, 2, 3, 4, 5, 6} for m in later)
    assert all(m.values[5] == "!not-ready" for m in later)
    assert all(isinstance(m.values[1], int) for m in later)


def test_a_new_gain_is_clocked_and_its_first_words_thrown_away(world: Any) -> None:
    pod = world.start()
    world.run(pod, 2000)
    chip = world.chips["GP4"]
    assert set(chip.pulses) == {25}
    world.talk(pod, command("set", 5, "gain=64"), ms=1)
    world.run(pod, 2350)
    assert chip.pulses[-1] == 27
    after = [m for m in rounds(world) if m.ms > 2010]
    assert all(2 not in m.values for m in after)
    world.run(pod, 3000)
    at_64 = [m.values[2] for m in rounds(world) if m.ms > 2010 and 2 in m.values]
    assert at_64
    assert all(abs(value - chip.level // 2) < 10 for value in at_64)
    world.talk(pod, command("set", 6, "gain=32"), ms=200)
    assert chip.pulses[-1] == 26


def test_the_drivers_sign_is_fixed(world: Any) -> None:
    pads = world.load("pod_pads")
    assert pads.signed24(0xFF800000) == -0x800000
    assert pads.signed24(0x00800000) == -0x800000
    assert pads.signed24(0xFFFFFFFF) == -1
    assert pads.signed24(0x7FFFFF) == 0x7FFFFF
    assert pads.median([5, 1, 3, 2]) == 2
