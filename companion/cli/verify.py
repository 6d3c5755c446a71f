"""``companion verify EXPORT.json``: replay an exported game and check all its randomness.

Exit 0: everything matches (each check is printed). Exit 1: the first mismatch is named.
Exit 2: the file is not an export of a finished game.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.errors import ExportError
from companion.games.verify import verify


def add_parser(sub: Any) -> None:
    p = sub.add_parser("verify", help="replay an exported game and check every shuffle and roll")
    p.add_argument(
        "export", type=Path, metavar="EXPORT.json", help="a game exported when it was over"
    )
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        data = json.loads(args.export.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ExportError(f"{args.export}: cannot be read: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"{args.export}: not JSON ({exc})") from None
    except RecursionError:
        raise ExportError(f"{args.export}: not an export: nested too deeply") from None
    except ValueError as exc:  # a number of more digits than Python reads
        raise ExportError(f"{args.export}: not an export ({exc})") from None
    try:
        verdict = verify(data)
    except ExportError as exc:
        raise ExportError(f"{args.export}: {exc}") from None
    if args.json:
        print(
            json.dumps({"ok": verdict.ok, "checked": verdict.lines, "mismatch": verdict.mismatch})
        )
    else:
        for line in verdict.lines:
            print(f"ok: {line}")
        if verdict.mismatch:
            print(f"MISMATCH: {verdict.mismatch}")
        else:
            print(f"verified: {args.export} is an honest game")
    return 0 if verdict.ok else 1
