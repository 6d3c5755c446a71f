"""The ``companion`` command: one subcommand per module of this package.

A subcommand's module is imported only when it runs, so ``companion --help`` loads none and
``companion run`` no other. Bad input exits with status 2 and one line that says what is wrong
and how to mend it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Collection, Sequence
from types import ModuleType
from typing import Final

from companion import __version__
from companion.cli.arguments import Parser
from companion.errors import CompanionError

COMMANDS: Final[dict[str, str]] = {
    "run": "run the table: sensors, referee, cues and the web page for the phones",
    "sensors": "show every probe and pad: raw value, calibrated value and status",
    "calibrate": "find which probe and pad are whose, tare and weigh the pads, correct the probes",
    "wiring": "the pin map of a table config: a pin table and an SVG",
    "selfplay": "random players play whole games; the rules are checked",
    "verify": "replay an exported game and check every shuffle and roll",
    "melt": "the melt model: replay a recorded table through the estimator",
    "install-service": "install the table as a systemd service (as root, on the Pi)",
    "hotspot": "start the table's own Wi-Fi network (NetworkManager)",
    "hall": "one page for a room of tables, from the MQTT broker they publish to",
}
"""Each subcommand, with its line in ``companion --help`` (its module's ``add_parser`` gives the
same line); its module is ``companion.cli.<name>``, a ``-`` read as ``_``."""


def command_module(name: str) -> ModuleType:
    """The module of subcommand ``name``, imported now."""
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def build_parser(load: Collection[str] = COMMANDS) -> tuple[Parser, dict[str, Parser]]:
    """The command's parser, and each subcommand's by its name: whole for those in ``load``
    (their modules imported), only a name and a help line for the others."""
    parser = Parser(
        prog="companion",
        description="A Raspberry Pi referee for ice-cube board games.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name, line in COMMANDS.items():
        if name in load:
            command_module(name).add_parser(sub)
        else:
            sub.add_parser(name, help=line, add_help=False)
    return parser, dict(sub.choices)


def chosen(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` runs: its first word that is not an option (the command's own
    options take no value).

    >>> chosen(["--version"]), chosen(["run", "--port", "8080"])
    (None, 'run')
    """
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is the command's (2 for bad input)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser, commands = build_parser(load=[name for name in COMMANDS if name == chosen(argv)])
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
