"""DS18B20 probes on the kernel's 1-Wire bus: one sweep reads every probe, faults become statuses.

What the kernel does (``drivers/w1/slaves/w1_therm.c``, Documentation/w1/slaves/w1_therm.rst):

- ``28-*/w1_slave`` holds two lines: the nine scratchpad bytes and ``: crc=xx YES|NO``, then
  bytes and ``t=<milli-degrees C>``. Reading it normally starts a conversion on that probe alone
  and sleeps its conversion time (95/190/375/750 ms at 9-12 bits), so N probes read one by one
  cost N conversions. When the read fails (no presence pulse, or the CRC failed five tries in a
  row) recent kernels return an empty file; older ones print ``crc=.. NO``.
- ``w1_bus_masterN/therm_bulk_read`` exists once a probe that supports it is on the bus. Writing
  ``trigger\\n`` (exactly 8 bytes: the kernel compares the size with ``sizeof("trigger")`` and
  silently ignores anything else) sends SKIP ROM + CONVERT T to every probe at once and returns
  only after the longest conversion time has been slept; each probe's next read then fetches its
  RAM without converting again. Reading it says ``-1`` (converting), ``1`` (done, not all read)
  or ``0`` (nothing pending). A read of ``w1_slave`` while ``-1`` returns nothing. The file is
  root-only (mode 0644), so the service needs a udev rule (:data:`UDEV_RULE`).
- ``28-*/resolution`` (RW, 9..12) sets the resolution in the probe's RAM only: a power-on reset
  restores the EEPROM's (12 bits unless saved), so it is set again after a probe resets.

The CRC is checked here too, though the kernel already did: its verdict covers the bytes it
read, and checking the bytes of the text we parse costs a few microseconds and catches a torn
or garbled file before its bytes are classified.

Faults (DESIGN.md "Sensors and their faults") are statuses, never temperatures: a CRC error, the
85 C power-on value, 127.94 C (power fault), an all-zero scratchpad (its CRC is valid), all FF
(open ground), a missing probe, an empty reply, a read error (EIO) and unparsable text. Any
85.000 C is refused, whatever the other bytes say: clones differ in them, a real 85 C at 9 bits
has the same two, and no air by an ice station is that hot.

>>> classify(KERNEL_0C)
(0, 'ok')
>>> classify(KERNEL_0C.replace("YES", "NO"))
(None, 'fault: CRC error: check the wiring and the 4.7 kOhm pull-up')
"""

from __future__ import annotations

import errno
import logging
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Final

from companion.sensors.ds18b20 import conversion_s, dallas_crc8
from companion.sensors.reading import OK, THERMOMETER, Reading, fault

DEFAULT_ROOT: Final = "/sys/bus/w1/devices"
FAMILY: Final = "28-"
TRIGGER: Final = "trigger\n"
RULES_FILE: Final = "firmware/pi/60-companion.rules"
INSTALL: Final = "companion install-service does, or copy it to /etc/udev/rules.d/"
UDEV_RULE: Final = (
    'ACTION=="add", SUBSYSTEM=="w1", KERNEL=="28-*", '
    'RUN+="/bin/chgrp companion /sys%p/../therm_bulk_read /sys%p/resolution", '
    'RUN+="/bin/chmod g+w /sys%p/../therm_bulk_read /sys%p/resolution"'
)
"""A udev rule (in ``firmware/pi/60-companion.rules``, installed to ``/etc/udev/rules.d/``) that
lets the ``companion`` group trigger bulk conversions and set resolutions; the kernel creates
both files before it announces a probe."""

KERNEL_0C: Final = "00 00 4b 46 7f ff 0c 10 c8 : crc=c8 YES\n00 00 4b 46 7f ff 0c 10 c8 t=0\n"
"""What the kernel prints for a probe in ice water: a real 0 C, which is a valid reading."""

CRC_ERROR: Final = fault("CRC error: check the wiring and the 4.7 kOhm pull-up")
NO_ANSWER: Final = fault("no answer: check the wiring and the 4.7 kOhm pull-up")
POWER_ON: Final = fault("reads the 85 C power-on value: check its power wiring")
POWER_FAULT: Final = fault("reads 127.94 C: power fault, check its 3.3 V wire")
ALL_ZERO: Final = fault("reads all zeros: check the data wire for a short to ground")
ALL_FF: Final = fault("reads all FF: open ground, check its ground wire")
UNPARSABLE: Final = fault("unparsable reply from the kernel")
_ENABLE_BUS = "enable the 1-Wire bus: dtoverlay=w1-gpio,gpiopin=<the 1-Wire pin> in config.txt"
NO_BUS: Final = fault(f"no 1-Wire bus: {_ENABLE_BUS}")

