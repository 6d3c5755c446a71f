"""Run every benchmark, then the long tests: ``python -m bench [--quick] [--json]``.

Prints a table (or, with ``--json``, only the JSON list) and writes ``bench/results.json``, the
figures the "Measured" section of ``bench/README.md`` shows; the last row is the bench's own wall
time, whose goal is ten minutes. ``--quick`` takes fewer samples, runs no long test and writes
``bench/results-quick.json`` instead. ``--markdown`` runs nothing and prints the last full
results as that section's Markdown table. Exit 0 whether or not the goals are met (a benchmark
measures, it does not judge), 1 when the code under measurement gave a wrong answer, 2 on bad
arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import NoReturn

from bench import (
    api,
    long_tests,
    melt,
    mqtt,
    pad_drift,
    pages,
    selfplay,
    sweep,
    table_cpu,
    ten_count,
    verify,
)
from bench.report import BenchFailure, Result, markdown, table
from companion.games import GAMES

BENCHMARKS: tuple[tuple[str, Callable[[bool], Result | list[Result]]], ...] = (
    *((f"selfplay {game}", partial(selfplay.run, game=game)) for game in GAMES),
    ("verify", verify.run),
    ("melt", melt.run),
    ("pad drift", pad_drift.run),
    ("w1 sweep", sweep.run),
    ("ten-count", ten_count.run),
    ("pages", pages.run),
    ("table CPU per action", table_cpu.run),
    ("api", api.run),
    ("mqtt room", mqtt.run),
)
RESULTS = Path(__file__).with_name("results.json")
QUICK_RESULTS = Path(__file__).with_name("results-quick.json")
GOAL_S = 600.0
"""The whole bench, long tests included, within ten minutes on two cores."""
MARGIN_S = 30.0
"""Kept back from the long tests' budget: stopping them and writing the results."""
MIN_LONG_S = 60.0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        usage = "python -m bench [--quick] [--json] [--markdown]"
        self.exit(2, f"python -m bench: {message} (usage: {usage})\n")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games: a smoke test")
    parser.add_argument("--json", action="store_true", help="print only the JSON list")
    parser.add_argument(
        "--markdown", action="store_true", help="run nothing: print the last results as Markdown"
    )
    return parser.parse_args(argv)


def machine() -> str:
    """The CPU, its cores and the Python that ran the bench, for the wall time's note."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [
            line.split(":", 1)[1].strip()
            for line in cpuinfo.read_text().splitlines()
            if line.startswith(("model name", "Model"))
        ]
        model = names[0] if names else model
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}"


def wall_time(seconds: float, quick: bool) -> Result:
    note = f"{machine()}; " + ("--quick: fewer samples, no long tests" if quick else "full run")
    return Result("bench wall time", seconds, "s", None, GOAL_S, "lower", note)


def main(argv: Sequence[str] | None = None, out: Path | None = None) -> int:
    args = parse(argv)
    out = out or (QUICK_RESULTS if args.quick else RESULTS)
    if args.markdown:
        if not out.exists():
            print(f"python -m bench: no {out.name} yet: run make bench first", file=sys.stderr)
            return 2
        print(markdown(json.loads(out.read_text())))
        return 0
    began = time.monotonic()
    results: list[Result] = []
    try:
        for name, run in BENCHMARKS:
            if not args.json:
                print(f"running {name}...", file=sys.stderr, flush=True)
            result = run(args.quick)
            results += result if isinstance(result, list) else [result]
    except BenchFailure as exc:
        print(f"bench failed: {exc}", file=sys.stderr)
        return 1
    if not args.quick:
        budget = max(MIN_LONG_S, GOAL_S - MARGIN_S - (time.monotonic() - began))
        if not args.json:
            print(
                f"running the long tests (at most {budget:.0f} s)...", file=sys.stderr, flush=True
            )
        results += long_tests.run(budget_s=budget)
    results.append(wall_time(time.monotonic() - began, args.quick))
    data = [r.to_json() for r in results]
    out.write_text(json.dumps(data, indent=2) + "\n")
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(table(results))
        print(f"results written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
