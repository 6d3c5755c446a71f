"""Calibration data: which probe and pad belong to which seat, and how to read them in true units.

Kept in ``calibration.toml`` in the state directory, one table a seat; the calibration command
writes it (whole or not at all, the previous one kept as ``calibration.toml.bak``), the daemon
and ``companion sensors`` read it. Every key is optional: a seat with no tare has no grams yet,
a probe with no offset reads as the sensor says.

```toml
[seat.1]
thermometer = "28-0316a2794aff"   # which probe is this seat's
probe_offset_c = -0.19            # added to the probe's reading (from ice water)
scale = "hx711:gpio6"             # which pad is this seat's
tare_counts = 81234.5             # the empty pad
counts_per_gram = 21480.2         # the slope from known weights (may be negative)
cap_g = 3.1                       # the empty cap, taken off every weigh-in
```

>>> text = '[seat.2]\\ntare_counts = 1000\\ncounts_per_gram = 500'
>>> calibration = parse_calibration("calibration.toml", text)
>>> calibration.grams(2, 4000)
6.0
>>> calibration.grams(1, 4000) is None
True
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from companion.datafile import DataFile
from companion.errors import CompanionError, DataFileError
from companion.host.statedir import FILE_MODE, private_dir, tighten

FILENAME = "calibration.toml"
BACKUP_SUFFIX = ".bak"
"""The previous calibration is kept beside the file, as ``calibration.toml.bak``."""
HX711_RANGE = (-(2**23), 2**23 - 1)
MAX_PROBE_OFFSET_C = 5.0
"""A larger offset is not a probe to correct but a probe to replace (or the wrong reference)."""

_KEYS: dict[str, type] = {
    "thermometer": str,
    "probe_offset_c": float,
    "probe_calibrated_at": datetime,
    "scale": str,
    "tare_counts": float,
    "tared_at": datetime,
    "counts_per_gram": float,
    "weighed_at": datetime,
    "cap_g": float,
}


PadStep = Literal["tare", "weight", "cap"]
"""What a pad needs before it weighs ice: its tare, a known weight (its counts per gram) and its
seat's empty cap, each a step of the calibration."""


class CalibrationNotSaved(CompanionError):
    """The calibration file cannot be written (a full disk, a read-only state directory)."""


@dataclass(frozen=True)
class SeatCalibration:
    """One seat's probe and pad: which sensors they are, and how to read them."""

    seat: int
    thermometer: str | None = None
    probe_offset_c: float = 0.0
    probe_calibrated_at: datetime | None = None
    scale: str | None = None
    tare_counts: float | None = None
    tared_at: datetime | None = None
    counts_per_gram: float | None = None
    weighed_at: datetime | None = None
    cap_g: float = 0.0

    def celsius(self, milli_degrees: float) -> float:
        """A probe's raw reading in true degrees."""
        return milli_degrees / 1000.0 + self.probe_offset_c

    def grams(self, counts: float) -> float | None:
        """A pad's raw counts as grams on the pad, or ``None`` until it is tared and weighed."""
        if self.tare_counts is None or not self.counts_per_gram:
            return None
        return (counts - self.tare_counts) / self.counts_per_gram

    def pad_lacks(self) -> tuple[PadStep, ...]:
        """The steps the seat's pad still lacks before it weighs ice in true grams: none once it
        is tared, weighed and its cap weighed (a cap of 0 g is one not weighed yet).

        >>> SeatCalibration(1, tare_counts=5.0).pad_lacks()
        ('weight', 'cap')
        """
        lacks: list[PadStep] = []
        if self.tare_counts is None:
            lacks.append("tare")
        if not self.counts_per_gram:
            lacks.append("weight")
        if not self.cap_g:
            lacks.append("cap")
        return tuple(lacks)

    def ice_g(self, pad_g: float) -> float:
        """The ice of a weigh-in: what the pad holds less the seat's empty cap, never below 0.

        >>> SeatCalibration(1, cap_g=2.5).ice_g(8.0), SeatCalibration(1, cap_g=2.5).ice_g(2.0)
        (5.5, 0.0)
        """
        return max(pad_g - self.cap_g, 0.0)


@dataclass(frozen=True)
class Calibration:
    """Every seat's calibration; a seat not listed reads raw values only."""

    seats: Mapping[int, SeatCalibration] = field(default_factory=dict)

    def seat(self, seat: int) -> SeatCalibration:
        return self.seats.get(seat) or SeatCalibration(seat)

    def celsius(self, seat: int, milli_degrees: float) -> float:
        return self.seat(seat).celsius(milli_degrees)

    def grams(self, seat: int, counts: float) -> float | None:
        return self.seat(seat).grams(counts)

    def seat_of(self, kind: str, sensor_id: str) -> int | None:
        """The seat that claims a sensor (``kind`` is ``thermometer`` or ``scale``), if any."""
        for number, seat in self.seats.items():
            if getattr(seat, kind, None) == sensor_id:
                return number
        return None

    def with_seat(self, seat: SeatCalibration) -> Calibration:
        """This calibration with one seat's entry replaced."""
        return Calibration({**self.seats, seat.seat: seat})

    def to_toml(self) -> str:
        """The file's text: seats in order, keys in a fixed order, absent values left out."""
        lines = ["# The sensors' calibration, written by `companion calibrate`."]
        for number in sorted(self.seats):
            lines += ["", f"[seat.{number}]"]
            seat = self.seats[number]
            for key in _KEYS:
                value = getattr(seat, key)
                if value is None or (key in ("probe_offset_c", "cap_g") and value == 0.0):
                    continue
                lines.append(f"{key} = {_toml_value(value)}")
        return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, datetime):
        return value.isoformat()
    return repr(float(value))


