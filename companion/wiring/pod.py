"""The sensor pod's pin map, drawn for the person wiring it: a Markdown table and a Pico's SVG.

The pod is a Raspberry Pi Pico whose pins are fixed by its firmware (``firmware/pod/pod_pins.py``,
which a test keeps equal to :data:`ONE_WIRE` and :data:`PADS`): one 1-Wire bus for every probe on
GP22, and a DOUT and an SCK of its own for each of the six pads. A table config only says which
of them are wired: the probes when ``thermometers = "pod"``, a pad per seat when
``scales = "pod"``. Every part is fed from the Pico's 3V3(OUT) pin, never from VBUS or VSYS (5 V
logic on DOUT would be too much for the RP2040), and from the ground pin nearest its wires.

>>> PICO[28]
PicoPin(physical=29, label='GP22', gp=22)
>>> PICO[35]
PicoPin(physical=36, label='3V3(OUT)', gp=None)
"""

from __future__ import annotations

from typing import NamedTuple

from companion.config import TableConfig
from companion.wiring import FREE, PARTS, POWER, legend_svg, pin_svg, svg_start


class PicoPin(NamedTuple):
    physical: int
    label: str
    gp: int | None


_SPECIAL = {
    3: "GND",
    8: "GND",
    13: "GND",
    18: "GND",
    23: "GND",
    28: "GND",
    30: "RUN",
    33: "AGND",
    35: "ADC_VREF",
    36: "3V3(OUT)",
    37: "3V3_EN",
    38: "GND",
    39: "VSYS",
    40: "VBUS",
}
"""The Pico's pins that are not a GPIO, by physical pin (the Pico datasheet's pinout)."""


def _pico() -> tuple[PicoPin, ...]:
    gps = iter((*range(0, 23), 26, 27, 28))
    pins = []
    for physical in range(1, 41):
        if physical in _SPECIAL:
            pins.append(PicoPin(physical, _SPECIAL[physical], None))
        else:
            gp = next(gps)
            pins.append(PicoPin(physical, f"GP{gp}", gp))
    return tuple(pins)


PICO: tuple[PicoPin, ...] = _pico()
"""The Pico's 40 pins: 1 to 20 down the left edge from the USB end, 21 to 40 up the right."""
PICO_PHYSICAL = {p.gp: p.physical for p in PICO if p.gp is not None}
ONE_WIRE = 22
"""The GP of the pod's 1-Wire bus."""
PADS: tuple[tuple[int, int], ...] = ((2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13))
"""(DOUT, SCK) GPs of pads 1 to 6: each HX711 board has a clock of its own."""
SUPPLY = 36
"""3V3(OUT): the Pico's own 3.3 V regulator, which feeds every probe and board."""
GROUND = 38
"""The GND pin beside 3V3(OUT): the box board's ground rail."""
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


class PodUse(NamedTuple):
    """One GPIO of the pod as the table uses it, or leaves it for another pad."""

    gp: int
    part: str
    pad: int | None
    label: str
    text: str
    wired: bool


def uses_pod(config: TableConfig) -> bool:
    """Whether the table reads any sensor through the pod."""
    return "pod" in (config.sensors.thermometers, config.sensors.scales)


def pod_uses(config: TableConfig) -> tuple[PodUse, ...]:
    """The pod's sensor GPIOs: the bus if its probes are used, all six pads' pins either way.

    >>> from companion.config import parse_config
    >>> cfg = parse_config("t.toml", '[sensors]\\nscales = "pod"\\n[[seat]]\\n[[seat]]')
    >>> [(u.gp, u.wired) for u in pod_uses(cfg)][:2], pod_uses(cfg)[4].text
    ([(2, True), (3, True)], "free: pad 3's DOUT (HX711), for a third seat")
    """
    uses = []
    if config.sensors.thermometers == "pod":
        count = len(config.seats)
        text = (
            f"1-Wire data: the DQ of every DS18B20 ({count} probes),"
            " with the 4.7 kΩ pull-up to 3V3(OUT)"
        )
        uses.append(PodUse(ONE_WIRE, "one-wire", None, "1-Wire bus", text, True))
    for pad, (dout, sck) in enumerate(PADS, start=1):
        wired = config.sensors.scales == "pod" and pad <= len(config.seats)
        for gp, pin in ((dout, "DOUT"), (sck, "SCK")):
            if wired:
                text = f"Pad {pad} (seat {pad}) HX711 {pin}"
            else:
                text = f"free: pad {pad}'s {pin} (HX711), for a {ORDINALS[pad - 1]} seat"
            uses.append(PodUse(gp, "hx711", pad, f"pad {pad} {pin}", text, wired))
    return tuple(uses)


def pod_power(uses: tuple[PodUse, ...]) -> dict[int, list[tuple[str, str]]]:
    """Power pins and what each feeds, in short and in full: 3V3(OUT), and the GND beside it.

    Every sensor's ground goes to the box board's GND rail, which one wire joins to the Pico's
    GND: all its GND pins are one, and the seat cable carries a single ground for a station's
    probe and pad.
    """
    wired = [u for u in uses if u.wired]
    supplies: list[tuple[str, str]] = []
    if any(u.part == "one-wire" for u in wired):
        supplies.append(("probes", "VDD of every DS18B20 and the top of the 4.7 kΩ pull-up"))
    if any(u.pad is not None for u in wired):
        supplies.append(("pads", "VCC and VDD of every HX711 board (3.3 V, never 5 V)"))
    if not supplies:
        return {}
    shorts = ", ".join(short for short, _ in supplies)
    return {
        SUPPLY: [(shorts, "; ".join(full for _, full in supplies))],
        GROUND: [
            (
                shorts,
                "the box board's GND rail: GND of every "
                + " and every ".join(_GROUNDED[short] for short, _ in supplies)
                + " (every GND pin of the Pico is the same ground)",
            )
        ],
    }


