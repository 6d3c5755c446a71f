"""The Pi's and the pod's pin tables and diagrams: what they show, and that wiring/ holds them."""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.config import HEADER, PHYSICAL, default_config, load_config, parse_config, pin_uses
from companion.wiring import PARTS, header_svg, pin_table, power_pins
from companion.wiring import pod as wiring_pod

WIRING = Path(__file__).resolve().parents[1] / "wiring"
REGENERATE = "regenerate them with: make wiring"
SVG = "{http://www.w3.org/2000/svg}"
POD = parse_config(
    "pod.toml",
    '[sensors]\nthermometers = "pod"\nscales = "pod"\n[pins]\nbuzzer_kind = "active"\n'
    "[[seat]]\n[[seat]]\n[[seat]]\n",
)


def rows(table: str) -> dict[int, list[str]]:
    """The Markdown table's rows by physical pin: [BCM, header label, connects to]."""
    found = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and cells[0].isdigit():
            found[int(cells[0])] = cells[1:]
    return found


def test_wiring_pins_md_is_the_table_of_the_default_config() -> None:
    stored = (WIRING / "pins.md").read_text(encoding="utf-8")
    assert stored == pin_table(default_config()), f"wiring/pins.md is stale: {REGENERATE}"


def test_wiring_header_svg_is_the_diagram_of_the_default_config() -> None:
    stored = (WIRING / "header.svg").read_text(encoding="utf-8")
    assert stored == header_svg(default_config()), f"wiring/header.svg is stale: {REGENERATE}"


def test_the_table_has_a_row_for_every_used_pin_saying_what_it_connects_to() -> None:
    cfg = default_config()
    table = rows(pin_table(cfg))
    for use in pin_uses(cfg.sensors, cfg.pins):
        bcm, label, what = table[PHYSICAL[use.bcm]]
        assert bcm == str(use.bcm) and label.startswith(f"GPIO{use.bcm}")
        assert what
    assert table[15][2] == "Seat 1 load cell DOUT (HX711)"
    assert table[7][2].startswith("1-Wire data") and "4.7 kΩ" in table[7][2]
    assert "Free: GPIO14 (pin 8)." in pin_table(cfg)


def test_the_table_names_the_power_the_parts_need() -> None:
    table = rows(pin_table(default_config()))
    power = {pin: cells[2] for pin, cells in table.items() if not cells[0]}
    assert {HEADER[p - 1].label for p in power} == {"3V3", "GND"}
    assert "5V" not in {HEADER[p - 1].label for p in table}
    supplies = " ".join(power.values())
    assert "DS18B20 VDD" in supplies and "pull-up" in supplies
    assert "HX711 VCC and VDD (3V3, not 5 V)" in supplies
    for _, short, _ in PARTS.values():
        assert f"GND for the {short}" in supplies


def test_a_pod_table_shows_no_sensor_pins_and_frees_them() -> None:
    table = pin_table(POD)
    assert "HX711" not in table and "1-Wire" not in table and "DS18B20" not in table
    assert "active buzzer" in table and "3 seats" in table
    assert "GPIO4 (pin 7)" in table.split("Free:")[1]
    assert len(rows(table)) == 1 + 3 + 10 + 3 + len(power_pins(pin_uses(POD.sensors, POD.pins)))


@pytest.mark.parametrize("cfg", [default_config(), POD], ids=["default", "pod"])
def test_the_svg_is_valid_xml_with_40_pins_and_pin_1_square(cfg: object) -> None:
    root = ET.fromstring(header_svg(cfg))  # type: ignore[arg-type]
    assert root.tag == f"{SVG}svg"
    pins = [e for e in root.iter() if e.tag in (f"{SVG}circle", f"{SVG}rect")]
    squares = [e for e in pins if e.tag == f"{SVG}rect" and e.get("width") == "16"]
    assert len(squares) == 1
    texts = [e.text or "" for e in root.iter(f"{SVG}text")]
    assert {str(n) for n in range(1, 41)} <= set(texts)


def test_every_used_pin_is_labelled_and_every_part_is_in_the_legend() -> None:
    cfg = default_config()
    svg = header_svg(cfg)
    texts = [e.text or "" for e in ET.fromstring(svg).iter(f"{SVG}text")]
    for use in pin_uses(cfg.sensors, cfg.pins):
        assert any(t.startswith(f"GPIO{use.bcm}") and t.endswith(use.label) for t in texts)
    for name, _, colour in PARTS.values():
        assert name in texts and colour in svg
    assert "3V3 · probes" in texts and header_svg(cfg) == svg


POD_BUILD = load_config(WIRING / "pod-build.toml")
POD_PINS = Path(__file__).resolve().parents[1] / "firmware" / "pod" / "pod_pins.py"


def firmware_pins() -> tuple[int, list[tuple[int, int]]]:
    """The pod's pins as its firmware names them: ``board.GPn`` read with ast, not imported."""

    def gp(node: ast.expr) -> int:
        assert isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        assert node.value.id == "board" and node.attr.startswith("GP"), ast.dump(node)
        return int(node.attr[2:])

    found: dict[str, ast.expr] = {}
    for stmt in ast.parse(POD_PINS.read_text(encoding="utf-8")).body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            found[stmt.targets[0].id] = stmt.value
    pads = found["PADS"]
    assert isinstance(pads, ast.Tuple)
    pairs = []
    for pair in pads.elts:
        assert isinstance(pair, ast.Tuple) and len(pair.elts) == 2
        pairs.append((gp(pair.elts[0]), gp(pair.elts[1])))
    return gp(found["ONE_WIRE"]), pairs


