"""What the host knows of the sensor pod from the bytes it reads: pure, the time passed in.

The serial link (:mod:`companion.sensors.pod_link`) hands every chunk of bytes to
:meth:`PodStream.receive` with the time it arrived, and writes back the commands it returns. The
stream cuts lines, drops and counts bad ones, counts lost ones by their sequence numbers, maps
the pod's clock to the host's, sets the pod up whenever it says hello, refuses a pod of another
protocol, keeps each probe's latest value and every pad word, and says what is wrong when the
pod is unplugged or silent; when readings come again it notes how long each seat went without.

>>> stream = PodStream(Settings())
>>> stream.opened(10.0, "/dev/companion-pod")
b'hello 1*DEB9\\n'
>>> commands = stream.receive(10.5, b"hello 0 812 fw=1.0.0 proto=1 probes=1 pads=1*40F7\\n")
>>> [c.split(b"*")[0] for c in commands]
[b'set 2 resolution=11', b'set 3 sweep_ms=2000', b'set 4 gain=128', b'set 5 pad_hz=10']
>>> stream.receive(10.6, b"pads 1 900 1=-20412*6AC9\\n")
[]
>>> stream.take_pads()
[(10.588, 'pod:pad1', -20412)]
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from companion.sensors.pod_protocol import MAX_LINE, PROTOCOL, BadLine, command, lost_between, parse

SILENT_S: Final = 2.0
"""How long the pod may say nothing before every seat shows it: it sends ~10 lines a second."""
SILENT_HINT: Final = "check its USB cable, and that pod_port names its data port, not its console"
CLOCK_WINDOW_S: Final = 60.0
"""The pod's clock is mapped by the least delay seen over this long."""
PAD_BACKLOG: Final = 6 * 80 * 60
"""Pad words kept for a reader that does not drain them: a minute of six pads at 80 Hz."""

log = logging.getLogger("companion.sensors.pod")

Value = int | str
"""A reading on the wire: a number, or a fault code such as ``!crc``."""


def pad_id(channel: int) -> str:
    """A pad's sensor id: its channel on the pod (1..6).

    >>> pad_id(3)
    'pod:pad3'
    """
    return f"pod:pad{channel}"


@dataclass(frozen=True)
class Settings:
    """What the host sets on the pod after every hello (the pod forgets it when it restarts)."""

    resolution: int = 11
    sweep_ms: int = 2000
    gain: int = 128
    pad_hz: int = 10

    def words(self) -> list[str]:
        return [
            f"resolution={self.resolution}",
            f"sweep_ms={self.sweep_ms}",
            f"gain={self.gain}",
            f"pad_hz={self.pad_hz}",
        ]


@dataclass(frozen=True)
class Reconnect:
    """The pod came back after ``why`` (``unplugged``, ``silent``): seconds without readings,
    by seat, from each seat's last reading before to the first readings after."""

    at: float
    why: str
    gaps: dict[int, float] = field(default_factory=dict)

    def sentence(self) -> str:
        """One line for the log and the terminal.

        >>> Reconnect(5.0, "unplugged", {1: 3.25, 2: 3.5}).sentence()
        'the pod is back (unplugged): seat 1 had no readings for 3.2 s, seat 2 for 3.5 s'
        """
        seats = [f"seat {s} for {g:.1f} s" for s, g in sorted(self.gaps.items())]
        if not seats:
            return f"the pod is back ({self.why})"
        seats[0] = seats[0].replace(" for ", " had no readings for ", 1)
        return f"the pod is back ({self.why}): {', '.join(seats)}"


class ClockMap:
    """The pod's milliseconds on the host's clock: a line arrives late, never early, so the
    offset is the least (arrival - pod time) over the last minute.

    >>> clock = ClockMap()
    >>> clock.add(100.30, 1000), clock.add(100.35, 1100), clock.add(100.60, 1200)
    (99.3, 99.25, 99.25)
    """

    def __init__(self, window_s: float = CLOCK_WINDOW_S) -> None:
        self.window_s = window_s
        self._offsets: deque[tuple[float, float]] = deque()
        self._last_ms: int | None = None

    def reset(self) -> None:
        self._offsets.clear()
        self._last_ms = None

    def restarted(self, ms: int) -> bool:
        """Whether the pod's clock went back: it restarted."""
        return self._last_ms is not None and ms < self._last_ms

    def add(self, arrival: float, ms: int) -> float:
        """Take one line's arrival; the offset to add to a pod time in seconds, rounded to ms."""
        if self.restarted(ms):
            self.reset()  # its clock began again
        self._last_ms = ms
        offset = arrival - ms / 1000
        while self._offsets and self._offsets[-1][1] >= offset:
            self._offsets.pop()
        self._offsets.append((arrival, offset))
        while self._offsets[0][0] < arrival - self.window_s:
            self._offsets.popleft()
        return round(self._offsets[0][1], 6)

    def host_time(self, arrival: float, ms: int) -> float:
        """The host time of a line the pod stamped ``ms``, which arrived at ``arrival``."""
        return round(ms / 1000 + self.add(arrival, ms), 6)


