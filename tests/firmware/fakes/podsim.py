"""A simulated world for the pod's firmware: clock, 1-Wire bus and probes, pads, USB, watchdog.

The fake CircuitPython modules beside this one (board, microcontroller, usb_cdc, onewireio,
adafruit_hx711, ...) act on ``podsim.current``, the world of the running test. The world also
boots the firmware the way a board does: boot.py after a hard reset, then code.py, again after
the watchdog fires. CircuitPython's ``time`` is built in, so the world hands the firmware a fake
``time`` module (its clock) while the firmware's modules are imported and run.

In a test the clock is simulated: every clock read and every bus operation costs a little time,
a sleep costs what it asks. In the pty fake pod (``realtime``) the clock is the real one, except
that a hung pod's time runs ten times faster so the watchdog fires within a second.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time as real_time
import types
from collections.abc import Iterator
from pathlib import Path

current: World | None = None
"""The world the fake modules act on."""

FIRMWARE = Path(__file__).resolve().parents[3] / "firmware" / "pod"
FAKES = Path(__file__).resolve().parent
MS = 1_000_000
TICK_NS = 20_000
"""What each clock read costs in simulated time: the firmware's own code is not free."""
BIT_NS = 70_000
"""One 1-Wire time slot."""
BOOT_NS = 700 * MS
"""From a reset to code.py: USB enumeration and boot.py."""
DOG_MAX_S = 8.388
"""The RP2040 watchdog's longest timeout."""
PROBE_FAULTS = ("crc", "power-on", "power-fault", "all-zero", "all-ff", "missing", "range")
PAD_FAULTS = ("saturated", "stuck", "not-ready")


class WatchdogReset(BaseException):
    """The watchdog was not fed in time: the chip resets (nothing in the firmware can catch it)."""


class HardReset(BaseException):
    """microcontroller.reset(): the chip resets."""


class SoftReload(BaseException):
    """supervisor.reload(): code.py starts again, the chip does not reset."""


class StopSimulation(BaseException):
    """The test's time is up."""


