"""The table config: which sensors, which pins, the seats, the cue pace and the filters.

A TOML file (``companion run --config table.toml``) whose every key has a default in code, so an
empty file, or none, is the built-in 4-seat table. Every mistake is refused with the file, the line,
the key and the fix; an unknown key is a mistake, not something to ignore, and names the closest
known key. The pin map is checked the way a person wiring the header would: each pin does one
thing, the 1-Wire bus pin is the overlay's alone, and every pin is a GPIO of the 40-pin header.

A passive (``tonal``) buzzer may sit on any GPIO: gpiozero's pin factories make PWM in software
(lgpio's ``tx_pwm``) on every pin, so the hardware-PWM pins (12, 13, 18, 19) are the default's
choice, not a rule.

>>> cfg = parse_config("table.toml", '[[seat]]\\nname = "Karen"\\n[[seat]]\\ncolour = "pink"')
>>> [(s.seat, s.name, s.colour) for s in cfg.seats]
[(1, 'Karen', 'blue'), (2, 'Seat 2', 'pink')]
>>> cfg.pins.seat_leds
(9, 25)
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple

from companion.datafile import DataFile, Key, number_problem
from companion.errors import DataFileError
from companion.sensors.filters import FILTERS

THERMOMETER_SOURCES = ("w1", "pod", "sim", "none")
SCALE_SOURCES = ("hx711", "pod", "sim", "none")
COLOURS = ("blue", "yellow", "green", "pink", "orange", "purple")
"""The cap colours a seat may have: Cool Runnings' four, then two more for six-seat games."""

JOINERS = frozenset("\u200c\u200d")
"""The two format characters a name may hold: the zero-width joiner that makes one emoji of
several (a family, a cook) and its non-joiner, which Persian and Indic names need."""


def unsafe_character(text: str) -> str | None:
    """What is wrong with the first character of ``text`` that a name shown on every phone must
    not hold, or ``None``: a control character (a newline, an escape), a line break, or an
    invisible format character, above all the bidirectional controls (U+202A..U+202E,
    U+2066..U+2069) that reverse how the text after them reads.

    >>> unsafe_character("Karen"), unsafe_character("👨\u200d🍳 Jo")
    (None, None)
    >>> unsafe_character("Tom\u202egnp.exe")
    'U+202E, a bidirectional control that changes how the text around it reads'
    >>> unsafe_character("A\x1b[31m")
    'U+001B, a control character'
    """
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf" and char not in JOINERS:
            if unicodedata.bidirectional(char) in BIDI_CONTROLS:
                kind = "a bidirectional control that changes how the text around it reads"
            else:
                kind = "an invisible format character"
        elif category == "Cc":
            kind = "a control character"
        elif category in ("Zl", "Zp"):
            kind = "a line break"
        elif category == "Cs":
            kind = "a lone surrogate"
        else:
            continue
        return f"U+{ord(char):04X}, {kind}"
    return None


BIDI_CONTROLS = frozenset({"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"})
"""The bidirectional classes of the explicit embeddings, overrides and isolates."""
SEAT_COUNTS = range(2, 7)
CONVERSION_S = {9: 0.09375, 10: 0.1875, 11: 0.375, 12: 0.75}
"""A DS18B20's conversion time at each resolution in bits."""
HX711_GAINS = (128, 64, 32)
HX711_RATES_HZ = (10, 80)
BUZZER_KINDS = ("tonal", "active")
GPIO_RANGE = range(2, 28)
"""BCM pins a part may use: 0 and 1 are the HAT ID EEPROM's, for HATs alone."""
PROBE_ID = re.compile(r"(10|22|28|3b|42)-[0-9a-f]{12}")
"""A 1-Wire thermometer's id as the kernel names it: family (DS18S20, DS1822, DS18B20, DS1825,
DS28EA00), a dash, 48 bits of serial number."""
SWEEP_MAX_S = 60.0


class HeaderPin(NamedTuple):
    physical: int
    label: str
    bcm: int | None


