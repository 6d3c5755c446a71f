"""The pads' lock: one process at a time reads the HX711 pads.

Two readers bit-banging the same clock pin would corrupt each other's words, so the daemon and
``companion calibrate`` each take an exclusive ``flock`` on ``sensors.lock`` in the state
directory before they open the pads. The kernel lets the lock go when its holder's file is
closed, which happens at any exit, a crash or ``kill -9`` included: a lock is never left behind.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder, pads_lock(Path(folder)):
...     with pads_lock(Path(folder)):  # doctest: +ELLIPSIS
...         pass
Traceback (most recent call last):
companion.sensors.lock.SensorsBusy: the daemon is reading the pads: stop it first ...
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from companion.errors import CompanionError
from companion.host.locks import exclusive

LOCK_FILE = "sensors.lock"
BUSY = (
    "the daemon is reading the pads: stop it first (sudo systemctl stop companion), "
    "calibrate, then start it again: it reads the new calibration as it starts"
)


class SensorsBusy(CompanionError):
    """Another process holds the pads' lock; the message says what to do about it."""

    def __init__(self, message: str = BUSY) -> None:
        super().__init__(message)


@contextlib.contextmanager
def pads_lock(state_dir: Path) -> Iterator[Path]:
    """Hold the pads' lock (``state_dir/sensors.lock``, made if missing) for the ``with`` block;
    :class:`SensorsBusy` at once when another process holds it (see :mod:`companion.host.locks`)."""
    path = state_dir / LOCK_FILE
    with exclusive(path, SensorsBusy):
        yield path
