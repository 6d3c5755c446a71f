"""``companion install-service``: the steps it plans, what a dry run prints, and a second run.

Nothing here installs anything: the command runs with ``--dry-run``, or its steps are carried
out into a temporary layout by a runner that only records the commands.
"""

from __future__ import annotations

import io
import stat
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from commandline import run

from companion.cli import install_service
from companion.cli.install_service import (
    NETWORK_RULES,
    NETWORK_RULES_SOURCE,
    OLD_RULES,
    RULES,
    RULES_SOURCE,
    UNIT,
    Accounts,
    Command,
    Layout,
    WriteFile,
    base_python,
    carry_out,
    plan,
    render_unit,
)
from companion.config import default_config, parse_config
from companion.errors import CompanionError
from companion.installing import choose

CHECKOUT = Path(__file__).resolve().parents[2]
TRIGGERED = tuple(f"--subsystem-match={name}" for name in ("gpio", "w1", "tty"))
"""What the rules name: the GPIO chips' group, the probes' files, the pod's port."""
SHIPPED_UNIT = (CHECKOUT / "systemd" / UNIT).read_text(encoding="utf-8")


class FakeAccounts(Accounts):
    """A machine's users and groups, as a test says they are."""

    def __init__(self, users: Iterable[str] = (), groups: dict[str, set[str]] | None = None):
        self.users = set(users)
        self.groups = groups or {}

    def user_exists(self, user: str) -> bool:
        return user in self.users

    def group_exists(self, group: str) -> bool:
        return group in self.groups

    def in_group(self, user: str, group: str) -> bool:
        return user in self.groups.get(group, set())


