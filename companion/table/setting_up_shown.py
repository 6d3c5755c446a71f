"""What the referee's set-up shows: its state as typed objects, and their JSON.

``GET /api/calibration`` and every answer of the set-up's routes are a :class:`Calibrating`;
the API's document derives its schemas from these classes, as it does the status's.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.calibration_checks import REASONS
from companion.sensors.coins import COINS
from companion.table.status import Seat, Shown

Step = Literal["identify", "tare", "weight", "cap", "temperature"]
STEPS: tuple[Step, ...] = ("identify", "tare", "weight", "cap", "temperature")
Phase = Literal["idle", "waiting", "measuring", "proposed", "refused", "written"]
Doing = Literal["hold-probe", "press-pad", "empty-pads", "put-weight", "set-cap", "ice-water"]
Quantity = Literal["warmed", "pressed", "tare", "point", "slope", "cap", "offset"]
Unit = Literal["C", "counts", "g", "counts/g"]
CalibrationKey = Literal[
    "thermometer",
    "probe_offset_c",
    "probe_calibrated_at",
    "scale",
    "tare_counts",
    "tared_at",
    "counts_per_gram",
    "weighed_at",
    "cap_g",
]
MaybeSeat = Annotated[int | None, {"minimum": 1, "maximum": 6}]
"""A seat, or null: every seat of the step, or none."""
OWN_REASONS = ("unheard", "file", "changed")
"""Refusals of the set-up's own: a seat's sensor not heard from, a calibration file that cannot
be read, one changed by another program while the step ran."""
MOST_GRAMS = 1000.0
"""The heaviest known weight the set-up takes: a pad is a load cell of 100 g to a few kg, and a
known weight must be well under its rating."""


@dataclass(frozen=True)
class CalibratingStage(Shown):
    """What the person at the table is to do now: warm a seat's probe in a hand, press its pad,
    clear the pads, put a known weight on, set the empty caps on, stand the probes in ice water;
    for ``seat`` (null: every seat of the step), with ``grams`` (a known weight), while the table
    reads for ``seconds``, of which the share ``done`` is done (0 while it waits for the go)."""

    do: Doing
    seat: MaybeSeat
    grams: Annotated[float | None, {"exclusiveMinimum": 0}]
    seconds: Annotated[float, {"exclusiveMinimum": 0}]
    done: Annotated[float, {"minimum": 0, "maximum": 1}]


@dataclass(frozen=True)
class Measured(Shown):
    """What the step read of a seat's probe or pad (``sensor``: its id) and made of it: how far
    the warmed probe rose (C) or the pressed pad moved (counts), the empty pad (counts), a known
    weight (``grams``: counts from the empty pad), the pad's slope (counts/g), the empty cap (g)
    or the probe's offset (C); ``spread`` is how still it held in the same unit (for a slope,
    the worst residual of its line in grams; null where nothing is said)."""

    seat: Seat
    sensor: str
    quantity: Quantity
    value: float
    unit: Unit
    spread: float | None
    grams: float | None


@dataclass(frozen=True)
class CalibrationChange(Shown):
    """One value the step would write to (or wrote to) ``calibration.toml``, and the one there
    before it (null: none); times as ISO 8601 text."""

    seat: Seat
    key: CalibrationKey
    value: str | float | None
    was: str | float | None


@dataclass(frozen=True)
class StepRefusal(Shown):
    """Why the step was refused, for ``seat`` (null: not one seat's): the reason in short, the
    facts it rests on, and the sentence ``companion calibrate`` says (in English)."""

    reason: Annotated[str, {"enum": [*REASONS, *OWN_REASONS]}]
    seat: MaybeSeat
    facts: dict[str, float | str]
    message: str


@dataclass(frozen=True)
class KnownWeight(Shown):
    """A coin the page offers as a known weight: its name (``coin.<name>`` in the pages'
    words), its nominal mass and how far one from a pocket may be off, in grams and as a share
    (see :mod:`companion.sensors.coins` for the sources)."""

    name: str
    grams: Annotated[float, {"exclusiveMinimum": 0}]
    error_g: Annotated[float, {"minimum": 0}]
    error_percent: Annotated[float, {"minimum": 0}]


KNOWN_WEIGHTS = tuple(
    KnownWeight(c.name, c.grams, c.error_g, round(c.error_percent, 1)) for c in COINS.values()
)


@dataclass(frozen=True)
class Calibrating(Shown):
    """The referee's set-up: the step under way (null: none) for its ``seats``, its phase (idle;
    waiting for the go; measuring; proposed, to accept or abort; refused; written), what the
    person at the table does now, what it measured, why it was refused, and what it would write
    (or wrote). ``probes`` and ``pads`` say what the table has to set up, ``table_seats`` its
    seats, ``coins`` the known weights offered and ``most_grams`` the heaviest one taken."""

    step: Step | None
    seats: tuple[Seat, ...]
    phase: Phase
    stage: CalibratingStage | None
    measured: tuple[Measured, ...]
    refused: StepRefusal | None
    writes: tuple[CalibrationChange, ...]
    probes: bool
    pads: bool
    table_seats: tuple[Seat, ...]
    coins: tuple[KnownWeight, ...]
    most_grams: float


def plain(value: Any) -> str | float | None:
    """A calibration value as the set-up shows it: a time as ISO 8601 text."""
    if value is None or isinstance(value, str | float | int):
        return value
    return str(value.isoformat())


def changes(before: Calibration, after: Calibration) -> tuple[CalibrationChange, ...]:
    """What ``after`` changes of ``before``, seat by seat, key by key."""
    found = []
    for seat in sorted(set(before.seats) | set(after.seats)):
        old, new = before.seat(seat), after.seat(seat)
        for key in (f.name for f in dataclasses.fields(SeatCalibration)[1:]):
            if getattr(old, key) != getattr(new, key):
                found.append(
                    CalibrationChange(seat, key, plain(getattr(new, key)), plain(getattr(old, key)))  # type: ignore[arg-type]
                )
    return tuple(found)
