"""``companion wiring``: the Pi's table and diagram, the pod's, and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from commandline import Companion, run

from companion.config import default_config, load_config
from companion.wiring import header_svg, pin_table
from companion.wiring.pod import pod_svg, pod_table

POD = '[sensors]\nthermometers = "pod"\nscales = "pod"\n'


def test_prints_the_pin_table_of_the_default_config(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["wiring"], capsys)
    assert (code, err) == (0, "")
    assert out == pin_table(default_config())


def test_writes_the_svg_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "header.svg"
    code, out, _ = run(["wiring", "--svg", str(svg)], capsys)
    assert code == 0 and out.startswith("# Pin map")
    assert svg.read_text(encoding="utf-8") == header_svg(default_config())


def test_renders_a_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[sensors]\nscales = "pod"\n[pins]\nbuzzer = 14\n', encoding="utf-8")
    code, out, _ = run(["wiring", "--config", str(path)], capsys)
    config = load_config(path)
    assert code == 0 and out == pin_table(config) + "\n" + pod_table(config)
    pi, pod = out.split("# Pod pin map")
    assert "| 8 | 14 | GPIO14 (TXD) | Buzzer" in pi and "HX711" not in pi
    assert "| 4 | 2 | GP2 | Pad 1 (seat 1) HX711 DOUT |" in pod and "DS18B20" not in pod


def test_a_bad_config_exits_2_with_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.toml"
    path.write_text("[pins]\nbuzzer = 4\n", encoding="utf-8")
    svg = tmp_path / "header.svg"
    code, out, err = run(["wiring", "--config", str(path), "--svg", str(svg)], capsys)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"{path}:2: pins.buzzer" in err and "1-Wire" in err
    assert not svg.exists()


def test_a_missing_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["wiring", "--config", str(tmp_path / "absent.toml")], capsys)
    assert (code, out) == (2, "") and "cannot be read" in err and err.count("\n") == 1


def test_an_unwritable_svg_exits_2_and_prints_no_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no-such-folder" / "header.svg"
    code, out, err = run(["wiring", "--svg", str(target)], capsys)
    assert (code, out) == (2, "")
    assert err == f"companion wiring: {target}: cannot be written: No such file or directory\n"


def test_as_a_user_runs_it(companion_process: Companion) -> None:
    done = companion_process("wiring")
    assert done.returncode == 0, done.stderr
    assert done.stdout == pin_table(default_config())
    assert "wiring" in companion_process("--help").stdout


def test_a_pod_config_prints_the_pi_s_table_then_the_pod_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.toml"
    path.write_text(POD, encoding="utf-8")
    pod_svg_file = tmp_path / "pod.svg"
    code, out, err = run(["wiring", "--config", str(path), "--pod-svg", str(pod_svg_file)], capsys)
    assert (code, err) == (0, "")
    config = load_config(path)
    assert out == pin_table(config) + "\n" + pod_table(config)
    assert "| 7 | 4 | GPIO4 |" not in out and "| 29 | 22 | GP22 | 1-Wire data" in out
    assert pod_svg_file.read_text(encoding="utf-8") == pod_svg(config)


def test_the_pod_table_may_go_to_a_file_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.toml"
    path.write_text(POD, encoding="utf-8")
    table, svg = tmp_path / "pod-pins.md", tmp_path / "header.svg"
    argv = ["wiring", "--config", str(path), "--pod-table", str(table), "--svg", str(svg)]
    code, out, _ = run(argv, capsys)
    config = load_config(path)
    assert code == 0 and out == pin_table(config)
    assert table.read_text(encoding="utf-8") == pod_table(config)
    assert svg.read_text(encoding="utf-8") == header_svg(config)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["header.svg", "pod-pins.md", "table.toml"]


@pytest.mark.parametrize("flag", ["--pod-svg", "--pod-table"])
def test_a_pod_option_without_the_pod_exits_2_and_writes_nothing(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, svg = tmp_path / "pod.out", tmp_path / "header.svg"
    code, out, err = run(["wiring", flag, str(target), "--svg", str(svg)], capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"{flag}: this table has no sensor pod" in err and 'scales = "pod"' in err
    assert list(tmp_path.iterdir()) == []


def test_one_unwritable_file_writes_none_of_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.toml"
    path.write_text(POD, encoding="utf-8")
    svg, bad = tmp_path / "header.svg", tmp_path / "absent" / "pod.svg"
    argv = ["wiring", "--config", str(path), "--svg", str(svg), "--pod-svg", str(bad)]
    code, out, err = run(argv, capsys)
    assert (code, out) == (2, "") and f"{bad}: cannot be written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.toml"]