_ROWS = (
    ("3V3", "5V"),
    ("2:SDA", "5V"),
    ("3:SCL", "GND"),
    ("4", "14:TXD"),
    ("GND", "15:RXD"),
    ("17", "18:PWM0"),
    ("27", "GND"),
    ("22", "23"),
    ("3V3", "24"),
    ("10:MOSI", "GND"),
    ("9:MISO", "25"),
    ("11:SCLK", "8:CE0"),
    ("GND", "7:CE1"),
    ("0:ID_SD", "1:ID_SC"),
    ("5", "GND"),
    ("6", "12:PWM0"),
    ("13:PWM1", "GND"),
    ("19:PWM1", "16"),
    ("26", "20"),
    ("GND", "21"),
)
"""The header row by row as seen from above, pin 1 top left: a BCM number and its other use."""


def _header() -> tuple[HeaderPin, ...]:
    names = [name for row in _ROWS for name in row]
    pins = []
    for physical, name in enumerate(names, start=1):
        bcm, _, alt = name.partition(":")
        if bcm.isdigit():
            pins.append(
                HeaderPin(physical, f"GPIO{bcm} ({alt})" if alt else f"GPIO{bcm}", int(bcm))
            )
        else:
            pins.append(HeaderPin(physical, name, None))
    return tuple(pins)


HEADER: tuple[HeaderPin, ...] = _header()
"""The 40-pin header: (physical pin, label, BCM number or None for power and ground).

>>> HEADER[0], HEADER[6]
(HeaderPin(physical=1, label='3V3', bcm=None), HeaderPin(physical=7, label='GPIO4', bcm=4))
"""
PHYSICAL = {p.bcm: p.physical for p in HEADER if p.bcm is not None}


@dataclass(frozen=True)
class SensorsConfig:
    thermometers: str = "w1"
    w1_root: Path = Path("/sys/bus/w1/devices")
    scales: str = "hx711"
    resolution: int = 11
    sweep_s: float = 2.0
    hx711_gain: int = 128
    hx711_rate_hz: int = 10
    pod_port: str = ""
    zero_tracking: bool = True
    """Follow each empty pad's slow drift (:mod:`companion.sensors.zero_tracking`)."""
    air_c: float | None = None
    """The room's air, given: what a seat's model-only countdown runs on where no probe reads
    (``None``: unknown, and a seat without a pad shows no ice figure)."""

    @property
    def any(self) -> bool:
        """Whether the table has probes or pads of any kind (else: phones only)."""
        return self.thermometers != "none" or self.scales != "none"


@dataclass(frozen=True)
class Pins:
    """The pin map, BCM numbers; the per-seat lists hold one pin per seat of the table."""

    chip: int | None = None
    """The GPIO chip of the header: ``None`` lets gpiozero and rpi-lgpio find it (gpiochip0,
    or gpiochip4 on a Pi 5 with an older kernel)."""
    one_wire: int = 4
    hx711_clock: int = 27
    hx711_data: tuple[int, ...] = (22, 23, 24, 10)
    buzzer: int = 18
    buzzer_kind: Literal["tonal", "active"] = "tonal"
    seat_leds: tuple[int, ...] = (9, 25, 11, 8)
    led_bar: tuple[int, ...] = (7, 5, 6, 12, 13, 19, 16, 26, 20, 21)
    seat_buttons: tuple[int, ...] = (2, 3, 15, 17)


@dataclass(frozen=True)
class SeatConfig:
    seat: int
    name: str
    colour: str
    thermometer: str | None = None
    probe: bool = True
    """Whether the seat has a probe, when the table has probes (``[[seat]] probe = false``)."""
    pad: bool = True
    """Whether the seat has a pad, when the table has pads (``[[seat]] pad = false``)."""


ROOM_AIR_C = (-10.0, 50.0)
"""A room's air a table may be given (``--air-c``, ``[sensors] air_c``), from and to."""
COUNT_PACE_S = (0.2, 5.0)
"""A ten-count's seconds a count, from and to, wherever one is set: ``[cues] pace_s``, a game's
``count_pace_s`` and the referee's form (from :func:`.choices.setup`'s hints)."""


