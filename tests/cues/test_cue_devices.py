"""The cue_devices built from a pin map, the seat buttons, and the board the service holds."""

from __future__ import annotations

import threading

import pytest
from cuepins import CuePinMap
from gpiozero import Device, GPIOPinInUse, TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cues.board import CueBoard
from companion.cues.devices import CueDevices


def test_a_button_press_reaches_the_callback_for_its_seat(
    pin_factory: MockFactory, cue_devices: CueDevices
) -> None:
    pressed: list[int] = []
    for seat in (1, 3):
        cue_devices.on_press(seat, pressed.append)
    for pin in (25, 8, 24):  # seat 2 (no callback), seat 3, seat 1
        pin_factory.pin(pin).drive_low()
        pin_factory.pin(pin).drive_high()
    assert pressed == [3, 1]
    cue_devices.on_press(3, None)
    pin_factory.pin(8).drive_low()
    assert pressed == [3, 1]


def test_a_seat_beyond_the_table_has_no_button(cue_devices: CueDevices) -> None:
    with pytest.raises(ValueError, match="seat 5 is not at this table"):
        cue_devices.on_press(5, print)


def test_only_the_seats_at_the_table_get_pins(pin_factory: MockFactory) -> None:
    cue_devices = CueDevices.from_pins(CuePinMap(), 2, pin_factory)
    try:
        assert len(cue_devices.seat_leds) == len(cue_devices.buttons) == 2
        assert len(cue_devices.bar) == 10
        assert isinstance(cue_devices.buzzer, TonalBuzzer)
    finally:
        cue_devices.close()
    CueDevices.from_pins(CuePinMap(), 4, pin_factory).close()  # every pin was released


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seat_leds": (17, 27)}, "seat_leds has 2 pins for 4 seats"),
        ({"seat_buttons": ()}, "seat_buttons has 0 pins for 4 seats"),
        ({"buzzer_kind": "piezo"}, "buzzer_kind must be 'tonal' or 'active'"),
    ],
)
def test_a_map_that_cannot_serve_the_table_is_refused(
    pin_factory: MockFactory, change: dict, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        CueDevices.from_pins(CuePinMap(**change), 4, pin_factory)


def test_a_pin_used_twice_frees_the_pins_opened_before_it(pin_factory: MockFactory) -> None:
    clash = CuePinMap(seat_buttons=(24, 25, 8, 17))  # 17 is seat 1's LED
    with pytest.raises(GPIOPinInUse):
        CueDevices.from_pins(clash, 4, pin_factory)
    CueDevices.from_pins(CuePinMap(), 4, pin_factory).close()  # nothing was left reserved


def test_gpiozero_picks_the_factory_named_in_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
    monkeypatch.setattr(Device, "pin_factory", None)
    cue_devices = CueDevices.from_pins(CuePinMap(), 4)
    try:
        assert isinstance(Device.pin_factory, MockFactory)
        assert isinstance(cue_devices.buzzer.pwm_device.pin, MockPWMPin)
    finally:
        cue_devices.close()
        Device.pin_factory.reset()


def test_closing_the_board_cancels_a_count_and_leaves_all_dark(
    pin_factory: MockFactory,
) -> None:
    board = CueBoard.from_pins(CuePinMap(), 4, pace=0.8, pin_factory=pin_factory)
    done: list[bool] = []
    counted = threading.Event()
    board.ten_count.start(2, lambda n: counted.set(), done.append)
    assert counted.wait(10.0)
    board.cues.your_turn(1)
    board.close()
    board.close()
    assert done == [False]
    assert not any(pin.state for pin in pin_factory.pins.values() if pin.function == "output")
    CueDevices.from_pins(CuePinMap(), 4, pin_factory).close()  # every pin was released


def test_a_button_held_down_is_a_hold_and_a_tap_is_not(pin_factory: MockFactory) -> None:
    """Seat 1's hold shows the referee's code: a hold is the button down for its hold time
    (3 s at the table, a tenth of a second here), once; a tap is only a press."""
    devices = CueDevices.from_pins(CuePinMap(), 4, pin_factory, hold_s=0.1)
    try:
        held = threading.Event()
        holds: list[int] = []
        devices.on_hold(1, lambda seat: (holds.append(seat), held.set()))
        button = pin_factory.pin(CuePinMap().seat_buttons[0])
        button.drive_low()
        button.drive_high()  # a tap
        assert not held.wait(0.3) and holds == []
        button.drive_low()
        assert held.wait(5.0)
        button.drive_high()
        assert holds == [1]
    finally:
        devices.close()
