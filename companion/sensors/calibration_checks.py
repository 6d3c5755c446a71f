"""What each calibration step computes from its samples, and what it refuses: pure, no I/O.

The command (``companion calibrate``) takes the samples and asks the questions; this module
judges them, as Klipper's guided load-cell calibration does: a settled tare, known grams on the
pad, and a refusal, with a sentence saying what is wrong and what to do, for a saturated
reading, a reading no different from the tare, a non-positive weight or a fit that is not
monotonic. Probes are calibrated against a reference (ice water is 0 C) and identified by
warming them; pads by pressing them. Raw values are the drivers': HX711 counts, and
milli-degrees for a probe.

>>> tare = settle(Samples((1000.0, 1010.0, 990.0, 1000.0, 1005.0, 995.0)), SPREAD_COUNTS)
>>> point = weigh(tare, 6.0, Samples((130_000.0, 130_010.0, 129_990.0, 130_000.0, 130_005.0)))
>>> fit = fit_weights(tare, [point])
>>> round(fit.counts_per_gram, 1), round(fit.tare_counts)
(21500.2, 1000)
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.errors import CompanionError
from companion.sensors.calibration import HX711_RANGE, Calibration, SeatCalibration
from companion.sensors.filters import calibrate_linear
from companion.sensors.reading import SCALE, THERMOMETER, Reading

FULL_SCALE = 2**23
"""HX711 counts from zero to either end of its range."""
MIN_SAMPLES = 5
"""Fewer good readings than this say more about the wiring than about the load."""
SPREAD_COUNTS = 5000.0
"""The most an uncalibrated pad may spread (standard deviation, or the drift from the first half
of the samples to the second) and still count as settled: about 0.25 g on a 100 g bar, 20 times
the HX711's own noise at gain 128, well under a hand resting on the table."""
SPREAD_G = 0.1
"""The same once a pad is calibrated: a tenth of a gram, a few drops of melt water."""
SPREAD_C = 0.2
"""The most a probe may spread and still count as settled: three steps at 12 bits."""
MIN_STEP_COUNTS = 1000.0
"""A known weight must move the reading at least this far from the tare, whatever the noise."""
SLOPE_PRECISION = 0.01
"""A known weight must move the reading by 1/SLOPE_PRECISION times the step's uncertainty."""
MAX_OFFSET_C = 2.0
"""A probe further than this from the reference is not off, it is not in the reference."""
MIN_WARMING_C = 1.0
"""Fingers around a probe warm it by several degrees in ten seconds; noise is 0.03 C."""
MIN_PRESS_COUNTS = 50_000.0
"""A finger on a pad: about 2 g on a 100 g bar, 100 g on a 5 kg bar; a press is more on either."""
CLEARLY = 2.0
"""The sensor found must have changed at least this many times as much as the next one."""
DRIFT_G = 0.2
"""An empty pad further than this from its tare should be tared again."""
NOISY_G = 0.1
"""A pad noisier than this (standard deviation) weighs a cube no better than to 0.1 g."""


class CalibrationRefused(CompanionError):
    """A calibration step whose samples cannot be trusted: what is wrong and what to do.

    Besides its sentence (the command's), a refusal names its ``reason`` (one of
    :data:`REASONS`) and the ``facts`` it rests on (numbers and sensor ids), so a page can say
    it in its own words and language.

    >>> refused = CalibrationRefused("no", "saturated", times=3)
    >>> refused.reason, refused.facts
    ('saturated', {'times': 3})
    """

    def __init__(self, message: str, reason: str, **facts: float | str) -> None:
        super().__init__(message)
        self.reason = reason
        self.facts = facts


REASONS = (
    "few-readings",
    "unsettled",
    "saturated",
    "grams",
    "no-cap",
    "cap-heavy",
    "no-change",
    "no-weight",
    "not-monotonic",
    "same-weight",
    "probe-high",
    "probe-low",
    "no-probe",
    "not-warmed",
    "warmed-alike",
    "no-pad",
    "not-pressed",
    "pressed-alike",
    "same-sensor",
    "not-tared",
    "not-weighed",
)
"""Why a step is refused, in short (each refusal's sentence says it in full)."""


