"""The calibration steps' arithmetic and refusals, on samples made up in the test."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.sensors.calibration import SeatCalibration
from companion.sensors.calibration_checks import (
    FULL_SCALE,
    MIN_STEP_COUNTS,
    REASONS,
    CalibrationRefused,
    Samples,
    Settled,
    WeightPoint,
    check_apart,
    check_cap,
    check_distinct,
    check_grams,
    check_weighed,
    diagnose_pad,
    diagnose_probe,
    fit_weights,
    min_step,
    pressed_pad,
    probe_offset,
    settle,
    tare,
    warmed_probe,
    weigh,
)
from companion.sensors.reading import Reading


def noisy(mean: float, sd: float, n: int = 50, seed: int = 1) -> Samples:
    draw = random.Random(seed)
    return Samples(tuple(mean + draw.gauss(0.0, sd) for _ in range(n)), seconds=n / 10)


def test_samples_count_good_saturated_and_failed_reads() -> None:
    readings = [
        Reading(1, "scale", "p", 12, "ok", 0.0),
        Reading(1, "scale", "p", 2**23 - 1, "ok", 0.1),
        Reading(1, "scale", "p", None, "fault: saturated: check the load cell wiring", 0.2),
        Reading(1, "scale", "p", None, "fault: no data: check DOUT and power", 0.3),
    ]
    samples = Samples.of(readings, 0.4)
    assert (samples.values, samples.saturated, samples.faults) == ((12.0,), 2, 1)
    assert samples.count == 4


def test_settle_gives_the_mean_of_still_samples() -> None:
    settled = settle(noisy(1000.0, 50.0), 5000.0)
    assert settled.mean == pytest.approx(1000.0, abs=30.0)
    assert settled.count == 50 and settled.stderr == pytest.approx(settled.stdev / 50**0.5)


@pytest.mark.parametrize(
    ("samples", "words"),
    [
        (Samples((1.0, 2.0), faults=8), "gave 2 good readings of 10, at least 5 are needed"),
        (noisy(0.0, 9000.0), "did not settle (it spread"),
        (Samples(tuple(float(i * 500) for i in range(40))), "did not settle (it moved"),
    ],
)
def test_settle_refuses_too_few_and_unsettled_samples(samples: Samples, words: str) -> None:
    with pytest.raises(CalibrationRefused, match=r"check its wiring|keep the table still") as e:
        settle(samples, 5000.0, what="seat 2's pad")
    assert words in str(e.value) and str(e.value).startswith("seat 2's pad")


def test_once_calibrated_the_spread_is_judged_in_grams() -> None:
    calibrated = SeatCalibration(1, tare_counts=0.0, counts_per_gram=-20000.0)
    samples = noisy(0.0, 3000.0)  # 0.15 g: settled in counts, not in grams
    assert tare(samples).count == 50
    with pytest.raises(CalibrationRefused, match=r"spread 0\.1\d* g while it was read, at most"):
        tare(samples, calibrated)


def test_tare_refuses_a_saturated_pad() -> None:
    with pytest.raises(CalibrationRefused, match="read the HX711's full scale 3 times"):
        tare(Samples((0.0,) * 10, saturated=3), what="seat 1's pad")


@pytest.mark.parametrize("grams", [0.0, -5.0, float("nan"), float("inf")])
def test_a_weight_must_be_positive_grams(grams: float) -> None:
    with pytest.raises(CalibrationRefused, match="give its grams as a positive number"):
        check_grams(grams)
    with pytest.raises(CalibrationRefused, match="give its grams as a positive number"):
        weigh(Settled(0.0, 1.0, 50), grams, noisy(100_000.0, 10.0))


def test_weigh_refuses_saturated_and_unchanged_readings() -> None:
    zero = Settled(5000.0, 400.0, 50)
    with pytest.raises(CalibrationRefused, match="full scale 50 times with 500 g on it"):
        weigh(zero, 500.0, Samples((), saturated=50))
    with pytest.raises(CalibrationRefused, match=r"no different with 0\.05 g on it than empty"):
        weigh(zero, 0.05, noisy(5000.0 + 1000.0, 400.0))
    point = weigh(zero, 6.0, noisy(5000.0 + 6 * 21475.0, 400.0))
    assert point.grams == 6.0 and point.counts.mean == pytest.approx(133_850.0, abs=200.0)


def test_the_unchanged_threshold_follows_the_noise_with_a_floor() -> None:
    quiet = Settled(0.0, 2.0, 50)
    assert min_step(quiet, quiet) == MIN_STEP_COUNTS
    loud = Settled(0.0, 2000.0, 50)
    assert min_step(loud, loud) == pytest.approx(100 * (2 * 2000.0**2 / 50) ** 0.5)


@given(
    zero=st.floats(-2e6, 2e6),
    per_gram=st.floats(500.0, 50_000.0),
    sign=st.sampled_from([1.0, -1.0]),
    weights=st.lists(st.floats(1.0, 100.0), min_size=1, max_size=5, unique=True),
)
def test_the_fit_recovers_the_pad_s_line(
    zero: float, per_gram: float, sign: float, weights: list[float]
) -> None:
    slope = sign * per_gram
    points = [WeightPoint(g, Settled(zero + slope * g, 10.0, 50)) for g in weights]
    fit = fit_weights(Settled(zero, 10.0, 50), points)
    assert fit.counts_per_gram == pytest.approx(slope, rel=1e-6)
    assert fit.tare_counts == pytest.approx(zero, abs=1e-3 * per_gram)
    assert len(fit.residuals_g) == len(weights) + 1 and fit.worst_g < 1e-6


def test_one_weight_typed_twice_is_not_a_weight_that_reads_less() -> None:
    points = [
        WeightPoint(1.0, Settled(257.0 + 767.0, 10.0, 50)),
        WeightPoint(1.0000000000000002, Settled(257.0 + 767.0, 10.0, 50)),
    ]
    assert fit_weights(Settled(257.0, 10.0, 50), points).counts_per_gram == pytest.approx(767.0)


def test_three_weights_report_their_residuals() -> None:
    zero = Settled(1000.0, 400.0, 50)
    points = [
        WeightPoint(5.0, Settled(1000.0 + 5 * 21000.0 + 2100.0, 400.0, 50)),  # 0.1 g heavy
        WeightPoint(7.5, Settled(1000.0 + 7.5 * 21000.0, 400.0, 50)),
        WeightPoint(12.5, Settled(1000.0 + 12.5 * 21000.0, 400.0, 50)),
    ]
    fit = fit_weights(zero, points)
    assert 0.04 < fit.worst_g < 0.1
    assert fit.residuals_g[1] == -fit.worst_g  # the heavy point is the furthest off the line


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_fit_that_is_not_monotonic_is_refused(sign: float) -> None:
    zero = Settled(0.0, 400.0, 50)
    points = [
        WeightPoint(5.0, Settled(sign * 107_000.0, 400.0, 50)),
        WeightPoint(7.5, Settled(sign * 100_000.0, 400.0, 50)),
    ]
    with pytest.raises(CalibrationRefused) as refused:
        fit_weights(zero, points, "seat 2's pad")
    assert str(refused.value).startswith("seat 2's pad reads less with 7.5 g than with 5 g")
    assert "would not be monotonic" in str(refused.value)
    with pytest.raises(CalibrationRefused, match="weigh at least one"):
        fit_weights(zero, [])


def test_a_probe_s_offset_brings_it_to_the_reference() -> None:
    found = probe_offset("28-a", noisy(-180.0, 30.0, 20), 0.0)
    assert found.offset_c == pytest.approx(0.18, abs=0.02)
    assert found.reading_c == pytest.approx(-0.18, abs=0.02)


@pytest.mark.parametrize(
    ("milli", "reference", "words"),
    [
        (6500.0, 0.0, "6.5 C above the reference 0 C: it is not in the ice water yet"),
        (2100.0, 0.0, "2.1 C above"),
        (-200.0, 5.0, "5.2 C below the reference 5 C: ice water is never colder than 0 C"),
    ],
)
def test_a_probe_more_than_2_c_off_is_refused_with_the_likely_cause(
    milli: float, reference: float, words: str
) -> None:
    with pytest.raises(CalibrationRefused, match="probe") as refused:
        probe_offset("28-a", Samples((milli,) * 10), reference, "seat 3's probe")
    assert str(refused.value).startswith("seat 3's probe (28-a) reads")
    assert words in str(refused.value)


def test_a_probe_still_cooling_is_refused() -> None:
    cooling = Samples(tuple(3000.0 - 100.0 * i for i in range(20)))
    with pytest.raises(CalibrationRefused, match=r"did not settle \(it moved 1 C"):
        probe_offset("28-a", cooling, 0.0)


def test_the_warmed_probe_is_found_and_a_doubtful_one_refused() -> None:
    before = {p: Samples((21000.0,) * 3) for p in ("28-a", "28-b", "28-c")}
    after = {"28-a": Samples((21100.0,)), "28-b": Samples((24000.0, 27000.0)), "28-c": Samples(())}
    found = warmed_probe(before, after, 2)
    assert (found.id, found.change, found.runner_up) == ("28-b", 6.0, "28-a")
    with pytest.raises(CalibrationRefused, match="no probe warmed by 1 C or more"):
        warmed_probe(before, {"28-a": Samples((21500.0,))}, 2)
    alike = {"28-a": Samples((24000.0,)), "28-b": Samples((25000.0,))}
    with pytest.raises(CalibrationRefused, match="two probes warmed alike"):
        warmed_probe(before, alike, 2)
    with pytest.raises(CalibrationRefused, match="no probe gave a reading"):
        warmed_probe({}, after, 2)


def test_the_pressed_pad_is_found_and_a_doubtful_one_refused() -> None:
    before = {"p1": noisy(0.0, 400.0), "p2": noisy(50_000.0, 400.0)}
    found = pressed_pad(before, {"p1": noisy(0.0, 400.0), "p2": Samples((), saturated=4)}, 1)
    assert (found.id, found.change) == ("p2", float(FULL_SCALE))
    with pytest.raises(CalibrationRefused, match="no pad moved by 50000 counts or more"):
        pressed_pad(before, {"p1": noisy(10_000.0, 400.0), "p2": noisy(50_000.0, 400.0)}, 1)
    with pytest.raises(CalibrationRefused, match="two pads moved alike"):
        pressed_pad(before, {"p1": noisy(800_000.0, 400.0), "p2": noisy(600_000.0, 400.0)}, 1)


def test_one_sensor_for_two_seats_is_refused() -> None:
    check_distinct("pad", {1: "p1", 2: "p2"})
    with pytest.raises(
        CalibrationRefused, match=r"the same pad \(p1\) was found for seats 1 and 3"
    ):
        check_distinct("pad", {1: "p1", 2: "p2", 3: "p1"})


def test_the_diagnosis_names_what_is_wrong() -> None:
    seat = SeatCalibration(1, tare_counts=0.0, counts_per_gram=20000.0)
    good = diagnose_pad(noisy(400.0, 400.0), seat, 10)
    assert good.problems == () and good.unit == "g" and good.noise == pytest.approx(0.02, 0.2)
    assert good.drift_g == pytest.approx(0.02, abs=0.01) and good.per_second == 10.0
    stuck = diagnose_pad(Samples((5.0,) * 20, saturated=2, faults=3, seconds=10.0), seat, 10)
    words = " ".join(stuck.problems)
    for expected in ("saturated reads", "3 failed reads", "one value only", "2.5 reads a second"):
        assert expected in words
    drifted = diagnose_pad(noisy(8000.0, 4000.0), seat, 10)
    assert any("drifted +0.4" in p for p in drifted.problems)
    assert any(p.startswith("noisy") for p in drifted.problems)
    assert diagnose_pad(noisy(0.0, 1.0), None, 10).problems[-1].startswith("not tared")
    untared = diagnose_pad(noisy(0.0, 1.0), SeatCalibration(1, tare_counts=0.0), 10)
    assert untared.problems[-1].startswith("no grams yet") and untared.unit == "counts"
    probe = diagnose_probe(noisy(21000.0, 500.0, 10), SeatCalibration(1, probe_offset_c=-0.5))
    assert probe.value == pytest.approx(20.5, abs=0.3) and probe.unit == "C"
    assert [p.split(":")[0] for p in probe.problems] == ["noisy", "no offset"]


@pytest.mark.parametrize(
    ("grams", "says"), [(0.05, "set the empty cap"), (140.0, "more than a cap")]
)
def test_a_cap_that_is_not_there_or_far_too_heavy_is_refused(grams: float, says: str) -> None:
    with pytest.raises(CalibrationRefused, match=says):
        check_cap(grams, "seat 1's pad")


STILL = noisy(0.0, 10.0)
COLD = {"28-a": Samples((21000.0,) * 3), "28-b": Samples((21000.0,) * 3)}
EMPTY = {"p1": Samples((0.0,) * 3), "p2": Samples((0.0,) * 3)}


@pytest.mark.parametrize(
    ("refuse", "reason", "facts"),
    [
        (lambda: settle(Samples((1.0,)), 5.0), "few-readings", {"good": 1, "needed": 5}),
        (lambda: settle(noisy(0.0, 9000.0), 5000.0), "unsettled", {"unit": "counts"}),
        (lambda: tare(Samples((0.0,) * 9, saturated=2)), "saturated", {"times": 2}),
        (lambda: check_grams(-1.0), "grams", {"grams": -1.0}),
        (lambda: check_cap(0.05, "p"), "no-cap", {"grams": 0.05}),
        (lambda: check_cap(250.0, "p"), "cap-heavy", {"grams": 250.0}),
        (lambda: weigh(Settled(0.0, 10.0, 50), 6.0, STILL), "no-change", {"grams": 6.0}),
        (lambda: fit_weights(Settled(0.0, 1.0, 50), []), "no-weight", {}),
        (
            lambda: fit_weights(
                Settled(0.0, 1.0, 50),
                [WeightPoint(5.0, Settled(9e4, 1.0, 50)), WeightPoint(9.0, Settled(8e4, 1.0, 50))],
            ),
            "not-monotonic",
            {"grams": 9.0, "last": 5.0},
        ),
        (
            lambda: check_apart(
                WeightPoint(5.0, Settled(9e4, 1.0, 50)),
                WeightPoint(9.0, Settled(9e4, 1.0, 50)),
                "p",
            ),
            "same-weight",
            {"grams": 9.0, "last": 5.0},
        ),
        (lambda: probe_offset("28-a", Samples((4000.0,) * 6), 0.0), "probe-high", {"off": 4.0}),
        (lambda: probe_offset("28-a", Samples((0.0,) * 6), 9.0), "probe-low", {"reference": 9.0}),
        (lambda: warmed_probe({}, {}, 1), "no-probe", {}),
        (lambda: warmed_probe(COLD, COLD, 1), "not-warmed", {}),
        (
            lambda: warmed_probe(COLD, {k: Samples((25000.0,)) for k in COLD}, 1),
            "warmed-alike",
            {},
        ),
        (lambda: pressed_pad({}, {}, 1), "no-pad", {}),
        (lambda: pressed_pad(EMPTY, EMPTY, 1), "not-pressed", {}),
        (
            lambda: pressed_pad(EMPTY, {k: Samples((9e5,)) for k in EMPTY}, 1),
            "pressed-alike",
            {},
        ),
        (
            lambda: check_distinct("pad", {1: "p1", 3: "p1"}),
            "same-sensor",
            {"first": 1, "seat": 3},
        ),
        (lambda: check_weighed(None, 2, "p"), "not-tared", {}),
        (lambda: check_weighed(SeatCalibration(2, tare_counts=0.0), 2, "p"), "not-weighed", {}),
    ],
)
def test_every_refusal_names_its_reason_and_facts(
    refuse: Callable[[], object], reason: str, facts: dict[str, object]
) -> None:
    """A page says a refusal in its own words and language: from its reason and facts."""
    with pytest.raises(CalibrationRefused) as refused:
        refuse()
    assert refused.value.reason == reason and reason in REASONS
    assert facts.items() <= refused.value.facts.items()
