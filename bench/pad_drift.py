"""Drifting pads: weigh-in error and the melt estimate's RMSE, with and without zero tracking.

Hour-long games on :class:`companion.sensors.sim.SimTable`, read as the daemon reads them: the
simulated pads' counts through the table's default filters, the calibration (the factory one:
the tare is exact when the game starts) and the zero tracking, into each seat's
:class:`companion.table.station.Station` (its weigh-in detector and its melt estimator), with the
air from the simulated probes every 2 s. Each seat sets a fresh 6 g cube out at the start and
weighs it in every 3-8 minutes (the cap on the pad for 6 s); nothing else touches the cubes.

Scored against the simulation's truth: a weigh-in's error is the ice it reports less the ice
that was in the cap then; the estimate's error is its grams less the true grams, every 10 s
until the true cube is gone. The rows, side by side:

- **still pads**: no drift at all, the figure the others are held against;
- **drifting pads** (:mod:`companion.sensors.pad_drift`, the kit's pads), without tracking and
  with it;
- **widened**, past what the tracking was built for: pads drifting three times as much, and a
  player who leaves the cap on the pad for ten minutes at a time (every third weigh-in), without
  tracking and with it.

The weigh-in error's goal is 0.05 g RMS (the size of the estimator's own weigh-in noise); the
estimate's, the still pads' RMSE plus a tenth. Each row also says how far the pads' zero truly
moved, and how much of the time a pad was a fault for reading past the tracking's 1 g range
(its seat then weighs in nothing until it is cleared or tared: the estimate runs on the model).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from bench.report import BenchFailure, Result, sig
from companion.config import DEFAULT_FILTERS
from companion.sensors.pipeline import Pipeline
from companion.sensors.reading import SCALE
from companion.sensors.sim import SimScales, SimTable, SimThermometers
from companion.table.station import Station

GAME_S = 3600.0
LOOP_S = 0.25
"""As the daemon's sensor loop."""
SWEEP_S = 2.0
ESTIMATE_EVERY_S = 10.0
WEIGH_EVERY_S = (180.0, 480.0)
HOLD_S = 6.0
LEFT_ON_S = 600.0
"""The widened tables' player leaves the cap on this long, every third weigh-in."""
TABLES = 4
QUICK_TABLES = 1
SEATS = 4
QUICK_SEATS = 2
"""A smoke test's table: half the work, and still clear of what its tests check."""
WEIGH_IN_GOAL_G = 0.05
BEYOND = "fault: the empty pad reads"
FILTERS = {
    kind: [(f.name, dict(f.params)) for f in chain] for kind, chain in DEFAULT_FILTERS.items()
}


@dataclass(frozen=True)
class Case:
    """One row of tables: how much the pads drift, whether the zero is tracked, whether a player
    leaves the cap on the pad."""

    name: str
    drift: float
    tracking: bool
    left_on: bool = False


CASES = (
    Case("still pads", 0.0, True),
    Case("drifting pads, no zero tracking", 1.0, False),
    Case("drifting pads, zero tracking", 1.0, True),
    Case("widened: 3x drift, cap left on, no zero tracking", 3.0, False, left_on=True),
    Case("widened: 3x drift, cap left on, zero tracking", 3.0, True, left_on=True),
)


@dataclass
class Errors:
    """What one case's tables got wrong."""

    weigh_ins: list[float]
    estimates: list[float]
    zero_moved: list[float]
    """Each seat's largest drift of its zero over its game, true, in grams."""
    pad_states: int = 0
    beyond: int = 0
    """Of the pads' states, those faulted as reading past the tracking's range."""

    @staticmethod
    def rms(values: list[float]) -> float:
        return math.sqrt(math.fsum(v * v for v in values) / len(values)) if values else math.nan


def schedule(rng: random.Random, left_on: bool) -> list[tuple[float, float]]:
    """One seat's weigh-ins: (when, how long the cap stays on the pad)."""
    times, t, n = [], rng.uniform(*WEIGH_EVERY_S) / 2, 0
    while t < GAME_S:
        n += 1
        hold = LEFT_ON_S if left_on and n % 3 == 0 else HOLD_S
        times.append((t, hold))
        t += hold + rng.uniform(*WEIGH_EVERY_S)
    return times