@dataclass(frozen=True)
class Samples:
    """What one sensor gave while it was sampled: its good raw values, and its failed reads.

    ``saturated`` counts reads at the HX711's full scale (its driver reports them as faults),
    ``faults`` every other failed read; ``seconds`` is how long the sampling took.
    """

    values: tuple[float, ...]
    saturated: int = 0
    faults: int = 0
    seconds: float = 0.0

    @classmethod
    def of(cls, readings: Iterable[Reading], seconds: float = 0.0) -> Samples:
        """The samples in one sensor's readings.

        >>> r = [Reading(1, "scale", "p", 5, "ok", 0.0), Reading(1, "scale", "p", None,
        ...      "fault: saturated: check the load cell wiring or the load", 0.1)]
        >>> Samples.of(r, 0.2)
        Samples(values=(5.0,), saturated=1, faults=0, seconds=0.2)
        """
        values: list[float] = []
        saturated = faults = 0
        for reading in readings:
            at_end = reading.raw is not None and not HX711_RANGE[0] < reading.raw < HX711_RANGE[1]
            if reading.ok and reading.raw is not None and not (at_end and reading.kind == SCALE):
                values.append(float(reading.raw))
            elif "saturated" in reading.status or at_end:
                saturated += 1
            else:
                faults += 1
        return cls(tuple(values), saturated, faults, seconds)

    @property
    def count(self) -> int:
        return len(self.values) + self.saturated + self.faults


@dataclass(frozen=True)
class Settled:
    """A settled reading: the mean of its samples, their standard deviation and number."""

    mean: float
    stdev: float
    count: int

    @property
    def stderr(self) -> float:
        """The uncertainty of the mean."""
        return self.stdev / math.sqrt(self.count)


def settle(
    samples: Samples,
    max_spread: float,
    per_unit: float = 1.0,
    unit: str = "counts",
    what: str = "the reading",
) -> Settled:
    """The mean of ``samples`` once they hold still, else a refusal.

    Spread is the standard deviation, and the drift between the first and second half's means;
    both are divided by ``per_unit`` (counts per gram, 1000 for milli-degrees) and compared with
    ``max_spread`` in ``unit``.

    >>> settle(Samples((10.0, 12.0, 11.0, 9.0, 10.0, 12.0)), 5.0).mean
    10.666666666666666
    >>> settle(Samples((0.0, 0.0, 0.0, 90.0, 90.0, 90.0)), 5.0, what="seat 1's pad")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.calibration_checks.CalibrationRefused: seat 1's pad did not settle ...
    """
    values = samples.values
    if len(values) < MIN_SAMPLES:
        raise CalibrationRefused(
            f"{what} gave {len(values)} good readings of {samples.count}, at least "
            f"{MIN_SAMPLES} are needed: check its wiring with `companion sensors`",
            "few-readings",
            good=len(values),
            total=samples.count,
            needed=MIN_SAMPLES,
        )
    stdev = statistics.stdev(values)
    half = len(values) // 2
    drift = abs(statistics.fmean(values[half:]) - statistics.fmean(values[:half]))
    spread = max(stdev, drift) / abs(per_unit)
    if spread > max_spread:
        moved = "moved" if drift >= stdev else "spread"
        raise CalibrationRefused(
            f"{what} did not settle (it {moved} {spread:.3g} {unit} while it was read, at most "
            f"{max_spread:.3g} {unit}): keep the table still and hands off, then try again",
            "unsettled",
            spread=spread,
            most=max_spread,
            unit=unit,
        )
    return Settled(statistics.fmean(values), stdev, len(values))


def pad_spread(seat: SeatCalibration | None) -> tuple[float, float, str]:
    """How still a pad must be: ``(max_spread, per_unit, unit)`` in grams once it is calibrated,
    else in counts.

    >>> pad_spread(None)
    (5000.0, 1.0, 'counts')
    >>> pad_spread(SeatCalibration(1, counts_per_gram=-20000.0))
    (0.1, -20000.0, 'g')
    """
    if seat is not None and seat.counts_per_gram:
        return SPREAD_G, seat.counts_per_gram, "g"
    return SPREAD_COUNTS, 1.0, "counts"


def refuse_saturated(samples: Samples, what: str, load: str) -> None:
    """Refuse samples with a read at the HX711's full scale: the load or the wiring is wrong."""
    if samples.saturated:
        raise CalibrationRefused(
            f"{what} read the HX711's full scale {samples.saturated} times with {load}: "
            "take the load off and check the load cell's four wires (a loose one saturates it); "
            "a known weight must be well under the load cell's rating",
            "saturated",
            times=samples.saturated,
        )


