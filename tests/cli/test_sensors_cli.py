"""``companion sensors``: the simulated table, a real w1 tree with every fault, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commandline import run
from w1tree import FAULTS, W1Tree

from companion.sensors.calibration import Calibration, SeatCalibration
from companion.sensors.lock import pads_lock


def sensors(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    return run(["sensors", "--state-dir", str(tmp_path / "state"), *argv], capsys)


def test_the_simulated_table_shows_four_seats_with_plausible_values(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = sensors(capsys, tmp_path, "--simulate", "--json", "--once")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["simulated"] is True
    by_kind: dict[str, list[dict]] = {"thermometer": [], "scale": []}
    for sensor in shown["sensors"]:
        assert set(sensor) == {"seat", "kind", "id", "raw", "value", "status", "zero_g"}
        assert sensor["status"] == "ok"
        by_kind[sensor["kind"]].append(sensor)
    assert [s["seat"] for s in by_kind["thermometer"]] == [1, 2, 3, 4]
    assert [s["seat"] for s in by_kind["scale"]] == [1, 2, 3, 4]
    assert all(15.0 < s["value"] < 30.0 for s in by_kind["thermometer"])
    pads = [s["value"] for s in by_kind["scale"]]
    assert 8.0 < pads[0] < 11.0  # seat 1 weighs in first: its cap and a fresh cube
    assert all(abs(g) < 0.2 for g in pads[1:])  # the others wait their turn
    assert all(isinstance(s["raw"], int) for s in shown["sensors"])
    assert all(s["zero_g"] is None for s in shown["sensors"])  # no pad held still 4 s yet


def test_without_json_it_prints_a_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = sensors(capsys, tmp_path, "--simulate", "--once")
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0].split()[:3] == ["seat", "sensor", "id"]
    assert len(lines) == 9
    assert lines[0].split()[-2:] == ["zero", "status"]
    assert re.search(r" C +-  ok$", lines[1])  # a probe has no zero
    assert re.search(r" g +-  ok$", lines[2])  # a pad's zero is not set in a single read


def test_read_on_the_empty_pads_show_their_tracked_zero(tmp_path: Path) -> None:
    """Live, every sweep: once a pad has been empty and still for 4 s its zero is set, and it
    follows from then on; an empty pad reads less its zero. (The simulated players weigh in in
    turn, every 5 s: a pad lifted from less than 9 s ago has no zero yet.)"""
    command = [sys.executable, "-m", "companion", "sensors", "--simulate", "--json"]
    reader = subprocess.Popen(
        [*command, "--state-dir", str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    sweeps = []
    try:
        assert reader.stdout is not None
        deadline = time.monotonic() + 30
        while len(sweeps) < 6 and time.monotonic() < deadline:  # a sweep every 2 s
            sweeps.append(json.loads(reader.stdout.readline()))
    finally:
        reader.terminate()
        reader.wait(10)
    pads = [s for s in sweeps[-1]["sensors"] if s["kind"] == "scale"]
    assert len(sweeps) == 6 and len(pads) == 4
    zeroed = [p for p in pads if p["zero_g"] is not None and abs(p["value"]) < 0.5]
    assert len(zeroed) >= 2 and all(abs(p["zero_g"]) < 0.3 for p in zeroed)
    assert all(abs(p["value"]) < 0.05 for p in zeroed)


def test_a_w1_tree_with_every_fault_shows_each_probe_s_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree = W1Tree(tmp_path / "w1")
    kinds = ["missing", *(k for k in FAULTS if k != "missing")]  # a seat's probe goes missing
    ids = [f"28-0000000000{i:02x}" for i in range(len(kinds) + 1)]
    for probe in ids:
        tree.add_probe(probe, 21.5)
    for probe, kind in zip(ids, kinds, strict=False):
        tree.set_fault(probe, kind)
    seats = "".join(f'[[seat]]\nthermometer = "{p}"\n' for p in ids[:4])
    config = tmp_path / "table.toml"
    config.write_text(
        f'[sensors]\nthermometers = "w1"\nw1_root = "{tree.root}"\nscales = "none"\n'
        f"resolution = 12\n{seats}"
    )
    code, out, err = sensors(capsys, tmp_path, "--config", str(config), "--json", "--once")
    assert code == 0, err
    shown = json.loads(out)["sensors"]
    assert [s["seat"] for s in shown] == [1, 2, 3, 4] + [None] * (len(ids) - 4)
    status = {s["id"]: s["status"] for s in shown}
    assert status[ids[0]] == f"fault: missing: probe {ids[0]} not on the bus"
    for probe, kind in zip(ids, kinds, strict=False):
        assert status[probe].startswith("fault: "), (kind, status[probe])
    assert len(set(status.values())) == len(kinds) + 1  # a status of its own for each fault
    assert status[ids[-1]] == "ok"  # the one probe without a fault, on no seat


def test_the_calibration_in_the_state_dir_is_used(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree = W1Tree(tmp_path / "w1")
    tree.add_probe("28-000000000001", 21.5)
    state = tmp_path / "state"
    state.mkdir()
    (state / "calibration.toml").write_text(
        Calibration({2: SeatCalibration(2, "28-000000000001", probe_offset_c=-0.5)}).to_toml()
    )
    config = tmp_path / "table.toml"
    config.write_text(f'[sensors]\nw1_root = "{tree.root}"\nscales = "none"\n')
    code, out, _ = sensors(capsys, tmp_path, "--config", str(config), "--json", "--once")
    assert code == 0
    probe = json.loads(out)["sensors"][1]  # seats 1, 3 and 4 have none: each a line
    assert (probe["seat"], probe["value"]) == (2, 21.0)
    assert json.loads(out)["w1"] == {"bulk": False, "resolution": {"28-000000000001": 11}}
    code, out, _ = sensors(capsys, tmp_path, "--config", str(config), "--once")
    assert out.startswith("1-Wire probes at 11 bits, converted one by one\n")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--config", "no-such.toml"], "no-such.toml: cannot be read"),
        (["--once", "--state-dir"], "expected one argument"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], words: str
) -> None:
    code, out, err = run(["sensors", *argv], capsys)
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1


def test_a_config_error_names_the_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[sensors]\nthermometers = "w1"\nscales = "scale"\n')
    code, _, err = sensors(capsys, tmp_path, "--config", str(config), "--once")
    assert code == 2
    assert f"{config}:3:" in err


def test_a_seat_without_a_probe_is_a_line_that_says_what_to_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tree = W1Tree(tmp_path / "w1")
    tree.add_probe("28-000000000001", 21.5)
    tree.add_probe("28-000000000002", 21.5)
    config = tmp_path / "table.toml"
    config.write_text(
        f'[sensors]\nw1_root = "{tree.root}"\nscales = "none"\n'
        '[[seat]]\nthermometer = "28-000000000002"\n[[seat]]\n'
    )
    code, out, _ = sensors(capsys, tmp_path, "--config", str(config), "--json", "--once")
    assert code == 0
    shown = [(s["seat"], s["id"], s["status"]) for s in json.loads(out)["sensors"]]
    assert shown[0] == (1, "28-000000000002", "ok")
    assert shown[1][:2] == (2, "-") and "set thermometer in its [[seat]]" in shown[1][2]
    assert shown[2] == (None, "28-000000000001", "ok")


def test_the_pads_are_not_read_while_the_daemon_holds_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[sensors]\nthermometers = "none"\nscales = "hx711"\n')
    with pads_lock(tmp_path / "state"):
        code, out, err = sensors(capsys, tmp_path, "--config", str(config), "--once")
    assert code == 2
    assert err.count("\n") == 1 and "the daemon is reading the pads" in err
    assert out == ""


TWO_SIMULATED_SEATS = '[sensors]\nthermometers = "sim"\nscales = "sim"\n[[seat]]\n[[seat]]\n'


def _seats(out: str) -> list[int]:
    return sorted({s["seat"] for s in json.loads(out)["sensors"]})


@pytest.mark.parametrize("variable", ["CONFIGURATION_DIRECTORY", "XDG_CONFIG_HOME"])
def test_without_a_config_option_the_service_s_config_is_found_and_named(
    variable: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """systemd's ConfigurationDirectory= (/etc/companion), else the XDG config home: the
    service and a maker at the Pi need no --config, and the command says which file it read."""
    folder = tmp_path / "etc" if variable == "CONFIGURATION_DIRECTORY" else tmp_path / "xdg"
    config = (
        folder / "table.toml"
        if variable == "CONFIGURATION_DIRECTORY"
        else folder / "companion" / "table.toml"
    )
    config.parent.mkdir(parents=True)
    config.write_text(TWO_SIMULATED_SEATS, encoding="utf-8")
    monkeypatch.delenv("CONFIGURATION_DIRECTORY", raising=False)
    monkeypatch.setenv(variable, str(folder))
    code, out, err = sensors(capsys, tmp_path, "--json", "--once")
    assert code == 0, err
    assert _seats(out) == [1, 2]
    assert f"the table config {config}" in err
    code, out, _ = sensors(capsys, tmp_path, "--simulate", "--json", "--once")
    assert code == 0 and _seats(out) == [1, 2, 3, 4]  # --simulate: the built-in table
