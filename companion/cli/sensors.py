"""``companion sensors``: every sensor of the table with its raw value, its value and its status,
and each calibrated pad's tracked zero, grams from its tare (:mod:`..sensors.zero_tracking`).

A faulty sensor is a line of the output, not a failure: the command exits 0 and the status
says what is wrong (``fault: reads the 85 C power-on value: check its power wiring``).
``--once`` reads every sensor once; without it the table is read again every sweep, as a live
table on a terminal, or one JSON object a line with ``--json``. For kernel probes it also says
at which resolution they convert and whether together (bulk) or one by one; for the sensor pod,
its port, firmware and protocol, how many lines came, how many were bad or lost, and how long
each seat went without readings when it last came back. On the simulated table, simulated
players set a fresh cube out at every seat and weigh it in, in turn.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from typing import Any

from companion.cli.arguments import add_table_options, table_config
from companion.config import TableConfig
from companion.sensors.calibration import FILENAME, load_calibration
from companion.sensors.lock import SensorsBusy, pads_lock
from companion.sensors.pipeline import Pipeline, SensorState
from companion.sensors.reading import SCALE, THERMOMETER, Kind, Reading
from companion.sensors.sources import NO_PAD, NO_PROBE, Sources, open_sources
from companion.sensors.w1 import W1Thermometers

FIRST_PADS_S = 5.0
"""How long ``--once`` waits for every pad's first reading (the HX711 child starts, settles)."""
POLL_S = 0.05


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "sensors",
        help="show every probe and pad: raw value, calibrated value and status",
        description="Show every probe and pad of the table: raw, calibrated value, status.",
    )
    add_table_options(p)
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"simulated", "w1"?, "pod"?, "sensors": [...]} as JSON',
    )
    p.add_argument("--once", action="store_true", help="read every sensor once, then stop")
    p.set_defaults(run=run)


BUSY = (
    "the daemon is reading the pads, and two readers would spoil each other's words: see them "
    "in its status (/api/status), or stop it first (sudo systemctl stop companion)"
)


def run(args: argparse.Namespace) -> int:
    config, simulate = table_config(args)
    sensors = config.sensors
    pod = "pod" in (sensors.thermometers, sensors.scales)
    real_pads = not simulate and (sensors.scales == "hx711" or pod)
    with contextlib.ExitStack() as held:
        if real_pads:
            try:
                held.enter_context(pads_lock(args.state_dir))
            except SensorsBusy:
                raise SensorsBusy(BUSY) from None
        return _run(args, config, simulate)


def _run(args: argparse.Namespace, config: TableConfig, simulate: bool) -> int:
    calibration = load_calibration(args.state_dir / FILENAME)
    sources = open_sources(config, calibration, simulate=simulate)
    if sources.sim is not None:
        sources.sim.play_along(time.monotonic())
    try:
        pipeline = Pipeline(config.filters, sources.calibration, config.sensors.zero_tracking)
        if args.once:
            states = _read_once(sources, pipeline, config)
            _show(_with_absent(states, config, sources), args.json, sources, live=False)
            return 0
        live = sys.stdout.isatty() and not args.json
        while True:
            pipeline.push_all(_sweep(sources))
            _show(_with_absent(pipeline.states(), config, sources), args.json, sources, live)
            time.sleep(config.sensors.sweep_s)
    finally:
        sources.close()


def _sweep(sources: Sources) -> list[Reading]:
    readings = sources.thermometers.sweep() if sources.thermometers else []
    return readings + (sources.scales.readings() if sources.scales else [])


def _read_once(sources: Sources, pipeline: Pipeline, config: TableConfig) -> list[SensorState]:
    """One sweep of the probes, and the pads until each has read once (or a few seconds)."""
    pipeline.push_all(sources.thermometers.sweep() if sources.thermometers else [])
    if sources.scales is not None:
        pads = len(config.seats)
        deadline = time.monotonic() + FIRST_PADS_S
        seen: set[str] = set()
        while True:
            for state in pipeline.push_all(sources.scales.readings()):
                seen.add(state.id)
            if len(seen) >= pads or time.monotonic() > deadline:
                break
            time.sleep(POLL_S)
    return pipeline.states()