def tare(samples: Samples, seat: SeatCalibration | None = None, what: str = "the pad") -> Settled:
    """The empty pad's settled counts: refused when saturated or unsettled.

    >>> tare(Samples((5.0, 7.0, 6.0, 5.0, 7.0, 6.0))).mean
    6.0
    """
    refuse_saturated(samples, what, "nothing on it")
    max_spread, per_unit, unit = pad_spread(seat)
    return settle(samples, max_spread, per_unit, unit, what)


def check_grams(grams: float) -> float:
    """A known weight's grams, refused unless a positive number.

    >>> check_grams(0.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.calibration_checks.CalibrationRefused: a known weight of 0 g cannot...
    """
    if not math.isfinite(grams) or grams <= 0.0:
        raise CalibrationRefused(
            f"a known weight of {grams:g} g cannot calibrate a pad: "
            "give its grams as a positive number, such as 6.0",
            "grams",
            grams=grams,
        )
    return grams


@dataclass(frozen=True)
class WeightPoint:
    """A known weight and the pad's settled counts with it."""

    grams: float
    counts: Settled


CAP_G = (0.2, 100.0)
"""An empty cap weighs more than a fifth of a gram (else it is not on the pad) and, as the
calibration file allows, at most 100 g."""


def check_cap(grams: float, what: str) -> float:
    """The weight of an empty cap, refused when no cap, or far too much, stands on the pad.

    >>> check_cap(3.1, "seat 1's pad")
    3.1
    """
    if grams < CAP_G[0]:
        raise CalibrationRefused(
            f"{what} reads {grams:.2f} g: set the empty cap on it (or weigh the pad again: "
            "`companion calibrate weight`)",
            "no-cap",
            grams=grams,
        )
    if grams > CAP_G[1]:
        raise CalibrationRefused(
            f"{what} reads {grams:.1f} g, more than a cap weighs: take off all but the empty cap",
            "cap-heavy",
            grams=grams,
        )
    return grams


def min_step(tare: Settled, counts: Settled) -> float:
    """How far a known weight must move the reading from the tare to count as a change.

    Klipper refuses a step under 1 % of the converter's full scale, because a printer's load
    cell is calibrated with a kilogram. A weigh pad is calibrated with a coin, which moves a
    100 g bar about 1.3 % of full scale and a 500 g bar 0.3 %. So here the 1 % is the slope's:
    the step must be 100 times its own uncertainty (from the noise of the tare and of the
    weight), so counts per gram is known to 1 %; and never under ``MIN_STEP_COUNTS``, so a pad
    whose load cell is not connected (the chip's own noise is tiny) is not taken for one.

    >>> min_step(Settled(0.0, 400.0, 50), Settled(0.0, 400.0, 50))
    8000.0
    """
    uncertainty = math.hypot(tare.stderr, counts.stderr)
    return max(MIN_STEP_COUNTS, uncertainty / SLOPE_PRECISION)


def weigh(
    tare: Settled, grams: float, samples: Samples, what: str = "the pad", per_unit: float = 1.0
) -> WeightPoint:
    """The pad's settled counts with ``grams`` on it: refused when the weight is not positive,
    the reading saturated, unsettled, or no different from the tare."""
    check_grams(grams)
    refuse_saturated(samples, what, f"{grams:g} g on it")
    unit = "g" if per_unit != 1.0 else "counts"
    counts = settle(samples, SPREAD_G if unit == "g" else SPREAD_COUNTS, per_unit, unit, what)
    step = abs(counts.mean - tare.mean)
    needed = min_step(tare, counts)
    if step < needed:
        raise CalibrationRefused(
            f"{what} reads no different with {grams:g} g on it than empty ({step:.0f} counts "
            f"apart, at least {needed:.0f} needed): make sure the weight stands on the pad "
            "alone, and check the load cell's wires; a heavier weight helps",
            "no-change",
            grams=grams,
            apart=step,
            needed=needed,
        )
    return WeightPoint(grams, counts)


