"""The shared result record of every benchmark, and the table that prints a list of them.

A benchmark reports one :class:`Result`: ``value`` in ``unit``, the ``baseline`` it is compared
with (a reference measured in the same run and unit, or ``None`` when there is only a limit), the
``goal`` in the same unit, ``better`` ("higher" or "lower") and whether the goal was ``met``.
A goal that is a range sets ``goal_max`` too: then ``goal`` is its low end and ``met`` means
within both. ``ok`` is False when what produced the figure failed (a long test that did not pass):
then the goal is not met, whatever the value.
``ratio`` is value/baseline when there is a baseline, else value/goal.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Literal


class BenchFailure(Exception):
    """The code under measurement gave a wrong answer, so its speed means nothing."""


def p99(values: list[float]) -> float:
    """The 99th percentile (inclusive method: never beyond the largest value).

    >>> p99([1.0, 2.0, 3.0]), p99([5.0])
    (2.98, 5.0)
    """
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def sig(x: float, digits: int = 4) -> float:
    """``x`` rounded to ``digits`` significant digits, for readable JSON."""
    return float(f"{x:.{digits}g}")


@dataclass
class Result:
    """One benchmark's measurement, compared with its baseline and its goal."""

    name: str
    value: float
    unit: str
    baseline: float | None
    goal: float
    better: Literal["higher", "lower"]
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    goal_max: float | None = None
    ok: bool = True

    @property
    def met(self) -> bool:
        if not self.ok:
            return False
        if self.goal_max is not None:
            return self.goal <= self.value <= self.goal_max
        return self.value >= self.goal if self.better == "higher" else self.value <= self.goal

    @property
    def ratio_to(self) -> str:
        return "goal" if self.baseline is None else "baseline"

    @property
    def ratio(self) -> float | None:
        """``None`` when there is nothing to divide by (a goal of zero: none lost)."""
        base = self.goal if self.baseline is None else self.baseline
        return self.value / base if base else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": sig(self.value),
            "unit": self.unit,
            "baseline": None if self.baseline is None else sig(self.baseline),
            "goal": sig(self.goal),
            "met": self.met,
            "better": self.better,
            "ratio": None if self.ratio is None else sig(self.ratio, 3),
            "ratio_to": self.ratio_to,
            "note": self.note,
            **({} if self.goal_max is None else {"goal_max": sig(self.goal_max)}),
            **self.extra,
        }


HEAD = ("benchmark", "value", "baseline", "goal", "ratio", "met")


def cells(r: dict[str, Any]) -> tuple[str, ...]:
    """One row's cells from its JSON form (:meth:`Result.to_json`).

    >>> cells(Result("sweep", 1.014, "probes", 4.04, 1.15, "lower").to_json())
    ('sweep', '1.014 probes', '4.04 probes', '<= 1.15 probes', '0.251x baseline', 'yes')
    >>> cells(Result("lost", 0, "actions", None, 0, "lower").to_json())[4:]
    ('-', 'yes')
    """
    unit = r["unit"]
    sign = ">=" if r["better"] == "higher" else "<="
    goal = (
        f"{sign} {r['goal']:.4g} {unit}"
        if r.get("goal_max") is None
        else f"{r['goal']:.4g}-{r['goal_max']:.4g} {unit}"
    )
    return (
        r["name"],
        f"{r['value']:.4g} {unit}",
        "-" if r["baseline"] is None else f"{r['baseline']:.4g} {unit}",
        goal,
        "-" if r["ratio"] is None else f"{r['ratio']:.3g}x {r['ratio_to']}",
        "yes" if r["met"] else "NO",
    )


def markdown(results: list[dict[str, Any]]) -> str:
    """The results' JSON forms as a Markdown table, for ``bench/README.md``'s "Measured".

    >>> print(markdown([Result("memory", 44.2, "MB", None, 60.0, "lower").to_json()]))
    | benchmark | value | baseline | goal | ratio | met |
    |---|---|---|---|---|---|
    | memory | 44.2 MB | - | <= 60 MB | 0.737x goal | yes |
    """
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in results]
    return "\n".join(lines)


def table(results: list[Result]) -> str:
    """A plain-text table of the results, one row each, with their notes below."""
    rows = [HEAD, *(cells(r.to_json()) for r in results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEAD))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += [f"{r.name}: {r.note}" for r in results if r.note]
    return "\n".join(lines)
