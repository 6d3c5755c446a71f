"""Fake of Adafruit's ``adafruit_onewire`` package (a bus and its devices)."""
