"""The simulated table: plausible physics, weigh-ins through the whole pipeline, real faults."""

from __future__ import annotations

from pathlib import Path

import pytest
from w1tree import W1Tree

from companion.sensors.pipeline import Pipeline
from companion.sensors.reading import OK, SCALE, THERMOMETER
from companion.sensors.sim import (
    SCALE_FAULTS,
    THERMOMETER_FAULTS,
    SimScales,
    SimTable,
    SimThermometers,
)
from companion.sensors.w1 import W1Thermometers
from companion.sensors.weigh_in import Weighed

FILTERS = {
    "thermometer": [("median", {"window_size": 3, "send_every": 1})],
    "scale": [("median", {"window_size": 5, "send_every": 1})],
}


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_cube_melts_in_the_time_a_table_sees() -> None:
    table = SimTable(seats=4, seed=3)
    for seat in table.seats:
        table.start_cube(seat, t=0.0, grams=6.0)
    hours = []
    for seat in table.seats:
        t = 0.0
        while table.ice_g(seat, t) > 0.0:
            t += 60.0
        hours.append(t / 3600)
    assert all(0.4 < h < 3.0 for h in hours), hours
    assert len(set(hours)) > 1  # each seat melts at its own hidden rate


def test_an_attack_melts_more_at_once() -> None:
    table = SimTable(seats=1)
    table.start_cube(1, t=0.0)
    before = table.ice_g(1, 100.0)
    table.melt(1, 100.0, 0.5)
    assert table.ice_g(1, 100.0) == pytest.approx(before - 0.5)


def test_probes_read_the_air_through_the_pipeline() -> None:
    clock = Clock()
    table = SimTable(seats=4, seed=5)
    probes = SimThermometers(table, clock)
    pipeline = Pipeline(FILTERS, table.factory_calibration())
    for step in range(5):
        clock.t = step * 2.0
        states = pipeline.push_all(probes.sweep())
    for state in states:
        assert state.status == OK and state.kind == THERMOMETER
        assert state.value == pytest.approx(table.air_c(state.seat, clock.t), abs=0.15)
        assert state.id.startswith("28-")


def test_a_cap_set_down_is_weighed_in_through_the_pipeline() -> None:
    clock = Clock()
    table = SimTable(seats=2, seed=9)
    table.start_cube(2, t=0.0)
    pads = SimScales(table, clock)
    pipeline = Pipeline(FILTERS, table.factory_calibration())
    table.place_cap(2, t=30.0, hold_s=4.0)
    weigh_ins = []
    for step in range(0, 400):
        clock.t = step * 0.1
        for state in pipeline.push_all(pads.readings()):
            weigh_ins += [(state.seat, e) for e in state.events if isinstance(e, Weighed)]
    assert [seat for seat, _ in weigh_ins] == [2]
    weighed = weigh_ins[0][1]
    assert weighed.ice_g == pytest.approx(table.ice_g(2, weighed.t), abs=0.05)


def test_a_known_weight_stays_on_the_pad() -> None:
    clock = Clock()
    table = SimTable(seats=1, noise_g=0.0, drift=0.0)
    pads = SimScales(table, clock)
    table.put_weight(1, 7.5)
    (reading,) = pads.readings()
    assert table.factory_calibration().grams(1, reading.raw) == pytest.approx(7.5, abs=1e-3)


def test_a_warmed_probe_rises_then_cools() -> None:
    table = SimTable(seats=2, seed=1)
    before = table.air_c(1, 0.0)
    table.warm_probe(1, t=0.0, hold_s=20.0)
    assert table.air_c(1, 20.0) > before + 5.0
    assert table.air_c(1, 200.0) < before + 1.0
    assert abs(table.air_c(2, 20.0) - table.air_c(2, 0.0)) < 0.5


@pytest.mark.parametrize("name", THERMOMETER_FAULTS)
def test_each_probe_fault_reads_as_the_w1_driver_reads_it(tmp_path: Path, name: str) -> None:
    table = SimTable(seats=2, seed=2)
    table.fault(1, THERMOMETER, name)
    simulated = SimThermometers(table, Clock()).sweep()
    tree = W1Tree(tmp_path)
    tree.add_probe(table.seats[1].probe_id, 21.5)
    tree.set_fault(table.seats[1].probe_id, name)
    probes = {table.seats[1].probe_id: 1}
    real = W1Thermometers(tmp_path, probes, open_file=tree.open, warn=lambda _: None).sweep()
    assert simulated[0].status == real[0].status != OK
    assert simulated[0].raw is None
    assert simulated[1].status == OK  # the other seat carries on


@pytest.mark.parametrize("name", SCALE_FAULTS)
def test_each_pad_fault_is_a_status(name: str) -> None:
    table = SimTable(seats=2)
    table.fault(2, SCALE, name)
    first, second = SimScales(table, Clock()).readings()
    assert first.ok
    assert second.raw is None and second.status.startswith("fault: ")
    table.fault(2, SCALE, None)
    assert SimScales(table, Clock()).readings()[1].ok


def test_an_unknown_fault_is_refused() -> None:
    with pytest.raises(ValueError, match="one of"):
        SimTable().fault(1, SCALE, "melted")


def test_the_same_seed_gives_the_same_table() -> None:
    def run(seed: int) -> list:
        clock = Clock()
        table = SimTable(seed=seed)
        pads, probes = SimScales(table, clock), SimThermometers(table, clock)
        out = []
        for step in range(20):
            clock.t = step * 0.5
            out += [(r.id, r.raw) for r in probes.sweep() + pads.readings()]
        return out

    assert run(4) == run(4) != run(5)


def test_pads_give_every_sample_since_the_last_call_within_the_backlog() -> None:
    clock = Clock()
    pads = SimScales(SimTable(seats=1), clock, rate_hz=10.0, backlog_s=5.0)
    assert len(pads.readings()) == 1
    clock.t = 1.0
    assert len(pads.readings()) == 10
    clock.t = 100.0
    assert len(pads.readings()) == 1  # a stall longer than the backlog restarts the samples
    assert all(r.kind == SCALE for r in pads.readings())


def test_simulated_players_weigh_in_in_turn() -> None:
    table = SimTable(seats=4, seed=1)
    table.play_along(t=100.0, every_s=20.0, hold_s=6.0)
    first = {1: 100, 2: 105, 3: 110, 4: 115}
    for seat, start in first.items():
        loaded = [t for t in range(start - 5, start + 60) if table.load_g(seat, float(t)) > 0]
        assert loaded[0] == start
        assert len(loaded) == 18  # three rounds of 6 s in a minute
    again = SimTable(seats=4, seed=1)
    again.play_along(t=100.0, every_s=20.0, hold_s=6.0)
    assert again.load_g(1, 101.0) > again.load_g(1, 141.0) > again.seats[1].cap_g  # it melts
