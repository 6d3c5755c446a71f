"""The simulated pads drift as the kit's bar load cells do: wander, creep, a cold cap, warm-up."""

from __future__ import annotations

import random

import pytest

from companion.sensors.pad_drift import CREEP_S, PadDrift
from companion.sensors.sim import SimScales, SimTable

ROOM_C = 23.0


def still(**changes: float) -> PadDrift:
    """A pad with every cause of drift off but those given."""
    sizes = {
        "capacity_g": 300.0,
        "warm_up_g": 0.0,
        "trend_g_per_s": 0.0,
        "walk_g_per_sqrt_s": 0.0,
        "zero_tc_g_per_c": 0.0,
        "creep_share": 0.0,
    }
    return PadDrift(**{**sizes, **changes}, reference_c=ROOM_C, rng=random.Random(0))


def empty_for(drift: PadDrift, seconds: float, air_c: float = ROOM_C) -> list[float]:
    return [drift.zero_g(t, 0.0, False, air_c) for t in range(int(seconds) + 1)]


def test_an_empty_pad_wanders_up_to_a_few_tenths_of_a_gram_in_an_hour() -> None:
    moved = []
    for seed in range(40):
        drift = PadDrift.draw(random.Random(seed), ROOM_C)
        zeros = empty_for(drift, 3600)
        moved.append(max(zeros) - min(zeros))
    assert max(moved) < 0.6, max(moved)
    assert sorted(moved)[len(moved) // 2] > 0.05  # most pads move enough to matter


def test_a_cold_cap_moves_the_zero_and_a_weight_of_the_same_mass_does_not() -> None:
    cold, warm = still(zero_tc_g_per_c=0.03), still(zero_tc_g_per_c=0.03)
    for t in range(601):
        cold_zero = cold.zero_g(t, 9.0, True, ROOM_C)
        warm_zero = warm.zero_g(t, 9.0, False, ROOM_C)
    assert warm_zero == pytest.approx(0.0)
    assert cold_zero < -0.1  # the face under the cap cooled: a negative tempco reads lighter
    after = empty_for(cold, 600 + 3600)
    assert abs(after[-1]) < abs(cold_zero) / 5  # the cell warms back to the air


def test_a_load_creeps_towards_a_little_more_and_back_once_lifted() -> None:
    drift = still(creep_share=0.002)
    zeros = [drift.zero_g(t, 10.0, False, ROOM_C) for t in range(int(5 * CREEP_S) + 1)]
    assert zeros[6] < 0.001  # a weigh-in's few seconds see almost none of it
    assert zeros[-1] == pytest.approx(0.02, rel=0.02)
    recovered = [drift.zero_g(5 * CREEP_S + t, 0.0, False, ROOM_C) for t in range(1, 1501)]
    assert recovered[-1] < 0.001


def test_the_zero_settles_after_power_up() -> None:
    zeros = empty_for(still(warm_up_g=0.1), 3600)
    assert zeros[0] == pytest.approx(0.1) and abs(zeros[-1]) < 0.001


def test_the_air_moves_the_zero_through_the_cell_s_temperature() -> None:
    zeros = empty_for(still(zero_tc_g_per_c=0.03), 4 * 3600, air_c=ROOM_C + 5.0)
    assert zeros[-1] == pytest.approx(0.15, rel=0.05)


def test_a_simulated_pad_reads_its_drifted_zero_through_its_counts() -> None:
    t = [0.0]
    table = SimTable(seats=2, seed=4, noise_g=0.0)
    pads = SimScales(table, lambda: t[0])
    calibration = table.factory_calibration()
    pads.readings()
    t[0] = 3600.0
    last = {r.seat: r for r in pads.readings()}
    for seat, reading in last.items():
        assert reading.raw is not None
        grams = calibration.grams(seat, reading.raw)
        assert grams == pytest.approx(table.zero_g(seat, 3600.0), abs=1e-4)
    assert any(abs(table.zero_g(seat, 3600.0)) > 0.05 for seat in last)


def test_no_drift_keeps_a_pad_still_and_the_same_seed_drifts_the_same() -> None:
    still_table = SimTable(seats=2, seed=4, drift=0.0)
    assert all(still_table.zero_g(n, t) == 0.0 for n in (1, 2) for t in (0.0, 3600.0))
    one, two = SimTable(seats=2, seed=4), SimTable(seats=2, seed=4)
    assert [one.zero_g(1, float(t)) for t in range(0, 3600, 60)] == [
        two.zero_g(1, float(t)) for t in range(0, 3600, 60)
    ]