def crc8(data: bytes) -> int:
    """The 1-Wire CRC."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8C if crc & 1 else crc >> 1
    return crc


class Probe:
    """A simulated DS18B20: a ROM code, a temperature near ``celsius``, faults on request."""

    def __init__(self, world: World, number: int, celsius: float) -> None:
        rom = bytes([0x28, number, 0, 0, 0, 0, 0])
        self.rom = rom + bytes([crc8(rom)])
        self.id = f"28-{number:012x}"
        self.world = world
        self.celsius = celsius
        self.config = 0x7F
        self.raw = 0x0550
        self.until = 0
        self.fault: str | None = None
        self.writes = 0

    @property
    def present(self) -> bool:
        return self.fault != "missing"

    @property
    def bits(self) -> int:
        return 9 + (self.config >> 5 & 3)

    def convert(self, now: int) -> None:
        """Start a conversion: its value is in the scratchpad once the resolution's time passed."""
        celsius = self.celsius + self.world.rng.gauss(0, 0.05)
        step = 1 << (12 - self.bits)
        self.raw = (round(celsius * 16) // step * step) & 0xFFFF
        self.until = (
            now + {9: 93_750_000, 10: 187_500_000, 11: 375_000_000, 12: 750_000_000}[self.bits]
        )
        if self.fault == "power-on":
            self.config = 0x7F

    def scratchpad(self, now: int) -> bytes:
        """The 9 bytes READ SCRATCHPAD gives now, faults included."""
        if self.fault == "all-zero":
            return bytes(9)
        if self.fault == "all-ff":
            return b"\xff" * 9
        raw = {"power-on": 0x0550, "power-fault": 0x07FF, "range": 0x07E0}.get(
            self.fault or "", self.raw
        )
        if now < self.until and self.fault is None:
            raw = self.previous_raw
        body = bytes([raw & 0xFF, raw >> 8, 0x4B, 0x46, self.config, 0xFF, 0x0C, 0x10])
        crc = crc8(body)
        if self.fault == "crc":
            crc ^= 0x5A
        return body + bytes([crc])

    previous_raw = 0x0550

    def write_scratchpad(self, data: bytes) -> None:
        self.config = (data[2] & 0x60) | 0x1F
        self.writes += 1


class Bus:
    """A simulated 1-Wire bus, byte by byte: ROM commands, then function commands."""

    def __init__(self, world: World, probes: list[Probe]) -> None:
        self.world = world
        self.probes = probes
        self.held = False
        self.converts = 0
        self.single_converts = 0
        self.resets = 0
        self.events: list[tuple[int, str]] = []
        """(world ns, "convert" or "read") for every CONVERT T and READ SCRATCHPAD."""
        self._state = "idle"
        self._selected: list[Probe] = []
        self._skip = False
        self._collect = b""
        self._out = b""

    def present(self) -> list[Probe]:
        return [probe for probe in self.probes if probe.present]

    def wait(self) -> None:
        """A probe holds the bus low: the driver waits for it forever (the watchdog ends that)."""
        while self.held:
            self.world.stall()

    def reset(self) -> bool:
        """A reset pulse; whether any probe answered with its presence pulse."""
        self.world.spend(MS)
        self.wait()
        self.resets += 1
        self._state = "rom"
        self._selected = []
        self._out = b""
        return bool(self.present())

    def write_byte(self, byte: int) -> None:
        self.world.spend(8 * BIT_NS)
        self.wait()
        now = self.world.now()
        state = self._state
        if state == "rom":
            if byte == 0xCC:
                self._selected, self._skip, self._state = self.present(), True, "function"
            elif byte == 0x55:
                self._collect, self._skip, self._state = b"", False, "match"
            else:
                self._state = "idle"
        elif state == "match":
            self._collect += bytes([byte])
            if len(self._collect) == 8:
                self._selected = [p for p in self.present() if p.rom == self._collect]
                self._state = "function"
        elif state == "function":
            if byte == 0x44:
                self.events.append((now, "convert"))
                if self._skip:
                    self.converts += 1
                else:
                    self.single_converts += 1
                for probe in self._selected:
                    probe.previous_raw = probe.raw
                    probe.convert(now)
                self._state = "idle"
            elif byte == 0xBE:
                self.events.append((now, "read"))
                pads = [probe.scratchpad(now) for probe in self._selected] or [b"\xff" * 9]
                self._out = bytes(_and(column) for column in zip(*pads, strict=True))
                self._state = "read"
            elif byte == 0x4E:
                self._collect, self._state = b"", "write"
            else:
                self._state = "idle"
        elif state == "write":
            self._collect += bytes([byte])
            if len(self._collect) == 3:
                for probe in self._selected:
                    probe.write_scratchpad(self._collect)
                self._state = "idle"

    def read_byte(self) -> int:
        self.world.spend(8 * BIT_NS)
        self.wait()
        if self._state == "read" and self._out:
            byte, self._out = self._out[0], self._out[1:]
            return byte
        return 0xFF

    def search(self) -> list[bytes]:
        """The ROM codes a full search finds (in the order the search algorithm meets them)."""
        self.world.spend(len(self.probes) * 200 * BIT_NS)
        self.wait()
        return sorted(p.rom for p in self.present())


def _and(column: tuple[int, ...]) -> int:
    value = 0xFF
    for byte in column:
        value &= byte
    return value


class Chip:
    """A simulated HX711: a conversion every 1/rate s, words with noise around ``level``."""

    def __init__(self, world: World, level: int, hz: int = 10) -> None:
        self.world = world
        self.level = level
        self.hz = hz
        self.fault: str | None = None
        self.ready = False
        self.word = 0
        self.next_ns = world.now() + world.rng.randrange(1, 1_000_000_000 // hz)
        self.reads = 0
        self.pulses: list[int] = []

    def busy(self) -> bool:
        """DOUT is high: no conversion waiting."""
        now = self.world.now()
        if self.fault == "not-ready":
            return True
        period = 1_000_000_000 // self.hz
        if now >= self.next_ns:
            self.next_ns += ((now - self.next_ns) // period + 1) * period
            self.ready = True
            if self.fault == "saturated":
                self.word = 0x7FFFFF
            elif self.fault != "stuck":
                self.word = (self.level + round(self.world.rng.gauss(0, 3))) & 0xFFFFFF
        return not self.ready

    def read(self, pulses: int) -> int:
        """Clock the word out (24 bits, then the pulses that choose the next gain)."""
        self.world.spend(300_000)
        self.ready = False
        self.reads += 1
        self.pulses.append(pulses)
        return self.word


class MemoryPort:
    """usb_cdc.data for a test: what the pod writes is kept, what the host writes waits here."""

    def __init__(self) -> None:
        self.connected = True
        self.timeout: float | None = 1.0
        self.write_timeout: float | None = None
        self.written = b""
        self._incoming = b""

    @property
    def in_waiting(self) -> int:
        return len(self._incoming)

    def read(self, size: int = 1) -> bytes:
        data, self._incoming = self._incoming[:size], self._incoming[size:]
        return data

    def write(self, data: bytes) -> int:
        self.written += bytes(data)
        return len(data)

    def reset_input_buffer(self) -> None:
        self._incoming = b""

    def host_send(self, data: str | bytes) -> None:
        """The host writes to the pod."""
        self._incoming += data.encode() if isinstance(data, str) else data

    def lines(self) -> list[str]:
        """Every whole line the pod wrote so far."""
        return [line for line in self.written.decode("ascii").split("\n")[:-1] if line]


class World:
    """Everything around the firmware; ``boot()``/``run_code()`` run the firmware on it."""

    def __init__(
        self, probes: int = 4, pads: int = 4, seed: int = 9, realtime: bool = False
    ) -> None:
        global current
        current = self
        self.rng = random.Random(seed)
        self.realtime = realtime
        self._now = 0
        self._origin = real_time.monotonic_ns()
        self._skip = 0
        self.boot_ns = 0
        self.stop_at: int | None = None
        self._events: list[tuple[int, object]] = []
        self.reset_reason = "POWER_ON"
        self.run_reason = "STARTUP"
        self.boots = 0
        self.uid = bytes.fromhex("E6614C311B4A5F2E")
        self.usb_data = False
        self.usb_identity: dict[str, object] = {}
        self.in_boot = False
        self.dog_timeout: float | None = None
        self.dog_mode: object = None
        self.dog_fed = 0
        self.dog_feeds = 0
        self.dog_longest = 0
        """The longest time between two feeds, in ns."""
        self.port: object = MemoryPort()
        self.proto: int | None = None
        self.bus = Bus(self, [Probe(self, n, 21.0 + 0.25 * n) for n in range(1, probes + 1)])
        self.chips = {f"GP{2 + 2 * n}": Chip(self, -20_000 + 1000 * n) for n in range(pads)}
        self._base_modules = set(sys.modules)

    # the clock

    def now(self) -> int:
        """The world's time in ns (not the pod's: that starts again at every reset)."""
        now = self._now
        if self.realtime:
            now = real_time.monotonic_ns() - self._origin + self._skip
        self._check(now)
        return now

    def pod_ns(self) -> int:
        """time.monotonic_ns() on the pod: each read costs a tick."""
        self.spend(TICK_NS)
        return self.now() - self.boot_ns

    def pod_ms(self) -> int:
        return (self.now() - self.boot_ns) // MS

    def spend(self, ns: int) -> None:
        """Time an operation takes (in real time it just passes)."""
        if not self.realtime:
            self._now += ns
        self.now()

    def sleep(self, seconds: float) -> None:
        if self.realtime:
            real_time.sleep(seconds)
        else:
            self._now += round(seconds * 1e9)
        self.now()

    def stall(self) -> None:
        """Ten ms of a hung pod (in real time: a hung pod's clock runs ten times faster)."""
        if self.realtime:
            real_time.sleep(0.01)
            self._skip += 90 * MS
        else:
            self._now += 10 * MS
        self.now()

    def after(self, seconds: float, action: object) -> None:
        """Call ``action()`` once the world's time has moved on by ``seconds``."""
        self._events.append((self.now() + round(seconds * 1e9), action))

    def _check(self, now: int) -> None:
        due = [event for event in self._events if event[0] <= now]
        for event in due:
            self._events.remove(event)
            event[1]()
        if self.dog_mode is not None and now - self.dog_fed > (self.dog_timeout or 0) * 1e9:
            self.dog_mode = None
            raise WatchdogReset
        if self.stop_at is not None and now >= self.stop_at:
            raise StopSimulation

    def feed(self) -> None:
        now = self.now()
        self.dog_longest = max(self.dog_longest, now - self.dog_fed)
        self.dog_fed = now
        self.dog_feeds += 1

    # faults, as the fake pod's misbehaviours name them

    def fault(self, sensor: str, number: int, code: str) -> None:
        """``fault("probe", 2, "crc")``, ``fault("pad", 3, "stuck")``."""
        if sensor == "probe":
            if code not in PROBE_FAULTS:
                raise ValueError(code)
            self.bus.probes[number - 1].fault = code
        else:
            if code not in PAD_FAULTS:
                raise ValueError(code)
            self.chips[f"GP{2 * number}"].fault = code

    def clear(self) -> None:
        for probe in self.bus.probes:
            probe.fault = None
        for chip in self.chips.values():
            chip.fault = None
        self.bus.held = False

    # running the firmware

    def fake_time(self) -> types.ModuleType:
        """CircuitPython's time module on this world's clock."""
        module = types.ModuleType("time")
        module.monotonic_ns = self.pod_ns
        module.monotonic = lambda: self.pod_ns() / 1e9
        module.sleep = self.sleep
        module.time = real_time.time
        module.localtime = real_time.localtime
        return module

    @contextlib.contextmanager
    def circuitpython(self) -> Iterator[None]:
        """Import or run firmware: its ``import time`` gets this world's clock."""
        saved = sys.modules["time"]
        sys.modules["time"] = self.fake_time()
        try:
            yield
        finally:
            sys.modules["time"] = saved

    def load(self, name: str) -> types.ModuleType:
        """Import a firmware module (``pod_main``) as the board would."""
        with self.circuitpython():
            __import__(name)
            module = sys.modules[name]
            if self.proto is not None:
                sys.modules["pod_line"].PROTO = self.proto
        return module

    def run_file(self, name: str) -> None:
        """Run boot.py or code.py as the board does."""
        path = FIRMWARE / name
        with self.circuitpython():
            if self.proto is not None:
                __import__("pod_line")
                sys.modules["pod_line"].PROTO = self.proto
            self.in_boot = name == "boot.py"
            try:
                exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})
            finally:
                self.in_boot = False

    def boot(self) -> None:
        """A hard start: the pod's clock from zero, boot.py run."""
        self.boots += 1
        self.boot_ns = self.now()
        self.spend(BOOT_NS)
        self.usb_data = False
        self.usb_identity = {}
        self.run_file("boot.py")
        self.purge()

    def start(self):
        """Boot and build the pod as code.py does, for a test to step: returns the Pod."""
        self.boot()
        with self.circuitpython():
            return self.load("pod_main").Pod.on_board()

    def run(self, pod: object, until_ms: int) -> None:
        """Step the pod until its clock reads ``until_ms``; a pod stuck on the way stops it."""
        self.stop_at = self.boot_ns + (until_ms + 5000) * MS
        try:
            while self.pod_ms() < until_ms:
                pod.step()
        finally:
            self.stop_at = None

    def talk(self, pod: object, text: str | bytes, ms: int = 100) -> list[str]:
        """Send the host's bytes, step the pod ``ms`` more, and return the lines it wrote."""
        seen = len(self.port.lines())
        self.port.host_send(text)
        self.run(pod, self.pod_ms() + ms)
        return self.port.lines()[seen:]

    def run_code(self, seconds: float | None = None) -> None:
        """Run code.py as a board does, through resets, for ``seconds`` of world time."""
        self.stop_at = None if seconds is None else self.now() + round(seconds * 1e9)
        hard = True
        try:
            while True:
                try:
                    if hard:
                        self.boot()
                    self.run_file("code.py")
                    return
                except WatchdogReset:
                    self.restart("WATCHDOG")
                    hard = True
                except HardReset:
                    self.restart("SOFTWARE")
                    hard = True
                except SoftReload:
                    self.purge()
                    self.run_reason = "SUPERVISOR_RELOAD"
                    hard = False
        except StopSimulation:
            return
        finally:
            self.stop_at = None

    def restart(self, reason: str) -> None:
        """The chip resets: every module is gone, the watchdog off, the probe lets go of the bus."""
        self.reset_reason = reason
        self.run_reason = "STARTUP"
        self.dog_mode = None
        self.bus.held = False
        self.purge()

    def purge(self) -> None:
        """Forget the firmware's modules and the fakes it imported (this world's module stays)."""
        for name in set(sys.modules) - self._base_modules:
            where = str(getattr(sys.modules[name], "__file__", None) or "")
            if name != __name__ and where.startswith((str(FAKES), str(FIRMWARE))):
                del sys.modules[name]