@dataclass(frozen=True)
class WeightFit:
    """The line through the tare and the known weights: the pad's zero, its slope and how
    far each point is from the line, in grams (the tare's first)."""

    tare_counts: float
    counts_per_gram: float
    residuals_g: tuple[float, ...]

    @property
    def worst_g(self) -> float:
        return max(abs(r) for r in self.residuals_g)


SAME_WEIGHT_G = 0.01
"""Weights closer than this are one weight weighed twice: their readings are not compared."""


def fit_weights(tare: Settled, points: Sequence[WeightPoint], what: str = "the pad") -> WeightFit:
    """Fit grams to counts by least squares (``calibrate_linear``) through the tare at 0 g and
    every known weight; refused when a heavier weight does not read further from the tare.

    >>> tare = Settled(0.0, 1.0, 50)
    >>> points = [WeightPoint(5.0, Settled(100_000.0, 1.0, 50)),
    ...           WeightPoint(10.0, Settled(90_000.0, 1.0, 50))]
    >>> fit_weights(tare, points, "seat 2's pad")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.calibration_checks.CalibrationRefused: seat 2's pad reads less ...
    """
    if not points:
        raise CalibrationRefused(
            f"no known weight was put on {what}: weigh at least one", "no-weight"
        )
    ordered = sorted(points, key=lambda p: p.grams)
    sign = math.copysign(1.0, ordered[-1].counts.mean - tare.mean)
    last_grams, last_step = 0.0, 0.0
    for point in ordered:
        step = (point.counts.mean - tare.mean) * sign
        if point.grams > last_grams + SAME_WEIGHT_G and step <= last_step:
            raise CalibrationRefused(
                f"{what} reads less with {point.grams:g} g than with {last_grams:g} g "
                f"({step:.0f} counts from the tare, and {last_step:.0f}): the fit would not be "
                "monotonic; weigh again, each weight standing still on the pad alone",
                "not-monotonic",
                grams=point.grams,
                last=last_grams,
            )
        last_grams, last_step = point.grams, step
    line = calibrate_linear(
        [(tare.mean, 0.0), *((p.counts.mean, p.grams) for p in points)],
    )
    return WeightFit(-line.intercept / line.slope, 1.0 / line.slope, line.residuals)


@dataclass(frozen=True)
class ProbeOffset:
    """A probe's settled reading against the reference, and the offset that corrects it."""

    probe: str
    reading_c: float
    offset_c: float
    stdev_c: float


def probe_offset(
    probe: str, samples: Samples, reference_c: float, what: str = "the probe"
) -> ProbeOffset:
    """The offset that makes a probe read ``reference_c``; ``samples`` are milli-degrees.

    >>> probe_offset("28-a", Samples((190.0, 250.0, 190.0, 250.0, 190.0, 250.0)), 0.0).offset_c
    -0.22
    >>> probe_offset("28-a", Samples((6500.0,) * 6), 0.0, "seat 2's probe")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.calibration_checks.CalibrationRefused: seat 2's probe (28-a) reads 6.5 C, ...
    """
    settled = settle(samples, SPREAD_C, 1000.0, "C", f"{what} ({probe})")
    reading = settled.mean / 1000.0
    off = reading - reference_c
    if off > MAX_OFFSET_C:
        raise CalibrationRefused(
            f"{what} ({probe}) reads {reading:.1f} C, {off:.1f} C above the reference "
            f"{reference_c:g} C: it is not in the ice water yet, or the water is not stirred or "
            "has too little ice; if it stays off, it is the wrong probe or a faulty one",
            "probe-high",
            reading=reading,
            off=off,
            reference=reference_c,
        )
    if off < -MAX_OFFSET_C:
        raise CalibrationRefused(
            f"{what} ({probe}) reads {reading:.1f} C, {-off:.1f} C below the reference "
            f"{reference_c:g} C: ice water is never colder than 0 C unless salted, so check the "
            "reference and the water; if it stays off, the probe is faulty: replace it",
            "probe-low",
            reading=reading,
            off=-off,
            reference=reference_c,
        )
    return ProbeOffset(probe, reading, round(reference_c - reading, 3), settled.stdev / 1000.0)


@dataclass(frozen=True)
class Found:
    """The sensor that changed, by how much, and the sensor that changed most after it."""

    id: str
    change: float
    runner_up: str | None
    runner_up_change: float


