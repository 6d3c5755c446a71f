"""The serial link to the sensor pod: finds its port, reads its lines in a thread, reconnects.

The pod shows two serial ports over USB; its data port is the one whose interface is
``CircuitPython CDC2 control``, on a device whose product is ``companion sensor pod``
(``firmware/pod/boot.py`` names it so). A configured ``sensors.pod_port`` is used as it is.
The port is opened exclusively (a second opener is told at once, not left to fight over the
lines) with a short read timeout, so the thread notices silence and ``close()`` quickly.

Everything the lines say is kept by a :class:`~companion.sensors.pod_stream.PodStream`; the
thread only moves bytes both ways. A read error (the pod unplugged: ``EIO``) closes the port,
and the thread tries it again every ``retry_s`` until the pod is back. Nothing here raises
once :meth:`PodLink.start` has returned.
"""

from __future__ import annotations

import contextlib
import errno
import threading
import time
from collections.abc import Callable
from typing import Any, Final

import serial
from serial.tools import list_ports

from companion.errors import CompanionError
from companion.sensors.pod_stream import SILENT_S, PodStream, Reconnect, Settings, Value

PRODUCT: Final = "companion sensor pod"
DATA_INTERFACE: Final = "CDC2"
READ_TIMEOUT_S: Final = 0.1
RETRY_S: Final = 1.0
HINT: Final = (
    "plug it in (with a data cable), or name its data port in sensors.pod_port "
    "(ls /dev/serial/by-id/ lists the pod's two ports: the data port ends in -if02)"
)
NOT_FOUND: Final = f"no sensor pod found on USB (product {PRODUCT!r}): {HINT}"
UNPLUGGED: Final = "the pod is unplugged: reconnecting"

Opener = Callable[[str], Any]
"""Opens a port by its path: a ``serial.Serial`` or anything with ``read``, ``in_waiting``,
``write`` and ``close``."""


class PodBusy(CompanionError):
    """Another program holds the pod's port."""


def find_pod(ports: list[Any] | None = None) -> str | None:
    """The pod's data port among ``ports`` (pyserial's ``list_ports.comports()`` by default)."""
    listed = list_ports.comports() if ports is None else ports
    for port in sorted(listed, key=lambda p: p.device):
        if port.product == PRODUCT and DATA_INTERFACE in (port.interface or ""):
            return str(port.device)
    return None


def open_port(path: str) -> serial.Serial:
    """The port, opened exclusively, raw, with a short read timeout."""
    return serial.Serial(
        path, baudrate=115200, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True
    )


def busy(port: str) -> str:
    """What a second opener of the port is told."""
    return (
        f"{port}: the sensor pod's port is in use by another program, the daemon most likely: "
        "see its readings in its status (/api/status), or stop it first "
        "(sudo systemctl stop companion)"
    )


