"""The ``companion`` command: one subcommand per module of this package.

Bad input exits with status 2 and one line that says what is wrong and how to mend it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion import __version__
from companion.cli import selfplay, verify
from companion.errors import CompanionError

COMMANDS = (selfplay, verify)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, not a usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def build_parser() -> Parser:
    parser = Parser(
        prog="companion",
        description="A Raspberry Pi referee for ice-cube board games.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is the command's (2 for bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except CompanionError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def seconds(text: str) -> float:
    """An argparse type: a number of seconds from 0 to 10."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 10:  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} must be from 0 to 10 seconds")
    return value


def seed_int(text: str) -> int:
    """An argparse type: a seed, a whole number of at least 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed {text!r} must not be negative")
    return value
