"""The pin table and the header diagram: what they show, and that wiring/ holds the current ones."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.config import HEADER, PHYSICAL, default_config, parse_config, pin_uses
from companion.wiring import PARTS, header_svg, pin_table, power_pins

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
