"""``companion wiring [--config FILE] [--svg FILE] [--pod-svg FILE] [--pod-table FILE]``.

It prints the Markdown pin table of the Pi's header; ``--svg FILE`` also writes the header
diagram. When the config reads a sensor through the sensor pod, the pod's pin table follows
the Pi's (or goes to ``--pod-table FILE``), and ``--pod-svg FILE`` draws the pod's Pico. Nothing is
printed or written when the config is bad, a pod option is given for a table without the pod, or
a file cannot be written.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from companion.config import default_config, load_config
from companion.errors import CompanionError
from companion.wiring import header_svg, pin_table
from companion.wiring.pod import pod_svg, pod_table, uses_pod


class CannotWrite(CompanionError):
    """An output file that cannot be written, with the reason."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "wiring",
        help="the pin map of a table config: a pin table and an SVG",
        description="Print the pin map of a table config as a Markdown table; --svg also draws "
        "the 40-pin header with each part. With the sensor pod (thermometers or scales "
        "\"pod\"), the pod's pin table follows, and --pod-svg draws the pod's Pico.",
    )
    p.add_argument("--config", type=Path, metavar="FILE", help="a table config (TOML)")
    p.add_argument("--svg", type=Path, metavar="FILE", help="also write the header diagram")
    p.add_argument("--pod-svg", type=Path, metavar="FILE", help="also write the pod's diagram")
    p.add_argument(
        "--pod-table",
        type=Path,
        metavar="FILE",
        help="write the pod's pin table to FILE instead of printing it after the Pi's",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    config = default_config() if args.config is None else load_config(args.config)
    pod = uses_pod(config)
    for flag, value in (("--pod-svg", args.pod_svg), ("--pod-table", args.pod_table)):
        if value is not None and not pod:
            raise CompanionError(
                f'{flag}: this table has no sensor pod: set thermometers = "pod" or scales = "pod"'
                " in its [sensors]"
            )
    outputs = [] if args.svg is None else [(args.svg, header_svg(config))]
    if args.pod_svg is not None:
        outputs.append((args.pod_svg, pod_svg(config)))
    text = pin_table(config)
    if pod and args.pod_table is not None:
        outputs.append((args.pod_table, pod_table(config)))
    elif pod:
        text += "\n" + pod_table(config)
    _write_all(outputs)
    print(text, end="")
    return 0


def _write_all(outputs: list[tuple[Path, str]]) -> None:
    """Write every file or none: each to a temp file beside it first, then all renamed."""
    done: list[Path] = []
    try:
        for path, content in outputs:
            temp = path.with_name(f".{path.name}.new")
            try:
                temp.write_text(content, encoding="utf-8")
            except OSError as exc:
                raise CannotWrite(f"{path}: cannot be written: {exc.strerror}") from None
            done.append(temp)
        for (path, _), temp in zip(outputs, done, strict=True):
            os.replace(temp, path)
        done.clear()
    finally:
        for temp in done:
            temp.unlink(missing_ok=True)
