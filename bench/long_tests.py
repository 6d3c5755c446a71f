"""The long tests under ``make bench``: ``pytest -m long`` in processes of their own, a row a test.

Tests marked ``@pytest.mark.long`` (the chaos, fuzzing and soak runs too long for ``make test``)
run here, within what is left of the bench's ten minutes, dealt out to ``SHARDS`` pytest
processes side by side (a long test spends most of its time waiting on a daemon), the longest
first to the least loaded by each test's time in the last run; at the deadline they are stopped
and the tests they did not finish say so. This module is also the pytest plugin of those runs
(``-p bench.long_tests``): it deals the tests out, and appends every
test's outcome to a JSON-lines file, so the rows never depend on pytest's printed output. A test
gives the rows of the figures it recorded with :func:`bench.figures.record` (met only if it
passed); a test function that recorded none gives one row ``long: <test>``, how many of its cases
passed. A last row, ``long tests``, counts the tests that passed of those collected.
``python -m bench.long_tests`` runs only them and prints their rows.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bench.figures import FOLDER, FOLDER_ENV, Figure, clear, collect, folder, snapshot
from bench.report import Result, table

ROOT = Path(__file__).resolve().parents[1]
OUTCOMES_ENV = "COMPANION_BENCH_OUTCOMES"
SHARD_ENV = "COMPANION_BENCH_SHARD"
HISTORY_ENV = "COMPANION_BENCH_HISTORY"
SHARDS = 2
GUESS_S = 60.0
"""What a long test not seen in the last run is taken to last, to deal the tests out."""
BUDGET_S = 480.0
MESSAGE_CHARS = 200


# The plugin, inside the pytest run


def _write(entry: dict[str, Any]) -> None:
    path = os.environ.get(OUTCOMES_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")


def _message(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if report.passed or longrepr is None:
        return ""
    if isinstance(longrepr, tuple):  # a skip: (file, line, reason)
        text = str(longrepr[2])
    else:
        crash = getattr(longrepr, "reprcrash", None)
        text = crash.message if crash is not None else str(longrepr)
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first[:MESSAGE_CHARS]


_before: dict[str, int] = {}


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    """Pytest hook: a test begins; note the figure files there are."""
    _before.clear()
    _before.update(snapshot(folder()))


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    """Pytest hook: a test has ended; the figure files it wrote or rewrote are its own."""
    after = snapshot(folder())
    written = sorted(name for name, stamp in after.items() if _before.get(name) != stamp)
    if written:
        _write({"test": nodeid, "figures": written})


def deal(tests: list[str], shards: int, seconds: dict[str, float]) -> list[list[int]]:
    """The indices of ``tests`` each of ``shards`` runs, the longest dealt first to the least
    loaded, by each test's ``seconds`` in the last run (a test not seen then: ``GUESS_S``).

    >>> deal(["a", "b", "c", "d"], 2, {"a": 300.0, "b": 10.0, "c": 20.0})
    [[0], [1, 2, 3]]
    """
    guess = [seconds.get(test, GUESS_S) for test in tests]
    dealt: list[list[int]] = [[] for _ in range(shards)]
    loads = [0.0] * shards
    for i in sorted(range(len(tests)), key=lambda i: -guess[i]):
        least = loads.index(min(loads))
        dealt[least].append(i)
        loads[least] += guess[i]
    return [sorted(d) for d in dealt]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Pytest hook, after ``-m long`` has chosen: note every test, keep this shard's."""
    shard = os.environ.get(SHARD_ENV, "")
    if not shard:
        _write({"collected": [item.nodeid for item in items]})
        return
    k, n = (int(x) for x in shard.split("/"))
    if k == 0:  # one list of all, in their order, for the rows
        _write({"collected": [item.nodeid for item in items]})
    history = Path(os.environ.get(HISTORY_ENV, ""))
    seconds = json.loads(history.read_text()) if history.is_file() else {}
    keep = set(deal([item.nodeid for item in items], n, seconds)[k])
    dropped = [item for i, item in enumerate(items) if i not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for i, item in enumerate(items) if i in keep]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Pytest hook: one phase (setup, call, teardown) of a test, as it ends."""
    _write(
        {
            "test": report.nodeid,
            "when": report.when,
            "outcome": report.outcome,
            "seconds": report.duration,
            "message": _message(report),
        }
    )


# The bench, outside it


@dataclass
class Outcome:
    """What became of one test: "passed", "failed", "skipped" or "unfinished"."""

    test: str
    outcome: str = "unfinished"
    seconds: float = 0.0
    message: str = ""

    def add(self, when: str, outcome: str, seconds: float, message: str) -> None:
        """Fold in one phase: a failure anywhere fails the test; a skip skips it."""
        self.seconds += seconds
        if self.outcome == "failed":
            return
        if outcome == "failed":
            self.outcome = "failed"
            self.message = message if when == "call" else f"in {when}: {message}"
        elif outcome == "skipped":
            self.outcome, self.message = "skipped", message
        elif when == "call" and self.outcome != "skipped":
            self.outcome = "passed"


@dataclass
class Run:
    """What the plugin wrote: the tests collected, their outcomes, who wrote which figure."""

    collected: list[str] = field(default_factory=list)
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    writers: dict[str, str] = field(default_factory=dict)
    """A figure file's name: the test that wrote it."""


