"""The table's own Wi-Fi network, against a fake ``nmcli`` on the PATH that records its
arguments (no NetworkManager or Wi-Fi here: docs/raspberry-pi.md says what was not tried on a
Pi)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from commandline import run

from bench.daemon import Daemon, start
from companion.network import hotspot

FAKE_NMCLI = """#!/bin/sh
echo "$*" >> "$NMCLI_LOG"
if [ -n "$NMCLI_FAIL" ]; then echo "Error: No Wi-Fi device found." >&2; exit 10; fi
case "$*" in *IP4.ADDRESS*) echo "10.42.0.1/24";; esac
"""


@pytest.fixture
def nmcli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake nmcli first on the PATH; the file its calls are written to."""
    folder = tmp_path / "bin"
    folder.mkdir()
    fake = folder / "nmcli"
    fake.write_text(FAKE_NMCLI)
    fake.chmod(0o755)
    log = tmp_path / "nmcli.log"
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("NMCLI_LOG", str(log))
    return log


def table_with_hotspot(tmp_path: Path) -> Daemon:
    """A simulated table whose config asks for its own network, started."""
    config = tmp_path / "table.toml"
    config.write_text(
        '[sensors]\nthermometers = "sim"\nscales = "sim"\n[network]\nhotspot = true\n'
    )
    return start(tmp_path / "state", "--config", str(config))


def test_the_hotspot_starts_with_a_password_kept_for_the_next_time(
    nmcli: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    first = hotspot.start("companion-table", state)
    again = hotspot.start("companion-table", state)
    assert first == again and first.address == "10.42.0.1"
    kept = state / hotspot.PASSWORD_FILE
    assert kept.read_text().strip() == first.password and len(first.password) == 14
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    calls = nmcli.read_text().splitlines()
    assert calls[0] == (
        f"device wifi hotspot con-name companion-hotspot ssid companion-table "
        f"password {first.password}"
    )
    assert calls[1] == "-g IP4.ADDRESS connection show companion-hotspot"
    assert hotspot.wifi_text("a;b", first.password) == f"WIFI:T:WPA;S:a\\;b;P:{first.password};;"


def test_nmcli_s_refusal_is_said_in_its_own_words(
    nmcli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NMCLI_FAIL", "1")
    with pytest.raises(hotspot.HotspotFailed, match="No Wi-Fi device found"):
        hotspot.start("companion-table", tmp_path)


def test_the_command_starts_and_stops_it(
    nmcli: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["hotspot", "--ssid", "Karen", "--state-dir", str(tmp_path)], capsys)
    assert code == 0, err
    assert "the Wi-Fi network 'Karen' is up" in out and "its password " in out
    assert "http://10.42.0.1:8080/" in out
    code, out, _ = run(["hotspot", "--off"], capsys)
    assert code == 0 and "down" in out
    assert nmcli.read_text().splitlines()[-1] == "connection down companion-hotspot"


def test_a_table_with_a_hotspot_serves_its_network_for_the_table_page(
    nmcli: Path, tmp_path: Path
) -> None:
    """``[network] hotspot = true``: the daemon starts the network and says so; the table page
    gets the network's QR code and its own address on it (a phone scans twice: the network,
    then its seat)."""
    daemon = table_with_hotspot(tmp_path)
    try:
        assert "hotspot: the Wi-Fi network 'companion-table' is up" in "".join(daemon.lines)
        shown = daemon.call("GET", "/api/hotspot").body
        assert shown["ssid"] == "companion-table" and len(shown["password"]) == 14
        assert shown["qr_svg"].startswith("<svg") and shown["table_url"].startswith("http://")
    finally:
        daemon.stop()


def test_a_table_whose_hotspot_fails_goes_on_without(
    nmcli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NMCLI_FAIL", "1")
    daemon = table_with_hotspot(tmp_path)
    try:
        assert "No Wi-Fi device found" in "".join(daemon.lines)
        assert daemon.call("GET", "/api/hotspot").status == 404
        assert daemon.call("GET", "/api/status").status == 200
    finally:
        daemon.stop()
