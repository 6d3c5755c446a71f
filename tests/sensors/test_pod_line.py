"""The pod line as host and pod both make it: the checksum, and the libraries the pod runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from companion.sensors.pod_protocol import crc16

POD_LINE = Path(__file__).resolve().parents[2] / "firmware" / "pod" / "pod_line.py"


def bitwise(data: bytes) -> int:
    """The CRC by its definition: polynomial 0x1021, start 0xFFFF, no reflection, no final XOR."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _firmware_crc16():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("pod_line", POD_LINE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.crc16


FIRMWARE_CRC16 = _firmware_crc16()


@given(st.binary(max_size=300))
def test_the_host_and_the_pod_agree_with_the_definition(data: bytes) -> None:
    assert crc16(data) == bitwise(data) == FIRMWARE_CRC16(data)


def test_the_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_the_pod_s_libraries_are_listed_for_circup() -> None:
    """``circup install -r`` reads one library a line, pinned as ``circup freeze`` writes."""
    listed = (POD_LINE.parent / "requirements.txt").read_text(encoding="utf-8").split()
    assert listed == [
        "adafruit_onewire==2.0.14",
        "adafruit_ds18x20==1.4.9",
        "adafruit_hx711==1.1.2",
    ]
    imported = "".join(path.read_text() for path in POD_LINE.parent.glob("pod_*.py"))
    for line in listed:
        assert f"from {line.split('==')[0]}" in imported, line
