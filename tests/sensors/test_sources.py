"""Opening a table's sensors from its config: which probe and pad is whose, real or simulated."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

from fake_hx711 import TABLE_CLOCK, TABLE_DATA, pad_heard
from w1tree import W1Tree
from waiting import wait_until

from companion.config import default_config, parse_config
from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.hx711 import NO_DATA
from companion.sensors.pod import PodScales, PodThermometers
from companion.sensors.reading import fault
from companion.sensors.sim import SimScales, SimThermometers
from companion.sensors.sources import (
    on_raspberry_pi,
    open_sources,
    pad_settings,
    probe_seats,
)

KAREN, TOM = "28-0316a2794aff", "28-0416b1a0c3ff"


def test_simulate_opens_the_simulated_table_with_its_own_calibration() -> None:
    sources = open_sources(default_config(), Calibration(), simulate=True, seed=3)
    assert isinstance(sources.thermometers, SimThermometers)
    assert isinstance(sources.scales, SimScales)
    assert sources.simulated and sources.sim is not None
    assert sources.calibration == sources.sim.factory_calibration()
    sources.close()


def test_a_calibration_of_the_simulated_table_is_kept_part_by_part() -> None:
    mine = Calibration({1: SeatCalibration(1, scale="sim:pad1", tare_counts=0.0)})
    sources = open_sources(default_config(), mine, simulate=True)
    assert sources.sim is not None
    factory = sources.sim.factory_calibration()
    seat_1 = sources.calibration.seat(1)
    assert (seat_1.scale, seat_1.tare_counts, seat_1.counts_per_gram) == ("sim:pad1", 0.0, None)
    assert seat_1.thermometer == factory.seat(1).thermometer  # its probe was not calibrated
    assert sources.calibration.seat(2) == factory.seat(2)


def test_real_probes_beside_simulated_pads_keep_their_own_calibration(tmp_path: Path) -> None:
    tree = W1Tree(tmp_path)
    tree.add_probe(KAREN, 23.125)
    config = parse_config(
        "t.toml",
        f'[sensors]\nw1_root = "{tmp_path}"\nscales = "sim"\n[[seat]]\nthermometer = "{KAREN}"'
        "\n[[seat]]\n",
    )
    sources = open_sources(config, Calibration())
    assert [(r.seat, r.id, r.raw) for r in sources.thermometers.sweep()] == [(1, KAREN, 23125)]
    assert sources.calibration.seat(1).probe_offset_c == 0.0
    assert sources.calibration.seat(1).scale == "sim:pad1"


def test_probes_are_claimed_by_config_then_calibration() -> None:
    config = parse_config("t.toml", f'[[seat]]\nthermometer = "{KAREN}"\n[[seat]]\n[[seat]]\n')
    calibration = Calibration(
        {
            1: SeatCalibration(1, thermometer="28-000000000009"),  # the config wins for seat 1
            2: SeatCalibration(2, thermometer=TOM),
        }
    )
    assert probe_seats(config, calibration) == {KAREN: 1, TOM: 2}
    assert probe_seats(default_config(), Calibration()) is None


def test_pads_follow_the_pin_map_unless_calibrated_otherwise() -> None:
    config = default_config()
    pins = config.pins.hx711_data
    plain = pad_settings(config, Calibration(), "RPi.GPIO")
    assert plain.seats == {pin: seat for seat, pin in enumerate(pins, start=1)}
    swapped = Calibration({1: SeatCalibration(1, scale=f"hx711:gpio{pins[2]}")})
    settings = pad_settings(config, swapped, "RPi.GPIO")
    assert settings.seats[pins[2]] == 1
    assert sorted(settings.seats.values()) == [1, 2, 3, 4]
    assert (settings.clock_pin, settings.gain) == (config.pins.hx711_clock, 128)


def test_w1_probes_are_read_from_the_configured_root(tmp_path: Path) -> None:
    tree = W1Tree(tmp_path)
    tree.add_probe(KAREN, 19.5)
    config = parse_config("t.toml", f'[sensors]\nw1_root = "{tmp_path}"\nscales = "none"\n')
    sources = open_sources(config, Calibration())
    assert sources.scales is None and not sources.simulated
    (reading,) = sources.thermometers.sweep()
    assert (reading.seat, reading.raw) == (1, 19500)


def test_the_pads_are_read_by_the_hx711_process(tmp_path: Path) -> None:
    config = parse_config("t.toml", '[sensors]\nthermometers = "none"\n')
    pins = dataclasses.replace(config.pins, hx711_clock=TABLE_CLOCK, hx711_data=TABLE_DATA)
    config = dataclasses.replace(config, pins=pins)  # the fake's pins, past the map's checks
    began = time.monotonic()

    def table_clock() -> float:  # as the table's: seconds since it started, not since boot
        return time.monotonic() - began

    sources = open_sources(
        config, Calibration(), clock=table_clock, gpio="fake_hx711:table_of_four"
    )
    try:
        seen: dict[int, set[str]] = {1: set(), 2: set(), 3: set(), 4: set()}

        def plugged_heard() -> bool:  # read, or a read rejected for a clock held high too long
            return all(any(map(pad_heard, seen[s])) for s in (1, 2, 3))

        def read() -> bool:
            for reading in sources.scales.readings():
                seen[reading.seat].add(reading.status)
                # stamped on the table's clock: a weigh-in is not dated by the Pi's uptime
                assert 0.0 <= reading.t <= table_clock(), reading
            return plugged_heard()

        wait_until(read, 30, every_s=0.05, what=lambda: f"pads 1 to 3 heard; heard {seen}")
    finally:
        sources.close()
    assert seen[4] == {fault(NO_DATA)}  # the unplugged pad


def test_the_sensor_pod_opens_one_link_for_its_probes_and_pads(tmp_path: Path) -> None:
    port = tmp_path / "no-pod"
    text = f'[sensors]\nthermometers = "pod"\nscales = "pod"\npod_port = "{port}"\n'
    config = parse_config("t.toml", text + '[[seat]]\nthermometer = "28-000000000001"\n[[seat]]\n')
    sources = open_sources(config, Calibration())
    try:
        assert isinstance(sources.thermometers, PodThermometers)
        assert isinstance(sources.scales, PodScales)
        assert sources.pod is not None
        assert sources.thermometers.link is sources.scales.link is sources.pod
        readings = sources.thermometers.sweep() + sources.scales.readings()
        seen = {(r.seat, r.kind): r.status for r in readings}
        assert set(seen) == {(s, k) for s in (1, 2) for k in ("thermometer", "scale")}
        assert all(status.startswith(f"fault: no sensor pod at {port}") for status in seen.values())
    finally:
        sources.close()
    assert not any(t.name == "companion-pod" for t in threading.enumerate())


def test_mixed_sources_take_only_their_part_from_the_pod(tmp_path: Path) -> None:
    text = f'[sensors]\nthermometers = "sim"\nscales = "pod"\npod_port = "{tmp_path / "pod"}"\n'
    sources = open_sources(parse_config("t.toml", text), Calibration())
    try:
        assert isinstance(sources.thermometers, SimThermometers)
        assert isinstance(sources.scales, PodScales) and sources.pod is not None
    finally:
        sources.close()


def test_a_raspberry_pi_is_known_by_its_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    assert not on_raspberry_pi(model)
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert on_raspberry_pi(model)
    model.write_bytes(b"QEMU Virtual Machine\0")
    assert not on_raspberry_pi(model)
