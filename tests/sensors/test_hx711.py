"""The HX711 bank against fake chips on a fake clock, and its reader process end to end."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from fake_hx711 import (
    TABLE_CLOCK,
    TABLE_DATA,
    TABLE_NOISE,
    TABLE_VALUES,
    FakeClock,
    FakeGPIO,
    FakeHX711,
)

from companion.errors import CompanionError
from companion.sensors.hx711 import (
    NO_DATA,
    SATURATED,
    SETTLING_READS,
    STUCK_HIGH,
    STUCK_LOW,
    STUCK_REPEATS,
    HX711Bank,
    Word,
    load_gpio,
    repeated,
    stretched,
)
from companion.sensors.hx711_process import HX711Reader, PadSettings
from companion.sensors.reading import OK, SCALE, Reading, fault

CLOCK = 5
PINS = (6, 13, 19, 26)
VALUES = (74_565, -123_456, 2_000_000, 1_000)
NOISE = 3

Table = tuple[HX711Bank, FakeGPIO, list[FakeHX711], FakeClock]
MakeTable = Callable[..., Table]


@pytest.fixture
def make_table() -> MakeTable:
    """A bank of four pads on fake chips out of phase, not yet settled, on one fake clock."""

    def make(gain: int = 128, rate_hz: int = 10, noise: int = NOISE, settle: bool = True) -> Table:
        clock = FakeClock()
        chips = [
            FakeHX711(value, noise=noise, seed=n, rate_hz=rate_hz, phase_ns=n * 23_000_000)
            for n, value in enumerate(VALUES)
        ]
        gpio = FakeGPIO(CLOCK, dict(zip(PINS, chips, strict=True)), timer=clock)
        bank = HX711Bank(
            gpio, CLOCK, PINS, gain=gain, rate_hz=rate_hz, timer=clock, sleep=clock.sleep
        )
        if settle:
            for _ in range(SETTLING_READS + (gain != 128)):
                assert bank.read() == [None] * len(PINS)
        return bank, gpio, chips, clock

    return make


def near(word: Word, value: int, noise: int = NOISE) -> bool:
    return isinstance(word, int) and abs(word - value) <= noise


def test_the_pads_are_set_up_and_the_chips_reset(make_table: MakeTable) -> None:
    _, gpio, chips, _ = make_table(settle=False)
    assert gpio.mode == gpio.BCM
    assert gpio.directions == {CLOCK: gpio.OUT, **dict.fromkeys(PINS, gpio.IN)}
    assert all(gpio.pulls[pin] == gpio.PUD_UP for pin in PINS)
    assert gpio.levels[CLOCK] == gpio.LOW
    assert all(chip.resets == 1 for chip in chips)


def test_the_first_words_after_a_reset_are_discarded(make_table: MakeTable) -> None:
    bank, _, _, _ = make_table(settle=False)
    for _ in range(SETTLING_READS):
        assert bank.read() == [None] * 4
    words = bank.read()
    assert all(near(w, v) for w, v in zip(words, VALUES, strict=True))


@pytest.mark.parametrize(
    ("raw", "count"),
    [
        (0x000001, 1),
        (0x012345, 74_565),
        (0x7FFFFE, 8_388_606),
        (0xFFFFFE, -2),
        (0xFE1DC0, -123_456),
        (0x800001, -8_388_607),
    ],
)
def test_words_are_24_bit_twos_complement(make_table: MakeTable, raw: int, count: int) -> None:
    bank, _, chips, _ = make_table()
    chips[0].words.append(raw)
    assert bank.read()[0] == count


@pytest.mark.parametrize(
    ("gain", "pulses", "channel_value"), [(128, 25, 74_565), (32, 26, 18_641), (64, 27, 37_282)]
)
def test_the_pulse_count_selects_the_gain(
    make_table: MakeTable, gain: int, pulses: int, channel_value: int
) -> None:
    bank, gpio, chips, _ = make_table(gain=gain)
    before = gpio.rising_edges
    words = bank.read()
    assert gpio.rising_edges - before == pulses
    assert near(words[0], channel_value)
    assert all(chip.gain == gain for chip in chips)
    assert all(count == pulses for chip in chips for count in chip.pulse_counts)


def test_four_pads_are_read_together_on_one_clock(make_table: MakeTable) -> None:
    bank, gpio, _, _ = make_table()
    before = gpio.rising_edges
    for _ in range(3):
        words = bank.read()
        assert all(near(w, v) for w, v in zip(words, VALUES, strict=True))
    assert gpio.rising_edges - before == 3 * 25


def test_a_read_waits_for_the_slowest_pad_to_be_ready(make_table: MakeTable) -> None:
    bank, _, chips, _ = make_table()
    chips[3].phase_ns += 60_000_000
    assert near(bank.read()[3], VALUES[3])
    assert all(count == 25 for chip in chips for count in chip.pulse_counts)


@pytest.mark.parametrize(
    ("spoil", "reason"),
    [
        (lambda chip: chip.words.append(0x7FFFFF), SATURATED),
        (lambda chip: chip.words.append(0x800000), SATURATED),
        (lambda chip: chip.words.append(0xFFFFFF), STUCK_HIGH),
        (lambda chip: setattr(chip, "dout_stuck", 0), STUCK_LOW),
        (lambda chip: setattr(chip, "dout_stuck", 1), NO_DATA),
        (lambda chip: setattr(chip, "never_ready", True), NO_DATA),
    ],
    ids=["saturated-high", "saturated-low", "all-ones", "dout-stuck-low", "unplugged", "dead"],
)
def test_each_fault_is_its_pads_status_and_the_others_carry_on(
    make_table: MakeTable, spoil: Callable[[FakeHX711], None], reason: str
) -> None:
    bank, _, chips, _ = make_table()
    spoil(chips[1])
    words = bank.read()
    assert words[1] == reason
    assert near(words[0], VALUES[0]) and near(words[2], VALUES[2]) and near(words[3], VALUES[3])


def test_a_dead_pad_costs_one_timeout_not_one_per_read(make_table: MakeTable) -> None:
    bank, _, chips, clock = make_table()
    chips[2].never_ready = True
    start = clock()
    assert bank.read(timeout_s=0.5)[2] == NO_DATA
    assert clock() - start >= 500_000_000
    for _ in range(5):
        start = clock()
        words = bank.read(timeout_s=0.5)
        assert words[2] == NO_DATA and near(words[0], VALUES[0])
        assert clock() - start < 200_000_000


def test_a_pad_that_comes_back_settles_again_from_an_unknown_gain(make_table: MakeTable) -> None:
    bank, _, chips, _ = make_table()
    chips[2].never_ready = True
    assert bank.read()[2] == NO_DATA
    chips[2].never_ready = False
    for _ in range(SETTLING_READS + 1):
        words = bank.read()
        assert words[2] is None and near(words[0], VALUES[0])
    assert near(bank.read()[2], VALUES[2])


def test_a_chip_that_repeats_its_word_is_stuck(make_table: MakeTable) -> None:
    bank, _, chips, _ = make_table()
    chips[0].words.extend([0x012345] * (STUCK_REPEATS + 1))
    words = [bank.read() for _ in range(STUCK_REPEATS + 1)]
    assert [w[0] for w in words[: STUCK_REPEATS - 1]] == [74_565] * (STUCK_REPEATS - 1)
    assert words[STUCK_REPEATS - 1][0] == repeated(STUCK_REPEATS)
    assert words[STUCK_REPEATS][0] == repeated(STUCK_REPEATS + 1)
    assert all(near(w[1], VALUES[1]) for w in words)
    assert near(bank.read()[0], VALUES[0])


def test_a_stretched_clock_rejects_the_read_and_the_pads_resettle(make_table: MakeTable) -> None:
    bank, gpio, chips, _ = make_table()
    gpio.stretch(pulse=7, us=75)
    assert bank.read() == [stretched(75_000)] * 4
    assert stretched(75_000) == "clock held high 75 us: the read was interrupted"
    assert all(chip.resets == 2 for chip in chips)
    for _ in range(SETTLING_READS + 1):
        assert bank.read() == [None] * 4
    assert all(near(w, v) for w, v in zip(bank.read(), VALUES, strict=True))


def test_a_clock_high_within_the_limit_is_accepted(make_table: MakeTable) -> None:
    bank, gpio, chips, _ = make_table(gain=64)
    gpio.stretch(pulse=25, us=50)
    words = bank.read()
    assert near(words[0], VALUES[0] // 2)
    assert all(chip.resets == 1 and chip.gain == 64 for chip in chips)


def test_readings_carry_seat_kind_id_and_time(make_table: MakeTable) -> None:
    bank, _, chips, clock = make_table()
    chips[3].never_ready = True
    readings = bank.sweep(now=clock.monotonic, timeout_s=0.3)
    assert [(r.seat, r.kind, r.id, r.status) for r in readings] == [
        (1, SCALE, "hx711:gpio6", OK),
        (2, SCALE, "hx711:gpio13", OK),
        (3, SCALE, "hx711:gpio19", OK),
        (4, SCALE, "hx711:gpio26", fault(NO_DATA)),
    ]
    assert readings[3].raw is None and readings[0].t == clock.monotonic()


def test_seats_come_from_the_pin_map_and_settling_pads_give_no_readings() -> None:
    clock = FakeClock()
    gpio = FakeGPIO(CLOCK, {6: FakeHX711(), 13: FakeHX711(seed=1)}, timer=clock)
    bank = HX711Bank(gpio, CLOCK, (6, 13), seats={6: 3, 13: 1}, timer=clock, sleep=clock.sleep)
    assert bank.sweep(now=clock.monotonic) == []
    for _ in range(SETTLING_READS):
        readings = bank.sweep(now=clock.monotonic)
    assert [(r.seat, r.id) for r in readings] == [(3, "hx711:gpio6"), (1, "hx711:gpio13")]


def test_close_gives_the_pins_back(make_table: MakeTable) -> None:
    bank, gpio, _, _ = make_table(settle=False)
    with bank:
        pass
    assert sorted(gpio.cleaned) == sorted((CLOCK, *PINS))
    assert gpio.directions == {}


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"gain": 100}, "gain 100"),
        ({"rate_hz": 40}, "rate 40 Hz"),
        ({"data_pins": [5]}, "must differ"),
    ],
)
def test_impossible_settings_are_refused(kwargs: dict[str, object], words: str) -> None:
    settings: dict[str, object] = {"clock_pin": CLOCK, "data_pins": PINS, **kwargs}
    with pytest.raises(ValueError, match=words):
        HX711Bank(FakeGPIO(CLOCK, {}), **settings)  # type: ignore[arg-type]


def test_the_gpio_module_is_loaded_from_a_path() -> None:
    assert isinstance(load_gpio("fake_hx711:table_of_four"), FakeGPIO)
    assert load_gpio("os.path") is os.path
    with pytest.raises(CompanionError, match="rpi-lgpio"):
        load_gpio("fake_hx711:no_such_table")


# The reader process: one child started for the module, with the fake table in it.


@pytest.fixture(scope="module")
def reader() -> Iterator[HX711Reader]:
    settings = PadSettings(TABLE_CLOCK, TABLE_DATA, rate_hz=80, gpio="fake_hx711:table_of_four")
    with HX711Reader(settings, restart_s=0.2) as reader:
        yield reader


def collect(reader: HX711Reader, done: Callable[[list[Reading]], bool]) -> list[Reading]:
    """Readings until ``done`` says there are enough; the deadline only keeps a broken run short."""
    got: list[Reading] = []
    deadline = time.monotonic() + 60
    while not done(got):
        assert time.monotonic() < deadline, f"only got {got[-8:]}"
        time.sleep(0.01)
        got.extend(reader.readings())
    return got


def good_seats(readings: list[Reading]) -> set[int | None]:
    return {r.seat for r in readings if r.ok}


def test_the_child_reads_every_pad_and_reports_the_unplugged_one(reader: HX711Reader) -> None:
    before = time.monotonic()
    got = collect(reader, lambda got: good_seats(got) == {1, 2, 3} and len(got) > 40)
    after = time.monotonic()
    for r in got:
        assert before - 5 < r.t <= after
        if r.seat == 4:
            assert r.status == fault(NO_DATA)
        elif r.ok:
            assert r.raw is not None and abs(r.raw - TABLE_VALUES[r.seat - 1]) <= TABLE_NOISE
    assert reader.priority is not None


def test_a_dead_child_is_a_fault_on_every_pad_and_is_started_again(reader: HX711Reader) -> None:
    collect(reader, lambda got: len(good_seats(got)) == 3)
    first = reader.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    faults = collect(reader, lambda got: any("stopped" in r.status for r in got))
    dead = [r for r in faults if "stopped" in r.status]
    assert {r.seat for r in dead[-4:]} == {1, 2, 3, 4}
    assert dead[-1].status.startswith("fault: the pad reader stopped (exit code -9)")
    collect(reader, lambda got: good_seats(got) == {1, 2, 3})
    assert reader.pid not in (None, first)


def test_close_stops_the_child(reader: HX711Reader) -> None:
    collect(reader, lambda got: len(good_seats(got)) == 3)
    reader.close()
    assert reader.pid is None and reader.readings() == []
    reader.close()


def test_a_child_that_cannot_start_says_why_on_every_pad() -> None:
    settings = PadSettings(TABLE_CLOCK, TABLE_DATA, seats={26: 1}, gpio="no_such_gpio.GPIO")
    with HX711Reader(settings, restart_s=30) as reader:
        faults = collect(reader, lambda got: len(got) >= 4)
    assert [r.seat for r in faults[:4]] == [1, 2, 3, 1]
    assert all(r.status.startswith("fault: cannot load the GPIO module") for r in faults)
    assert "rpi-lgpio" in faults[0].status and faults[0].status.endswith("restarting in 30 s")


def test_the_config_s_gpio_chip_reaches_rpi_lgpio() -> None:
    """``[pins] chip`` is the chip rpi-lgpio opens (``RPI_LGPIO_CHIP``, set in the child before
    the GPIO module is loaded); without it the pads of a gpiochip4 header are not found."""
    on_chip = PadSettings(TABLE_CLOCK, TABLE_DATA, rate_hz=80, gpio="fake_hx711:table_on_chip_4")
    with HX711Reader(replace(on_chip, chip=4), restart_s=0.2) as reader:
        assert {1, 2, 3} <= good_seats(collect(reader, lambda got: len(good_seats(got)) >= 3))
    with HX711Reader(on_chip, restart_s=0.2) as reader:
        failed = collect(reader, lambda got: any(not r.ok for r in got))
        assert any("gpiochip0 has no HX711" in (r.status or "") for r in failed), failed[:2]
