"""Figures a long test reports to ``make bench``: one small JSON file each, under ``bench/long/``.

A test marked ``@pytest.mark.long`` is skipped by ``make test`` and run by ``make bench``
(``pytest -m long``, see :mod:`bench.long_tests`), where it becomes a row of the table: passed or
not. A test that measures something calls :func:`record`, and its row becomes that figure,
compared with its goal::

    from bench.figures import record

    @pytest.mark.long
    def test_power_cuts_lose_nothing(tmp_path: Path) -> None:
        ...  # the test asserts what it proves, as any test does
        record("chaos: power cuts", kills, "kills", goal=200, note=f"{lost} answered actions lost")

A test may record several figures (one row each, in the order recorded). A figure's row is met
only when its goal is met *and* its test passed: a failed test fails its figures. ``better``
says which way is good ("higher", the default, or "lower"); ``goal_max`` makes the goal a range;
``baseline`` is a reference measured in the same run and unit; keyword ``extra`` figures go into
``bench/results.json`` beside the row. Outside ``make bench`` the files land in the same folder
(``COMPANION_BENCH_LONG`` names another) and the next ``make bench`` clears them first.

The bench learns which test wrote a file by watching the folder around each test, so a JSON file
written there by other means counts too, if it has ``name``, ``value``, ``unit`` and ``goal``
(``better``, when missing, is read from a ``met`` the writer gave; a ``met`` of false is kept).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from bench.report import Result

FOLDER = Path(__file__).with_name("long")
FOLDER_ENV = "COMPANION_BENCH_LONG"


def folder() -> Path:
    """Where figures go: ``$COMPANION_BENCH_LONG``, else ``bench/long/``."""
    return Path(os.environ.get(FOLDER_ENV) or FOLDER)


def node_id(current: str) -> str:
    """The test's node id in pytest's ``PYTEST_CURRENT_TEST``, without the phase.

    >>> node_id("tests/t/test_x.py::test_y[a b] (call)")
    'tests/t/test_x.py::test_y[a b]'
    """
    return current.rsplit(" (", 1)[0]


def current_test() -> str:
    """The node id of the test running now; empty outside pytest."""
    return node_id(os.environ.get("PYTEST_CURRENT_TEST", ""))


def _file_name(test: str, name: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{test}--{name}").strip("-")[:120]
    digest = hashlib.sha256(f"{test}\0{name}".encode()).hexdigest()[:8]
    return f"{slug}-{digest}.json"


def record(
    name: str,
    value: float,
    unit: str,
    goal: float,
    better: Literal["higher", "lower"] = "higher",
    *,
    baseline: float | None = None,
    goal_max: float | None = None,
    note: str = "",
    **extra: Any,
) -> Path:
    """Keep one figure of the running test for ``make bench``'s table; the file written.

    Recording the same name again in the same test replaces the figure.
    """
    for what, number in (("value", value), ("goal", goal), ("baseline", baseline)):
        if number is not None and not (isinstance(number, int | float) and math.isfinite(number)):
            raise ValueError(f"figure {name!r}: {what} must be a finite number, not {number!r}")
    if better not in ("higher", "lower"):
        raise ValueError(f"figure {name!r}: better is 'higher' or 'lower', not {better!r}")
    test = current_test()
    data = {
        "test": test,
        "name": name,
        "value": value,
        "unit": unit,
        "goal": goal,
        "better": better,
        "baseline": baseline,
        "goal_max": goal_max,
        "note": note,
        "extra": extra,
    }
    text = json.dumps(data, indent=2) + "\n"  # fails here, not at the bench, if extra is not JSON
    where = folder()
    where.mkdir(parents=True, exist_ok=True)
    path = where / _file_name(test, name)
    partial = path.with_suffix(".part")
    partial.write_text(text)
    partial.replace(path)  # a test killed mid-write leaves no half figure
    return path


@dataclass(frozen=True)
class Figure:
    """One recorded figure, as read back by the bench. ``claimed_met`` is the writer's own
    verdict when its file has one (a figure written by other means than :func:`record`)."""

    test: str
    name: str
    value: float
    unit: str
    goal: float
    better: Literal["higher", "lower"]
    baseline: float | None = None
    goal_max: float | None = None
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    file: str = ""
    claimed_met: bool | None = None

    @classmethod
    def load(cls, path: Path) -> Figure:
        """A figure file; ``better``, when missing, is read from the writer's ``met``.

        :class:`ValueError` when the file lacks a name, a number or a goal.
        """
        data = json.loads(path.read_text(encoding="utf-8"))
        known = {"test", "name", "value", "unit", "goal", "better", "baseline", "goal_max", "note"}
        try:
            value, goal = float(data["value"]), float(data["goal"])
            name, unit = str(data["name"]), str(data["unit"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path.name}: not a figure ({exc})") from exc
        claimed = data.get("met")
        better = data.get("better") or ("lower" if claimed is (value < goal) else "higher")
        extra = {k: v for k, v in data.items() if k not in known | {"met", "extra"}}
        return cls(
            test=str(data.get("test", "")),
            name=name,
            value=value,
            unit=unit,
            goal=goal,
            better="lower" if better == "lower" else "higher",
            baseline=data.get("baseline"),
            goal_max=data.get("goal_max"),
            note=str(data.get("note", "")),
            extra={**extra, **data.get("extra", {})},
            file=path.name,
            claimed_met=claimed if isinstance(claimed, bool) else None,
        )

    def result(self, ok: bool, why: str = "") -> Result:
        """The figure as a row; ``ok`` is whether its test passed, ``why`` what went wrong."""
        note = "; ".join(part for part in (self.note, why) if part)
        return Result(
            self.name,
            self.value,
            self.unit,
            self.baseline,
            self.goal,
            self.better,
            note,
            extra={"test": self.test, **self.extra},
            goal_max=self.goal_max,
            ok=ok and self.claimed_met is not False,
        )


def snapshot(where: Path) -> dict[str, int]:
    """Every figure file in ``where`` with its modification time, to see which a test wrote."""
    return {path.name: path.stat().st_mtime_ns for path in where.glob("*.json")}


def collect(where: Path) -> tuple[list[Figure], list[str]]:
    """Every figure in ``where`` in the order written, and the files that are not figures."""
    found: list[tuple[int, Figure]] = []
    broken: list[str] = []
    for name, stamp in snapshot(where).items():
        try:
            found.append((stamp, Figure.load(where / name)))
        except ValueError:
            broken.append(name)
    return [figure for _, figure in sorted(found, key=lambda pair: pair[0])], sorted(broken)


def clear(where: Path) -> None:
    """Forget the figures of an earlier run."""
    for path in [*where.glob("*.json"), *where.glob("*.part")]:
        path.unlink()
