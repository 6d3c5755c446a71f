"""The ten-count on mock pins and a fake clock: what sounds and lights, in what order, and when."""

from __future__ import annotations

import itertools

import pytest
from cuepins import START, CuePinMap, FakeClock
from gpiozero.pins.mock import MockFactory, MockPin

from companion.cues.devices import CueDevices
from companion.cues.ten_count import COUNTS, TEN_S, CountRunning, TenCount, plan

PACE = 0.8
SEAT = 2


class Log:
    """What the callbacks saw: each count's time, tone and lights, and how the count ended."""

    def __init__(self, cue_devices: CueDevices, clock: FakeClock) -> None:
        self.devices, self.clock = cue_devices, clock
        self.counts: list[int] = []
        self.times: list[float] = []
        self.tones: list[str | None] = []
        self.bars: list[int] = []
        self.done: list[bool] = []

    def on_count(self, n: int) -> None:
        self.counts.append(n)
        self.times.append(self.clock())
        buzzer = self.devices.buzzer
        self.tones.append(buzzer.tone.note if self.devices.tonal else str(buzzer.is_active))
        self.bars.append(sum(led.is_lit for led in self.devices.bar))

    def on_done(self, finished: bool) -> None:
        self.done.append(finished)


def values(pin: MockPin) -> list[float]:
    """The states the pin went through since it was cleared, its state then first."""
    return [float(s.state) for s in pin.states]


def rises(pin: MockPin) -> int:
    """How many times the pin went from off to on."""
    seq = values(pin)
    return sum(1 for a, b in itertools.pairwise(seq) if a == 0 and b > 0)


def all_dark(devices: CueDevices) -> bool:
    outputs = (devices.buzzer.pwm_device if devices.tonal else devices.buzzer, *devices.seat_leds)
    return all(not d.pin.state for d in (*outputs, *devices.bar))


def count(cue_devices: CueDevices, clock: FakeClock, **kwargs) -> tuple[TenCount, Log]:
    player = TenCount(cue_devices, PACE, clock=clock, wait=clock.wait, **kwargs)
    return player, Log(cue_devices, clock)


def test_ten_beeps_one_more_bar_led_each_and_a_long_lower_tone_on_ten(
    pin_factory: MockFactory, cue_devices: CueDevices
) -> None:
    clock = FakeClock()
    player, log = count(cue_devices, clock)
    player.start(SEAT, log.on_count, log.on_done)
    assert player.join(10.0)
    assert log.counts == list(range(1, COUNTS + 1))
    assert log.bars == log.counts
    assert log.tones == ["A5"] * 9 + ["A4"]
    assert log.done == [True]
    buzzer = pin_factory.pin(18)
    assert values(buzzer)[1:] == [0.5, 0.0] * COUNTS
    for i, pin in enumerate(cue_devices.bar, start=1):  # lit at its count, out at the end
        assert values(pin_factory.pin(pin.pin.info.name))[1:] == [1.0, 0.0], i
    assert rises(pin_factory.pin(27)) == COUNTS
    assert all(values(pin_factory.pin(p)) == [0.0] for p in (17, 22, 23))  # other seats stay dark
    assert all_dark(cue_devices)
    assert not player.running


def test_counts_stay_on_the_grid_when_each_count_costs_time(cue_devices: CueDevices) -> None:
    """No drift: each count's work takes 30% of a pace, and count n still sounds at (n-1) paces."""
    clock = FakeClock()
    player, log = count(cue_devices, clock)

    def slow_count(n: int) -> None:
        log.on_count(n)
        clock.now += 0.3 * PACE

    player.start(SEAT, slow_count, log.on_done)
    assert player.join(10.0)
    assert player.started_at == START
    assert log.times == pytest.approx([START + i * PACE for i in range(COUNTS)], abs=1e-9)
    assert clock() == pytest.approx(START + (COUNTS - 1) * PACE + TEN_S, abs=1e-9)


def test_a_late_count_sounds_at_once_and_the_next_is_back_on_time(cue_devices: CueDevices) -> None:
    clock = FakeClock()
    player, log = count(cue_devices, clock)

    def stalls_on_three(n: int) -> None:
        log.on_count(n)
        if n == 3:
            clock.now += 1.5 * PACE

    player.start(SEAT, stalls_on_three, log.on_done)
    assert player.join(10.0)
    ideal = [START + i * PACE for i in range(COUNTS)]
    ideal[3] = START + 3.5 * PACE  # count 4 came late, and was not skipped
    assert log.times == pytest.approx(ideal, abs=1e-9)
    assert log.counts == list(range(1, COUNTS + 1))


