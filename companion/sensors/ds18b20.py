"""The DS18B20's facts: its scratchpad, its CRC, its conversion times, what the kernel prints.

The w1 driver parses what the kernel prints; the simulated table and the fake w1 trees of the
tests print it the same way, so all three speak one format.

>>> kernel_text(scratchpad(23.125))
'72 01 4b 46 7f ff 0c 10 c6 : crc=c6 YES\\n72 01 4b 46 7f ff 0c 10 c6 t=23125\\n'
>>> hex(dallas_crc8(POWER_ON_PAD[:8]))
'0x1c'
"""

from __future__ import annotations

from typing import Final

POWER_ON_PAD: Final = bytes.fromhex("50054b467fff0c101c")
"""The scratchpad after a power-on reset: 85.0 C with a valid CRC."""
POWER_FAULT_PAD_HEAD: Final = bytes.fromhex("ff074b467fff0c10")
"""127.94 C, what a probe reads when its supply sags during a conversion (CRC to be added)."""


def dallas_crc8(data: bytes) -> int:
    """The 1-Wire CRC8 (x^8 + x^5 + x^4 + 1, LSB first) that ends every scratchpad."""
    crc = 0
    for byte in data:
        for _ in range(8):
            mix = (crc ^ byte) & 1
            crc >>= 1
            if mix:
                crc ^= 0x8C
            byte >>= 1
    return crc


def conversion_s(bits: int) -> float:
    """The datasheet's longest conversion time at ``bits`` resolution.

    >>> [conversion_s(b) for b in (9, 10, 11, 12)]
    [0.09375, 0.1875, 0.375, 0.75]
    """
    return 0.09375 * 2.0 ** (bits - 9)


def with_crc(head: bytes) -> bytes:
    """Eight scratchpad bytes and their CRC."""
    return head + bytes([dallas_crc8(head)])


def scratchpad(celsius: float, resolution: int = 12, th: int = 0x4B, tl: int = 0x46) -> bytes:
    """The nine bytes a probe at ``celsius`` holds: the undefined low bits of lower resolutions
    cleared, its configuration byte, and a valid CRC."""
    counts = round(celsius * 16) & ~((1 << (12 - resolution)) - 1)
    config = ((resolution - 9) << 5) | 0x1F
    return with_crc(
        counts.to_bytes(2, "little", signed=True) + bytes([th, tl, config, 0xFF, 0x0C, 0x10])
    )


def kernel_text(pad: bytes) -> str:
    """``w1_slave`` as the kernel's ``w1_therm`` prints nine bytes: its CRC verdict, then ``t=``.

    The milli-degrees come from a C division, which truncates toward zero.
    """
    crc = dallas_crc8(pad[:8])
    hexes = "".join(f"{b:02x} " for b in pad)
    counts = int.from_bytes(pad[:2], "little", signed=True)
    milli = int(counts * 1000 / 16)
    return f"{hexes}: crc={crc:02x} {'YES' if crc == pad[8] else 'NO'}\n{hexes}t={milli}\n"
