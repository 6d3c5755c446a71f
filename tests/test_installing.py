"""Where lgpio comes from on each Raspberry Pi OS, and what a failed install shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.host import installing
from companion.host.installing import choose


@pytest.mark.parametrize("machine", ["x86_64", "riscv64"])
def test_off_a_pi_there_is_nothing_to_choose(machine: str) -> None:
    assert choose((3, 13), machine, system_lgpio=False, missing=("swig",)) == installing.Choice()


@pytest.mark.parametrize("machine", ["aarch64", "armv7l"])
def test_bookworm_takes_lgpio_s_wheel(machine: str) -> None:
    """Python 3.11 (bookworm) and 3.12 have wheels on 64-bit and 32-bit Pis: plain pip."""
    for version in ((3, 11), (3, 12)):
        choice = choose(version, machine, system_lgpio=False, missing=("swig", "gcc"))
        assert choice == installing.Choice()


def test_a_system_lgpio_is_used_through_the_system_site_packages() -> None:
    """Raspberry Pi OS ships python3-lgpio: nothing to build, on any Python."""
    choice = choose((3, 13), "aarch64", system_lgpio=True, missing=("swig",))
    assert choice.venv_flags == ("--system-site-packages",)
    assert not choice.build_lgpio and choice.says and "python3-lgpio" in choice.says


@pytest.mark.parametrize("machine", ["aarch64", "armv7l", "armv6l"])
def test_trixie_builds_lgpio_with_its_bundled_library(machine: str) -> None:
    """Python 3.13 has no wheel: the build takes lgpio's own C sources (PYPI=1), since Debian has
    no liblgpio to link."""
    choice = choose((3, 13), machine, system_lgpio=False, missing=())
    assert choice.build_lgpio and choice.env == {"PYPI": "1"}
    assert choice.says and "PYPI=1" in choice.says and machine in choice.says


def test_a_build_without_its_tools_says_in_one_line_what_to_install() -> None:
    choice = choose((3, 13), "aarch64", system_lgpio=False, missing=("swig", "python3-dev"))
    assert not choice.build_lgpio and choice.missing == ("swig", "python3-dev")
    assert choice.says and "\n" not in choice.says
    assert "sudo apt install swig python3-dev" in choice.says


def test_the_build_tools_are_looked_for_on_the_path_and_in_the_python_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert installing.missing_build_tools(str(tmp_path)) == ("swig", "gcc", "python3-dev")
    for tool in ("swig", "gcc"):
        (tmp_path / tool).write_text("#!/bin/sh\n")
        (tmp_path / tool).chmod(0o755)
    (tmp_path / "Python.h").write_text("")
    assert installing.missing_build_tools(str(tmp_path)) == ()


def test_a_failed_install_shows_pip_s_own_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pip's ``--quiet`` hid the cause of a failed lgpio build (``command 'swig' failed``): a
    failure shows the end of pip's output, a success shows nothing."""
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.write_text(
        "#!/bin/sh\n"
        'case "$*" in *lgpio*) echo "Building wheel for lgpio (pyproject.toml)"; '
        "echo \"error: command 'swig' failed: No such file or directory\"; exit 1;; esac\n"
        'echo "Successfully installed $*"\n'
    )
    python.chmod(0o755)
    assert installing.pip_install(tmp_path, ("flask",), {}) == []
    assert capsys.readouterr().err == ""
    assert installing.pip_install(tmp_path, ("lgpio",), {"PYPI": "1"}) is None
    assert "command 'swig' failed" in capsys.readouterr().err


def test_the_script_runs_on_the_system_python_alone(tmp_path: Path) -> None:
    """The Makefile runs it before anything is installed: the standard library is all it may
    import, and a wrong call is one line and exit 2."""
    script = Path(installing.__file__)
    done = subprocess.run(
        [sys.executable, "-S", "-I", str(script)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr


def test_the_tests_get_the_pod_s_pinned_libraries_and_rpi_lgpio_alone() -> None:
    """The pod's circup pins, named as PyPI names them, and the RPi.GPIO API: nothing else, so
    neither Adafruit-Blinka nor lgpio can stand in for the tests' bit-level chips."""
    checkout = Path(installing.__file__).resolve().parents[2]
    pins = (checkout / installing.POD_REQUIREMENTS).read_text().split()
    wanted = installing.chip_libraries(checkout)
    assert len(wanted) == len(pins) + 1 and wanted[-1] == installing.PI_GPIO_LIBRARY
    for pin, name in zip(pins, wanted, strict=False):
        assert name.startswith("adafruit-circuitpython-") and name.endswith(pin.split("==")[1])


@pytest.mark.parametrize(
    ("choice", "built", "said"),
    [
        (choose((3, 13), "aarch64", True, ()), [], "the system's python3-lgpio"),
        (choose((3, 11), "aarch64", False, ()), [], "PyPI's wheel"),
        (choose((3, 13), "armv7l", False, ()), ["lgpio"], "built from its source"),
    ],
    ids=["raspberry-pi-os", "bookworm", "trixie-without-python3-lgpio"],
)
def test_a_pi_s_install_ends_saying_where_lgpio_came_from(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    choice: installing.Choice,
    built: list[str],
    said: str,
) -> None:
    """The line ``make pi-check`` reports for each base."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").touch()
    monkeypatch.setattr(installing, "for_this_machine", lambda: choice)
    monkeypatch.setattr(installing.platform, "machine", lambda: "aarch64")
    monkeypatch.setattr(installing, "pip_install", lambda venv, what, env: built)
    assert installing.main([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"installing: lgpio: {said}"
    assert [line for line in lines if line.startswith("installing: lgpio:")] == [lines[-1]]
    monkeypatch.setattr(installing.platform, "machine", lambda: "x86_64")
    assert installing.main([str(tmp_path)]) == 0
    assert "installing: lgpio:" not in capsys.readouterr().out


def test_pi_check_reports_where_lgpio_came_from_on_each_base() -> None:
    """``make pi-check`` (not run by the tests: emulated roots, as root) reads that line from
    each base's log into its report, after installing python3-lgpio where the base has it."""
    script = (Path(installing.__file__).resolve().parents[2] / "pi-check" / "run").read_text()
    assert "lgpio=$(sed -n 's/^installing: lgpio: //p' \"$log\" | tail -n 1)" in script
    assert "lgpio: ${lgpio:-not said};" in script
    assert "apt-get install -y -q python3-lgpio" in script
