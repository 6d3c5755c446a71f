"""A fake sensor pod on a pseudo-terminal: the real firmware, run on simulated sensors.

The pod's code.py runs in a subprocess over Adafruit's drivers (``chip_libraries.folder()``)
and the fake CircuitPython core of tests/firmware/fakes/, on probes and pads simulated bit by
bit (``podsim``), its USB data port bound to the master side of a pty. The host opens
the slave side through a stable symlink, ``workdir / "pod"``, as it would open
``/dev/companion-pod``. Misbehaviours are asked for with :meth:`FakePod.send`, one per line:

- ``garbage``: a line of random bytes; ``drop``: the next line is lost (its seq still counts);
  ``corrupt``: one digit of the next line changes after its checksum was made;
  ``silence 3``: nothing is written for 3 s (lines made meanwhile are lost);
- ``fault probe 2 crc`` (any probe fault of PROTOCOL.md), ``fault pad 3 saturated``
  (``stuck``, ``not-ready``), ``fault bus 1 short`` (the 1-Wire data line shorted to ground:
  every probe reads ``!all-zero``) or ``fault bus 1 cut`` (every probe goes ``!missing``),
  ``fault clear``;
- ``hang``: pad 1's DOUT wire comes loose just as the pod reads it ready, so Adafruit's
  driver waits for it forever and the pod stops feeding its watchdog; after 8 s of the pod's
  time (under a second of real time: a hung pod's clock runs fast) the pod restarts and says
  ``hello`` with seq 0 and ``reset=watchdog``; the pty stays.

The simulated probes are ``28-000000000001`` ... at about 21 C; the pads read about -20000
counts (pad n: -20000 + 1000 (n - 1)), ten conversions a second (``pad_hz=80``: their RATE pins
wired for 80; the host then sets ``pad_hz=80``); channels without a pad say ``!not-ready``, as on
a real pod.
"""

from __future__ import annotations

import contextlib
import os
import pty
import subprocess
import sys
import tty
from pathlib import Path
from types import TracebackType

import chip_libraries

RUNNER = Path(__file__).resolve().parent / "firmware" / "fakes" / "podrun.py"


class FakePod:
    """The pod: ``start()`` plugs it in, ``unplug()``/``plug()`` pull and push the cable."""

    def __init__(
        self,
        workdir: Path,
        probes: int = 4,
        pads: int = 4,
        proto: int | None = None,
        pad_hz: int = 10,
    ):
        self.workdir = Path(workdir)
        self.port = self.workdir / "pod"
        self.probes = probes
        self.pads = pads
        self.pad_hz = pad_hz
        self.proto = proto
        self._master: int | None = None
        self._process: subprocess.Popen[str] | None = None
        self._lines = self.workdir / "pod-lines.txt"
        self._log = self.workdir / "pod-console.txt"

    def start(self) -> FakePod:
        """Plug the pod in: a pty, the symlink, the firmware running."""
        self.plug()
        return self

    def plug(self) -> None:
        """A new pty pair, the symlink pointed at its slave, a pod that starts from hello seq 0."""
        if self._process is not None:
            self.unplug()
        master, slave = pty.openpty()
        tty.setraw(slave)
        link = self.workdir / ".pod-link"
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(slave))
        link.replace(self.port)
        os.close(slave)
        command = [sys.executable, str(RUNNER), "--fd", str(master), "--lines", str(self._lines)]
        command += ["--libraries", str(chip_libraries.folder())]
        command += ["--probes", str(self.probes), "--pads", str(self.pads)]
        command += ["--pad-hz", str(self.pad_hz)]
        if self.proto is not None:
            command += ["--proto", str(self.proto)]
        with self._log.open("a") as log:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(master,),
                text=True,
            )
        self._master = master

    def send(self, command: str) -> None:
        """Ask for a misbehaviour (``"drop"``, ``"fault pad 3 stuck"``, ``"hang"``...)."""
        if self._process is None or self._process.stdin is None:
            raise RuntimeError("the fake pod is unplugged")
        self._process.stdin.write(command + "\n")
        self._process.stdin.flush()

    def unplug(self) -> None:
        """The cable is pulled: the pod stops, the pty's master closes, the symlink goes."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait(timeout=10)
            if process.stdin:
                with contextlib.suppress(OSError):
                    process.stdin.close()
        if self._master is not None:
            os.close(self._master)
            self._master = None
        self.port.unlink(missing_ok=True)

    def stop(self) -> None:
        """Unplug the pod for good."""
        self.unplug()

    @property
    def lines(self) -> list[str]:
        """Every line the pod wrote (after its misbehaviours), for debugging."""
        if not self._lines.exists():
            return []
        return self._lines.read_text(encoding="ascii", errors="replace").splitlines()

    def __enter__(self) -> FakePod:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
