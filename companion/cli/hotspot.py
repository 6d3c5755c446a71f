"""``companion hotspot``: start (or, with ``--off``, stop) the table's own Wi-Fi network.

What ``[network] hotspot = true`` does at ``companion run``, by hand: NetworkManager starts the
access point (see :mod:`companion.network.hotspot`), and the command prints its name, its
password and, in a terminal, the QR code a phone's camera joins it with. Exit 0 when
NetworkManager did it; 2 with nmcli's own words when it could not.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import segno.helpers

from companion.cli.arguments import config_places, default_state_dir, folder
from companion.config import NetworkConfig, load_config
from companion.network import hotspot


def add_parser(sub: Any) -> None:
    p = sub.add_parser("hotspot", help="start the table's own Wi-Fi network (NetworkManager)")
    p.add_argument(
        "--ssid", help=f"the network's name (default: [network] ssid, or {NetworkConfig.ssid!r})"
    )
    p.add_argument("--off", action="store_true", help="stop the network instead")
    places = ", ".join(str(place) for place in config_places())
    p.add_argument("--config", type=Path, help=f"the table config (default: the first of {places})")
    p.add_argument(
        "--state-dir", type=folder, default=default_state_dir(), help="where its password is kept"
    )
    p.set_defaults(run=run)


def _configured(given: Path | None) -> NetworkConfig:
    """``[network]`` of the config given, else of the first found, else the defaults."""
    path = given or next((place for place in config_places() if place.is_file()), None)
    return load_config(path).network if path is not None else NetworkConfig()


def run(args: argparse.Namespace) -> int:
    if args.off:
        hotspot.stop()
        print("companion hotspot: the table's network is down")
        return 0
    network = hotspot.start(args.ssid or _configured(args.config).ssid, args.state_dir)
    print(f"companion hotspot: the Wi-Fi network {network.ssid!r} is up")
    print(f"companion hotspot: its password {network.password}")
    if network.address:
        print(
            f"companion hotspot: on it the table is at http://{network.address}:8080/ "
            "(or the port companion run was given)"
        )
    if sys.stdout.isatty():
        code = segno.helpers.make_wifi(ssid=network.ssid, password=network.password, security="WPA")
        code.terminal(compact=True, border=2)
    return 0
