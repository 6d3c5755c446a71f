"""The cue player in its own process: counts and their end come back; failures are events."""

from __future__ import annotations

import itertools
import queue
import subprocess
import sys
import time
import types
from collections.abc import Iterator

import pytest
from cuepins import CuePinMap

from companion.config import parse_config
from companion.cues.process import (
    Counted,
    CountEnded,
    CueEvent,
    CueProcess,
    CueSettings,
    CuesFailed,
    CuesStarted,
    pin_factory,
)
from companion.sensors.calibration import Calibration
from companion.sensors.sources import pad_settings
from companion.table.cue_player import cue_settings

PACE_S = 0.05
WAIT_S = 30.0


class Events:
    """What the child sent, to wait on one kind at a time."""

    def __init__(self) -> None:
        self.queue: queue.Queue[CueEvent] = queue.Queue()

    def __call__(self, event: CueEvent) -> None:
        self.queue.put(event)

    def until(self, kind: type) -> list[CueEvent]:
        """Every event up to and including the first of ``kind``."""
        seen: list[CueEvent] = []
        deadline = time.monotonic() + WAIT_S
        while not seen or not isinstance(seen[-1], kind):
            seen.append(self.queue.get(timeout=max(deadline - time.monotonic(), 0.01)))
        return seen


@pytest.fixture(scope="module")
def player() -> Iterator[tuple[CueProcess, Events]]:
    events = Events()
    settings = CueSettings(CuePinMap(), seats=4, pace_s=PACE_S, ten_s=PACE_S, pin_factory="mock")
    with CueProcess(settings, events) as cues:
        (started,) = events.until(CuesStarted)
        assert started.priority
        yield cues, events


def test_a_count_comes_back_count_by_count(player: tuple[CueProcess, Events]) -> None:
    cues, events = player
    cues.count(3)
    seen = events.until(CountEnded)
    counts = [e for e in seen if isinstance(e, Counted)]
    assert [c.n for c in counts] == list(range(1, 11))
    assert all(c.seat == 3 for c in counts)
    assert seen[-1] == CountEnded(3, True, seen[-1].t)
    assert all(a.t <= b.t for a, b in itertools.pairwise(counts))


def test_a_count_is_cancelled_and_a_second_is_refused(player: tuple[CueProcess, Events]) -> None:
    cues, events = player
    cues.count(1)
    cues.count(2)  # refused while seat 1's runs
    refused = events.until(CountEnded)[-1]
    assert (refused.seat, refused.finished) == (2, False)
    cues.cancel()
    ended = events.until(CountEnded)[-1]
    assert (ended.seat, ended.finished) == (1, False)


def test_an_unknown_seat_or_cue_does_not_stop_the_player(
    player: tuple[CueProcess, Events],
) -> None:
    cues, events = player
    cues.cue("no-such-cue", (1,))  # type: ignore[arg-type]
    cues.count(9)
    refused = events.until(CountEnded)[-1]
    assert (refused.seat, refused.finished) == (9, False)
    cues.cue("your-turn", (2,))
    cues.count(2)
    assert events.until(CountEnded)[-1].finished


def test_pins_that_cannot_open_are_reported() -> None:
    events = Events()
    clash = CuePinMap(seat_leds=(18, 27, 22, 23))  # seat 1's LED on the buzzer's pin
    with CueProcess(CueSettings(clash, seats=4, pin_factory="mock"), events):
        (failed,) = events.until(CuesFailed)
        assert "cannot open the cue pins" in failed.reason


def test_a_dead_player_is_reported() -> None:
    events = Events()
    with CueProcess(CueSettings(CuePinMap(), seats=4, pin_factory="mock"), events) as cues:
        events.until(CuesStarted)
        cues._process.kill()
        failed = events.until(CuesFailed)[-1]
        assert "stopped (exit code -9)" in failed.reason


def test_a_count_may_come_at_its_own_pace(player: tuple[CueProcess, Events]) -> None:
    cues, events = player
    cues.count(4, pace_s=PACE_S / 2, ten_s=PACE_S / 2)
    seen = events.until(CountEnded)
    counts = [e for e in seen if isinstance(e, Counted)]
    assert len(counts) == 10 and seen[-1].finished


def test_the_daemon_side_of_the_cues_needs_no_gpiozero() -> None:
    probe = "import sys, companion.cli.run; print(list(sys.modules))"  # the daemon, web and all
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "'gpiozero'" not in done.stdout


def test_the_config_s_gpio_chip_reaches_gpiozero(monkeypatch: pytest.MonkeyPatch) -> None:
    """``[pins] chip`` opens the cues through ``LGPIOFactory(chip=)``; without it (or on a named
    factory such as the mock pins) gpiozero chooses, as it always did."""
    opened: list[int] = []

    class LGPIOFactory:
        def __init__(self, chip: int) -> None:
            opened.append(chip)

    fake = types.ModuleType("gpiozero.pins.lgpio")
    fake.LGPIOFactory = LGPIOFactory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", fake)
    pins = CuePinMap()
    assert isinstance(pin_factory(CueSettings(pins, seats=4, chip=4)), LGPIOFactory)
    assert opened == [4]
    assert pin_factory(CueSettings(pins, seats=4)) is None
    assert pin_factory(CueSettings(pins, seats=4, chip=4, pin_factory="mock")) is None
    config = parse_config("table.toml", "[pins]\nchip = 4\n")
    assert cue_settings(config, simulate=False).chip == 4
    assert pad_settings(config, Calibration(), "RPi.GPIO").chip == 4
