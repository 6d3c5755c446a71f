"""``companion install-service``: the steps it plans, what a dry run prints, and a second run.

Nothing here installs anything: the command runs with ``--dry-run``, or its steps are carried
out into a temporary layout by a runner that only records the commands (it stands for
``systemctl``, ``udevadm``, pip and the rest), on a fake Raspberry Pi: a folder with the
device tree's model and a boot folder with a stock ``config.txt``.
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
from companion.host.installing import choose
from companion.host.version import COMMIT_FILE, checkout_commit, recorded_commit
from companion.network import addresses
from companion.pi_setup import steps as install_steps

CHECKOUT = Path(__file__).resolve().parents[2]
TRIGGERED = tuple(f"--subsystem-match={name}" for name in ("gpio", "w1", "tty"))
"""What the rules name: the GPIO chips' group, the probes' files, the pod's port."""
SHIPPED_UNIT = (CHECKOUT / "systemd" / UNIT).read_text(encoding="utf-8")
RECORDED = int(checkout_commit(CHECKOUT) is not None)
"""Whether the install records a commit: this checkout is git's (a copy without .git is not)."""


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


STOCK_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=spi=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""
"""Raspberry Pi OS Bookworm's /boot/firmware/config.txt, as a fresh card has it."""
PI_4 = b"Raspberry Pi 4 Model B Rev 1.4\x00"


def fake_pi(root: Path, config_txt: str | None = STOCK_CONFIG_TXT, model: bytes = PI_4) -> Path:
    """A folder standing for a Raspberry Pi's ``/``: its device tree's model, and config.txt in
    ``/boot/firmware`` (``None``: none)."""
    (root / "proc" / "device-tree").mkdir(parents=True, exist_ok=True)
    (root / "proc" / "device-tree" / "model").write_bytes(model)
    (root / "boot" / "firmware").mkdir(parents=True, exist_ok=True)
    if config_txt is not None:
        (root / "boot" / "firmware" / "config.txt").write_text(config_txt, encoding="utf-8")
    return root


def layout_in(root: Path) -> Layout:
    """The service's layout inside ``root``, on the fake Pi in ``root/pi``."""
    if not (root / "pi").exists():
        fake_pi(root / "pi")
    return Layout(
        root / "opt",
        root / "etc",
        root / "systemd",
        root / "rules.d",
        root / "polkit",
        state_dir=root / "var" / "lib" / "companion",
        boot_dirs=(root / "pi" / "boot" / "firmware", root / "pi" / "boot"),
        model=root / "pi" / "proc" / "device-tree" / "model",
    )


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
    pi = fake_pi(tmp_path / "pi")
    argv = [
        "install-service",
        "--dry-run",
        "--prefix",
        str(prefix),
        "--config-dir",
        str(config_dir),
        "--pi-root",
        str(pi),
    ]
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    steps = 14 + RECORDED  # the commit's step too, from a git checkout
    assert lines[0] == (
        f"[1/{steps}] add the gpio group (Raspberry Pi OS has it: it owns /dev/gpiochip*)"
    )
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
    config_txt = pi / "boot" / "firmware" / "config.txt"
    added = lines.index(
        f"    {config_txt}: add at its end, after a copy of it as config.txt.companion-bak:"
    )
    assert lines[added + 1 : added + 3] == [
        "    + # companion: the probes' 1-Wire bus (companion install-service added it)",
        "    + dtoverlay=w1-gpio,gpiopin=4",
    ]
    assert not prefix.exists() and not config_dir.exists()
    assert config_txt.read_text(encoding="utf-8") == STOCK_CONFIG_TXT
    assert sorted(p.name for p in config_txt.parent.iterdir()) == ["config.txt"]


def test_not_root_without_dry_run_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(install_service.os, "geteuid", lambda: 1000)
    code, out, err = run(["install-service", "--pi-root", str(fake_pi(tmp_path))], capsys)
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
    argv = ["install-service", "--dry-run", "--source", str(tmp_path)]
    code, out, err = run([*argv, "--pi-root", str(fake_pi(tmp_path / "pi"))], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"companion install-service: {tmp_path} is not a checkout of companion")


def test_a_failed_step_exits_1_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(steps: object, dry_run: bool) -> None:
        raise subprocess.CalledProcessError(4, ["useradd", "--system", "companion"])

    monkeypatch.setattr(install_service.os, "geteuid", lambda: 0)
    monkeypatch.setattr(install_service, "carry_out", failing)
    code, out, err = run(["install-service", "--pi-root", str(fake_pi(tmp_path))], capsys)
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
    assert out.getvalue().count("    already done\n") == 9 + RECORDED
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


