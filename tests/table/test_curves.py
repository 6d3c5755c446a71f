"""The melt-curve recorder: points spaced by the interval, thinned when full so a long game
fits, started afresh with each game."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.table.curves import CAPACITY, INTERVAL_S, Curves

WALL = 1_800_000_000.0


def feed(curves: Curves, seat: int, times: list[float]) -> None:
    """The estimate at each of ``times``: a cube losing a gram an hour."""
    for t in times:
        curves.record(seat, t, grams=6.0 - t / 3600, sigma_g=0.1 + t / 36000)


def test_a_point_every_interval_at_most() -> None:
    curves = Curves([1], t=0.0, wall=WALL)
    feed(curves, 1, [0.0, 5.0, 19.9, 20.0, 30.0, 39.0, 41.0, 100.0])
    assert [p[0] for p in curves.points(1)] == [0.0, 20.0, 41.0, 100.0]
    assert curves.points(1)[1] == (20.0, round(6.0 - 20 / 3600, 2), round(0.1 + 20 / 36000, 2))


def test_times_count_from_the_origin_and_the_start_is_its_wall_time() -> None:
    curves = Curves([2, 1], t=500.0, wall=WALL)
    feed(curves, 1, [499.0, 500.0, 530.0])
    assert curves.to_json() == {
        "start": WALL,
        "seats": [
            {"seat": 1, "points": [[0.0, 5.86, 0.11], [30.0, 5.85, 0.11]]},
            {"seat": 2, "points": []},
        ],
    }


def test_a_seat_the_table_has_not_got_is_ignored() -> None:
    curves = Curves([1, 2], t=0.0, wall=WALL)
    curves.record(7, 0.0, 6.0, 0.1)
    assert [s["seat"] for s in curves.to_json()["seats"]] == [1, 2]


def test_a_full_curve_keeps_every_other_point_at_twice_the_interval() -> None:
    curves = Curves([1], t=0.0, wall=WALL, interval_s=10.0, capacity=6)
    feed(curves, 1, [float(t) for t in range(0, 60, 10)])
    assert len(curves.points(1)) == 6
    feed(curves, 1, [60.0])
    assert [p[0] for p in curves.points(1)] == [0.0, 20.0, 40.0, 60.0]
    assert curves.interval(1) == 20.0
    feed(curves, 1, [70.0, 80.0, 90.0, 100.0])
    assert [p[0] for p in curves.points(1)] == [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]


def test_a_long_game_still_fits_evenly_from_its_start_to_now() -> None:
    curves = Curves([1], t=0.0, wall=WALL)
    hours = 30
    feed(curves, 1, [float(t) for t in range(0, hours * 3600, 2)])
    times = [p[0] for p in curves.points(1)]
    interval = curves.interval(1)
    assert len(times) <= CAPACITY
    assert len(times) > CAPACITY // 2
    assert times[0] == 0.0
    assert hours * 3600 - times[-1] <= interval
    assert {b - a for a, b in itertools.pairwise(times)} == {interval}


def test_a_new_game_starts_every_curve_afresh() -> None:
    curves = Curves([1, 2], t=0.0, wall=WALL, capacity=4)
    feed(curves, 1, [float(t) for t in range(0, 400, 5)])
    feed(curves, 2, [0.0])
    assert curves.interval(1) > INTERVAL_S
    curves.reset(1000.0, WALL + 1000.0)
    assert curves.to_json() == {
        "start": WALL + 1000.0,
        "seats": [{"seat": 1, "points": []}, {"seat": 2, "points": []}],
    }
    assert curves.interval(1) == INTERVAL_S
    feed(curves, 1, [999.0, 1000.0, 1010.0, 1020.0])
    assert [p[0] for p in curves.points(1)] == [0.0, 20.0]


@pytest.mark.parametrize("interval_s, capacity", [(0.0, 10), (-1.0, 10), (10.0, 1)])
def test_a_curve_needs_a_positive_interval_and_room(interval_s: float, capacity: int) -> None:
    with pytest.raises(ValueError, match="interval"):
        Curves([1], t=0.0, wall=WALL, interval_s=interval_s, capacity=capacity)


@given(
    gaps=st.lists(st.floats(0.0, 400.0, allow_nan=False), min_size=1, max_size=400),
    capacity=st.integers(2, 12),
    interval_s=st.sampled_from([1.0, 7.5, 20.0]),
)
def test_any_feed_keeps_the_curve_spaced_bounded_and_up_to_date(
    gaps: list[float], capacity: int, interval_s: float
) -> None:
    curves = Curves([1], t=0.0, wall=WALL, interval_s=interval_s, capacity=capacity)
    times, t = [], 0.0
    for gap in gaps:
        t = round(t + gap, 1)
        times.append(t)
    feed(curves, 1, times)
    kept = [p[0] for p in curves.points(1)]
    interval = curves.interval(1)
    assert 1 <= len(kept) <= capacity
    assert kept[0] == times[0]
    assert set(kept) <= set(times)
    assert all(b - a >= interval - 1e-9 for a, b in itertools.pairwise(kept))
    assert times[-1] - kept[-1] < interval
    assert math.log2(interval / interval_s).is_integer()
