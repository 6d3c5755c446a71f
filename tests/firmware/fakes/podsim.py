"""A simulated world for the pod's firmware: its clock, USB port and watchdog, and its parts.

The firmware runs over Adafruit's own drivers (adafruit_onewire, adafruit_ds18x20,
adafruit_hx711, from the folder ``tests/chip_libraries.py`` names), and those over the fake
CircuitPython core beside this module (board, microcontroller, digitalio, onewireio, usb_cdc,
...), which acts on ``podsim.current``, the world of the running test. Below that core the world
simulates the parts bit by bit: every 1-Wire time slot meets every DS18B20 on the bus
(``ds18b20_bus.py``: ``Bus``, ``Probe``), and every edge of a pad's clock pin meets its HX711
(``hx711_pads.py``: ``Chip``, the chip model of ``tests/fake_hx711.py``). The faults come from
those parts, never from a driver; ``World.fault()`` names them.

The world also boots the firmware the way a board does: boot.py after a hard reset, then
code.py, again after the watchdog fires. CircuitPython's ``time`` is built in, so the world
hands the firmware and the drivers a fake ``time`` module (its clock) while they are imported
and run.

In a test the clock is simulated: every clock read, pin operation, 1-Wire slot and delay costs
its time, a sleep what it asks. In the pty fake pod (``realtime``) the clock is the real one,
except while interrupts are off (a pad's read), when it runs on those costs as the pod's would,
and while the pod is hung (waiting on a pin, ``stall()``), when it runs ten times faster so
the watchdog fires within a second.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time as real_time
import types
from collections.abc import Iterator
from pathlib import Path

import ds18b20_bus
import hx711_pads
from ds18b20_bus import BUS_FAULTS, PROBE_FAULTS, Bus, Probe
from hx711_pads import PAD_FAULTS, Chip

current: World | None = None
"""The world the fake modules act on."""

FIRMWARE = Path(__file__).resolve().parents[3] / "firmware" / "pod"
FAKES = Path(__file__).resolve().parent
DRIVERS = ("adafruit_onewire", "adafruit_ds18x20", "adafruit_hx711")
"""Adafruit's libraries the firmware imports: forgotten with it at every reset."""
MS = 1_000_000
TICK_NS = 20_000
"""What each clock read costs in simulated time: the firmware's own code is not free."""
PIN_NS = 5_000
"""A DigitalInOut's value read or set by CircuitPython code on an RP2040."""
SPIN_READS = 1000
"""The same input read this many times with nothing between: the pod is hung waiting on it."""
BOOT_NS = 700 * MS
"""From a reset to code.py: USB enumeration and boot.py."""
DOG_MAX_S = 8.388
"""The RP2040 watchdog's longest timeout."""
PARTS = (__name__, ds18b20_bus.__name__, hx711_pads.__name__)
"""This module and the parts' modules: a world's probes and pads live on through resets."""


class WatchdogReset(BaseException):
    """The watchdog was not fed in time: the chip resets (nothing in the firmware can catch it)."""


class HardReset(BaseException):
    """microcontroller.reset(): the chip resets."""


class SoftReload(BaseException):
    """supervisor.reload(): code.py starts again, the chip does not reset."""


