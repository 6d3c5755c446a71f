"""``companion calibrate``: which probe and pad are whose, and how to read them in true units.

Each step reads the sensors, shows what it found and how good it is, and writes
``calibration.toml`` only once it is accepted. Interactive by default: a prompt per step, and
``Accept? [y/N]`` at the end; ``--seat``, ``--all``, ``--grams`` and ``--reference`` make the
steps run without prompts, ``--yes`` accepts. On the simulated table the table plays along: it
warms a probe, places a weight, or stands the probes in ice water when asked, and its time runs
as fast as it can be computed. What each step computes and refuses is
:mod:`companion.sensors.calibration_checks`.
"""

from __future__ import annotations

from typing import Any

from companion.cli.arguments import Parser, add_table_options, whole_number
from companion.cli.calibrate.records import check, reset, show
from companion.cli.calibrate.steps import cap, identify, tare, temperature, weight
from companion.cli.calibrate.units import celsius, grams, seconds


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "calibrate",
        help="find which probe and pad are whose, tare and weigh the pads, correct the probes",
        description="Calibrate the table's sensors, guided step by step.",
    )
    steps = p.add_subparsers(dest="step", metavar="STEP", parser_class=Parser)
    steps.required = True
    for name, run, text in (
        ("identify", identify, "find each seat's probe (warm it) and pad (press it)"),
        ("tare", tare, "read the empty pads"),
        ("weight", weight, "weigh known weights on a pad: its counts per gram"),
        ("cap", cap, "weigh the empty caps: each weigh-in takes its cap off"),
        ("temperature", temperature, "correct the probes against ice water"),
        ("show", show, "the calibration of every seat, and its age"),
        ("check", check, "the calibration, and every sensor's health read now"),
        ("reset", reset, "clear a seat's calibration, or every seat's"),
    ):
        step = steps.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        add_table_options(step)
        if name != "weight":
            which = step.add_mutually_exclusive_group()
            which.add_argument("--seat", type=whole_number(1, "seat"), help="only this seat")
            if name not in ("show", "reset"):
                which.add_argument(
                    "--all", action="store_true", help="every seat, no prompts but Accept?"
                )
        else:
            step.add_argument("--seat", type=whole_number(1, "seat"), help="the pad's seat")
            step.add_argument(
                "--grams",
                type=grams,
                action="append",
                metavar="G",
                help="a known weight, weighed without prompts; repeat for more than one",
            )
        if name == "temperature":
            step.add_argument(
                "--reference", type=celsius, metavar="C", help="the water's true temperature"
            )
        if name == "show":
            step.add_argument("--json", action="store_true", help="print the calibration as JSON")
        if name not in ("show", "check"):
            step.add_argument("--yes", action="store_true", help="accept without asking")
        if name not in ("show", "reset"):
            step.add_argument(
                "--seconds", type=seconds, metavar="S", help="how long each sample is taken"
            )
        step.set_defaults(run=run)
