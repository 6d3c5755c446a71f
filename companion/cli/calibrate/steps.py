"""The steps that measure: identify, tare, weight and temperature."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterator, Sequence

from companion.cli.calibrate.table import (
    COINS,
    FIND_TRIES,
    WAIT_SECONDS,
    Table,
    now,
    opened,
)
from companion.cli.calibrate.units import celsius
from companion.errors import CompanionError
from companion.sensors import calibration_checks as judge
from companion.sensors.calibration import SeatCalibration
from companion.sensors.calibration_checks import (
    BASELINE_SECONDS,
    PAD_SECONDS,
    PRESS_G,
    PROBE_SECONDS,
    CalibrationRefused,
    Samples,
    Settled,
    assign,
)
from companion.sensors.reading import SCALE, THERMOMETER


def identify(args: argparse.Namespace) -> int:
    interactive = not (args.seat or args.all)
    with opened(args, interactive=interactive) as table:
        if table.sources.thermometers is None and table.sources.scales is None:
            raise CompanionError("the config sets no probes and no pads: nothing to identify")
        probes: dict[int, str] = {}
        pads: dict[int, str] = {}
        for seat in table.chosen():
            if table.sources.thermometers is not None:
                probes[seat] = _warmed(table, seat)
            if table.sources.scales is not None:
                pads[seat] = _pressed(table, seat)
        judge.check_distinct("probe", probes)
        judge.check_distinct("pad", pads)
        return table.accept(assign(assign(table.calibration, THERMOMETER, probes), SCALE, pads))


def _warmed(table: Table, seat: int) -> str:
    """The probe that warms while the maker holds seat ``seat``'s."""
    before = table.sample(BASELINE_SECONDS, "reading the probes", probes=True)
    table.step(f"Hold the probe of seat {seat} between your fingers until the bar is full", True)
    if table.sources.sim is not None:
        table.sources.sim.warm_probe(seat, table.clock(), table.args.seconds or PROBE_SECONDS)
    after = table.sample(PROBE_SECONDS, f"warming seat {seat}'s probe", probes=True)
    found = judge.warmed_probe(before, after, seat)
    print(f"seat {seat}: probe {found.id}, warmed {found.change:.1f} C{_next(found, 'C')}")
    return found.id


def _pressed(table: Table, seat: int) -> str:
    """The pad that moves while the maker presses seat ``seat``'s."""
    before = table.sample(BASELINE_SECONDS, "reading the pads", pads=True)
    table.step(f"Press the pad of seat {seat} firmly with a finger until the bar is full", True)
    sim = table.sources.sim
    if sim is not None:
        sim.put_weight(seat, PRESS_G)
    after = table.sample(PAD_SECONDS, f"pressing seat {seat}'s pad", pads=True)
    if sim is not None:
        sim.put_weight(seat, 0.0)
    found = judge.pressed_pad(before, after, seat)
    print(f"seat {seat}: pad {found.id}, moved {found.change:.0f} counts{_next(found, 'counts')}")
    return found.id


def _next(found: judge.Found, unit: str) -> str:
    if found.runner_up is None:
        return ""
    digits = 1 if unit == "C" else 0
    return f" (the next most: {found.runner_up}, {found.runner_up_change:.{digits}f} {unit})"


def tare(args: argparse.Namespace) -> int:
    interactive = not (args.seat or args.all)
    with opened(args, interactive=interactive) as table:
        seats = table.chosen()
        ids = _find(table, SCALE, seats)
        where = f"the pad of seat {seats[0]}" if len(seats) == 1 else "every pad"
        table.step(f"Take everything off {where}")
        if table.sources.sim is not None:
            for seat in seats:
                table.sources.sim.put_weight(seat, 0.0)
        samples = table.sample(PAD_SECONDS, "reading the empty pads", pads=True)
        calibration = assign(table.calibration, SCALE, ids)
        stamp = now()
        for seat, id_ in ids.items():
            own = table.own(seat, "scale", id_)
            settled = judge.tare(samples_of(samples, id_), own, f"seat {seat}'s pad ({id_})")
            print(
                f"seat {seat}: pad {id_}: tare {settled.mean:.0f} counts, {_quality(settled, own)}"
            )
            if own is not None and own.tare_counts is not None and own.counts_per_gram:
                drift = (settled.mean - own.tare_counts) / own.counts_per_gram
                print(f"  {drift:+.3f} g from the tare before")
            entry = dataclasses.replace(
                calibration.seat(seat), tare_counts=round(settled.mean, 1), tared_at=stamp
            )
            calibration = calibration.with_seat(entry)
        return table.accept(calibration)


