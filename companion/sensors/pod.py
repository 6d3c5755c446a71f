"""The sensor pod as the table's thermometers and scales: one link, read by both.

``thermometers = "pod"`` gives an object whose ``sweep()`` returns each probe's latest value (or
fault) from the pod's sweeps; ``scales = "pod"`` one whose ``readings()`` hands over every pad
word since the last call. Probe ids are the kernel's (a probe keeps its seat and calibration
when it moves from the Pi's bus to the pod's), pad ids are ``pod:pad<channel>``. Raw values are
as the other drivers give them: milli-degrees and signed counts. When the pod is unplugged,
silent or of another protocol, every claimed probe and pad reads the fault that says so.

Whose is which: probes as for the kernel's (the config, then the calibration, then sorted id
order over the seats); seat n's pad is channel n unless the calibration gives it another. A
sensor no seat claims still reads, with seat ``None``, except a channel with no board on it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from companion.config import TableConfig
from companion.sensors.calibration import Calibration
from companion.sensors.pod_link import PodLink
from companion.sensors.pod_protocol import fault_reason
from companion.sensors.pod_stream import Settings, Value, pad_id
from companion.sensors.reading import OK, SCALE, THERMOMETER, Kind, Reading, fault

CHANNELS: Final = range(1, 7)
MISSED_SWEEPS: Final = 3
"""A probe the pod has not sent for this many sweeps reads as missing."""
NO_BOARD: Final = "!not-ready"
FIRST_WAIT_S: Final = 3.0
"""How long opening waits for the pod's first sweep and round, beyond one sweep (2 s at least:
the pod sweeps at its default until it is set)."""


def placeholder(seat: int) -> str:
    """The id a seat's probe reads under while the host has not learned the real one."""
    return f"pod:seat{seat}"


class PodSeats:
    """Which seat each of the pod's probes and pads belongs to.

    ``probes`` maps probe ids to seats; ``None`` claims the first probes the pod reports, in
    sorted id order, for seats 1..``seats``.

    >>> seats = PodSeats(2, None, {"pod:pad1": 1, "pod:pad2": 2})
    >>> seats.claim_probes(["28-000000000003", "28-000000000001", "28-000000000002"])
    >>> [seats.seat_of(p) for p in ("28-000000000001", "28-000000000003", "pod:pad2")]
    [1, None, 2]
    """

    def __init__(self, seats: int, probes: Mapping[str, int] | None, pads: Mapping[str, int]):
        self.seats = seats
        self._probes = dict(probes) if probes is not None else None
        self.pads = dict(pads)

    @property
    def probes(self) -> dict[str, int]:
        return dict(self._probes or {})

    def claim_probes(self, found: Iterable[str]) -> None:
        if self._probes is None and (ids := sorted(found)):
            self._probes = {probe: n for n, probe in enumerate(ids[: self.seats], start=1)}

    def seat_of(self, sensor: str) -> int | None:
        return self.pads.get(sensor) or (self._probes or {}).get(sensor)


def pad_seats(config: TableConfig, calibration: Calibration) -> dict[str, int]:
    """Pad id -> seat: the calibration's claims, then seat n on channel n, free seats in order."""
    claimed = {c: calibration.seat_of(SCALE, pad_id(c)) for c in CHANNELS}
    free = iter(n for n, _ in enumerate(config.seats, 1) if n not in claimed.values())
    seats = {}
    for channel in CHANNELS:
        seat = claimed[channel] or (next(free, None) if channel <= len(config.seats) else None)
        if seat is not None:
            seats[pad_id(channel)] = seat
    return seats


def settings(config: TableConfig) -> Settings:
    """What the host sets on the pod, from the config."""
    sensors = config.sensors
    return Settings(
        resolution=sensors.resolution,
        sweep_ms=min(max(round(sensors.sweep_s * 1000), 100), 60000),
        gain=sensors.hx711_gain,
        pad_hz=sensors.hx711_rate_hz,
    )


def _reading(seat: int | None, kind: Kind, sensor: str, value: Value, t: float) -> Reading:
    if isinstance(value, int):
        return Reading(seat, kind, sensor, value, OK, t)
    reason = fault_reason("probes" if kind == THERMOMETER else "pads", value)
    return Reading(seat, kind, sensor, None, fault(reason), t)


