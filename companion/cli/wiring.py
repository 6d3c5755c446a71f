"""``companion wiring [--config FILE] [--svg FILE]``: the pin map as a table and a diagram.

It prints the Markdown pin table; ``--svg FILE`` also writes the header diagram. Nothing is
printed or written when the config is bad or the diagram cannot be written.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.config import default_config, load_config
from companion.errors import CompanionError
from companion.wiring import header_svg, pin_table


class CannotWrite(CompanionError):
    """An output file that cannot be written, with the reason."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "wiring",
        help="the pin map of a table config: a pin table and an SVG",
        description="Print the pin map of a table config as a Markdown table; --svg also draws "
        "the 40-pin header with each part.",
    )
    p.add_argument("--config", type=Path, metavar="FILE", help="a table config (TOML)")
    p.add_argument("--svg", type=Path, metavar="FILE", help="also write the header diagram")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    config = default_config() if args.config is None else load_config(args.config)
    table = pin_table(config)
    if args.svg is not None:
        try:
            args.svg.write_text(header_svg(config), encoding="utf-8")
        except OSError as exc:
            raise CannotWrite(f"{args.svg}: cannot be written: {exc.strerror}") from None
    print(table, end="")
    return 0