def _changes(
    before: Mapping[str, Samples], after: Mapping[str, Samples], change: str
) -> list[tuple[float, str]]:
    found = []
    for id_, then in after.items():
        base = before.get(id_)
        if base is None or not base.values:
            continue
        mean = statistics.fmean(base.values)
        if change == "rise" and then.values:
            found.append((max(then.values) - mean, id_))
        elif change == "move":
            moved = max((abs(v - mean) for v in then.values), default=0.0)
            found.append((float(FULL_SCALE) if then.saturated else moved, id_))
    return sorted(found, reverse=True)


def _found(changes: list[tuple[float, str]]) -> Found:
    best, id_ = changes[0]
    runner, runner_id = changes[1] if len(changes) > 1 else (0.0, None)
    return Found(id_, best, runner_id, runner)


def warmed_probe(before: Mapping[str, Samples], after: Mapping[str, Samples], seat: int) -> Found:
    """The probe warmed by fingers: it rose most, by ``MIN_WARMING_C`` or more, and at least
    ``CLEARLY`` times as much as any other. Samples are milli-degrees; changes are degrees.

    >>> cold = {"28-a": Samples((21000.0,) * 3), "28-b": Samples((21500.0,) * 3)}
    >>> warm = {"28-a": Samples((21000.0, 24000.0)), "28-b": Samples((21600.0,))}
    >>> found = warmed_probe(cold, warm, 1)
    >>> found.id, found.change, found.runner_up_change
    ('28-a', 3.0, 0.1)
    """
    changes = [(c / 1000.0, i) for c, i in _changes(before, after, "rise")]
    if not changes:
        raise CalibrationRefused(
            "no probe gave a reading: check the probes with `companion sensors`", "no-probe"
        )
    found = _found(changes)
    if found.change < MIN_WARMING_C:
        raise CalibrationRefused(
            f"no probe warmed by {MIN_WARMING_C:g} C or more (the most: {found.id}, by "
            f"{found.change:.1f} C): hold the probe of seat {seat} in your closed hand until the "
            "bar is full, then try again",
            "not-warmed",
            most=found.id,
            change=found.change,
        )
    if found.runner_up_change * CLEARLY > found.change:
        raise CalibrationRefused(
            f"two probes warmed alike ({found.id} by {found.change:.1f} C, {found.runner_up} by "
            f"{found.runner_up_change:.1f} C): warm only the probe of seat {seat}, after the "
            "others have cooled for a minute",
            "warmed-alike",
            found=found.id,
            other=found.runner_up or "",
        )
    return found


def pressed_pad(before: Mapping[str, Samples], after: Mapping[str, Samples], seat: int) -> Found:
    """The pad pressed by a finger: it moved most (a saturated read counts as full scale), by
    ``MIN_PRESS_COUNTS`` or more, and at least ``CLEARLY`` times as far as any other.

    >>> still = {"hx711:gpio22": Samples((0.0,) * 3), "hx711:gpio23": Samples((9.0,) * 3)}
    >>> pressed = {"hx711:gpio22": Samples((10.0,)), "hx711:gpio23": Samples((), saturated=2)}
    >>> pressed_pad(still, pressed, 2).id
    'hx711:gpio23'
    """
    changes = _changes(before, after, "move")
    if not changes:
        raise CalibrationRefused(
            "no pad gave a reading: check the pads with `companion sensors`", "no-pad"
        )
    found = _found(changes)
    if found.change < MIN_PRESS_COUNTS:
        raise CalibrationRefused(
            f"no pad moved by {MIN_PRESS_COUNTS:.0f} counts or more (the most: {found.id}, by "
            f"{found.change:.0f}): press the pad of seat {seat} firmly with a finger until the "
            "bar is full, then try again",
            "not-pressed",
            most=found.id,
            change=found.change,
        )
    if found.runner_up_change * CLEARLY > found.change:
        raise CalibrationRefused(
            f"two pads moved alike ({found.id} by {found.change:.0f} counts, {found.runner_up} "
            f"by {found.runner_up_change:.0f}): press only the pad of seat {seat}, and nothing "
            "else on the table",
            "pressed-alike",
            found=found.id,
            other=found.runner_up or "",
        )
    return found


