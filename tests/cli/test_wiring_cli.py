"""``companion wiring [--config FILE] [--svg FILE]``: the table, the diagram, and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from commandline import Companion, run

from companion.config import default_config, load_config
from companion.wiring import header_svg, pin_table


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
    assert code == 0 and out == pin_table(load_config(path))
    assert "| 8 | 14 | GPIO14 (TXD) | Buzzer" in out and "HX711" not in out


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
