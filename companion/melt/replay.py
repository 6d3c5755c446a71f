"""Replay a recorded table through the estimator: the CSV of ``companion melt replay``.

The recording has the header ``t_s,seat,kind,value`` and one event a line, in time order:
``start_g`` (a cube set out, grams), ``air_c`` (the air by a seat; an empty seat: the whole
table), ``weigh_in_g`` (a settled reading), ``attack`` (value: an attack kind; ``guessing-game``
once per round lost) and ``melted`` (the seat confirms its cube is gone: 0 g from then on).
Every line of a started seat gives one output line; a whole-table ``air_c`` line gives one for
every started seat. A seat with no air of its own takes the median of the seats that have one.

>>> text = "t_s,seat,kind,value\\n0,,air_c,24\\n0,1,start_g,6\\n300,1,weigh_in_g,5.1\\n"
>>> [line.to_json() for line in replay(parse(text))][1]["grams"]
5.104
"""

from __future__ import annotations

import csv
import math
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from companion.errors import ReplayError
from companion.melt.attacks import ATTACK_KINDS, DEFAULT_CONFIG, MeltConfig
from companion.melt.estimator import Estimate, SeatMelt

HEADER = ("t_s", "seat", "kind", "value")
KINDS = ("start_g", "air_c", "weigh_in_g", "attack", "melted")
DEFAULT_AIR_C = 22.0
"""The air assumed until a recording gives any: a living room."""
RANGES = {
    "t_s": (-1e10, 1e10),
    "start_g": (-1000.0, 1000.0),
    "weigh_in_g": (-1000.0, 1000.0),
    "air_c": (-55.0, 125.0),
}
"""What each number may be: a probe's range for the air, a kilogram either way on a pad, and
times within three centuries (a recording may count in Unix seconds); beyond them the physics
would overflow, and no table records such a thing."""


@dataclass(frozen=True)
class Row:
    """One checked line of a recording: ``value`` is grams or degrees, an attack kind, or None."""

    line: int
    t_s: float
    seat: int | None
    kind: str
    value: float | str | None

    @property
    def number(self) -> float:
        """The value of a line of grams or degrees."""
        assert isinstance(self.value, float), f"line {self.line} ({self.kind}) holds no number"
        return self.value


@dataclass(frozen=True)
class ReplayLine:
    """The estimate of one seat after one line of the recording."""

    row: Row
    seat: int
    estimate: Estimate

    def to_json(self) -> dict[str, Any]:
        """The output object: ``{"t_s", "seat", "grams", "sigma_g", "eta_s", "eta_range_s"}``."""
        est = self.estimate
        t = self.row.t_s
        low, high = est.eta_low_s, est.eta_high_s
        return {
            "t_s": int(t) if t.is_integer() else t,
            "seat": self.seat,
            "grams": round(est.grams, 3),
            "sigma_g": round(est.sigma_g, 3),
            "eta_s": None if est.eta_s is None else round(est.eta_s),
            "eta_range_s": None if low is None or high is None else [round(low), round(high)],
        }


def parse(text: str, name: str = "<recording>") -> list[Row]:
    """The rows of a recording, each checked; a ``ReplayError`` names the first bad line.

    >>> parse("t_s,seat,kind,value\\n0,2,start_g,6\\n5,2,attack,squeeze\\n")[1]
    Row(line=3, t_s=5.0, seat=2, kind='attack', value='squeeze')
    """
    lines = text.splitlines()
    if (
        not lines
        or tuple(c.strip() for c in next(csv.reader([lines[0].lstrip("\ufeff")]))) != HEADER
    ):
        raise ReplayError(name, 1, f"the header must be {','.join(HEADER)}")
    rows: list[Row] = []
    started: set[int] = set()
    last_t = -math.inf
    for number, fields in enumerate(csv.reader(lines[1:]), start=2):
        if not fields or all(not f.strip() for f in fields):
            continue
        if len(fields) != 4:
            raise ReplayError(name, number, f"{len(fields)} fields; a line is t_s,seat,kind,value")
        t_text, seat_text, kind, value_text = (f.strip() for f in fields)
        t_s = _number(t_text, name, number, "t_s")
        if t_s < last_t:
            raise ReplayError(
                name,
                number,
                f"t_s {t_text} is before the line above ({last_t:g}): lines go in time order",
            )
        last_t = t_s
        if kind not in KINDS:
            raise ReplayError(name, number, f"unknown kind {kind!r}: one of {', '.join(KINDS)}")
        seat = _seat(seat_text, name, number, kind)
        value: float | str | None
        if kind == "attack":
            if value_text not in ATTACK_KINDS:
                raise ReplayError(
                    name, number, f"unknown attack {value_text!r}: one of {', '.join(ATTACK_KINDS)}"
                )
            value = value_text
        elif kind == "melted":
            value = None
        else:
            value = _number(value_text, name, number, kind)
        if kind == "start_g":
            if not isinstance(value, float) or value <= 0:
                raise ReplayError(name, number, f"start_g {value_text} must be more than 0 grams")
            assert seat is not None, "only air_c may be for the whole table"
            started.add(seat)
        elif kind != "air_c" and seat not in started:
            raise ReplayError(name, number, f"{kind} for seat {seat} before its start_g")
        rows.append(Row(number, t_s, seat, kind, value))
    return rows


