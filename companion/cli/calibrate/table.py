"""The sensors as a calibration step reads them, and the terminal it asks on: prompts,
a progress bar while sampling, and the simulated table's own clock."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from companion.cli.arguments import table_config
from companion.config import TableConfig
from companion.errors import CompanionError
from companion.sensors.calibration import (
    FILENAME,
    Calibration,
    SeatCalibration,
    load_calibration,
    save_calibration,
)
from companion.sensors.calibration_checks import Samples
from companion.sensors.lock import SensorsBusy, pads_lock
from companion.sensors.pod_link import PodBusy
from companion.sensors.reading import SCALE, Reading
from companion.sensors.sources import Sources, open_sources

FIND_TRIES = 3
"""How many times that long a step waits for a seat's sensor to read at all: the HX711 reader's
process takes a second or two to start and settle."""
WAIT_SECONDS = 60.0
"""Without prompts, how long a known weight may take to be set on the pad and settle."""
POLL_S = 0.25
COINS = "water from the pipette in the cap, or a coin: a US nickel is 5.000 g, a 1-euro coin 7.50 g"
ON_THE_PAGE = (
    "set the sensors up from the daemon's referee page instead (its section Set up the sensors "
    "runs every step while the table plays, nothing stopped)"
)
BUSY = (
    f"the daemon is reading the pads: {ON_THE_PAGE}, or stop it first (sudo systemctl stop "
    "companion), calibrate, then start it again"
)
"""What a step says when the daemon holds the pads: the referee page does it all meanwhile."""


class Aborted(CompanionError):
    """The input ended before a question was answered."""


class SimClock:
    """The simulated table's time: sampling moves it on instead of waiting."""

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds


@dataclasses.dataclass
class Table:
    """The open sensors and what a step needs around them: the clock, the prompts, the file."""

    args: argparse.Namespace
    config: TableConfig
    sources: Sources
    clock: Callable[[], float]
    sleep: Callable[[float], None]
    path: Path
    calibration: Calibration
    interactive: bool
    seat_of: dict[tuple[str, str], int | None] = dataclasses.field(default_factory=dict)
    """Which seat the sources give each sensor, ``(kind, id)``, as the readings say."""

    @property
    def seats(self) -> list[int]:
        return [s.seat for s in self.config.seats]

    def chosen(self) -> list[int]:
        return [self.args.seat] if self.args.seat else self.seats

    def ask(self, prompt: str) -> str:
        """A question answered on the terminal; the end of the input aborts the step."""
        try:
            return input(prompt)
        except EOFError:
            print()
            raise Aborted("no answer (the input ended): nothing written") from None

    def step(self, instruction: str, during: bool = False) -> None:
        """Tell the maker what to do now; interactively, wait for Enter: after it is done, or
        to start the sampling ``during`` which it is done."""
        if self.interactive and during:
            self.ask(f"Press Enter, then {instruction[0].lower()}{instruction[1:]} ")
        elif self.interactive:
            self.ask(f"{instruction}, then press Enter ")
        else:
            print(f"{instruction}.", flush=True)

    def sample(
        self, seconds: float, label: str, pads: bool = False, probes: bool = False
    ) -> dict[str, Samples]:
        """Read the pads and/or the probes for ``seconds`` (or ``--seconds``): each sensor's
        samples, by its id."""
        seconds = self.args.seconds or seconds
        scales = self.sources.scales if pads else None
        thermometers = self.sources.thermometers if probes else None
        if scales is not None:
            scales.readings()  # what came before the step is not its sample
        period = min(self.config.sensors.sweep_s, 1.0)
        readings: list[Reading] = []
        start = self.clock()
        next_sweep = start
        bar = Progress(label, seconds)
        while (elapsed := self.clock() - start) < seconds:
            bar.show(elapsed)
            if thermometers is not None and self.clock() >= next_sweep:
                readings += thermometers.sweep()
                next_sweep += period
            self.sleep(POLL_S)
            if scales is not None:
                readings += scales.readings()
        bar.done()
        by_id: dict[str, list[Reading]] = {}
        for reading in readings:
            by_id.setdefault(reading.id, []).append(reading)
            self.seat_of[(reading.kind, reading.id)] = reading.seat
        return {id_: Samples.of(rs, seconds) for id_, rs in by_id.items()}

    def has(self, kind: str, seat: int) -> bool:
        """Whether the seat's probe or pad has read yet."""
        return any(k == kind and s == seat for (k, _), s in self.seat_of.items())

    def sensor(self, kind: str, seat: int) -> str:
        """The id of the seat's probe or pad (as the sources map them), or a one-line error."""
        ids = [i for (k, i), s in self.seat_of.items() if k == kind and s == seat]
        if ids:
            return ids[0]
        if kind == SCALE:
            raise CompanionError(
                f"no pad read for seat {seat}: check its HX711's wiring and data pin "
                "with `companion sensors`"
            )
        raise CompanionError(
            f"no probe read for seat {seat}: check its wiring with `companion sensors`, then "
            "run `companion calibrate identify`"
        )

    def own(self, seat: int, kind: str, id_: str) -> SeatCalibration | None:
        """The file's calibration of the seat when it is for this very sensor."""
        own = self.calibration.seats.get(seat)
        return own if own is not None and getattr(own, kind) == id_ else None

    def accept(self, calibration: Calibration) -> int:
        """Ask (unless ``--yes``), then write; nothing is written when not accepted."""
        if self.args.yes:
            print("Accept? [y/N] yes (--yes)")
        elif self.ask("Accept? [y/N] ").strip().lower() not in ("y", "yes"):
            print("Nothing written.")
            return 1
        return write(self.path, calibration)


