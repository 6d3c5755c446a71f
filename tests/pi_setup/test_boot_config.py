"""What ``companion install-service`` adds to a Raspberry Pi's config.txt: the 1-Wire bus a table
with probes on the kernel's bus needs, only where no line that applies to this Pi has it, after a
copy of the file, and nothing a second time. Every config.txt here is in a temporary folder."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from companion.config import Pins, SensorsConfig, default_config, parse_config
from companion.pi_setup import boot_config
from companion.pi_setup.boot_config import BootLines, needed, read

PI_4 = "Raspberry Pi 4 Model B Rev 1.4"
PI_5 = "Raspberry Pi 5 Model B Rev 1.0"
ROOT = Path(__file__).resolve().parents[2]
COMMENT = "# companion: the probes' 1-Wire bus (companion install-service added it)"


def boot(tmp_path: Path, text: str, folder: str = "boot/firmware") -> tuple[Path, ...]:
    """Boot folders as a Pi has them, config.txt with ``text`` in ``folder``."""
    dirs = (tmp_path / "boot" / "firmware", tmp_path / "boot")
    (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    (tmp_path / folder / "config.txt").write_text(text, encoding="utf-8")
    return dirs


def the_step(dirs: tuple[Path, ...], model: str = PI_4, pin: int = 4) -> BootLines:
    config = replace(default_config(), pins=replace(Pins(), one_wire=pin))
    (step,) = boot_config.steps(config, dirs, model)
    return step


def test_the_shipped_config_txt_is_what_the_built_in_table_needs() -> None:
    text = (ROOT / "firmware" / "pi" / "config.txt").read_text(encoding="utf-8")
    active = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert tuple(active) == needed(default_config())


@pytest.mark.parametrize("sources", [("pod", "pod"), ("none", "none"), ("sim", "hx711")])
def test_a_table_without_probes_on_the_kernel_s_bus_needs_no_line(
    tmp_path: Path, sources: tuple[str, str]
) -> None:
    thermometers, scales = sources
    config = replace(
        default_config(), sensors=SensorsConfig(thermometers=thermometers, scales=scales)
    )
    assert list(boot_config.steps(config, boot(tmp_path, "[all]\n"), PI_4)) == []


def test_the_line_is_added_once_after_a_copy_of_the_file(tmp_path: Path) -> None:
    dirs = boot(tmp_path, "dtparam=audio=on\n[all]\n")
    config_txt = dirs[0] / "config.txt"
    step = the_step(dirs)
    assert step.lines == (COMMENT, "dtoverlay=w1-gpio,gpiopin=4") and not step.done
    step.do()
    assert (
        config_txt.read_text()
        == f"dtparam=audio=on\n[all]\n{COMMENT}\ndtoverlay=w1-gpio,gpiopin=4\n"
    )
    assert (dirs[0] / "config.txt.companion-bak").read_text() == "dtparam=audio=on\n[all]\n"
    again = the_step(dirs)
    assert again.done
    out = io.StringIO()
    again.show(out)
    assert out.getvalue() == "    already done\n"
    assert sorted(p.name for p in dirs[0].iterdir()) == ["config.txt", "config.txt.companion-bak"]


def test_the_copy_is_of_the_file_before_the_first_change_only(tmp_path: Path) -> None:
    dirs = boot(tmp_path, "# the maker's own\n")
    the_step(dirs).do()
    (dirs[0] / "config.txt").write_text("# the maker's own, changed\n", encoding="utf-8")
    the_step(dirs, pin=17).do()
    assert (dirs[0] / "config.txt.companion-bak").read_text() == "# the maker's own\n"
    assert (dirs[0] / "config.txt").read_text().endswith("dtoverlay=w1-gpio,gpiopin=17\n")


@pytest.mark.parametrize(
    "text",
    [
        "dtoverlay=w1-gpio,gpiopin=4\n",
        "[all]\ndtoverlay=w1-gpio\n",  # its default pin is 4
        "[pi4]\ndtoverlay=w1-gpio-pullup,gpiopin=4\n[all]\n",
        "[cm5]\nx=1\n[pi4]\ndtoverlay=w1-gpio\ndtparam=gpiopin=4\n",
        "  dtoverlay=w1-gpio,gpiopin=4  \n",
    ],
)
def test_a_line_that_applies_to_this_pi_is_left_alone(tmp_path: Path, text: str) -> None:
    dirs = boot(tmp_path, text)
    assert the_step(dirs).done
    assert not (dirs[0] / "config.txt.companion-bak").exists()


@pytest.mark.parametrize(
    ("text", "added"),
    [
        ("[pi5]\ndtoverlay=w1-gpio,gpiopin=4\n[all]\n", ()),
        ("[pi5]\ndtoverlay=w1-gpio,gpiopin=4\n", ("[all]",)),
        ("#dtoverlay=w1-gpio,gpiopin=4\n", ()),
        ("[none]\ndtoverlay=w1-gpio,gpiopin=4\n", ("[all]",)),
        ("[gpio4=1]\ndtoverlay=w1-gpio,gpiopin=4\n", ("[all]",)),
    ],
    ids=["another-model", "ends-in-another-model", "a-comment", "none", "a-gpio-filter"],
)
def test_a_line_that_may_not_apply_to_this_pi_is_added_where_it_applies(
    tmp_path: Path, text: str, added: tuple[str, ...]
) -> None:
    dirs = boot(tmp_path, text)
    step = the_step(dirs)
    assert step.lines == (*added, COMMENT, "dtoverlay=w1-gpio,gpiopin=4")
    step.do()
    assert read((dirs[0] / "config.txt").read_text(), PI_4).one_wire_pins == (4,)
    assert the_step(dirs).done


def test_a_1_wire_bus_on_another_pin_is_said_in_one_line_and_none_added(tmp_path: Path) -> None:
    dirs = boot(tmp_path, "[all]\ndtoverlay=w1-gpio,gpiopin=17\n")
    step = the_step(dirs)
    assert step.done and step.note == (
        "config.txt has a 1-Wire bus on GPIO17, the table config's [pins] one_wire is 4: "
        "no second bus added; make the two agree"
    )
    out = io.StringIO()
    step.show(out)
    assert out.getvalue() == f"    {step.note}\n"


def test_an_older_image_s_boot_folder_is_found(tmp_path: Path) -> None:
    dirs = boot(tmp_path, "[all]\n", folder="boot")
    step = the_step(dirs)
    assert step.path == tmp_path / "boot" / "config.txt" and not step.done


def test_no_config_txt_is_said_and_nothing_written(tmp_path: Path) -> None:
    dirs = (tmp_path / "boot" / "firmware", tmp_path / "boot")
    step = the_step(dirs)
    assert step.done and step.note is not None
    assert step.note.startswith(f"no config.txt in {dirs[0]} or {dirs[1]}: add 'dtoverlay=w1")
    assert not (tmp_path / "boot").exists()


def test_the_model_filters_follow_the_device_tree_s_names() -> None:
    for section, models in {
        "pi4": ["Raspberry Pi 4 Model B Rev 1.5", "Raspberry Pi 400 Rev 1.0"],
        "pi5": [PI_5, "Raspberry Pi 500 Rev 1.0", "Raspberry Pi Compute Module 5 Rev 1.0"],
        "pi3": ["Raspberry Pi 3 Model B Plus Rev 1.3"],
        "pi02": ["Raspberry Pi Zero 2 W Rev 1.0"],
        "cm4": ["Raspberry Pi Compute Module 4 Rev 1.0"],
    }.items():
        for model in models:
            assert boot_config.applies(section, model), (section, model)
    assert not boot_config.applies("pi4", PI_5)
    assert not boot_config.applies("cm4", "Raspberry Pi Compute Module 4S Rev 1.0")
    assert not boot_config.applies("PI5", PI_4)


def test_the_installed_config_decides_the_pin(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    config = tmp_path / "etc" / "table.toml"
    config.write_text("[pins]\none_wire = 14\n", encoding="utf-8")
    parse_config(str(config), config.read_text())  # a config the table takes
    model = tmp_path / "model"
    model.write_bytes(PI_4.encode() + b"\x00")
    (step,) = boot_config.for_table(config, boot(tmp_path, "[all]\n"), model)
    assert step.lines[-1] == "dtoverlay=w1-gpio,gpiopin=14"
    model.write_bytes(b"Hardkernel ODROID-C4\x00")
    assert boot_config.for_table(config, boot(tmp_path, "[all]\n"), model) == []