def _number(text: str, name: str, line: int, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ReplayError(name, line, f"{what} {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ReplayError(name, line, f"{what} {text!r} is not a finite number")
    low, high = RANGES[what]
    if not low <= value <= high:
        raise ReplayError(name, line, f"{what} {text} is not from {low:g} to {high:g}")
    return value


def _seat(text: str, name: str, line: int, kind: str) -> int | None:
    if not text:
        if kind == "air_c":
            return None
        raise ReplayError(
            name, line, f"{kind} needs a seat (only air_c may be for the whole table)"
        )
    try:
        seat = int(text)
    except ValueError:
        raise ReplayError(name, line, f"seat {text!r} is not a seat number") from None
    if seat < 1:
        raise ReplayError(name, line, f"seat {text} must be 1 or more")
    return seat


def replay(rows: Iterable[Row], config: MeltConfig = DEFAULT_CONFIG) -> Iterator[ReplayLine]:
    """Run one estimator per seat over the rows; yield the estimates the table would show."""
    replayer = Replayer(config)
    for row in rows:
        yield from replayer.push(row)


class Replayer:
    """One estimator per seat, fed a recording row by row; ``seats`` holds each seat's state
    after the rows so far, so a table rebuilds its estimates from what it stored."""

    def __init__(self, config: MeltConfig = DEFAULT_CONFIG) -> None:
        self.config = config
        self.seats: dict[int, SeatMelt] = {}
        self.gone: set[int] = set()
        self.own_air: dict[int, float] = {}
        self.table_air: float | None = None

    def air(self, seat: int) -> float:
        """A seat's air, else the median of the others', else the table's or a room's."""
        if seat in self.own_air:
            return self.own_air[seat]
        if self.own_air:
            return statistics.median(self.own_air.values())
        return DEFAULT_AIR_C if self.table_air is None else self.table_air

    def advance(self, t_s: float) -> None:
        """Every cube melts up to ``t_s`` in the air it had."""
        for s, state in self.seats.items():
            self.seats[s] = state.predict(t_s, self.air(s))

    def shown(self, seat: int, t_s: float) -> Estimate:
        """The estimate the table shows for ``seat`` at ``t_s`` (after :meth:`advance`)."""
        return _shown(self.seats[seat], seat in self.gone, t_s, self.air(seat))

    def push(self, row: Row) -> Iterator[ReplayLine]:
        """Take one row; the estimates it changes."""
        t, seat = row.t_s, row.seat
        if row.kind == "air_c":
            self.advance(t)
            if seat is None:
                self.table_air = row.number
                for s in self.own_air:
                    self.own_air[s] = self.table_air
            else:
                self.own_air[seat] = row.number
            for s in sorted(self.seats) if seat is None else [seat] if seat in self.seats else []:
                yield ReplayLine(row, s, self.shown(s, t))
            return
        assert seat is not None
        if row.kind == "start_g":
            self.seats[seat] = SeatMelt.start(t, row.number, self.config)
            self.gone.discard(seat)
        else:
            state = self.seats[seat].predict(t, self.air(seat))
            if row.kind == "weigh_in_g":
                state = state.weigh_in(t, row.number)
            elif row.kind == "attack":
                state = state.attack(t, str(row.value))
            else:
                self.gone.add(seat)
            self.seats[seat] = state
        yield ReplayLine(row, seat, self.shown(seat, t))


def _shown(state: SeatMelt, gone: bool, t_s: float, air_c: float) -> Estimate:
    """The estimate of a seat, or nothing at all once the seat confirmed its cube melted."""
    est = state.estimate(t_s, air_c)
    if gone:
        return Estimate(0.0, 0.0, 0.0, 0.0, 0.0, True, est.h_w_m2k, est.h_sigma, 0.0, 0.0)
    return est