class Recorder:
    """Runs no command: remembers each, and fails the one told to."""

    def __init__(self, fail: str | None = None) -> None:
        self.commands: list[tuple[str, ...]] = []
        self.fail = fail

    def __call__(self, argv: Sequence[str]) -> None:
        if argv[0] == self.fail:
            raise subprocess.CalledProcessError(9, list(argv))
        self.commands.append(tuple(argv))


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command on a machine with no companion user yet."""
    monkeypatch.setattr(install_service, "Accounts", FakeAccounts)


def layout_in(root: Path) -> Layout:
    return Layout(root / "opt", root / "etc", root / "systemd", root / "rules.d", root / "polkit")


def test_the_shipped_unit_is_what_the_default_layout_installs() -> None:
    assert render_unit(SHIPPED_UNIT, Layout()) == SHIPPED_UNIT
    lines = SHIPPED_UNIT.splitlines()
    assert "ExecStart=/opt/companion/bin/companion run" in lines  # it finds /etc/companion's
    assert "ConfigurationDirectory=companion" in lines


def test_a_config_elsewhere_is_named_in_the_unit(tmp_path: Path) -> None:
    layout = layout_in(tmp_path)
    start = f"ExecStart={layout.executable} run --config {layout.config}"
    assert start in render_unit(SHIPPED_UNIT, layout).splitlines()


def test_a_dry_run_prints_every_step_and_both_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prefix, config_dir = tmp_path / "opt", tmp_path / "etc"
    argv = [
        "install-service",
        "--dry-run",
        "--prefix",
        str(prefix),
        "--config-dir",
        str(config_dir),
    ]
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "[1/13] add the gpio group (Raspberry Pi OS has it: it owns /dev/gpiochip*)"
    for command in (
        "groupadd --system gpio",
        "useradd --system --user-group --groups gpio --home-dir /var/lib/companion"
        " --no-create-home --shell /usr/sbin/nologin companion",
        f"{prefix}/bin/python -m pip install --upgrade {CHECKOUT}",
        "systemctl daemon-reload",
        "udevadm control --reload",
        "udevadm trigger --action=add " + " ".join(TRIGGERED),
        "systemctl enable companion.service",
        "systemctl restart companion.service",
    ):
        assert f"    $ {command}" in lines
    start = f"ExecStart={prefix}/bin/companion run --config {config_dir}/table.toml"
    assert f"    | {start}" in lines
    assert f"    {config_dir}/table.toml, mode 0644:" in lines
    assert not prefix.exists() and not config_dir.exists()


def test_not_root_without_dry_run_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(install_service.os, "geteuid", lambda: 1000)
    code, out, err = run(["install-service"], capsys)
    assert (code, out) == (2, "")
    assert err == (
        "companion install-service: must run as root (sudo), "
        "or with --dry-run to see what it would do\n"
    )


@pytest.mark.parametrize("prefix", ["opt/companion", "/opt/my companion", "/opt/%n", "/opt/../x"])
def test_a_prefix_a_unit_cannot_name_is_refused(
    prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["install-service", "--dry-run", "--prefix", prefix], capsys)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and "must be an absolute path" in err


def test_a_source_that_is_no_checkout_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["install-service", "--dry-run", "--source", str(tmp_path)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"companion install-service: {tmp_path} is not a checkout of companion")


def test_a_failed_step_exits_1_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(steps: object, dry_run: bool) -> None:
        raise subprocess.CalledProcessError(4, ["useradd", "--system", "companion"])

    monkeypatch.setattr(install_service.os, "geteuid", lambda: 0)
    monkeypatch.setattr(install_service, "carry_out", failing)
    code, out, err = run(["install-service"], capsys)
    assert (code, out) == (1, "")
    assert err == (
        "companion install-service: 'useradd --system companion' failed with status 4;"
        " mend it and run again\n"
    )


def test_a_first_run_does_every_step_and_a_second_only_what_always_runs(tmp_path: Path) -> None:
    layout = layout_in(tmp_path)
    runner = Recorder()
    carry_out(plan(layout, CHECKOUT, FakeAccounts()), False, runner, io.StringIO())
    python = str(layout.prefix / "bin" / "python")
    assert runner.commands == [
        ("groupadd", "--system", "gpio"),
        runner.commands[1],
        (base_python(), "-m", "venv", str(layout.prefix)),
        (python, "-m", "pip", "install", "--upgrade", str(CHECKOUT)),
        ("systemctl", "daemon-reload"),
        ("udevadm", "control", "--reload"),
        ("udevadm", "trigger", "--action=add", *TRIGGERED),
        ("systemctl", "enable", "companion.service"),
        ("systemctl", "restart", "companion.service"),
    ]
    assert runner.commands[1][0] == "useradd"
    unit, rules = layout.unit_dir / UNIT, layout.rules_dir / RULES
    assert unit.read_text(encoding="utf-8") == render_unit(SHIPPED_UNIT, layout)
    assert rules.read_bytes() == (CHECKOUT / RULES_SOURCE).read_bytes()
    network = layout.polkit_dir / NETWORK_RULES
    assert network.read_bytes() == (CHECKOUT / NETWORK_RULES_SOURCE).read_bytes()
    for path in (unit, rules, network, layout.config):
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
    config = parse_config(str(layout.config), layout.config.read_text(encoding="utf-8"))
    assert replace(config, path=None) == default_config()

    layout.config.write_text('[[seat]]\nname = "Karen"\n[[seat]]\n', encoding="utf-8")
    (layout.prefix / "bin").mkdir(parents=True)
    (layout.prefix / "bin" / "python").touch()
    accounts = FakeAccounts({"companion"}, {"gpio": {"companion"}})
    steps = plan(layout, CHECKOUT, accounts)
    again = Recorder()
    out = io.StringIO()
    carry_out(steps, False, again, out)
    assert all(step.done for step in steps if isinstance(step, WriteFile))
    assert [argv[:2] for argv in again.commands] == [
        (python, "-m"),
        ("systemctl", "daemon-reload"),
        ("udevadm", "control"),
        ("udevadm", "trigger"),
        ("systemctl", "enable"),
        ("systemctl", "restart"),
    ]
    assert out.getvalue().count("    already done\n") == 8
    assert layout.config.read_text(encoding="utf-8").startswith('[[seat]]\nname = "Karen"')


def test_a_user_that_exists_is_only_put_in_the_gpio_group(tmp_path: Path) -> None:
    steps = plan(layout_in(tmp_path), CHECKOUT, FakeAccounts({"companion"}, {"gpio": set()}))
    commands = [step for step in steps if isinstance(step, Command) and not step.done]
    assert commands[0].argv == ("usermod", "--append", "--groups", "gpio", "companion")
    assert not any(step.argv[0] in {"groupadd", "useradd"} for step in commands)


def test_a_failed_command_stops_before_any_later_step(tmp_path: Path) -> None:
    layout = layout_in(tmp_path)
    with pytest.raises(subprocess.CalledProcessError):
        carry_out(plan(layout, CHECKOUT, FakeAccounts()), False, Recorder("useradd"), io.StringIO())
    assert not layout.config.exists() and not (layout.unit_dir / UNIT).exists()


def test_rules_installed_under_their_old_name_are_removed(tmp_path: Path) -> None:
    layout = layout_in(tmp_path)
    layout.rules_dir.mkdir(parents=True)
    old = layout.rules_dir / OLD_RULES
    old.write_text("# the rules as an earlier version named them\n", encoding="utf-8")
    runner = Recorder()
    carry_out(plan(layout, CHECKOUT, FakeAccounts()), False, runner, io.StringIO())
    assert ("rm", "--", str(old)) in runner.commands
    removal = runner.commands.index(("rm", "--", str(old)))
    assert runner.commands[removal + 1] == ("systemctl", "daemon-reload")
    assert (layout.rules_dir / RULES).is_file()


def test_a_pi_without_an_lgpio_wheel_builds_it_and_says_so(tmp_path: Path) -> None:
    """Trixie's Python 3.13: the pip step carries PYPI=1 itself, so sudo cannot drop it."""
    layout = layout_in(tmp_path)
    choice = choose((3, 13), "aarch64", system_lgpio=False, missing=())
    runner = Recorder()
    out = io.StringIO()
    carry_out(plan(layout, CHECKOUT, FakeAccounts(), choice=choice), False, runner, out)
    pip = next(argv for argv in runner.commands if "pip" in argv)
    assert pip[:2] == ("env", "PYPI=1")
    assert "building lgpio from its source" in out.getvalue()


def test_a_pi_with_python3_lgpio_lets_the_venv_see_it(tmp_path: Path) -> None:
    layout = layout_in(tmp_path)
    choice = choose((3, 13), "aarch64", system_lgpio=True, missing=())
    runner = Recorder()
    carry_out(plan(layout, CHECKOUT, FakeAccounts(), choice=choice), False, runner, io.StringIO())
    venv = next(argv for argv in runner.commands if "venv" in argv)
    assert "--system-site-packages" in venv
    assert not any(argv[0] == "env" for argv in runner.commands)


def test_a_pi_that_cannot_build_lgpio_is_told_what_to_install_before_any_step() -> None:
    choice = choose((3, 13), "armv7l", system_lgpio=False, missing=("swig", "gcc"))
    with pytest.raises(CompanionError, match="sudo apt install swig gcc") as raised:
        plan(Layout(), CHECKOUT, FakeAccounts(), choice=choice)
    assert "\n" not in str(raised.value)
