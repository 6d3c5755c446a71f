"""The pin map of a table config, drawn for the person wiring it: a Markdown table and an SVG.

Both are pure and deterministic, so the files in ``wiring/`` can be checked against the default
config. Besides the GPIOs, each part gets the power it needs from the nearest suitable pin:
3V3 for the probes (and their 4.7 kΩ pull-up) and for the HX711 boards (at 5 V their DOUT would
be 5 V logic, too much for a GPIO), and a ground for everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from companion.config import GPIO_RANGE, HEADER, PHYSICAL, PinUse, TableConfig, pin_uses

PARTS = {
    "one-wire": ("DS18B20 probes (1-Wire)", "probes", "#b45309"),
    "hx711": ("HX711 load cells", "HX711 boards", "#2563eb"),
    "buzzer": ("Buzzer", "buzzer", "#9333ea"),
    "seat-led": ("Seat LEDs", "seat LEDs", "#16a34a"),
    "led-bar": ("LED bar", "LED bar", "#db2777"),
    "button": ("Seat buttons", "buttons", "#0891b2"),
}
"""Each part's name in the legend and in short, and its colour, in the order they are listed."""
POWER = {"3V3": "#ea580c", "5V": "#dc2626", "GND": "#111827"}
FREE = "#ffffff"
RESERVED = "#d1d5db"


def describe(use: PinUse, config: TableConfig) -> str:
    """What a pin connects to, in the words of the pin table."""
    seat = None if use.index is None else use.index + 1
    match use.key:
        case "one_wire":
            return "1-Wire data: every DS18B20's DQ, with the 4.7 kΩ pull-up to 3V3"
        case "hx711_clock":
            return "HX711 SCK of every seat's board (one shared clock)"
        case "hx711_data":
            return f"Seat {seat} load cell DOUT (HX711)"
        case "buzzer":
            if config.pins.buzzer_kind == "tonal":
                return "Buzzer + (passive piezo, PWM); its other leg to GND"
            return "Buzzer + (active buzzer); its other leg to GND"
        case "seat_leds":
            return (
                f"Seat {seat} LED anode through 330 Ω (100 Ω if blue, green, pink or white);"
                " cathode to GND"
            )
        case "led_bar":
            when = " (lit first)" if seat == 1 else " (lit last)" if seat == 10 else ""
            return f"LED bar segment {seat}{when} through 330 Ω; cathode to GND"
        case _:
            return f"Seat {seat} button; its other leg to GND (internal pull-up)"


def power_pins(uses: Iterable[PinUse]) -> dict[int, list[tuple[str, str]]]:
    """Physical power pins and what each feeds, in short and in full: the nearest 3V3 and ground.

    >>> from companion.config import default_config
    >>> cfg = default_config()
    >>> power_pins(pin_uses(cfg.sensors, cfg.pins))[1]
    [('probes', 'DS18B20 VDD, and the top of the 4.7 kΩ pull-up')]
    """
    by_part: dict[str, list[int]] = {}
    for use in uses:
        by_part.setdefault(use.part, []).append(PHYSICAL[use.bcm])
    feeds: dict[int, list[tuple[str, str]]] = {}
    for part, (_, short, _) in PARTS.items():
        if part not in by_part:
            continue
        physical = by_part[part]
        if part == "one-wire":
            supply = "DS18B20 VDD, and the top of the 4.7 kΩ pull-up"
            feeds.setdefault(_nearest("3V3", physical), []).append((short, supply))
        if part == "hx711":
            supply = "HX711 VCC and VDD (3V3, not 5 V)"
            feeds.setdefault(_nearest("3V3", physical), []).append((short, supply))
        feeds.setdefault(_nearest("GND", physical), []).append((short, f"GND for the {short}"))
    return dict(sorted(feeds.items()))