class PodLink:
    """The pod's port, read in a thread; the views lock, so any thread may call them.

    ``port`` is the configured path (``""``: find the pod with ``find``); ``seat_of`` names a
    sensor's seat for the reconnect gaps; ``clock`` stamps each line's arrival (the readings'
    times are on it).
    """

    def __init__(
        self,
        port: str = "",
        settings: Settings | None = None,
        seat_of: Callable[[str], int | None] = lambda sensor: None,
        clock: Callable[[], float] = time.monotonic,
        find: Callable[[], str | None] = find_pod,
        opener: Opener = open_port,
        retry_s: float = RETRY_S,
        silent_s: float = SILENT_S,
    ) -> None:
        self.configured = port
        self.retry_s = retry_s
        self._clock = clock
        self._find = find
        self._opener = opener
        self._stream = PodStream(settings or Settings(), seat_of, silent_s)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None

    # -- lifecycle

    def start(self) -> PodLink:
        """Open the port (or note why not) and start reading; :class:`PodBusy` when another
        program holds the port."""
        if self._thread is not None:
            return self
        self._stop.clear()
        self._connect(first=True)
        self._thread = threading.Thread(target=self._run, name="companion-pod", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread (within a read timeout) and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        self._disconnect()

    def __enter__(self) -> PodLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- views

    def trouble(self) -> str | None:
        """What every probe and pad shows instead of readings now, or ``None``."""
        with self._lock:
            return self._stream.trouble(self._clock())

    def take_pads(self) -> list[tuple[float, str, Value]]:
        """Every pad word since the last call: (time, pad id, counts or fault code)."""
        with self._lock:
            return self._stream.take_pads()

    def probes(self) -> dict[str, tuple[float, Value, float]]:
        """Each probe's latest: (its time, milli-degrees or fault code, when it arrived)."""
        with self._lock:
            return dict(self._stream.probes)

    @property
    def sweeps(self) -> int:
        """How many sweeps of the probes have come."""
        with self._lock:
            return self._stream.sweeps

    @property
    def gaps(self) -> list[Reconnect]:
        """Every time the pod came back, with each seat's seconds without readings."""
        with self._lock:
            return list(self._stream.reconnects)

    def status(self) -> dict[str, Any]:
        """What ``companion sensors`` shows of the pod: its port, versions, counts, last gap."""
        with self._lock:
            stream = self._stream
            last = stream.reconnects[-1] if stream.reconnects else None
            return {
                "port": stream.port or self.configured or None,
                "firmware": stream.hello.get("fw"),
                "protocol": stream.hello.get("proto"),
                "board": stream.hello.get("board"),
                "reset": stream.hello.get("reset"),
                "lines": stream.lines,
                "bad": stream.bad,
                "lost": stream.lost,
                "reconnects": len(stream.reconnects),
                "last_gap": None
                if last is None
                else {"why": last.why, "seats": {str(s): g for s, g in last.gaps.items()}},
                "trouble": stream.trouble(self._clock()),
            }

    def wait_ready(self, probes: bool, pads: bool, timeout_s: float) -> bool:
        """Wait until the first sweep of the probes and round of the pads came (as asked), or
        the pod is refused or not there; whether they came."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while True:
                stream = self._stream
                if (stream.sweeps or not probes) and (stream.rounds or not pads):
                    return True
                left = deadline - time.monotonic()
                if left <= 0 or stream.refused is not None or self._port is None:
                    return False
                self._changed.wait(min(left, READ_TIMEOUT_S))

    # -- the thread

    def _run(self) -> None:
        next_try = time.monotonic() + self.retry_s
        while not self._stop.is_set():
            if self._port is None:
                if time.monotonic() >= next_try:
                    self._connect(first=False)
                    next_try = time.monotonic() + self.retry_s
                self._stop.wait(min(self.retry_s, READ_TIMEOUT_S))
                continue
            try:
                data = self._port.read(self._port.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError):
                self._lost()
                next_try = time.monotonic() + self.retry_s
                continue
            with self._changed:
                now = self._clock()
                answers = self._stream.receive(now, data) if data else []
                self._stream.check(now)
                self._changed.notify_all()
            if answers and not self._send(answers):
                next_try = time.monotonic() + self.retry_s

    def _connect(self, first: bool) -> None:
        path = self.configured or self._find()
        if path is None:
            self._closed(UNPLUGGED if self._stream.lines else NOT_FOUND)
            return
        try:
            port = self._opener(path)
        except (serial.SerialException, OSError) as exc:
            if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY):
                if first:
                    raise PodBusy(busy(path)) from None
                self._closed(busy(path))
            elif exc.errno in (errno.EACCES, errno.EPERM):
                self._closed(
                    f"{path}: permission denied: run as the service's user (sudo -u companion "
                    "...), or join the group that owns the port (ls -l shows it: dialout, or "
                    "companion once the udev rules are in) and log in again"
                )
            else:
                never = f"no sensor pod at {path}: {HINT}"
                self._closed(UNPLUGGED if self._stream.lines else never)
            return
        with self._changed:
            self._port = port
            hello = self._stream.opened(self._clock(), path)
            self._changed.notify_all()
        self._send([hello])

    def _send(self, commands: list[bytes]) -> bool:
        try:
            for line in commands:
                self._port.write(line)
        except (serial.SerialException, OSError, AttributeError):
            self._lost()
            return False
        return True

    def _lost(self) -> None:
        self._disconnect()
        self._closed(UNPLUGGED)

    def _closed(self, why: str) -> None:
        with self._changed:
            self._stream.closed(self._clock(), why)
            self._changed.notify_all()

    def _disconnect(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