@dataclass(frozen=True)
class CuesConfig:
    pace_s: float = 0.8


@dataclass(frozen=True)
class NetworkConfig:
    """``[network]``: with ``hotspot``, a table away from any Wi-Fi makes its own, named
    ``ssid`` (:mod:`companion.network.hotspot`)."""

    hotspot: bool = False
    ssid: str = "companion-table"
    names: tuple[str, ...] = ()
    """More names the table answers to (a router's DNS name for it): see
    :mod:`companion.web.hosts`."""


TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
HOST_NAME = re.compile(r"(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?)+")
"""A host's name as DNS spells it."""
"""A table's id in MQTT topics: one topic level, lower case, no wildcard or separator."""


@dataclass(frozen=True)
class MqttConfig:
    """``[mqtt]``: the broker the table publishes to (:mod:`companion.mqtt`); its topics are
    ``companion/<table>/...``. The password is given inline or, better, in ``password_file``
    (readable by the service alone); ``ca_file`` turns on TLS, checked against that CA."""

    host: str
    port: int
    table: str
    name: str
    username: str = ""
    password: str = field(default="", repr=False)
    password_file: Path | None = None
    ca_file: Path | None = None
    keepalive_s: int = 30
    discovery: bool = True
    """Home Assistant's MQTT discovery, under ``discovery_prefix``."""
    discovery_prefix: str = "homeassistant"

    @property
    def tls(self) -> bool:
        return self.ca_file is not None

    def secret(self) -> str:
        """The password: ``password``, or the first line of ``password_file`` read now."""
        if self.password_file is None:
            return self.password
        lines = self.password_file.read_text(encoding="utf-8").splitlines()
        return lines[0] if lines else ""


@dataclass(frozen=True)
class FilterSpec:
    """One filter of a sensor's chain, by its ESPHome name, with the parameters given."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)


DEFAULT_FILTERS: Mapping[str, tuple[FilterSpec, ...]] = {
    "thermometer": (FilterSpec("median", {"window_size": 3, "send_every": 1}),),
    "scale": (
        FilterSpec("median", {"window_size": 5, "send_every": 1}),
        FilterSpec("sliding_window_moving_average", {"window_size": 5, "send_every": 1}),
    ),
}


@dataclass(frozen=True)
class GameFile:
    """A data file of the table's own box that the config names for a game (``[games.<game>]``
    ``<key> = "<path>"``): its path, resolved beside the config, and the config's line, for an
    error that the game's own check of the names finds later."""

    game: str
    key: str
    path: Path
    line: int | None


@dataclass(frozen=True)
class TableConfig:
    path: str | None
    sensors: SensorsConfig
    pins: Pins
    cues: CuesConfig
    filters: Mapping[str, tuple[FilterSpec, ...]]
    seats: tuple[SeatConfig, ...]
    network: NetworkConfig = NetworkConfig()
    mqtt: MqttConfig | None = None
    """Off (``None``) when the config has no ``[mqtt]``."""
    game_files: tuple[GameFile, ...] = ()
    """The data files of the table's own box (:mod:`companion.table.own_box` reads them)."""


@dataclass(frozen=True)
class PinUse:
    """One pin as a part uses it: ``key`` (and ``index`` in its list) of ``[pins]``."""

    bcm: int
    key: str
    index: int | None
    part: str
    label: str


_PER_SEAT = {"hx711_data": "HX711 data", "seat_leds": "LED", "seat_buttons": "button"}
_PARTS = {"hx711_data": "hx711", "seat_leds": "seat-led", "seat_buttons": "button"}


