"""``companion sensors`` on a sensor pod: the command, as a process of its own, reads the pod's
real firmware running on simulated sensors (:class:`fakepod.FakePod`) through a pseudo-terminal,
the way it reads the real pod's USB data port."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from commandline import Companion
from fakepod import FakePod

from companion.sensors.pod_link import PodLink
from companion.sensors.pod_protocol import PROTOCOL

PROBES = [f"28-00000000000{n}" for n in range(1, 5)]


def pod_config(tmp_path: Path, port: Path) -> Path:
    config = tmp_path / "table.toml"
    config.write_text(f'[sensors]\nthermometers = "pod"\nscales = "pod"\npod_port = "{port}"\n')
    return config


def sensors_json(companion: Companion, tmp_path: Path, *argv: str) -> dict[str, Any]:
    config = pod_config(tmp_path, tmp_path / "pod")
    done = companion(
        "sensors", "--config", str(config), "--state-dir", str(tmp_path / "state"), *argv
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def by_seat(shown: dict[str, Any]) -> dict[tuple[int | None, str], dict[str, Any]]:
    return {(s["seat"], s["kind"]): s for s in shown["sensors"]}


@pytest.fixture
def pod(tmp_path: Path) -> Iterator[FakePod]:
    with FakePod(tmp_path).start() as fake:
        yield fake


def test_every_seat_s_probe_and_pad_read_from_the_pod(
    companion_process: Companion, tmp_path: Path, pod: FakePod
) -> None:
    shown = sensors_json(companion_process, tmp_path, "--once", "--json")
    seats = by_seat(shown)
    assert set(seats) == {(s, k) for s in (1, 2, 3, 4) for k in ("thermometer", "scale")}
    for seat in (1, 2, 3, 4):
        probe, pad = seats[(seat, "thermometer")], seats[(seat, "scale")]
        assert (probe["id"], probe["status"], pad["id"], pad["status"]) == (
            PROBES[seat - 1],
            "ok",
            f"pod:pad{seat}",
            "ok",
        )
        assert 18.0 < probe["value"] < 25.0
        assert abs(pad["raw"] - (-20_000 + 1000 * (seat - 1))) < 500
    status = shown["pod"]
    assert (status["firmware"], status["protocol"]) == ("1.0.0", str(PROTOCOL))
    assert (status["bad"], status["lost"], status["trouble"]) == (0, 0, None)
    assert status["lines"] >= 3 and status["last_gap"] is None


def test_faults_from_the_pod_are_each_seat_s_status(
    companion_process: Companion, tmp_path: Path, pod: FakePod
) -> None:
    pod.send("fault probe 2 crc")
    pod.send("fault pad 3 saturated")
    seats = by_seat(sensors_json(companion_process, tmp_path, "--once", "--json"))
    assert seats[(2, "thermometer")]["status"] == (
        "fault: CRC error: check the wiring and the 4.7 kOhm pull-up"
    )
    assert (
        seats[(3, "scale")]["status"] == "fault: saturated: check the load cell wiring or the load"
    )
    assert seats[(3, "scale")]["raw"] is None
    faulted = {(2, "thermometer"), (3, "scale")}
    assert all(s["status"] == "ok" for k, s in seats.items() if k not in faulted)


def test_a_pod_of_another_protocol_faults_every_seat_naming_both_versions(
    companion_process: Companion, tmp_path: Path
) -> None:
    with FakePod(tmp_path, proto=PROTOCOL + 1).start():
        seats = by_seat(sensors_json(companion_process, tmp_path, "--once", "--json"))
    assert {seat for seat, _ in seats} == {1, 2, 3, 4}
    for sensor in seats.values():
        assert f"protocol {PROTOCOL + 1}" in sensor["status"]
        assert f"protocol {PROTOCOL}:" in sensor["status"]


def test_the_table_shows_the_pod_s_line(
    companion_process: Companion, tmp_path: Path, pod: FakePod
) -> None:
    config = pod_config(tmp_path, tmp_path / "pod")
    done = companion_process(
        "sensors", "--config", str(config), "--state-dir", str(tmp_path / "state"), "--once"
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"Sensor pod on {tmp_path / 'pod'}: firmware 1.0.0, protocol 1; ")
    assert first.endswith(" 0 bad, 0 lost")


def test_a_second_opener_is_told_in_one_line(
    companion_process: Companion, tmp_path: Path, pod: FakePod
) -> None:
    with PodLink(str(tmp_path / "pod")):
        config = pod_config(tmp_path, tmp_path / "pod")
        done = companion_process("sensors", "--config", str(config), "--once")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "in use by another program" in done.stderr


def test_calibrate_while_the_daemon_holds_the_pod_points_to_the_referee_page(
    companion_process: Companion, tmp_path: Path, pod: FakePod
) -> None:
    with PodLink(str(tmp_path / "pod")):
        config = pod_config(tmp_path, tmp_path / "pod")
        state = tmp_path / "state"
        done = companion_process(
            "calibrate",
            "tare",
            "--all",
            "--yes",
            "--config",
            str(config),
            "--state-dir",
            str(state),
        )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "in use by another program" in done.stderr
    assert "from the daemon's referee page instead" in done.stderr
    assert not (state / "calibration.toml").exists()


def test_without_a_pod_every_seat_says_where_it_looked(
    companion_process: Companion, tmp_path: Path
) -> None:
    seats = by_seat(sensors_json(companion_process, tmp_path, "--once", "--json"))
    assert len(seats) == 8
    assert all(s["status"].startswith("fault: no sensor pod at ") for s in seats.values())
