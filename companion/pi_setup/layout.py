"""Where ``companion install-service`` puts the service, and the files it writes from the
checkout's: the unit, with the layout's paths, and the table config it starts with.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.config import Pins, SensorsConfig
from companion.pi_setup.boot_config import BOOT_DIRS
from companion.sensors.sources import PI_MODEL

UNIT = "companion.service"
STATE_DIR = Path("/var/lib/companion")
"""The service's ``StateDirectory=``, and so its user's home."""


@dataclass(frozen=True)
class Layout:
    """Where the service goes: the venv, the config, where systemd and udev look, the state
    directory it keeps, and where the Pi's boot configuration and its model are."""

    prefix: Path = Path("/opt/companion")
    config_dir: Path = Path("/etc/companion")
    unit_dir: Path = Path("/etc/systemd/system")
    rules_dir: Path = Path("/etc/udev/rules.d")
    polkit_dir: Path = Path("/etc/polkit-1/rules.d")
    state_dir: Path = STATE_DIR
    boot_dirs: tuple[Path, ...] = BOOT_DIRS
    model: Path = PI_MODEL

    @property
    def executable(self) -> Path:
        return self.prefix / "bin" / "companion"

    @property
    def config(self) -> Path:
        return self.config_dir / "table.toml"


def render_unit(text: str, layout: Layout) -> str:
    """The unit with the layout's executable in ``ExecStart=`` (and its config, when it is not
    the ``/etc/companion`` that ``ConfigurationDirectory=`` gives and the service reads)."""
    config = "" if layout.config_dir == Layout().config_dir else f" --config {layout.config}"
    start = f"ExecStart={layout.executable} run{config}"
    lines = [start if line.startswith("ExecStart=") else line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def default_config_text(layout: Layout) -> str:
    """A config that is all comments, so the built-in table, showing the keys most changed."""
    s, p = SensorsConfig(), Pins()
    keys = [
        ("[sensors]", ""),
        (f'thermometers = "{s.thermometers}"', '"w1" | "pod" | "sim" | "none"'),
        (f'scales = "{s.scales}"', '"hx711" | "pod" | "sim" | "none"'),
        (f"resolution = {s.resolution}", "probe bits, 9..12"),
        ("", ""),
        ("[pins]", "BCM numbers"),
        (f"one_wire = {p.one_wire}", f"as config.txt says: dtoverlay=w1-gpio,gpiopin={p.one_wire}"),
        (f"hx711_clock = {p.hx711_clock}", ""),
        (f"buzzer = {p.buzzer}", ""),
        ("", ""),
        ("[network]", ""),
        ("hotspot = false", "true: the table makes its own Wi-Fi, away from any"),
        ('ssid = "companion-table"', "its name"),
        ("", ""),
        ("[[seat]]", "2 to 6 of them, in order round the table; none: 4 seats"),
        ('name = "Karen"', ""),
        ('colour = "blue"', ""),
        ('thermometer = "28-0316a2794aff"', "as /sys/bus/w1/devices lists it"),
        ("", ""),
        ("[[seat]]", ""),
        ('name = "Tom"', ""),
        ('colour = "yellow"', ""),
    ]
    body = "".join(
        f"# {key:<34}# {note}\n" if note else f"# {key}".rstrip() + "\n" for key, note in keys
    )
    return (
        "# The table: every key is optional, and this file as it is describes the built-in\n"
        "# 4-seat table wired to the Raspberry Pi's own pins. Uncomment and change what differs\n"
        "# at your table, then see the pin map it gives, and restart the service:\n"
        f"#   {layout.executable} wiring --config {layout.config}\n"
        "#   sudo systemctl restart companion\n"
        "#\n" + body
    )