def check_distinct(kind: str, found: Mapping[int, str]) -> None:
    """Refuse one sensor found for two seats.

    >>> check_distinct("probe", {1: "28-a", 2: "28-a"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.calibration_checks.CalibrationRefused: the same probe (28-a) was found...
    """
    seats: dict[str, int] = {}
    for seat, id_ in sorted(found.items()):
        if id_ in seats:
            raise CalibrationRefused(
                f"the same {kind} ({id_}) was found for seats {seats[id_]} and {seat}: each seat "
                f"has its own; start again, {'warming' if kind == 'probe' else 'pressing'} only "
                "the one of the seat asked for",
                "same-sensor",
                kind=kind,
                sensor=id_,
                first=seats[id_],
                seat=seat,
            )
        seats[id_] = seat


@dataclass(frozen=True)
class Diagnosis:
    """A sensor's health, as Klipper's load-cell diagnostic: how many reads, how fast, how many
    different, saturated or failed, its noise and its value in true units (grams on the pad,
    or degrees), the drift of an empty pad from its tare, and what to do about any of it."""

    samples: int
    per_second: float
    unique: int
    saturated: int
    faults: int
    noise: float | None
    value: float | None
    unit: str
    drift_g: float | None
    problems: tuple[str, ...]


def diagnose_pad(
    samples: Samples, seat: SeatCalibration | None, rate_hz: float, empty: bool = True
) -> Diagnosis:
    """An (empty, unless said) pad's diagnosis, in grams once calibrated, else in counts.

    >>> d = diagnose_pad(Samples((100.0, 2100.0) * 25, seconds=5.0),
    ...                  SeatCalibration(1, tare_counts=0.0, counts_per_gram=20000.0), 10)
    >>> d.per_second, d.unique, round(d.noise, 3), d.drift_g, d.problems
    (10.0, 2, 0.05, 0.055, ())
    """
    values = samples.values
    calibrated = seat is not None and seat.tare_counts is not None and bool(seat.counts_per_gram)
    per = seat.counts_per_gram if calibrated and seat is not None and seat.counts_per_gram else 1.0
    noise = statistics.pstdev(values) / abs(per) if len(values) > 1 else None
    mean = statistics.fmean(values) if values else None
    value, drift = mean, None
    if mean is not None and calibrated and seat is not None:
        value = seat.grams(mean)
        drift = round(value, 3) if empty and value is not None else None
    per_second = samples.count / samples.seconds if samples.seconds > 0 else 0.0
    problems = []
    if samples.saturated:
        problems.append("saturated reads: take the load off and check the load cell's wires")
    if samples.faults:
        problems.append(f"{samples.faults} failed reads: run `companion sensors` to see why")
    if len(values) >= MIN_SAMPLES and len(set(values)) == 1:
        problems.append("one value only: the load cell is not connected to the HX711")
    if samples.seconds > 0 and per_second < 0.8 * rate_hz:
        problems.append(
            f"{per_second:.1f} reads a second, not {rate_hz:g}: check the HX711's RATE pin "
            "and the config's hx711_rate_hz"
        )
    if calibrated and noise is not None and noise > NOISY_G:
        problems.append(
            "noisy: keep the wires short and twisted, away from the Pi, and the pad still"
        )
    if drift is not None and abs(drift) > DRIFT_G:
        problems.append(f"drifted {drift:+.2f} g since its tare: tare it again")
    if seat is None or seat.tare_counts is None:
        problems.append("not tared: run `companion calibrate tare` with the pad empty")
    elif not seat.counts_per_gram:
        problems.append("no grams yet: run `companion calibrate weight` with a known weight")
    return Diagnosis(
        samples.count,
        per_second,
        len(set(values)),
        samples.saturated,
        samples.faults,
        noise,
        value,
        "g" if calibrated else "counts",
        drift,
        tuple(problems),
    )


def diagnose_probe(samples: Samples, seat: SeatCalibration | None) -> Diagnosis:
    """A probe's diagnosis: its noise and its corrected reading in degrees.

    >>> d = diagnose_probe(Samples((21000.0, 21062.0), seconds=2.0), SeatCalibration(1))
    >>> d.value, d.unique, d.problems
    (21.031, 2, ('no offset: run `companion calibrate temperature` in ice water',))
    """
    values = samples.values
    offset = seat.probe_offset_c if seat is not None else 0.0
    noise = statistics.pstdev(values) / 1000.0 if len(values) > 1 else None
    value = round(statistics.fmean(values) / 1000.0 + offset, 3) if values else None
    problems = []
    if samples.faults:
        problems.append(f"{samples.faults} failed reads: run `companion sensors` to see why")
    if noise is not None and noise > SPREAD_C:
        problems.append("noisy: check its wiring and the 4.7 kOhm pull-up")
    if seat is None or seat.probe_calibrated_at is None:
        problems.append("no offset: run `companion calibrate temperature` in ice water")
    per_second = samples.count / samples.seconds if samples.seconds > 0 else 0.0
    return Diagnosis(
        samples.count,
        per_second,
        len(set(values)),
        0,
        samples.faults,
        noise,
        value,
        "C",
        None,
        tuple(problems),
    )


