"""``companion melt replay FILE.csv``: the melt estimator over a recorded table.

With ``--json`` it prints one JSON object a line, ``{"t_s", "seat", "grams", "sigma_g",
"eta_s"}``, for every line of a started seat; without, a table a person reads.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.errors import ReplayError
from companion.melt.replay import ReplayLine, parse, replay


def add_parser(sub: Any) -> None:
    p = sub.add_parser("melt", help="the melt model: replay a recorded table through the estimator")
    melt_sub = p.add_subparsers(dest="melt_command", metavar="SUBCOMMAND", parser_class=type(p))
    melt_sub.required = True
    r = melt_sub.add_parser("replay", help="estimate every seat's cube over a recorded table")
    r.add_argument(
        "recording",
        type=Path,
        metavar="FILE.csv",
        help="a recording with the header t_s,seat,kind,value",
    )
    r.add_argument("--json", action="store_true", help="one JSON object a line")
    r.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path: Path = args.recording
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReplayError(str(path), None, f"cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ReplayError(str(path), None, "not a text file (a CSV in UTF-8)") from None
    lines = list(replay(parse(text, str(path))))
    if args.json:
        for line in lines:
            print(json.dumps(line.to_json()))
    else:
        print(f"{'t':>8}  seat  {'grams':>13}  {'left':>5}  {'gone in (its range)':>26}  line")
        for line in lines:
            print(_readable(line))
    return 0


def _readable(line: ReplayLine) -> str:
    """One line of the table: time, seat, grams +- sigma, percent, time left, what happened."""
    est, row = line.estimate, line.row
    if est.melted and est.grams == 0.0:
        left = "melted"
    elif est.eta_s is None:
        left = "never"
    else:
        low, high = est.eta_low_s or 0.0, est.eta_high_s or 0.0
        left = f"{_clock(est.eta_s)} ({_clock(low)}-{_clock(high)})"
    value = f"{row.value:g}" if isinstance(row.value, float) else row.value
    what = row.kind if value is None else f"{row.kind} {value}"
    if row.seat is None:
        what += " (table)"
    flag = "  (melted?)" if est.melted and est.grams > 0.0 else ""
    return (
        f"{_clock(row.t_s):>8}  {line.seat:>4}  {est.grams:6.2f} ± {est.sigma_g:4.2f}"
        f"  {est.percent:4.0f}%  {left:>26}  {what}{flag}"
    )


def _clock(seconds: float) -> str:
    """Seconds as m:ss, or h:mm:ss from an hour.

    >>> _clock(3725.0), _clock(65.4)
    ('1:02:05', '1:05')
    """
    whole = round(seconds)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