def pin_uses(sensors: SensorsConfig, pins: Pins) -> tuple[PinUse, ...]:
    """The pins the chosen sensors and the cues need, in header-independent order.

    >>> [u.label for u in pin_uses(SensorsConfig(scales="pod"), Pins())][:3]
    ['1-Wire bus', 'buzzer', 'seat 1 LED']
    """
    uses = []
    if sensors.thermometers == "w1":
        uses.append(PinUse(pins.one_wire, "one_wire", None, "one-wire", "1-Wire bus"))
    if sensors.scales == "hx711":
        uses.append(PinUse(pins.hx711_clock, "hx711_clock", None, "hx711", "HX711 clock"))
        uses += _seat_uses(pins, "hx711_data")
    uses.append(PinUse(pins.buzzer, "buzzer", None, "buzzer", "buzzer"))
    uses += _seat_uses(pins, "seat_leds")
    uses += (
        PinUse(pin, "led_bar", i, "led-bar", f"LED bar {i + 1}")
        for i, pin in enumerate(pins.led_bar)
    )
    uses += _seat_uses(pins, "seat_buttons")
    return tuple(uses)


def _seat_uses(pins: Pins, key: str) -> list[PinUse]:
    return [
        PinUse(pin, key, i, _PARTS[key], f"seat {i + 1} {_PER_SEAT[key]}")
        for i, pin in enumerate(getattr(pins, key))
    ]


_LOW: Mapping[str, float] = {
    "window_size": 1,
    "send_every": 1,
    "send_first_at": 1,
    "alpha": 0,
    "max_deviations": 0,
}


def default_config() -> TableConfig:
    """The built-in table: 4 seats on the default pin map, kernel probes and HX711 pads."""
    return _build(DataFile.parse("built-in defaults", ""), None)


def load_config(path: str | Path) -> TableConfig:
    """Read and check a table config; any problem is a :class:`DataFileError`."""
    return _build(DataFile.read(path), str(path))


def parse_config(name: str, text: str) -> TableConfig:
    """Check the text of a table config, ``name`` being what errors call the file."""
    return _build(DataFile.parse(name, text), name)


def _build(doc: DataFile, path: str | None) -> TableConfig:
    doc.known_keys(
        (),
        ("sensors", "pins", "cues", "filters", "network", "mqtt", "seat", "games"),
        "the table config",
    )
    for key in ("sensors", "pins", "cues", "filters", "network", "mqtt", "games"):
        if doc.has((key,)):
            doc.get((key,), dict)
    doc.known_keys(("cues",), CuesConfig.__dataclass_fields__, "[cues]")
    sensors = _sensors(doc)
    seats = _seats(doc)
    return TableConfig(
        path=path,
        sensors=sensors,
        pins=_pins(doc, sensors, len(seats)),
        cues=CuesConfig(
            pace_s=doc.number(("cues", "pace_s"), float, CuesConfig.pace_s, *COUNT_PACE_S)
        ),
        filters=_filters(doc),
        seats=seats,
        network=_network(doc),
        mqtt=_mqtt(doc, path),
        game_files=_game_files(doc, path),
    )


def _game_files(doc: DataFile, path: str | None) -> tuple[GameFile, ...]:
    """``[games.<game>]`` tables of ``<key> = "<file>"``: each file must be there to read."""
    here = Path(path).parent if path else Path()
    found = []
    for game, files in doc.get(("games",), dict, {}).items():
        if not isinstance(files, dict):
            doc.fail(
                ("games", game),
                f"games.{game} must be a table of files: [games.{game}], then a line like "
                'board = "my-board.toml"',
            )
        for key, given in files.items():
            if not isinstance(given, str) or not given.strip() or "\0" in given:
                doc.fail(("games", game, key), f"games.{game}.{key} must be a file's path")
            file = here / given
            if not file.is_file():
                doc.fail(
                    ("games", game, key),
                    f"games.{game}.{key}: {file} is not a file: give the path of your own data "
                    "file (copy the game's file from companion/games/data/ and edit the copy)",
                )
            found.append(GameFile(game, key, file, doc.line_of("games", game, key)))
    return tuple(found)


