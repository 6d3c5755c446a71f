"""Temperature sweep time: one sweep of 4 and of 8 probes, in conversion times.

A sweep is :meth:`companion.sensors.w1.W1Thermometers.sweep` against
:class:`bench.w1_timed.TimedW1`, a w1 tree whose files take the kernel's real conversion times
(9 bits: 95 ms, to keep it quick; the ratio is the same at every resolution). With
``therm_bulk_read`` every probe converts at once, so a sweep should cost one conversion and a
little reading; the goal is at most 1.15 conversions. The baseline is the same tree without
``therm_bulk_read``: the probes read one by one, about 4 and 8 conversions.

Every timed sweep must read every probe's temperature, and a bulk sweep must have written one
trigger and read every probe from RAM after that conversion ended; otherwise the benchmark fails.
The value is the median sweep (wall time, ``time.perf_counter``), the slowest is reported beside.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from bench.report import BenchFailure, Result, sig
from bench.w1_timed import TimedW1
from companion.sensors.w1 import W1Thermometers

PROBES = (4, 8)
RESOLUTION = 9
SWEEPS = 20
ONE_BY_ONE_SWEEPS = 3
QUICK_SWEEPS = 3
QUICK_ONE_BY_ONE_SWEEPS = 1
GOAL = 1.15  # conversions per sweep


def timed_sweeps(probes: int, bulk: bool, sweeps: int) -> tuple[list[float], TimedW1]:
    """Each sweep's wall time in seconds (after one untimed sweep), and the fake it ran on."""
    with tempfile.TemporaryDirectory() as folder:
        fake = TimedW1(Path(folder), probes, RESOLUTION, bulk=bulk)
        thermometers = W1Thermometers(
            folder, resolution=RESOLUTION, warn=lambda _: None, open_file=fake.open
        )
        times = []
        for number in range(sweeps + 1):
            start = time.perf_counter()
            readings = thermometers.sweep()
            elapsed = time.perf_counter() - start
            got = {r.id: r.raw for r in readings}
            if got != fake.milli:
                raise BenchFailure(f"w1 sweep: sweep {number} read {got}, not {fake.milli}")
            if number:
                times.append(elapsed)
    check_order(fake, bulk, sweeps + 1)
    return times, fake


def check_order(fake: TimedW1, bulk: bool, sweeps: int) -> None:
    """:class:`BenchFailure` unless every sweep did what its mode claims."""
    found = fake.sweeps()
    if len(found) != sweeps:
        raise BenchFailure(f"w1 sweep: {len(found)} sweeps seen in the tree, not {sweeps}")
    for events in found:
        kinds = [(e.kind, e.probe, e.source) for e in events]
        if bulk:
            want = [("trigger", None, ""), *(("read", p, "bulk") for p in fake.ids)]
            early = [e for e in events[1:] if e.start < events[0].end]
        else:
            want = [("read", p, "own") for p in fake.ids]
            early = []
        if kinds != want or early:
            raise BenchFailure(f"w1 sweep: a {'bulk' if bulk else 'plain'} sweep did {kinds}")


def run(quick: bool = False) -> list[Result]:
    """Time bulk and one-by-one sweeps of 4 and 8 probes; report them in conversions."""
    results = []
    for probes in PROBES:
        bulk, fake = timed_sweeps(probes, True, QUICK_SWEEPS if quick else SWEEPS)
        plain, _ = timed_sweeps(
            probes, False, QUICK_ONE_BY_ONE_SWEEPS if quick else ONE_BY_ONE_SWEEPS
        )
        one = fake.conversion_s
        value = statistics.median(bulk) / one
        baseline = statistics.median(plain) / one
        results.append(
            Result(
                name=f"w1 sweep {probes} probes",
                value=value,
                unit="conversions",
                baseline=baseline,
                goal=GOAL,
                better="lower",
                note=(
                    f"median of {len(bulk)} bulk sweeps {1000 * value * one:.1f} ms "
                    f"(slowest {1000 * max(bulk):.1f} ms) against one {RESOLUTION}-bit "
                    f"conversion of {1000 * one:.0f} ms; one by one "
                    f"{1000 * baseline * one:.0f} ms over {len(plain)} sweeps"
                ),
                extra={
                    "probes": probes,
                    "resolution_bits": RESOLUTION,
                    "conversion_ms": sig(1000 * one),
                    "bulk_sweep_ms": [sig(1000 * t) for t in bulk],
                    "one_by_one_sweep_ms": [sig(1000 * t) for t in plain],
                    "slowest_bulk_conversions": sig(max(bulk) / one),
                },
            )
        )
    return results
