"""``calibration.toml`` as the table last read it: noticed when saved again, and what it moved.

``companion calibrate`` writes the file while the daemon runs; the sensing asks at every pass
whether it changed (by its mark, without reading it) and takes up the new calibration. A broken
file is warned about once, naming its line and the fix, and the table keeps the one it had.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.config import TableConfig
from companion.errors import CompanionError
from companion.sensors.calibration import Calibration, load_calibration
from companion.sensors.pod import pad_seats as pod_pad_seats
from companion.sensors.sources import pad_settings, probe_seats

log = logging.getLogger(__name__)

FileMark = tuple[int, int, int] | None
"""A file's (mtime_ns, size, inode): it changes whenever the file is saved; ``None``: no file."""


class CalibrationWatch:
    """The calibration file at ``path`` and the calibration it held when last read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.calibration = Calibration()
        self._mark: FileMark = None

    def load(self) -> Calibration:
        """Read the file (at start: a broken file is an error the daemon reports)."""
        self._mark = file_mark(self.path)
        self.calibration = load_calibration(self.path)
        return self.calibration

    def changed(self) -> Calibration | None:
        """The file's new calibration when it was saved since it was read, else ``None``."""
        mark = file_mark(self.path)
        if mark == self._mark:
            return None
        self._mark = mark
        try:
            return load_calibration(self.path)
        except CompanionError as exc:
            log.warning("%s; the table goes on with the calibration it had", exc)
            return None


def moved(
    config: TableConfig, before: Calibration, after: Calibration, real: set[str], gpio: str
) -> list[str]:
    """The real sensors ("probes", "pads") whose seats differ between two calibrations;
    ``real`` names which the table reads for real ("thermometers", "scales")."""
    out = []
    if "thermometers" in real and probe_seats(config, before) != probe_seats(config, after):
        out.append("probes")
    if "scales" in real:
        seats: list[Mapping[Any, int]]
        if config.sensors.scales == "pod":
            seats = [pod_pad_seats(config, c) for c in (before, after)]
        else:
            seats = [pad_settings(config, c, gpio).seats for c in (before, after)]
        if seats[0] != seats[1]:
            out.append("pads")
    return out


def file_mark(path: Path) -> FileMark:
    """What tells a file's versions apart without reading it: (mtime_ns, size, inode).

    A save renames a new file over the old one, so the inode changes even when the time and
    the size do not.
    """
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size, found.st_ino)