class PodStream:
    """The pod as its lines tell it; every method takes the host time ``now``.

    ``seat_of`` names the seat of a sensor id (a probe id or ``pod:pad<n>``), for the gaps.
    """

    def __init__(
        self,
        settings: Settings,
        seat_of: Callable[[str], int | None] = lambda sensor: None,
        silent_s: float = SILENT_S,
    ) -> None:
        self.settings = settings
        self.seat_of = seat_of
        self.silent_s = silent_s
        self.port: str | None = None
        self.hello: dict[str, str] = {}
        """The pod's last hello: ``fw``, ``proto``, ``board``, ``uid``, ``probes``, ``reset``..."""
        self.lines = self.bad = self.lost = 0
        self.reconnects: list[Reconnect] = []
        self.refused: str | None = None
        """Why the pod is refused (another protocol), or ``None``."""
        self.sweeps = self.rounds = 0
        """How many ``probes`` and ``pads`` lines came."""
        self.probes: dict[str, tuple[float, Value, float]] = {}
        """Each probe's latest value: (its pod time on the host's clock, value, arrival)."""
        self._pads: deque[tuple[float, str, Value]] = deque(maxlen=PAD_BACKLOG)
        self._heard: dict[str, float] = {}
        self._clock = ClockMap()
        self._buffer = bytearray()
        self._skipping = False
        self._seq: int | None = None
        self._down: str | None = None
        self._since: float | None = None
        self._outage: str | None = None
        self._said_silent = False
        self._next_id = 1
        self._pending: dict[int, str] = {}
        self._set_up = False
        """Whether this pod, since it started, has been set up through this port."""

    # -- the port

    def opened(self, now: float, port: str) -> bytes:
        """The port is open: the command to send first (``hello``)."""
        self.port = port
        self._down = None
        self._since = now
        self._seq = None
        self._buffer.clear()
        self._skipping = False
        self._said_silent = False
        self._set_up = False
        return self._command("hello")

    def closed(self, now: float, why: str) -> None:
        """The port is gone (or could not be opened): ``why`` is what every seat shows."""
        if why != self._down:
            log.warning("%s", why)
        if self._heard:
            self._outage = self._outage or "unplugged"
        self._down = why

    def trouble(self, now: float) -> str | None:
        """What every probe and pad shows now instead of readings, or ``None``."""
        if self._down is not None:
            return self._down
        if self.refused is not None:
            return self.refused
        quiet = self._quiet_s(now)
        if quiet > self.silent_s:
            return f"the pod is silent for {quiet:.0f} s: {SILENT_HINT}"
        return None

    def check(self, now: float) -> None:
        """Note (and log, once) a pod that went silent."""
        if self._down is None and self._quiet_s(now) > self.silent_s and not self._said_silent:
            self._said_silent = True
            log.warning("the pod is silent for %.0f s: %s", self._quiet_s(now), SILENT_HINT)
            if self._heard:
                self._outage = self._outage or "silent"

    def _quiet_s(self, now: float) -> float:
        return 0.0 if self._since is None else now - self._since

    # -- lines

    def receive(self, now: float, data: bytes) -> list[bytes]:
        """Take the bytes that arrived at ``now``; the commands to send back."""
        out: list[bytes] = []
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > MAX_LINE:
                    self._buffer.clear()
                    if not self._skipping:
                        self._skipping = True
                        self.bad += 1
                return out
            line = bytes(self._buffer[: end + 1])
            del self._buffer[: end + 1]
            if self._skipping:
                self._skipping = False  # the end of a line too long to take
                continue
            out += self.feed(now, line)

    def feed(self, now: float, line: bytes | str) -> list[bytes]:
        """Take one whole line; the commands to send back."""
        try:
            message = parse(line)
        except BadLine:
            self.bad += 1
            return []
        self.lines += 1
        if self._quiet_s(now) > self.silent_s and self._heard:
            self._outage = self._outage or "silent"
        self._since = now
        self._said_silent = False
        hello = message.kind == "hello"
        if hello and message.seq == 0:
            self._seq = None
            self._clock.reset()
            self._set_up = False  # it restarted: it reads at its defaults
        out: list[bytes] = []
        if self._clock.restarted(message.ms) and not hello and self.refused is None:
            out = self.setup()  # it restarted, and its hello was lost
        if self._seq is not None:
            self.lost += lost_between(self._seq, message.seq)
        self._seq = message.seq
        t = self._clock.host_time(now, message.ms)
        values = message.values
        if hello:
            return self._hello(values, fresh=message.seq == 0)
        if message.kind in ("ack", "nak"):
            return out + self._answer(message.kind, values["id"], values["detail"])
        if message.kind not in ("probes", "pads") or self.refused is not None:
            return out
        if values:
            self._back(now)
        if message.kind == "probes":
            self.sweeps += 1
            for probe, value in values.items():
                self.probes[probe] = (t, value, now)
                self._heard[probe] = now
        else:
            self.rounds += 1
            for channel, value in values.items():
                self._pads.append((t, pad_id(channel), value))
                self._heard[pad_id(channel)] = now
        return out

    def take_pads(self) -> list[tuple[float, str, Value]]:
        """Every pad word since the last call: (host time, pad id, value)."""
        taken = list(self._pads)
        self._pads.clear()
        return taken

    def _back(self, now: float) -> None:
        """The first readings after an outage: note each seat's gap since its last reading."""
        if self._outage is None:
            return
        why, self._outage = self._outage, None
        last: dict[int, float] = {}
        for sensor, heard in self._heard.items():
            seat = self.seat_of(sensor)
            if seat is not None:
                last[seat] = max(last.get(seat, heard), heard)
        reconnect = Reconnect(now, why, {s: round(now - t, 3) for s, t in sorted(last.items())})
        self.reconnects.append(reconnect)
        log.warning("%s", reconnect.sentence())

    def _hello(self, values: dict[str, str], fresh: bool) -> list[bytes]:
        """Refuse a pod of another protocol; set up one that has not been since it started.
        ``fresh``: the pod has just started (its first line), so its reset reason is news."""
        self.hello = dict(values)
        if self._set_up and self.refused is None:
            return []  # a hello again (the answer to ours): nothing changed
        proto = values.get("proto", "?")
        fw = values.get("fw", "?")
        if proto != str(PROTOCOL):
            self.refused = (
                f"the pod speaks protocol {proto} (firmware {fw}), this companion protocol "
                f"{PROTOCOL}: update the pod's firmware from firmware/pod/, or update companion"
            )
            log.error("%s", self.refused)
            return []
        self.refused = None
        log.info(
            "the pod on %s: firmware %s, protocol %s, %s probes, %s pads, started by %s",
            self.port,
            fw,
            proto,
            values.get("probes", "?"),
            values.get("pads", "?"),
            values.get("reset", "?"),
        )
        if fresh and values.get("reset") == "watchdog":
            log.warning(
                "the pod's watchdog restarted it: it hung (a pad's DOUT wire loose as it was "
                "read, or a stuck driver)"
            )
        self._set_up = True
        return self.setup()

    def setup(self) -> list[bytes]:
        """The commands that set the pod up as the config says."""
        return [self._command("set", word) for word in self.settings.words()]

    def _answer(self, kind: str, command_id: int, detail: str) -> list[bytes]:
        asked = self._pending.pop(command_id, None)
        if kind == "ack":
            return []
        if command_id == 0:  # a command of ours arrived garbled: which one is not known
            log.warning("the pod got a garbled command (%s): setting it up again", detail)
            return self.setup()
        log.warning("the pod refused %r: %s", asked or command_id, detail)
        return []

    def _command(self, verb: str, *words: str) -> bytes:
        command_id, self._next_id = self._next_id, self._next_id + 1
        self._pending[command_id] = " ".join((verb, *words))
        while len(self._pending) > 32:
            del self._pending[next(iter(self._pending))]
        return command(verb, command_id, *words)