def _mqtt(doc: DataFile, path: str | None) -> MqttConfig | None:
    if not doc.has(("mqtt",)):
        return None
    doc.known_keys(("mqtt",), MqttConfig.__dataclass_fields__, "[mqtt]")
    if not doc.has(("mqtt", "host")):
        doc.fail(("mqtt",), '[mqtt] needs the broker\'s host, like host = "broker.local"')
    host = doc.get(("mqtt", "host"), str).strip()
    if not host or any(c.isspace() or c in "/#+" for c in host):
        doc.fail(("mqtt", "host"), "mqtt.host must be a host name or an address")
    table = doc.get(("mqtt", "table"), str, "table")
    if not TABLE_ID.fullmatch(table):
        doc.fail(
            ("mqtt", "table"),
            f"mqtt.table = {table!r} must be 1 to 40 of a-z, 0-9, - and _ (a topic level),"
            ' like "table-3"',
        )
    name = doc.get(("mqtt", "name"), str, table).strip()
    if not 1 <= len(name) <= 40 or unsafe_character(name) is not None:
        doc.fail(("mqtt", "name"), "mqtt.name must be 1 to 40 printable characters")
    here = Path(path).parent if path else Path()
    files: dict[str, Path | None] = {}
    for key in ("password_file", "ca_file"):
        given = doc.get(("mqtt", key), str, "")
        found = files[key] = (here / given) if given else None
        if found is not None and not found.is_file():
            doc.fail(("mqtt", key), f"mqtt.{key}: {found} is not a file: give its path")
    if doc.has(("mqtt", "password")) and files["password_file"] is not None:
        doc.fail(("mqtt", "password"), "give mqtt.password or mqtt.password_file, not both")
    username = doc.get(("mqtt", "username"), str, "")
    if (doc.has(("mqtt", "password")) or files["password_file"]) and not username:
        doc.fail(("mqtt",), 'a password needs its user: add username = "..." to [mqtt]')
    tls = files["ca_file"] is not None
    prefix = doc.get(("mqtt", "discovery_prefix"), str, MqttConfig.discovery_prefix)
    if not TABLE_ID.fullmatch(prefix):
        doc.fail(("mqtt", "discovery_prefix"), "mqtt.discovery_prefix must be one topic level")
    return MqttConfig(
        host=host,
        port=doc.number(("mqtt", "port"), int, 8883 if tls else 1883, 1, 65535),
        table=table,
        name=name,
        username=username,
        password=doc.get(("mqtt", "password"), str, ""),
        password_file=files["password_file"],
        ca_file=files["ca_file"],
        keepalive_s=doc.number(("mqtt", "keepalive_s"), int, MqttConfig.keepalive_s, 5, 600),
        discovery=doc.get(("mqtt", "discovery"), bool, MqttConfig.discovery),
        discovery_prefix=prefix,
    )


def _network(doc: DataFile) -> NetworkConfig:
    doc.known_keys(("network",), NetworkConfig.__dataclass_fields__, "[network]")
    d = NetworkConfig()
    ssid = doc.get(("network", "ssid"), str, d.ssid)
    if not 1 <= len(ssid.encode("utf-8")) <= 32 or not ssid.isprintable():
        doc.fail(("network", "ssid"), "[network] ssid must be 1 to 32 bytes of printable text")
    names = doc.get(("network", "names"), list, [])
    for name in names:
        if not isinstance(name, str) or not HOST_NAME.fullmatch(name):
            doc.fail(
                ("network", "names"),
                f'[network] names: {name!r} is not a host\'s name, like "tisch.lan"',
            )
    return NetworkConfig(
        hotspot=doc.get(("network", "hotspot"), bool, d.hotspot), ssid=ssid, names=tuple(names)
    )


