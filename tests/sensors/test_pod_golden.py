"""The host's codec against the protocol's golden lines, which the firmware's tests share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.sensors.pod_protocol import BadLine, command, parse

GOLDEN = Path(__file__).resolve().parents[2] / "firmware" / "pod" / "golden.jsonl"
LINES = [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]
POD = [g for g in LINES if g["from"] == "pod" and "error" not in g]
REFUSED = [g for g in LINES if g["from"] == "pod" and "error" in g]
HOST = [g for g in LINES if g["from"] == "host"]


def golden_values(example: dict[str, Any]) -> dict[Any, Any]:
    """The golden values as the parser gives them: a pads line's channels are numbers."""
    values = example["values"]
    return {int(k): v for k, v in values.items()} if example["kind"] == "pads" else values


def test_the_golden_file_has_every_kind_of_example() -> None:
    assert {g["kind"] for g in POD} >= {"hello", "probes", "pads", "ack", "nak", "pong"}
    assert len(REFUSED) >= 8 and len(HOST) >= 7


@pytest.mark.parametrize("example", POD, ids=[g["note"] for g in POD])
def test_each_pod_line_parses_to_its_kind_seq_time_and_values(example: dict[str, Any]) -> None:
    for line in (example["line"], example["line"] + "\n", (example["line"] + "\r\n").encode()):
        message = parse(line)
        assert (message.kind, message.seq, message.ms) == (
            example["kind"],
            example["seq"],
            example["ms"],
        )
        assert message.values == golden_values(example)


@pytest.mark.parametrize("example", REFUSED, ids=[g["note"] for g in REFUSED])
def test_each_bad_line_is_refused_with_its_reason(example: dict[str, Any]) -> None:
    with pytest.raises(BadLine, match=example["error"]):
        parse(example["line"])


@pytest.mark.parametrize("example", HOST, ids=[g["note"] for g in HOST])
def test_each_host_command_encodes_to_its_golden_line(example: dict[str, Any]) -> None:
    verb, command_id, *words = example["line"].split("*")[0].split(" ")
    assert command(verb, int(command_id), *words) == (example["line"] + "\n").encode("ascii")