def parse_calibration(name: str, text: str) -> Calibration:
    """Read and check a calibration file's text; errors name the file, the line and the fix."""
    data = DataFile.parse(name, text)
    unknown = sorted(set(data.data) - {"seat"})
    if unknown:
        data.fail((unknown[0],), f"unknown key {unknown[0]!r}: a calibration has [seat.N] tables")
    seats_table = data.data.get("seat", {})
    if not isinstance(seats_table, dict):
        data.fail(("seat",), "seat must be tables like [seat.1]")
    seats: dict[int, SeatCalibration] = {}
    for label, entry in seats_table.items():
        number = int(label) if label.isdigit() else 0
        if not 1 <= number <= 6 or not isinstance(entry, dict):
            data.fail(("seat", label), f"[seat.{label}]: a seat is a table numbered 1 to 6")
        seats[number] = _seat(data, label, number, entry)
    return Calibration(seats)


def _seat(data: DataFile, label: str, number: int, entry: dict[str, Any]) -> SeatCalibration:
    values: dict[str, Any] = {}
    for key, raw in entry.items():
        where = ("seat", label, key)
        if key not in _KEYS:
            known = ", ".join(_KEYS)
            data.fail(where, f"unknown key {key!r} in [seat.{label}] (known: {known})")
        kind = _KEYS[key]
        if kind is float and isinstance(raw, int) and not isinstance(raw, bool):
            raw = float(raw)
        if not isinstance(raw, kind) or (isinstance(raw, float) and not math.isfinite(raw)):
            data.fail(where, f"{key} must be {_kind_name(kind)}, not {raw!r}")
        values[key] = raw
    seat = SeatCalibration(number, **values)
    _check(data, label, seat)
    return seat


def _kind_name(kind: type) -> str:
    return {str: "a string", float: "a number", datetime: "a date and time"}[kind]


def _check(data: DataFile, label: str, seat: SeatCalibration) -> None:
    if abs(seat.probe_offset_c) > MAX_PROBE_OFFSET_C:
        data.fail(
            ("seat", label, "probe_offset_c"),
            f"probe_offset_c must be within ±{MAX_PROBE_OFFSET_C:g} C: "
            "calibrate the probe again in ice water, or replace it",
        )
    if seat.tare_counts is not None and not HX711_RANGE[0] <= seat.tare_counts <= HX711_RANGE[1]:
        data.fail(
            ("seat", label, "tare_counts"),
            "tare_counts must be within the HX711's 24-bit range: tare the pad again",
        )
    if seat.counts_per_gram == 0.0:
        data.fail(
            ("seat", label, "counts_per_gram"),
            "counts_per_gram must not be 0: weigh a known weight on the pad again",
        )
    if not 0.0 <= seat.cap_g <= 100.0:
        data.fail(("seat", label, "cap_g"), "cap_g must be from 0 to 100 grams")


def load_calibration(path: str | Path) -> Calibration:
    """The calibration in a file, or an empty one when the file does not exist yet. A broken
    file's error names, besides its line and fix, the way back: the previous file."""
    path = Path(path)
    if not path.exists():
        return Calibration()
    data = DataFile.read(path)
    try:
        return parse_calibration(data.name, data.text)
    except DataFileError as exc:
        backup = path.with_name(path.name + BACKUP_SUFFIX)
        back = (
            f" (mend that line, or put the previous calibration back: cp {backup} {path})"
            if backup.exists()
            else f" (mend that line, or delete {path} and calibrate again)"
        )
        raise DataFileError(exc.path, exc.line, exc.message + back) from None


def save_calibration(path: Path, calibration: Calibration) -> None:
    """Write ``calibration`` to ``path`` whole or not at all, the previous file kept as a backup.

    The text goes to a temporary file beside ``path``, synced, then renamed over the old file;
    the backup is a hard link (or a copy) of the old file made before the rename, so there is
    always a complete ``calibration.toml`` for the daemon to read, even after a power cut. A
    failure raises :class:`CalibrationNotSaved` and leaves the old file as it was.
    """
    path = Path(path)
    folder = path.parent
    temporary: Path | None = None
    replaced = False
    try:
        private_dir(folder)
        temporary = _written(folder, f".{path.name}.", calibration.to_toml().encode("utf-8"))
        if path.exists():
            _back_up(path, path.with_name(path.name + BACKUP_SUFFIX))
        os.replace(temporary, path)
        replaced = True
        _sync(folder)
    except OSError as exc:
        kept = (
            "the new calibration is in place but may not survive a power cut"
            if replaced
            else "the calibration there is unchanged"
        )
        raise CalibrationNotSaved(
            f"{path}: cannot be written: {exc.strerror or exc}; {kept}"
        ) from None
    finally:
        if temporary is not None and not replaced:
            with contextlib.suppress(OSError):
                temporary.unlink()


def _written(folder: Path, prefix: str, data: bytes) -> Path:
    """A new file in ``folder`` holding ``data``, the daemon's user's alone, synced to the disk."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), FILE_MODE)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def _back_up(path: Path, backup: Path) -> None:
    """Make ``backup`` the file ``path`` is now, replacing an older backup in one step."""
    spare = backup.with_name(f".{backup.name}.tmp")
    try:
        with contextlib.suppress(FileNotFoundError):
            spare.unlink()
        tighten(path, FILE_MODE)  # the backup shares its mode: a file made when they were 0644
        try:
            os.link(path, spare)
        except OSError:  # a file system without hard links
            shutil.copy2(path, spare)
        os.replace(spare, backup)
    finally:
        with contextlib.suppress(OSError):
            spare.unlink()


def _sync(folder: Path) -> None:
    """Make a rename in ``folder`` durable: sync the directory itself."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
