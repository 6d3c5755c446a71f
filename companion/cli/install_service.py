"""``companion install-service``: make a Raspberry Pi run the table as a systemd service.

Run as root from a checkout, it creates the ``companion`` system user (in the ``gpio`` group),
a virtual environment in the prefix with this package installed from the checkout, the default
table config (only if there is none), the unit and the udev rules, then reloads systemd and udev
and (re)starts the service. Every step says what it does, and one already done is skipped, so
running it again after ``git pull`` upgrades the service in place. ``--dry-run`` prints every
step, with each command and the whole of each file, and does nothing.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from companion.config import Pins, SensorsConfig
from companion.errors import CompanionError
from companion.installing import Choice, for_this_machine

USER = "companion"
GPIO_GROUP = "gpio"
"""Owns ``/dev/gpiochip*`` on Raspberry Pi OS."""
STATE_DIR = Path("/var/lib/companion")
"""The service's ``StateDirectory=``, and so its user's home."""
UNIT = "companion.service"
RULES = "60-companion.rules"
RULES_SOURCE = Path("firmware") / "pi" / RULES
NETWORK_RULES = "50-companion-hotspot.rules"
"""polkit's rule that lets the service's user make the table's own Wi-Fi network."""
NETWORK_RULES_SOURCE = Path("firmware") / "pi" / NETWORK_RULES
"""The udev rules in a checkout: the Pi's side of the hardware lives in ``firmware/pi``."""
OLD_RULES = "60-companion-w1.rules"
"""What earlier versions installed the rules as: removed, so that two files do not both apply."""
Runner = Callable[[Sequence[str]], None]


@dataclass(frozen=True)
class Layout:
    """Where the service goes: the venv, the config, and where systemd and udev look."""

    prefix: Path = Path("/opt/companion")
    config_dir: Path = Path("/etc/companion")
    unit_dir: Path = Path("/etc/systemd/system")
    rules_dir: Path = Path("/etc/udev/rules.d")
    polkit_dir: Path = Path("/etc/polkit-1/rules.d")

    @property
    def executable(self) -> Path:
        return self.prefix / "bin" / "companion"

    @property
    def config(self) -> Path:
        return self.config_dir / "table.toml"


@dataclass(frozen=True)
class Command:
    why: str
    argv: tuple[str, ...]
    done: bool = False


@dataclass(frozen=True)
class WriteFile:
    why: str
    path: Path
    text: str
    done: bool = False


Step = Command | WriteFile


class Accounts:
    """The users and groups of this machine (a test passes its own)."""

    def user_exists(self, user: str) -> bool:
        try:
            pwd.getpwnam(user)
        except KeyError:
            return False
        return True

    def group_exists(self, group: str) -> bool:
        try:
            grp.getgrnam(group)
        except KeyError:
            return False
        return True

    def in_group(self, user: str, group: str) -> bool:
        try:
            entry = grp.getgrnam(group)
        except KeyError:
            return False
        return user in entry.gr_mem or pwd.getpwnam(user).pw_gid == entry.gr_gid


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "install-service",
        help="install the table as a systemd service (as root, on the Pi)",
        description="Install the table as a systemd service: user, venv, config, unit, udev.",
    )
    d = Layout()
    p.add_argument(
        "--prefix",
        type=unit_path,
        default=d.prefix,
        metavar="DIR",
        help="the virtual environment to install into (default: %(default)s)",
    )
    p.add_argument(
        "--config-dir",
        type=unit_path,
        default=d.config_dir,
        metavar="DIR",
        help="where table.toml lives (default: %(default)s)",
    )
    p.add_argument(
        "--source",
        type=Path,
        metavar="DIR",
        help="the checkout to install (default: the one this command runs from)",
    )
    p.add_argument("--dry-run", action="store_true", help="print every step, do nothing")
    p.set_defaults(run=run)


def unit_path(text: str) -> Path:
    """An argparse type: an absolute path a unit's ``ExecStart=`` can name without quoting.

    >>> unit_path("/opt/companion")
    PosixPath('/opt/companion')
    """
    if not re.fullmatch(r"(/[A-Za-z0-9._+-]+)+", text) or "/../" in f"{text}/":
        raise argparse.ArgumentTypeError(
            f"{text!r} must be an absolute path of letters, digits and . _ + - (no spaces)"
        )
    return Path(text)


