"""How companion is installed on this machine: a virtual environment, and the one choice a
Raspberry Pi brings, where lgpio comes from.

On a Pi, rpi-lgpio (the RPi.GPIO API for the HX711 reader) needs lgpio, whose wheels on PyPI stop
at Python 3.12 (lgpio 0.2.2.0: cp39-cp312, aarch64 and armv7l). So, in this order:

1. the Python already imports lgpio (Raspberry Pi OS's ``python3-lgpio``): the venv sees the
   system's site packages, and pip takes that lgpio as installed;
2. a wheel exists for this Python and machine: plain pip;
3. otherwise pip builds lgpio from its source with the C library it bundles (``PYPI=1``; without
   it the build looks for a system liblgpio, which Debian does not package), which needs swig, a
   C compiler and the Python headers: when one is missing, one line says what to install.

Elsewhere (a laptop, CI) there is nothing to choose. On a Pi the install ends with one line
that says which of the three lgpio came by: ``installing: lgpio: the system's python3-lgpio``,
``... PyPI's wheel`` or ``... built from its source``. The Makefile runs this file as a script,
before anything is installed, with the system's Python (so it imports the standard library
alone): ``python3 companion/host/installing.py .venv`` for running, ``... .venv test`` for the
tests;
``companion install-service`` makes the service's venv by the same :func:`choose`.

The tests also run the drivers that sit between our code and the chips as they are published:
the sensor pod's Adafruit libraries, at the versions ``firmware/pod/requirements.txt`` pins for
circup, and rpi-lgpio (the Pi's RPi.GPIO API). Each goes into ``VENV/chip-libraries`` alone, as
circup copies a library onto the pod: ``pip install --no-deps --target``, without Adafruit-Blinka
or lgpio, whose places the tests' bit-level chips take.

>>> pypi_name("adafruit_hx711==1.1.2")
'adafruit-circuitpython-hx711==1.1.2'

>>> choose((3, 13), "aarch64", system_lgpio=False, missing=()).build_lgpio
True
>>> choose((3, 11), "x86_64", system_lgpio=False, missing=()).says is None
True
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

PI_MACHINES = ("aarch64", "armv7l", "armv6l")
"""Where pyproject.toml's marker asks for rpi-lgpio, and so for lgpio."""
WHEEL_MACHINES = ("aarch64", "armv7l")
LAST_WHEEL_PYTHON = (3, 12)
"""The newest Python that lgpio publishes wheels for."""
BUILD_PACKAGES = {"swig": "swig", "cc": "gcc", "Python.h": "python3-dev"}
"""What building lgpio needs, and the Debian package that brings it."""
SHOWN_LINES = 40
"""How much of pip's output a failed install shows."""
POD_REQUIREMENTS = Path("firmware") / "pod" / "requirements.txt"
"""The pod's libraries, pinned as ``circup install -r`` reads them."""
PI_GPIO_LIBRARY = "rpi-lgpio==0.6"
"""The RPi.GPIO API the tests run the HX711 reader through (pyproject.toml asks >=0.6 on a Pi)."""
CHIP_LIBRARIES = "chip-libraries"
"""The folder in the venv the tests put on the path for those drivers."""


@dataclass(frozen=True)
class Choice:
    """How to make the venv and run pip: the venv's extra flags, pip's environment, whether
    lgpio is built, the line that says so (``None``: nothing to say), and what is missing."""

    venv_flags: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    build_lgpio: bool = False
    says: str | None = None
    missing: tuple[str, ...] = ()


def choose(
    version: tuple[int, int], machine: str, system_lgpio: bool, missing: Sequence[str]
) -> Choice:
    """The way lgpio comes for a Python ``version`` on ``machine``: see the module's list.

    >>> choose((3, 11), "armv7l", system_lgpio=True, missing=()).venv_flags
    ('--system-site-packages',)
    >>> choose((3, 13), "aarch64", system_lgpio=False, missing=("swig",)).missing
    ('swig',)
    """
    if machine not in PI_MACHINES:
        return Choice()
    if system_lgpio:
        return Choice(
            venv_flags=("--system-site-packages",),
            says="using this system's lgpio (python3-lgpio): the venv sees the system's packages",
        )
    if machine in WHEEL_MACHINES and version <= LAST_WHEEL_PYTHON:
        return Choice()
    python = f"Python {version[0]}.{version[1]}"
    if missing:
        return Choice(
            missing=tuple(missing),
            says=(
                f"lgpio has no wheel for {python} on {machine}, and building it needs "
                f"{', '.join(missing)}: sudo apt install {' '.join(missing)} "
                "(or python3-lgpio, then make clean), and try again"
            ),
        )
    return Choice(
        env={"PYPI": "1"},
        build_lgpio=True,
        says=(
            f"building lgpio from its source (no wheel for {python} on {machine}) with its "
            "bundled C library (PYPI=1): a few minutes on a Pi"
        ),
    )


def missing_build_tools(include_dir: str | None = None) -> tuple[str, ...]:
    """The Debian packages lgpio's build needs that this machine lacks."""
    include = Path(include_dir or sysconfig.get_paths()["include"])
    have = {
        "swig": shutil.which("swig") is not None,
        "cc": shutil.which("cc") is not None or shutil.which("gcc") is not None,
        "Python.h": (include / "Python.h").is_file(),
    }
    return tuple(BUILD_PACKAGES[tool] for tool, found in have.items() if not found)