def _sensors(doc: DataFile) -> SensorsConfig:
    doc.known_keys(("sensors",), SensorsConfig.__dataclass_fields__, "[sensors]")
    d = SensorsConfig()
    root = doc.get(("sensors", "w1_root"), str, str(d.w1_root))
    if not root.strip() or "\0" in root:
        doc.fail(("sensors", "w1_root"), "sensors.w1_root must be a directory's path")
    resolution = doc.number(("sensors", "resolution"), int, d.resolution, 9, 12)
    sweep = doc.number(("sensors", "sweep_s"), float, d.sweep_s, 0, SWEEP_MAX_S)
    if sweep < CONVERSION_S[resolution]:
        doc.fail(
            ("sensors", "sweep_s"),
            f"sensors.sweep_s = {sweep:g} is shorter than one conversion at {resolution} bits"
            f" ({CONVERSION_S[resolution]:g} s): make it at least that, or lower the resolution",
        )
    return SensorsConfig(
        thermometers=doc.choice(("sensors", "thermometers"), THERMOMETER_SOURCES, d.thermometers),
        w1_root=Path(root),
        scales=doc.choice(("sensors", "scales"), SCALE_SOURCES, d.scales),
        resolution=resolution,
        sweep_s=sweep,
        hx711_gain=doc.choice(("sensors", "hx711_gain"), HX711_GAINS, d.hx711_gain),
        hx711_rate_hz=doc.choice(("sensors", "hx711_rate_hz"), HX711_RATES_HZ, d.hx711_rate_hz),
        pod_port=doc.get(("sensors", "pod_port"), str, d.pod_port),
        zero_tracking=doc.get(("sensors", "zero_tracking"), bool, d.zero_tracking),
        air_c=doc.number(("sensors", "air_c"), float, None, *ROOM_AIR_C),
    )


def _seats(doc: DataFile) -> tuple[SeatConfig, ...]:
    if not doc.has(("seat",)):
        return tuple(SeatConfig(i, f"Seat {i}", COLOURS[i - 1]) for i in range(1, 5))
    entries = doc.get(("seat",), list)
    if not all(isinstance(e, dict) for e in entries):
        doc.fail(("seat",), "each seat is a [[seat]] table with name, colour and thermometer")
    if len(entries) not in SEAT_COUNTS:
        where = ("seat", len(entries) - 1) if entries else ("seat",)
        doc.fail(where, f"a table has 2 to 6 [[seat]] entries, not {len(entries)}")
    taken = {e["colour"] for e in entries if isinstance(e.get("colour"), str)}
    spare = iter(c for c in COLOURS if c not in taken)
    seats: list[SeatConfig] = []
    for i in range(len(entries)):
        doc.known_keys(
            ("seat", i), ("name", "colour", "thermometer", "probe", "pad"), f"[[seat]] {i + 1}"
        )
        name = doc.get(("seat", i, "name"), str, f"Seat {i + 1}").strip()
        if not 1 <= len(name) <= 40:
            doc.fail(
                ("seat", i, "name"), f"seat {i + 1}: the name must be 1 to 40 printable characters"
            )
        if (unsafe := unsafe_character(name)) is not None:
            doc.fail(
                ("seat", i, "name"),
                f"seat {i + 1}: the name holds {unsafe}: write the name without it",
            )
        colour = doc.choice(("seat", i, "colour"), COLOURS, None) or next(spare)
        probe = (
            doc.get(("seat", i, "thermometer"), str)
            if doc.has(("seat", i, "thermometer"))
            else None
        )
        if probe is not None and not PROBE_ID.fullmatch(probe):
            doc.fail(
                ("seat", i, "thermometer"),
                f"seat {i + 1}: thermometer {probe!r} is not a 1-Wire probe id: write it as"
                " /sys/bus/w1/devices lists it, like '28-0316a2794aff'",
            )
        for other in seats:
            for what, mine, theirs in (
                ("colour", colour, other.colour),
                ("thermometer", probe, other.thermometer),
            ):
                if mine is not None and mine == theirs:
                    doc.fail(
                        ("seat", i, what),
                        f"seat {i + 1} has the {what} {mine!r} of seat {other.seat}:"
                        f" each seat needs its own {what}",
                    )
        has_probe = doc.get(("seat", i, "probe"), bool, True)
        if probe is not None and not has_probe:
            doc.fail(
                ("seat", i, "probe"),
                f"seat {i + 1} names a thermometer and says probe = false: drop one of them",
            )
        has_pad = doc.get(("seat", i, "pad"), bool, True)
        seats.append(SeatConfig(i + 1, name, colour, probe, has_probe, has_pad))
    return tuple(seats)


