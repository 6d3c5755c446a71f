"""Adafruit's own drivers, at the pinned versions, over the simulated chips of the pod's world."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import chip_libraries
import pytest

REQUIREMENTS = Path(__file__).resolve().parents[2] / "firmware/pod/requirements.txt"


def pinned() -> dict[str, str]:
    """The libraries the pod runs and their versions, as circup reads them."""
    pairs = (line.split("==") for line in REQUIREMENTS.read_text().split())
    return {name: version for name, version in pairs}


def where(module: Any) -> Path:
    """A module's file, or a namespace package's folder (adafruit_hx711 has no __init__)."""
    return Path(module.__file__ or next(iter(module.__path__)))


def test_the_firmware_runs_adafruits_drivers_at_the_pinned_versions(world: Any) -> None:
    world.start()
    folder = chip_libraries.folder()
    assert set(pinned()) == {"adafruit_onewire", "adafruit_ds18x20", "adafruit_hx711"}
    for name, version in pinned().items():
        modules = [m for n, m in sys.modules.items() if n.partition(".")[0] == name]
        assert all(where(m).is_relative_to(folder) for m in modules), name
        versions = {m.__version__ for m in modules if hasattr(m, "__version__")}
        assert versions == {version}, name


def one_wire(world: Any) -> Any:
    """Adafruit's bus on the pod's 1-Wire pin."""
    return world.load("adafruit_onewire.bus").OneWireBus(world.load("board").GP22)


def roms(bus: Any) -> list[bytes]:
    return sorted(bytes(address.rom) for address in bus.scan())


def test_adafruits_search_finds_every_probe_that_answers(world: Any) -> None:
    bus = one_wire(world)
    assert roms(bus) == sorted(probe.rom for probe in world.bus.probes)
    assert all(bus.crc8(rom) == 0 for rom in roms(bus))
    world.fault("probe", 3, "missing")
    assert roms(bus) == sorted(p.rom for n, p in enumerate(world.bus.probes, 1) if n != 3)
    world.bus.cut = True
    assert roms(bus) == []


def test_the_search_tells_nine_probes_apart_and_refuses_a_shorted_bus(world: Any) -> None:
    crowded = type(world)(probes=9)
    bus = one_wire(crowded)
    assert roms(bus) == sorted(probe.rom for probe in crowded.bus.probes)
    crowded.bus.shorted = True
    with pytest.raises(RuntimeError, match="Maximum device count"):
        bus.scan()


def probe_driver(world: Any, number: int = 1) -> Any:
    """Adafruit's DS18X20 for one of the world's probes."""
    bus = one_wire(world)
    (address,) = [a for a in bus.scan() if bytes(a.rom) == world.bus.probes[number - 1].rom]
    return world.load("adafruit_ds18x20").DS18X20(bus, address)


def test_the_driver_waits_for_a_conversion_until_the_chip_says_it_is_done(world: Any) -> None:
    world.rng.gauss = lambda mu, sigma: 0.0
    probe = world.bus.probes[0]
    driver = probe_driver(world)
    driver.resolution = 10
    assert driver.resolution == 10
    start = world.now()
    with world.circuitpython():
        celsius = driver.temperature
    waited_ms = (world.now() - start) / 1e6
    assert 187.5 < waited_ms < 187.5 + 20  # and the MATCH ROMs, the polls, the scratchpad
    assert celsius == probe.celsius == 21.25
    assert world.bus.single_converts == 1


def test_a_noisy_line_fails_the_drivers_own_crc_check(world: Any) -> None:
    driver = probe_driver(world, 2)
    assert driver.resolution == 12
    world.fault("probe", 2, "crc")
    with pytest.raises(RuntimeError, match="CRC error"):
        driver.resolution  # noqa: B018


def test_a_probe_that_lost_power_reads_85_c_at_its_eeproms_resolution(world: Any) -> None:
    probe = world.bus.probes[3]
    driver = probe_driver(world, 4)
    driver.resolution = 9
    with world.circuitpython():
        assert abs(driver.temperature - probe.celsius) < 0.6
    probe.power_on()
    assert (driver.resolution, driver.read_temperature()) == (12, 85.0)


def pad_driver(world: Any, number: int = 1) -> Any:
    """Adafruit's HX711 on pad ``number``'s pins, as the firmware makes it."""
    digitalio = world.load("digitalio")
    board = world.load("board")
    data = digitalio.DigitalInOut(getattr(board, f"GP{2 * number}"))
    data.switch_to_input(pull=digitalio.Pull.UP)
    clock = digitalio.DigitalInOut(getattr(board, f"GP{2 * number + 1}"))
    clock.switch_to_output(value=False)
    with world.circuitpython():
        return world.load("adafruit_hx711.hx711").HX711(data, clock)


def settled_read(world: Any, driver: Any, words: int = 6) -> int:
    """The raw word of the driver's read after the chip's unsettled words."""
    for _ in range(words):
        while driver.is_busy:
            world.spend(1_000_000)
        raw = driver._read_channel_raw(driver.CHAN_A_GAIN_128)
    assert isinstance(raw, int)
    return raw


def test_the_driver_powers_the_pad_up_and_gives_negatives_as_large_numbers(world: Any) -> None:
    chip = world.chips["GP2"]
    driver = pad_driver(world)
    assert chip.hx.resets == 1
    raw = settled_read(world, driver)
    assert raw > 0xFF000000
    assert abs(raw - (0xFF000000 | chip.level & 0xFFFFFF)) <= 3
    assert set(chip.pulses[1:]) == {25}
    assert 0 < chip.longest_high_ns < 60_000


def test_a_clock_held_high_too_long_would_power_the_pad_down(world: Any) -> None:
    chip = world.chips["GP2"]
    driver = pad_driver(world)
    settled_read(world, driver)
    microcontroller = world.load("microcontroller")
    microcontroller.delay_us = lambda us: world.spend(70_000)
    while driver.is_busy:
        world.spend(1_000_000)
    driver._read_channel_raw(driver.CHAN_A_GAIN_128)
    assert chip.hx.resets > 20


def test_the_pods_reads_never_hold_a_clock_high_near_60_us(world: Any) -> None:
    pod = world.start()
    world.run(pod, 3000)
    for chip in world.chips.values():
        assert chip.hx.resets == 1
        assert 0 < chip.longest_high_ns < 60_000
        assert chip.reads > 15
