"""The reference simulator of the melt benchmark: deterministic, and physically sensible."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from bench import melt_table
from bench.melt_table import ATTACK_KINDS, STEP_S, Pad, simulate

SEEDS = range(6)


@pytest.fixture(scope="module")
def tables() -> list[melt_table.Table]:
    return [simulate(seed) for seed in SEEDS]


def test_the_same_seed_plays_the_same_table(tables) -> None:
    again = simulate(SEEDS[0])
    assert again.events == tables[0].events
    assert again.csv() == tables[0].csv()
    assert [list(s.grams) for s in again.seats] == [list(s.grams) for s in tables[0].seats]
    assert simulate(SEEDS[1]).events != tables[0].events


def test_true_grams_never_grow_and_never_go_negative(tables) -> None:
    for table in tables:
        for seat in table.seats:
            grams = list(seat.grams)
            assert grams[0] == seat.start_g == 6.0
            assert all(g >= 0 for g in grams)
            assert all(b <= a for a, b in pairwise(grams))
            assert seat.gone_s < melt_table.MAX_S and grams[-1] == 0.0
            assert seat.grams_at(seat.gone_s) == 0.0


def test_a_weigh_in_reads_the_ice_plus_clinging_water_plus_small_noise(tables) -> None:
    for table in tables:
        for seat in table.seats:
            for w in seat.weigh_ins:
                assert w.true_g == pytest.approx(seat.grams_at(w.t_s))
                assert 0 <= w.cling_g <= 0.4
                assert abs(w.reading_g - w.true_g - w.cling_g) < 6 * melt_table.WEIGH_NOISE_G
            wet = [a.t_s for a in seat.attacks if a.kind in melt_table.WET]
            for w in seat.weigh_ins:
                if w.cling_g > 0:  # only water attacks leave water
                    assert any(t <= w.t_s for t in wet)


def test_h_and_air_stay_in_their_ranges(tables) -> None:
    for table in tables:
        assert 2 <= len(table.seats) <= 6
        for seat in table.seats:
            assert 4.0 <= seat.h_w_m2k <= 25.0
            assert seat.start_c in (0.0, -18.0)
            assert all(17.0 <= a <= 33.0 for a in seat.air_c)  # the table's, +-1 C a seat
        readings = [e.value for e in table.events if e.kind == "air_c"]
        assert readings and all(16.5 <= float(a) <= 33.5 for a in readings)


def test_attacks_melt_their_configured_mean_give_or_take_half(tables) -> None:
    means = melt_table.configured_means()
    assert set(means) == set(ATTACK_KINDS)
    kinds = set()
    for table in tables:
        for seat in table.seats:
            for a in seat.attacks:
                kinds.add(a.kind)
                assert a.t_s % STEP_S == 0
                assert 0 <= a.grams <= 1.5 * means[a.kind] + 1e-12
    assert kinds == set(ATTACK_KINDS)


def test_the_event_stream_is_a_replay_csv_in_time_order(tables) -> None:
    for table in tables:
        times = [e.t_s for e in table.events]
        assert times == sorted(times)
        kinds = {e.kind for e in table.events}
        assert kinds == {"start_g", "air_c", "weigh_in_g", "attack", "melted"}
        lines = table.csv().splitlines()
        assert lines[0] == "t_s,seat,kind,value" and len(lines) == len(table.events) + 1
        for seat in table.seats:
            mine = [e for e in table.events if e.seat == seat.seat]
            assert mine[0].kind == "start_g" and mine[0].t_s == 0
            gaps = [b.t_s - a.t_s for a, b in pairwise(seat.weigh_ins)]
            assert all(180 - STEP_S <= g <= 480 for g in gaps)


def test_the_melted_marks_come_in_order_and_forecast_a_later_melt_out(tables) -> None:
    for table in tables:
        for seat in table.seats:
            for fraction, mark in seat.marks.items():
                assert seat.grams_at(mark.t_s) <= 6.0 * (1 - fraction) + 1e-9
                assert mark.t_s <= seat.gone_s
                assert mark.steady_gone_s > mark.t_s and mark.drifting_gone_s > mark.t_s
            if len(seat.marks) == 2:
                assert seat.marks[0.5].t_s <= seat.marks[0.8].t_s


def test_a_pad_reads_the_water_from_the_first_lifting_after_a_water_attack() -> None:
    """The water stays in the cap until the cube is first lifted after the attack, however late,
    and dries from then on; a quiet pad reads the ice alone."""
    pad = Pad(0.0, (melt_table.Wet(100.0, 0.4, 120.0),), seed=1.0)
    assert pad.read(50.0, 5.0).reading_g == 5.0
    first = pad.read(400.0, 4.0)
    assert first.cling_g == 0.4 and first.reading_g == pytest.approx(4.4)
    assert pad.read(520.0, 3.9).cling_g == pytest.approx(0.4 / math.e)
    assert pad.read(2000.0, 3.0).cling_g == 0.0