PAD_SECONDS = 5.0
"""A pad is read this long: 50 reads at 10 a second give a mean to a seventh of the noise."""
PROBE_SECONDS = 10.0
"""Probes are read this long: ten sweeps or more at 12 bits when converted together."""
BASELINE_SECONDS = 2.0
"""How long the sensors are read before a probe is warmed or a pad pressed."""
PRESS_G = 50.0
"""What the simulated table's finger presses with."""
PROBE_KEYS = ("thermometer", "probe_offset_c", "probe_calibrated_at")
PAD_KEYS = ("scale", "tare_counts", "tared_at", "counts_per_gram", "weighed_at")
"""What travels with a probe or a pad when it is found at another seat."""


def assign(calibration: Calibration, kind: str, found: Mapping[int, str]) -> Calibration:
    """``calibration`` with each seat's probe or pad (``kind``: ``thermometer`` or ``scale``) as
    ``found``: a sensor's calibration travels with it from the seat that had it, and a seat's
    old sensor of that kind is let go.

    >>> before = Calibration({1: SeatCalibration(1, scale="pad-a", tare_counts=5.0)})
    >>> after = assign(before, SCALE, {2: "pad-a"})
    >>> after.seat(1).scale, after.seat(2).scale, after.seat(2).tare_counts
    (None, 'pad-a', 5.0)
    """
    keys = PROBE_KEYS if kind == THERMOMETER else PAD_KEYS
    blank = {key: getattr(SeatCalibration(0), key) for key in keys}
    kept = {
        getattr(entry, kind): {key: getattr(entry, key) for key in keys}
        for entry in calibration.seats.values()
    }
    seats = dict(calibration.seats)
    for number, entry in calibration.seats.items():
        if number in found or getattr(entry, kind) in found.values():
            seats[number] = dataclasses.replace(entry, **blank)
    for seat, id_ in found.items():
        target = seats.get(seat) or SeatCalibration(seat)
        seats[seat] = dataclasses.replace(target, **{**kept.get(id_, blank), kind: id_})
    return Calibration(seats)


def check_weighed(own: SeatCalibration | None, seat: int, what: str) -> SeatCalibration:
    """A pad's calibration to weigh its cap with: refused until it is tared and weighed.

    >>> check_weighed(SeatCalibration(2), 2, "seat 2's pad")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.calibration_checks.CalibrationRefused: seat 2's pad is not tared yet: ...
    """
    if own is None or own.tare_counts is None:
        raise CalibrationRefused(
            f"{what} is not tared yet: run `companion calibrate tare`, then "
            f"`companion calibrate weight --seat {seat}`, then weigh the cap",
            "not-tared",
        )
    if not own.counts_per_gram:
        raise CalibrationRefused(
            f"{what} is not weighed yet: run `companion calibrate weight --seat {seat}` "
            "with a known weight, then weigh the cap",
            "not-weighed",
        )
    return own


def check_apart(last: WeightPoint, point: WeightPoint, what: str) -> WeightPoint:
    """A further known weight, refused when the pad reads it no different from the last one.

    >>> last = WeightPoint(5.0, Settled(100_000.0, 300.0, 50))
    >>> check_apart(last, WeightPoint(7.5, Settled(100_400.0, 300.0, 50)), "seat 1's pad")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.sensors.calibration_checks.CalibrationRefused: seat 1's pad reads the same ...
    """
    if abs(point.counts.mean - last.counts.mean) < min_step(last.counts, point.counts):
        raise CalibrationRefused(
            f"{what} reads the same with {point.grams:g} g as with {last.grams:g} g: "
            f"put the {point.grams:g} g weight on in its place",
            "same-weight",
            grams=point.grams,
            last=last.grams,
        )
    return point
