"""The pod's pins on a Raspberry Pi Pico: one 1-Wire bus for every probe, a DOUT and an SCK per pad.

The host's wiring guide (``companion wiring``) draws the same map; a test keeps the two equal.
Every part runs from the Pico's 3V3(OUT) pin (physical pin 36), never from VBUS or VSYS.
"""

import board

ONE_WIRE = board.GP22
"""Every DS18B20's DQ, with one 4.7 kOhm pull-up to 3V3(OUT) for the whole bus."""

PADS = (
    (board.GP2, board.GP3),
    (board.GP4, board.GP5),
    (board.GP6, board.GP7),
    (board.GP8, board.GP9),
    (board.GP10, board.GP11),
    (board.GP12, board.GP13),
)
"""(DOUT, SCK) of pads 1 to 6: each HX711 board has a clock of its own."""
