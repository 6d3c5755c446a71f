"""What every command's arguments share: one-line errors, and checked argument types."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (exit 2), not a usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def whole_number(minimum: int, what: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``.

    >>> whole_number(1)("3")
    3
    """

    def parse(text: str) -> int:
        label = f"{what} {text!r}".strip()
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{label} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{label} must be at least {minimum}")
        return value

    return parse


positive_int = whole_number(1)
seed_int = whole_number(0, "seed")


def seconds(text: str) -> float:
    """An argparse type: a number of seconds from 0 to 10."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if math.isnan(value) or not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"{text!r} must be from 0 to 10 seconds")
    return value
