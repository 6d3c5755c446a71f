"""Weigh-in detection: placement, settling, knocks, dips, wobbling loads and removal."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from companion.sensors.weigh_in import Placed, Removed, Settled, Unsettled, WeighIn

RATE = 0.1


def feed(pad: WeighIn, samples: list[float], t0: float = 0.0) -> list:
    return [e for i, g in enumerate(samples) for e in pad.push(t0 + i * RATE, g)]


def noisy(grams: float, n: int, rng: random.Random, sigma: float = 0.01) -> list[float]:
    return [grams + rng.gauss(0.0, sigma) for _ in range(n)]


def test_a_cap_set_down_and_lifted_is_one_weigh_in() -> None:
    rng = random.Random(1)
    pad = WeighIn()
    events = feed(pad, noisy(0.0, 10, rng) + noisy(8.4, 40, rng) + noisy(0.0, 10, rng))
    assert [type(e) for e in events] == [Placed, Settled, Removed]
    placed, settled, removed = events
    assert placed.t == 1.0
    assert abs(settled.grams - 8.4) < 0.02
    assert settled.t - placed.t >= pad.settle_s * 0.9
    assert removed.t > settled.t


def test_a_knock_is_ignored() -> None:
    pad = WeighIn()
    assert feed(pad, [0.0] * 5 + [30.0, 12.0, 0.0] + [0.0] * 20) == []
    assert not pad.loaded


def test_a_dip_of_a_placed_cap_is_not_a_removal() -> None:
    pad = WeighIn()
    events = feed(pad, [7.0] * 30 + [0.0] * 2 + [7.0] * 10)
    assert [type(e) for e in events] == [Placed, Settled]
    assert pad.loaded


def test_a_load_that_never_settles_is_reported_once() -> None:
    pad = WeighIn(timeout_s=5.0)
    wobble = [6.0 + (0.5 if i % 2 else -0.5) for i in range(200)]
    events = feed(pad, wobble)
    assert [type(e) for e in events] == [Placed, Unsettled]
    assert events[1].spread_g >= 0.9


def test_a_load_that_settles_late_still_weighs_in() -> None:
    pad = WeighIn(timeout_s=3.0)
    events = feed(pad, [6.0 + (0.4 if i % 2 else 0.0) for i in range(50)] + [6.1] * 20)
    assert [type(e) for e in events] == [Placed, Unsettled, Settled]
    assert events[-1].grams == 6.1


def test_nan_samples_are_skipped() -> None:
    pad = WeighIn()
    assert feed(pad, [float("nan")] * 5) == []


@given(st.lists(st.floats(-5.0, 50.0, allow_nan=False), max_size=300))
def test_events_alternate_sensibly(samples: list[float]) -> None:
    """Every Settled and Removed follows a Placed; one Settled per placement at most."""
    events = feed(WeighIn(), samples)
    placed = False
    settled = 0
    for event in events:
        if isinstance(event, Placed):
            assert not placed
            placed, settled = True, 0
        elif isinstance(event, Removed):
            assert placed
            placed = False
        else:
            assert placed
            settled += isinstance(event, Settled)
            assert settled <= 1
