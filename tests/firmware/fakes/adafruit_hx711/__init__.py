"""Fake of Adafruit's ``adafruit_hx711`` package."""