def play(seed: int, case: Case, seats: int = SEATS) -> Errors:
    """One hour-long table of ``seats`` seats, read as the daemon reads it."""
    table = SimTable(seats=seats, seed=seed, drift=case.drift)
    now = [0.0]
    probes, pads = SimThermometers(table, lambda: now[0]), SimScales(table, lambda: now[0])
    calibration = table.factory_calibration()
    pipeline = Pipeline(DEFAULT_FILTERS, calibration, zero_tracking=case.tracking)
    stations = {n: Station(n) for n in table.seats}
    rng = random.Random(seed)
    plans = {n: schedule(rng, case.left_on) for n in table.seats}
    for n, station in stations.items():
        table.start_cube(n, 0.0)
        station.start_cube(0.0)
    errors = Errors([], [], [])
    moved = dict.fromkeys(table.seats, 0.0)
    next_sweep = next_estimate = 0.0
    steps = int(GAME_S / LOOP_S)
    for step in range(1, steps + 1):
        now[0] = t = step * LOOP_S
        for n, plan in plans.items():
            while plan and plan[0][0] <= t:
                at, hold = plan.pop(0)
                table.place_cap(n, at, hold)
        readings = pads.readings()
        if t >= next_sweep:
            readings += probes.sweep()
            next_sweep = t + SWEEP_S
        for state in pipeline.push_all(readings):
            station = stations[state.seat] if state.seat is not None else None
            if station is None:
                continue
            if state.kind == SCALE:
                errors.pad_states += 1
                errors.beyond += state.status.startswith(BEYOND)
            if station.sense(state) and state.kind == SCALE:
                assert station.last_weigh_in_g is not None
                errors.weigh_ins.append(station.last_weigh_in_g - table.ice_g(state.seat, state.t))
        for n in table.seats:
            moved[n] = max(moved[n], abs(table.zero_g(n, t)))
        if t >= next_estimate:
            next_estimate = t + ESTIMATE_EVERY_S
            for n, station in stations.items():
                truth = table.ice_g(n, t)
                air = station.air_c if station.air_c is not None else table.room_c
                estimate = station.estimate(t, air)
                if estimate is not None and truth > 0.0:
                    errors.estimates.append(estimate.grams - truth)
    errors.zero_moved = list(moved.values())
    return errors


def run(quick: bool = False) -> list[Result]:
    """Every case over the same tables (the same seeds, so the same cubes and players)."""
    tables, seats = (QUICK_TABLES, QUICK_SEATS) if quick else (TABLES, SEATS)
    began = time.perf_counter()
    scored = {case: [play(seed, case, seats) for seed in range(tables)] for case in CASES}
    took = time.perf_counter() - began
    merged = {
        case: Errors(
            [e for r in runs for e in r.weigh_ins],
            [e for r in runs for e in r.estimates],
            [e for r in runs for e in r.zero_moved],
            sum(r.pad_states for r in runs),
            sum(r.beyond for r in runs),
        )
        for case, runs in scored.items()
    }
    still = merged[CASES[0]]
    if not still.weigh_ins or not still.estimates:
        raise BenchFailure("pad drift: the still pads gave no weigh-in or no estimate")
    still_rmse = Errors.rms(still.estimates)
    results = []
    for case, errors in merged.items():
        if len(errors.weigh_ins) < len(still.weigh_ins) // 3:
            raise BenchFailure(f"pad drift: {case.name}: too few weigh-ins were detected")
        faulted = 100 * errors.beyond / max(errors.pad_states, 1)
        note = (
            f"{tables} hour-long tables of {seats} seats, {len(errors.weigh_ins)} weigh-ins; "
            f"the pads' zero moved up to {max(errors.zero_moved):.2f} g "
            f"(median {sorted(errors.zero_moved)[len(errors.zero_moved) // 2]:.2f} g); "
            f"a pad read past the tracking's range (a fault: tare again) {faulted:.1f} % of "
            "the time"
        )
        worst = max(abs(e) for e in errors.weigh_ins)
        results.append(
            Result(
                f"pad drift: weigh-in error, {case.name}",
                sig(Errors.rms(errors.weigh_ins)),
                "g rms",
                None,
                WEIGH_IN_GOAL_G,
                "lower",
                f"{note}; worst {worst:.3f} g",
                extra={
                    "worst_g": sig(worst),
                    "weigh_ins": len(errors.weigh_ins),
                    "beyond_range_share": sig(faulted / 100),
                },
            )
        )
        results.append(
            Result(
                f"pad drift: estimate RMSE, {case.name}",
                sig(Errors.rms(errors.estimates)),
                "g",
                sig(still_rmse),
                sig(still_rmse + 0.1),
                "lower",
                f"against the still pads' RMSE (the baseline); {len(errors.estimates)} instants",
            )
        )
    results[-1].extra["bench_s"] = sig(took)
    return results
