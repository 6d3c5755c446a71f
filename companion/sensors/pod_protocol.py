"""The sensor pod's line protocol, as the host reads and writes it (``firmware/pod/PROTOCOL.md``).

Pure: text in, messages out, and back. Every line is ASCII words separated by single spaces,
ending in ``*`` and the CRC-16/CCITT-FALSE of everything before the ``*`` as four upper-case
hex digits. The pod's lines carry a sequence number (0..65535, wrapping) and the pod's clock in
milliseconds since it started; a value that is not a number is a fault code, after a ``!``.

>>> line = encode("pads", 7, 120034, ["1=-20412", "2=!saturated"])
>>> line
'pads 7 120034 1=-20412 2=!saturated*D7B3'
>>> parse(line).values
{1: -20412, 2: '!saturated'}
>>> parse(line.replace("20412", "20413"))
Traceback (most recent call last):
...
companion.sensors.pod_protocol.BadLine: checksum D7B3 does not match the line (ACD2)
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field
from typing import Any, Final

PROTOCOL: Final = 1
"""The protocol version this host speaks; a pod's hello must say the same."""
SEQ_MOD: Final = 65536
MAX_LINE: Final = 512
"""Bytes in the longest line either side may send, its end included; longer is garbage."""

PROBE_FAULTS: Final = {
    "crc": "CRC error: check the wiring and the 4.7 kOhm pull-up",
    "power-on": "reads the 85 C power-on value: check its power wiring",
    "power-fault": "reads 127.94 C: power fault, check its 3.3 V wire",
    "all-zero": "reads all zeros: check the data wire for a short to ground",
    "all-ff": "reads all FF: open ground, check its ground wire",
    "missing": "no answer: the probe left the pod's 1-Wire bus; check its wiring",
    "range": "reads outside the probe's -55..125 C",
}
"""A probe's fault codes on the wire, and what the host says of each (as the kernel probes do)."""
PAD_FAULTS: Final = {
    "saturated": "saturated: check the load cell wiring or the load",
    "stuck": "the same word many times in a row: the chip stopped converting; check its power",
    "not-ready": "no conversion from the pad: check its HX711 wiring and power",
}
"""A pad's fault codes on the wire, and what the host says of each."""


class BadLine(ValueError):
    """A line the host cannot take: garbled, cut, or with a checksum that does not match."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), the checksum of every line.

    The standard library's ``binascii.crc_hqx`` is this CRC (XMODEM's table, given the start
    value), in C: a few hundred times faster than a Python loop, which would hold the GIL in the
    daemon for every line of the pod.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def seal(body: str) -> str:
    """``body`` with its checksum, ready to send (without the line end)."""
    return f"{body}*{crc16(body.encode('ascii')):04X}"


def encode(kind: str, *words: object) -> str:
    """A sealed line of ``kind`` and its words; a list among the words adds each of its items."""
    parts = [kind]
    for word in words:
        parts.extend(str(w) for w in word) if isinstance(word, list) else parts.append(str(word))
    return seal(" ".join(parts))


def unseal(line: str | bytes) -> list[str]:
    """The words of a line whose checksum holds; :class:`BadLine` otherwise."""
    if len(line) > MAX_LINE:
        raise BadLine(f"a line of {len(line)} bytes, longer than {MAX_LINE}")
    if isinstance(line, bytes):
        if not line.isascii():
            raise BadLine("bytes that are not ASCII")
        line = line.decode("ascii")
    elif not line.isascii():
        raise BadLine("characters that are not ASCII")
    line = line.rstrip("\r\n")
    body, star, given = line.rpartition("*")
    if not star or not _HEX4.fullmatch(given):
        raise BadLine("no checksum at the end of the line")
    actual = crc16(body.encode("ascii"))
    if int(given, 16) != actual:
        raise BadLine(f"checksum {given} does not match the line ({actual:04X})")
    words = body.split(" ")
    if not body or "" in words:
        raise BadLine("empty words in the line")
    return words


@dataclass(frozen=True)
class Message:
    """A line from the pod: its kind, sequence number and the pod's clock (ms since start)."""

    kind: str
    seq: int
    ms: int
    values: dict[Any, Any] = field(default_factory=dict)
    """``probes``: probe id -> milli-degrees or ``!fault``; ``pads``: channel -> counts or
    ``!fault``; ``hello``: its ``key=value`` words; ``ack``/``nak``/``pong``: ``id`` and the
    rest of the words as ``detail``; a kind this host does not know (a newer pod's): ``words``,
    for the host to skip."""


