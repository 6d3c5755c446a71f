"""The pod's 1-Wire bus on GP22 and the DS18B20 probes on it, simulated slot by slot.

``Bus`` is the line: each reset and time slot the master (the fake ``onewireio``) drives meets
every ``Probe`` on it, and the line's level is their AND. A ``Probe`` answers as the chip does:
ROM search, MATCH, SKIP and READ ROM, CONVERT T (reading 0 until the conversion is done), its
scratchpad with the CRC (``crc8``). The faults (``PROBE_FAULTS``, ``BUS_FAULTS``) are what the
chips and their wires do. Time goes on the world's clock (``podsim.World``), a reset or a slot
what it takes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from podsim import World

SLOT_NS = 70_000
"""One 1-Wire time slot and its recovery."""
RESET_NS = 960_000
"""A 1-Wire reset: 480 us low, then 480 us for the presence pulses."""
PROBE_FAULTS = ("crc", "power-on", "power-fault", "all-zero", "all-ff", "missing", "range")
BUS_FAULTS = ("short", "cut")
SEARCH_ROM, MATCH_ROM, SKIP_ROM, READ_ROM = 0xF0, 0x55, 0xCC, 0x33
CONVERT_T, READ_SCRATCHPAD, WRITE_SCRATCHPAD = 0x44, 0xBE, 0x4E
CONVERSION_NS = {9: 93_750_000, 10: 187_500_000, 11: 375_000_000, 12: 750_000_000}
"""A DS18B20's conversion at each resolution (the datasheet's longest)."""
EEPROM = (0x4B, 0x46, 0x7F)
"""TH, TL and config as a DS18B20 leaves the factory: a probe powers up at 12 bits."""


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
