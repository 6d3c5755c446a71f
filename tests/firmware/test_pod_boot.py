"""boot.py: the data port beside the console, and the USB names the Pi finds the pod by."""

from __future__ import annotations

from typing import Any

import pytest

from companion.sensors.pod_protocol import parse


def test_boot_enables_the_data_port_and_names_the_pod(world: Any) -> None:
    world.boot()
    assert world.usb_data
    assert world.usb_identity == {
        "manufacturer": "companion",
        "product": "companion sensor pod",
        "vid": -1,
        "pid": -1,
    }


def test_an_older_circuitpython_still_gets_its_data_port(world: Any) -> None:
    supervisor = world.load("supervisor")
    del supervisor.set_usb_identification
    world.run_file("boot.py")
    assert world.usb_data
    assert world.usb_identity == {}


def test_without_the_data_port_the_lines_go_to_the_console(
    world: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    world.boot()
    world.usb_data = False
    pod = world.load("pod_main").Pod.on_board()
    world.run(pod, 1500)
    printed = capsys.readouterr().out.splitlines()
    assert parse(printed[0]).kind == "hello"
    assert any(parse(line).kind == "probes" for line in printed)
    assert world.port.written == b""
