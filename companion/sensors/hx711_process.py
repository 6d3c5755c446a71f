"""The HX711 bank read in a process of its own, so the daemon's threads cannot stretch the clock.

A Python thread can be paused for 10-25 ms while another holds the GIL, far past the chip's
60 us clock-high limit. So the pads are read by a child process that does nothing else: it
raises its own priority (real-time FIFO where permitted, else a lower nice value, else as it
is), keeps the garbage collector off during each read, and sends its Readings through a pipe
between reads. A pipe, not a queue: a queue's feeder thread would compete for the GIL while a
read is under way. The child is a :class:`companion.host.workers.Worker`: it imports this module and
the bank's, nothing of the daemon. It stops when the parent says so, or goes away: either makes
its end of the pipe readable, which it looks at between reads.

Reading times come from ``time.monotonic()`` in the child. On Linux that is CLOCK_MONOTONIC,
one clock for the whole system, so the parent can compare them with its own
``time.monotonic()``. A table whose clock counts from its own start (``table_clock``) gets each
reading moved onto that clock by its age, so a weigh-in is not dated by how long the Pi has
been up.

The child builds its GPIO module from a dotted path, ``"RPi.GPIO"`` by default: a module is
used as it is, anything else (``"package.module:factory"``) is called with no arguments. A
child that dies, or cannot start, is reported as a fault on every pad, and started again after
a pause that doubles with each death in a row (1 s, 2 s, ... up to a minute). A parent that
stops draining only pauses the child: the pipe fills and the child waits, with the clock low.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Final

from companion.errors import CompanionError
from companion.host import workers
from companion.host.realtime import raise_priority
from companion.sensors.hx711 import HX711Bank, load_gpio, pad_id
from companion.sensors.reading import SCALE, Reading, fault

RESTART_MAX_S: Final = 60.0
STOP_WAIT_S: Final = 2.0


@dataclass(frozen=True)
class PadSettings:
    """Everything the child needs to build the bank; plain values, so it pickles."""

    clock_pin: int
    data_pins: tuple[int, ...]
    seats: Mapping[int, int] = field(default_factory=dict)
    gain: int = 128
    rate_hz: int = 10
    gpio: str = "RPi.GPIO"
    chip: int | None = None
    """The config's GPIO chip, for rpi-lgpio (``None``: it finds the header's)."""


def why(error: Exception) -> str:
    """An error as one line: our own errors say it all, others need their kind."""
    return str(error) if isinstance(error, CompanionError) else f"{type(error).__name__}: {error}"


def _stop_on_term(signum: int, frame: object) -> None:
    raise SystemExit(0)


def serve(settings: PadSettings, conn: Connection) -> None:
    """The child: read the pads at the chips' rate and send Readings until told to stop.

    Messages: ``("started", priority)``, then ``("readings", [Reading, ...])`` per read, or
    ``("failed", reason)`` once if the bank cannot be built or a read raises. Anything the
    parent sends, or its end closing, stops it.
    """
    signal.signal(signal.SIGTERM, _stop_on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group; the parent stops us
    priority = raise_priority()
    if settings.chip is not None:
        os.environ["RPI_LGPIO_CHIP"] = str(settings.chip)  # read as rpi-lgpio opens the chip
    try:
        gpio = load_gpio(settings.gpio)
        bank = HX711Bank(
            gpio,
            settings.clock_pin,
            settings.data_pins,
            gain=settings.gain,
            rate_hz=settings.rate_hz,
            seats=settings.seats,
        )
    except Exception as error:
        conn.send(("failed", why(error)))
        return
    try:
        conn.send(("started", priority))
        while not conn.poll():
            gc.disable()
            try:
                readings = bank.sweep()
            finally:
                gc.enable()
            if readings:
                conn.send(("readings", readings))
    except (BrokenPipeError, EOFError):
        pass
    except Exception as error:
        with contextlib.suppress(OSError):
            conn.send(("failed", why(error)))
    finally:
        bank.close()


class HX711Reader:
    """The table's pads, read by a child process; ``readings()`` hands over what it sent.

    ``start()`` starts the child, ``readings()`` drains without blocking (and reports and
    restarts a dead child), ``close()`` stops it; the child gives the pins back as it ends.
    """

    def __init__(
        self,
        settings: PadSettings,
        restart_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        table_clock: Callable[[], float] | None = None,
    ) -> None:
        self.settings = settings
        self.restart_s = restart_s
        self.priority: str | None = None
        """How the child raised its priority, once it has said so."""
        self._clock = clock
        """The child's clock (CLOCK_MONOTONIC): restarts are timed, and readings aged, on it."""
        self._table_clock = table_clock
        """The clock readings are handed over on (real seconds, any origin); ``None``: the
        child's own."""
        self._process: workers.Worker | None = None
        self._conn: Connection | None = None
        self._failure: str | None = None
        self._delay_s = restart_s
        self._restart_at: float | None = None

    @property
    def pid(self) -> int | None:
        """The child's process id while one runs."""
        return None if self._process is None else self._process.pid

    @property
    def ids(self) -> tuple[str, ...]:
        """Each pad's sensor id, in data-pin order."""
        return tuple(pad_id(pin) for pin in self.settings.data_pins)

    def start(self) -> None:
        """Start the child (it takes a moment to import and settle before readings come)."""
        if self._process is not None:
            return
        self._process = workers.Worker("companion-hx711", serve, (self.settings,))
        self._process.start()
        self._conn = self._process.connection
        self._failure = None
        self._restart_at = None

    def readings(self) -> list[Reading]:
        """Every Reading the child sent since the last call; faults for all pads if it died."""
        out: list[Reading] = []
        self._drain(out)
        now = self._clock()
        faults: list[Reading] = []
        if self._process is not None and not self._process.is_alive():
            self._drain(out)
            self._buried(now)
            faults = self._faults(now)
        elif self._restart_at is not None:
            if now >= self._restart_at:
                self.start()
            else:
                faults = self._faults(now)
        return self._on_table_clock(out + faults, now)

    def _on_table_clock(self, readings: list[Reading], now: float) -> list[Reading]:
        """``readings`` (stamped on the child's clock, which reads ``now``) on the table's."""
        if self._table_clock is None:
            return readings
        table_now = self._table_clock()
        return [replace(r, t=table_now - (now - r.t)) for r in readings]

    def _drain(self, out: list[Reading]) -> None:
        conn = self._conn
        if conn is None:
            return
        try:
            while conn.poll():
                kind, payload = conn.recv()
                if kind == "readings":
                    out.extend(payload)
                    self._delay_s = self.restart_s
                elif kind == "started":
                    self.priority = payload
                else:
                    self._failure = payload
        except (EOFError, OSError):
            pass

    def _buried(self, now: float) -> None:
        """Take note of a dead child and when to start the next one."""
        code = self._process.exitcode if self._process is not None else None
        self._failure = self._failure or f"the pad reader stopped (exit code {code})"
        self._forget()
        self._restart_at = now + self._delay_s
        self._delay_s = min(self._delay_s * 2, RESTART_MAX_S)

    def _faults(self, now: float) -> list[Reading]:
        wait_s = max(0.0, (self._restart_at or now) - now)
        reason = f"{self._failure}; restarting in {wait_s:.0f} s"
        seats = self.settings.seats
        return [
            Reading(seats.get(pin, n), SCALE, id_, None, fault(reason), now)
            for n, (pin, id_) in enumerate(zip(self.settings.data_pins, self.ids, strict=True), 1)
        ]

    def _forget(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    def close(self) -> None:
        """Stop the child (politely, then firmly); it gives the pins back as it ends."""
        self._restart_at = None
        process = self._process
        if process is None:
            return
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.send(("stop",))
        process.join(STOP_WAIT_S)
        if process.is_alive():
            process.terminate()
            process.join(STOP_WAIT_S)
        if process.is_alive():
            process.kill()
            process.join()
        self._forget()

    def __enter__(self) -> HX711Reader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
