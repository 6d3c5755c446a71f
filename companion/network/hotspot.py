"""A table away from any Wi-Fi makes its own: an access point through NetworkManager.

Raspberry Pi OS runs NetworkManager since bookworm, whose ``nmcli device wifi hotspot`` starts
a WPA2 access point with the Pi as its router (the phones get an address from it) in one
command. The password is made once and kept in the state directory (``hotspot-password``, mode
0600), so the phones that joined once join again; the table page shows the network's QR code
(``WIFI:T:WPA;S:...;P:...;;``, which a phone's camera offers to join) beside the table's own.

>>> wifi_text("companion-table", "abcd-efgh-jkmn")
'WIFI:T:WPA;S:companion-table;P:abcd-efgh-jkmn;;'
"""

from __future__ import annotations

import secrets
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import segno.helpers

from companion.errors import CompanionError
from companion.host.statedir import private_dir, private_file

PASSWORD_FILE = "hotspot-password"
CONNECTION = "companion-hotspot"
"""NetworkManager's name for the access point, so that it can be brought down by name."""
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""No 0/o, 1/l/i: a password someone may have to read off a screen and type."""


class HotspotFailed(CompanionError):
    """NetworkManager would not start (or stop) the access point; its own words follow."""


class NoHotspot(CompanionError):
    """The table made no network of its own (404)."""


@dataclass(frozen=True)
class Hotspot:
    """A running access point: its name, its password and the table's address on it."""

    ssid: str
    password: str
    address: str | None = None
    """The table's address on its own network (NetworkManager's shared mode: 10.42.0.1)."""


def wifi_text(ssid: str, password: str) -> str:
    """The text of the network's QR code (segno escapes ``;``, ``,``, ``:`` and ``\\``)."""
    return str(segno.helpers.make_wifi_data(ssid=ssid, password=password, security="WPA"))


def password(state_dir: Path) -> str:
    """The hotspot's password: the one kept in the state directory, else a new one kept there
    (12 letters and digits in three groups: about 59 bits, read off a screen without doubt)."""
    path = state_dir / PASSWORD_FILE
    try:
        kept = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        kept = ""
    if 8 <= len(kept) <= 63:
        return kept
    made = "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(3))
    private_dir(state_dir)
    private_file(path)
    path.write_text(made + "\n", encoding="utf-8")
    return made


def _nmcli(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["nmcli", *argv], capture_output=True, text=True, timeout=60, check=False
        )
    except FileNotFoundError:
        raise HotspotFailed(
            "nmcli is not here: the hotspot needs NetworkManager (Raspberry Pi OS has it since "
            "bookworm; sudo apt install network-manager)"
        ) from None
    except subprocess.TimeoutExpired:
        raise HotspotFailed("nmcli did not answer in 60 s") from None


def start(ssid: str, state_dir: Path) -> Hotspot:
    """Start the access point ``ssid`` with the kept password (``HotspotFailed`` else)."""
    hotspot = Hotspot(ssid, password(state_dir))
    named = ("con-name", CONNECTION, "ssid", ssid, "password", hotspot.password)
    _check(_nmcli(["device", "wifi", "hotspot", *named]), "start")
    shown = _nmcli(["-g", "IP4.ADDRESS", "connection", "show", CONNECTION])
    found = shown.stdout.split("|")[0].strip() if shown.returncode == 0 else ""
    address = found.split("/")[0] or None
    return Hotspot(hotspot.ssid, hotspot.password, address)


def _check(done: subprocess.CompletedProcess[str], what: str) -> None:
    if done.returncode != 0:
        said = (done.stderr or done.stdout or "").strip().splitlines()
        raise HotspotFailed(
            f"nmcli could not {what} the hotspot: {said[-1] if said else done.returncode}"
        )


def stop() -> None:
    """Bring the access point down (``HotspotFailed`` when NetworkManager refuses)."""
    _check(_nmcli(["connection", "down", CONNECTION]), "stop")
