"""One run of a set-up step: its stages, what each reads, and what the step makes of it.

A step is the command's (:mod:`companion.cli.calibrate`), and judged by the same pure checks
(:mod:`companion.sensors.calibration_checks`): ``identify`` warms each seat's probe and presses
its pad in turn; ``tare`` reads the empty pads; ``weight`` reads one pad empty, then one known
weight after another; ``cap`` weighs the empty caps; ``temperature`` reads the probes in ice
water. Each stage waits for the go (the person at the table has done what it asks, or starts
doing it now), reads for its seconds, and is judged; after the last, the step proposes the
calibration it would write, or is refused. On a simulated table the table plays along as it does
for the command: it warms a probe, presses a pad, sets a weight or a cap on one, stands the
probes in ice water, and takes it all back when the run ends.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from companion.errors import CompanionError
from companion.sensors.calibration import Calibration
from companion.sensors.calibration_checks import (
    PAD_SECONDS,
    PRESS_G,
    PROBE_SECONDS,
    Samples,
    Settled,
    WeightPoint,
)
from companion.sensors.reading import SCALE, THERMOMETER, Reading
from companion.sensors.sim import SimTable
from companion.table.setting_up_shown import Doing, Measured, Phase, Step

Sensor = tuple[str, str]
"""A sensor as the readings name it: (kind, id)."""


class NotHeard(CompanionError):
    """A seat's probe or pad gave no reading at all: the step cannot say which is whose."""

    def __init__(self, kind: str, seat: int) -> None:
        which = "pad" if kind == SCALE else "probe"
        super().__init__(f"no {which} read for seat {seat}: check its wiring")
        self.reason = "unheard"
        self.facts: dict[str, float | str] = {"sensor": which, "seat": seat}


@dataclass
class Planned:
    """A stage as the step plans it: what to do, at which seat (``None``: all), how long."""

    do: Doing
    seat: int | None
    seconds: float
    grams: float | None = None


@dataclass
class Run:
    """One run of a step; changed only under the set-up's lock (see :mod:`.setting_up`)."""

    step: Step
    seats: tuple[int, ...]
    kinds: frozenset[str]
    planned: list[Planned]
    probe_s: float
    reference_c: float = 0.0
    grams: float | None = None
    """The known weight the run was started with: the first one to put on."""
    index: int = 0
    phase: Phase = "waiting"
    started: float = 0.0
    baseline: dict[str, Samples] = field(default_factory=dict)
    readings: list[Reading] = field(default_factory=list)
    measured: list[Measured] = field(default_factory=list)
    found: dict[str, dict[int, str]] = field(default_factory=dict)
    zero: Settled | None = None
    points: list[WeightPoint] = field(default_factory=list)
    proposal: Calibration | None = None
    """What the step would write: the file's calibration (``base``) with its changes."""
    base: Calibration = field(default_factory=Calibration)
    undo: list[Callable[[], None]] = field(default_factory=list)
    """What puts the simulated table back as it was when the run ends."""
    lift: list[Callable[[], None]] = field(default_factory=list)
    """What the simulated table undoes as soon as the stage is read (a finger lifted)."""

    @property
    def stage(self) -> Planned:
        return self.planned[self.index]

    @property
    def active(self) -> bool:
        return self.phase in ("waiting", "measuring", "proposed")

    @property
    def until(self) -> float:
        return self.started + self.stage.seconds

    def holds(self, kind: str, seat: int | None) -> bool:
        """Whether a sensor's states are the step's while it runs, not the table's: every one
        of its kind while identifying, else the step's seats'."""
        return (
            self.active and kind in self.kinds and (self.step == "identify" or seat in self.seats)
        )

    def end(self) -> None:
        while self.undo:
            self.undo.pop()()


def plan(
    step: Step,
    seats: tuple[int, ...],
    probes: Collection[int],
    pads: Collection[int],
    probe_s: float,
) -> Run:
    """The stages of ``step`` for ``seats``; ``probes`` and ``pads`` are the seats with one."""
    one = seats[0] if len(seats) == 1 else None
    planned: list[Planned] = []
    kinds = {"identify": (THERMOMETER, SCALE), "temperature": (THERMOMETER,)}.get(step, (SCALE,))
    if step == "identify":
        for seat in seats:
            planned += [Planned("hold-probe", seat, PROBE_SECONDS)] if seat in probes else []
            planned += [Planned("press-pad", seat, PAD_SECONDS)] if seat in pads else []
    elif step == "tare":
        planned = [Planned("empty-pads", one, PAD_SECONDS)]
    elif step == "weight":
        planned = [Planned("empty-pads", one, PAD_SECONDS), Planned("put-weight", one, PAD_SECONDS)]
    elif step == "cap":
        planned = [Planned("set-cap", one, PAD_SECONDS)]
    else:
        planned = [Planned("ice-water", one, probe_s)]
    has = {THERMOMETER: bool(probes), SCALE: bool(pads)}
    return Run(step, seats, frozenset(k for k in kinds if has[k]), planned, probe_s)


def play_along(run: Run, sim: SimTable, now: float) -> None:
    """Do on the simulated table what the stage asks of the person at a real one."""
    stage = run.stage
    seats = [stage.seat] if stage.seat is not None else list(run.seats)
    for seat in (s for s in seats if s in sim.seats):
        if stage.do == "hold-probe":
            sim.warm_probe(seat, now, stage.seconds)
        elif stage.do == "ice-water":
            sim.dip_probe(seat, 0.0)
            run.undo.append(functools.partial(sim.dip_probe, seat, None))
        else:
            grams = {"press-pad": PRESS_G, "put-weight": stage.grams or 0.0, "empty-pads": 0.0}
            load = sim.seats[seat].cap_g if stage.do == "set-cap" else grams[stage.do]
            sim.put_weight(seat, load)
            lifted = run.lift if stage.do == "press-pad" else run.undo  # a finger lifts at once
            lifted.append(functools.partial(sim.put_weight, seat, 0.0))


def samples(readings: Iterable[Reading], kind: str, seconds: float) -> dict[str, Samples]:
    """Each sensor's samples of ``kind`` among ``readings``, by its id."""
    by_id: dict[str, list[Reading]] = {}
    for reading in readings:
        if reading.kind == kind:
            by_id.setdefault(reading.id, []).append(reading)
    return {id_: Samples.of(rs, seconds) for id_, rs in by_id.items()}
