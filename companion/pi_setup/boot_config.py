"""What a table needs in the Raspberry Pi's boot configuration, ``config.txt``, and the step of
``companion install-service`` that adds it.

The firmware reads ``/boot/firmware/config.txt`` (``/boot/config.txt`` before Raspberry Pi OS
Bookworm) once, at boot. A table whose probes are on the kernel's 1-Wire bus (``thermometers =
"w1"``) needs the bus's overlay there, ``dtoverlay=w1-gpio,gpiopin=N`` with the config's ``[pins]
one_wire`` (``firmware/pi/config.txt``); the HX711 pads, the cues and the sensor pod need no line.

A line is added only where none that applies to this Pi is there yet: the file's conditional
sections (``[pi4]``, ``[cm5]``, ``[none]``, ``[all]`` ...) are read as the firmware reads them, by
the model the device tree names. A 1-Wire overlay already there on another pin is left as it is,
and said. The file is copied beside itself once, before its first change, and written whole or
not at all (a temp file, fsync, rename: the boot partition is FAT, so its modes are left alone).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from companion.config import TableConfig, default_config, load_config
from companion.sensors.sources import on_raspberry_pi

BOOT_DIRS = (Path("/boot/firmware"), Path("/boot"))
"""Where config.txt is: Bookworm's place first, then the older one."""
CONFIG_TXT = "config.txt"
BACKUP_SUFFIX = ".companion-bak"
"""The copy made before the first change: ``config.txt.companion-bak``."""
ONE_WIRE_OVERLAYS = ("w1-gpio", "w1-gpio-pullup")
ONE_WIRE_DEFAULT_PIN = 4
"""The overlays' own default ``gpiopin``."""
MODEL_FILTERS = {
    "pi0": r"Zero",
    "pi0w": r"Zero (2 )?W",
    "pi02": r"Zero 2",
    "pi1": r"^Raspberry Pi (Model|Compute Module Rev)",
    "pi2": r"^Raspberry Pi 2 ",
    "pi3": r"^Raspberry Pi (3 |Compute Module 3)",
    "pi3+": r"^Raspberry Pi (3 Model [AB] Plus|Compute Module 3 Plus)",
    "pi4": r"^Raspberry Pi (4 |400|Compute Module 4)",
    "pi400": r"^Raspberry Pi 400",
    "cm4": r"Compute Module 4\b",
    "cm4s": r"Compute Module 4S",
    "pi5": r"^Raspberry Pi (5 |500|Compute Module 5)",
    "pi500": r"^Raspberry Pi 500",
    "cm5": r"Compute Module 5",
}
"""config.txt's model filters, each as the models it applies to (by the device tree's name)."""


def pi_model(model: Path) -> str | None:
    """The model ``model`` (``/proc/device-tree/model``) names, when it names a Raspberry Pi
    (:func:`~companion.sensors.sources.on_raspberry_pi`): config.txt's sections are read by it."""
    if not on_raspberry_pi(model):
        return None
    try:
        name = model.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        return None
    return name


def one_wire_line(pin: int) -> str:
    """The overlay line for a 1-Wire bus on GPIO ``pin``.

    >>> one_wire_line(4)
    'dtoverlay=w1-gpio,gpiopin=4'
    """
    return f"dtoverlay={ONE_WIRE_OVERLAYS[0]},gpiopin={pin}"


def needed(config: TableConfig) -> tuple[str, ...]:
    """The lines a table with ``config`` needs in config.txt (``firmware/pi/config.txt``)."""
    if config.sensors.thermometers == "w1":
        return (one_wire_line(config.pins.one_wire),)
    return ()


def applies(section: str, model: str) -> bool | None:
    """Whether one filter, ``[section]``, applies to ``model``: ``None`` for a filter of another
    kind (a screen's EDID, a GPIO's level, tryboot...), which cannot be known before the boot.

    >>> applies("pi4", "Raspberry Pi 400 Rev 1.0"), applies("pi5", "Raspberry Pi 4 Model B")
    (True, False)
    >>> applies("cm4", "Raspberry Pi Compute Module 4S Rev 1.0"), applies("gpio4=1", "x") is None
    (False, True)
    """
    pattern = MODEL_FILTERS.get(section.lower())
    if pattern is None:
        return False if section.lower() == "none" else None
    return re.search(pattern, model) is not None


@dataclass(frozen=True)
class Reading:
    """What config.txt says, for this Pi: the 1-Wire buses' pins among the lines that apply,
    and whether the section in force at the file's end is a conditional one."""

    one_wire_pins: tuple[int, ...]
    open_section: bool


def read(text: str, model: str) -> Reading:
    """config.txt's ``text`` as the firmware of ``model`` reads it.

    >>> pi4 = "Raspberry Pi 4 Model B Rev 1.4"
    >>> read("dtoverlay=w1-gpio\\n[pi5]\\ndtoverlay=w1-gpio,gpiopin=17\\n", pi4)
    Reading(one_wire_pins=(4,), open_section=True)
    >>> read("[pi4]\\ndtoverlay=w1-gpio-pullup\\ndtparam=gpiopin=5\\n[all]\\n", pi4)
    Reading(one_wire_pins=(5,), open_section=False)
    """
    filters: dict[str, bool | None] = {}
    pins: list[int] = []
    overlay: int | None = None  # the place in ``pins`` a dtparam= line sets, after a w1 overlay
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            if section.lower() == "all":
                filters.clear()
            else:  # a filter of the same kind replaces the last; kinds add up
                filters[_kind(section)] = applies(section, model)
            overlay = None
            continue
        in_force = all(value is True for value in filters.values())
        key, _, value = line.partition("=")
        if key.strip() == "dtoverlay":
            overlay = None
            name, *params = value.strip().split(",")
            if in_force and name.strip() in ONE_WIRE_OVERLAYS:
                pins.append(_pin(params, ONE_WIRE_DEFAULT_PIN))
                overlay = len(pins) - 1
        elif key.strip() == "dtparam" and overlay is not None and in_force:
            pins[overlay] = _pin(value.split(","), pins[overlay])
    return Reading(tuple(pins), bool(filters))


