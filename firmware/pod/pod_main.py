"""The pod: its settings, the host's commands, and one pass of the loop that code.py repeats.

A pass never waits for a sensor: it answers commands, reads the pads that have a conversion,
sends a pads line when a round is due, and does one small piece of the probes' sweep.
"""

import time

from pod_line import FW, PROTO, is_name, unseal
from pod_link import Link
from pod_pads import GAINS, RATES, Pads
from pod_probes import CONVERSION_NS, Probes

DEFAULTS = {"resolution": 11, "sweep_ms": 2000, "gain": 128, "pad_hz": 10}
"""The settings after every start, until the host sets them again."""
SETTINGS = ("resolution", "sweep_ms", "gain", "pad_hz")
ALLOWED = {
    "resolution": ((9, 10, 11, 12), "9..12"),
    "sweep_ms": ((100, 60000), "100..60000"),
    "gain": (tuple(GAINS), "128, 64 or 32"),
    "pad_hz": (RATES, "10 or 80"),
}
"""Each setting's values (sweep_ms: its bounds), and how a nak names them."""
IDLE_S = 0.001
"""A pass that found nothing to do sleeps this long: USB and the sensors need no more."""
RESET_REASONS = (
    ("POWER_ON", "power-on"),
    ("WATCHDOG", "watchdog"),
    ("SOFTWARE", "software"),
    ("RESET_PIN", "reset-pin"),
    ("BROWNOUT", "brownout"),
)
"""microcontroller.ResetReason names -> the hello's ``reset=`` word; anything else is unknown."""


def reset_word(microcontroller) -> str:
    """Why the chip last started, as the hello says it."""
    reason = microcontroller.cpu.reset_reason
    for name, word in RESET_REASONS:
        if reason == getattr(microcontroller.ResetReason, name, RESET_REASONS):
            return word
    return "unknown"


class Pod:
    """The pod's state between passes; ``on_board()`` builds it from the board.

    It says hello whenever a host starts listening: at start, and when the port is opened again.
    """

    def __init__(self, link, probes, pads, identity):
        self.link = link
        self.probes = probes
        self.pads = pads
        self.identity = identity
        self.settings = dict(DEFAULTS)
        self._listened = False

    @classmethod
    def on_board(cls):
        """The pod on its pins (pod_pins), talking over usb_cdc.data."""
        import board
        import microcontroller
        import pod_pins
        import usb_cdc

        now = time.monotonic_ns()
        identity = [
            "board=%s" % board.board_id,
            "uid=%s" % "".join("%02X" % byte for byte in microcontroller.cpu.uid),
            "reset=%s" % reset_word(microcontroller),
        ]
        probes = Probes(pod_pins.ONE_WIRE, DEFAULTS["resolution"], now)
        pads = Pads(pod_pins.PADS, now)
        return cls(Link(usb_cdc.data), probes, pads, identity)

    def send(self, kind: str, words) -> None:
        """Send one line stamped with the pod's clock."""
        self.link.send(kind, time.monotonic_ns() // 1000000, words)

    def hello(self) -> None:
        """Say who the pod is and why it started."""
        words = ["fw=%s" % FW, "proto=%d" % PROTO, self.identity[0], self.identity[1]]
        words.append("probes=%d" % self.probes.found())
        words.append("pads=%d" % len(self.pads.pads))
        words.append(self.identity[2])
        self.send("hello", words)

    def step(self) -> None:
        """One pass of the loop: commands, pads, a pads round, a piece of the probes' sweep."""
        worked = False
        listening = self.link.listening()
        if listening and not self._listened:
            self.hello()
        self._listened = listening
        for raw in self.link.commands():
            self.command(raw)
            worked = True
        now = time.monotonic_ns()
        if self.pads.poll(now):
            worked = True
        words = self.pads.round(now)
        if words is not None:
            self.send("pads", words)
            worked = True
        if self.probes.step(now, self.settings["sweep_ms"] * 1000000):
            worked = True
        words = self.probes.sweep()
        if words is not None:
            self.send("probes", words)
        if not worked:
            time.sleep(IDLE_S)

    def command(self, raw) -> None:
        """Carry out one line from the host, or refuse it with a nak."""
        try:
            words = unseal(raw) if raw is not None else None
        except ValueError:
            words = None
        if words is None:
            self.send("nak", ["0", "checksum"])
            return
        verb = words[0]
        if not is_name(verb) or len(words) < 2 or not words[1].isdigit():
            self.send("nak", ["0", "format"])
            return
        ident, args = words[1], words[2:]
        if verb == "hello":
            self.hello()
        elif verb == "ping":
            self.send("pong", [ident])
        elif verb == "set":
            self.send(*self._set(ident, args))
        elif verb == "tare":
            self.send(*self._tare(ident, args))
        else:
            self.send("nak", [ident, "%s is not a command" % verb])

    def _set(self, ident: str, args):
        changes = {}
        for word in args:
            cut = word.find("=")
            key, value = word[:cut], word[cut + 1 :]
            if cut < 0 or key not in ALLOWED:
                continue
            values, allowed = ALLOWED[key]
            if not value.isdigit() or not _allowed(key, int(value), values):
                return "nak", [ident, "%s is not %s" % (word, allowed)]
            changes[key] = int(value)
        if not changes:
            return "nak", [ident, "nothing to set"]
        merged = dict(self.settings)
        merged.update(changes)
        conversion = CONVERSION_NS[merged["resolution"]]
        if merged["sweep_ms"] * 1000000 < conversion:
            reason = "sweep_ms=%d is shorter than a conversion at %d bits (%d ms)" % (
                merged["sweep_ms"],
                merged["resolution"],
                (conversion + 999999) // 1000000,
            )
            return "nak", [ident, reason]
        self._apply(changes)
        return "ack", [ident] + [
            "%s=%d" % (key, changes[key]) for key in SETTINGS if key in changes
        ]

    def _apply(self, changes) -> None:
        self.settings.update(changes)
        if "resolution" in changes:
            self.probes.set_resolution(changes["resolution"])
        if "gain" in changes:
            self.pads.set_gain(changes["gain"])
        if "pad_hz" in changes:
            self.pads.set_hz(changes["pad_hz"], time.monotonic_ns())

    def _tare(self, ident: str, args):
        channels = len(self.pads.pads)
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= channels:
            shown = args[0][:20] if args else "none"
            return "nak", [ident, "pad %s is not 1..%d" % (shown, channels)]
        channel = int(args[0])
        raw = self.pads.tare(channel)
        if raw is None:
            return "nak", [ident, "pad %d has no readings" % channel]
        return "ack", [ident, "tare", "ch=%d" % channel, "raw=%d" % raw]


def _allowed(key: str, value: int, values) -> bool:
    if key == "sweep_ms":
        return values[0] <= value <= values[1]
    return value in values


def crashed(error) -> None:
    """Print what went wrong on the console, then wait unfed: the watchdog restarts the pod."""
    try:
        import traceback

        traceback.print_exception(error)
    except ImportError:
        print("the pod stopped:", repr(error))
    while True:
        time.sleep(1)
