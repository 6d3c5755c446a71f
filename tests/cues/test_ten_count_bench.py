"""The ten-count benchmark runs in quick mode and reports every variant; its figures untested."""

from __future__ import annotations

import json
import math

from gpiozero import Buzzer
from gpiozero.pins.mock import MockFactory

from bench import ten_count
from bench.report import table


def test_quick_ten_count_bench_reports_each_variant() -> None:
    result = ten_count.run(quick=True)
    data = result.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["name"] == "ten-count timing" and data["unit"] == "ms" and data["goal"] == 2
    variants = data["variants"]
    assert data["value"] == variants["cue process"]["p99_ms"]
    assert data["baseline"] == variants["gpiozero beep(n=10)"]["p99_ms"]
    assert "player on a thread of the busy process" in variants
    for figures in variants.values():
        assert all(math.isfinite(v) and v >= 0 for v in figures.values())
        assert figures["median_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert data["counts"] == ten_count.COUNTS
    assert "ten-count timing" in table([result])


def test_the_stamped_pin_finds_each_rising_edge() -> None:
    factory = MockFactory(pin_class=ten_count.StampedPin)
    buzzer = Buzzer(ten_count.BUZZER, pin_factory=factory)
    try:
        for on in (True, False, True, True, False, True):
            buzzer.value = on
        pin = factory.pin(ten_count.BUZZER)
        assert isinstance(pin, ten_count.StampedPin)
        edges = pin.rising_edges()
        assert len(edges) == 3 and edges == sorted(edges)
    finally:
        buzzer.close()