def test_the_pod_map_is_the_firmware_s() -> None:
    one_wire, pads = firmware_pins()
    assert one_wire == wiring_pod.ONE_WIRE
    assert tuple(pads) == wiring_pod.PADS


def test_the_pico_pinout_is_the_datasheet_s() -> None:
    pins = {p.physical: p.label for p in wiring_pod.PICO}
    assert [pins[n] for n in (1, 2, 3, 4, 20, 21, 29, 30, 31, 34, 36, 40)] == [
        "GP0", "GP1", "GND", "GP2", "GP15", "GP16", "GP22", "RUN", "GP26", "GP28", "3V3(OUT)",
        "VBUS",
    ]  # fmt: skip
    assert [n for n, label in pins.items() if label == "GND"] == [3, 8, 13, 18, 23, 28, 38]
    assert sorted(p.gp for p in wiring_pod.PICO if p.gp is not None) == [*range(23), 26, 27, 28]
    assert wiring_pod.PICO_PHYSICAL[22] == 29


def test_the_built_in_pod_build_is_the_default_table_with_both_sensors_on_the_pod() -> None:
    default = default_config()
    sensors = replace(default.sensors, thermometers="pod", scales="pod")
    assert replace(POD_BUILD, path=None) == replace(default, sensors=sensors)


@pytest.mark.parametrize(
    ("name", "render"),
    [
        ("pod-pins.md", wiring_pod.pod_table),
        ("pod.svg", wiring_pod.pod_svg),
        ("pins-pod-build.md", pin_table),
        ("header-pod-build.svg", header_svg),
    ],
)
def test_wiring_holds_the_current_pod_build_files(name: str, render: Any) -> None:
    stored = (WIRING / name).read_text(encoding="utf-8")
    assert stored == render(POD_BUILD), f"wiring/{name} is stale: {REGENERATE}"


def test_the_pod_table_lists_all_six_pads_and_marks_the_unwired_free() -> None:
    table = rows(wiring_pod.pod_table(POD_BUILD))
    assert table[4] == ["2", "GP2", "Pad 1 (seat 1) HX711 DOUT"]
    assert table[12] == ["9", "GP9", "Pad 4 (seat 4) HX711 SCK"]
    for pin in (14, 15, 16, 17):
        assert table[pin][2].startswith("free: pad ")
    assert table[29][2].startswith("1-Wire data") and "(4 probes)" in table[29][2]
    assert "4.7 kΩ" in table[29][2] and "3V3(OUT)" in table[29][2]
    supply = table[36][2]
    assert "DS18B20" in supply and "HX711" in supply and "never 5 V" in supply
    grounds = {pin: cells[2] for pin, cells in table.items() if cells[1] == "GND"}
    assert list(grounds) == [38], "one ground rail, beside 3V3(OUT), for every sensor"
    assert "every DS18B20 and every HX711 board" in grounds[38]
    assert 39 not in table and 40 not in table


def test_six_seats_wire_every_pad_and_the_probes_alone_leave_the_pads_free() -> None:
    six = parse_config(
        "six.toml",
        '[sensors]\nthermometers = "pod"\nscales = "pod"\n'
        "[pins]\nseat_leds = [9, 25, 11, 8, 4, 27]\nseat_buttons = [2, 3, 15, 17, 22, 23]\n"
        + "[[seat]]\n"
        * 6,
    )
    table = rows(wiring_pod.pod_table(six))
    assert table[17][2] == "Pad 6 (seat 6) HX711 SCK" and "(6 probes)" in table[29][2]
    probes = rows(wiring_pod.pod_table(parse_config("p.toml", '[sensors]\nthermometers = "pod"')))
    pads = [cells[2] for cells in probes.values() if cells[0] and cells[0] != "22"]
    assert len(pads) == 12 and all(text.startswith("free: pad") for text in pads)
    assert probes[36][2] == "VDD of every DS18B20 and the top of the 4.7 kΩ pull-up"
    assert "HX711" not in probes[38][2]


def test_the_pi_table_of_a_pod_build_points_to_the_pod() -> None:
    assert "USB port of the Pi" in pin_table(POD_BUILD)
    assert "USB" not in pin_table(default_config())


def test_the_pod_svg_is_valid_xml_with_40_pins_labelled_and_pin_1_square() -> None:
    svg = wiring_pod.pod_svg(POD_BUILD)
    root = ET.fromstring(svg)
    squares = [e for e in root.iter(f"{SVG}rect") if e.get("width") == "16"]
    assert len(squares) == 1
    assert len(list(root.iter(f"{SVG}circle"))) == 39 + 6  # the other pins, and the legend
    texts = [e.text or "" for e in root.iter(f"{SVG}text")]
    assert {str(n) for n in range(1, 41)} <= set(texts)
    for label in ("GP2 · pad 1 DOUT", "GP22 · 1-Wire bus", "3V3(OUT) · probes, pads", "RUN"):
        assert label in texts
    assert "GP10 · pad 5 DOUT (free)" in texts
    for name, _, colour in (PARTS["one-wire"], PARTS["hx711"]):
        assert name in texts and colour in svg
