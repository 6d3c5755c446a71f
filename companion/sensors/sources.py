"""A table's sensors, opened from its config: kernel probes, HX711 pads, the sensor pod, or the
simulation.

Which probe and which pad is whose comes from the config (a seat's ``thermometer``), then from
the calibration (what ``companion calibrate identify`` found), then from the order: probes by
sorted id, pads by their data pin's place in the pin map (on the pod: by their channel).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from companion.config import TableConfig
from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.hx711_process import HX711Reader, PadSettings
from companion.sensors.pod import open_pod
from companion.sensors.pod_link import PodLink
from companion.sensors.reading import Reading, fault
from companion.sensors.sim import SimScales, SimTable, SimThermometers
from companion.sensors.w1 import W1Thermometers

PI_MODEL = Path("/proc/device-tree/model")
NO_PROBE = fault("no probe claims this seat: set thermometer in its [[seat]] of the config")
NO_PAD = fault("no reading from this seat's pad yet: check its HX711 wiring")
"""The status of a seat that has heard nothing from its probe or its pad."""


class Thermometers(Protocol):
    """A source of probe readings: one ``sweep()`` reads every probe once."""

    def sweep(self) -> list[Reading]: ...


class Scales(Protocol):
    """A source of pad readings: ``readings()`` hands over every sample since the last call."""

    def readings(self) -> list[Reading]: ...


@dataclass
class Sources:
    """The open sensors of a table; ``sim`` is the simulated table when there is one, ``pod``
    the link to the sensor pod."""

    thermometers: Thermometers | None
    scales: Scales | None
    calibration: Calibration
    sim: SimTable | None = None
    reader: HX711Reader | None = None
    pod: PodLink | None = None

    @property
    def simulated(self) -> bool:
        return self.sim is not None

    def close(self) -> None:
        """Stop the HX711 process and the pod's link, if they run."""
        if self.reader is not None:
            self.reader.close()
        if self.pod is not None:
            self.pod.close()


def on_raspberry_pi(model: Path = PI_MODEL) -> bool:
    """Whether this machine is a Raspberry Pi, by the model its device tree names."""
    try:
        return model.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


def open_sources(
    config: TableConfig,
    calibration: Calibration,
    simulate: bool = False,
    clock: Callable[[], float] = time.monotonic,
    seed: int = 0,
    gpio: str = "RPi.GPIO",
) -> Sources:
    """Open what the config names; ``simulate`` (or a source set to ``sim``) uses a sim table.

    The simulated parts of a table that no calibration claims yet read with the simulated
    table's own factory calibration. Probes and pads on the sensor pod share one link to it
    (:class:`~companion.sensors.pod_link.PodBusy` when another program holds its port).
    """
    sensors = config.sensors
    sim = None
    sim_probes = simulate or sensors.thermometers == "sim"
    sim_pads = simulate or sensors.scales == "sim"
    if sim_probes or sim_pads:
        sim = SimTable(seats=len(config.seats), seed=seed, resolution=sensors.resolution)
        calibration = with_factory_calibration(calibration, sim, sim_probes, sim_pads)
    pod_probes = not sim_probes and sensors.thermometers == "pod"
    pod_pads = not sim_pads and sensors.scales == "pod"
    pod = None
    if pod_probes or pod_pads:
        seats = probe_seats(config, calibration)
        pod = open_pod(config, seats, calibration, pod_probes, pod_pads, clock)
    thermometers: Thermometers | None = pod.thermometers if pod is not None else None
    if sim_probes:
        assert sim is not None
        thermometers = SimThermometers(sim, clock)
    elif sensors.thermometers == "w1":
        thermometers = W1Thermometers(
            sensors.w1_root,
            probes=probe_seats(config, calibration),
            resolution=sensors.resolution,
            clock=clock,
        )
    scales: Scales | None = pod.scales if pod is not None else None
    reader = None
    if sim_pads:
        assert sim is not None
        scales = SimScales(sim, clock, rate_hz=sensors.hx711_rate_hz)
    elif sensors.scales == "hx711":
        reader = HX711Reader(pad_settings(config, calibration, gpio), table_clock=clock)
        reader.start()
        scales = reader
    link = pod.link if pod is not None else None
    return Sources(thermometers, scales, calibration, sim, reader, link)


def with_factory_calibration(
    calibration: Calibration, sim: SimTable, probes: bool, pads: bool
) -> Calibration:
    """``calibration`` with the simulated table's own calibration for its simulated parts that
    the calibration does not claim yet; a real part keeps its own."""
    factory = sim.factory_calibration()
    seats = dict(calibration.seats)
    for number, own in factory.seats.items():
        seat = seats.get(number) or SeatCalibration(number)
        if probes and calibration.seat_of("thermometer", own.thermometer or "") is None:
            seat = replace(seat, thermometer=own.thermometer, probe_offset_c=own.probe_offset_c)
        if pads and calibration.seat_of("scale", own.scale or "") is None:
            seat = replace(
                seat,
                scale=own.scale,
                tare_counts=own.tare_counts,
                counts_per_gram=own.counts_per_gram,
                cap_g=own.cap_g,
            )
        seats[number] = seat
    return Calibration(seats)


def probe_seats(config: TableConfig, calibration: Calibration) -> dict[str, int] | None:
    """Probe id -> seat from the config, then the calibration; ``None``: seats by sorted id."""
    seats = {s.thermometer: s.seat for s in config.seats if s.thermometer}
    for number, seat in sorted(calibration.seats.items()):
        if seat.thermometer and seat.thermometer not in seats and number not in seats.values():
            seats[seat.thermometer] = number
    return seats or None


def pad_settings(config: TableConfig, calibration: Calibration, gpio: str) -> PadSettings:
    """The HX711 child's settings: seat n's pad is the n-th data pin unless calibrated else."""
    pins = config.pins.hx711_data[: len(config.seats)]
    claimed = {pin: calibration.seat_of("scale", f"hx711:gpio{pin}") for pin in pins}
    free = iter(n for n in range(1, len(pins) + 1) if n not in claimed.values())
    seats = {pin: claimed[pin] or next(free) for pin in pins}
    return PadSettings(
        clock_pin=config.pins.hx711_clock,
        data_pins=tuple(pins),
        seats=seats,
        gain=config.sensors.hx711_gain,
        rate_hz=config.sensors.hx711_rate_hz,
        gpio=gpio,
        chip=config.pins.chip,
    )