def imports_lgpio(python: str) -> bool:
    """Whether ``python`` (outside any venv) imports lgpio."""
    try:
        found = subprocess.run(
            [python, "-c", "import lgpio"], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return found.returncode == 0


def for_this_machine(python: str = sys.executable) -> Choice:
    """The choice for ``python`` on this machine."""
    machine = platform.machine()
    if machine not in PI_MACHINES:
        return Choice()
    version = (sys.version_info.major, sys.version_info.minor)
    return choose(version, machine, imports_lgpio(python), missing_build_tools())


def lgpio_from(choice: Choice, built: Sequence[str], machine: str) -> str | None:
    """Where lgpio came from once pip is done (``built``: what it built from source), for the
    line a Pi's install ends with (``make pi-check`` reports it); ``None`` off a Pi.

    >>> lgpio_from(choose((3, 13), "aarch64", True, ()), [], "aarch64")
    "the system's python3-lgpio"
    >>> lgpio_from(Choice(), ["lgpio"], "armv7l"), lgpio_from(Choice(), [], "armv7l")
    ('built from its source', "PyPI's wheel")
    """
    if machine not in PI_MACHINES:
        return None
    if "lgpio" in built or choice.build_lgpio:
        return "built from its source"
    if "--system-site-packages" in choice.venv_flags:
        return "the system's python3-lgpio"
    return "PyPI's wheel"


def pip_install(venv: Path, what: Sequence[str], env: dict[str, str]) -> list[str] | None:
    """``pip install`` into ``venv``: the packages it built from source, or ``None`` when it
    failed, and then the end of pip's own output (the build's real error, which ``--quiet``
    would hide) goes to stderr."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as log:
        pip = (str(venv / "bin" / "python"), "-m", "pip", "install", "--progress-bar", "off")
        done = subprocess.run(
            [*pip, "--disable-pip-version-check", *what],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **env},
            check=False,
        )
        log.seek(0)
        lines = log.read().splitlines()
    if done.returncode == 0:
        return built(lines)
    sys.stderr.write("\n".join(lines[-SHOWN_LINES:]) + "\n")
    return None


def built(lines: Sequence[str]) -> list[str]:
    """The packages pip's output says it built wheels for (``companion`` itself aside).

    >>> built(["  Building wheel for lgpio (pyproject.toml): started", "Successfully built x"])
    ['lgpio']
    """
    names = []
    for line in lines:
        words = line.split()
        named = words[3] if len(words) > 3 and words[:3] == ["Building", "wheel", "for"] else None
        if named is not None and named != "companion" and named not in names:
            names.append(named)
    return names


def pypi_name(requirement: str) -> str:
    """A circup requirement as PyPI names it: ``adafruit_x`` is ``adafruit-circuitpython-x``."""
    name, pin, version = requirement.partition("==")
    base = name.strip().removeprefix("adafruit_").replace("_", "-")
    return f"adafruit-circuitpython-{base}{pin}{version.strip()}"


def chip_libraries(checkout: Path) -> list[str]:
    """The pinned drivers the tests run over their fake chips (see the module's text)."""
    lines = (checkout / POD_REQUIREMENTS).read_text(encoding="utf-8").splitlines()
    pod = [pypi_name(line) for line in lines if line.strip() and not line.startswith("#")]
    return [*pod, PI_GPIO_LIBRARY]


def install_chip_libraries(venv: Path, checkout: Path) -> bool:
    """Put the drivers of :func:`chip_libraries` in ``VENV/chip-libraries``, without their
    dependencies, anew each time; whether pip managed."""
    target = venv / CHIP_LIBRARIES
    shutil.rmtree(target, ignore_errors=True)
    what = ("--no-deps", "--target", str(target), *chip_libraries(checkout))
    return pip_install(venv, what, {}) is not None


def main(argv: Sequence[str] | None = None) -> int:
    """``installing.py VENV [EXTRA]``: make VENV when missing and install this checkout into it,
    editable, with EXTRA's dependencies too (``test``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not 1 <= len(args) <= 2:
        sys.stderr.write("usage: python3 companion/host/installing.py VENV [EXTRA]\n")
        return 2
    venv = Path(args[0])
    extra = f"[{args[1]}]" if len(args) == 2 else ""
    choice = for_this_machine()
    if choice.says:
        print(f"installing: {choice.says}")
    if choice.missing:
        return 1
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", *choice.venv_flags, str(venv)], check=True)
    checkout = Path(__file__).resolve().parents[2]
    if pip_install(venv, ("--upgrade", "pip"), {}) is None:
        return 1
    from_source = pip_install(venv, ("--editable", f"{checkout}{extra}"), choice.env)
    if from_source is None:
        return 1
    if from_source:
        print(f"installing: pip built from source: {', '.join(from_source)}")
    lgpio = lgpio_from(choice, from_source, platform.machine())
    if lgpio is not None:
        print(f"installing: lgpio: {lgpio}")
    if extra == "[test]" and not install_chip_libraries(venv, checkout):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