_POWER_ON_RAW = 0x0550  # 85.0 C: the scratchpad's reset value
_POWER_FAULT_RAW = 0x07FF  # 127.9375 C
_LINES = re.compile(
    r"((?:[0-9a-f]{2} ){9}): crc=([0-9a-f]{2}) (YES|NO)\n(?:[0-9a-f]{2} ){9}t=(-?\d+)\n?"
)

Opener = Callable[[Path, str], IO[str]]


def _open(path: Path, mode: str) -> IO[str]:
    return open(path, mode, encoding="ascii", errors="replace")


def _warn(message: str) -> None:
    logging.getLogger(__name__).warning("%s", message)


def classify(text: str) -> tuple[int | None, str]:
    """The raw milli-degrees and status of one ``w1_slave`` text; a fault's raw is ``None``."""
    if not text.strip():
        return None, NO_ANSWER
    match = _LINES.fullmatch(text)
    if match is None:
        return None, UNPARSABLE
    pad = bytes.fromhex(match[1])
    if pad == b"\xff" * 9:
        return None, ALL_FF
    if match[3] != "YES" or dallas_crc8(pad[:8]) != pad[8] or int(match[2], 16) != pad[8]:
        return None, CRC_ERROR
    if pad == bytes(9):
        return None, ALL_ZERO
    counts = int.from_bytes(pad[:2], "little", signed=True)
    milli = int(counts * 1000 / 16)  # the kernel's C division truncates toward zero
    if milli != int(match[4]):
        return None, UNPARSABLE
    if counts == _POWER_ON_RAW:
        return None, POWER_ON
    if counts == _POWER_FAULT_RAW:
        return None, POWER_FAULT
    if not -55_000 <= milli <= 125_000:
        return None, fault(f"reads {milli / 1000:g} C, outside the probe's -55..125 C")
    return milli, OK


def missing(probe: str) -> str:
    """The status of a probe that is not on the bus (unplugged, or a wire broken)."""
    return fault(f"missing: probe {probe} not on the bus")


def read_error(exc: OSError) -> str:
    """The status of a read that raised: the errno's name, which a maker can look up."""
    name = errno.errorcode.get(exc.errno or 0, type(exc).__name__)
    return fault(f"read error ({name})")


