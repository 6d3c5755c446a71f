"""Drivers that return raw readings, their filters and calibration (filled by the sensors issue)."""
