"""Run the pod's firmware in real time on a simulated world, its data port on a pty's master.

``python podrun.py --fd N --libraries DIR [--probes 4] [--pads 4] [--pad-hz 10] [--proto 1]
[--lines FILE]``:
the firmware's code.py runs (through watchdog resets), over Adafruit's drivers in DIR
(``tests/chip_libraries.py``), until the process is killed. Each line on stdin is a misbehaviour
(see tests/fakepod.py): the port garbles, drops or withholds lines, the sensors fault, or the
pod hangs.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import struct
import sys
import termios
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[2] / "firmware" / "pod"), str(HERE.parents[1])]

import podsim  # noqa: E402


class PtyPort:
    """usb_cdc.data on a pty master: connected while the host holds the slave open."""

    def __init__(self, world: podsim.World, fd: int, lines: Path | None) -> None:
        self.world = world
        self.fd = fd
        os.set_blocking(fd, False)
        self.timeout: float | None = 1.0
        self.write_timeout: float | None = None
        self.garbage = 0
        self.drop = 0
        self.corrupt = 0
        self.silent_until = 0
        self._log = lines.open("a", encoding="ascii", errors="replace") if lines else None
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)

    @property
    def connected(self) -> bool:
        return not any(event & select.POLLHUP for _, event in self._poll.poll(0))

    @property
    def in_waiting(self) -> int:
        try:
            raw = fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return 0
        return struct.unpack("i", raw)[0]

    def read(self, size: int = 1) -> bytes:
        try:
            return os.read(self.fd, size)
        except OSError:
            return b""

    def write(self, data: bytes) -> int:
        data = bytes(data)
        if self.world.now() < self.silent_until:
            return len(data)
        if self.drop:
            self.drop -= 1
            return len(data)
        out = data
        if self.corrupt:
            self.corrupt -= 1
            out = _flip(out)
        if self.garbage:
            self.garbage -= 1
            noise = bytes(self.world.rng.choice(range(11, 256)) for _ in range(40))
            out = noise + b"\n" + out
        if self._log:
            self._log.write(out.decode("ascii", "replace"))
            self._log.flush()
        deadline = time.monotonic() + (self.write_timeout or 0)
        sent = 0
        while sent < len(out):
            try:
                sent += os.write(self.fd, out[sent:])
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.001)
            except OSError:
                break
        return max(0, sent - (len(out) - len(data)))

    def misbehave(self, command: str) -> None:
        """Carry out one misbehaviour: garbage, drop, corrupt, silence N, fault ..., hang."""
        words = command.split()
        if words == ["garbage"]:
            self.garbage += 1
        elif words == ["drop"]:
            self.drop += 1
        elif words == ["corrupt"]:
            self.corrupt += 1
        elif len(words) == 2 and words[0] == "silence":
            self.silent_until = self.world.now() + round(float(words[1]) * 1e9)
        elif words == ["fault", "clear"]:
            self.world.clear()
        elif len(words) == 4 and words[0] == "fault":
            self.world.fault(words[1], int(words[2]), words[3])
        elif words == ["hang"]:
            self.world.hang()
        elif words:
            print("unknown misbehaviour:", command, flush=True)


def _flip(line: bytes) -> bytes:
    """The line with one digit of its body changed (its checksum no longer matches)."""
    star = line.rfind(b"*")
    for i in range(star - 1, -1, -1):
        if 48 <= line[i] <= 57:
            return line[:i] + bytes([48 + (line[i] - 47) % 10]) + line[i + 1 :]
    return line[:star] + b"#" + line[star + 1 :]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--libraries", type=Path, required=True)
    parser.add_argument("--probes", type=int, default=4)
    parser.add_argument("--pads", type=int, default=4)
    parser.add_argument("--pad-hz", type=int, default=10, choices=(10, 80))
    parser.add_argument("--proto", type=int)
    parser.add_argument("--lines", type=Path)
    args = parser.parse_args()
    sys.path.insert(3, str(args.libraries))
    world = podsim.World(args.probes, args.pads, seed=os.getpid(), realtime=True)
    world.proto = args.proto
    for chip in world.chips.values():
        chip.hz = args.pad_hz
    port = PtyPort(world, args.fd, args.lines)
    world.port = port

    def listen() -> None:
        for line in sys.stdin:
            try:
                port.misbehave(line.strip())
            except (ValueError, IndexError, KeyError) as error:
                print("bad misbehaviour:", line.strip(), error, flush=True)

    threading.Thread(target=listen, daemon=True).start()
    world.run_code()


if __name__ == "__main__":
    main()