class W1Thermometers:
    """Every DS18B20 under a w1 sysfs ``root``, read together in one :meth:`sweep`.

    ``probes`` maps a w1 id to its seat; ``None`` claims every probe of the first listing that
    finds any, seats 1..N in sorted id order. ``resolution`` (9..12) is written to each probe
    when it appears. Files are opened through ``open_file`` (``open`` by default). Warnings
    (slower sweeps, a resolution that cannot be set) go to ``warn``, each once. ``sleep`` waits
    out a bulk conversion another process started: its probes read empty until it ends.
    """

    def __init__(
        self,
        root: Path | str = DEFAULT_ROOT,
        probes: Mapping[str, int] | None = None,
        resolution: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        warn: Callable[[str], None] = _warn,
        open_file: Opener = _open,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if resolution is not None and not 9 <= resolution <= 12:
            raise ValueError(f"resolution must be 9..12 bits, not {resolution}")
        self.root = Path(root)
        self._seats = dict(probes) if probes is not None else None
        self._bits = resolution
        self._clock = clock
        self._warn = warn
        self._open = open_file
        self._sleep = sleep
        self._warned: set[str] = set()
        self._resolution: dict[str, int | None] = {}
        self._refused: set[Path] = set()
        self._bulk = False
        found = self._list()
        if found is not None:
            self._claim(found)
            for probe in found:
                self._set_up(probe)

    @property
    def resolution(self) -> dict[str, int | None]:
        """Each probe's resolution in bits as read back when it appeared (``None``: unknown)."""
        return dict(self._resolution)

    @property
    def bulk(self) -> bool:
        """Whether the last sweep converted every probe at once through ``therm_bulk_read``."""
        return self._bulk

    def conversion_s(self) -> float:
        """The longest conversion time among the probes (12 bits when none is known)."""
        known = [bits for bits in self._resolution.values() if bits is not None]
        return conversion_s(max(known, default=12))

    def sweep(self) -> list[Reading]:
        """One reading per configured probe, then one per unclaimed probe found (seat ``None``)."""
        found = self._list()
        if found is None:
            self._bulk = False
            t = self._clock()
            return [Reading(s, THERMOMETER, p, None, NO_BUS, t) for p, s in self._claimed()]
        self._claim(found)
        for probe in found:
            if probe not in self._resolution:
                self._set_up(probe)
        self._bulk = self._trigger(len(found))
        present = set(found)
        readings = []
        for probe, seat in self._claimed():
            if probe in present:
                readings.append(self._read(probe, seat))
            else:
                self._resolution.pop(probe, None)  # a probe plugged in again has reset
                readings.append(
                    Reading(seat, THERMOMETER, probe, None, missing(probe), self._clock())
                )
        claimed = self._seats or {}
        readings += [self._read(p, None) for p in found if p not in claimed]
        return readings

    def _claimed(self) -> list[tuple[str, int]]:
        return sorted((self._seats or {}).items(), key=lambda item: (item[1], item[0]))

    def _claim(self, found: list[str]) -> None:
        if self._seats is None and found:
            self._seats = {probe: seat for seat, probe in enumerate(found, start=1)}

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self._warn(message)

    def _list(self) -> list[str] | None:
        """The probes on the bus, sorted; ``None`` when there is no bus to list."""
        try:
            return sorted(p.name for p in self.root.iterdir() if p.name.startswith(FAMILY))
        except OSError as exc:
            self._warn_once("bus", f"no 1-Wire bus at {self.root} ({exc.strerror}): {_ENABLE_BUS}")
            return None

    def _set_up(self, probe: str) -> None:
        """Write the resolution (when asked) and read it back."""
        path = self.root / probe / "resolution"
        if self._bits is not None:
            try:
                with self._open(path, "w") as f:
                    f.write(f"{self._bits}\n")
            except OSError as exc:
                self._warn_once(
                    "resolution",
                    f"cannot set the resolution of probe {probe} to {self._bits} bits "
                    f"({exc.strerror}); it keeps its own; to allow it, install {RULES_FILE}: "
                    f"{INSTALL}",
                )
        try:
            with self._open(path, "r") as f:
                text = f.read().strip()
            self._resolution[probe] = int(text) if text in {"9", "10", "11", "12"} else None
        except OSError:
            self._resolution[probe] = None

    def _trigger(self, probes: int) -> bool:
        """Start a conversion on every bus that allows it; whether any did."""
        triggered = False
        for path in sorted(self.root.glob("w1_bus_master*/therm_bulk_read")):
            if path in self._refused:
                continue
            try:
                with self._open(path, "w") as f:
                    f.write(TRIGGER)
                triggered = True
            except OSError as exc:
                self._refused.add(path)
                self._slower(probes, f"{path.name} is not writable ({exc.strerror})")
        if not triggered:
            self._slower(probes, "no therm_bulk_read to write")
        return triggered

    def _slower(self, probes: int, why: str) -> None:
        if probes > 1:
            self._warn_once(
                "bulk",
                f"{why}: reading the probes one by one, each sweep takes {probes} conversions "
                f"instead of one; to convert them together, install {RULES_FILE}: {INSTALL}",
            )

    def _read(self, probe: str, seat: int | None) -> Reading:
        try:
            text = self._text(probe)
            if not text and self._bulk and self._converting():
                self._sleep(self.conversion_s())  # another process's conversion: wait it out
                text = self._text(probe)
            raw, status = classify(text)
        except FileNotFoundError:
            raw, status = None, missing(probe)
        except OSError as exc:
            raw, status = None, read_error(exc)
        if status in (POWER_ON, missing(probe)):
            self._resolution.pop(probe, None)  # it reset: set its resolution again
        return Reading(seat, THERMOMETER, probe, raw, status, self._clock())

    def _text(self, probe: str) -> str:
        with self._open(self.root / probe / "w1_slave", "r") as f:
            return f.read()

    def _converting(self) -> bool:
        """Whether a bus says a bulk conversion is in progress (its probes read empty then)."""
        for path in self.root.glob("w1_bus_master*/therm_bulk_read"):
            try:
                with self._open(path, "r") as f:
                    if f.read().strip() == "-1":
                        return True
            except OSError:
                continue
        return False