def _pins(doc: DataFile, sensors: SensorsConfig, seat_count: int) -> Pins:
    doc.known_keys(("pins",), Pins.__dataclass_fields__, "[pins]")
    d = Pins()
    _check_header_fits(doc, sensors, seat_count)
    pins = Pins(
        chip=doc.number(("pins", "chip"), int, None, 0, 63),
        one_wire=_pin(doc, "one_wire", d.one_wire),
        hx711_clock=_pin(doc, "hx711_clock", d.hx711_clock),
        hx711_data=_pin_list(doc, "hx711_data", d.hx711_data, sensors, seat_count),
        buzzer=_pin(doc, "buzzer", d.buzzer),
        buzzer_kind=doc.choice(("pins", "buzzer_kind"), BUZZER_KINDS, d.buzzer_kind),
        seat_leds=_pin_list(doc, "seat_leds", d.seat_leds, sensors, seat_count),
        led_bar=_pin_list(doc, "led_bar", d.led_bar, sensors, seat_count),
        seat_buttons=_pin_list(doc, "seat_buttons", d.seat_buttons, sensors, seat_count),
    )
    _check_each_pin_once(doc, pin_uses(sensors, pins))
    return pins


def _check_header_fits(doc: DataFile, sensors: SensorsConfig, seat_count: int) -> None:
    """Refuse at once a table that cannot fit the header, whatever pins it names."""
    per_seat = 2 + (sensors.scales == "hx711")  # a LED and a button, and a pad's data pin
    shared = 1 + 10 + (sensors.scales == "hx711") + (sensors.thermometers == "w1")
    needed = shared + per_seat * seat_count
    if needed > len(GPIO_RANGE):
        doc.fail(
            ("seat", seat_count - 1),
            f"{seat_count} seats need {needed} GPIO pins with these sensors, the header has "
            f"{len(GPIO_RANGE)}: wire the probes and pads through the sensor pod "
            '(thermometers = "pod", scales = "pod"), or seat at most 4',
        )


def _pin(doc: DataFile, key: str, default: int) -> int:
    pin: int = doc.get(("pins", key), int, default)
    _check_on_header(doc, key, f"pins.{key} = {pin}", pin)
    return pin


def _pin_list(
    doc: DataFile, key: str, default: tuple[int, ...], sensors: SensorsConfig, seats: int
) -> tuple[int, ...]:
    """A per-seat list (or the bar's 10), as long as the table needs when its part is used."""
    used = key != "hx711_data" or sensors.scales == "hx711"
    want = 10 if key == "led_bar" else seats
    if not doc.has(("pins", key)):
        if used and len(default) < want:
            doc.fail(
                ("seat", want - 1),
                f"{seats} seats need {want} {key} pins, the default map has {len(default)}:"
                f" list {want} in [pins] {key}",
            )
        return default[:want]
    value = doc.get(("pins", key), object)
    if not isinstance(value, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in value
    ):
        doc.fail(("pins", key), f"pins.{key} must be a list of BCM pin numbers, like [22, 23]")
    if used and len(value) != want:
        needs = f"{seats} seats need {want} {key} pins"
        if key == "led_bar":
            needs = "the LED bar needs 10 pins"
        doc.fail(("pins", key), f"{needs}, the list has {len(value)}")
    for i, pin in enumerate(value):
        _check_on_header(doc, key, f"pins.{key} entry {i + 1} = {pin}", pin)
    return tuple(value)


def _check_on_header(doc: DataFile, key: str, ref: str, pin: int) -> None:
    use = f"use BCM {GPIO_RANGE[0]} to {GPIO_RANGE[-1]}"
    if pin in (0, 1):
        doc.fail(("pins", key), f"{ref} is a HAT ID EEPROM pin, which must stay free: {use}")
    if pin not in GPIO_RANGE:
        doc.fail(("pins", key), f"{ref} is not a GPIO of the 40-pin header: {use}")


