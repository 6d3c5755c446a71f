"""The pod's probes and pads as the table reads them: seats, faults, stale probes, outages."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from companion.config import parse_config
from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.pod import (
    PodScales,
    PodSeats,
    PodThermometers,
    pad_seats,
    placeholder,
    settings,
)
from companion.sensors.pod_stream import SILENT_HINT, Settings, Value

P1, P2, P3 = "28-000000000001", "28-000000000002", "28-000000000003"


@dataclass
class StubLink:
    """What the sources ask of the link, set by the test."""

    known: dict[str, tuple[float, Value, float]] = field(default_factory=dict)
    pads: list[tuple[float, str, Value]] = field(default_factory=list)
    why: str | None = None
    sweeps: int = 0

    def probes(self) -> dict[str, tuple[float, Value, float]]:
        return dict(self.known)

    def take_pads(self) -> list[tuple[float, str, Value]]:
        taken, self.pads = self.pads, []
        return taken

    def trouble(self) -> str | None:
        return self.why


class Clock:
    t = 50.0

    def __call__(self) -> float:
        return self.t


def thermometers(link: StubLink, probes: dict[str, int] | None, seats: int = 2):
    clock = Clock()
    return PodThermometers(link, PodSeats(seats, probes, {}), clock, 2.0), clock  # type: ignore[arg-type]


def test_unclaimed_probes_take_the_seats_in_sorted_id_order_and_the_rest_read_unclaimed() -> None:
    link = StubLink({p: (49.0, 21000 + i, 49.1) for i, p in enumerate((P3, P1, P2))}, sweeps=1)
    sources, _ = thermometers(link, None)
    shown = [(r.seat, r.id, r.raw, r.status) for r in sources.sweep()]
    assert shown == [(1, P1, 21001, "ok"), (2, P2, 21002, "ok"), (None, P3, 21000, "ok")]


def test_probe_faults_are_statuses_with_the_host_s_words() -> None:
    link = StubLink({P1: (49.0, "!power-on", 49.1), P2: (49.0, "!bogus", 49.1)}, sweeps=1)
    sources, _ = thermometers(link, {P1: 1, P2: 2})
    first, second = sources.sweep()
    assert first.raw is None and first.status == (
        "fault: reads the 85 C power-on value: check its power wiring"
    )
    assert second.status == "fault: the pod reports 'bogus'"


def test_a_probe_not_heard_for_three_sweeps_is_missing_and_one_never_seen_too() -> None:
    link = StubLink({P1: (49.0, 21000, 49.0)}, sweeps=0)
    sources, clock = thermometers(link, {P1: 1, P2: 2})
    assert [r.id for r in sources.sweep()] == [P1]  # nothing said yet of P2
    link.sweeps = 1
    clock.t = 54.9  # P1 was heard 5.9 s ago: under three sweeps of 2 s
    first, second = sources.sweep()
    assert first.ok and first.t == 49.0
    assert second.status == f"fault: missing: probe {P2} is not on the pod's 1-Wire bus"
    clock.t = 55.1
    assert sources.sweep()[0].status == f"fault: missing: the pod has not sent probe {P1} for 6 s"


def test_an_outage_faults_every_seat_s_probe_even_one_not_learned_yet() -> None:
    link = StubLink({P1: (49.0, 21000, 49.0)}, why="the pod is unplugged: reconnecting")
    sources, _ = thermometers(link, {P1: 1}, seats=3)
    shown = [(r.seat, r.id, r.status) for r in sources.sweep()]
    assert shown == [
        (1, P1, "fault: the pod is unplugged: reconnecting"),
        (2, placeholder(2), "fault: the pod is unplugged: reconnecting"),
        (3, placeholder(3), "fault: the pod is unplugged: reconnecting"),
    ]


def scales(link: StubLink) -> PodScales:
    seats = PodSeats(2, {}, {"pod:pad1": 1, "pod:pad2": 2})
    return PodScales(link, seats, Clock())  # type: ignore[arg-type]


def test_pad_words_become_readings_and_an_unclaimed_empty_channel_is_left_out() -> None:
    link = StubLink(
        pads=[
            (49.0, "pod:pad1", -20412),
            (49.0, "pod:pad2", "!stuck"),
            (49.0, "pod:pad3", 183021),  # unclaimed, but a board is there: identify finds it
            (49.0, "pod:pad4", "!not-ready"),  # no board on channel 4
        ]
    )
    shown = [(r.seat, r.id, r.raw, r.status) for r in scales(link).readings()]
    assert shown == [
        (1, "pod:pad1", -20412, "ok"),
        (2, "pod:pad2", None, "fault: the same word many times in a row: the chip stopped "
         "converting; check its power"),
        (None, "pod:pad3", 183021, "ok"),
    ]  # fmt: skip


def test_an_outage_faults_every_claimed_pad_after_what_came_before_it() -> None:
    link = StubLink(
        pads=[(49.0, "pod:pad1", 5)],
        why=f"the pod is silent for 3 s: {SILENT_HINT}",
    )
    shown = [(r.seat, r.id, r.raw, r.status, r.t) for r in scales(link).readings()]
    fault = f"fault: the pod is silent for 3 s: {SILENT_HINT}"
    assert shown == [
        (1, "pod:pad1", 5, "ok", 49.0),
        (1, "pod:pad1", None, fault, 50.0),
        (2, "pod:pad2", None, fault, 50.0),
    ]


def config(text: str = ""):
    seats = '[[seat]]\nname = "a"\n[[seat]]\nname = "b"\n[[seat]]\nname = "c"\n'
    return parse_config("t.toml", f'[sensors]\nscales = "pod"\n{text}\n{seats}')


def test_seat_n_s_pad_is_channel_n_unless_the_calibration_moves_it() -> None:
    assert pad_seats(config(), Calibration()) == {"pod:pad1": 1, "pod:pad2": 2, "pod:pad3": 3}
    moved = Calibration({1: SeatCalibration(1, scale="pod:pad5")})
    assert pad_seats(config(), moved) == {"pod:pad5": 1, "pod:pad1": 2, "pod:pad2": 3}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", Settings(11, 2000, 128, 10)),
        (
            "resolution = 9\nsweep_s = 0.5\nhx711_gain = 32\nhx711_rate_hz = 80",
            Settings(9, 500, 32, 80),
        ),
    ],
)
def test_the_pod_is_set_as_the_config_says(text: str, expected: Settings) -> None:
    assert settings(config(text)) == expected