def read_run(path: Path) -> Run:
    """The plugin's file, read back."""
    run = Run()
    if not path.exists():
        return run
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # the last line of a run stopped at the deadline may be cut short
        if "collected" in entry:
            run.collected = entry["collected"]
        elif "figures" in entry:
            run.writers.update(dict.fromkeys(entry["figures"], entry["test"]))
        else:
            test = entry["test"]
            run.outcomes.setdefault(test, Outcome(test)).add(
                entry["when"], entry["outcome"], entry["seconds"], entry["message"]
            )
    return run


def short(test: str) -> str:
    """A test's node id as a row's name.

    >>> short("tests/table/test_chaos.py::test_power_cuts[daddy-cool]")
    'long: table/test_chaos::test_power_cuts[daddy-cool]'
    """
    path, _, rest = test.partition("::")
    path = path.removeprefix("tests/").removesuffix(".py")
    return f"long: {path}::{rest}" if rest else f"long: {path}"


def _why(outcome: Outcome, stopped: str) -> str:
    if outcome.outcome == "passed":
        return ""
    if outcome.outcome == "unfinished":
        return stopped
    return f"the test {outcome.outcome}: {outcome.message}"


def _cases_row(function: str, cases: list[Outcome], stopped: str) -> Result:
    """One row for a test function: how many of its cases (parameters) passed."""
    passed = [c for c in cases if c.outcome == "passed"]
    seconds = sum(c.seconds for c in cases)
    notes = [f"{len(cases)} cases" if len(cases) > 1 else "", f"{seconds:.1f} s"]
    for case in cases:
        why = _why(case, stopped)
        if why:
            label = case.test.partition("[")[2].removesuffix("]")
            notes.append(f"[{label}] {why}" if label else why)
    return Result(
        short(function),
        float(len(passed)),
        "passed",
        None,
        float(len(cases)),
        "higher",
        "; ".join(n for n in notes if n),
        extra={"tests": [c.test for c in cases], "outcomes": [c.outcome for c in cases]},
    )


