"""The steps that read or clear what is written: show, check and reset."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from companion.cli.arguments import table_config
from companion.cli.calibrate.steps import samples_of
from companion.cli.calibrate.table import (
    Aborted,
    now,
    opened,
    write,
)
from companion.errors import CompanionError
from companion.sensors import calibration_checks as judge
from companion.sensors.calibration import (
    FILENAME,
    Calibration,
    SeatCalibration,
    load_calibration,
)
from companion.sensors.calibration_checks import PAD_SECONDS
from companion.sensors.reading import SCALE, THERMOMETER


def _age(then: datetime | None, at: datetime) -> str:
    """How long ago, in words.

    >>> _age(datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, 3, tzinfo=UTC))
    '3 h ago'
    """
    if then is None:
        return "never"
    seconds = max((at - _aware(then)).total_seconds(), 0.0)
    for size, unit in ((86400, "days"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds // size:.0f} {unit} ago"
    return f"{seconds:.0f} s ago"


def _seat_json(seat: SeatCalibration, at: datetime) -> dict[str, Any]:
    """A seat's calibration as JSON, every time with its age in seconds (``null``: never)."""
    shown: dict[str, Any] = {"seat": seat.seat}
    for field in dataclasses.fields(seat)[1:]:
        value = getattr(seat, field.name)
        if field.name.endswith("_at"):
            shown[field.name] = None if value is None else value.isoformat()
            age = None if value is None else (at - _aware(value)).total_seconds()
            shown[field.name.removesuffix("_at") + "_age_s"] = None if age is None else round(age)
        else:
            shown[field.name] = value
    return shown


def _aware(then: datetime) -> datetime:
    """A time from the file, read as UTC when it says no zone."""
    return then if then.tzinfo else then.replace(tzinfo=UTC)


def _describe(seat: SeatCalibration, at: datetime) -> list[str]:
    probe = "not identified" if seat.thermometer is None else seat.thermometer
    offset = (
        f"offset {seat.probe_offset_c:+.2f} C, from ice water {_age(seat.probe_calibrated_at, at)}"
        if seat.probe_calibrated_at is not None
        else "no offset yet"
    )
    pad = "not identified" if seat.scale is None else seat.scale
    tared = (
        f"tare {seat.tare_counts:.0f} counts, {_age(seat.tared_at, at)}"
        if seat.tare_counts is not None
        else "not tared"
    )
    weighed = (
        f"{seat.counts_per_gram:.1f} counts per gram, weighed {_age(seat.weighed_at, at)}"
        if seat.counts_per_gram
        else "not weighed"
    )
    cap = f"the empty cap {seat.cap_g:.2f} g" if seat.cap_g else "the cap not weighed"
    return [
        f"seat {seat.seat}",
        f"  probe  {probe}: {offset}",
        f"  pad    {pad}: {tared}; {weighed}; {cap}",
    ]


def show(args: argparse.Namespace) -> int:
    config, _ = table_config(args)
    path = args.state_dir / FILENAME
    calibration = load_calibration(path)
    numbers = sorted({s.seat for s in config.seats} | set(calibration.seats))
    if args.seat:
        _known_seat(args.seat, numbers)
        numbers = [args.seat]
    at = now()
    if args.json:
        seats = [_seat_json(calibration.seat(n), at) for n in numbers]
        print(json.dumps({"path": str(path), "exists": path.exists(), "seats": seats}))
        return 0
    print(f"{path}{'' if path.exists() else ' (none yet)'}")
    for n in numbers:
        print("\n".join(_describe(calibration.seat(n), at)))
    return 0


def _known_seat(seat: int, seats: Sequence[int]) -> None:
    if seat not in seats:
        raise CompanionError(
            f"seat {seat}: this table has seats 1 to {max(seats)}: give one of them"
        )


def check(args: argparse.Namespace) -> int:
    interactive = not (args.seat or args.all)
    with opened(args, interactive=interactive) as table:
        if table.sources.scales is not None:
            table.step("Take everything off the pads: an empty pad shows its drift since the tare")
        samples = table.sample(PAD_SECONDS, "reading every sensor", pads=True, probes=True)
        at = now()
        rate = table.config.sensors.hx711_rate_hz
        for seat in table.chosen():
            entry = table.calibration.seat(seat)
            print("\n".join(_describe(entry, at)))
            for kind in (THERMOMETER, SCALE):
                try:
                    id_ = table.sensor(kind, seat)
                except CompanionError as missing:
                    if table.sources.thermometers if kind == THERMOMETER else table.sources.scales:
                        print(f"  {kind}: {missing}")
                    continue
                own = table.own(seat, "thermometer" if kind == THERMOMETER else "scale", id_)
                if kind == THERMOMETER:
                    found = judge.diagnose_probe(samples_of(samples, id_), own)
                else:
                    found = judge.diagnose_pad(samples_of(samples, id_), own, rate)
                print(_diagnosis(kind, id_, found))
        return 0


def _diagnosis(kind: str, id_: str, d: judge.Diagnosis) -> str:
    digits = 3 if d.unit in ("g", "C") else 0
    value = "-" if d.value is None else f"{d.value:.{digits}f} {d.unit}"
    noise = "-" if d.noise is None else f"{d.noise:.{digits}f} {d.unit}"
    line = (
        f"  {'probe' if kind == THERMOMETER else 'pad'} now: {value}, noise {noise}, "
        f"{d.samples} reads ({d.per_second:.1f}/s), {d.unique} different, "
        + ("" if kind == THERMOMETER else f"{d.saturated} saturated, ")
        + f"{d.faults} failed"
    )
    if d.drift_g is not None:
        line += f", drift {d.drift_g:+.3f} g since the tare"
    return "\n".join([line, *(f"    {p}" for p in d.problems)])


def reset(args: argparse.Namespace) -> int:
    config, _ = table_config(args)
    path = args.state_dir / FILENAME
    calibration = load_calibration(path)
    if args.seat:
        _known_seat(args.seat, sorted({s.seat for s in config.seats} | set(calibration.seats)))
    seats = [args.seat] if args.seat else sorted(calibration.seats)
    seats = [n for n in seats if n in calibration.seats]
    if not seats:
        print(
            "Nothing to clear: no calibration for "
            + (f"seat {args.seat}." if args.seat else "any seat.")
        )
        return 0
    names = ", ".join(str(n) for n in seats)
    question = f"Clear the calibration of seat{'s' if len(seats) > 1 else ''} {names}? [y/N] "
    if args.yes:
        print(question + "yes (--yes)")
    else:
        try:
            answer = input(question)
        except EOFError:
            raise Aborted("no answer (the input ended): nothing cleared") from None
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing cleared.")
            return 1
    return write(path, Calibration({n: s for n, s in calibration.seats.items() if n not in seats}))
