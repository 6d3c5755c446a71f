"""The systemd unit and the udev rules: the lines the service depends on, and systemd's own checks.

``systemd-analyze`` and ``udevadm verify`` run where they are installed; elsewhere those tests
skip and say why.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import install_service
from companion.host import realtime
from companion.sensors import w1

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"
UNIT_TEXT = (SYSTEMD / "companion.service").read_text(encoding="utf-8")
RULES = SYSTEMD.parent / install_service.RULES_SOURCE
RULES_TEXT = RULES.read_text(encoding="utf-8")

Unit = dict[str, dict[str, list[str]]]


def parse_unit(text: str) -> Unit:
    """Sections, each key with all its values in order (a unit may repeat a key)."""
    unit: Unit = {}
    section: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = unit.setdefault(line.strip("[]"), {})
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not a KEY=value line: {line!r}"
        section.setdefault(key.strip(), []).append(value.strip())
    return unit


UNIT = parse_unit(UNIT_TEXT)
SERVICE = UNIT["Service"]


def one(key: str) -> str:
    values = SERVICE.get(key, [])
    assert len(values) == 1, f"{key} is set {len(values)} times"
    return values[0]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("Type", "notify"),
        ("NotifyAccess", "main"),
        ("WatchdogSec", "30"),
        ("Restart", "on-failure"),
        ("RestartSec", "2"),
        ("User", install_service.USER),
        ("Group", install_service.USER),
        ("SupplementaryGroups", install_service.GPIO_GROUP),
        ("StateDirectory", install_service.STATE_DIR.name),
        ("StateDirectoryMode", "0700"),
        ("UMask", "0077"),
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("DevicePolicy", "closed"),
        ("ProtectKernelTunables", "yes"),
        ("ProtectKernelModules", "yes"),
        ("ProtectControlGroups", "yes"),
        ("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"),
        ("RestrictNamespaces", "yes"),
        ("LockPersonality", "yes"),
        ("MemoryDenyWriteExecute", "yes"),
        ("SystemCallArchitectures", "native"),
    ],
)
def test_the_service_sets(key: str, value: str) -> None:
    assert one(key) == value


def test_it_starts_what_install_service_installs_and_is_started_at_boot() -> None:
    layout = install_service.Layout()
    assert one("ExecStart") == f"{layout.executable} run"  # it reads /etc/companion/table.toml
    assert Path("/etc") / one("ConfigurationDirectory") == layout.config.parent
    assert Path("/var/lib") / one("StateDirectory") == install_service.STATE_DIR
    assert UNIT["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_gpio_chips_and_the_pod_are_the_only_devices_allowed() -> None:
    assert SERVICE["DeviceAllow"] == ["char-gpiochip rw", "char-ttyACM rw"]
    assert "PrivateDevices" not in SERVICE


def test_only_the_1_wire_bus_master_is_writable_under_sys() -> None:
    assert SERVICE["ReadWritePaths"] == ["-/sys/devices/w1_bus_master1"]


def test_the_workers_may_take_their_real_time_priority_without_a_capability() -> None:
    assert int(one("LimitRTPRIO")) >= realtime.FIFO_PRIORITY
    assert int(one("LimitNICE")) <= realtime.NICE
    assert one("CapabilityBoundingSet") == "" and one("AmbientCapabilities") == ""
    assert SERVICE.get("RestrictRealtime", ["no"]) == ["no"]
    filters = SERVICE["SystemCallFilter"]
    assert filters[0] == "@system-service"
    assert not any("@resources" in f or "sched_setscheduler" in f for f in filters[1:])


def test_lgpio_has_a_writable_working_directory() -> None:
    assert one("WorkingDirectory") == f"%t/{one('RuntimeDirectory')}"


def test_the_udev_rules_are_the_one_the_w1_driver_asks_for() -> None:
    assert w1.UDEV_RULE in RULES_TEXT.splitlines()
    assert "chgrp " + install_service.USER in w1.UDEV_RULE
    assert (SYSTEMD.parent / w1.RULES_FILE).read_text(encoding="utf-8") == RULES_TEXT


def test_the_pod_gets_a_stable_name_by_vendor_id() -> None:
    rules = [line for line in RULES_TEXT.splitlines() if line and not line.startswith("#")]
    assert any('SYMLINK+="companion-pod"' in line for line in rules)
    vendors = next(re.search(r'ID_VENDOR_ID}!="([^"]+)"', r) for r in rules if "ID_VENDOR_ID" in r)
    assert vendors is not None and set(vendors.group(1).split("|")) == {"2e8a", "239a"}


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.skip("systemd-analyze is not installed here")
    return found


def runnable_unit(tmp_path: Path) -> Path:
    """The unit with ``ExecStart`` on a stand-in, since verify checks the program exists."""
    program = tmp_path / "companion"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    unit = tmp_path / "companion.service"
    text = UNIT_TEXT.replace("ExecStart=/opt/companion/bin/companion", f"ExecStart={program}")
    unit.write_text(text, encoding="utf-8")
    return unit


def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    unit = runnable_unit(tmp_path)
    done = subprocess.run(
        [systemd_analyze(), "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    about_us = [
        line for line in (done.stdout + done.stderr).splitlines() if "companion" in line.lower()
    ]
    assert (done.returncode, about_us) == (0, [])


def test_systemd_analyze_security_rates_the_unit_well_exposed_less_than_3(tmp_path: Path) -> None:
    unit = runnable_unit(tmp_path)
    done = subprocess.run(
        [systemd_analyze(), "security", "--offline=yes", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for companion\.service: ([\d.]+)", done.stdout)
    if found is None:
        pytest.skip(f"systemd-analyze security --offline does not work here: {done.stderr[:200]}")
    assert float(found.group(1)) < 3.0


def test_udevadm_verify_finds_nothing_to_say() -> None:
    udevadm = shutil.which("udevadm")
    if udevadm is None:
        pytest.skip("udevadm is not installed here")
    rules = RULES
    done = subprocess.run(
        [udevadm, "verify", "--resolve-names=never", str(rules)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if "Unknown command verb" in done.stderr:
        pytest.skip("this udevadm has no verify (systemd 254 added it)")
    about_us = [
        line for line in (done.stdout + done.stderr).splitlines() if f"{rules.name}:" in line
    ]
    assert (done.returncode, about_us) == (0, [])
