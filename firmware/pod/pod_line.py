"""The pod's lines: ASCII words, then ``*`` and the CRC-16/CCITT-FALSE of the words in hex.

PROTOCOL.md is the reference; the firmware and the host are tested against the same golden lines.

>>> encode("pong", 9, 2000, ["5"])
'pong 9 2000 5*F49A'
>>> unseal(b"ping 2*0FA8\\r\\n")
['ping', '2']
"""

import array

FW = "1.0.0"
"""The firmware's own version, shown by the host."""
PROTO = 1
"""The protocol's version: changes only when a line's meaning changes."""
MAX_LINE = 512
"""Bytes in the longest line, its end included; a longer line is dropped."""
SEQ_MOD = 65536


def _crc_table():
    table = array.array("H", [0] * 256)
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table[byte] = crc
    return table


_TABLE = _crc_table()


def crc16(data) -> int:
    """CRC-16/CCITT-FALSE of bytes: polynomial 0x1021, start 0xFFFF, no reflection, no final XOR."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[(crc >> 8) ^ byte]
    return crc


def seal(body: str) -> str:
    """The body with its checksum: ``body*CRC`` (without the line end)."""
    return "%s*%04X" % (body, crc16(body.encode()))


def encode(kind: str, seq: int, ms: int, words) -> str:
    """A sealed pod line: its kind, sequence number, the pod's milliseconds and its words."""
    parts = [kind, str(seq), str(ms)]
    parts.extend(words)
    return seal(" ".join(parts))


def unseal(raw) -> list:
    """The words of a received line whose checksum holds; ValueError says why it does not."""
    if len(raw) > MAX_LINE:
        raise ValueError("too long")
    line = bytes(raw)
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise ValueError("no checksum")
    for code in line[star + 1 :]:
        if not (48 <= code <= 57 or 65 <= code <= 70):
            raise ValueError("no checksum")
    body = line[:star]
    for code in body:
        if code < 32 or code > 126:
            raise ValueError("not ascii")
    if int(line[star + 1 :].decode(), 16) != crc16(body):
        raise ValueError("checksum")
    text = body.decode()
    words = text.split(" ")
    if not text or "" in words:
        raise ValueError("empty words")
    return words


def is_name(word: str) -> bool:
    """Whether a word is lower-case letters only, as every kind and verb is."""
    return bool(word) and all("a" <= char <= "z" for char in word)
