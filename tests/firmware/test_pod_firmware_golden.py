"""The firmware against the protocol's golden lines: the same lines the host is tested with."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

from companion.sensors.pod_protocol import parse

GOLDEN = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[2] / "firmware/pod/golden.jsonl")
    .read_text()
    .splitlines()
    if line.strip()
]
POD = [g for g in GOLDEN if g["from"] == "pod" and "error" not in g]
HOST = [g for g in GOLDEN if g["from"] == "host"]
ERRORS = [g for g in GOLDEN if "error" in g]
UNSEALED = {"does not match", "no checksum", "empty words"}
"""The errors in the checksum and the words themselves, which unseal refuses."""


def words_of(entry: dict[str, Any]) -> list[str]:
    """A golden entry's values as the words the firmware is given."""
    values = entry["values"]
    if entry["kind"] in ("ack", "nak", "pong"):
        return [str(values["id"]), *values["detail"].split()]
    if "words" in values:
        return values["words"]
    return [f"{key}={value}" for key, value in values.items()]


@pytest.mark.parametrize("entry", POD, ids=[g["note"][:40] for g in POD])
def test_the_encoder_makes_every_golden_line(world: Any, entry: dict[str, Any]) -> None:
    line = world.load("pod_line").encode(entry["kind"], entry["seq"], entry["ms"], words_of(entry))
    assert line == entry["line"]


@pytest.mark.parametrize("entry", ERRORS, ids=[g["note"][:40] for g in ERRORS])
def test_the_decoder_refuses_every_bad_line(world: Any, entry: dict[str, Any]) -> None:
    pod_line = world.load("pod_line")
    if entry["error"] in UNSEALED:
        with pytest.raises(ValueError):
            pod_line.unseal(entry["line"].encode())
    pod = world.start()
    world.run(pod, 1000)
    before = dict(pod.settings)
    answer = world.talk(pod, entry["line"] + "\n", ms=5)
    naks = [parse(line) for line in answer if line.startswith("nak")]
    assert len(naks) == 1
    unread = entry["error"] in UNSEALED | {"not a kind"}
    assert naks[0].values["id"] == (0 if unread else int(entry["line"].split()[1]))
    assert pod.settings == before


def test_the_decoder_takes_the_crc_of_the_check_string(world: Any) -> None:
    assert world.load("pod_line").crc16(b"123456789") == 0x29B1


def test_the_decoder_takes_every_golden_command(world: Any) -> None:
    pod_line = world.load("pod_line")
    for entry in HOST:
        words = pod_line.unseal(entry["line"].encode() + b"\r\n")
        assert " ".join(words) == entry["line"].rpartition("*")[0]


def test_the_pod_carries_out_every_golden_command(world: Any) -> None:
    pod = world.start()
    world.run(pod, 2000)
    answers = {}
    for entry in HOST:
        said = world.talk(pod, entry["line"] + "\n", ms=5)
        (line,) = (a for a in said if a.split()[0] not in ("pads", "probes"))
        answers[entry["line"].partition("*")[0].split()[1]] = parse(line)
    assert answers["1"].kind == "hello"
    assert answers["1"].values["proto"] == "1"
    details = {
        ident: (m.kind, m.values.get("id"), m.values.get("detail")) for ident, m in answers.items()
    }
    assert details["3"] == ("ack", 3, "resolution=11")
    assert details["4"] == ("ack", 4, "sweep_ms=2000")
    assert details["5"] == ("ack", 5, "gain=128")
    assert details["6"] == ("ack", 6, "pad_hz=10")
    kind, ident, detail = details["7"]
    assert (kind, ident) == ("ack", 7)
    assert detail.startswith("tare ch=2 raw=")
    assert abs(int(detail.rpartition("=")[2]) - -19_000) < 30


def test_ping_is_answered_with_pong(world: Any) -> None:
    pod = world.start()
    world.run(pod, 1000)
    pongs = [parse(a) for a in world.talk(pod, "ping 2*0FA8\n", ms=5) if a.startswith("pong")]
    assert [(m.kind, m.values["id"]) for m in pongs] == [("pong", 2)]


@pytest.mark.parametrize("name", ["pod_line", "pod_probes", "pod_pads"])
def test_the_firmwares_own_examples_hold(world: Any, name: str) -> None:
    result = doctest.testmod(world.load(name))
    assert (result.failed, result.attempted > 0) == (0, True)