def cap(args: argparse.Namespace) -> int:
    """Weigh each seat's empty cap on its tared and weighed pad: every weigh-in takes it off, so
    the table counts only the ice."""
    interactive = not (args.seat or args.all)
    with opened(args, interactive=interactive) as table:
        seats = table.chosen()
        ids = _find(table, SCALE, seats)
        where = f"the pad of seat {seats[0]}" if len(seats) == 1 else "each seat's pad"
        table.step(f"Set the empty, dry cap on {where}")
        sim = table.sources.sim
        if sim is not None:
            for seat in seats:
                sim.put_weight(seat, sim.seats[seat].cap_g)
        samples = table.sample(PAD_SECONDS, "weighing the empty caps", pads=True)
        calibration = table.calibration
        for seat, id_ in ids.items():
            own = table.own(seat, "scale", id_)
            what = f"seat {seat}'s pad ({id_})"
            own = judge.check_weighed(own, seat, what)
            settled = judge.tare(samples_of(samples, id_), own, what)
            assert own.tare_counts is not None and own.counts_per_gram
            grams = (settled.mean - own.tare_counts) / own.counts_per_gram
            judge.check_cap(grams, what)
            print(f"seat {seat}: pad {id_}: the empty cap weighs {grams:.2f} g")
            calibration = calibration.with_seat(
                dataclasses.replace(calibration.seat(seat), cap_g=round(grams, 2))
            )
        return table.accept(calibration)


def _quality(settled: Settled, own: SeatCalibration | None) -> str:
    spread = f"spread {settled.stdev:.0f} counts"
    if own is not None and own.counts_per_gram:
        spread += f" ({settled.stdev / abs(own.counts_per_gram):.3f} g)"
    return f"{spread} over {settled.count} reads"


def samples_of(samples: dict[str, Samples], id_: str) -> Samples:
    return samples.get(id_) or Samples(())


def _find(table: Table, kind: str, seats: Sequence[int]) -> dict[int, str]:
    """Each seat's probe or pad, read briefly before the maker is asked to do anything."""
    if kind == SCALE and table.sources.scales is None:
        raise CompanionError(
            'this table\'s config has no pads (scales = "none"): set scales = "hx711" in '
            "[sensors], or calibrate the simulated table with --simulate"
        )
    if kind == THERMOMETER and table.sources.thermometers is None:
        raise CompanionError(
            'this table\'s config has no probes (thermometers = "none"): set thermometers = '
            '"w1" in [sensors], or calibrate the simulated table with --simulate'
        )
    label = "finding the pads" if kind == SCALE else "finding the probes"
    for _ in range(FIND_TRIES):
        table.sample(BASELINE_SECONDS, label, pads=kind == SCALE, probes=kind == THERMOMETER)
        if all(table.has(kind, seat) for seat in seats):
            break
    return {seat: table.sensor(kind, seat) for seat in seats}


def weight(args: argparse.Namespace) -> int:
    """Counts per gram from known weights, against the pad as it is when the step starts.

    Only the slope is kept: the zero of this run may be the empty cap (for water from the
    pipette), while the tare stays the empty pad's, which ``tare`` measures.
    """
    interactive = not args.grams
    with opened(args, interactive=interactive) as table:
        seat = args.seat or _ask_seat(table)
        id_ = _find(table, SCALE, [seat])[seat]
        sim = table.sources.sim
        own = table.own(seat, "scale", id_)
        what = f"seat {seat}'s pad ({id_})"
        per_unit = own.counts_per_gram if own is not None and own.counts_per_gram else 1.0
        table.step(f"Take everything off the pad of seat {seat} (for water, leave the empty cap)")
        if sim is not None:
            sim.put_weight(seat, 0.0)
        empty = table.sample(PAD_SECONDS, "reading the empty pad", pads=True)
        zero = judge.tare(samples_of(empty, id_), own, what)
        points: list[judge.WeightPoint] = []
        for known in _weights(table, seat, args.grams):
            if sim is not None:
                sim.put_weight(seat, known)
            if interactive:
                samples = table.sample(PAD_SECONDS, f"weighing {known:g} g", pads=True)
                point = judge.weigh(zero, known, samples_of(samples, id_), what, per_unit)
            else:
                point = _wait_for(table, zero, known, points, id_, what, per_unit)
            points.append(point)
            print(
                f"  {known:g} g: {point.counts.mean - zero.mean:+.0f} counts from the empty pad, "
                f"spread {point.counts.stdev:.0f} counts"
            )
        fit = judge.fit_weights(zero, points, what)
        print(f"seat {seat}: pad {id_}: {fit.counts_per_gram:.1f} counts per gram")
        if len(points) == 1:
            print(
                "  one weight: the line runs through the empty pad and it; weigh two more to check"
            )
        else:
            known_g = [0.0, *(p.grams for p in points)]
            shown = ", ".join(
                f"{g:g} g {r:+.3f}" for g, r in zip(known_g, fit.residuals_g, strict=True)
            )
            print(f"  residuals: {shown} (the worst {fit.worst_g:.3f} g)")
        calibration = assign(table.calibration, SCALE, {seat: id_})
        entry = dataclasses.replace(
            calibration.seat(seat), counts_per_gram=round(fit.counts_per_gram, 3), weighed_at=now()
        )
        if entry.tare_counts is None:
            print(f"  no tare yet: run `companion calibrate tare --seat {seat}` with the pad empty")
        return table.accept(calibration.with_seat(entry))


