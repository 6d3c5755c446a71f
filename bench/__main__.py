"""Run every benchmark: ``python -m bench [--quick] [--json]``.

Prints a table (or, with ``--json``, only the JSON list) and writes ``bench/results.json``.
Exit 0 whether or not the goals are met (a benchmark measures, it does not judge), 1 when the
code under measurement gave a wrong answer, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import NoReturn

from bench import api, melt, selfplay, sweep, ten_count, verify
from bench.report import BenchFailure, Result, table
from companion.games import GAMES

BENCHMARKS: tuple[tuple[str, Callable[[bool], Result | list[Result]]], ...] = (
    *((f"selfplay {game}", partial(selfplay.run, game=game)) for game in GAMES),
    ("verify", verify.run),
    ("melt", melt.run),
    ("w1 sweep", sweep.run),
    ("ten-count", ten_count.run),
    ("api", api.run),
)
RESULTS = Path(__file__).with_name("results.json")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"python -m bench: {message} (usage: python -m bench [--quick] [--json])\n")


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games: a smoke test")
    parser.add_argument("--json", action="store_true", help="print only the JSON list")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, out: Path = RESULTS) -> int:
    args = parse(argv)
    results: list[Result] = []
    try:
        for name, run in BENCHMARKS:
            if not args.json:
                print(f"running {name}...", file=sys.stderr, flush=True)
            result = run(args.quick)
            results += result if isinstance(result, list) else [result]
    except BenchFailure as exc:
        print(f"bench failed: {exc}", file=sys.stderr)
        return 1
    data = [r.to_json() for r in results]
    out.write_text(json.dumps(data, indent=2) + "\n")
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(table(results))
        print(f"results written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