def _kind(section: str) -> str:
    """What kind of filter ``[section]`` is: the model, or the name before its ``=`` or ``:``."""
    if section.lower() in MODEL_FILTERS or section.lower() == "none":
        return "model"
    return re.split(r"[=:]", section, maxsplit=1)[0].lower()


def _pin(params: Sequence[str], pin: int) -> int:
    """The ``gpiopin=`` among an overlay's parameters, else ``pin``."""
    for param in params:
        name, _, value = param.partition("=")
        if name.strip() == "gpiopin" and value.strip().isdigit():
            pin = int(value)
    return pin


@dataclass(frozen=True)
class BootLines:
    """The step that adds ``lines`` to config.txt (``path``), after a copy of it in ``backup``;
    ``done`` when it has all it needs, ``note`` a line that says why when that is not plain."""

    what: str
    path: Path
    lines: tuple[str, ...]
    done: bool = False
    note: str | None = None

    @property
    def why(self) -> str:
        then = "" if self.done else " (a reboot starts it)"
        return f"add {self.what} to the Pi's boot configuration{then}"

    @property
    def reboot(self) -> str:
        """The line that says a reboot is needed, and why, once the lines are added."""
        return f"reboot (sudo reboot) to start {self.what}: the Pi reads {self.path} at boot only"

    @property
    def backup(self) -> Path:
        return self.path.with_name(self.path.name + BACKUP_SUFFIX)

    def show(self, out: TextIO) -> None:
        if self.note:
            print(f"    {self.note}", file=out)
        elif self.done:
            print("    already done", file=out)
        if self.done:
            return
        keep = "" if self.backup.exists() else f", after a copy of it as {self.backup.name}"
        print(f"    {self.path}: add at its end{keep}:", file=out)
        out.writelines(f"    + {line}\n" for line in self.lines)

    def do(self, runner: object = None) -> None:
        text = self.path.read_text(encoding="utf-8")
        if not self.backup.exists():
            _replace(self.backup, text)
        if text and not text.endswith("\n"):
            text += "\n"
        _replace(self.path, text + "".join(f"{line}\n" for line in self.lines))


def _replace(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all, keeping the folder's own modes (a FAT boot folder
    refuses a chmod)."""
    temp = path.with_name(f".{path.name}.companion-new")
    with open(temp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def find(boot_dirs: Sequence[Path]) -> Path | None:
    """The config.txt the firmware reads: in the first of ``boot_dirs`` that has one."""
    return next((d / CONFIG_TXT for d in boot_dirs if (d / CONFIG_TXT).is_file()), None)


def steps(config: TableConfig, boot_dirs: Sequence[Path], model: str) -> Iterator[BootLines]:
    """The step that gives config.txt what ``config`` needs on a Pi of ``model``: none when it
    needs nothing."""
    wanted = needed(config)
    if not wanted:
        return
    pin = config.pins.one_wire
    what = f"the probes' 1-Wire bus on GPIO{pin}"
    path = find(boot_dirs)
    if path is None:
        places = " or ".join(str(d) for d in boot_dirs)
        yield BootLines(
            what,
            boot_dirs[0] / CONFIG_TXT,
            wanted,
            done=True,
            note=f"no {CONFIG_TXT} in {places}: add '{wanted[0]}' to the Pi's by hand",
        )
        return
    try:
        found = read(path.read_text(encoding="utf-8"), model)
    except (OSError, UnicodeDecodeError) as exc:
        yield BootLines(what, path, wanted, done=True, note=f"cannot read {path}: {exc}")
        return
    if pin in found.one_wire_pins:
        yield BootLines(what, path, wanted, done=True)
        return
    if found.one_wire_pins:
        there = ", ".join(f"GPIO{p}" for p in found.one_wire_pins)
        yield BootLines(
            what,
            path,
            wanted,
            done=True,
            note=(
                f"{path.name} has a 1-Wire bus on {there}, the table config's [pins] one_wire is "
                f"{pin}: no second bus added; make the two agree"
            ),
        )
        return
    header = ("[all]",) if found.open_section else ()
    comment = "# companion: the probes' 1-Wire bus (companion install-service added it)"
    yield BootLines(what, path, (*header, comment, *wanted))


def for_table(config: Path, boot_dirs: Sequence[Path], model: Path) -> list[BootLines]:
    """What the table config ``config`` (the built-in one while there is none) needs added to
    config.txt, on the Pi whose device tree names its model in ``model``."""
    name = pi_model(model)
    if name is None:
        return []
    table = load_config(config) if config.exists() else default_config()
    return list(steps(table, boot_dirs, name))