@pytest.mark.parametrize("model", [None, b"Hardkernel ODROID-C4\x00"], ids=["none", "another"])
def test_off_a_raspberry_pi_it_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: bytes | None
) -> None:
    root = fake_pi(tmp_path, model=model or b"")
    if model is None:
        (root / "proc" / "device-tree" / "model").unlink()
    code, out, err = run(["install-service", "--dry-run", "--pi-root", str(root)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("companion install-service: this is not a Raspberry Pi (")
    assert len(err.splitlines()) == 1
    assert (root / "boot" / "firmware" / "config.txt").read_text() == STOCK_CONFIG_TXT


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Layout, Recorder]:
    """``sudo companion install-service`` on a fake Pi: the service's places in a folder, and a
    runner that records the commands (``systemctl`` among them) instead of running them."""
    layout = layout_in(tmp_path)
    runner = Recorder()

    def placed(prefix: Path = layout.prefix, config_dir: Path = layout.config_dir) -> Layout:
        return replace(layout, prefix=prefix, config_dir=config_dir)

    monkeypatch.setattr(install_service, "Layout", placed)
    monkeypatch.setattr(install_service.os, "geteuid", lambda: 0)
    monkeypatch.setattr(install_steps, "_run", runner)
    monkeypatch.setattr(install_service, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(addresses.socket, "gethostname", lambda: "tisch")
    return layout, runner


def install(layout: Layout, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str]:
    argv = [
        "install-service",
        "--prefix",
        str(layout.prefix),
        "--config-dir",
        str(layout.config_dir),
    ]
    code, out, err = run([*argv, "--pi-root", str(layout.model.parents[2]), *more], capsys)
    assert err == ""
    return code, out


def test_the_pi_gets_its_1_wire_bus_with_a_backup_and_is_told_to_reboot(
    machine: tuple[Layout, Recorder], capsys: pytest.CaptureFixture[str]
) -> None:
    layout, _ = machine
    config_txt = layout.boot_dirs[0] / "config.txt"
    code, out = install(layout, capsys)
    assert code == 0
    assert config_txt.read_text(encoding="utf-8") == (
        STOCK_CONFIG_TXT
        + "# companion: the probes' 1-Wire bus (companion install-service added it)\n"
        + "dtoverlay=w1-gpio,gpiopin=4\n"
    )
    backup = config_txt.with_name("config.txt.companion-bak")
    assert backup.read_text(encoding="utf-8") == STOCK_CONFIG_TXT
    said = out.splitlines()
    assert said[-1] == (
        "reboot (sudo reboot) to start the probes' 1-Wire bus on GPIO4: "
        f"the Pi reads {config_txt} at boot only"
    )
    assert said[-2] == (
        "the table: http://192.168.1.20:8080/, or by its name on the network http://tisch.local:8080/"
    )
    assert said[-3].startswith("installed: systemctl status companion.service")

    added = config_txt.read_bytes()
    code, out = install(layout, capsys)
    assert code == 0 and "reboot" not in out
    assert (
        "add the probes' 1-Wire bus on GPIO4 to the Pi's boot configuration\n    already done"
        in out
    )
    assert config_txt.read_bytes() == added
    assert backup.read_text(encoding="utf-8") == STOCK_CONFIG_TXT


def test_after_git_pull_the_same_command_updates_and_restarts_keeping_the_games_and_config(
    machine: tuple[Layout, Recorder], capsys: pytest.CaptureFixture[str]
) -> None:
    layout, runner = machine
    assert install(layout, capsys)[0] == 0
    for made_by_pip in ("python", "companion"):  # what the recorded venv and pip steps made
        (layout.prefix / "bin").mkdir(parents=True, exist_ok=True)
        (layout.prefix / "bin" / made_by_pip).touch()
    layout.state_dir.mkdir(parents=True)
    kept = {
        layout.state_dir / "companion.db": b"SQLite format 3\x00 a game under way",
        layout.state_dir / "calibration.toml": b"[seat.1]\ncounts_per_gram = 412.5\n",
        layout.state_dir / "referee-token": b"3Xk-token\n",
        layout.config: b'[sensors]\nthermometers = "w1"\n\n[[seat]]\nname = "Karen"\n[[seat]]\n',
    }
    for path, data in kept.items():
        path.write_bytes(data)
    times = {path: path.stat().st_mtime_ns for path in kept}
    runner.commands.clear()

    code, dry = install(layout, capsys, "--dry-run")
    assert code == 0 and runner.commands == []
    assert f"update companion in it from {CHECKOUT}" in dry
    assert "restart it now on the code just updated" in dry

    code, out = install(layout, capsys)
    assert code == 0
    assert runner.commands[-1] == ("systemctl", "restart", "companion.service")
    assert ("systemctl", "start", "companion.service") not in runner.commands
    assert any(argv[-3:] == ("install", "--upgrade", str(CHECKOUT)) for argv in runner.commands)
    assert out.splitlines()[-2].startswith("updated: systemctl status companion.service")
    assert out.splitlines()[-1].endswith("its name on the network http://tisch.local:8080/")
    for path, data in kept.items():
        assert path.read_bytes() == data and path.stat().st_mtime_ns == times[path], path
    assert sorted(p.name for p in layout.state_dir.iterdir()) == [
        "calibration.toml",
        "companion.db",
        "referee-token",
    ]


def test_the_commit_installed_is_recorded_in_the_venv(tmp_path: Path) -> None:
    layout = layout_in(tmp_path)
    carry_out(plan(layout, CHECKOUT, FakeAccounts()), False, Recorder(), io.StringIO())
    head = subprocess.run(
        ["git", "-C", str(CHECKOUT), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    recorded = layout.prefix / COMMIT_FILE
    if head.returncode != 0:
        assert not recorded.exists()
    else:
        assert recorded.read_text(encoding="utf-8") == head.stdout
        assert recorded_commit(layout.prefix) == head.stdout.strip()
