"""The host's commands: carried out with an ack, or refused with a nak that changes nothing."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from companion.sensors.pod_protocol import Message, command, parse


@pytest.fixture
def pod(world: Any) -> Any:
    pod = world.start()
    world.run(pod, 2000)
    return pod


def answer(world: Any, pod: Any, data: bytes | str) -> list[Message]:
    said = world.talk(pod, data, ms=1)
    return [parse(line) for line in said if line.split()[0] not in ("pads", "probes")]


def refused(world: Any, pod: Any, data: bytes | str) -> tuple[int, str]:
    before = dict(pod.settings)
    (nak,) = answer(world, pod, data)
    assert nak.kind == "nak"
    assert pod.settings == before
    return nak.values["id"], nak.values["detail"]


def test_a_bad_checksum_is_refused_with_id_0(world: Any, pod: Any) -> None:
    line = command("set", 3, "resolution=9").replace(b"resolution=9", b"resolution=8")
    assert refused(world, pod, line) == (0, "checksum")
    assert refused(world, pod, b"set 3 resolution=9\n") == (0, "checksum")
    assert refused(world, pod, b"set 3 r\xe9solution=9*1234\n") == (0, "checksum")


def test_an_overlong_line_is_dropped_and_the_next_one_heard(world: Any, pod: Any) -> None:
    assert refused(world, pod, b"x" * 600 + b"\n") == (0, "checksum")
    (ack,) = answer(world, pod, command("set", 4, "sweep_ms=1000"))
    assert (ack.kind, ack.values["detail"]) == ("ack", "sweep_ms=1000")


def test_a_line_in_pieces_is_one_command(world: Any, pod: Any) -> None:
    line = command("ping", 12)
    assert answer(world, pod, line[:5]) == []
    (pong,) = answer(world, pod, line[5:])
    assert (pong.kind, pong.values["id"]) == ("pong", 12)


@pytest.mark.parametrize(
    "words, reason",
    [
        (["resolution=13"], "resolution=13 is not 9..12"),
        (["resolution=x"], "resolution=x is not 9..12"),
        (["sweep_ms=50"], "sweep_ms=50 is not 100..60000"),
        (["gain=100"], "gain=100 is not 128, 64 or 32"),
        (["pad_hz=20"], "pad_hz=20 is not 10 or 80"),
        (
            ["sweep_ms=500", "resolution=12"],
            "sweep_ms=500 is shorter than a conversion at 12 bits (750 ms)",
        ),
        (["colour=red"], "nothing to set"),
        ([], "nothing to set"),
    ],
)
def test_a_setting_out_of_range_is_refused(
    world: Any, pod: Any, words: list[str], reason: str
) -> None:
    assert refused(world, pod, command("set", 4, *words)) == (4, reason)


def test_settings_change_together_and_unknown_ones_are_left_out(world: Any, pod: Any) -> None:
    (ack,) = answer(world, pod, command("set", 8, "colour=red", "resolution=12", "sweep_ms=800"))
    assert (ack.kind, ack.values["detail"]) == ("ack", "resolution=12 sweep_ms=800")
    assert pod.settings == {"resolution": 12, "sweep_ms": 800, "gain": 128, "pad_hz": 10}


@pytest.mark.parametrize(
    "line, reason",
    [
        (command("reboot", 9), (9, "reboot is not a command")),
        (command("tare", 9, 7), (9, "pad 7 is not 1..6")),
        (command("tare", 9), (9, "pad none is not 1..6")),
        (command("tare", 9, 5), (9, "pad 5 has no readings")),
        (command("ping", "x"), (0, "format")),
        (command("PING", 3), (0, "format")),
    ],
)
def test_other_commands_are_refused(world: Any, pod: Any, line: bytes, reason: tuple) -> None:
    assert refused(world, pod, line) == reason


def test_hello_is_said_again_with_the_count_going_on(world: Any, pod: Any) -> None:
    (hello,) = answer(world, pod, command("hello", 1))
    assert hello.kind == "hello"
    assert hello.seq > 0
    assert hello.values["reset"] == "power-on"


def test_nothing_is_made_while_no_host_listens_and_hello_greets_it(world: Any, pod: Any) -> None:
    seen = len(world.port.lines())
    world.port.connected = False
    world.run(pod, 5000)
    assert len(world.port.lines()) == seen
    last = parse(world.port.lines()[-1]).seq
    world.port.connected = True
    world.run(pod, 5050)
    hello = parse(world.port.lines()[seen])
    assert (hello.kind, hello.seq) == ("hello", last + 1)


def test_a_full_usb_buffer_loses_lines_whole(world: Any, pod: Any) -> None:
    port = world.port
    write = port.write
    port.write = lambda data: write(bytes(data)[:10]) and 10
    world.run(pod, 2150)
    port.write = write
    world.run(pod, 4000)
    lines = port.written.decode().split("\n")
    torn = [line for line in lines if line and "*" not in line]
    assert len(torn) == 1
    messages = [parse(line) for line in lines if line and line not in torn]
    seqs = [m.seq for m in messages]
    assert seqs == sorted(seqs)
    assert max(b - a for a, b in pairwise(seqs)) > 5
    assert all(b.ms - a.ms < 1200 for a, b in pairwise(messages))