def _nearest(label: str, physical: list[int]) -> int:
    """The header pin named ``label`` nearest to the middle of the given pins."""
    row = sum((p - 1) // 2 for p in physical) / len(physical)
    col = sum((p - 1) % 2 for p in physical) / len(physical)
    candidates = [p.physical for p in HEADER if p.label == label]
    return min(
        candidates,
        key=lambda p: (abs((p - 1) // 2 - row) + abs((p - 1) % 2 - col), p),
    )


def pin_table(config: TableConfig) -> str:
    """The pin map as Markdown: physical pin, BCM, header label, what it connects to."""
    uses = pin_uses(config.sensors, config.pins)
    rows = {PHYSICAL[u.bcm]: (str(u.bcm), describe(u, config)) for u in uses}
    for physical, feeds in power_pins(uses).items():
        rows[physical] = ("", "; ".join(full for _, full in feeds))
    s = config.sensors
    buzzer = "a tonal" if config.pins.buzzer_kind == "tonal" else "an active"
    lines = [
        "# Pin map",
        "",
        f"The 40-pin header for thermometers `{s.thermometers}`, scales `{s.scales}`,"
        f" {len(config.seats)} seats",
        f"and {buzzer} buzzer. Pin is the physical pin (1 is the square pad); BCM is the number",
        "the config uses. Wire it with the Pi switched off; the guide is README.md.",
        "",
        "| Pin | BCM | Header | Connects to |",
        "|----:|----:|--------|-------------|",
    ]
    for pin in HEADER:
        if pin.physical in rows:
            bcm, what = rows[pin.physical]
            lines.append(f"| {pin.physical} | {bcm} | {pin.label} | {what} |")
    used = {u.bcm for u in uses}
    free = [f"GPIO{b} (pin {PHYSICAL[b]})" for b in sorted(set(GPIO_RANGE) - used)]
    lines += ["", f"Free: {', '.join(free) if free else 'none'}.", ""]
    if "pod" in (s.thermometers, s.scales):
        lines += [
            "The sensor pod plugs into any USB port of the Pi with a USB data cable (micro-USB",
            "at the Pico's end); what it reads is wired to the Pico, as the pod's pin map shows.",
            "",
        ]
    return "\n".join(lines)


_PITCH = 24
_LEFT_X, _RIGHT_X = 350, 374
_TOP = 70
_WIDTH = 724


def header_svg(config: TableConfig) -> str:
    """The 40-pin header seen from above, pin 1 top left, each used pin coloured and labelled."""
    uses = {PHYSICAL[u.bcm]: u for u in pin_uses(config.sensors, config.pins)}
    powered = power_pins(uses.values())
    height = _TOP + 20 * _PITCH + 24 + 22 * ((len(PARTS) + len(POWER) + 3) // 2)
    out = svg_start(
        config, _WIDTH, height, "Raspberry Pi 40-pin header, seen from above", title_y=28
    )
    out += [
        f'<rect x="{_LEFT_X - 16}" y="{_TOP - 16}" width="{_RIGHT_X - _LEFT_X + 32}"'
        f' height="{20 * _PITCH + 8}" rx="4" fill="#1f2937"/>',
    ]
    for pin in HEADER:
        out += _pin(pin.physical, pin.label, uses.get(pin.physical), powered.get(pin.physical))
    out += _legend(config, set(u.part for u in uses.values()), _TOP + 20 * _PITCH + 24)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pin(
    physical: int, label: str, use: PinUse | None, feeds: list[tuple[str, str]] | None
) -> list[str]:
    left = physical % 2 == 1
    x = _LEFT_X if left else _RIGHT_X
    y = _TOP + (physical - 1) // 2 * _PITCH
    if use is not None:
        fill, text, weight = PARTS[use.part][2], f"{label} · {use.label}", "bold"
    elif label in POWER:
        fill, text = POWER[label], label
        weight = "bold" if feeds else "normal"
        if feeds:
            text += " · " + ", ".join(short for short, _ in feeds)
    else:
        fill, text, weight = FREE if "ID_S" not in label else RESERVED, label, "normal"
    colour = "#111827" if use is not None or feeds else "#6b7280"
    light = fill in (FREE, RESERVED)
    return pin_svg(physical, x, y, fill, light, (text, weight, colour), left, gap=28)


def svg_start(config: TableConfig, width: int, height: int, title: str, title_y: int) -> list[str]:
    """An SVG's opening: its size, a white page, the title and the config it shows."""
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{width // 2}" y="{title_y}" text-anchor="middle" font-size="16"'
        f' font-weight="bold">{escape(title)}</text>',
        f'<text x="{width // 2}" y="{title_y + 20}" text-anchor="middle" fill="#4b5563">'
        f"thermometers {escape(config.sensors.thermometers)}, scales"
        f" {escape(config.sensors.scales)}, {len(config.seats)} seats</text>",
    ]


def pin_svg(
    physical: int,
    x: int,
    y: int,
    fill: str,
    light: bool,
    label: tuple[str, str, str],
    left: bool,
    gap: int,
) -> list[str]:
    """One pin: its mark (pin 1 square), its number, and ``label`` (text, weight, colour) beside
    it, on the outer side, ``gap`` from its centre."""
    text, weight, colour = label
    shape = (
        f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" fill="{fill}" stroke="#9ca3af"/>'
        if physical == 1
        else f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="#9ca3af"/>'
    )
    number = "#111827" if light else "#ffffff"
    tx, anchor = (x - gap, "end") if left else (x + gap, "start")
    return [
        shape,
        f'<text x="{x}" y="{y + 3}" text-anchor="middle" font-size="8" fill="{number}">'
        f"{physical}</text>",
        f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" font-weight="{weight}"'
        f' fill="{colour}">{escape(text)}</text>',
    ]


def legend_svg(entries: list[tuple[str, str]], top: int, left: int, column: int) -> list[str]:
    """A legend in two columns: a coloured dot and its name per entry."""
    out = []
    for i, (name, colour) in enumerate(entries):
        x = left + (i % 2) * column
        y = top + (i // 2) * 22
        out += [
            f'<circle cx="{x}" cy="{y}" r="7" fill="{colour}" stroke="#9ca3af"/>',
            f'<text x="{x + 16}" y="{y + 4}">{escape(name)}</text>',
        ]
    return out


def _legend(config: TableConfig, parts: set[str], top: int) -> list[str]:
    entries = [(name, colour) for part, (name, _, colour) in PARTS.items() if part in parts]
    entries += [("3V3", POWER["3V3"]), ("5V (unused)", POWER["5V"]), ("GND", POWER["GND"])]
    entries += [("HAT ID EEPROM (keep free)", RESERVED), ("free", FREE)]
    return legend_svg(entries, top, left=120, column=260)