class Progress:
    """A bar on stderr while sensors are read, only on a terminal; erased when done."""

    WIDTH = 30

    def __init__(self, label: str, seconds: float) -> None:
        self.label = label
        self.seconds = seconds
        self.on = sys.stderr.isatty()

    def show(self, elapsed: float) -> None:
        if self.on:
            full = round(self.WIDTH * min(elapsed / self.seconds, 1.0))
            bar = "#" * full + "." * (self.WIDTH - full)
            sys.stderr.write(f"\r{self.label} [{bar}] {elapsed:4.1f} of {self.seconds:g} s")
            sys.stderr.flush()

    def done(self) -> None:
        if self.on:
            self.show(self.seconds)
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


@contextlib.contextmanager
def opened(
    args: argparse.Namespace, pads: bool = True, interactive: bool = True
) -> Iterator[Table]:
    """The table's sensors, open for one step: the pads' lock held while real pads are read."""
    config, simulate = table_config(args)
    for seat in (args.seat,) if args.seat else ():
        if seat not in [s.seat for s in config.seats]:
            raise CompanionError(
                f"seat {seat}: this table has seats 1 to {len(config.seats)}: give one of them"
            )
    if not pads:
        config = dataclasses.replace(
            config, sensors=dataclasses.replace(config.sensors, scales="none")
        )
    path = args.state_dir / FILENAME
    calibration = load_calibration(path)
    sim_clock = SimClock() if simulate else None
    clock = sim_clock.now if sim_clock else time.monotonic
    real_pads = pads and not simulate and config.sensors.scales == "hx711"
    with contextlib.ExitStack() as held:
        if real_pads:
            try:
                held.enter_context(pads_lock(args.state_dir))
            except SensorsBusy:
                raise SensorsBusy(BUSY) from None
        try:
            sources = open_sources(config, calibration, simulate=simulate, clock=clock)
        except PodBusy as busy:
            raise PodBusy(f"{busy}; or {ON_THE_PAGE}") from None
        try:
            yield Table(
                args,
                config,
                sources,
                clock,
                sim_clock.sleep if sim_clock else time.sleep,
                path,
                calibration,
                interactive,
            )
        finally:
            sources.close()


def write(path: Path, calibration: Calibration) -> int:
    """Save the calibration, saying where, and where the previous one is kept."""
    kept = f" (the previous one kept as {FILENAME}.bak)" if path.exists() else ""
    save_calibration(path, calibration)
    print(f"Written to {path}{kept}.")
    return 0


def now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
