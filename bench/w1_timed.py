"""A w1 tree whose files take the real conversion times, to time a sweep without a Raspberry Pi.

The tree is plain files laid out as ``/sys/bus/w1/devices`` is (see
:mod:`companion.sensors.w1`); :meth:`TimedW1.open`, passed to the driver as its ``open_file``,
adds the kernel's waits, as ``w1_therm`` does:

- reading a probe's ``w1_slave`` converts that probe and sleeps the conversion time, unless a
  bulk conversion has finished since its last read: then it returns at once (from its RAM);
- writing ``trigger\\n`` to ``therm_bulk_read`` converts every probe at once: the write returns
  after one conversion time, and every probe's next read is served from RAM.

Conversion times are the kernel's (95/190/375/750 ms at 9-12 bits). Every trigger and read is
logged as an :class:`Event`, so a test can check the order of operations on a fake clock, and
the benchmark can check that the sweeps it timed did what it claims.
"""

from __future__ import annotations

import builtins
import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from companion.sensors.ds18b20 import kernel_text, scratchpad

KERNEL_CONVERSION_S = {9: 0.095, 10: 0.19, 11: 0.375, 12: 0.75}
MASTER = "w1_bus_master1"


@dataclass(frozen=True)
class Event:
    """A trigger or a read: when it began and ended, and when the conversion it used ended."""

    kind: str  # "trigger" or "read"
    probe: str | None
    start: float
    end: float
    converted: float
    source: str  # a read's: "bulk" (from RAM) or "own" (it converted); "" for a trigger


def probe_id(number: int) -> str:
    """A plausible DS18B20 id for the ``number``-th probe."""
    return f"28-0316a27{number:05x}"


def probe_text(milli: int, resolution: int) -> str:
    """A probe's ``w1_slave`` at ``milli`` degrees (a multiple of the resolution's step)."""
    return kernel_text(scratchpad(milli / 1000, resolution))


class _Trigger(io.StringIO):
    def __init__(self, fake: TimedW1) -> None:
        super().__init__()
        self._fake = fake

    def close(self) -> None:
        if not self.closed:
            text = self.getvalue()
            super().close()
            if text == "trigger\n":  # the kernel ignores anything else
                self._fake._convert_all()


class TimedW1:
    """``probes`` DS18B20s at ``resolution`` under ``root``, probe k at 20 + k/2 C."""

    def __init__(
        self,
        root: Path,
        probes: int,
        resolution: int = 9,
        bulk: bool = True,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.root = Path(root)
        self.conversion_s = KERNEL_CONVERSION_S[resolution]
        self.ids = [probe_id(k) for k in range(probes)]
        self.milli = {p: 20_000 + 500 * k for k, p in enumerate(self.ids)}
        self.events: list[Event] = []
        self._clock = clock
        self._sleep = sleep
        self._ready: dict[str, float] = {}
        master = self.root / MASTER
        master.mkdir(parents=True)
        for probe in self.ids:
            (master / probe).mkdir()
            (master / probe / "w1_slave").write_text(probe_text(self.milli[probe], resolution))
            (master / probe / "resolution").write_text(f"{resolution}\n")
            (self.root / probe).symlink_to(Path(MASTER) / probe)
        if bulk:
            (master / "therm_bulk_read").write_text("0\n")

    def open(self, path: Path, mode: str) -> IO[Any]:
        """``open``, with the kernel's conversion waits on ``w1_slave`` and ``therm_bulk_read``."""
        path = Path(path)
        if path.name == "therm_bulk_read" and "w" in mode:
            return _Trigger(self)
        if path.name == "w1_slave":
            self._convert_one(path.parent.name)
        return builtins.open(path, mode, encoding="ascii")

    def sweeps(self) -> list[list[Event]]:
        """The events split into sweeps: a trigger starts one, and so does a read of the
        first probe when there is no trigger."""
        out: list[list[Event]] = []
        for event in self.events:
            starts = event.kind == "trigger" or (
                event.probe == self.ids[0] and not (out and out[-1][-1].kind == "trigger")
            )
            if starts or not out:
                out.append([])
            out[-1].append(event)
        return out

    def _convert_all(self) -> None:
        start = self._clock()
        self._sleep(self.conversion_s)
        end = self._clock()
        self._ready = dict.fromkeys(self.ids, end)
        self.events.append(Event("trigger", None, start, end, end, ""))

    def _convert_one(self, probe: str) -> None:
        start = self._clock()
        if probe in self._ready:
            converted, source = self._ready.pop(probe), "bulk"
        else:
            self._sleep(self.conversion_s)
            converted, source = self._clock(), "own"
        self.events.append(Event("read", probe, start, self._clock(), converted, source))