def run(args: argparse.Namespace) -> int:
    if not args.dry_run and os.geteuid() != 0:
        raise CompanionError("must run as root (sudo), or with --dry-run to see what it would do")
    layout = Layout(prefix=args.prefix, config_dir=args.config_dir)
    steps = plan(layout, args.source or checkout(), Accounts())
    try:
        carry_out(steps, dry_run=args.dry_run)
    except BrokenPipeError:
        raise
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"companion install-service: {failure(exc)}; mend it and run again", file=sys.stderr)
        return 1
    if not args.dry_run:
        print(f"installed: systemctl status {UNIT}; the referee token: {STATE_DIR}/referee-token")
    return 0


def checkout() -> Path:
    """The source checkout this package runs from (``pip install -e``, or ``make``)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "systemd" / UNIT).is_file():
        raise CompanionError("no checkout beside this package: give --source DIR")
    return root


def base_python() -> str:
    """The Python this one's venv was made from (the system's), else this one."""
    return str(getattr(sys, "_base_executable", "") or sys.executable)


def plan(
    layout: Layout,
    source: Path,
    accounts: Accounts,
    python: str | None = None,
    choice: Choice | None = None,
) -> list[Step]:
    """Every step of the installation, those already done marked so; ``choice`` is where lgpio
    comes from (:mod:`companion.installing`, for this machine unless given)."""
    python = python or base_python()
    choice = choice or for_this_machine(python)
    if choice.missing and choice.says:
        raise CompanionError(choice.says)
    try:
        unit = render_unit((source / "systemd" / UNIT).read_text(encoding="utf-8"), layout)
        rules = (source / RULES_SOURCE).read_text(encoding="utf-8")
        network_rules = (source / NETWORK_RULES_SOURCE).read_text(encoding="utf-8")
    except OSError as exc:
        raise CompanionError(f"{source} is not a checkout of companion: {exc.strerror}") from None
    user = accounts.user_exists(USER)
    venv_python = layout.prefix / "bin" / "python"
    steps: list[Step] = [
        Command(
            f"add the {GPIO_GROUP} group (Raspberry Pi OS has it: it owns /dev/gpiochip*)",
            ("groupadd", "--system", GPIO_GROUP),
            done=accounts.group_exists(GPIO_GROUP),
        ),
        Command(
            f"add the system user {USER}, in the {GPIO_GROUP} group",
            (
                *("useradd", "--system", "--user-group", "--groups", GPIO_GROUP),
                *("--home-dir", str(STATE_DIR), "--no-create-home"),
                *("--shell", "/usr/sbin/nologin", USER),
            ),
            done=user,
        ),
    ]
    if user:
        steps.append(
            Command(
                f"put the user {USER} in the {GPIO_GROUP} group",
                ("usermod", "--append", "--groups", GPIO_GROUP, USER),
                done=accounts.in_group(USER, GPIO_GROUP),
            )
        )
    return [
        *steps,
        Command(
            f"make the virtual environment {layout.prefix}",
            (python, "-m", "venv", *choice.venv_flags, str(layout.prefix)),
            done=venv_python.exists(),
        ),
        Command(
            f"install companion from {source} into it"
            + (f" ({choice.says})" if choice.says else ""),
            (
                *(("env", *(f"{k}={v}" for k, v in choice.env.items())) if choice.env else ()),
                *(str(venv_python), "-m", "pip", "install", "--upgrade", str(source)),
            ),
        ),
        WriteFile(
            f"write the table config {layout.config}, kept as it is once there",
            layout.config,
            default_config_text(layout),
            done=layout.config.exists(),
        ),
        _write("the unit", layout.unit_dir / UNIT, unit),
        _write("the udev rules", layout.rules_dir / RULES, rules),
        *_old_rules(layout),
        _write(
            "NetworkManager's permission for the table's own Wi-Fi (polkit reads it at once)",
            layout.polkit_dir / NETWORK_RULES,
            network_rules,
        ),
        Command("load the unit", ("systemctl", "daemon-reload")),
        Command("load the udev rules", ("udevadm", "control", "--reload")),
        Command(
            "apply them to the GPIO chips, the probes and the pod already plugged in",
            (
                *("udevadm", "trigger", "--action=add"),
                *(f"--subsystem-match={name}" for name in ("gpio", "w1", "tty")),
            ),
        ),
        Command("start the service at every boot", ("systemctl", "enable", UNIT)),
        Command("(re)start it now, on the code just installed", ("systemctl", "restart", UNIT)),
    ]


def _old_rules(layout: Layout) -> list[Step]:
    """Removing the rules an earlier version installed under another name, when they are there."""
    old = layout.rules_dir / OLD_RULES
    if not old.exists():
        return []
    return [Command(f"remove the old udev rules {old}", ("rm", "--", str(old)))]


def _write(what: str, path: Path, text: str) -> WriteFile:
    try:
        same = path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        same = False
    return WriteFile(f"write {what} {path}", path, text, done=same)


def render_unit(text: str, layout: Layout) -> str:
    """The unit with the layout's executable in ``ExecStart=`` (and its config, when it is not
    the ``/etc/companion`` that ``ConfigurationDirectory=`` gives and the service reads)."""
    config = "" if layout.config_dir == Layout().config_dir else f" --config {layout.config}"
    start = f"ExecStart={layout.executable} run{config}"
    lines = [start if line.startswith("ExecStart=") else line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def default_config_text(layout: Layout) -> str:
    """A config that is all comments, so the built-in table, showing the keys most changed."""
    s, p = SensorsConfig(), Pins()
    keys = [
        ("[sensors]", ""),
        (f'thermometers = "{s.thermometers}"', '"w1" | "pod" | "sim" | "none"'),
        (f'scales = "{s.scales}"', '"hx711" | "pod" | "sim" | "none"'),
        (f"resolution = {s.resolution}", "probe bits, 9..12"),
        ("", ""),
        ("[pins]", "BCM numbers"),
        (f"one_wire = {p.one_wire}", f"as config.txt says: dtoverlay=w1-gpio,gpiopin={p.one_wire}"),
        (f"hx711_clock = {p.hx711_clock}", ""),
        (f"buzzer = {p.buzzer}", ""),
        ("", ""),
        ("[network]", ""),
        ("hotspot = false", "true: the table makes its own Wi-Fi, away from any"),
        ('ssid = "companion-table"', "its name"),
        ("", ""),
        ("[[seat]]", "2 to 6 of them, in order round the table; none: 4 seats"),
        ('name = "Karen"', ""),
        ('colour = "blue"', ""),
        ('thermometer = "28-0316a2794aff"', "as /sys/bus/w1/devices lists it"),
        ("", ""),
        ("[[seat]]", ""),
        ('name = "Tom"', ""),
        ('colour = "yellow"', ""),
    ]
    body = "".join(
        f"# {key:<34}# {note}\n" if note else f"# {key}".rstrip() + "\n" for key, note in keys
    )
    return (
        "# The table: every key is optional, and this file as it is describes the built-in\n"
        "# 4-seat table wired to the Raspberry Pi's own pins. Uncomment and change what differs\n"
        "# at your table, then see the pin map it gives, and restart the service:\n"
        f"#   {layout.executable} wiring --config {layout.config}\n"
        "#   sudo systemctl restart companion\n"
        "#\n" + body
    )


def carry_out(
    steps: Sequence[Step],
    dry_run: bool,
    runner: Runner | None = None,
    out: TextIO | None = None,
) -> None:
    """Print each step and do it, skipping those done; with ``dry_run`` print only."""
    out = out or sys.stdout
    run_command = runner or _run
    for number, step in enumerate(steps, start=1):
        print(f"[{number}/{len(steps)}] {step.why}", file=out)
        if step.done:
            print("    already done", file=out)
        elif isinstance(step, Command):
            print(f"    $ {shlex.join(step.argv)}", file=out, flush=True)
            if not dry_run:
                run_command(step.argv)
        else:
            print(f"    {step.path}, mode 0644:", file=out)
            out.writelines(f"    | {line}".rstrip() + "\n" for line in step.text.splitlines())
            if not dry_run:
                write_atomically(step.path, step.text)


def _run(argv: Sequence[str]) -> None:
    subprocess.run(argv, check=True)


def write_atomically(path: Path, text: str) -> None:
    """Write a file readable by all (0644) whole or not at all: a temp file, fsync, rename."""
    path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.new")
    with open(temp, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), 0o644)
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temp, path)


def failure(exc: OSError | subprocess.CalledProcessError) -> str:
    """One line on a failed step."""
    if isinstance(exc, subprocess.CalledProcessError):
        return f"'{shlex.join(exc.cmd)}' failed with status {exc.returncode}"
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{exc.strerror or exc}"