def _check_each_pin_once(doc: DataFile, uses: tuple[PinUse, ...]) -> None:
    first: dict[int, PinUse] = {}
    for use in uses:
        if use.bcm not in first:
            first[use.bcm] = use
            continue
        earlier = first[use.bcm]
        line_key = use.key if doc.has(("pins", use.key)) else earlier.key
        if earlier.key == "one_wire":
            doc.fail(
                ("pins", line_key),
                f"pins.{use.key} puts the {use.label} on GPIO{use.bcm}, the 1-Wire bus pin"
                " (pins.one_wire): the w1-gpio overlay owns that pin, so choose another",
            )
        doc.fail(
            ("pins", line_key),
            f"GPIO{use.bcm} is used twice: for the {earlier.label} (pins.{earlier.key}) and the"
            f" {use.label} (pins.{use.key}): give each its own pin",
        )


def _filters(doc: DataFile) -> Mapping[str, tuple[FilterSpec, ...]]:
    doc.known_keys(("filters",), DEFAULT_FILTERS, "[filters]")
    chains = dict(DEFAULT_FILTERS)
    for kind in DEFAULT_FILTERS:
        if doc.has(("filters", kind)):
            chains[kind] = _chain(doc, kind)
    return chains


def _chain(doc: DataFile, kind: str) -> tuple[FilterSpec, ...]:
    keys: tuple[Key, ...] = ("filters", kind)
    entries = doc.get(keys, list)
    specs = []
    names: list[str] = []
    for entry in entries:
        if not isinstance(entry, dict) or len(entry) != 1:
            doc.fail(
                keys,
                f"filters.{kind} is a list of one-key tables,"
                " like [{median = {window_size = 5}}]",
            )
        ((name, given),) = entry.items()
        line = doc.line_of_word(keys, name, names.count(name))
        names.append(name)
        if name not in FILTERS:
            close = difflib.get_close_matches(name, sorted(FILTERS), n=1)
            hint = (
                f"did you mean {close[0]!r}?" if close else f"the filters are {', '.join(FILTERS)}"
            )
            raise DataFileError(
                doc.name,
                line or doc.line_of(*keys),
                f"unknown filter {name!r} in filters.{kind}: {hint}",
            )
        specs.append(FilterSpec(name, _params(doc, name, given, line or doc.line_of(*keys))))
    return tuple(specs)


def _params(doc: DataFile, name: str, given: Any, line: int | None) -> dict[str, Any]:
    kind = FILTERS[name]
    known = kind.parameters
    if not isinstance(given, dict):
        if len(known) != 1:
            raise DataFileError(
                doc.name, line, f"the {name} filter takes a table of {', '.join(known)}"
            )
        given = {next(iter(known)): given}
    params: dict[str, Any] = {}
    for param, value in given.items():
        if param not in known:
            close = difflib.get_close_matches(param, sorted(known), n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"it takes {', '.join(known)}"
            raise DataFileError(doc.name, line, f"unknown parameter {param!r} of {name}: {hint}")
        problem = _param_problem(param, known[param], value)
        if problem:
            raise DataFileError(doc.name, line, f"{name}'s {param} {problem}")
        if param == "datapoints":
            value = tuple((float(a), float(b)) for a, b in value)
        params[param] = float(value) if known[param] is float else value
    if kind.required and kind.required not in params:
        raise DataFileError(doc.name, line, f"the {name} filter needs {kind.required}")
    if params.get("send_first_at", 1) > params.get("send_every", kind.send_every or math.inf):
        raise DataFileError(doc.name, line, f"{name}'s send_first_at must not be above send_every")
    if params.get("min_value", -math.inf) > params.get("max_value", math.inf):
        raise DataFileError(doc.name, line, f"{name}'s min_value must not be above max_value")
    return params


def _param_problem(param: str, kind: type, value: Any) -> str | None:
    if kind is list:
        pairs = value if isinstance(value, list) else []
        good = len(pairs) >= 2 and all(
            isinstance(p, list)
            and len(p) == 2
            and all(number_problem(x, float, None, None) is None for x in p)
            for p in pairs
        )
        if not good or len({float(p[0]) for p in pairs}) < 2:
            return "must be a list of at least two [from, to] pairs with different froms"
        return None
    problem = number_problem(value, kind, _LOW.get(param), 1 if param == "alpha" else None)
    if problem is None and param in ("alpha", "max_deviations") and value == 0:
        return f"must be above 0, not {value!r}"
    return problem