KINDS: Final = ("hello", "probes", "pads", "ack", "nak", "pong")
_KIND = re.compile(r"[a-z]+")
_HEX4 = re.compile(r"[0-9A-F]{4}")
_INT = re.compile(r"-?\d+")
_PROBE_ID = re.compile(r"[0-9a-f]{2}-[0-9a-f]{12}")
_CODE = re.compile(r"![a-z-]+")


def parse(line: str | bytes) -> Message:
    """The message a pod's line carries; :class:`BadLine` for anything else."""
    words = unseal(line)
    kind, rest = words[0], words[1:]
    if not _KIND.fullmatch(kind):
        raise BadLine(f"a line that starts with {kind[:20]!r}, not a kind")
    if len(rest) < 2 or not all(_INT.fullmatch(w) for w in rest[:2]):
        raise BadLine(f"a {kind} line without its sequence number and time")
    seq, ms = int(rest[0]), int(rest[1])
    if not 0 <= seq < SEQ_MOD or ms < 0:
        raise BadLine(f"a {kind} line with sequence {seq} or time {ms} out of range")
    words = rest[2:]
    if kind not in KINDS:
        return Message(kind, seq, ms, {"words": words})
    if kind == "hello":
        values: dict[Any, Any] = _pairs(words, kind)
    elif kind in ("probes", "pads"):
        values = _readings(kind, words)
    else:
        if not words or not words[0].isdigit():
            raise BadLine(f"a {kind} line without the command's id")
        values = {"id": int(words[0]), "detail": " ".join(words[1:])}
    return Message(kind, seq, ms, values)


def _pairs(words: list[str], kind: str) -> dict[str, str]:
    pairs = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise BadLine(f"a {kind} line with {word[:20]!r}, not key=value")
        pairs[key] = value
    return pairs


def _readings(kind: str, words: list[str]) -> dict[Any, Any]:
    values: dict[Any, Any] = {}
    for key, value in _pairs(words, kind).items():
        if kind == "pads" and not key.isdigit():
            raise BadLine(f"a pads line with channel {key[:20]!r}")
        if kind == "probes" and not _PROBE_ID.fullmatch(key):
            raise BadLine(f"a probes line with probe id {key[:20]!r}")
        if _INT.fullmatch(value):
            reading: int | str = int(value)
        elif _CODE.fullmatch(value):
            reading = value
        else:
            raise BadLine(f"a {kind} line with value {value[:20]!r}")
        values[int(key) if kind == "pads" else key] = reading
    return values


def fault_reason(kind: str, code: str) -> str:
    """What the host says of a fault code (``!crc``) of a probe or a pad; unknown codes too.

    >>> fault_reason("pads", "!not-ready")
    'no conversion from the pad: check its HX711 wiring and power'
    """
    known = PROBE_FAULTS if kind == "probes" else PAD_FAULTS
    name = code.lstrip("!")
    return known.get(name, f"the pod reports {name!r}")


def command(verb: str, command_id: int, *words: object) -> bytes:
    """A host command, sealed and ended, as bytes to write.

    >>> command("set", 3, "resolution=11")
    b'set 3 resolution=11*D3DB\\n'
    """
    return (encode(verb, command_id, *words) + "\n").encode("ascii")


def lost_between(previous: int, seq: int) -> int:
    """How many lines went missing between sequence numbers ``previous`` and ``seq``.

    >>> lost_between(65534, 1)
    2
    """
    return (seq - previous - 1) % SEQ_MOD
