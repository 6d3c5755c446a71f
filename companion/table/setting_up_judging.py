"""What a set-up step makes of what its stage read: the command's own checks
(:mod:`companion.sensors.calibration_checks`), seat by seat, and after its last stage the
calibration it would write: the file's, with what it measured."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from companion.sensors import calibration_checks as judge
from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.calibration_checks import CalibrationRefused, Samples
from companion.sensors.reading import SCALE, THERMOMETER
from companion.table.setting_up_shown import Measured
from companion.table.setting_up_steps import NotHeard, Run, Sensor, samples


def judge_stage(
    run: Run,
    seat_of: Mapping[Sensor, int | None],
    file: Calibration,
    stamp: datetime,
) -> None:
    """Judge what the stage read (raises :class:`CalibrationRefused` or :class:`NotHeard`,
    naming the seat judged), and after the last stage (or a known weight) make the proposal."""
    stage = run.stage
    kind = THERMOMETER if stage.do in ("hold-probe", "ice-water") else SCALE
    which = "probe" if kind == THERMOMETER else "pad"
    read = samples(run.readings, kind, stage.seconds)
    seats = [stage.seat] if stage.seat is not None else list(run.seats)
    found_now = stage.do in ("hold-probe", "press-pad")
    ids = {} if found_now else {s: sensor(seat_of, kind, s) for s in seats}
    for seat in seats:
        with at_seat(seat):
            if found_now:
                _found(run, kind, seat, read)
                continue
            id_, what = ids[seat], f"seat {seat}'s {which} ({ids[seat]})"
            own, taken = _own(file, seat, kind, id_), read.get(id_, Samples(()))
            if stage.do == "empty-pads" and run.step == "weight":
                run.zero = judge.tare(taken, own, what)
            elif stage.do == "empty-pads":
                settled = judge.tare(taken, own, what)
                mean = round(settled.mean, 1)
                run.measured.append(
                    Measured(seat, id_, "tare", mean, "counts", settled.stdev, None)
                )
            elif stage.do == "put-weight":
                _weighed(run, seat, id_, own, taken, what)
            elif stage.do == "set-cap":
                _cap(run, seat, id_, own, taken, what)
            else:
                offset = judge.probe_offset(id_, taken, run.reference_c, f"seat {seat}'s probe")
                run.measured.append(
                    Measured(seat, id_, "offset", offset.offset_c, "C", offset.stdev_c, None)
                )
    if stage.do == "put-weight" or run.index == len(run.planned) - 1:
        run.proposal = propose(run, file, ids, stamp)


def _found(run: Run, kind: str, seat: int, read: dict[str, Samples]) -> None:
    """The probe that warmed, or the pad that moved, while the seat's was held or pressed."""
    find = judge.warmed_probe if kind == THERMOMETER else judge.pressed_pad
    found = find(run.baseline, read, seat)
    run.found.setdefault(kind, {})[seat] = found.id
    if kind == THERMOMETER:
        run.measured.append(Measured(seat, found.id, "warmed", found.change, "C", None, None))
    else:
        run.measured.append(Measured(seat, found.id, "pressed", found.change, "counts", None, None))


def _cap(
    run: Run, seat: int, id_: str, own: SeatCalibration | None, taken: Samples, what: str
) -> None:
    """The seat's empty cap, weighed on its tared and weighed pad."""
    weighed = judge.check_weighed(own, seat, what)
    settled = judge.tare(taken, weighed, what)
    assert weighed.tare_counts is not None and weighed.counts_per_gram
    grams = judge.check_cap((settled.mean - weighed.tare_counts) / weighed.counts_per_gram, what)
    spread = settled.stdev / abs(weighed.counts_per_gram)
    run.measured.append(Measured(seat, id_, "cap", round(grams, 2), "g", spread, None))


@contextlib.contextmanager
def at_seat(seat: int) -> Iterator[None]:
    """Name the seat a refusal was judged for."""
    try:
        yield
    except (CalibrationRefused, NotHeard) as refused:
        refused.facts.setdefault("seat", seat)
        raise


def _weighed(
    run: Run, seat: int, id_: str, own: SeatCalibration | None, taken: Samples, what: str
) -> None:
    """A known weight weighed: its point, checked against the last one."""
    assert run.zero is not None and run.stage.grams is not None
    per_unit = own.counts_per_gram if own is not None and own.counts_per_gram else 1.0
    point = judge.weigh(run.zero, run.stage.grams, taken, what, per_unit)
    if run.points:
        judge.check_apart(run.points[-1], point, what)
    run.points.append(point)
    step = point.counts.mean - run.zero.mean
    run.measured.append(
        Measured(seat, id_, "point", step, "counts", point.counts.stdev, point.grams)
    )


def propose(run: Run, file: Calibration, ids: Mapping[int, str], stamp: datetime) -> Calibration:
    """The calibration the step would write: the file's, with what it measured."""
    if run.step == "identify":
        probes, pads = run.found.get(THERMOMETER, {}), run.found.get(SCALE, {})
        judge.check_distinct("probe", probes)
        judge.check_distinct("pad", pads)
        return judge.assign(judge.assign(file, THERMOMETER, probes), SCALE, pads)
    kind = THERMOMETER if run.step == "temperature" else SCALE
    calibration = file if run.step == "cap" else judge.assign(file, kind, ids)
    if run.step == "weight":
        assert run.zero is not None
        seat, id_ = next(iter(ids.items()))
        fit = judge.fit_weights(run.zero, run.points, f"seat {seat}'s pad ({id_})")
        run.measured = [m for m in run.measured if m.quantity != "slope"]
        worst = fit.worst_g if len(run.points) > 1 else None
        slope = round(fit.counts_per_gram, 3)
        run.measured.append(Measured(seat, id_, "slope", slope, "counts/g", worst, None))
        changes: dict[int, dict[str, Any]] = {seat: {"counts_per_gram": slope, "weighed_at": stamp}}
    else:
        key = {"tare": "tare_counts", "cap": "cap_g", "temperature": "probe_offset_c"}[run.step]
        at = {"tare": "tared_at", "temperature": "probe_calibrated_at"}.get(run.step)
        changes = {
            m.seat: {key: m.value, **({at: stamp} if at else {})}
            for m in run.measured
            if m.quantity in ("tare", "cap", "offset")
        }
    for seat, values in changes.items():
        calibration = calibration.with_seat(dataclasses.replace(calibration.seat(seat), **values))
    return calibration


def sensor(seat_of: Mapping[Sensor, int | None], kind: str, seat: int) -> str:
    """The id of the seat's probe or pad as the sources map them, or :class:`NotHeard`."""
    ids = sorted(i for (k, i), s in seat_of.items() if k == kind and s == seat)
    if not ids:
        raise NotHeard(kind, seat)
    return ids[0]


def _own(file: Calibration, seat: int, kind: str, id_: str) -> SeatCalibration | None:
    """The file's calibration of the seat when it is for this very sensor."""
    own = file.seats.get(seat)
    return own if own is not None and getattr(own, kind) == id_ else None