class PodThermometers:
    """The pod's probes: one ``sweep()`` is each probe's latest value since the last."""

    def __init__(
        self, link: PodLink, seats: PodSeats, clock: Callable[[], float], sweep_s: float
    ) -> None:
        self.link = link
        self.seats = seats
        self._clock = clock
        self._stale_s = MISSED_SWEEPS * sweep_s

    def sweep(self) -> list[Reading]:
        """One reading per claimed probe, then one per unclaimed probe the pod reports."""
        known = self.link.probes()
        self.seats.claim_probes(known)
        trouble = self.link.trouble()
        now = self._clock()
        claimed = sorted(self.seats.probes.items(), key=lambda item: (item[1], item[0]))
        ids = [p for p, _ in claimed] + sorted(p for p in known if self.seats.seat_of(p) is None)
        readings = []
        for probe in ids:
            seat = self.seats.seat_of(probe)
            if trouble is not None:
                readings.append(Reading(seat, THERMOMETER, probe, None, fault(trouble), now))
            elif probe in known:
                t, value, arrived = known[probe]
                if now - arrived > self._stale_s:
                    gone = f"missing: the pod has not sent probe {probe} for {now - arrived:.0f} s"
                    readings.append(Reading(seat, THERMOMETER, probe, None, fault(gone), now))
                else:
                    readings.append(_reading(seat, THERMOMETER, probe, value, t))
            elif self.link.sweeps:
                absent = f"missing: probe {probe} is not on the pod's 1-Wire bus"
                readings.append(Reading(seat, THERMOMETER, probe, None, fault(absent), now))
        if trouble is not None:
            have = set(self.seats.probes.values())
            readings += [
                Reading(seat, THERMOMETER, placeholder(seat), None, fault(trouble), now)
                for seat in range(1, self.seats.seats + 1)
                if seat not in have
            ]
        return readings


class PodScales:
    """The pod's pads: ``readings()`` hands over every word since the last call."""

    def __init__(self, link: PodLink, seats: PodSeats, clock: Callable[[], float]) -> None:
        self.link = link
        self.seats = seats
        self._clock = clock

    def readings(self) -> list[Reading]:
        """Every pad reading since the last call; a fault on every claimed pad while the pod
        is unplugged, silent or refused."""
        out = []
        for t, pad, value in self.link.take_pads():
            seat = self.seats.seat_of(pad)
            if seat is not None or value != NO_BOARD:
                out.append(_reading(seat, SCALE, pad, value, t))
        trouble = self.link.trouble()
        if trouble is not None:
            now = self._clock()
            out += [
                Reading(seat, SCALE, pad, None, fault(trouble), now)
                for pad, seat in sorted(self.seats.pads.items(), key=lambda item: item[1])
            ]
        return out


@dataclass
class Pod:
    """The open pod: its link, and the sources the config reads from it."""

    link: PodLink
    thermometers: PodThermometers | None
    scales: PodScales | None


def open_pod(
    config: TableConfig,
    probe_seats: Mapping[str, int] | None,
    calibration: Calibration,
    probes: bool,
    pads: bool,
    clock: Callable[[], float] = time.monotonic,
    **link: Any,
) -> Pod:
    """Open the pod's link (``link``: :class:`PodLink`'s options) and the sources asked for.

    Waits for the pod's first sweep of the probes and round of the pads (unless it is not there,
    or refused), so that a first ``sweep()`` already reads, as the kernel's probes do.
    """
    pads_of = pad_seats(config, calibration) if pads else {}
    seats = PodSeats(len(config.seats), probe_seats if probes else {}, pads_of)
    opened = PodLink(config.sensors.pod_port, settings(config), seats.seat_of, clock, **link)
    opened.start()
    opened.wait_ready(probes, pads, max(config.sensors.sweep_s, 2.0) + FIRST_WAIT_S)
    return Pod(
        opened,
        PodThermometers(opened, seats, clock, config.sensors.sweep_s) if probes else None,
        PodScales(opened, seats, clock) if pads else None,
    )
