"""A simulated world for the pod's firmware: clock, 1-Wire bus and probes, pads, USB, watchdog.

The firmware runs over Adafruit's own drivers (adafruit_onewire, adafruit_ds18x20,
adafruit_hx711, from the folder ``tests/chip_libraries.py`` names), and those over the fake
CircuitPython core beside this module (board, microcontroller, digitalio, onewireio, usb_cdc,
...), which acts on ``podsim.current``, the world of the running test. Below that core the world
simulates the parts bit by bit: every 1-Wire time slot meets every DS18B20 (``Probe``) on the
``Bus``, and every edge of a pad's clock pin meets its HX711 (``Chip``, the chip model of
``tests/fake_hx711.py``). The faults come from those parts, never from a driver.

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

from fake_hx711 import POWER_DOWN_NS, FakeHX711

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
SLOT_NS = 70_000
"""One 1-Wire time slot and its recovery."""
RESET_NS = 960_000
"""A 1-Wire reset: 480 us low, then 480 us for the presence pulses."""
BOOT_NS = 700 * MS
"""From a reset to code.py: USB enumeration and boot.py."""
DOG_MAX_S = 8.388
"""The RP2040 watchdog's longest timeout."""
PROBE_FAULTS = ("crc", "power-on", "power-fault", "all-zero", "all-ff", "missing", "range")
PAD_FAULTS = ("saturated", "stuck", "not-ready")
BUS_FAULTS = ("short", "cut")
SEARCH_ROM, MATCH_ROM, SKIP_ROM, READ_ROM = 0xF0, 0x55, 0xCC, 0x33
CONVERT_T, READ_SCRATCHPAD, WRITE_SCRATCHPAD = 0x44, 0xBE, 0x4E
CONVERSION_NS = {9: 93_750_000, 10: 187_500_000, 11: 375_000_000, 12: 750_000_000}
"""A DS18B20's conversion at each resolution (the datasheet's longest)."""
EEPROM = (0x4B, 0x46, 0x7F)
"""TH, TL and config as a DS18B20 leaves the factory: a probe powers up at 12 bits."""


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
    """A simulated DS18B20, answering the master slot by slot as the chip does.

    ROM commands: SEARCH ROM (its bit, then the complement, then the master's choice, which
    deselects it when it differs), MATCH ROM, SKIP ROM, READ ROM; then CONVERT T (read slots give
    0 until the conversion is done), READ SCRATCHPAD (9 bytes with their CRC), WRITE SCRATCHPAD
    (TH, TL, config). It starts as from power-on: 85 C in the scratchpad, the EEPROM's 12 bits.

    Faults (``fault``), each what the chip or its wires do: ``missing`` (off the bus: no
    presence, no answer), ``power-on`` (its supply sags at every conversion: it resets, 85 C and
    the EEPROM's config), ``power-fault`` (a conversion short of power ends at 127.94 C),
    ``range`` (a conversion ends at 126 C), ``crc`` (a noisy stub flips one bit of what it
    sends), ``all-zero`` (it holds the line low while it sends), ``all-ff`` (it answers its ROM
    but lets go of the line when it should send).
    """

    def __init__(self, world: World, number: int, celsius: float) -> None:
        rom = bytes([0x28, number, 0, 0, 0, 0, 0])
        self.rom = rom + bytes([crc8(rom)])
        self.id = f"28-{number:012x}"
        self.world = world
        self.celsius = celsius
        self.fault: str | None = None
        self.writes = 0
        """WRITE SCRATCHPADs it took."""
        self.power_on()

    def power_on(self) -> None:
        """What the chip holds after power comes (back): 85 C, TH, TL and config from EEPROM."""
        self.raw = 0x0550
        """The temperature register, as the last finished conversion left it."""
        self.th, self.tl, self.config = EEPROM
        self._result: tuple[int, int] | None = None
        self._state = "idle"
        self._in = self._count = 0
        self._got = b""
        self._out = 0
        self._out_bits = 0
        self._flip = -1

    @property
    def present(self) -> bool:
        return self.fault != "missing"

    @property
    def bits(self) -> int:
        return 9 + (self.config >> 5 & 3)

    def scratchpad(self) -> bytes:
        """The 9 bytes READ SCRATCHPAD sends, CRC last."""
        body = bytes([self.raw & 0xFF, self.raw >> 8, self.th, self.tl, self.config, 0xFF, 0x0C])
        body += b"\x10"
        return body + bytes([crc8(body)])

    def reset(self, now: int) -> bool:
        """A reset pulse: it drops what it was doing; whether it answers with its presence."""
        self._finish(now)
        if not self.present:
            self._state = "idle"
            return False
        self._state, self._in, self._count = "rom", 0, 0
        return True

    def slot(self, master: int, now: int) -> int:
        """One time slot: the master writes ``master`` (1 for a read slot); the chip's level."""
        state = self._state
        if state == "idle" or not self.present:
            return 1
        if state == "search":
            return self._search(master)
        if state == "send":
            if self._out_bits <= 0:
                return 1
            bit = self._out & 1
            self._out >>= 1
            self._out_bits -= 1
            if self._flip == self._out_bits:
                bit ^= 1
            return 0 if self.fault == "all-zero" else 1 if self.fault == "all-ff" else bit
        if state == "converting":
            self._finish(now)
            return 0 if self._result else 1
        self._in |= master << self._count
        self._count += 1
        if self._count == 8:
            byte, self._in, self._count = self._in, 0, 0
            self._take(byte, now)
        return 1

    def _search(self, master: int) -> int:
        index, phase = divmod(self._count, 3)
        mine = self.rom[index // 8] >> (index % 8) & 1
        self._count += 1
        if phase == 0:
            return mine
        if phase == 1:
            return mine ^ 1
        if master != mine:
            self._state = "idle"
        elif self._count == 64 * 3:
            self._state, self._count = "function", 0
        return 1

    def _send(self, data: bytes) -> None:
        self._state = "send"
        self._out = int.from_bytes(data, "little")
        self._out_bits = 8 * len(data)
        self._flip = self.world.rng.randrange(self._out_bits) if self.fault == "crc" else -1

    def _take(self, byte: int, now: int) -> None:
        """A whole byte from the master, in the state the chip is in."""
        state = self._state
        if state == "rom":
            if byte == SEARCH_ROM:
                self._state = "search"
            elif byte == MATCH_ROM:
                self._state, self._got = "match", b""
            elif byte == SKIP_ROM:
                self._state = "function"
                self.world.bus.selected = "skip"
            elif byte == READ_ROM:
                self._send(self.rom)
            else:
                self._state = "idle"
        elif state == "match":
            self._got += bytes([byte])
            if len(self._got) == 8:
                self._state = "function" if self._got == self.rom else "idle"
                self.world.bus.selected = "match"
        elif state == "function":
            self._function(byte, now)
        elif state == "write":
            self._got += bytes([byte])
            if len(self._got) == 3:
                self.th, self.tl = self._got[0], self._got[1]
                self.config = (self._got[2] & 0x60) | 0x1F
                self.writes += 1
                self._state = "idle"

    def _function(self, byte: int, now: int) -> None:
        bus = self.world.bus
        if byte == CONVERT_T:
            bus.heard("convert", now)
            if self.fault == "power-on":
                self.power_on()
                return
            celsius = self.celsius + self.world.rng.gauss(0, 0.05)
            step = 1 << (12 - self.bits)
            raw = (round(celsius * 16) // step * step) & 0xFFFF
            raw = {"power-fault": 0x07FF, "range": 0x07E0}.get(self.fault or "", raw)
            self._result = (now + CONVERSION_NS[self.bits], raw)
            self._state = "converting"
        elif byte == READ_SCRATCHPAD:
            bus.heard("read", now)
            self._finish(now)
            self._send(self.scratchpad())
        elif byte == WRITE_SCRATCHPAD:
            self._state, self._got = "write", b""
        else:
            self._state = "idle"

    def _finish(self, now: int) -> None:
        """The conversion under way, once its time passed, lands in the temperature register."""
        if self._result is not None and now >= self._result[0]:
            self.raw = self._result[1]
            self._result = None


class Bus:
    """The 1-Wire bus on GP22: the master's slots meet every probe's; the line is their AND.

    ``shorted``: DQ shorted to ground (every slot reads 0, a reset sees a "presence");
    ``cut``: DQ cut between the pod and the probes (no presence, every slot reads 1).
    """

    def __init__(self, world: World, probes: list[Probe]) -> None:
        self.world = world
        self.probes = probes
        self.shorted = False
        self.cut = False
        self.converts = 0
        """CONVERT Ts sent to every probe at once (SKIP ROM)."""
        self.single_converts = 0
        """CONVERT Ts sent to one probe (MATCH ROM)."""
        self.resets = 0
        self.events: list[tuple[int, str]] = []
        """(world ns, "convert" or "read") for every CONVERT T and READ SCRATCHPAD a probe heard."""
        self.selected = ""
        """How the probes of this reset were chosen: "skip" or "match"."""
        self._heard = False

    def reset(self) -> bool:
        """A reset pulse (480 us low, then 480 us for the presence pulses); whether the line
        went low in answer."""
        self.world.spend(RESET_NS)
        now = self.world.now()
        self.resets += 1
        self.selected = ""
        self._heard = False
        if self.shorted:
            return True
        if self.cut:
            return False
        answered = [probe.reset(now) for probe in self.probes]
        return any(answered)

    def slot(self, master: int) -> int:
        """One time slot: the master writes ``master`` (1 to read); the line's level after it."""
        self.world.spend(SLOT_NS)
        now = self.world.now()
        if self.shorted:
            return 0
        if self.cut:
            return 1
        line = master
        for probe in self.probes:
            line &= probe.slot(master, now)
        return line

    def heard(self, what: str, now: int) -> None:
        """A probe took a function command: counted once for all the probes of one reset."""
        if self._heard:
            return
        self._heard = True
        self.events.append((now, what))
        if what == "convert":
            if self.selected == "skip":
                self.converts += 1
            else:
                self.single_converts += 1


class Chip:
    """A pad's HX711 on its DOUT and SCK pins: ``fake_hx711.FakeHX711`` on the world's clock.

    ``level`` is its count at gain 128 (channel A at 64: half, channel B: a quarter); ``hz`` its
    RATE pin (a new ``hz`` is a board that starts from power-on). The world's faults: ``not-ready``
    (it never converts), ``saturated`` (every word 0x7FFFFF), ``stuck`` (the same word again and
    again); ``loosen()`` its DOUT wire. It keeps what was clocked out: ``word``, ``reads``,
    ``pulses`` (the pulse count of every finished read) and ``longest_high_ns``.
    """

    def __init__(self, world: World, number: int, level: int, hz: int = 10) -> None:
        self.world = world
        self.dout_pin = f"GP{2 + 2 * number}"
        self.sck_pin = f"GP{3 + 2 * number}"
        self._level = level
        self._seed = world.rng.randrange(1 << 30)
        self.fault: str | None = None
        self.loose = False
        self._touch = False
        self.word = 0
        self.reads = 0
        self.longest_high_ns = 0
        self._bits = 0
        self._pulse = 0
        self._high_since: int | None = None
        self.hz = hz

    @property
    def hz(self) -> int:
        return self._hz

    @hz.setter
    def hz(self, hz: int) -> None:
        self._hz = hz
        self._pulse, self._high_since = 0, None
        period = 1_000_000_000 // hz
        self.hx = FakeHX711(
            values=self._values(),
            seed=self._seed,
            rate_hz=hz,
            phase_ns=self.world.rng.randrange(period),
        )

    @property
    def level(self) -> int:
        return self._level

    @level.setter
    def level(self, level: int) -> None:
        self._level = level
        self.hx.values = self._values()

    def _values(self) -> dict[int, int]:
        return {128: self._level, 64: self._level // 2, 32: self._level // 4}

    @property
    def pulses(self) -> list[int]:
        return self.hx.pulse_counts

    def loosen(self) -> None:
        """Its DOUT wire comes loose: it touches once more (a low the pod reads as ready), then
        floats high on the pod's pull-up until the pod restarts."""
        self.loose = True
        self._touch = True

    def clear(self) -> None:
        self.fault = None
        self.loose = False
        self.hx.never_ready = False
        self.hx.words.clear()

    def set_fault(self, code: str) -> None:
        self.clear()
        self.fault = code
        self.hx.never_ready = code == "not-ready"

    def clock(self, high: bool, now: int) -> None:
        """An edge on SCK."""
        if high:
            starting = self._pulse in (0, 25, 26, 27) and self.hx.dout(now) == 0
            if starting:
                self._pulse, self._bits = 0, 0
                if self.fault in ("saturated", "stuck") and not self.hx.words:
                    self.hx.words.append(0x7FFFFF if self.fault == "saturated" else self.word)
            self.hx.rising(now)
            self._high_since = now
            if starting or 0 < self._pulse < 27:
                self._pulse += 1
            if 0 < self._pulse <= 24:
                self._bits = self._bits << 1 | self.hx.dout(now)
                if self._pulse == 24:
                    self.word = self._bits
                    self.reads += 1
            return
        since, self._high_since = self._high_since, None
        if since is None:
            return
        if now - since > POWER_DOWN_NS:
            self._pulse = 0
        elif self._pulse:
            self.longest_high_ns = max(self.longest_high_ns, now - since)
        self.hx.falling(now)

    def dout(self, now: int) -> int:
        """DOUT's level as the pod's pin reads it."""
        if self.loose:
            touch = self._touch and self._high_since is None
            if touch:
                self._touch = False
            return 0 if touch else 1
        return self.hx.dout(now)


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
        module stays)."""
        for name in set(sys.modules) - self._base_modules:
            where = str(getattr(sys.modules[name], "__file__", None) or "")
            ours = where.startswith((str(FAKES), str(FIRMWARE)))
            if name != __name__ and (ours or name.partition(".")[0] in DRIVERS):
                del sys.modules[name]
