"""Fake of ``board`` on a Raspberry Pi Pico: GP0..GP28 and the board's id."""

from microcontroller import Pin

board_id = "raspberry_pi_pico"

for _number in range(29):
    globals()[f"GP{_number}"] = Pin(f"GP{_number}")
LED = GP25  # noqa: F821
A0, A1, A2 = GP26, GP27, GP28  # noqa: F821
