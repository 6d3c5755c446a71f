"""The USB data port: whole lines out while the host listens, command lines in without blocking."""

from pod_line import MAX_LINE, SEQ_MOD, encode

WRITE_TIMEOUT = 0.05
"""Seconds a line may wait for room in the USB buffer before it is given up."""
QUIET_MS = 1000
"""After a line was given up, lines are dropped (their seq still counts) for this long."""
MAX_COMMANDS = 4
"""Command lines handled per loop pass, so a flood cannot starve the sensors."""


class Link:
    """Numbers the pod's lines and writes them; gathers the host's bytes into command lines.

    ``port`` is ``usb_cdc.data`` (None when boot.py has not enabled it: then the lines go to the
    console, for a maker to see). A line is made only while the host holds the port open.
    """

    def __init__(self, port):
        self.port = port
        self.seq = 0
        self._pending = b""
        self._skipping = False
        self._torn = False
        self._quiet_until = -1
        if port is not None:
            port.timeout = 0
            port.write_timeout = WRITE_TIMEOUT

    def listening(self) -> bool:
        """Whether a host holds the port open (the console always counts as listening)."""
        return self.port is None or self.port.connected

    def send(self, kind: str, ms: int, words):
        """Seal and write one line; None when no host listens (then the line is not made at all).

        A line made but lost (the USB buffer stayed full) still counts in seq: the host sees
        the gap. Lines nobody listens to do not count, so the host's first line after it opens
        the port continues where the pod was, and a fresh pod's hello is seq 0.
        """
        if not self.listening():
            return None
        line = encode(kind, self.seq, ms, words)
        self.seq = (self.seq + 1) % SEQ_MOD
        port = self.port
        if port is None:
            print(line)
        elif ms >= self._quiet_until:
            data = line.encode() + b"\n"
            if self._torn:
                data = b"\n" + data
            written = port.write(data)
            self._torn = not written or written < len(data)
            if self._torn:
                self._quiet_until = ms + QUIET_MS
        return line

    def commands(self) -> list:
        """The command lines that arrived, at most a few; an overlong line comes back as None."""
        port = self.port
        if port is None:
            return []
        waiting = port.in_waiting
        if waiting:
            self._pending += port.read(min(waiting, MAX_LINE))
        lines = []
        while len(lines) < MAX_COMMANDS:
            end = self._pending.find(b"\n")
            if end < 0:
                if len(self._pending) >= MAX_LINE:
                    self._pending = b""
                    self._skipping = True
                break
            line = self._pending[: end + 1]
            self._pending = self._pending[end + 1 :]
            if self._skipping or len(line) > MAX_LINE:
                self._skipping = False
                lines.append(None)
            elif line.strip():
                lines.append(line)
        return lines