_GROUNDED = {"probes": "DS18B20", "pads": "HX711 board"}


def _position(physical: int) -> tuple[int, int]:
    """(row from the USB end, column: 0 left, 1 right) of a pin, seen from above."""
    return (physical - 1, 0) if physical <= 20 else (40 - physical, 1)


def pod_table(config: TableConfig) -> str:
    """The pod's pin map as Markdown: physical pin, GP, the Pico's label, what it connects to."""
    uses = pod_uses(config)
    rows = {PICO_PHYSICAL[u.gp]: (str(u.gp), u.text) for u in uses}
    for physical, feeds in pod_power(uses).items():
        rows[physical] = ("", "; ".join(full for _, full in feeds))
    s = config.sensors
    lines = [
        "# Pod pin map",
        "",
        f"The sensor pod's Raspberry Pi Pico for thermometers `{s.thermometers}`, scales"
        f" `{s.scales}`, {len(config.seats)} seats.",
        "Pin is the Pico's physical pin, seen from above with the USB socket at the top: 1 is top",
        "left, 20 bottom left, 21 bottom right, 40 top right. GP is the number the firmware uses",
        "(`firmware/pod/pod_pins.py`). Wire it unplugged; the guide is README.md.",
        "",
        "| Pin | GP | Pico | Connects to |",
        "|----:|---:|------|-------------|",
    ]
    for pin in PICO:
        if pin.physical in rows:
            gp, what = rows[pin.physical]
            lines.append(f"| {pin.physical} | {gp} | {pin.label} | {what} |")
    taken = {u.gp for u in uses}
    free = [f"GP{p.gp} (pin {p.physical})" for p in PICO if p.gp is not None and p.gp not in taken]
    lines += [
        "",
        f"Free: {', '.join(free)}.",
        "",
        "Leave VBUS (40) and VSYS (39) alone: they carry the 5 V of the Pi's USB port, and nothing",
        "here runs at 5 V. The pod's USB cable goes to any USB port of the Pi.",
        "",
    ]
    return "\n".join(lines)


_PITCH = 24
_LEFT_X, _RIGHT_X = 330, 430
_TOP = 100
_WIDTH = 760
_NOT_TO_WIRE = "#d1d5db"


def pod_svg(config: TableConfig) -> str:
    """The Pico seen from above, USB socket at the top, pin 1 top left, each used pin labelled."""
    uses = {PICO_PHYSICAL[u.gp]: u for u in pod_uses(config)}
    powered = pod_power(tuple(uses.values()))
    board_top, board_bottom = _TOP - 30, _TOP + 19 * _PITCH + 24
    height = board_bottom + 40 + 22 * 4
    title = "The sensor pod: a Raspberry Pi Pico seen from above"
    out = svg_start(config, _WIDTH, height, title, title_y=24)
    out += [
        f'<rect x="{_LEFT_X - 22}" y="{board_top}" width="{_RIGHT_X - _LEFT_X + 44}"'
        f' height="{board_bottom - board_top}" rx="6" fill="#166534"/>',
        f'<rect x="{(_LEFT_X + _RIGHT_X) // 2 - 18}" y="{board_top - 12}" width="36" height="22"'
        ' rx="3" fill="#9ca3af" stroke="#4b5563"/>',
        f'<text x="{(_LEFT_X + _RIGHT_X) // 2}" y="{board_top + 26}" text-anchor="middle"'
        ' font-size="10" fill="#ffffff">USB</text>',
    ]
    for pin in PICO:
        out += _pin(pin, uses.get(pin.physical), powered.get(pin.physical))
    out += _legend(set(u.part for u in uses.values() if u.wired), board_bottom + 30)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pin(pin: PicoPin, use: PodUse | None, feeds: list[tuple[str, str]] | None) -> list[str]:
    row, col = _position(pin.physical)
    x = _LEFT_X if col == 0 else _RIGHT_X
    y = _TOP + row * _PITCH
    text, weight, colour = pin.label, "normal", "#6b7280"
    if use is not None and use.wired:
        fill, text, weight, colour = (
            PARTS[use.part][2],
            f"{pin.label} · {use.label}",
            "bold",
            "#111827",
        )
    elif use is not None:
        fill, text = FREE, f"{pin.label} · {use.label} (free)"
    elif pin.label in ("GND", "AGND"):
        fill = POWER["GND"]
    elif pin.label == "3V3(OUT)":
        fill = POWER["3V3"]
    elif pin.gp is None:
        fill = _NOT_TO_WIRE
    else:
        fill = FREE
    if feeds:
        text += " · " + ", ".join(short for short, _ in feeds)
        weight, colour = "bold", "#111827"
    light = fill in (FREE, _NOT_TO_WIRE)
    return pin_svg(pin.physical, x, y, fill, light, (text, weight, colour), col == 0, gap=34)


def _legend(parts: set[str], top: int) -> list[str]:
    entries = [(name, colour) for part, (name, _, colour) in PARTS.items() if part in parts]
    entries += [("3V3(OUT): feeds every part", POWER["3V3"]), ("GND", POWER["GND"])]
    entries += [("free", FREE), ("power in, RUN, ADC reference: leave alone", _NOT_TO_WIRE)]
    return legend_svg(entries, top, left=140, column=280)