def rows(
    collected: list[str],
    outcomes: dict[str, Outcome],
    figures: list[Figure],
    *,
    stopped: str,
    summary: str,
) -> list[Result]:
    """Each test's figures, or one row per test function counting its cases; then the ``long
    tests`` count. ``stopped`` says why a test that has no outcome did not finish; ``summary`` is
    added to the count's note."""
    tests = list(dict.fromkeys([*collected, *outcomes, *(f.test for f in figures)]))
    order: list[Result | str] = []  # figures' rows, and test functions where their first case is
    cases: dict[str, list[Outcome]] = {}
    for test in tests:
        outcome = outcomes.get(test, Outcome(test))
        mine = [f for f in figures if f.test == test]
        if mine:
            why = _why(outcome, stopped)
            order += [f.result(outcome.outcome == "passed", why) for f in mine]
            continue
        function = test.partition("[")[0]
        if function not in cases:
            order.append(function)
        cases.setdefault(function, []).append(outcome)
    results = [_cases_row(r, cases[r], stopped) if isinstance(r, str) else r for r in order]
    tests = [t for t in tests if t]  # figures whose writer is unknown count for no test
    count = {
        kind: sum(outcomes.get(t, Outcome(t)).outcome == kind for t in tests)
        for kind in ("passed", "failed", "skipped", "unfinished")
    }
    words = ", ".join(f"{n} {kind}" for kind, n in count.items() if n)
    results.append(
        Result(
            "long tests",
            float(count["passed"]),
            "tests",
            None,
            float(max(1, len(tests))),
            "higher",
            "; ".join(part for part in (words or "no test is marked long", summary) if part),
            extra={"tests": len(tests), **count},
        )
    )
    return results


def run(
    quick: bool = False,
    budget_s: float = BUDGET_S,
    where: Path = FOLDER,
    args: tuple[str, ...] = (),
    shards: int = SHARDS,
) -> list[Result]:
    """Run ``pytest -m long`` (on ``args``, default the configured test paths) in ``shards``
    processes for at most ``budget_s``; the rows of its tests. ``--quick`` runs none."""
    if quick:
        return []
    where.mkdir(parents=True, exist_ok=True)
    clear(where)
    outcomes_path, history = where / "outcomes.jsonl", where / "seconds.txt"
    last = read_run(outcomes_path).outcomes
    seconds = {t: o.seconds for t, o in last.items() if o.outcome in ("passed", "failed")}
    if seconds:  # else keep the history before: a run that finished nothing teaches nothing
        history.write_text(json.dumps(seconds))
    outcomes_path.unlink(missing_ok=True)
    command = [
        *(sys.executable, "-m", "pytest", "-m", "long", "-p", "bench.long_tests"),
        *("-p", "no:cacheprovider", "-rfEs", *args),
    ]
    env = {
        **os.environ,
        FOLDER_ENV: str(where),
        OUTCOMES_ENV: str(outcomes_path),
        HISTORY_ENV: str(history),
    }
    began = time.monotonic()
    logs = [where / f"pytest-{k}.log" for k in range(shards)]
    processes = []
    for k, log in enumerate(logs):
        with log.open("w") as out:
            processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env={**env, SHARD_ENV: f"{k}/{shards}"},
                    start_new_session=True,
                )
            )
    codes: list[int | None] = []
    for process in processes:
        try:
            codes.append(process.wait(max(0.0, began + budget_s - time.monotonic())))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # pytest and every daemon its tests started
            process.wait()
            codes.append(None)
    wall = time.monotonic() - began
    found = read_run(outcomes_path)
    figures, broken = collect(where)
    figures = [replace(f, test=f.test or found.writers.get(f.file, "")) for f in figures]
    errors = [(log, code) for log, code in zip(logs, codes, strict=True) if code not in (0, 1, 5)]
    if None in codes:
        stopped = f"did not finish within the long tests' budget of {budget_s:.0f} s"
    else:
        stopped = "did not run: pytest ended early"
    shown = ", ".join(_shown(log) for log in logs)
    summary = (
        f"{wall:.0f} s of a {budget_s:.0f} s budget, {shards} at a time; pytest's output in {shown}"
    )
    if broken:
        summary += "; not figures, left out: " + ", ".join(broken)
    for log, code in errors:
        if code is not None:
            tail = log.read_text(errors="replace").strip().splitlines()[-3:]
            summary += f"; pytest exit code {code}: " + " / ".join(tail)
    return rows(found.collected, found.outcomes, figures, stopped=stopped, summary=summary)


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    print(table(run()))
