"""The units a maker types: grams, degrees Celsius and seconds, each a plain number; anything
else ("6g", "32F") is refused with a sentence saying how to write it."""

from __future__ import annotations

import argparse
import math

from companion.sensors import calibration_checks as judge
from companion.sensors.calibration_checks import CalibrationRefused


def grams(text: str) -> float:
    """An argparse type: a known weight in grams, a plain positive number.

    >>> grams("6")
    6.0
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of grams: give grams as a plain number, such as 6.0"
        ) from None
    try:
        return judge.check_grams(value)
    except CalibrationRefused as refused:
        raise argparse.ArgumentTypeError(str(refused)) from None


def celsius(text: str) -> float:
    """An argparse type: a temperature in degrees Celsius, a plain number.

    >>> celsius("0")
    0.0
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not -20.0 <= value <= 60.0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a temperature: give degrees Celsius as a plain number from -20 "
            "to 60, such as 0 for ice water"
        )
    return value


def seconds(text: str) -> float:
    """An argparse type: how long each sample is taken, above 0 and up to 120 seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 < value <= 120.0:
        raise argparse.ArgumentTypeError(
            f"{text!r} must be a number of seconds above 0 and up to 120"
        )
    return value
