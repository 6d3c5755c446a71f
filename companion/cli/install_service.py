"""``companion install-service``: make a Raspberry Pi run the table as a systemd service.

Run as root from a checkout, it creates the ``companion`` system user (in the ``gpio`` group),
a virtual environment in the prefix with this package installed from the checkout (and the
checkout's commit recorded beside it, for the referee's page), the default table config (only if
there is none), the unit and the udev rules, adds what the table needs to the Pi's
``config.txt`` (:mod:`companion.pi_setup.boot_config`), then reloads systemd and udev and
restarts the service. Every step says what it does, and one already done is skipped, so running
it again after ``git pull`` updates the service in place: the code, the unit and the rules, then
a restart, while the state directory (the games, the calibration, the referee's token) and the
config are left as they are. ``--dry-run`` prints every step, with each command, the whole of
each file and each line added to config.txt, and does nothing. Off a Raspberry Pi it refuses.
The steps themselves, where they go and the boot configuration are :mod:`companion.pi_setup`'s.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.host.installing import Choice, for_this_machine
from companion.host.version import COMMIT_FILE, checkout_commit
from companion.network.addresses import DEFAULT_PORT, lan_address, local_url
from companion.pi_setup import boot_config
from companion.pi_setup.boot_config import BOOT_DIRS, BootLines
from companion.pi_setup.layout import STATE_DIR, UNIT, Layout, default_config_text, render_unit
from companion.pi_setup.steps import Command, Step, WriteFile, carry_out, failure, written
from companion.sensors.sources import PI_MODEL

USER = "companion"
GPIO_GROUP = "gpio"
"""Owns ``/dev/gpiochip*`` on Raspberry Pi OS."""
RULES = "60-companion.rules"
RULES_SOURCE = Path("firmware") / "pi" / RULES
NETWORK_RULES = "50-companion-hotspot.rules"
"""polkit's rule that lets the service's user make the table's own Wi-Fi network."""
NETWORK_RULES_SOURCE = Path("firmware") / "pi" / NETWORK_RULES
"""The udev rules in a checkout: the Pi's side of the hardware lives in ``firmware/pi``."""
OLD_RULES = "60-companion-w1.rules"
"""What earlier versions installed the rules as: removed, so that two files do not both apply."""
__all__ = ["STATE_DIR", "Command", "Layout", "Step", "WriteFile", "carry_out", "render_unit"]


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
    p.add_argument(  # for the tests and pi-check: a folder that stands for a Pi's / there
        "--pi-root", type=Path, metavar="DIR", help=argparse.SUPPRESS
    )
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
    layout = Layout(prefix=args.prefix, config_dir=args.config_dir)
    if args.pi_root is not None:
        root = args.pi_root
        boot_dirs = tuple(root / d.relative_to("/") for d in BOOT_DIRS)
        layout = replace(layout, boot_dirs=boot_dirs, model=root / PI_MODEL.relative_to("/"))
    if boot_config.pi_model(layout.model) is None:
        raise CompanionError(
            f"this is not a Raspberry Pi ({layout.model} names none): the service is for the "
            "table's Pi; off it, run the table with companion run"
        )
    if not args.dry_run and os.geteuid() != 0:
        raise CompanionError("must run as root (sudo), or with --dry-run to see what it would do")
    update = updating(layout)
    steps = plan(layout, args.source or checkout(), Accounts())
    try:
        carry_out(steps, dry_run=args.dry_run)
    except BrokenPipeError:
        raise
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"companion install-service: {failure(exc)}; mend it and run again", file=sys.stderr)
        return 1
    if args.dry_run:
        return 0
    token = f"the referee token: {layout.state_dir}/referee-token"
    if update:
        print(f"updated: systemctl status {UNIT}; the games, the config and {token} are kept")
    else:
        print(f"installed: systemctl status {UNIT}; {token}")
    named = local_url(DEFAULT_PORT)
    table = f"the table: http://{lan_address()}:{DEFAULT_PORT}/"
    print(table + (f", or by its name on the network {named}" if named else ""))
    for step in steps:
        if isinstance(step, BootLines) and not step.done:
            print(step.reboot)
    return 0


def updating(layout: Layout) -> bool:
    """Whether the service is installed already, so this run updates it."""
    return layout.executable.exists() and (layout.unit_dir / UNIT).exists()


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
    """Every step of the installation (or of an update, when the service is there already), those
    already done marked so; ``choice`` is where lgpio comes from (:mod:`companion.host.installing`,
    for this machine unless given)."""
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
    update = updating(layout)
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
                *("--home-dir", str(layout.state_dir), "--no-create-home"),
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
            (
                f"update companion in it from {source} (the games and the calibration in "
                f"{layout.state_dir} and the config stay as they are)"
                if update
                else f"install companion from {source} into it"
            )
            + (f" ({choice.says})" if choice.says else ""),
            (
                *(("env", *(f"{k}={v}" for k, v in choice.env.items())) if choice.env else ()),
                *(str(venv_python), "-m", "pip", "install", "--upgrade", str(source)),
            ),
        ),
        *_commit(layout, source),
        WriteFile(
            f"write the table config {layout.config}, kept as it is once there",
            layout.config,
            default_config_text(layout),
            done=layout.config.exists(),
        ),
        written("the unit", layout.unit_dir / UNIT, unit),
        written("the udev rules", layout.rules_dir / RULES, rules),
        *_old_rules(layout),
        written(
            "NetworkManager's permission for the table's own Wi-Fi (polkit reads it at once)",
            layout.polkit_dir / NETWORK_RULES,
            network_rules,
        ),
        *boot_config.for_table(layout.config, layout.boot_dirs, layout.model),
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
        Command(
            "restart it now on the code just updated: the game under way goes on where it was"
            if update
            else "start it now, on the code just installed",
            ("systemctl", "restart", UNIT),
        ),
    ]


def _commit(layout: Layout, source: Path) -> list[Step]:
    """Recording the commit ``source`` has out, for the referee's page; forgetting one an
    earlier run recorded, when this checkout's cannot be known."""
    path = layout.prefix / COMMIT_FILE
    commit = checkout_commit(source)
    if commit is not None:
        return [written(f"the commit it came from, {commit[:7]}, into", path, f"{commit}\n")]
    if path.exists():
        return [Command("forget the commit recorded before", ("rm", "--", str(path)))]
    return []


def _old_rules(layout: Layout) -> list[Step]:
    """Removing the rules an earlier version installed under another name, when they are there."""
    old = layout.rules_dir / OLD_RULES
    if not old.exists():
        return []
    return [Command(f"remove the old udev rules {old}", ("rm", "--", str(old)))]