def _ask_seat(table: Table) -> int:
    seats = table.seats
    while True:
        answer = table.ask(f"Which seat's pad? [{seats[0]}-{seats[-1]}] ").strip()
        if answer.isdigit() and int(answer) in seats:
            return int(answer)
        print(f"A seat from {seats[0]} to {seats[-1]}, please.")


IN_ALL = " in all"
"""A further weight is what stands on the pad, not what is added to the last one."""


def _weights(table: Table, seat: int, given: Sequence[float] | None) -> Iterator[float]:
    """The known weights: as given, or asked for one by one until an empty answer."""
    if given:
        for n, known in enumerate(given):
            print(f"Put {known:g} g on the pad of seat {seat}{IN_ALL * (n > 0)}.", flush=True)
            yield known
        return
    first = True
    while True:
        prompt = (
            "Known weight in grams (Enter: 6.0) "
            if first
            else "Another weight in grams (Enter: done) "
        )
        answer = table.ask(prompt).strip()
        if not answer and not first:
            return
        try:
            known = judge.check_grams(float(answer or "6.0"))
        except (ValueError, CalibrationRefused):
            print("Grams as a plain positive number, please, such as 6.0.")
            continue
        table.step(f"Put {known:g} g on the pad of seat {seat}{'' if first else IN_ALL} ({COINS})")
        first = False
        yield known


def _wait_for(
    table: Table,
    zero: Settled,
    known: float,
    points: list[judge.WeightPoint],
    id_: str,
    what: str,
    per_unit: float,
) -> judge.WeightPoint:
    """Without prompts: read until the weight stands settled on the pad, apart from the last."""
    deadline = table.clock() + WAIT_SECONDS
    while True:
        samples = samples_of(table.sample(PAD_SECONDS, f"weighing {known:g} g", pads=True), id_)
        try:
            point = judge.weigh(zero, known, samples, what, per_unit)
            return judge.check_apart(points[-1], point, what) if points else point
        except CalibrationRefused:
            if samples.saturated or table.clock() >= deadline:
                raise


def temperature(args: argparse.Namespace) -> int:
    interactive = args.reference is None
    with opened(args, pads=False, interactive=interactive) as table:
        seats = table.chosen()
        ids = _find(table, THERMOMETER, seats)
        reference = args.reference
        while reference is None:
            answer = table.ask("The ice water's true temperature in C (Enter: 0.0) ").strip()
            try:
                reference = celsius(answer or "0")
            except argparse.ArgumentTypeError as wrong:
                print(f"{str(wrong)[0].upper()}{str(wrong)[1:]}.")
        which = f"the probe of seat {seats[0]}" if len(seats) == 1 else "every probe"
        table.step(
            f"Stand {which} in a glass of ice water (more ice than water), stir, wait a minute"
        )
        if table.sources.sim is not None:
            for seat in seats:
                table.sources.sim.dip_probe(seat, 0.0)
        samples = table.sample(PROBE_SECONDS, "reading the probes", probes=True)
        calibration = assign(table.calibration, THERMOMETER, ids)
        stamp = now()
        for seat, id_ in ids.items():
            found = judge.probe_offset(
                id_, samples_of(samples, id_), reference, f"seat {seat}'s probe"
            )
            print(
                f"seat {seat}: probe {id_}: reads {found.reading_c:.2f} C, offset "
                f"{found.offset_c:+.2f} C (spread {found.stdev_c:.3f} C)"
            )
            entry = dataclasses.replace(
                calibration.seat(seat), probe_offset_c=found.offset_c, probe_calibrated_at=stamp
            )
            calibration = calibration.with_seat(entry)
        return table.accept(calibration)