def _with_absent(
    states: list[SensorState], config: TableConfig, sources: Sources
) -> list[SensorState]:
    """Every seat's probe and pad, a seat without one shown with what to do about it."""
    have = {(s.seat, s.kind) for s in states}
    kinds: tuple[tuple[Kind, Any, str], ...] = (
        (THERMOMETER, sources.thermometers, NO_PROBE),
        (SCALE, sources.scales, NO_PAD),
    )
    missing = [
        SensorState(seat.seat, kind, "-", None, None, status, 0.0)
        for seat in config.seats
        for kind, source, status in kinds
        if source is not None and (seat.seat, kind) not in have
    ]
    return sorted(states + missing, key=SensorState.order)


def _show(states: list[SensorState], as_json: bool, sources: Sources, live: bool) -> None:
    bus = sources.thermometers if isinstance(sources.thermometers, W1Thermometers) else None
    if as_json:
        shown: dict[str, Any] = {"simulated": sources.simulated}
        if bus is not None:
            shown["w1"] = {"bulk": bus.bulk, "resolution": bus.resolution}
        if sources.pod is not None:
            shown["pod"] = sources.pod.status()
        shown["sensors"] = [s.to_json() for s in states]
        print(json.dumps(shown), flush=True)
        return
    if live:
        print("\x1b[H\x1b[2J", end="")
    if bus is not None:
        bits = sorted({b for b in bus.resolution.values() if b is not None})
        at = f" at {'/'.join(map(str, bits))} bits" if bits else ""
        how = "together (bulk)" if bus.bulk else "one by one"
        print(f"1-Wire probes{at}, converted {how}")
    if sources.pod is not None:
        print(pod_line(sources.pod.status()))
    print(f"{'seat':>4}  {'sensor':<11}  {'id':<16}  {'raw':>9}  {'value':>9}  {'zero':>8}  status")
    for s in states:
        seat = "-" if s.seat is None else str(s.seat)
        raw = "-" if s.raw is None else str(s.raw)
        unit = " C" if s.kind == THERMOMETER else " g"
        value = "-" if s.value is None else f"{s.value:.2f}{unit}"
        zero = "-" if s.zero_g is None else f"{s.zero_g:+.2f} g"
        print(f"{seat:>4}  {s.kind:<11}  {s.id:<16}  {raw:>9}  {value:>9}  {zero:>8}  {s.status}")
    if not live:
        print(flush=True)


def pod_line(status: dict[str, Any]) -> str:
    """The pod in a line: where, which firmware, how its lines fare, its last reconnect.

    >>> gap = {"why": "silent", "seats": {"1": 3.25}}
    >>> print(pod_line({"port": "/dev/ttyACM1", "firmware": "1.0.0", "protocol": "1",
    ...     "lines": 120, "bad": 1, "lost": 2, "last_gap": gap}))
    Sensor pod on /dev/ttyACM1: firmware 1.0.0, protocol 1; 120 lines, 1 bad, 2 lost;
      back after silent: seat 1 3.2 s
    """
    where = status["port"] or "(not found)"
    line = (
        f"Sensor pod on {where}: firmware {status['firmware'] or '?'}, protocol "
        f"{status['protocol'] or '?'}; {status['lines']} lines, {status['bad']} bad, "
        f"{status['lost']} lost"
    )
    gap = status["last_gap"]
    if gap is not None:
        seats = ", ".join(f"seat {s} {g:.1f} s" for s, g in gap["seats"].items())
        line += f";\n  back after {gap['why']}: {seats or 'no seat heard before'}"
    return line
