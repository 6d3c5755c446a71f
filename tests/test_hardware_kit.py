"""The kit a maker follows: the bills of materials, the guides' links, the Pi's files.

The BOMs are CSV a spreadsheet opens (part, quantity, what to look for, price per piece); the
build guide's totals must be their sums. Every link of the three guides must reach a file, and a
heading where it names one. The udev rules must read as udev lines, and the overlay shown in the
guide must be the one shipped (and compile, where ``dtc`` is installed).
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from companion.cli import install_service
from companion.config import Pins

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
PI = ROOT / "firmware" / "pi"
GUIDES = [HARDWARE / "README.md", PI / "README.md", ROOT / "wiring" / "README.md"]
HEADER = ["part", "quantity", "what to look for", "typical price EUR"]
BOMS = ["bom-direct.csv", "bom-pod.csv"]
LINK = re.compile(r"\]\(([^)\s]+)\)")
RULE_PAIR = re.compile(r'([A-Z_]+(?:\{[^}]+\})?)(==|!=|\+=|-=|:=|=)"([^"]*)"')


def bom(name: str) -> list[dict[str, str]]:
    with open(HARDWARE / name, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == HEADER, f"{name}: the header must be {','.join(HEADER)}"
    return [dict(zip(HEADER, row, strict=True)) for row in rows[1:]]


def total(name: str) -> Decimal:
    return sum((int(r["quantity"]) * Decimal(r["typical price EUR"]) for r in bom(name)), Decimal())


@pytest.mark.parametrize("name", BOMS)
def test_every_bom_row_has_a_part_a_positive_quantity_and_a_price(name: str) -> None:
    rows = bom(name)
    assert len(rows) >= 20
    for row in rows:
        assert row["part"].strip() and row["what to look for"].strip(), row
        assert re.fullmatch(r"[1-9]\d*", row["quantity"]), f"{name}: {row['part']}: quantity"
        assert re.fullmatch(r"\d+\.\d\d", row["typical price EUR"]), f"{name}: {row['part']}"
        assert Decimal(row["typical price EUR"]) > 0, row["part"]
    parts = [r["part"] for r in rows]
    assert len(parts) == len(set(parts)), f"{name}: a part listed twice"


@pytest.mark.parametrize("name", BOMS)
def test_each_build_has_four_stations_and_the_table(name: str) -> None:
    quantity = {r["part"]: int(r["quantity"]) for r in bom(name)}
    for part in ("bar load cell", "HX711", "DS18B20", "Push button", "RJ45", "Cat 5e", "LED, 5 mm"):
        found = [p for p in quantity if part in p]
        assert len(found) == 1, f"{name}: {part}: {found}"
        assert quantity[found[0]] in (4, 8), f"{name}: {found[0]}"
    for part in ("Raspberry Pi 4", "power supply", "microSD", "buzzer", "bar graph", "4.7 kOhm"):
        assert any(part in p for p in quantity), f"{name}: no {part}"
    assert (name == "bom-pod.csv") == any("Pico" in p for p in quantity)


def test_the_guide_s_totals_are_the_sums_of_the_boms() -> None:
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    stated = dict(re.findall(r"\[`(bom-[a-z]+\.csv)`\]\(\1\): (\d+\.\d\d) EUR", text))
    assert sorted(stated) == BOMS
    for name, amount in stated.items():
        assert Decimal(amount) == total(name), f"hardware/README.md says {amount} for {name}"
    difference = total("bom-pod.csv") - total("bom-direct.csv")
    assert f"costs {difference:.2f} EUR more" in " ".join(text.split())


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", text, flags=re.S), flags=re.M)
    return {slug(h) for h in headings}


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_the_guides_reaches_a_file(guide: Path) -> None:
    links = LINK.findall(guide.read_text(encoding="utf-8"))
    assert links
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        target, _, anchor = link.partition("#")
        path = (guide.parent / target).resolve() if target else guide
        assert path.exists(), f"{guide.relative_to(ROOT)} links to {link}, which is not there"
        if anchor:
            assert anchor in anchors(path), f"{guide.relative_to(ROOT)}: no heading for {link}"


def rule_lines() -> list[tuple[int, str]]:
    text = (ROOT / install_service.RULES_SOURCE).read_text(encoding="utf-8")
    return [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_udev_rules_are_key_op_value_pairs() -> None:
    for number, line in rule_lines():
        assert not line.endswith("\\"), f"line {number}: no continuation lines"
        pairs = line.split(", ")
        for pair in pairs:
            assert RULE_PAIR.fullmatch(pair), f'line {number}: {pair!r} is not KEY op "value"'


def test_the_pod_s_data_port_is_companion_pod_and_its_console_the_other() -> None:
    rules = [dict((k, (op, v)) for k, op, v in RULE_PAIR.findall(line)) for _, line in rule_lines()]
    finds = next(r for r in rules if "ATTRS{product}" in r)
    assert finds["ATTRS{product}"] == ("==", "companion sensor pod")
    data = next(r for r in rules if r.get("SYMLINK") == ("+=", "companion-pod"))
    console = next(r for r in rules if r.get("SYMLINK") == ("+=", "companion-pod-console"))
    assert data["ATTRS{interface}"] == ("==", "CircuitPython CDC2 control")
    assert console["ATTRS{interface}"] == ("==", "CircuitPython CDC control")
    for rule in (data, console):
        assert rule["GROUP"] == ("=", install_service.USER) and rule["MODE"] == ("=", "0660")
    for rule in rules:
        attrs = [key for key in rule if key.startswith("ATTRS{")]
        same_device = {"ATTRS{product}", "ATTRS{idVendor}", "ATTRS{idProduct}"}
        assert len(attrs) <= 1 or set(attrs) <= same_device, f"ATTRS of two devices: {attrs}"
    gpio = next(r for r in rules if r.get("KERNEL") == ("==", "gpiochip*"))
    assert gpio["GROUP"] == ("=", install_service.GPIO_GROUP)


def test_config_txt_enables_the_1_wire_bus_on_the_default_pin_and_nothing_else() -> None:
    lines = (PI / "config.txt").read_text(encoding="utf-8").splitlines()
    active = [line for line in lines if line.strip() and not line.startswith("#")]
    assert active == [f"dtoverlay=w1-gpio,gpiopin={Pins().one_wire}"]


def test_the_overlay_in_the_guide_is_the_shipped_one() -> None:
    shipped = (PI / "companion-hx711.dts").read_text(encoding="utf-8")
    shown = re.search(r"```dts\n(.*?)```", (PI / "README.md").read_text(encoding="utf-8"), re.S)
    assert shown is not None
    assert shipped[shipped.index("/dts-v1/;") :] == shown.group(1)
    for needed in ('"avia,hx711"', "sck-gpios", "dout-gpios", "avdd-supply", "clock-frequency"):
        assert needed in shipped


def test_the_overlay_compiles(tmp_path: Path) -> None:
    dtc = shutil.which("dtc")
    if dtc is None:
        pytest.skip("dtc (device-tree-compiler) is not installed here")
    out = tmp_path / "companion-hx711.dtbo"
    done = subprocess.run(
        [dtc, "-@", "-I", "dts", "-O", "dtb", "-o", str(out), str(PI / "companion-hx711.dts")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "") and out.stat().st_size > 0