def test_cancel_from_another_thread_ends_at_once_in_the_dark(
    pin_factory: MockFactory, cue_devices: CueDevices
) -> None:
    clock = FakeClock(hold_at=START + 4.5 * PACE)  # after count 5 sounded
    player, log = count(cue_devices, clock)
    player.start(SEAT, log.on_count, log.on_done)
    assert clock.held.wait(10.0)
    assert player.running
    assert player.cancel()
    assert not player.running
    assert log.counts == [1, 2, 3, 4, 5]
    assert log.done == [False]
    assert rises(pin_factory.pin(18)) == 5
    assert all_dark(cue_devices)
    assert not player.cancel()  # nothing left to cancel


def test_cancel_from_a_count_callback_ends_the_count(
    pin_factory: MockFactory, cue_devices: CueDevices
) -> None:
    clock = FakeClock()
    player, log = count(cue_devices, clock)

    def cancel_on_three(n: int) -> None:
        log.on_count(n)
        if n == 3:
            assert player.cancel()

    player.start(SEAT, cancel_on_three, log.on_done)
    assert player.join(10.0)
    assert log.counts == [1, 2, 3]
    assert log.done == [False]
    assert all_dark(cue_devices)


def test_a_second_count_is_refused_while_one_runs_and_may_follow_it(
    cue_devices: CueDevices,
) -> None:
    clock = FakeClock(hold_at=START + 2 * PACE)
    player, log = count(cue_devices, clock)
    player.start(SEAT, log.on_count, log.on_done)
    assert clock.held.wait(10.0)
    with pytest.raises(CountRunning, match="cancel it"):
        player.start(1)
    player.cancel()
    clock.hold_at = None
    player.start(1, log.on_count, log.on_done)
    assert player.join(10.0)
    assert log.done == [False, True]
    assert log.counts == [1, 2, *range(1, COUNTS + 1)]


def test_a_failing_callback_does_not_stop_the_count(
    cue_devices: CueDevices, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    player, log = count(cue_devices, clock)

    def broken(n: int) -> None:
        log.on_count(n)
        raise RuntimeError("phone push failed")

    player.start(SEAT, broken, log.on_done)
    assert player.join(10.0)
    assert log.counts == list(range(1, COUNTS + 1))
    assert log.done == [True]
    assert "ten-count callback failed" in caplog.text


def test_an_active_buzzer_beeps_ten_times(pin_factory: MockFactory) -> None:
    cue_devices = CueDevices.from_pins(CuePinMap(buzzer_kind="active"), 4, pin_factory)
    try:
        pin_factory.pin(18).clear_states()
        clock = FakeClock()
        player, log = count(cue_devices, clock)
        player.start(4, log.on_count, log.on_done)
        assert player.join(10.0)
        assert log.tones == ["True"] * COUNTS
        assert values(pin_factory.pin(18))[1:] == [1.0, 0.0] * COUNTS
        assert rises(pin_factory.pin(23)) == COUNTS
        assert all_dark(cue_devices)
    finally:
        cue_devices.close()


def test_an_unknown_seat_is_refused_before_anything_starts(cue_devices: CueDevices) -> None:
    player, _ = count(cue_devices, FakeClock())
    with pytest.raises(ValueError, match="seat 5 is not at this table"):
        player.start(5)
    assert not player.running


@pytest.mark.parametrize("pace", [0.05, 0.3, 0.8, 2.0])
def test_the_plan_beeps_then_dims_within_each_count(pace: float) -> None:
    beats = plan(pace)
    assert [b.at for b in beats] == sorted(b.at for b in beats)
    counts = [b for b in beats if b.what in ("count", "ten")]
    assert [b.n for b in counts] == list(range(1, COUNTS + 1))
    assert [b.at for b in counts] == pytest.approx([i * pace for i in range(COUNTS)])
    for n in range(1, COUNTS):
        at = {b.what: b.at for b in beats if b.n == n}
        assert at["count"] < at["quiet"] < at["dim"] < at["count"] + pace
    assert beats[-1].what == "end" and beats[-1].at == pytest.approx(9 * pace + TEN_S)


@pytest.mark.parametrize("pace", [0.0, -0.8, float("nan")])
def test_a_pace_that_is_not_positive_is_refused(pace: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        plan(pace)
