"""The memory of a running table: every process of the daemon's tree, resident and proportional.

A process's resident set (RSS) counts every page it maps, however many others map it too; its
proportional set (PSS, ``/proc/<pid>/smaps_rollup``) counts a page that n processes share as
1/n of one, so the PSS of a tree's processes add up to what the tree costs the machine. A
table is the daemon and its children: the cue player, and the HX711 reader where the pads are
real. Each worker names itself (``companion-cues``), so its role is read from
``/proc/<pid>/comm``; any other child is named by its command.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bench.report import BenchFailure, Result, sig

PROC: Final = Path("/proc")
GOAL_MB: Final = 60.0
"""The whole tree of the simulated table with cues."""
BUDGET_MB: Final = {"daemon": 38.0, "cues": 18.0, "hx711": 18.0}
"""Each process's ceiling, in this order: a worker is an interpreter with its own modules (it
took 33 MB when it imported the whole command line). A PSS moves by a megabyte with the other
Pythons running, which share the interpreter's pages."""


@dataclass(frozen=True)
class ProcessMemory:
    """One process of the tree: its ``role`` (``daemon``, ``cues``, ...) and its memory."""

    pid: int
    role: str
    rss_mb: float
    pss_mb: float


def children(pid: int, proc: Path = PROC) -> list[int]:
    """Every descendant of ``pid``, parents before their children."""
    found: list[int] = []
    for task in sorted((proc / str(pid) / "task").iterdir()):
        for child in (task / "children").read_text().split():
            found += [int(child), *children(int(child), proc)]
    return found


def kilobytes(path: Path, key: str) -> int:
    """The ``key:`` line of a ``/proc`` status file, in kB."""
    for line in path.read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    raise BenchFailure(f"memory: no {key} in {path}")


def role(pid: int, root: int, proc: Path = PROC) -> str:
    """What the process is to the table, by its name and command line."""
    if pid == root:
        return "daemon"
    comm = (proc / str(pid) / "comm").read_text().strip()
    return comm.removeprefix("companion-")


def tree(root: int, proc: Path = PROC) -> list[ProcessMemory]:
    """The memory of ``root`` and of each of its descendants, in the order of :data:`BUDGET_MB`."""
    found = [
        ProcessMemory(
            pid,
            role(pid, root, proc),
            kilobytes(proc / str(pid) / "status", "VmRSS") / 1024,
            kilobytes(proc / str(pid) / "smaps_rollup", "Pss") / 1024,
        )
        for pid in [root, *children(root, proc)]
    ]
    order = list(BUDGET_MB)
    return sorted(found, key=lambda p: order.index(p.role) if p.role in order else len(order))


def results(processes: list[ProcessMemory], when: str) -> list[Result]:
    """The tree's PSS against :data:`GOAL_MB`, then a row per process against its budget."""
    roles = [p.role for p in processes]
    if "cues" not in roles:
        raise BenchFailure(f"memory: no cue child among the table's processes: {roles}")
    every = ", ".join(f"{p.role} {p.pss_mb:.1f} MB" for p in processes)
    rss = sum(p.rss_mb for p in processes)
    total = Result(
        "table memory",
        sig(sum(p.pss_mb for p in processes)),
        "MB",
        None,
        GOAL_MB,
        "lower",
        f"proportional (PSS), the daemon and its {len(processes) - 1} children summed, {when}: "
        f"{every}; resident (RSS) {rss:.1f} MB summed, counting shared pages once in each",
        extra={
            "processes": [
                {"role": p.role, "rss_mb": sig(p.rss_mb), "pss_mb": sig(p.pss_mb)}
                for p in processes
            ]
        },
    )
    return [total, *(_row(p, when) for p in processes)]


def _row(process: ProcessMemory, when: str) -> Result:
    return Result(
        f"table memory: {process.role}",
        sig(process.pss_mb),
        "MB",
        None,
        BUDGET_MB.get(process.role, GOAL_MB),
        "lower",
        f"proportional (PSS) {when}; resident (RSS) {process.rss_mb:.1f} MB",
        extra={"rss_mb": sig(process.rss_mb)},
    )


def rss_mb(pid: int) -> float:
    """The resident memory of one process alone."""
    return kilobytes(PROC / str(pid) / "status", "VmRSS") / 1024
