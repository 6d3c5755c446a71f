"""code.py: the watchdog armed for 8 s and fed every pass; a hung or crashed pod restarts itself."""

from __future__ import annotations

from typing import Any

import pytest

from companion.sensors.pod_protocol import parse


def hellos(world: Any) -> list[Any]:
    return [parse(line) for line in world.port.lines() if line.startswith("hello")]


def test_the_watchdog_is_armed_for_8_seconds_and_fed_every_pass(world: Any) -> None:
    world.run_code(seconds=5)
    assert world.dog_timeout == 8
    assert world.dog_mode == "RESET"
    assert world.dog_feeds > 1000
    assert world.dog_longest < 200 * 1_000_000
    assert [h.values["reset"] for h in hellos(world)] == ["power-on"]


def test_a_pad_that_lets_go_of_dout_hangs_the_driver_and_the_watchdog_restarts_the_pod(
    world: Any,
) -> None:
    world.after(3, world.hang)
    world.run_code(seconds=16)
    first, second = hellos(world)
    assert (first.seq, first.values["reset"]) == (0, "power-on")
    assert (second.seq, second.values["reset"]) == (0, "watchdog")
    assert second.ms < 1000
    assert world.boots == 2
    assert world.port.lines()[-1].startswith(("pads", "probes"))


def test_a_bus_shorted_to_ground_reads_zeros_and_never_hangs_the_pod(world: Any) -> None:
    world.after(3, lambda: world.fault("bus", 1, "short"))
    world.run_code(seconds=12)
    assert [h.values["reset"] for h in hellos(world)] == ["power-on"]
    assert world.dog_longest < 200 * 1_000_000
    probes = [parse(line) for line in world.port.lines() if line.startswith("probes")]
    assert set(probes[-1].values.values()) == {"!all-zero"}
    assert len(probes[-1].values) == 4


def test_a_crash_is_printed_and_the_watchdog_restarts_the_pod(
    world: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    chip = world.chips["GP6"]

    def broken(now: int) -> int:
        raise OSError("the pad's data pin broke")

    world.after(3, lambda: setattr(chip, "dout", broken))
    world.after(5, lambda: delattr(chip, "dout"))
    world.run_code(seconds=14)
    assert "the pad's data pin broke" in capsys.readouterr().err
    assert [h.values["reset"] for h in hellos(world)] == ["power-on", "watchdog"]


def test_the_hello_names_every_reset_reason(world: Any) -> None:
    pod_main = world.load("pod_main")
    microcontroller = world.load("microcontroller")
    words = {}
    for reason in ("POWER_ON", "WATCHDOG", "SOFTWARE", "RESET_PIN", "BROWNOUT", "DEEP_SLEEP_ALARM"):
        world.reset_reason = reason
        words[reason] = pod_main.reset_word(microcontroller)
    assert words == {
        "POWER_ON": "power-on",
        "WATCHDOG": "watchdog",
        "SOFTWARE": "software",
        "RESET_PIN": "reset-pin",
        "BROWNOUT": "brownout",
        "DEEP_SLEEP_ALARM": "unknown",
    }
