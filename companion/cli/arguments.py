"""What every command's arguments share: one-line errors, and checked argument types."""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.config import TableConfig


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (exit 2), not a usage block, and which takes
    no abbreviation: ``--simulat`` is a mistake, not ``--simulate`` (and a later option that
    shares a prefix cannot change what an old script meant)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def whole_number(minimum: int, what: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``.

    >>> whole_number(1)("3")
    3
    """

    def parse(text: str) -> int:
        label = f"{what} {text!r}".strip()
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{label} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{label} must be at least {minimum}")
        return value

    return parse


def number_in(
    kind: type[int] | type[float], low: float, high: float, what: str
) -> Callable[[str], Any]:
    """An argparse type: a number of ``kind`` from ``low`` to ``high``.

    >>> number_in(int, 1, 65535, "port")("8080")
    8080
    """

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} {text!r} is not a number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} {value:g} must be from {low:g} to {high:g}")
        return value

    return parse


positive_int = whole_number(1)
seed_int = whole_number(0, "seed")


def seconds(text: str) -> float:
    """An argparse type: a number of seconds from 0 to 10."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if math.isnan(value) or not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"{text!r} must be from 0 to 10 seconds")
    return value


def folder(text: str) -> Path:
    """An argparse type: a folder's path, not an empty one (which would be the current folder).

    >>> folder("")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: an empty path names no folder: give the folder's path
    """
    if not text.strip() or "\0" in text:
        raise argparse.ArgumentTypeError("an empty path names no folder: give the folder's path")
    return Path(text)


def host(text: str) -> str:
    """An argparse type: an address to listen on, IPv4 or IPv6, or a host's name.

    >>> host("0.0.0.0"), host("::"), host("tisch.local")
    ('0.0.0.0', '::', 'tisch.local')
    >>> host("127.0.0.1:5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: host '127.0.0.1:5' is not an address (give the port with --port)
    """
    from companion.config import HOST_NAME

    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        pass
    dotted_digits = all(part.isdigit() for part in text.split("."))
    if ":" in text or dotted_digits or not HOST_NAME.fullmatch(text):
        hint = " (give the port with --port)" if ":" in text and "." in text else ""
        raise argparse.ArgumentTypeError(f"host {text!r} is not an address{hint}")
    return text


CONFIG_NAME = "table.toml"
SYSTEM_CONFIG_DIR = Path("/etc/companion")


def default_state_dir() -> Path:
    """Where the daemon keeps its files: systemd's ``STATE_DIRECTORY``, else the XDG state home.

    >>> default_state_dir().name
    'companion'
    """
    given = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if given:
        return Path(given)
    home = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(home) / "companion"


def config_places() -> list[Path]:
    """Where a table config is looked for when no ``--config`` is given, in this order:
    systemd's ``CONFIGURATION_DIRECTORY`` (the unit's ``ConfigurationDirectory=companion``),
    ``/etc/companion``, then the XDG config home; each holds a ``table.toml``.

    >>> [str(p) for p in config_places()][-2:-1]
    ['/etc/companion/table.toml']
    """
    given = [Path(d) for d in os.environ.get("CONFIGURATION_DIRECTORY", "").split(":") if d]
    home = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    places = [*given, SYSTEM_CONFIG_DIR, Path(home) / "companion"]
    return list(dict.fromkeys(place / CONFIG_NAME for place in places))


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """``--config``, ``--simulate`` and ``--state-dir``: every command on the table's sensors."""
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help=(
            "the table config (TOML); without it, the first of "
            f"{', '.join(str(p) for p in config_places())} that exists"
        ),
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="use the simulated table, whatever the config says",
    )
    parser.add_argument(
        "--state-dir",
        type=folder,
        metavar="DIR",
        default=default_state_dir(),
        help="where calibration.toml and the game database live (default: %(default)s)",
    )


def table_config(args: argparse.Namespace) -> tuple[TableConfig, bool]:
    """The table config the options name, and whether to simulate it.

    Without ``--config`` (and without ``--simulate``, which means the built-in table) the first
    ``table.toml`` of :func:`config_places` is read, and the command says which on stderr. With
    none on a machine that is not a Raspberry Pi there is no hardware to read, so the built-in
    table is simulated, and the command says so on stderr too.
    """
    config, simulate = _table_config(args)
    no_sensors = getattr(args, "no_sensors", False)
    air_c = getattr(args, "air_c", None)
    if no_sensors or air_c is not None:
        sensors = config.sensors
        if no_sensors:
            sensors = dataclasses.replace(sensors, thermometers="none", scales="none")
        if air_c is not None:
            sensors = dataclasses.replace(sensors, air_c=air_c)
        config = dataclasses.replace(config, sensors=sensors)
    return config, simulate


def _table_config(args: argparse.Namespace) -> tuple[TableConfig, bool]:
    # Imported here, so that a command's parser (and ``companion --help``) costs no sensor code.
    from companion.config import default_config, load_config
    from companion.sensors.sources import on_raspberry_pi

    no_sensors = getattr(args, "no_sensors", False)
    if no_sensors and args.simulate:
        raise CompanionError(
            "--no-sensors is a table without probes or pads and --simulate one that simulates "
            "them: give one of the two"
        )
    if args.config is not None:
        return load_config(args.config), args.simulate
    if not args.simulate:
        found = next((place for place in config_places() if place.is_file()), None)
        if found is not None:
            print(f"companion: the table config {found} (no --config given)", file=sys.stderr)
            return load_config(found), False
    simulate = args.simulate or not (on_raspberry_pi() or no_sensors)
    if simulate and not args.simulate:
        print(
            "companion: no --config, no table.toml in /etc/companion or the config home, and "
            "no Raspberry Pi here: using the simulated 4-seat table (--no-sensors: phones only)",
            file=sys.stderr,
        )
    return default_config(), simulate
