"""Short cues on mock pins: what each lights and sounds, and how they give way to a ten-count."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator

import pytest
from cuepins import START, FakeClock
from gpiozero.pins.mock import MockFactory, MockPin

from companion.cues.devices import CueDevices
from companion.cues.short_cues import ShortCues
from companion.cues.stage import Stage
from companion.cues.ten_count import TenCount
from companion.cues.tunes import TUNES

SEAT_PINS = (17, 27, 22, 23)
FAST = 0.001  # every step a thousandth of its length: the order is what is tested


@pytest.fixture
def stage() -> Stage:
    return Stage()


@pytest.fixture
def cues(cue_devices: CueDevices, stage: Stage) -> Iterator[ShortCues]:
    cues = ShortCues(cue_devices, stage, time_scale=FAST)
    yield cues
    cues.close()


def rises(pin: MockPin) -> int:
    seq = [float(s.state) for s in pin.states]
    return sum(1 for a, b in itertools.pairwise(seq) if a == 0 and b > 0)


def dark(pin_factory: MockFactory) -> bool:
    return not pin_factory.pin(18).state and not any(pin_factory.pin(p).state for p in SEAT_PINS)


@pytest.mark.parametrize(
    ("play", "seat"),
    [("your_turn", 2), ("weigh_in", 3), ("melt_warning", 1), ("winner", 4)],
)
def test_a_seat_cue_lights_that_seat_only_sounds_and_ends_dark(
    pin_factory: MockFactory, cues: ShortCues, play: str, seat: int
) -> None:
    getattr(cues, play)(seat)
    cues.drain()
    lit = [step.lit for step in TUNES[play.replace("_", "-")]]
    blinks = sum(1 for i, on in enumerate(lit) if on and (i == 0 or not lit[i - 1]))
    assert blinks >= 1 and rises(pin_factory.pin(SEAT_PINS[seat - 1])) == blinks
    others = [p for i, p in enumerate(SEAT_PINS, start=1) if i != seat]
    assert all(rises(pin_factory.pin(p)) == 0 for p in others)
    assert rises(pin_factory.pin(18)) >= 1
    assert dark(pin_factory)


def test_game_start_lights_every_seat(pin_factory: MockFactory, cues: ShortCues) -> None:
    cues.game_start()
    cues.drain()
    assert all(rises(pin_factory.pin(p)) == 1 for p in SEAT_PINS)
    assert dark(pin_factory)


def test_cues_play_in_the_order_they_were_asked(
    cue_devices: CueDevices, cues: ShortCues, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[tuple[int, ...]] = []
    light = cue_devices.light

    def record(seats, on: bool) -> None:
        if on and (not order or order[-1] != tuple(seats)):
            order.append(tuple(seats))
        light(seats, on)

    monkeypatch.setattr(cue_devices, "light", record)
    for seat in (3, 1, 2):
        cues.your_turn(seat)
    cues.drain()
    assert order == [(3,), (1,), (2,)]


def test_an_unknown_cue_or_seat_is_refused_at_once(cues: ShortCues) -> None:
    with pytest.raises(ValueError, match="seat 9"):
        cues.winner(9)
    with pytest.raises(ValueError, match="no cue called 'fanfare'"):
        cues.play("fanfare", (1,))  # type: ignore[arg-type]


class Timeline:
    """Every write to the outputs, by whom, in order: the cue thread's, and the count's."""

    def __init__(self, cue_devices: CueDevices, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[str] = []
        self.cue_wrote = threading.Event()
        light = cue_devices.light

        def record_light(seats, on: bool) -> None:
            if threading.current_thread().name == "short cues":
                self.events.append(f"cue {on}")
                self.cue_wrote.set()
            light(seats, on)

        monkeypatch.setattr(cue_devices, "light", record_light)

    def on_count(self, n: int) -> None:
        self.events.append(f"count {n}")

    def on_done(self, finished: bool) -> None:
        self.events.append(f"done {finished}")


def test_a_cue_asked_for_during_a_count_waits_for_its_end(
    pin_factory: MockFactory,
    cue_devices: CueDevices,
    stage: Stage,
    cues: ShortCues,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    timeline = Timeline(cue_devices, monkeypatch)
    clock = FakeClock(hold_at=START + 2.0)
    count = TenCount(cue_devices, 0.8, stage=stage, clock=clock, wait=clock.wait)
    count.start(1, timeline.on_count, timeline.on_done)
    assert clock.held.wait(10.0)
    cues.weigh_in(3)
    count.cancel()
    cues.drain()
    done = timeline.events.index("done False")
    assert timeline.events[:done] == ["count 1", "count 2", "count 3"]
    after = timeline.events[done + 1 :]
    assert after and all(e.startswith("cue") for e in after)
    assert rises(pin_factory.pin(SEAT_PINS[2])) == 3  # the whole weigh-in cue played after it
    assert dark(pin_factory)


def test_a_count_cuts_off_a_cue_that_is_playing(
    pin_factory: MockFactory, cue_devices: CueDevices, stage: Stage, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = ShortCues(cue_devices, stage, time_scale=100.0)  # the cue would last minutes
    try:
        timeline = Timeline(cue_devices, monkeypatch)
        slow.melt_warning(2)
        assert timeline.cue_wrote.wait(10.0)
        clock = FakeClock()
        count = TenCount(cue_devices, 0.8, stage=stage, clock=clock, wait=clock.wait)
        count.start(1, timeline.on_count, timeline.on_done)
        assert count.join(10.0)
        slow.drain()
        assert timeline.events[0] == "cue True"
        assert timeline.events[1:] == [*(f"count {n}" for n in range(1, 11)), "done True"]
        assert dark(pin_factory)
    finally:
        slow.close()
