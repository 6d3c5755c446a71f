"""A fake w1 sysfs tree on plain files: DS18B20 probes with the kernel's exact text, and faults.

The layout follows the kernel's: ``ROOT/w1_bus_master1/28-.../`` holds each probe's files and
``ROOT/28-...`` links to it, as ``/sys/bus/w1/devices`` does. Scratchpads are real: nine bytes
whose last is the Dallas CRC8, printed as the kernel prints them (``companion.sensors.ds18b20``).

Permissions are those the unprivileged service meets: :meth:`W1Tree.open` refuses to write a
file without a write bit (a test run as root could otherwise write anything), and counts what
was written. Pass it as the driver's ``open_file``. An EIO is real: the probe's ``w1_slave``
becomes a link to ``/proc/self/mem``, whose read at offset 0 fails with EIO in the kernel, so
the driver meets the error where sysfs raises it (on read, not on open), with no test hook.

>>> scratchpad(85.0, resolution=12).hex(" ")
'50 05 4b 46 7f ff 0c 10 1c'
>>> kernel_text(scratchpad(0.0)).splitlines()[1]
'00 00 4b 46 7f ff 0c 10 c8 t=0'
"""

from __future__ import annotations

import builtins
import errno
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from companion.sensors.ds18b20 import kernel_text, scratchpad, with_crc

MASTER = "w1_bus_master1"
FAULTS = ("crc", "power-on", "power", "zeros", "ones", "eio", "empty", "garbled", "missing")
"""The fault kinds :meth:`W1Tree.set_fault` makes: DESIGN.md's, and two of the kernel's."""


@dataclass
class _Probe:
    pad: bytes
    resolution: int


class _Recorder(io.StringIO):
    """A write to a fake sysfs file: the tree acts on the text when it is closed."""

    def __init__(self, tree: W1Tree, path: Path) -> None:
        super().__init__()
        self._tree = tree
        self._path = path

    def close(self) -> None:
        if not self.closed:
            text = self.getvalue()
            super().close()
            self._tree._written(self._path, text)


class W1Tree:
    """Build and change a w1 tree under ``root``; see what the driver wrote to it."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.master = self.root / MASTER
        self.master.mkdir(parents=True, exist_ok=True)
        self.probes: dict[str, _Probe] = {}
        self.writes: list[tuple[str, str]] = []
        self._sync()

    @property
    def triggers(self) -> int:
        """How many ``trigger`` commands were written to ``therm_bulk_read``."""
        return sum(
            1 for name, text in self.writes if name == "therm_bulk_read" and text == "trigger\n"
        )

    def add_probe(
        self,
        id: str,
        reading: float | bytes = 21.5,
        crc_ok: bool = True,
        resolution: int = 12,
        resolution_writable: bool = True,
    ) -> None:
        """A probe reading ``celsius``, or exactly these scratchpad bytes (8: the CRC added)."""
        folder = self.master / id
        folder.mkdir()
        (self.root / id).symlink_to(Path(MASTER) / id)
        self.probes[id] = _Probe(b"", resolution)
        (folder / "resolution").write_text(f"{resolution}\n")
        (folder / "resolution").chmod(0o644 if resolution_writable else 0o444)
        self.set(id, reading, crc_ok)
        self._sync()

    def set(self, id: str, reading: float | bytes, crc_ok: bool = True) -> None:
        """Change what a probe reads; ``crc_ok=False`` corrupts the CRC byte."""
        probe = self.probes[id]
        if isinstance(reading, bytes):
            pad = with_crc(reading) if len(reading) == 8 else reading
        else:
            pad = scratchpad(reading, probe.resolution)
        if not crc_ok:
            pad = pad[:8] + bytes([pad[8] ^ 0x5A])
        probe.pad = pad
        self._write_slave(id, kernel_text(pad))

    def set_fault(self, id: str, kind: str) -> None:
        """Make a probe show one of :data:`FAULTS` as the kernel (or a dying probe) would."""
        if kind == "crc":
            self.set(id, self.probes[id].pad[:8], crc_ok=False)
        elif kind == "power-on":
            self.set(id, bytes.fromhex("50054b467fff0c10"))
        elif kind == "power":
            self.set(id, bytes.fromhex("ff074b467fff0c10"))
        elif kind == "zeros":
            self.set(id, bytes(9))
        elif kind == "ones":
            self.set(id, b"\xff" * 9)
        elif kind == "empty":
            self._write_slave(id, "")
        elif kind == "garbled":
            self._write_slave(id, "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b\n")
        elif kind == "eio":
            slave = self.master / id / "w1_slave"
            slave.unlink()
            slave.symlink_to("/proc/self/mem")
        elif kind == "missing":
            self.remove(id)
        else:
            raise ValueError(f"unknown fault {kind!r}: one of {', '.join(FAULTS)}")

    def remove(self, id: str) -> None:
        """Take a probe off the bus: its directory and link go, as the kernel's do."""
        (self.root / id).unlink()
        for path in sorted((self.master / id).iterdir()):
            path.unlink()
        (self.master / id).rmdir()
        del self.probes[id]
        self._sync()

    def bulk_read(self, writable: bool = True, status: int = 0) -> None:
        """Offer ``therm_bulk_read`` on the master, root-only unless ``writable``."""
        path = self.master / "therm_bulk_read"
        path.write_text(f"{status}\n")
        path.chmod(0o664 if writable else 0o444)

    def resolution(self, id: str) -> int:
        """The resolution a probe has now (as its ``resolution`` file says)."""
        return int((self.master / id / "resolution").read_text())

    def open(self, path: Path, mode: str) -> IO[Any]:
        """``open`` as the unprivileged service meets it; writes are recorded and acted on."""
        path = Path(path)
        if "r" in mode:
            return builtins.open(path, mode, encoding="ascii", errors="replace")
        if not os.path.exists(path):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
        if not os.stat(path).st_mode & 0o200:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return _Recorder(self, path)

    def _written(self, path: Path, text: str) -> None:
        self.writes.append((path.name, text))
        if path.name == "therm_bulk_read":
            path.write_text("1\n" if text == "trigger\n" else path.read_text())
        elif path.name == "resolution":
            id = path.parent.name
            bits = int(text) if text.strip() in {"9", "10", "11", "12"} else None
            if bits is None:
                raise OSError(errno.EINVAL, os.strerror(errno.EINVAL), str(path))
            path.write_text(f"{bits}\n")
            probe = self.probes[id]
            probe.resolution = bits
            counts = int.from_bytes(probe.pad[:2], "little", signed=True)
            counts &= ~((1 << (12 - bits)) - 1)  # what its next conversion holds
            config = ((bits - 9) << 5) | 0x1F
            head = counts.to_bytes(2, "little", signed=True) + probe.pad[2:4]
            self.set(id, head + bytes([config]) + probe.pad[5:8])

    def _write_slave(self, id: str, text: str) -> None:
        slave = self.master / id / "w1_slave"
        if slave.is_symlink():
            slave.unlink()
        slave.write_text(text)

    def _sync(self) -> None:
        names = sorted(self.probes)
        (self.master / "w1_master_slaves").write_text("".join(f"{n}\n" for n in names))
        (self.master / "w1_master_slave_count").write_text(f"{len(names)}\n")
