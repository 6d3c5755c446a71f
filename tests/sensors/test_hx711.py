"""The HX711 bank through the real rpi-lgpio over bit-level chips, on a fake clock, and its
reader process end to end."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import chip_libraries
import pytest
from fake_hx711 import (
    TABLE_CLOCK,
    TABLE_DATA,
    TABLE_NOISE,
    TABLE_VALUES,
    FakeClock,
    FakeHX711,
    pad_heard,
)
from fake_lgpio import SET_PULL_NONE, SET_PULL_UP, FakeLgpio, Gpiochip, error, rpi_gpio
from waiting import wait_until

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

Table = tuple[HX711Bank, Gpiochip, list[FakeHX711], FakeClock]
MakeTable = Callable[..., Table]


@pytest.fixture
def make_table() -> MakeTable:
    """A bank of four pads on chips out of phase, not yet settled, on one fake clock, read
    through a fresh rpi-lgpio whose gpiochip0 is their header."""

    def make(
        gain: int = 128,
        rate_hz: int = 10,
        noise: int = NOISE,
        settle: bool = True,
        lazy: bool = False,
    ) -> Table:
        clock = FakeClock()
        chips = [
            FakeHX711(value, noise=noise, seed=n, rate_hz=rate_hz, phase_ns=n * 23_000_000)
            for n, value in enumerate(VALUES)
        ]
        header = Gpiochip(CLOCK, dict(zip(PINS, chips, strict=True)), timer=clock, lazy=lazy)
        gpio = rpi_gpio(FakeLgpio({0: header}))
        bank = HX711Bank(
            gpio, CLOCK, PINS, gain=gain, rate_hz=rate_hz, timer=clock, sleep=clock.sleep
        )
        if settle:
            for _ in range(SETTLING_READS + (gain != 128)):
                assert bank.read() == [None] * len(PINS)
        return bank, header, chips, clock

    return make


def near(word: Word, value: int, noise: int = NOISE) -> bool:
    return isinstance(word, int) and abs(word - value) <= noise


def test_the_pads_are_set_up_and_the_chips_reset(make_table: MakeTable) -> None:
    bank, header, chips, _ = make_table(settle=False)
    assert bank.gpio.getmode() == bank.gpio.BCM
    assert header.claimed() == {
        CLOCK: ("out", SET_PULL_NONE),
        **dict.fromkeys(PINS, ("in", SET_PULL_UP)),
    }
    assert header.lines[CLOCK].level == 0
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
    bank, header, chips, _ = make_table(gain=gain)
    before = header.rising_edges
    words = bank.read()
    assert header.rising_edges - before == pulses
    assert near(words[0], channel_value)
    assert all(chip.gain == gain for chip in chips)
    assert all(count == pulses for chip in chips for count in chip.pulse_counts)


def test_four_pads_are_read_together_on_one_clock(make_table: MakeTable) -> None:
    bank, header, _, _ = make_table()
    before = header.rising_edges
    for _ in range(3):
        words = bank.read()
        assert all(near(w, v) for w, v in zip(words, VALUES, strict=True))
    assert header.rising_edges - before == 3 * 25


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
    bank, header, chips, _ = make_table()
    header.stretch(pulse=7, us=75)
    assert bank.read() == [stretched(75_000)] * 4
    assert stretched(75_000) == "clock held high 75 us: the read was interrupted"
    assert all(chip.resets == 2 for chip in chips)
    for _ in range(SETTLING_READS + 1):
        assert bank.read() == [None] * 4
    assert all(near(w, v) for w, v in zip(bank.read(), VALUES, strict=True))


def test_a_clock_high_within_the_limit_is_accepted(make_table: MakeTable) -> None:
    bank, header, chips, _ = make_table(gain=64)
    header.stretch(pulse=25, us=50)
    words = bank.read()
    assert near(words[0], VALUES[0] // 2)
    assert all(chip.resets == 1 and chip.gain == 64 for chip in chips)


def test_a_lazy_header_hands_the_chips_each_edge_at_its_own_time(make_table: MakeTable) -> None:
    bank, header, chips, _ = make_table(lazy=True)
    assert all(near(w, v) for w, v in zip(bank.read(), VALUES, strict=True))
    header.stretch(pulse=3, us=75)
    assert bank.read() == [stretched(75_000)] * 4
    assert all(chip.resets == 2 for chip in chips)  # at the fall after the stretched pulse


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
    header = Gpiochip(CLOCK, {6: FakeHX711(), 13: FakeHX711(seed=1)}, timer=clock)
    gpio = rpi_gpio(FakeLgpio({0: header}))
    bank = HX711Bank(gpio, CLOCK, (6, 13), seats={6: 3, 13: 1}, timer=clock, sleep=clock.sleep)
    assert bank.sweep(now=clock.monotonic) == []
    for _ in range(SETTLING_READS):
        readings = bank.sweep(now=clock.monotonic)
    assert [(r.seat, r.id) for r in readings] == [(3, "hx711:gpio6"), (1, "hx711:gpio13")]


def test_close_gives_the_pins_back(make_table: MakeTable) -> None:
    bank, header, _, _ = make_table(settle=False)
    with bank:
        pass
    assert header.claimed() == {}
    with pytest.raises(RuntimeError, match=r"setup\(\) the GPIO channel first"):
        bank.gpio.input(PINS[0])


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
        HX711Bank(rpi_gpio(FakeLgpio({})), **settings)  # type: ignore[arg-type]


def test_the_gpio_module_is_loaded_from_a_path() -> None:
    gpio = load_gpio("fake_hx711:table_of_four")
    assert Path(gpio.__file__) == chip_libraries.folder() / "RPi" / "GPIO" / "__init__.py"
    assert isinstance(gpio.lgpio, FakeLgpio)
    assert load_gpio("os.path") is os.path
    with pytest.raises(CompanionError, match="rpi-lgpio"):
        load_gpio("fake_hx711:no_such_table")


# rpi-lgpio over the fake lgpio: its refusals and errors are its own, from lgpio's answers.


def test_each_table_gets_its_own_rpi_lgpio_and_the_imports_are_left_as_they_were() -> None:
    before = {name: sys.modules.get(name) for name in ("lgpio", "RPi", "RPi.GPIO")}
    first, second = (rpi_gpio(FakeLgpio({0: Gpiochip(CLOCK, {})})) for _ in range(2))
    first.setmode(first.BCM)
    assert first is not second and second.getmode() is None
    assert {name: sys.modules.get(name) for name in before} == before


def test_rpi_lgpio_refuses_what_rpi_gpio_refuses() -> None:
    gpio = rpi_gpio(FakeLgpio({0: Gpiochip(CLOCK, {})}))
    with pytest.raises(RuntimeError, match="set pin numbering mode"):
        gpio.setup(CLOCK, gpio.OUT)
    gpio.setmode(gpio.BCM)
    with pytest.raises(ValueError, match="different mode"):
        gpio.setmode(gpio.BOARD)
    with pytest.raises(RuntimeError, match=r"setup\(\) the GPIO channel first"):
        gpio.input(6)
    gpio.setup(6, gpio.IN, pull_up_down=gpio.PUD_UP)
    with pytest.raises(RuntimeError, match="not been set up as an OUTPUT"):
        gpio.output(6, gpio.HIGH)
    assert gpio.gpio_function(6) == gpio.IN and gpio.input(6) == gpio.HIGH  # pulled up


def test_the_fake_lgpio_answers_as_lgpio_does() -> None:
    header = Gpiochip(CLOCK, {}, lines=54, seed=3)
    lgpio = FakeLgpio({4: header})
    with pytest.raises(error, match="can not open gpiochip"):
        lgpio.gpiochip_open(0)
    handle = lgpio.gpiochip_open(4)
    assert handle >> 16 == 4
    assert lgpio.gpio_get_chip_info(handle) == [0, 54, "gpiochip4", "pinctrl-rp1"]
    with pytest.raises(error, match="GPIO not allocated"):
        lgpio.gpio_free(handle, 6)
    assert {lgpio.gpio_read(handle, 6) for _ in range(40)} == {0, 1}  # claimed, floating
    assert lgpio.gpio_get_mode(handle, 6) == 0x101  # in use; lgpio's input
    lgpio.gpio_claim_output(handle, 5, 1, lgpio.SET_PULL_NONE)
    assert lgpio.gpio_get_mode(handle, 5) == 0x283 and lgpio.gpio_read(handle, 5) == 1
    other = lgpio.gpiochip_open(4)
    assert lgpio.gpio_get_mode(other, 5) == 0x83  # the kernel's view alone
    with pytest.raises(error, match="GPIO busy"):
        lgpio.gpio_claim_input(other, 5, lgpio.SET_PULL_UP)
    lgpio.exceptions = False
    assert lgpio.gpio_get_mode(handle, 54) == lgpio.BAD_GPIO_NUMBER
    assert lgpio.gpiochip_close(handle) == 0 and header.claimed() == {}
    assert lgpio.gpio_read(handle, 5) == lgpio.BAD_HANDLE


def test_a_second_bank_on_pins_another_holds_is_refused_as_busy(make_table: MakeTable) -> None:
    bank, header, _, clock = make_table(settle=False)
    again = rpi_gpio(bank.gpio.lgpio)
    with pytest.raises(error, match="GPIO busy"):
        HX711Bank(again, CLOCK, PINS, timer=clock, sleep=clock.sleep)
    assert header.claimed()[CLOCK] == ("out", SET_PULL_NONE)


def test_a_bank_on_a_pi_without_the_header_s_gpiochip_cannot_start() -> None:
    gpio = rpi_gpio(FakeLgpio({4: Gpiochip(CLOCK, {})}))
    with pytest.raises(error, match="can not open gpiochip"):
        HX711Bank(gpio, CLOCK, PINS)


def test_an_unplugged_pad_reads_as_no_data_for_its_pulled_up_line() -> None:
    clock = FakeClock()
    header = Gpiochip(CLOCK, {6: FakeHX711()}, timer=clock)
    bank = HX711Bank(
        rpi_gpio(FakeLgpio({0: header})), CLOCK, (6, 13), timer=clock, sleep=clock.sleep
    )
    words = [bank.read(timeout_s=0.3) for _ in range(SETTLING_READS + 2)]
    assert all(w[1] == NO_DATA for w in words) and near(words[-1][0], 74_565)


# The reader process: one child started for the module, with the fake table in it. Its pads are
# read in real time through rpi-lgpio, so a pad is heard from when it reads its count, or when
# the bank rejects a read whose clock stayed high too long (``pad_heard``), never otherwise.


@pytest.fixture(scope="module")
def reader() -> Iterator[HX711Reader]:
    settings = PadSettings(TABLE_CLOCK, TABLE_DATA, rate_hz=80, gpio="fake_hx711:table_of_four")
    with HX711Reader(settings, restart_s=0.2) as reader:
        yield reader


def collect(reader: HX711Reader, done: Callable[[list[Reading]], bool]) -> list[Reading]:
    """Readings until ``done`` says there are enough; the deadline only keeps a broken run short."""
    got: list[Reading] = []

    def enough() -> bool:
        got.extend(reader.readings())
        return done(got)

    wait_until(enough, 60, every_s=0.01, what=lambda: f"enough readings; only got {got[-8:]}")
    return got


def heard_seats(readings: list[Reading]) -> set[int | None]:
    """The seats whose pad read its count, or was read too slowly and rejected for it."""
    return {r.seat for r in readings if pad_heard(r.status)}


def test_the_child_reads_every_pad_and_reports_the_unplugged_one(reader: HX711Reader) -> None:
    before = time.monotonic()
    got = collect(reader, lambda got: heard_seats(got) == {1, 2, 3} and len(got) > 40)
    after = time.monotonic()
    for r in got:
        assert before - 5 < r.t <= after
        if r.seat == 4:
            assert r.status == fault(NO_DATA)
        elif r.ok:
            assert r.raw is not None and abs(r.raw - TABLE_VALUES[r.seat - 1]) <= TABLE_NOISE
        else:
            assert pad_heard(r.status), r
    assert reader.priority is not None


def test_a_dead_child_is_a_fault_on_every_pad_and_is_started_again(reader: HX711Reader) -> None:
    collect(reader, lambda got: len(heard_seats(got)) == 3)
    first = reader.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    faults = collect(reader, lambda got: any("stopped" in r.status for r in got))
    dead = [r for r in faults if "stopped" in r.status]
    assert {r.seat for r in dead[-4:]} == {1, 2, 3, 4}
    assert dead[-1].status.startswith("fault: the pad reader stopped (exit code -9)")
    collect(reader, lambda got: heard_seats(got) == {1, 2, 3})
    assert reader.pid not in (None, first)


def test_close_stops_the_child(reader: HX711Reader) -> None:
    collect(reader, lambda got: len(heard_seats(got)) == 3)
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
    the GPIO module is loaded, read as it opens the chip); without it rpi-lgpio opens gpiochip0,
    which this Pi does not have, and lgpio's error says so."""
    on_chip = PadSettings(TABLE_CLOCK, TABLE_DATA, rate_hz=80, gpio="fake_hx711:table_on_chip_4")
    with HX711Reader(replace(on_chip, chip=4), restart_s=0.2) as reader:
        assert heard_seats(collect(reader, lambda got: len(heard_seats(got)) >= 3)) == {1, 2, 3}
    with HX711Reader(on_chip, restart_s=0.2) as reader:
        failed = collect(reader, lambda got: any(not r.ok for r in got))
        assert any("can not open gpiochip" in (r.status or "") for r in failed), failed[:2]