class StopSimulation(BaseException):
    """The test's time is up."""


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
        self._held: int | None = None
        self._ops = 0
        self._reading: object = None
        self._reading_ops = -1
        self._spins = 0
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
        self.chips = {f"GP{2 + 2 * n}": Chip(self, n, -20_000 + 1000 * n) for n in range(pads)}
        """Each pad's HX711 by its DOUT pin."""
        self._base_modules = set(sys.modules)

    # the clock

    def now(self) -> int:
        """The world's time in ns (not the pod's: that starts again at every reset)."""
        now = self._now
        if self.realtime:
            now = self._held
            if now is None:
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
        """Time an operation takes (in real time it just passes, but while interrupts are off)."""
        self._ops += 1
        if not self.realtime:
            self._now += ns
        elif self._held is not None:
            self._held += ns
        self.now()

    def hold(self) -> None:
        """microcontroller.disable_interrupts(): nothing can pause the pod until ``release()``.

        In real time the world's clock then runs on the costs of what the pod does, since the
        process running it can be paused where the pod could not.
        """
        if self.realtime and self._held is None:
            self._held = self.now()

    def release(self) -> None:
        """microcontroller.enable_interrupts(): real time again, once it has caught up with the
        costs (the pod took that long), so the clock neither jumps back nor runs fast."""
        if self._held is not None:
            ahead = self._held - (real_time.monotonic_ns() - self._origin + self._skip)
            self._held = None
            if ahead > 0:
                real_time.sleep(ahead / 1e9)

    def read_pin(self, pin: object) -> None:
        """A pin read costs its time; the same pin read again and again with nothing between
        is a pod hung waiting on it, whose time then passes in ``stall()``'s steps."""
        spinning = pin is self._reading and self._ops == self._reading_ops
        self._spins = self._spins + 1 if spinning else 0
        if self._spins > SPIN_READS:
            self.stall()
        else:
            self.spend(PIN_NS)
        self._reading, self._reading_ops = pin, self._ops

    def wired(self, name: str) -> tuple[Chip | None, str]:
        """What a pin of the board reaches: a pad's chip and which of its pins, or nothing."""
        for chip in self.chips.values():
            if name == chip.dout_pin:
                return chip, "dout"
            if name == chip.sck_pin:
                return chip, "sck"
        return None, ""

    def sleep(self, seconds: float) -> None:
        if self.realtime:
            real_time.sleep(seconds)
        else:
            self._now += round(seconds * 1e9)
        self.now()

    def stall(self) -> None:
        """Ten ms of a hung pod (in real time: a hung pod's clock runs ten times faster)."""
        self._ops += 1
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
        if self._events:
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
        """``fault("probe", 2, "crc")``, ``fault("pad", 3, "stuck")``, ``fault("bus", 1,
        "short")`` (or ``"cut"``: the pod has one 1-Wire bus)."""
        if sensor == "bus":
            if code not in BUS_FAULTS or number != 1:
                raise ValueError(code)
            self.bus.shorted, self.bus.cut = code == "short", code == "cut"
        elif sensor == "probe":
            if code not in PROBE_FAULTS:
                raise ValueError(code)
            self.bus.probes[number - 1].fault = code
        else:
            if code not in PAD_FAULTS:
                raise ValueError(code)
            self.chips[f"GP{2 * number}"].set_fault(code)

    def hang(self) -> None:
        """Pad 1's DOUT wire comes loose just as the pod reads it: Adafruit's driver then waits
        for a conversion forever, and the pod stops feeding its watchdog."""
        if not self.chips:
            raise ValueError("no pad to hang on")
        min(self.chips.values(), key=lambda chip: chip.dout_pin).loosen()

    def clear(self) -> None:
        """Every fault of the probes, the bus and the pads mended."""
        for probe in self.bus.probes:
            probe.fault = None
        for chip in self.chips.values():
            chip.clear()
        self.bus.shorted = self.bus.cut = False

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
        """The chip resets: every module is gone, the watchdog off; a loose wire is back."""
        self.reset_reason = reason
        self.run_reason = "STARTUP"
        self.dog_mode = None
        self.release()
        for chip in self.chips.values():
            chip.loose = False
        self.purge()

    def purge(self) -> None:
        """Forget the firmware's modules, the drivers and the fakes it imported (this world's
        module and its parts' stay: ``PARTS``)."""
        for name in set(sys.modules) - self._base_modules:
            where = str(getattr(sys.modules[name], "__file__", None) or "")
            ours = where.startswith((str(FAKES), str(FIRMWARE)))
            if name not in PARTS and (ours or name.partition(".")[0] in DRIVERS):
                del sys.modules[name]
