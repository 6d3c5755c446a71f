"""The ``companion`` command: one subcommand per module of this package.

Bad input exits with status 2 and one line that says what is wrong and how to mend it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from companion import __version__
from companion.cli import (
    calibrate,
    install_service,
    melt,
    run,
    selfplay,
    sensors,
    verify,
    wiring,
)
from companion.cli.arguments import Parser
from companion.errors import CompanionError

COMMANDS = (run, sensors, calibrate, wiring, selfplay, verify, melt, install_service)


def build_parser() -> tuple[Parser, dict[str, Parser]]:
    """The command's parser, and each subcommand's by its name."""
    parser = Parser(
        prog="companion",
        description="A Raspberry Pi referee for ice-cube board games.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for command in COMMANDS:
        command.add_parser(sub)
    return parser, dict(sub.choices)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is the command's (2 for bad input)."""
    parser, commands = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the subcommand, whose --help lists what it takes
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.run(args))
    except CompanionError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
